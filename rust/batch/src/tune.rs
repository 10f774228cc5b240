//! How many threads a kind of call uses: one, or all it is allowed, whichever pays,
//! measured call by call.
//!
//! On a quiet machine a second thread steps a batch in about 0.6 of the time; on one
//! whose cores are all busy with other work a call of several threads often waits
//! milliseconds for a worker that the system runs only when another process's time slice
//! ends: a rayon scope returns only once each job it spawned has run, even a job that
//! finds no piece left (traced at batch 4,096 with every core busy: in 14 of 21 calls of
//! two threads the caller stepped every piece itself, then waited 8 ms on average for
//! the worker). No count is right for both, and a machine goes from one to the other (a
//! learner's own process training beside the batch).
//!
//! So a call of several threads is judged against itself: its shared pieces note on the
//! calling thread how long the caller took for its own pieces and how long it then waited
//! for the workers ([`crate::par::Shares`]), and the caller's rate stands for one
//! thread's, under the same load at the same moment. A [`Tuner`] keeps, for each shape of
//! call (rows and threads allowed), the last 8 calls of the threads in use and leaves
//! them for one thread as soon as those calls took longer in all than one thread would
//! have (one call that waited a time slice may be enough: what counts is the time in
//! all, not a typical call). On one thread it tries all the threads for 3 calls now and
//! then and takes them when those calls took at most 0.9 of what one thread would have
//! (a margin, so that threads that gain nothing do not come and go); a try ends at its
//! first call if that call lost. Where a call notes
//! no shares (the fused learner step, whose caller writes rows while the workers step
//! them), what one thread would have taken is the mean of its last calls on one thread.
//!
//! A try is due 8 calls after one thread was taken, then twice as many after each try
//! that loses (up to 1,024), or a second after the last try; but never before the calls
//! since then have taken [`BUDGET`] times what the last try lost (or what the calls that
//! made it leave the threads lost), so tries cost at most about 2% of the time whatever
//! a call lasts. The first calls of a shape use one thread. The results never depend on
//! the count (every game draws from its own stream), only the speed does.
//!
//! `PACRU_TUNE=0` in the environment turns the tuners off (every call then uses the
//! threads it is allowed, as a scaling benchmark wants).

use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::par::{put_shares, take_shares};

/// The shapes of call a tuner keeps (the least recently used makes room for a new one).
const SHAPES: usize = 8;

/// The calls between two tries of all the threads, at first and at most.
const FIRST_TRY: u32 = 8;
const LAST_TRY: u32 = 1024;

/// The longest time between two tries (while the budget allows): the machine's load
/// changes within seconds.
const TRY_AFTER: Duration = Duration::from_secs(1);

/// The calls of a try.
const TRY_CALLS: usize = 3;

/// How many times what the last try lost the calls since must have taken before the
/// next: tries lose at most about 1/50 of the calls' time.
const BUDGET: f64 = 50.0;

/// The latest calls kept of each count.
const RECENT: usize = 8;

/// All the threads are taken when a try's calls took at most this share of what one
/// thread would have taken, and left as soon as their latest calls took more than one
/// thread would have: between the two, the count in use is kept.
const TAKE: f64 = 0.9;

/// The sum of each of the two values of `pairs`.
fn sums(pairs: &[(f64, f64)]) -> (f64, f64) {
    pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y))
}

/// What a tuner knows of one shape of call, in nanoseconds a row.
#[derive(Clone, Debug)]
struct Shape {
    rows: usize,
    threads: usize,
    /// The count in use (0: one thread, 1: `threads`).
    best: usize,
    /// The latest calls of all the threads while they are in use (a ring of [`RECENT`]):
    /// what each took and what it would have taken on one thread; how many it holds.
    recent: [(f64, f64); RECENT],
    held: usize,
    /// The latest calls of one thread (a ring of [`RECENT`]) and how many it holds.
    solo: [f64; RECENT],
    solos: usize,
    /// The calls of the try under way, when one is.
    tried: Vec<(f64, f64)>,
    trying: bool,
    /// The calls since the last try or change, and between two tries now; when it
    /// ended; what the calls since then took in all; what the last try lost.
    calls: u32,
    every: u32,
    tried_at: Instant,
    spent: f64,
    lost: f64,
    /// When it was last used (the tuner's clock), for making room.
    used: u64,
    /// Whether the first call of all the threads, which may pay for starting the pool,
    /// has been left out.
    warm: bool,
}

impl Shape {
    fn new(rows: usize, threads: usize, used: u64, now: Instant) -> Shape {
        Shape {
            rows,
            threads,
            best: 0,
            recent: [(0.0, 0.0); RECENT],
            held: 0,
            solo: [0.0; RECENT],
            solos: 0,
            tried: Vec::new(),
            trying: false,
            calls: 0,
            every: FIRST_TRY,
            tried_at: now,
            spent: 0.0,
            lost: 0.0,
            used,
            warm: false,
        }
    }

    /// The count the next call uses.
    fn arm(&self) -> usize {
        if self.trying {
            1 - self.best
        } else {
            self.best
        }
    }

    /// The mean of the latest calls of one thread (None before any).
    fn solo_cost(&self) -> Option<f64> {
        let n = self.solos.min(RECENT);
        (n > 0).then(|| self.solo[..n].iter().sum::<f64>() / n as f64)
    }

    /// Records a call of `arm` that took `took` nanoseconds a row, ended `now`, and
    /// would have taken `one` on one thread (None: unknown, the mean of the latest calls
    /// of one thread stands for it).
    fn record(&mut self, arm: usize, took: f64, one: Option<f64>, now: Instant) {
        if arm != self.arm() {
            return; // another thread's call crossed a change of arm: left out
        }
        if arm == 0 {
            self.solo[self.solos % RECENT] = took;
            self.solos += 1;
            self.calls += 1;
            self.spent += took;
            let due = self.calls >= self.every || now.duration_since(self.tried_at) >= TRY_AFTER;
            if due && self.spent >= BUDGET * self.lost {
                self.trying = true;
                self.tried.clear();
            }
            return;
        }
        if !self.warm {
            self.warm = true;
            return;
        }
        let Some(one) = one.or_else(|| self.solo_cost()) else {
            return;
        };
        if self.trying {
            // A try ends once its calls have lost in all (a worker that waited a time
            // slice: the calls left could hardly win it back), else after its calls.
            self.tried.push((took, one));
            let (t, o) = sums(&self.tried);
            if t > o || self.tried.len() >= TRY_CALLS {
                self.trying = false;
                self.judge(now);
            }
            return;
        }
        self.recent[self.held % RECENT] = (took, one);
        self.held += 1;
        let kept = &self.recent[..self.held.min(RECENT)];
        let (took, one) = sums(kept);
        if took > one {
            // The threads lost over their latest calls: one thread, and a try once the
            // calls since have paid for a try's share of that loss.
            self.lost = (took - one) * TRY_CALLS as f64 / kept.len() as f64;
            self.best = 0;
            self.every = FIRST_TRY;
            self.restart(now);
        }
    }

    /// The end of a try of all the threads: taken if its calls took at most [`TAKE`] of
    /// what one thread would have, else tried again twice as many calls later.
    fn judge(&mut self, now: Instant) {
        let (took, one) = sums(&self.tried);
        if took <= TAKE * one {
            self.best = 1;
            self.recent[..self.tried.len()].copy_from_slice(&self.tried);
            self.held = self.tried.len();
            self.lost = 0.0;
        } else {
            self.lost = took - one;
            self.every = (2 * self.every).min(LAST_TRY);
        }
        self.restart(now);
    }

    /// The count of calls, the clock and the spending between tries, from `now`.
    fn restart(&mut self, now: Instant) {
        (self.calls, self.tried_at, self.spent) = (0, now, 0.0);
    }
}

/// The thread count of one kind of call, chosen by measure (see the module's docs): a
/// `static` per kind of call.
pub struct Tuner {
    shapes: Mutex<(u64, Vec<Shape>)>,
}

impl Default for Tuner {
    fn default() -> Tuner {
        Tuner::new()
    }
}

/// Whether the tuners choose (`PACRU_TUNE` is not "0"), read once.
fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("PACRU_TUNE").is_none_or(|v| v != "0"))
}

impl Tuner {
    pub const fn new() -> Tuner {
        Tuner {
            shapes: Mutex::new((0, Vec::new())),
        }
    }

    /// `f(t)`, with `t` one thread or `threads`, whichever pays lately for calls of
    /// `rows` rows and `threads` threads, timed for the next choice.
    pub fn run<R>(&self, rows: usize, threads: usize, f: impl FnOnce(usize) -> R) -> R {
        if threads <= 1 || !enabled() {
            return f(threads);
        }
        let arm = self.arm(rows, threads);
        let outer = take_shares();
        let start = Instant::now();
        let out = f(if arm == 0 { 1 } else { threads });
        let took = start.elapsed().as_secs_f64() * 1e9;
        let shares = take_shares();
        put_shares(outer.plus(shares));
        // A call whose caller stepped no piece (the system stopped it while a worker
        // did them all) tells nothing of one thread: left out.
        if !shares.unknown {
            let per_row = |nanos: f64| nanos / rows.max(1) as f64;
            let one = shares.one_thread(took).map(per_row);
            self.record(rows, threads, arm, per_row(took), one);
        }
        out
    }

    /// The shapes, or None when another thread holds them (a call then uses every
    /// thread it is allowed and is not measured: a child forked while a thread of its
    /// parent held the lock would otherwise wait forever).
    fn lock(&self) -> Option<std::sync::MutexGuard<'_, (u64, Vec<Shape>)>> {
        match self.shapes.try_lock() {
            Ok(shapes) => Some(shapes),
            Err(std::sync::TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    }

    /// The count (0: one thread, 1: `threads`) of the next call of this shape.
    fn arm(&self, rows: usize, threads: usize) -> usize {
        let now = Instant::now();
        let Some(mut guard) = self.lock() else {
            return 1;
        };
        let (clock, shapes) = &mut *guard;
        *clock += 1;
        if let Some(shape) = shapes
            .iter_mut()
            .find(|s| (s.rows, s.threads) == (rows, threads))
        {
            shape.used = *clock;
            return shape.arm();
        }
        let shape = Shape::new(rows, threads, *clock, now);
        let arm = shape.arm();
        if shapes.len() < SHAPES {
            shapes.push(shape);
        } else if let Some(old) = shapes.iter_mut().min_by_key(|s| s.used) {
            *old = shape;
        }
        arm
    }

    /// Records a call of this shape that used `arm`, took `took` nanoseconds a row and
    /// would have taken `one` on one thread.
    fn record(&self, rows: usize, threads: usize, arm: usize, took: f64, one: Option<f64>) {
        let now = Instant::now();
        let Some(mut guard) = self.lock() else {
            return;
        };
        if let Some(shape) = guard
            .1
            .iter_mut()
            .find(|s| (s.rows, s.threads) == (rows, threads))
        {
            shape.record(arm, took, one, now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `shape` `calls` calls, each taking `cost(arm)` = (what it took, what it
    /// would have taken on one thread) a row: the arms used.
    fn drive(shape: &mut Shape, cost: impl Fn(usize) -> (f64, f64), calls: usize) -> Vec<usize> {
        (0..calls)
            .map(|_| {
                let arm = shape.arm();
                let (took, one) = cost(arm);
                let one = (arm == 1).then_some(one);
                shape.record(arm, took, one, shape.tried_at);
                arm
            })
            .collect()
    }

    /// Two threads that take `two` of what one thread takes, one thread 1.0 a row.
    fn ratio(two: f64) -> impl Fn(usize) -> (f64, f64) {
        move |arm| if arm == 0 { (1.0, 1.0) } else { (two, 1.0) }
    }

    #[test]
    fn threads_that_lose_are_left_and_tried_ever_more_rarely() {
        let mut shape = Shape::new(1024, 2, 0, Instant::now());
        let arms = drive(&mut shape, ratio(2.0), 2000);
        // Eight calls of one thread first, then a try of the threads: its first call
        // left out (the pool may start in it), the next loses: one thread again.
        assert_eq!(&arms[..12], &[0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0]);
        assert_eq!(shape.best, 0);
        // The tries, each of one call that loses, grow 16, 32, ... 1,024 apart (and
        // 50 calls at least: the budget).
        let tried = arms[10..].iter().filter(|&&a| a == 1).count();
        assert!((5..=8).contains(&tried), "{tried}");
        assert_eq!(shape.every, LAST_TRY);
    }

    #[test]
    fn a_try_ends_at_its_first_call_that_leaves_it_losing() {
        let mut shape = Shape::new(1024, 2, 0, Instant::now());
        let arms = drive(&mut shape, ratio(3.0), 12);
        // The first call of the threads left out, the next lost: one thread again.
        assert_eq!(arms, [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0]);
        // A try whose first call gained and second lost more ends at the second.
        let mut shape = Shape::new(1024, 2, 0, Instant::now());
        drive(&mut shape, ratio(3.0), 10);
        let mut arms = Vec::new();
        for took in [0.5, 2.0, 1.0, 1.0] {
            while shape.arm() == 0 {
                shape.record(0, 1.0, None, shape.tried_at + TRY_AFTER);
            }
            shape.record(1, took, Some(1.0), shape.tried_at);
            arms.push(shape.trying);
        }
        assert_eq!(&arms[..2], &[true, false]);
        assert_eq!(shape.best, 0);
    }

    #[test]
    fn threads_that_win_are_kept_and_a_change_of_load_is_followed() {
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        let arms = drive(&mut shape, ratio(0.6), 500);
        assert_eq!(shape.best, 1);
        assert!(arms[12..].iter().all(|&a| a == 1));
        // The machine gets busy: the threads now take three times as long as one would.
        let arms = drive(&mut shape, ratio(3.0), 500);
        assert_eq!(shape.best, 0);
        // Left at the first call that lost so much (the 8 calls kept took longer in all).
        assert_eq!(arms[..4], [1, 1, 0, 0]);
        assert!(arms[4..].iter().filter(|&&a| a == 1).count() < 30);
        // And quiet again: the threads come back at the next try.
        let arms = drive(&mut shape, ratio(0.6), 3000);
        assert_eq!(shape.best, 1);
        assert!(arms[2000..].iter().all(|&a| a == 1));
    }

    #[test]
    fn a_try_is_judged_against_one_thread_at_the_same_moment() {
        // One thread's calls took 2.0 a row (a busier minute), then the machine got
        // quieter: the threads' calls take 1.5, but one thread would now take 1.0. The
        // threads beat the calls of one thread before their try, not one thread now.
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        drive(&mut shape, |arm| [(2.0, 2.0), (1.5, 1.0)][arm], 200);
        assert_eq!(shape.best, 0);
    }

    #[test]
    fn threads_are_left_as_soon_as_their_latest_calls_lose_in_all() {
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        drive(&mut shape, ratio(0.6), 50);
        assert_eq!(shape.best, 1);
        // Seven calls at 0.6 of one thread's time gain 2.8 calls' worth: a call that
        // waited a time slice and took 3.5 times one thread's loses 2.5 (kept), one that
        // took 4.5 times loses 3.5 (left).
        drive(&mut shape, ratio(0.6), 8);
        shape.record(1, 3.5, Some(1.0), shape.tried_at);
        assert_eq!(shape.best, 1);
        drive(&mut shape, ratio(0.6), 8);
        shape.record(1, 4.5, Some(1.0), shape.tried_at);
        assert_eq!(shape.best, 0);
    }

    #[test]
    fn the_threads_are_tried_at_least_once_a_second_within_the_budget() {
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        drive(&mut shape, ratio(1.02), 3000);
        assert_eq!(
            (shape.best, shape.every, shape.trying),
            (0, LAST_TRY, false)
        );
        // Far fewer calls than `every`, but a second later and paid for: the next call
        // tries.
        let later = shape.tried_at + TRY_AFTER;
        shape.record(0, 1.0, None, later);
        assert!(shape.trying);
    }

    #[test]
    fn a_close_call_keeps_the_count_in_use() {
        // Threads that gain 5%: not taken from one thread (a tenth needed)...
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        drive(&mut shape, ratio(0.95), 3000);
        assert_eq!(shape.best, 0);
        // ... nor left once in use.
        drive(&mut shape, ratio(0.6), 100);
        assert_eq!(shape.best, 1);
        let arms = drive(&mut shape, ratio(0.95), 3000);
        assert_eq!(shape.best, 1);
        assert!(arms.iter().all(|&a| a == 1));
    }

    #[test]
    fn calls_that_note_no_shares_are_judged_against_one_threads_latest() {
        // The fused learner step: its calls tell nothing of one thread, whose latest
        // calls (1.0 a row) stand for it.
        let mut shape = Shape::new(256, 2, 0, Instant::now());
        let unknown = |shape: &mut Shape, two: f64, calls: usize| {
            for _ in 0..calls {
                let arm = shape.arm();
                let took = if arm == 0 { 1.0 } else { two };
                shape.record(arm, took, None, shape.tried_at);
            }
        };
        unknown(&mut shape, 0.6, 100);
        assert_eq!(shape.best, 1);
        unknown(&mut shape, 2.0, 100);
        assert_eq!(shape.best, 0);
    }

    /// Feeds `shape` `calls` calls of `rows` rows on a clock that each call moves on by
    /// its time: `cost(arm, call)` is what the call took and what it would have taken on
    /// one thread, nanoseconds a row. Returns the time they took in all, against the
    /// time of the same calls all on one thread.
    fn clocked(
        shape: &mut Shape,
        rows: usize,
        calls: usize,
        cost: impl Fn(usize, usize) -> (f64, f64),
    ) -> (f64, f64) {
        let (mut now, mut took, mut one) = (Instant::now(), 0.0, 0.0);
        for call in 0..calls {
            let arm = shape.arm();
            let (per_row, solo) = cost(arm, call);
            let nanos = per_row * rows as f64;
            now += Duration::from_nanos(nanos as u64);
            shape.record(arm, per_row, (arm == 1).then_some(solo), now);
            took += nanos;
            one += cost(0, call).0 * rows as f64;
        }
        (took, one)
    }

    #[test]
    fn tries_of_threads_that_lose_cost_a_fiftieth_of_the_time_whatever_a_call_lasts() {
        // Batch 4,096 on a busy machine: one thread 3 microseconds a row (12 ms a call),
        // two threads three times as long. Tried once a second, they would cost 7% of
        // the time; within the budget, about 2% (`BUDGET`).
        let cost = |arm: usize, _| [(3000.0, 3000.0), (9000.0, 3000.0)][arm];
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        clocked(&mut shape, 4096, 200, cost);
        assert_eq!(shape.best, 0);
        let (took, one) = clocked(&mut shape, 4096, 5000, cost);
        assert_eq!(shape.best, 0);
        let lost = took / one - 1.0;
        assert!((0.005..0.025).contains(&lost), "{lost}");
    }

    /// A busy machine as traced at batch 4,096: two threads' calls mostly wait a time
    /// slice for the worker (3 times one thread's time), one in three as fast as on a
    /// quiet machine (the worker had a core at once); one thread's calls now and then
    /// stopped for a time slice, which would have stopped either count.
    fn busy(seed: u64) -> impl Fn(usize, usize) -> (f64, f64) {
        let mut seed = seed;
        let draws: Vec<u64> = (0..20_000)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed % 6
            })
            .collect();
        move |arm, call| {
            let one = if draws[call] == 0 { 6000.0 } else { 3000.0 };
            match (arm, draws[call]) {
                (0, _) => (one, one),
                (_, 0 | 1) => (0.6 * one, one),
                _ => (3.0 * one, one),
            }
        }
    }

    #[test]
    fn threads_that_win_now_and_then_by_chance_cost_little() {
        for seed in [0x9E37_79B9_7F4A_7C15_u64, 7, 12_345] {
            let mut shape = Shape::new(4096, 2, 0, Instant::now());
            let (took, one) = clocked(&mut shape, 4096, 20_000, busy(seed));
            assert!(took / one < 1.025, "{seed}: {}", took / one);
        }
    }

    #[test]
    fn a_tuner_runs_the_call_with_one_thread_or_all() {
        let tuner = Tuner::new();
        let mut counts = std::collections::HashSet::new();
        for _ in 0..100 {
            let t = tuner.run(1000, 4, |t| t);
            assert!(t == 1 || t == 4, "{t}");
            counts.insert(t);
        }
        // One thread first, all of them tried after 8 calls.
        assert_eq!(counts.len(), 2);
        assert_eq!(tuner.run(1000, 1, |t| t), 1);
        // Shapes past the kept number make room for each other.
        for rows in 0..3 * SHAPES {
            tuner.run(rows, 2, |t| t);
        }
        assert_eq!(tuner.shapes.lock().unwrap().1.len(), SHAPES);
    }

    #[test]
    fn a_tuners_call_within_anothers_leaves_the_outer_shares() {
        let (outer, inner) = (Tuner::new(), Tuner::new());
        let _ = take_shares();
        let noted = outer.run(1000, 1, |_| {
            crate::par::each_shared((0..8).collect(), 1, |i: usize| i);
            put_shares(crate::par::Shares {
                calls: 1,
                own: 5.0,
                ..Default::default()
            });
            inner.run(1000, 2, |_| ());
            take_shares()
        });
        assert_eq!((noted.calls, noted.own), (1, 5.0));
    }
}
