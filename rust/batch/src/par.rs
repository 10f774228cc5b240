//! Rows of a batch shared out over threads: each game is independent and draws from its
//! own random stream, so the results are the same for every thread count.
//!
//! `std::thread::scope` rather than rayon: one fork and join per call over contiguous
//! chunks is all a batch step needs, and it keeps the crate free of dependencies.

use std::collections::TryReserveError;
use std::sync::{Arc, Mutex, PoisonError};

/// Below this many rows a thread is not worth its start (tens of microseconds: a chevron
/// decision takes one or two).
const MIN_ROWS_PER_THREAD: usize = 64;

/// The number of threads worth using for `rows` rows when `threads` are allowed.
pub fn threads_for(rows: usize, threads: usize) -> usize {
    threads.clamp(1, (rows / MIN_ROWS_PER_THREAD).max(1))
}

/// `f(start, end)` on contiguous chunks of `0..rows`, at most `threads` of them at once,
/// in order: the chunks' results, first chunk first.
pub fn chunks<T, F>(rows: usize, threads: usize, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize, usize) -> T + Sync,
{
    let t = threads_for(rows, threads);
    let bounds: Vec<(usize, usize)> = (0..t).map(|i| (rows * i / t, rows * (i + 1) / t)).collect();
    each(bounds, |(a, b)| f(a, b))
}

/// `f` on every part, each on a thread of its own (the first on the calling thread), in
/// order: the parts' results, first part first. The threads are started as a binary tree
/// (each started thread starts half of the parts left to it), so the last one starts
/// after about log2(parts) thread starts, not after all of them.
pub fn each<P, T, F>(parts: Vec<P>, f: F) -> Vec<T>
where
    P: Send,
    T: Send,
    F: Fn(P) -> T + Sync,
{
    if parts.len() <= 1 {
        return parts.into_iter().map(f).collect();
    }
    let f = &f;
    std::thread::scope(|s| tree(s, parts, f))
}

fn tree<'scope, 'env, P, T, F>(
    s: &'scope std::thread::Scope<'scope, 'env>,
    mut parts: Vec<P>,
    f: &'env F,
) -> Vec<T>
where
    P: Send + 'scope,
    T: Send + 'scope,
    F: Fn(P) -> T + Sync,
{
    if parts.len() <= 1 {
        return parts.into_iter().map(f).collect();
    }
    // The right half goes to a new thread through a shared cell, so that it comes back
    // when the system refuses the thread (`Scope::spawn` would panic): it then runs here.
    let right = Arc::new(Mutex::new(parts.split_off(parts.len().div_ceil(2))));
    let theirs = Arc::clone(&right);
    let spawned = std::thread::Builder::new().spawn_scoped(s, move || tree(s, take(&theirs), f));
    let mut out = tree(s, parts, f);
    match spawned {
        Ok(handle) => match handle.join() {
            Ok(rest) => out.extend(rest),
            Err(e) => std::panic::resume_unwind(e),
        },
        Err(_) => out.extend(tree(s, take(&right), f)),
    }
    out
}

/// The parts in `cell`, leaving it empty (a poisoned lock still holds them: only `take`
/// ever locks it, and it cannot panic).
fn take<P>(cell: &Mutex<Vec<P>>) -> Vec<P> {
    std::mem::take(&mut *cell.lock().unwrap_or_else(PoisonError::into_inner))
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
    use super::*;

    #[test]
    fn chunks_cover_the_rows_in_order() {
        for threads in 1..5 {
            let parts = chunks(1000, threads, |a, b| (a..b).collect::<Vec<_>>());
            assert_eq!(parts.len(), threads);
            let all: Vec<usize> = parts.into_iter().flatten().collect();
            assert_eq!(all, (0..1000).collect::<Vec<_>>());
        }
        assert_eq!(chunks(10, 8, |a, b| (a, b)), vec![(0, 10)]);
        let parts: Vec<usize> = (0..13).collect();
        assert_eq!(
            each(parts, |i| i * i),
            (0..13).map(|i| i * i).collect::<Vec<_>>()
        );
        assert_eq!(chunks(0, 8, |a, b| (a, b)), vec![(0, 0)]);
    }

    #[test]
    fn huge_allocations_fail_without_aborting() {
        assert!(try_filled(usize::MAX / 2, 0u64).is_err());
        assert!(try_with_capacity::<u64>(1 << 60).is_err());
        assert_eq!(try_filled(3, 7u8).unwrap(), vec![7, 7, 7]);
    }
}
