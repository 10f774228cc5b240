//! `random_rollouts`: a batch of seeded uniform random games played in `pacru_batch`.

use pacru_batch::{random_rollouts as play, Sampling};
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
/// the GIL. Raises `MemoryError` when the returns of `n` games could not be held at all.
#[pyfunction]
#[pyo3(signature = (position, n, seed, max_plies, families, record))]
pub(crate) fn random_rollouts<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyPosition>,
    n: usize,
    seed: u64,
    max_plies: Option<u32>,
    families: bool,
    record: bool,
) -> PyResult<RolloutBytes<'py>> {
    let me = position.get();
    // Up to four float32 returns a game: beyond this the engine's `Vec::with_capacity`
    // would panic on its capacity overflow.
    if n > isize::MAX as usize / 16 {
        return Err(PyMemoryError::new_err(format!(
            "{n} games are too many to hold"
        )));
    }
    let sampling = if families {
        Sampling::Families
    } else {
        Sampling::Moves
    };
    let out = py.detach(|| play(&me.rules, &me.pos, n, seed, max_plies, sampling, record));
    let returns: Vec<u8> = out.returns.iter().flat_map(|x| x.to_ne_bytes()).collect();
    let plies: Vec<u8> = out.plies.iter().flat_map(|x| x.to_ne_bytes()).collect();
    let moves = out.moves.map(|m| {
        let bytes: Vec<u8> = m.iter().flat_map(|x| x.to_ne_bytes()).collect();
        PyBytes::new(py, &bytes)
    });
    Ok((PyBytes::new(py, &returns), PyBytes::new(py, &plies), moves))
}
