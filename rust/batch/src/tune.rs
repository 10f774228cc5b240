//! How many threads a kind of call uses: one, or all it is allowed, whichever has been
//! faster lately, measured call by call.
//!
//! On a quiet machine a second thread steps a batch in about 0.6 of the time; on one
//! whose cores are all busy with other work it may take several times as long, as each
//! call waits for a worker that the system runs only when another process's time slice
//! ends (a scope's jobs must all have run before it returns, even those that find no work
//! left). No count is right for both, and a machine goes from one to the other (a
//! learner's own process training beside the batch). A [`Tuner`] keeps, for each shape of
//! call (rows and threads allowed), what a row cost lately with the count it uses (the
//! median of its last 7 calls: a call stopped for a time slice counts for no more than
//! another), and now and then tries the other count for 3 calls: it moves to it when
//! their median beat the count in use by a fifth (to all the threads) or a twentieth (to
//! one thread), both in its calls before the try and in 3 calls after it (a try made as
//! the load fell does not win against calls made before).
//!
//! A try is due after 8 calls at first, then twice as many after each try that loses (up
//! to 1,024), or a second after the last, or at once when the count in use gets slower
//! than the other was at its last try; but never before the calls since the last try have
//! taken [`BUDGET`] times what the try is expected to lose (3 calls of the other count at
//! its cost of its last try, less the count in use's). So a try costs at most about 2% of
//! the time whatever a call lasts: at batch 4,096 on a busy machine a call of one thread
//! takes about 12 ms and one of two threads often several times as long, and a try every
//! second cost 7% of one thread's time (the tests' model, below).
//! The results never depend on the count (every game draws from its own stream), only
//! the speed does.
//!
//! `PACRU_TUNE=0` in the environment turns the tuners off (every call then uses the
//! threads it is allowed, as a scaling benchmark wants).

use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The shapes of call a tuner keeps (the least recently used makes room for a new one).
const SHAPES: usize = 8;

/// The calls between two tries of the other count, at first and at most.
const FIRST_TRY: u32 = 8;
const LAST_TRY: u32 = 1024;

/// The longest time between two tries: the other count's cost, measured at its last
/// try, says little once the load has changed (a try costs a few calls: at most about
/// 1% of a second of calls that the other count makes twice as slow).
const TRY_AFTER: Duration = Duration::from_secs(1);

/// The calls of a try.
const TRY_CALLS: usize = 3;

/// How many times what a try is expected to lose the calls since the last try must have
/// taken before the next (see the module's docs): tries lose at most about 1/50 of the
/// calls' time.
const BUDGET: f64 = 50.0;

/// The latest calls of the count in use that its cost is the median of.
const RECENT: usize = 7;

/// How much faster the other count must be to be taken: all the threads by a fifth
/// (their cost at most 0.8 of one thread's), one thread by a twentieth. Uneven, as the
/// losses are: a machine whose threads gain 10% loses little on one, while threads that
/// lose on a busy machine may take twice as long.
const MARGIN: [f64; 2] = [0.95, 0.8];

/// The median of `values` (not empty; 0 when empty).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}

/// What a tuner knows of one shape of call. Costs are nanoseconds a row, each the median
/// of a few calls: a call that the system stopped for a time slice (several milliseconds
/// on a busy machine, against a fraction of one for a step) counts for no more than any
/// other.
#[derive(Clone, Debug)]
struct Shape {
    rows: usize,
    threads: usize,
    /// The count in use (0: one thread, 1: `threads`).
    best: usize,
    /// The latest calls of the count in use (a ring of [`RECENT`]), and how many it holds.
    recent: [f64; RECENT],
    held: usize,
    /// The cost of the other count at its last try (0: never tried).
    other: f64,
    /// The calls of the try under way, when one is.
    tried: Vec<f64>,
    trying: bool,
    /// After a try that won, the calls of the count in use that it must beat too (the
    /// load may have changed while it ran), while they are made.
    confirm: Vec<f64>,
    confirming: bool,
    /// The calls since the last try ended, and between two tries now; when it ended; what
    /// a row of the calls since then cost in all (nanoseconds).
    calls: u32,
    every: u32,
    tried_at: Instant,
    spent: f64,
    /// When it was last used (the tuner's clock), for making room.
    used: u64,
    /// Whether the first call, which pays for starting the pool, has been left out.
    warm: bool,
}

impl Shape {
    fn new(rows: usize, threads: usize, used: u64, now: Instant) -> Shape {
        Shape {
            rows,
            threads,
            best: 1,
            recent: [0.0; RECENT],
            held: 0,
            other: 0.0,
            tried: Vec::new(),
            trying: false,
            confirm: Vec::new(),
            confirming: false,
            calls: 0,
            every: FIRST_TRY,
            tried_at: now,
            spent: 0.0,
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

    /// The cost of the count in use (0 before any call).
    fn cost(&self) -> f64 {
        median(&self.recent[..self.held.min(RECENT)])
    }

    /// Whether the calls since the last try have taken [`BUDGET`] times what the next is
    /// expected to lose: [`TRY_CALLS`] calls of the other count at its cost at its last
    /// try, against the count in use's cost now (nothing before the other's first try).
    fn paid(&self) -> bool {
        let loss = TRY_CALLS as f64 * (self.other - self.cost()).max(0.0);
        self.spent >= BUDGET * loss
    }

    /// Records a call of `arm` that took `per_row` nanoseconds a row and ended `now`.
    fn record(&mut self, arm: usize, per_row: f64, now: Instant) {
        if !self.warm {
            self.warm = true;
            return;
        }
        if arm != self.arm() {
            return; // another thread's call crossed a change of arm: left out
        }
        if self.confirming {
            self.confirm.push(per_row);
            if self.confirm.len() < TRY_CALLS {
                return;
            }
            self.confirming = false;
            let after = median(&self.confirm);
            self.judge(1 - arm, after, now);
            return;
        }
        if !self.trying {
            self.recent[self.held % RECENT] = per_row;
            self.held += 1;
            self.calls += 1;
            self.spent += per_row;
            // The count in use now slower than the other was at its try (the machine got
            // busy, or quiet): the other is tried at once.
            let slower = self.held >= RECENT && self.other > 0.0 && self.cost() > self.other;
            let due = self.calls >= self.every || now.duration_since(self.tried_at) >= TRY_AFTER;
            if slower || (due && self.paid()) {
                (self.trying, self.calls) = (true, 0);
                self.tried.clear();
            }
            return;
        }
        self.tried.push(per_row);
        if self.tried.len() < TRY_CALLS {
            return;
        }
        self.trying = false;
        let (used, other) = (self.cost(), median(&self.tried));
        if used == 0.0 {
            self.judge(arm, 0.0, now);
        } else if other < MARGIN[arm] * used {
            // Won against the calls before it: judged against those after it too.
            self.other = other;
            self.confirming = true;
            self.confirm.clear();
        } else {
            self.judge(arm, used, now);
        }
    }

    /// The end of a try of `arm`, whose cost is in `tried`, against `used`, the cost of
    /// the count in use (0: unknown): `arm` is taken if it beat it.
    fn judge(&mut self, arm: usize, used: f64, now: Instant) {
        let other = median(&self.tried);
        if used == 0.0 || other < MARGIN[arm] * used {
            self.best = arm;
            self.recent[..TRY_CALLS].copy_from_slice(&self.tried);
            (self.held, self.other, self.every) = (TRY_CALLS, used.max(self.cost()), FIRST_TRY);
        } else {
            (self.other, self.every) = (other, (2 * self.every).min(LAST_TRY));
        }
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

    /// `f(t)`, with `t` one thread or `threads`, whichever has lately been faster for
    /// calls of `rows` rows and `threads` threads, timed for the next choice.
    pub fn run<R>(&self, rows: usize, threads: usize, f: impl FnOnce(usize) -> R) -> R {
        if threads <= 1 || !enabled() {
            return f(threads);
        }
        let arm = self.arm(rows, threads);
        let start = Instant::now();
        let out = f(if arm == 0 { 1 } else { threads });
        self.record(rows, threads, arm, start);
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

    /// Records a call of this shape that used `arm` and started at `start`.
    fn record(&self, rows: usize, threads: usize, arm: usize, start: Instant) {
        let now = Instant::now();
        let Some(mut guard) = self.lock() else {
            return;
        };
        let took = now.duration_since(start);
        let per_row = took.as_secs_f64() * 1e9 / rows.max(1) as f64;
        if let Some(shape) = guard
            .1
            .iter_mut()
            .find(|s| (s.rows, s.threads) == (rows, threads))
        {
            shape.record(arm, per_row, now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `shape` calls that take `costs[arm]` a row, `calls` of them: the arms used.
    fn drive(shape: &mut Shape, costs: [f64; 2], calls: usize) -> Vec<usize> {
        (0..calls)
            .map(|_| {
                let arm = shape.arm();
                shape.record(arm, costs[arm], shape.tried_at);
                arm
            })
            .collect()
    }

    #[test]
    fn threads_that_lose_are_left_and_tried_ever_more_rarely() {
        let mut shape = Shape::new(1024, 2, 0, Instant::now());
        // One thread twice as fast: after the first try every call uses it.
        let arms = drive(&mut shape, [1.0, 2.0], 2000);
        // Eight calls after the first, three of one thread, three more of the threads
        // to confirm, then one thread.
        assert_eq!(
            &arms[..16],
            &[1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0]
        );
        assert_eq!(shape.best, 0);
        // The tries of the threads, each of three calls, grow 16, 32, ... 1,024 apart.
        let tried = arms[20..].iter().filter(|&&a| a == 1).count();
        assert!((9..=30).contains(&tried), "{tried}");
        assert_eq!(shape.every, LAST_TRY);
    }

    #[test]
    fn threads_that_win_are_kept_and_a_change_of_load_is_followed() {
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        let arms = drive(&mut shape, [2.0, 1.0], 500);
        assert_eq!(shape.best, 1);
        assert!(arms.iter().filter(|&&a| a == 0).count() < 30);
        // The machine gets busy: the threads now take four times as long.
        let arms = drive(&mut shape, [2.0, 8.0], 500);
        assert_eq!(shape.best, 0);
        assert!(arms[100..].iter().filter(|&&a| a == 1).count() < 30);
        // And quiet again: the threads come back at a later try.
        drive(&mut shape, [2.0, 1.0], 3000);
        assert_eq!(shape.best, 1);
    }

    #[test]
    fn calls_stopped_for_a_time_slice_now_and_then_do_not_move_the_count() {
        let mut shape = Shape::new(256, 2, 0, Instant::now());
        // One thread: 1.0 a row, but one call in five stopped (8.0); the threads 1.5.
        let mut used = Vec::new();
        for i in 0..3000 {
            let arm = shape.arm();
            let cost = if arm == 0 { 1.0 } else { 1.5 };
            shape.record(arm, if i % 5 == 0 { 8.0 } else { cost }, shape.tried_at);
            used.push(arm);
        }
        assert_eq!(shape.best, 0);
        assert!(used[100..].iter().filter(|&&a| a == 1).count() < 40);
    }

    #[test]
    fn the_other_count_is_tried_at_least_once_a_second() {
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        drive(&mut shape, [1.0, 2.0], 3000);
        assert_eq!(
            (shape.best, shape.every, shape.trying),
            (0, LAST_TRY, false)
        );
        // Far fewer calls than `every`, but a second later: the next call tries.
        let later = shape.tried_at + TRY_AFTER;
        shape.record(0, 1.0, later);
        assert!(shape.trying);
    }

    #[test]
    fn threads_must_gain_a_fifth_to_be_taken() {
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        drive(&mut shape, [1.0, 2.0], 100);
        assert_eq!(shape.best, 0);
        // Threads 10% faster: one thread is kept.
        drive(&mut shape, [1.0, 0.9], 3000);
        assert_eq!(shape.best, 0);
        // 30% faster: taken.
        drive(&mut shape, [1.0, 0.7], 3000);
        assert_eq!(shape.best, 1);
    }

    /// Feeds `shape` `calls` calls of `rows` rows on a clock that each call moves on by
    /// its time, `cost(arm, call)` nanoseconds a row: the time they took in all, against
    /// the time of the same calls all on one thread.
    fn clocked(
        shape: &mut Shape,
        rows: usize,
        calls: usize,
        cost: impl Fn(usize, usize) -> f64,
    ) -> (f64, f64) {
        let (mut now, mut took, mut one) = (Instant::now(), 0.0, 0.0);
        for call in 0..calls {
            let arm = shape.arm();
            let per_row = cost(arm, call);
            let nanos = per_row * rows as f64;
            now += Duration::from_nanos(nanos as u64);
            shape.record(arm, per_row, now);
            took += nanos;
            one += cost(0, call) * rows as f64;
        }
        (took, one)
    }

    #[test]
    fn tries_of_threads_that_lose_cost_a_fiftieth_of_the_time_whatever_a_call_lasts() {
        // Batch 4,096 on a busy machine: one thread 3 microseconds a row (12 ms a call),
        // two threads three times as long. Tried once a second, they cost 7% of the
        // time; within the budget, about 2% (`BUDGET`), once the first tries are past.
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        clocked(&mut shape, 4096, 200, |arm, _| [3000.0, 9000.0][arm]);
        assert_eq!(shape.best, 0);
        let (took, one) = clocked(&mut shape, 4096, 5000, |arm, _| [3000.0, 9000.0][arm]);
        assert_eq!(shape.best, 0);
        let lost = took / one - 1.0;
        assert!((0.005..0.025).contains(&lost), "{lost}");
    }

    #[test]
    fn threads_that_win_now_and_then_by_chance_cost_little() {
        // A busy machine where two threads' calls are mostly 3 times as long as one
        // thread's and one in three is as fast as on a quiet one (the worker had a core
        // at once), one thread's now and then stopped for a time slice.
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let draws: Vec<u64> = (0..20_000)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed % 6
            })
            .collect();
        let cost = |arm: usize, call: usize| match (arm, draws[call]) {
            (0, 0) => 6000.0,
            (0, _) => 3000.0,
            (_, 0 | 1) => 1800.0,
            _ => 9000.0,
        };
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        let (took, one) = clocked(&mut shape, 4096, 20_000, cost);
        assert!(took / one < 1.04, "{}", took / one);
    }

    #[test]
    fn a_try_that_won_as_the_load_fell_is_not_taken() {
        let mut shape = Shape::new(4096, 2, 0, Instant::now());
        drive(&mut shape, [1.0, 2.0], 100);
        assert_eq!(shape.best, 0);
        // One thread at 2.0 a row until the threads are tried (the machine busier),
        // then both at half their cost: the threads beat the calls before their try,
        // not those after it.
        let mut fell = false;
        for _ in 0..200 {
            let arm = shape.arm();
            fell |= shape.trying;
            let cost = match (arm, fell) {
                (0, false) => 2.0,
                (0, true) => 1.0,
                _ => 1.0,
            };
            shape.record(arm, cost, shape.tried_at);
        }
        assert!(fell);
        assert_eq!(shape.best, 0);
    }

    #[test]
    fn a_close_call_keeps_the_count_in_use() {
        let mut shape = Shape::new(256, 2, 0, Instant::now());
        drive(&mut shape, [1.0, 0.95], 300);
        assert_eq!(shape.best, 1);
    }

    #[test]
    fn a_tuner_runs_the_call_with_one_thread_or_all() {
        let tuner = Tuner::new();
        for _ in 0..100 {
            let t = tuner.run(1000, 4, |t| t);
            assert!(t == 1 || t == 4, "{t}");
        }
        assert_eq!(tuner.run(1000, 1, |t| t), 1);
        // Shapes past the kept number make room for each other.
        for rows in 0..3 * SHAPES {
            tuner.run(rows, 2, |t| t);
        }
        assert_eq!(tuner.shapes.lock().unwrap().1.len(), SHAPES);
    }
}
