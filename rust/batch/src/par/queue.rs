//! The pieces of a call, claimed by whichever thread asks next, and the calls built on them.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use super::shares::{median, note};
use super::{beside, try_with_capacity};

/// Pieces of work, `0..pieces`, each taken by whichever thread asks next (see
/// [`beside`]: the pool's workers and the caller), in order, each result kept in its
/// piece's place until it is taken. Small pieces share a call's work out evenly whatever
/// each thread did before it came.
pub struct Queue<T> {
    /// The first piece not taken from the front (low 32 bits), and the end of those not
    /// taken from the back (high 32 bits): one atomic word, so that a thread never
    /// sleeps on a lock another holds for an instant (a futex wait and wake-up on a
    /// virtual machine take longer than a piece).
    ends: AtomicU64,
    slots: Vec<Slot<T>>,
}

/// A piece's result, and whether its work has ended.
struct Slot<T> {
    ended: AtomicBool,
    out: Mutex<Option<T>>,
}

/// Marks a piece ended when dropped, also when its work unwinds (so that no thread
/// waits forever for a piece whose work panicked).
struct Ended<'a>(&'a AtomicBool);

impl Drop for Ended<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

impl<T: Send> Queue<T> {
    /// A queue of `pieces` pieces, or the error of the allocation that failed.
    pub fn new(pieces: usize) -> Result<Queue<T>, TryReserveError> {
        // The ends are counted in 32 bits each: more pieces are refused as too many to
        // hold (as they would be: each has a slot of several bytes).
        let back = match u32::try_from(pieces) {
            Ok(back) => back,
            Err(_) => {
                try_with_capacity::<Slot<T>>(usize::MAX)?;
                u32::MAX
            }
        };
        let mut slots = try_with_capacity(pieces)?;
        slots.extend((0..pieces).map(|_| Slot {
            ended: AtomicBool::new(false),
            out: Mutex::new(None),
        }));
        Ok(Queue {
            ends: AtomicU64::new(u64::from(back) << 32),
            slots,
        })
    }

    /// The first piece no thread has taken yet (`last`: the last), now taken.
    fn claim(&self, last: bool) -> Option<usize> {
        let mut taken = None;
        let _ = self
            .ends
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |ends| {
                let (front, back) = (ends & 0xFFFF_FFFF, ends >> 32);
                if front >= back {
                    taken = None;
                    None
                } else if last {
                    taken = Some(back - 1);
                    Some((back - 1) << 32 | front)
                } else {
                    taken = Some(front);
                    Some(back << 32 | (front + 1))
                }
            });
        taken.and_then(|i| usize::try_from(i).ok())
    }

    /// `work(piece)` on the first piece no thread has taken yet (`last`: the last one):
    /// false when none is left.
    fn run(&self, work: &(dyn Fn(usize) -> T + Sync), last: bool) -> bool {
        let Some(i) = self.claim(last) else {
            return false;
        };
        let Some(slot) = self.slots.get(i) else {
            return false;
        };
        let _ended = Ended(&slot.ended);
        let out = work(i);
        *slot.out.lock().unwrap_or_else(PoisonError::into_inner) = Some(out);
        true
    }

    /// `work(piece)` on the first piece no thread has taken yet: false when none is left.
    pub fn run_next(&self, work: &(dyn Fn(usize) -> T + Sync)) -> bool {
        self.run(work, false)
    }

    /// `work(piece)` on each piece no thread has taken yet, one after the other from the
    /// first, until none is left (the caller's way).
    pub fn drain(&self, work: &(dyn Fn(usize) -> T + Sync)) {
        while self.run(work, false) {}
    }

    /// As [`Queue::drain`], from the last piece back: for workers beside a caller that
    /// drains from the first, so that each keeps to its end of the rows, and so mostly to
    /// the same rows from one call to the next, whose games are still in its own core's
    /// cache (two threads at batch 1,024: 1.64x one thread, against 1.44x with every
    /// thread from the first, in alternation).
    pub fn drain_back(&self, work: &(dyn Fn(usize) -> T + Sync)) {
        while self.run(work, true) {}
    }

    /// Piece `i`'s result, taken from the queue (None past the last piece, for a piece
    /// whose work panicked, or taken already). Until piece `i` has ended, this thread
    /// works on the pieces no thread has taken (piece `i` first, if no thread has), then
    /// waits, spinning, for the thread that has it.
    pub fn take(&self, i: usize, work: &(dyn Fn(usize) -> T + Sync)) -> Option<T> {
        let slot = self.slots.get(i)?;
        let mut turns: u32 = 0;
        while !slot.ended.load(Ordering::Acquire) {
            if self.run_next(work) {
                continue;
            }
            if turns < 1 << 12 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
            turns = turns.saturating_add(1);
        }
        slot.out
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

/// `f` on every part, as [`each`], but each part taken by whichever thread is free: the
/// caller and `threads - 1` workers of the pool. A worker still busy with other work
/// (freeing an old batch: see [`crate::drops::drop_on_pool`]) leaves more parts to the
/// others. The parts' results, first part first: None for a part whose thread panicked
/// (its panic resumes here too, once all have ended). The parts count as alike in the
/// call's [`Shares`] (see [`each_weighted`]).
pub fn each_shared<P, T, F>(parts: Vec<P>, threads: usize, f: F) -> Vec<Option<T>>
where
    P: Send,
    T: Send,
    F: Fn(P) -> T + Sync,
{
    each_weighted(parts, threads, |_| 1, f)
}

/// [`each_shared`], each part weighing `weight(part)` (its rows) in the [`Shares`] that
/// the call notes on the calling thread: the workers' parts count at the pace of the
/// caller's typical part (its median time a unit) in what the call would have taken on
/// the caller alone.
pub fn each_weighted<P, T, F>(
    parts: Vec<P>,
    threads: usize,
    weight: impl Fn(&P) -> usize,
    f: F,
) -> Vec<Option<T>>
where
    P: Send,
    T: Send,
    F: Fn(P) -> T + Sync,
{
    let n = parts.len();
    let workers = threads.clamp(1, n.max(1)) - 1;
    if workers == 0 {
        return parts.into_iter().map(|part| Some(f(part))).collect();
    }
    let queue = match Queue::new(n) {
        Ok(queue) => queue,
        // No room for the queue: the parts one after the other, here.
        Err(_) => return parts.into_iter().map(|part| Some(f(part))).collect(),
    };
    let weights: Vec<usize> = parts.iter().map(&weight).collect();
    let inputs: Vec<Mutex<Option<P>>> = parts.into_iter().map(|p| Mutex::new(Some(p))).collect();
    let work = |i: usize| -> Option<T> {
        let part = inputs
            .get(i)?
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()?;
        Some(f(part))
    };
    let drain = || queue.drain_back(&work);
    // The weight of the pieces the caller stepped and the time a unit of each took (in
    // a lock that only the caller takes: the closure must be shareable).
    let paced: Mutex<(usize, Vec<f64>)> = Mutex::new((0, Vec::new()));
    let caller = |i: usize| -> Option<T> {
        let w = weights.get(i).copied().unwrap_or(0);
        let start = Instant::now();
        let out = work(i);
        let per = start.elapsed().as_secs_f64() * 1e9 / w.max(1) as f64;
        let mut paced = paced.lock().unwrap_or_else(PoisonError::into_inner);
        paced.0 += w;
        if w > 0 && paced.1.try_reserve(1).is_ok() {
            paced.1.push(per);
        }
        out
    };
    // The caller takes pieces until none is left, then waits asleep on rayon's latch for
    // the workers' last pieces (a spinning caller kept a core from a worker that a busy
    // machine had stopped mid-piece); once `beside` returns, every piece has ended.
    let start = Instant::now();
    let drained = beside(workers, &drain, || {
        queue.drain(&caller);
        Instant::now()
    });
    let own = drained.duration_since(start).as_secs_f64() * 1e9;
    let wait = drained.elapsed().as_secs_f64() * 1e9;
    let (mine, mut rates) = paced.into_inner().unwrap_or_else(PoisonError::into_inner);
    note(own, wait, mine, weights.iter().sum(), median(&mut rates));
    (0..n).map(|i| queue.take(i, &work).flatten()).collect()
}

/// The row ends of the pieces of a step of `rows` rows shared out as it comes on
/// `threads` threads (`par::each_shared`: the caller takes pieces from the first row on,
/// the workers from the last back): one piece for one thread. Else the caller's share
/// (`rows / threads`) and the workers' are cut into pieces that shrink toward the row
/// where the threads meet, each a quarter of what is left on its side for each of the
/// side's threads, of `min_rows` rows at least: big pieces first, as few as the work
/// needs, and small ones last. The thread that runs out of pieces first waits for the
/// other's last piece (half a piece on average): pieces alike, of 32 rows, left it about
/// 7 microseconds a step of 1,024 games on two threads.
pub fn guided_ends(rows: usize, threads: usize, min_rows: usize) -> Vec<usize> {
    if threads <= 1 {
        return vec![rows];
    }
    let sizes = |mut left: usize, share: usize| {
        let mut sizes = Vec::new();
        while left > 0 {
            let size = (left / (4 * share)).max(min_rows.max(1)).min(left);
            sizes.push(size);
            left -= size;
        }
        sizes
    };
    let front = rows / threads;
    let back = sizes(rows - front, threads - 1);
    let mut at = 0;
    let mut ends = Vec::with_capacity(2 * back.len());
    for size in sizes(front, 1).into_iter().chain(back.into_iter().rev()) {
        at += size;
        ends.push(at);
    }
    ends
}
