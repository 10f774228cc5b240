//! Rows of a batch shared out over threads: each game is independent and draws from its
//! own random stream, so the results are the same for every thread count.
//!
//! The threads are a rayon pool kept between calls (a batch step of 1,024 games lasts
//! under a millisecond; starting threads afresh for each, as `std::thread::scope` does,
//! cost more than a second thread saved). Between calls the workers sleep on rayon's own
//! condition variable: nothing here spins while idle, so a pool never takes a core from
//! other work on a busy machine.
//!
//! A call cuts its rows into pieces that the calling thread and the workers claim as they
//! come (a [`Queue`] beside [`beside`]; [`each`] and [`each_shared`] are built on it): the
//! caller works from the first piece on and takes any piece no worker has claimed, so a
//! worker that the system has not run yet (its core busy with other work) leaves its share
//! to the caller instead of holding the step up; only the pieces a running worker has
//! claimed are waited for. What remains of a descheduled worker's cost (its rayon job
//! must still run before the call returns, even when it finds no piece left) is left to
//! [`crate::tune::Tuner`], which uses one thread where several do not pay: each shared
//! call notes on its calling thread what it took the caller to step its own pieces and
//! how long it then waited for the workers ([`Shares`]), from which the tuner tells what
//! the same call would have taken on the caller alone.
//!
//! The pool belongs to the process that built it: a forked child (multiprocessing, Dask
//! workers) has a copy of the parent's pool but none of its threads, so the pool is kept
//! with the id of its process and a child builds its own. Where no pool can be had (the
//! system refuses its threads, or the pool's lock is held, as it may be forever in a child
//! forked while another thread held it) the work runs on threads of their own started
//! for the call, and the caller takes what those the system refuses leave.
//!
//! By meaning: `queue` holds the pieces a call shares out and the calls built on them,
//! `shares` what a calling thread saw of its shared calls (for the tuner).

use std::collections::TryReserveError;
use std::sync::{Arc, Mutex};

use rayon::{ThreadPool, ThreadPoolBuilder};

mod queue;
mod shares;

pub use queue::{each_shared, each_weighted, guided_ends, Queue};
pub use shares::{put_shares, take_shares, Shares};

/// Below this many rows a thread is not worth its share of a call (a wake-up and a join:
/// a few microseconds; a chevron decision takes one or two).
const MIN_ROWS_PER_THREAD: usize = 64;

/// The number of threads worth using for `rows` rows when `threads` are allowed.
pub fn threads_for(rows: usize, threads: usize) -> usize {
    threads_with(rows, threads, MIN_ROWS_PER_THREAD)
}

/// The number of threads worth using for `rows` rows when `threads` are allowed and a
/// thread is worth its share only with `min_rows` rows at least (work of a few
/// nanoseconds a row, such as a random draw, needs thousands to pay for a wake-up).
pub fn threads_with(rows: usize, threads: usize, min_rows: usize) -> usize {
    threads.clamp(1, (rows / min_rows.max(1)).max(1))
}

/// `f(start, end)` on contiguous chunks of `0..rows`, at most `threads` threads at once,
/// in order: the chunks' results, first chunk first.
pub fn chunks<T, F>(rows: usize, threads: usize, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize, usize) -> T + Sync,
{
    let t = threads_for(rows, threads);
    // Several chunks a thread: a worker that does not come leaves the caller small ones.
    let n = if t > 1 { (4 * t).min(rows.max(1)) } else { 1 };
    let bounds: Vec<(usize, usize)> = (0..n).map(|i| (rows * i / n, rows * (i + 1) / n)).collect();
    each(bounds, t, |(a, b)| f(a, b))
}

/// The process's pool and the id of the process that built it.
struct Pool {
    pid: u32,
    pool: Arc<ThreadPool>,
}

/// The pool the calls share: grown (replaced by a larger one) when a call asks for more
/// workers than it has.
static POOL: Mutex<Option<Pool>> = Mutex::new(None);

/// A pool of at least `workers` threads built by this process, or None when the system
/// refuses its threads or another thread holds the pool's lock.
pub(crate) fn pool(workers: usize) -> Option<Arc<ThreadPool>> {
    // `try_lock`, not `lock`: a child forked while another thread of its parent held the
    // lock would wait forever (the holder does not exist in the child).
    let mut cell = match POOL.try_lock() {
        Ok(cell) => cell,
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return None,
    };
    let pid = std::process::id();
    if let Some(kept) = cell.as_ref() {
        if kept.pid == pid && kept.pool.current_num_threads() >= workers {
            return Some(Arc::clone(&kept.pool));
        }
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("pacru-{i}"))
        // Only the drop job reaches the handler (a scope's panics resume in its
        // caller): a part whose drop panicked is lost, the process goes on (rayon's
        // default would abort it).
        .panic_handler(drop)
        .build()
        .ok()?;
    // Every worker allocates once now, and the pool is returned only then: a thread's
    // first allocation makes its allocator arena (glibc reserves 64 MiB of address space),
    // which would otherwise happen in some later step, under whatever limit the process
    // has by then (a capped address space would make that step a MemoryError).
    pool.broadcast(|_| drop(std::hint::black_box(vec![0u8; 64])));
    let pool = Arc::new(pool);
    if let Some(old) = cell.replace(Pool {
        pid,
        pool: Arc::clone(&pool),
    }) {
        if old.pid != pid {
            // The parent's pool: its threads are not in this process, and dropping it
            // would signal them through state they may have held locked at the fork.
            std::mem::forget(old);
        }
    }
    Some(pool)
}

/// `f` on every part, on the calling thread and up to `threads - 1` workers of the
/// process's pool, each part taken by whichever thread is free (see [`each_shared`]), in
/// order: the parts' results, first part first (a panic in any part resumes here after
/// all have ended).
pub fn each<P, T, F>(parts: Vec<P>, threads: usize, f: F) -> Vec<T>
where
    P: Send,
    T: Send,
    F: Fn(P) -> T + Sync,
{
    each_shared(parts, threads, f)
        .into_iter()
        .flatten()
        .collect()
}

/// `first` on the calling thread while up to `workers` other threads run `background`:
/// the pool's workers or, without a pool, threads started for the call (none where the
/// system refuses them). `first` must drain the work that `background` takes (a
/// [`Queue`]) as the others may not come; it runs at once, without waiting for any
/// worker. Returns `first`'s result once every `background` run has ended (a panic in
/// one resumes here then); the caller waits for them asleep, on rayon's latch.
pub fn beside<R>(workers: usize, background: &(dyn Fn() + Sync), first: impl FnOnce() -> R) -> R {
    if workers == 0 {
        return first();
    }
    match pool(workers) {
        Some(pool) => pool.in_place_scope(|s| {
            for _ in 0..workers {
                s.spawn(|_| background());
            }
            first()
        }),
        None => std::thread::scope(|s| {
            for _ in 0..workers {
                // A thread refused leaves its share to the others and to `first`.
                let _ = std::thread::Builder::new().spawn_scoped(s, background);
            }
            first()
        }),
    }
}

/// Whether the calling thread is a worker of the pool (not a caller): a part made on a
/// worker is best freed on one (see [`crate::drops::drop_on_pool`]).
pub fn on_worker() -> bool {
    rayon::current_thread_index().is_some()
}

/// A vector of `n` copies of `value`, or the error of an allocation that failed (instead
/// of the abort of `vec![value; n]`).
pub fn try_filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>, TryReserveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)?;
    v.resize(n, value);
    Ok(v)
}

/// An empty vector with room for `n` items, or the error of the failed allocation.
pub fn try_with_capacity<T>(n: usize) -> Result<Vec<T>, TryReserveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::shares::note;
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    #[test]
    fn chunks_cover_the_rows_in_order() {
        for threads in 1..5 {
            let parts = chunks(1000, threads, |a, b| (a..b).collect::<Vec<_>>());
            // Four chunks a thread on several threads.
            assert_eq!(parts.len(), if threads > 1 { 4 * threads } else { 1 });
            let all: Vec<usize> = parts.into_iter().flatten().collect();
            assert_eq!(all, (0..1000).collect::<Vec<_>>());
        }
        assert_eq!(chunks(10, 8, |a, b| (a, b)), vec![(0, 10)]);
        let parts: Vec<usize> = (0..13).collect();
        assert_eq!(
            each(parts, 4, |i| i * i),
            (0..13).map(|i| i * i).collect::<Vec<_>>()
        );
        assert_eq!(chunks(0, 8, |a, b| (a, b)), vec![(0, 0)]);
    }

    #[test]
    fn guided_pieces_cover_the_rows_and_shrink_toward_the_threads_meeting() {
        assert_eq!(guided_ends(1024, 1, 8), vec![1024]);
        for (rows, threads) in [(1024, 2), (1000, 2), (4096, 2), (1024, 16), (5, 2), (0, 2)] {
            let ends = guided_ends(rows, threads, 8);
            let sizes: Vec<usize> = std::iter::once(0)
                .chain(ends.iter().copied())
                .collect::<Vec<_>>()
                .windows(2)
                .map(|w| w[1] - w[0])
                .collect();
            assert_eq!(ends.last().copied().unwrap_or(0), rows, "{rows} {threads}");
            assert!(sizes.iter().all(|&s| s > 0), "{sizes:?}");
            // The caller's share, from the first row, then the workers'.
            let front = rows / threads;
            assert!(ends.contains(&front) || front == 0, "{ends:?}");
        }
        // Two threads at 1,024 rows: 128 rows first on each side, 6 where they meet.
        let ends = guided_ends(1024, 2, 8);
        assert_eq!((ends[0], ends[ends.len() - 2]), (128, 1024 - 128));
        let at = ends.iter().position(|&e| e == 512).unwrap_or(0);
        assert_eq!((ends[at] - ends[at - 1], ends[at + 1] - ends[at]), (6, 6));
        assert!(ends.len() <= 32, "{}", ends.len());
    }

    #[test]
    fn the_caller_takes_the_pieces_of_a_worker_that_has_not_started() {
        // The worker starts only once the caller has ended its share: the caller does
        // not wait for it, and takes every piece itself.
        let queue: Queue<std::thread::ThreadId> = Queue::new(10).unwrap();
        let work = |_: usize| std::thread::current().id();
        let caller_done = AtomicBool::new(false);
        let late = || {
            let start = Instant::now();
            while !caller_done.load(Ordering::Acquire) {
                // A guard against a hang, not a timing.
                assert!(
                    start.elapsed() < Duration::from_secs(60),
                    "the caller waited"
                );
                std::thread::yield_now();
            }
            queue.drain_back(&work);
        };
        let caller = std::thread::current().id();
        let ran: Vec<Option<std::thread::ThreadId>> = beside(1, &late, || {
            queue.drain(&work);
            caller_done.store(true, Ordering::Release);
            (0..10).map(|i| queue.take(i, &work)).collect()
        });
        assert_eq!(ran, vec![Some(caller); 10]);
    }

    #[test]
    fn a_shared_call_notes_the_callers_share_on_its_thread() {
        let _ = take_shares();
        // One thread: nothing shared, nothing noted.
        each_weighted((0..8).collect(), 1, |_| 3, |i: usize| i);
        assert_eq!(take_shares(), Shares::default());
        // Two threads: the caller steps its pieces at once, and what the call would have
        // taken on it alone is its own time and more.
        let out = each_weighted((0..40).collect(), 2, |&i| 1 + i % 3, |i: usize| i);
        assert_eq!(out, (0..40).map(Some).collect::<Vec<_>>());
        let shares = take_shares();
        assert_eq!(shares.calls, 1);
        assert!(shares.own > 0.0 && shares.wait >= 0.0, "{shares:?}");
        // (Unknown only where the system stopped the caller while the worker took every
        // piece.)
        assert!(shares.unknown || shares.solo >= shares.own, "{shares:?}");
        // Two calls add up.
        each_shared((0..40).collect(), 2, |i: usize| i);
        each_shared((0..40).collect(), 2, |i: usize| i);
        assert_eq!(take_shares().calls, 2);
    }

    #[test]
    fn what_a_call_would_have_taken_on_one_thread() {
        let shares = Shares {
            calls: 1,
            own: 300.0,
            wait: 500.0,
            solo: 600.0,
            unknown: false,
        };
        // 1,000 in all: 200 outside the pieces, and the pieces at the caller's rate.
        assert_eq!(shares.one_thread(1000.0), Some(800.0));
        assert_eq!(Shares::default().one_thread(10.0), None);
        let unknown = Shares {
            unknown: true,
            ..shares
        };
        assert_eq!(shares.plus(unknown).one_thread(2000.0), None);
        assert_eq!(shares.plus(shares).calls, 2);
        // Where the caller stepped every piece itself, it would have taken the same alone
        // less the wait: the worker that never came.
        note(300.0, 500.0, 7, 7, 40.0);
        assert_eq!(take_shares().one_thread(1000.0), Some(500.0));
        // Else its own time and the workers' pieces at its pace: a caller stopped for a
        // time slice (1,000 of its 1,030) while a worker stepped 9 units of 10 would have
        // taken 1,030 and 9 units at 3 on its own (not 10 times 1,030).
        note(1030.0, 10.0, 1, 10, 3.0);
        assert_eq!(take_shares().one_thread(1100.0), Some(1030.0 + 27.0 + 60.0));
        note(300.0, 0.0, 0, 7, 0.0);
        assert!(take_shares().unknown);
    }

    #[test]
    fn a_queue_runs_every_piece_once_beside_the_caller() {
        for workers in 0..4 {
            let queue: Queue<usize> = Queue::new(37).unwrap();
            let work = |i: usize| i * 3;
            let drain = || queue.drain(&work);
            let results: Vec<Option<usize>> = beside(workers, &drain, || {
                (0..38).map(|i| queue.take(i, &work)).collect()
            });
            let mut expected: Vec<Option<usize>> = (0..37).map(|i| Some(i * 3)).collect();
            expected.push(None);
            assert_eq!(results, expected);
            // A result is taken once.
            assert_eq!(queue.take(3, &work), None);
        }
    }

    #[test]
    fn shared_parts_come_back_in_order() {
        for threads in 1..5 {
            let parts: Vec<usize> = (0..29).collect();
            let out = each_shared(parts, threads, |i| i * i);
            assert_eq!(out, (0..29).map(|i| Some(i * i)).collect::<Vec<_>>());
        }
        assert_eq!(
            each_shared(Vec::<u8>::new(), 2, |i| i),
            Vec::<Option<u8>>::new()
        );
    }

    #[test]
    fn a_piece_that_panics_leaves_none_and_the_others_end() {
        let queue: Queue<usize> = Queue::new(8).unwrap();
        let work = |i: usize| {
            assert_ne!(i, 5, "piece 5 fails");
            i
        };
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| queue.drain(&work)));
        assert!(caught.is_err());
        // The panic stopped that drain at piece 5; taking piece 7 runs the others.
        assert_eq!(queue.take(7, &work), Some(7));
        assert_eq!(queue.take(5, &work), None);
        assert_eq!(queue.take(4, &work), Some(4));
    }

    #[test]
    fn huge_allocations_fail_without_aborting() {
        assert!(try_filled(usize::MAX / 2, 0u64).is_err());
        assert!(try_with_capacity::<u64>(1 << 60).is_err());
        assert_eq!(try_filled(3, 7u8).unwrap(), vec![7, 7, 7]);
    }
}
