//! `LsdBatch`: the games of a `pacru.vector` LSD batch held natively
//! (`pacru_batch::lsd::LsdBatch`, stepped decision by decision with the encoding of
//! `pacru_lsd::game`; the native seam of `pacru.vector.native`).
//!
//! A position crosses the boundary as the parts an `LsdState` holds (`Parts`): the field
//! as `(cell code, face | seat << 6)` pairs, each seat's supply and captured tiles by kind,
//! the seat to move (-1 once over), the end (0 none, 1 a row, 2 blocked) with its winners
//! as a bit set of seats, and the last move as `(face, cell code)` or None.

use numpy::{PyArray1, PyArrayMethods};
use pacru_lsd::{
    Game, Layout, Move, Outcome, PartsError, Position, Rules, RulesError, Termination,
};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::vector::{batch_error, Gil};

/// The parts of a position (see the module docs).
pub(crate) type Parts = (
    Vec<(i32, u8)>,
    Vec<Vec<u16>>,
    Vec<Vec<u16>>,
    i8,
    u8,
    u8,
    Option<(u8, i32)>,
);

/// What `position` returns: the parts, with the frontier (`(cell, need | forbid << 4)`)
/// after the field.
type PartsOut = (
    Vec<(i32, u8)>,
    Vec<(i32, u8)>,
    Vec<Vec<u16>>,
    Vec<Vec<u16>>,
    i8,
    u8,
    u8,
    Option<(u8, i32)>,
);

pub(crate) fn position_of(py: Python<'_>, rules: &Rules, parts: Parts) -> PyResult<Position> {
    let (field, supplies, captured, turn, end, winners, last) = parts;
    let outcome = match end {
        0 => None,
        1 => Some(Outcome {
            termination: Termination::Row,
            winners,
        }),
        2 => Some(Outcome {
            termination: Termination::Blocked,
            winners,
        }),
        _ => return Err(PyValueError::new_err(format!("no LSD end has code {end}"))),
    };
    let last = last.map(|(face, cell)| Move { face, cell });
    Position::from_parts(rules, &field, &supplies, &captured, turn, outcome, last)
        .map_err(|e| parts_error(py, e))
}

/// The `pacru.errors.InvalidPositionError` of parts the engine refuses (the LSD side's one
/// conversion of `PartsError`; its message is the error's `Display`).
fn parts_error(py: Python<'_>, err: PartsError) -> PyErr {
    crate::errors::pacru_error(py, "InvalidPositionError", (err.to_string(),), None)
}

/// The `ValueError` of tables the engine refuses (the LSD side's one conversion of
/// `RulesError`, as `pacru.lsd.rules` refuses options: `ValueError`).
pub(crate) fn rules_error(err: RulesError) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// The games of an LSD batch: an immutable value; `step` returns a new one (the games it
/// does not step are shared).
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct LsdBatch(pacru_batch::lsd::LsdBatch);

/// A new batch and its frame as Python values.
type Made<'py> = (Py<LsdBatch>, Bound<'py, PyByteArray>);

impl LsdBatch {
    fn row(&self, row: usize) -> PyResult<&Game> {
        self.0
            .get(row)
            .ok_or_else(|| PyIndexError::new_err(format!("no game {row} in the batch")))
    }

    /// The batch's rules.
    fn rules(&self) -> &Rules {
        self.0.layout().rules()
    }
}

#[pymethods]
impl LsdBatch {
    /// `n` games at the first decision of `start` (its `Parts`) under the rules of these
    /// per-seat kinds and counts (`LsdRules.kinds`, `LsdRules.initial`), and the frame of
    /// every row. `ValueError` for tables or parts the engine refuses.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (kinds, initial, allow_rotation, strict, row_length, start, n))]
    fn create<'py>(
        py: Python<'py>,
        kinds: Vec<Vec<u8>>,
        initial: Vec<Vec<u16>>,
        allow_rotation: bool,
        strict: bool,
        row_length: u32,
        start: Parts,
        n: usize,
    ) -> PyResult<Made<'py>> {
        let rules =
            Rules::new(kinds, initial, allow_rotation, strict, row_length).map_err(rules_error)?;
        let first = position_of(py, &rules, start)?;
        let layout = Layout::new(rules);
        let (batch, frame) = pacru_batch::lsd::LsdBatch::create(&Gil(py), layout, first, n)?;
        Ok((Py::new(py, LsdBatch(batch))?, frame))
    }

    /// The batch after one decision in the games of `rows`: a restart where `restart[j]`
    /// is set (from `starts[j]`'s parts, or the batch's start where that is None), else the
    /// action `actions[j]`, which must be legal (`ValueError` naming the game otherwise;
    /// nothing changes). Returns the new batch and the frame of `rows`, one bytearray: at
    /// the byte offsets 0, `a`, `b`, `c` and `c + k` (`a = ceil8(k * num_actions)`,
    /// `b = ceil8(a + 4k)`, `c = ceil8(b + 4k * players)`) the mask (bool, k x
    /// num_actions), the player deciding (int32, -1 at an end), the rewards (float32, k x
    /// players), terminated and truncated (bool). The games are stepped without the GIL on
    /// up to `threads` threads, each on a contiguous chunk of rows.
    #[pyo3(signature = (rows, actions, restart, starts, threads=1))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        rows: Vec<usize>,
        actions: Vec<i64>,
        restart: Vec<bool>,
        starts: Vec<Option<Parts>>,
        threads: usize,
    ) -> PyResult<Made<'py>> {
        let (k, batch) = (rows.len(), &self.0);
        batch
            .check_rows(&rows, actions.len(), restart.len(), starts.len())
            .map_err(batch_error)?;
        let mut fresh: Vec<Option<Position>> = Vec::with_capacity(k);
        for (start, &again) in starts.into_iter().zip(&restart) {
            fresh.push(match start {
                Some(parts) if again => Some(position_of(py, self.rules(), parts)?),
                _ => None,
            });
        }
        let host = Gil(py);
        let (next, frame) = batch.step(&host, &rows, &actions, &restart, &fresh, threads)?;
        Ok((Py::new(py, LsdBatch(next))?, frame))
    }

    /// A uniformly random action of every game, as `Batch.random_actions` draws one (the
    /// native-endian int64 bytes of one action a game): game `i` takes the
    /// `floor(u * count)`-th (ascending) of its legal actions, or of all `num_actions`
    /// where `shown[i]` is set (a row showing an end or a cut, whose mask is all True) or
    /// its game is over; `u` is `pacru.vector.draws.uniforms`' for the hash base
    /// `base`. `shown` holds a byte per game. Drawn without the GIL on up to `threads`
    /// threads. `ValueError` when `shown` has another length.
    #[pyo3(signature = (base, shown, threads=1))]
    fn random_actions<'py>(
        &self,
        py: Python<'py>,
        base: u64,
        shown: &[u8],
        threads: usize,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        self.0.random_actions(&Gil(py), base, shown, threads)
    }

    /// The observation of every game, `(n, planes, W, W)` of `dtype` ("float32": native
    /// endian; "uint8": each value times 255, rounded half to even; "bool": value != 0),
    /// zeros for a game that is over, written without the GIL on up to `threads` threads.
    #[pyo3(signature = (threads=1, dtype="float32"))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        threads: usize,
        dtype: &str,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        self.0.observation(&Gil(py), threads, dtype)
    }

    /// The number of games.
    fn __len__(&self) -> usize {
        self.0.len()
    }

    /// `LsdBatch.observation` written into `out`, a contiguous uint8 array (any contents) of its
    /// length (`ValueError` for another length or dtype), without the GIL (see
    /// `Batch.observation_into`).
    #[pyo3(signature = (out, threads=1, dtype="float32"))]
    fn observation_into(
        &self,
        py: Python<'_>,
        out: &Bound<'_, PyArray1<u8>>,
        threads: usize,
        dtype: &str,
    ) -> PyResult<()> {
        let mut rw = out.try_readwrite()?;
        let buf = rw.as_slice_mut()?;
        py.detach(|| self.0.observation_into(buf, threads, dtype))
            .map_err(batch_error)
    }

    /// The parts of game `row`'s position (the final one once it has ended), with its
    /// frontier after the field (see the module docs).
    fn position(&self, row: usize) -> PyResult<PartsOut> {
        let game = self.row(row)?;
        let rules = self.rules();
        let pos = game.position();
        let per_seat = |f: &dyn Fn(usize) -> Vec<u16>| (0..rules.players()).map(f).collect();
        let (end, winners) = match pos.outcome() {
            None => (0, 0),
            Some(o) => (
                if o.termination == Termination::Row {
                    1
                } else {
                    2
                },
                o.winners,
            ),
        };
        Ok((
            pos.field().to_vec(),
            pos.frontier().to_vec(),
            per_seat(&|s| pos.supply(rules, s).to_vec()),
            per_seat(&|s| pos.captured(rules, s).to_vec()),
            pos.turn(),
            end,
            winners,
            pos.last().map(|m| (m.face, m.cell)),
        ))
    }

    /// The actions already chosen in the move under way in game `row`.
    fn prefix(&self, row: usize) -> PyResult<Vec<i64>> {
        Ok(self.row(row)?.prefix().to_vec())
    }

    /// Game `row`'s legal moves as `(face, cell code)`, in `LsdState.legal_moves()` order.
    fn moves(&self, row: usize) -> PyResult<Vec<(u8, i32)>> {
        Ok(self
            .row(row)?
            .moves()
            .iter()
            .map(|m| (m.face, m.cell))
            .collect())
    }

    /// Why the mover of game `row` may not place `face` on `cell`: `(reason, rule, side)`
    /// as `pacru.lsd`'s `IllegalMoveError` has them (side 0..3 for N E S W, or -1), or None
    /// for a legal move.
    fn illegal(
        &self,
        row: usize,
        face: u8,
        cell: i32,
    ) -> PyResult<Option<(&'static str, &'static str, i8)>> {
        let game = self.row(row)?;
        Ok(game
            .position()
            .check(self.rules(), Move { face, cell })
            .err()
            .map(|e| {
                let side = match e {
                    pacru_lsd::Illegal::ObstructsDot(s)
                    | pacru_lsd::Illegal::DotAgainstEmpty(s) => i8::try_from(s).unwrap_or(-1),
                    _ => -1,
                };
                (e.reason(), e.rule(), side)
            }))
    }

    /// The number of actions: `W * W + 64`.
    #[getter]
    fn num_actions(&self) -> usize {
        self.0.layout().num_actions()
    }

    /// The observation's shape: `(planes, W, W)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let layout = self.0.layout();
        (layout.planes(), layout.width(), layout.width())
    }
}
