//! `random_rollouts`: a batch of seeded uniform random games played in `pacru_batch`.

use pacru_batch::{random_rollouts as play, Sampling};
use std::collections::TryReserveError;

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::PyPosition;

/// The bytes of the returns, of the plies and (when recorded) of the moves.
type RolloutBytes<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Option<Bound<'py, PyBytes>>,
);

/// The bytes of the returns (float32, `players` per game), of the plies (int32) and, when
/// `record`, of the index in its move list of every move played (uint64, game after
/// game), all native-endian; numpy reads them with `frombuffer`. The games run without
/// the GIL on up to `threads` threads, each game from its own stream (the same games for
/// every thread count). Raises `MemoryError` when the games' arrays cannot be held.
#[pyfunction]
#[pyo3(signature = (position, n, seed, max_plies, families, record, threads=1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn random_rollouts<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyPosition>,
    n: usize,
    seed: u64,
    max_plies: Option<u32>,
    families: bool,
    record: bool,
    threads: usize,
) -> PyResult<RolloutBytes<'py>> {
    let me = position.get();
    let sampling = if families {
        Sampling::Families
    } else {
        Sampling::Moves
    };
    let out = py
        .detach(|| {
            play(
                &me.rules, &me.pos, n, seed, max_plies, sampling, record, threads,
            )
        })
        .map_err(too_big)?;
    let returns = bytes_of(py, &out.returns, |x| x.to_ne_bytes())?;
    let plies = bytes_of(py, &out.plies, |x| x.to_ne_bytes())?;
    let moves = match &out.moves {
        Some(m) => Some(bytes_of(py, m, |x| x.to_ne_bytes())?),
        None => None,
    };
    Ok((returns, plies, moves))
}

fn too_big(e: TryReserveError) -> PyErr {
    crate::errors::no_memory("the games are too many to hold", e)
}

/// The native-endian bytes of `items` in a new `bytes`, written in place, or
/// `MemoryError`.
fn bytes_of<'py, T: Copy, const N: usize>(
    py: Python<'py>,
    items: &[T],
    f: impl Fn(T) -> [u8; N],
) -> PyResult<Bound<'py, PyBytes>> {
    let size = items
        .len()
        .checked_mul(N)
        .filter(|&size| isize::try_from(size).is_ok())
        .ok_or_else(|| PyMemoryError::new_err("the games are too many to hold"))?;
    PyBytes::new_with(py, size, |buf| {
        for (out, &x) in buf.chunks_exact_mut(N).zip(items) {
            out.copy_from_slice(&f(x));
        }
        Ok(())
    })
}
