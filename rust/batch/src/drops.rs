//! Freeing a batch's games on the pool: each part on the kind of thread that made it,
//! without the call that drops it waiting (see [`drop_on_pool`]).

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};

use crate::par::pool;

/// Frees one chunk of what it holds and says whether anything is left.
type Chunked = Box<dyn FnMut() -> bool + Send>;

/// The batches waiting to be freed on the pool (see [`drop_on_pool`]), oldest first, and
/// whether a drop job of this process runs: one at a time, so that a drop job never
/// starts another from its `yield_now` (each would hold what it had left to free until
/// the one it started ended, and with a batch dropped at every step, that nesting had
/// no end: two threads at batch 1,024 grew by 1.3 GB in 15,000 steps).
struct Drops {
    /// The process that counts `running` (a child forked while a drop job ran has the
    /// flag but not the job: it frees what is pending with a job of its own).
    pid: u32,
    running: bool,
    pending: VecDeque<Chunked>,
}

static DROPS: Mutex<Drops> = Mutex::new(Drops {
    pid: 0,
    running: false,
    pending: VecDeque::new(),
});

/// The items a drop job frees between two looks for other work.
const DROP_CHUNK: usize = 32;

/// Drops `parts` on a worker of the process's pool, each item through `retire` (which
/// may keep what it holds for the worker's later work), without waiting (the caller goes
/// on); on the calling thread when no pool can be had. For the parts of a batch that the
/// pool's workers made (each thread's allocations are best freed by one of its kind). The
/// worker frees a few
/// items at a time and, between them, runs any work a call has handed the pool
/// meanwhile (rayon's `yield_now`): a call never waits for the freeing of the batch
/// before it. One drop job runs at a time and frees the batches queued, oldest first.
pub fn drop_on_pool<T: Send + 'static>(parts: Vec<Vec<T>>, retire: fn(T)) {
    let Some(pool) = pool(1) else {
        parts.into_iter().flatten().for_each(retire);
        return;
    };
    let mut parts = parts;
    let chunked: Chunked = Box::new(move || {
        while let Some(part) = parts.last_mut() {
            if part.is_empty() {
                parts.pop();
            } else {
                let from = part.len().saturating_sub(DROP_CHUNK);
                part.drain(from..).for_each(retire);
                return true;
            }
        }
        false
    });
    let Some(mut drops) = lock_drops() else {
        chunked_all(chunked);
        return;
    };
    let pid = std::process::id();
    if drops.pid != pid {
        drops.pid = pid;
        drops.running = false;
    }
    if drops.pending.try_reserve(1).is_err() {
        drop(drops);
        chunked_all(chunked);
        return;
    }
    drops.pending.push_back(chunked);
    if !drops.running {
        drops.running = true;
        drop(drops);
        pool.spawn(free_pending);
    }
}

/// Frees all that `chunked` holds, here.
fn chunked_all(mut chunked: Chunked) {
    while chunked() {}
}

/// The lock of [`DROPS`], or None (the caller then frees the batch itself) when it stays
/// held: it is held only to queue or take a batch, but a child forked while a worker of
/// its parent held it would wait forever for it.
fn lock_drops() -> Option<std::sync::MutexGuard<'static, Drops>> {
    for _ in 0..1 << 16 {
        match DROPS.try_lock() {
            Ok(drops) => return Some(drops),
            Err(std::sync::TryLockError::Poisoned(e)) => return Some(e.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => std::hint::spin_loop(),
        }
    }
    None
}

/// The drop job: frees the batches queued until none is left, a chunk at a time, running
/// other work of the pool between chunks.
fn free_pending() {
    // A drop that panics ends the job (the pool's handler drops the panic): the next
    // batch dropped then starts another, which frees what is left.
    struct Stopped;
    impl Drop for Stopped {
        fn drop(&mut self) {
            if std::thread::panicking() {
                DROPS.lock().unwrap_or_else(PoisonError::into_inner).running = false;
            }
        }
    }
    let _stopped = Stopped;
    loop {
        let next = {
            let mut drops = DROPS.lock().unwrap_or_else(PoisonError::into_inner);
            let next = drops.pending.pop_front();
            if next.is_none() {
                drops.running = false;
            }
            next
        };
        let Some(mut chunked) = next else {
            break;
        };
        while chunked() {
            let _ = rayon::yield_now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use crate::par::each_shared;

    #[test]
    fn parts_dropped_on_the_pool_are_all_freed() {
        let shared = Arc::new(());
        let parts: Vec<Vec<Arc<()>>> = (0..5)
            .map(|_| (0..70).map(|_| Arc::clone(&shared)).collect())
            .collect();
        drop_on_pool(parts, drop);
        // Calls coming meanwhile are served between the drop's chunks.
        assert_a_call_is_served();
        let start = Instant::now();
        while Arc::strong_count(&shared) > 1 {
            // A guard against a hang, not a timing: the worker frees 350 references.
            assert!(start.elapsed() < Duration::from_secs(60), "never freed");
            std::thread::yield_now();
        }
    }

    /// A call of two threads beside the drop jobs gives every piece's result.
    fn assert_a_call_is_served() {
        let summed: usize = each_shared((0..40).collect(), 2, |i: usize| i)
            .into_iter()
            .flatten()
            .sum();
        assert_eq!(summed, 780);
    }

    /// Records its batch and the thread that freed it in `FREED` when dropped.
    struct Item(usize);

    static FREED: Mutex<Vec<(std::thread::ThreadId, usize)>> = Mutex::new(Vec::new());

    impl Drop for Item {
        fn drop(&mut self) {
            let thread = std::thread::current().id();
            FREED.lock().unwrap().push((thread, self.0));
        }
    }

    #[test]
    fn batches_dropped_on_the_pool_are_freed_one_after_the_other() {
        // A drop job never starts another between its chunks: a thread frees each batch
        // whole before it starts the next, however the calls come.
        let batches = 200;
        for batch in 0..batches {
            let parts: Vec<Vec<Item>> = (0..3)
                .map(|_| (0..70).map(|_| Item(batch)).collect())
                .collect();
            drop_on_pool(parts, drop);
            if batch % 7 == 0 {
                assert_a_call_is_served();
            }
        }
        let start = Instant::now();
        while FREED.lock().unwrap().len() < batches * 210 {
            // A guard against a hang, not a timing.
            assert!(start.elapsed() < Duration::from_secs(60), "never freed");
            std::thread::yield_now();
        }
        let freed = FREED.lock().unwrap();
        assert_eq!(freed.len(), batches * 210);
        let threads: std::collections::HashSet<_> = freed.iter().map(|&(t, _)| t).collect();
        for thread in threads {
            let order: Vec<usize> = freed
                .iter()
                .filter(|&&(t, _)| t == thread)
                .map(|&(_, b)| b)
                .collect();
            // Each batch is one run of the thread's frees.
            let mut runs = order;
            runs.dedup();
            let distinct: std::collections::HashSet<_> = runs.iter().collect();
            assert_eq!(runs.len(), distinct.len(), "a batch's freeing was split");
        }
    }
}
