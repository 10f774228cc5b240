//! `LsdRules`, `LsdPosition` and `LsdMoves`: the native engine of one LSD state
//! (`pacru.LsdState` on the native engine), on `pacru_lsd`.
//!
//! Python calls these and nothing here calls back: a position is made once from the parts
//! an `LsdState` holds (`LsdRules.position`, the `Parts` of `lsd.rs`) or by `play`, and
//! answers with plain values: its legal moves as move keys (`cell << 6 | face`, the key of
//! `pacru.lsd.moves._move_key`), in `LsdState.legal_moves()` order; its turn and end; and
//! its parts when Python asks for them. A move the engine refuses is answered with None:
//! the Python rules then say why (`pacru.lsd.legality.explain_illegal`), on that path
//! only, so both engines raise the same error with the same message.

use std::sync::{Arc, OnceLock};

use pacru_lsd::rules::decode_cell;
use pacru_lsd::{Move, Position, Rules, Termination};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyTuple};

use crate::lsd::{position_of, rules_error, Parts};

/// The rules of one set of LSD options (`LsdRules`' kinds, counts and flags), shared by
/// the positions made under them.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct LsdRules {
    rules: Arc<Rules>,
}

#[pymethods]
impl LsdRules {
    /// The tables of these per-seat kinds and counts (`LsdRules.kinds`, `LsdRules.initial`).
    /// `ValueError` for tables the engine refuses.
    #[new]
    #[pyo3(signature = (kinds, initial, allow_rotation, strict, row_length))]
    fn new(
        kinds: Vec<Vec<u8>>,
        initial: Vec<Vec<u16>>,
        allow_rotation: bool,
        strict: bool,
        row_length: u32,
    ) -> PyResult<Self> {
        let rules =
            Rules::new(kinds, initial, allow_rotation, strict, row_length).map_err(rules_error)?;
        Ok(LsdRules {
            rules: Arc::new(rules),
        })
    }

    /// The position of these parts (see `lsd.rs`); `pacru.errors.InvalidPositionError`
    /// for parts the engine refuses.
    fn position(&self, py: Python<'_>, parts: Parts) -> PyResult<LsdPosition> {
        Ok(LsdPosition {
            rules: self.rules.clone(),
            position: position_of(py, &self.rules, parts)?,
        })
    }
}

/// One LSD position under its rules: an immutable value; `play` makes the next one.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct LsdPosition {
    rules: Arc<Rules>,
    position: Position,
}

/// The `(field, frontier, supplies, captured)` of a position: `(cell, face | seat << 6)`
/// and `(cell, need | forbid << 4)` pairs by cell, and each seat's counts by kind.
type PartsOut = (Vec<(i32, u8)>, Vec<(i32, u8)>, Vec<Vec<u16>>, Vec<Vec<u16>>);

#[pymethods]
impl LsdPosition {
    /// The legal moves in `LsdState.legal_moves()` order (none once the game is over),
    /// counted now and each made when read.
    fn legal_moves(slf: &Bound<'_, Self>) -> LsdMoves {
        let this = slf.get();
        LsdMoves {
            len: this.position.count_legal(&this.rules),
            position: slf.clone().unbind(),
            cells: OnceLock::new(),
        }
    }

    /// The position after the mover places `face` (6 bits) on the cell code `cell`, or None
    /// when that is not a legal move here (the game is over, or the rules refuse it: LSD
    /// 1.5, 2.2, RULING 4, 5, 20); then nothing is made.
    fn play(&self, face: i64, cell: i64) -> Option<LsdPosition> {
        let mv = Move {
            face: u8::try_from(face).ok()?,
            cell: i32::try_from(cell).ok()?,
        };
        let position = self.position.play(&self.rules, mv).ok()?;
        Some(LsdPosition {
            rules: self.rules.clone(),
            position,
        })
    }

    /// `((min_x, min_y), (max_x, max_y))` of the tiles on the field, or None while it is
    /// empty: `LsdState.bounds` without the field read into Python (the LSD decisions ask
    /// for it at every move).
    #[getter]
    fn bounds(&self) -> Option<((i32, i32), (i32, i32))> {
        // The field is in cell order, x first: its ends hold the least and the greatest x.
        let field = self.position.field();
        let (min_x, _) = decode_cell(field.first()?.0);
        let (max_x, _) = decode_cell(field.last()?.0);
        let (min_y, max_y) = field
            .iter()
            .map(|&(cell, _)| decode_cell(cell).1)
            .fold((i32::MAX, i32::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
        Some(((min_x, min_y), (max_x, max_y)))
    }

    /// The south-west corner `(x0, y0)` of `pacru.encoding.lsd`'s window of radius
    /// `radius` (`LsdEncoding._window`): `(-radius, -radius)` on the empty field, else
    /// the middle of the tiles' box (floored) less `radius`; None when the window would
    /// not hold the box and the ring of cells around it (then Python says why).
    fn window(&self, radius: i64) -> Option<(i64, i64)> {
        let Some(((min_x, min_y), (max_x, max_y))) = self.bounds() else {
            return Some((-radius, -radius));
        };
        let (min_x, min_y) = (i64::from(min_x), i64::from(min_y));
        let (max_x, max_y) = (i64::from(max_x), i64::from(max_y));
        let x0 = (min_x + max_x).div_euclid(2).checked_sub(radius)?;
        let y0 = (min_y + max_y).div_euclid(2).checked_sub(radius)?;
        let span = radius.checked_mul(2)?;
        // The ring around the box inside: min - 1 >= corner, max + 1 <= corner + 2r.
        let covered = min_x > x0
            && min_y > y0
            && max_x < x0.checked_add(span)?
            && max_y < y0.checked_add(span)?;
        covered.then_some((x0, y0))
    }

    /// The seat to move, or -1 once the game is over.
    #[getter]
    fn turn(&self) -> i8 {
        self.position.turn()
    }

    /// How the game ended: 0 not yet, 1 a row (LSD 1.7), 2 nobody can place (2.4).
    #[getter]
    fn end(&self) -> u8 {
        match self.position.outcome() {
            None => 0,
            Some(o) if o.termination == Termination::Row => 1,
            Some(_) => 2,
        }
    }

    /// The winners as a bit set of seats (0 while the game runs, or after a draw).
    #[getter]
    fn winners(&self) -> u8 {
        self.position.outcome().map_or(0, |o| o.winners)
    }

    /// The field, frontier, supplies and captured tiles (see `PartsOut`).
    fn parts(&self) -> PartsOut {
        let rules = &*self.rules;
        let pos = &self.position;
        let per_seat = |f: &dyn Fn(usize) -> Vec<u16>| (0..rules.players()).map(f).collect();
        (
            pos.field().to_vec(),
            pos.frontier().to_vec(),
            per_seat(&|s| pos.supply(rules, s).to_vec()),
            per_seat(&|s| pos.captured(rules, s).to_vec()),
        )
    }

    /// Why the mover may not place `face` on `cell`: `(reason, rule)` as the Python
    /// engine's `IllegalMoveError` has them, or None for a legal move (for tests: the
    /// error itself comes from the Python rules).
    /// A face or cell beyond any the rules know is a face no kind shows, a cell far away.
    fn illegal(&self, face: i64, cell: i64) -> Option<(&'static str, &'static str)> {
        let mv = Move {
            face: u8::try_from(face).unwrap_or(u8::MAX),
            cell: i32::try_from(cell).unwrap_or(i32::MIN),
        };
        self.position
            .check(&self.rules, mv)
            .err()
            .map(|e| (e.reason(), e.rule()))
    }
}

fn move_key(mv: Move) -> u32 {
    // Cell codes are below 2**24 and faces below 2**6 (`pacru.lsd.tiles`).
    // The cell's bits as they are (a code is never negative).
    mv.cell.cast_unsigned() << 6 | u32::from(mv.face)
}

/// The legal moves of an `LsdPosition` as move keys (`cell << 6 | face`), in order: the
/// position's, counted when made, each key made when read (a random player reads one).
#[pyclass(frozen, module = "pacru._native", sequence)]
pub(crate) struct LsdMoves {
    position: Py<LsdPosition>,
    len: usize,
    /// The cells of the moves, in list order, each with the set of its moves' faces (a
    /// bit per 6-bit face): found once, for the LSD decisions' two reads of a ply.
    cells: OnceLock<Vec<(i32, u64)>>,
}

impl LsdMoves {
    /// The cells of the moves with their faces (see `cells`), found on first use.
    fn cells(&self) -> &[(i32, u64)] {
        self.cells.get_or_init(|| {
            let pos = self.position.get();
            let mut cells: Vec<(i32, u64)> = Vec::new();
            // The moves come by cell: a cell's moves are a run.
            pos.position.for_each_legal(&pos.rules, |m| {
                let face = 1u64.checked_shl(u32::from(m.face)).unwrap_or(0);
                match cells.last_mut() {
                    Some((cell, faces)) if *cell == m.cell => *faces |= face,
                    _ => cells.push((m.cell, face)),
                }
            });
            cells
        })
    }
}

#[pymethods]
impl LsdMoves {
    fn __len__(&self) -> usize {
        self.len
    }

    /// The key at `index` (negative from the end), as a tuple's item; `IndexError` for an
    /// index out of range, or beyond the machine's (as a tuple says).
    fn __getitem__(&self, index: &Bound<'_, PyAny>) -> PyResult<u32> {
        let index: isize = index
            .extract()
            .map_err(|_| PyIndexError::new_err("cannot fit 'int' into an index-sized integer"))?;
        let at = if index < 0 {
            index.checked_add_unsigned(self.len)
        } else {
            Some(index)
        };
        let pos = self.position.get();
        at.and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < self.len)
            .and_then(|i| pos.position.nth_legal(&pos.rules, i))
            .map(move_key)
            .ok_or_else(|| PyIndexError::new_err("tuple index out of range"))
    }

    /// Every key, in order.
    fn keys(&self) -> Vec<u32> {
        let pos = self.position.get();
        let mut keys = Vec::with_capacity(self.len);
        pos.position
            .for_each_legal(&pos.rules, |m| keys.push(move_key(m)));
        keys
    }

    /// The cell decision's legal actions of `pacru.encoding.lsd` for the window whose
    /// south-west corner is `(x0, y0)` and whose rows are `width` cells: the action
    /// `(y - y0) * width + (x - x0)` of each cell some move is on, each once, ascending.
    /// Read without making a key per move (a position has hundreds of moves, a few cells).
    fn cell_actions<'py>(
        &self,
        py: Python<'py>,
        x0: i32,
        y0: i32,
        width: i32,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let mut actions: Vec<i64> = self
            .cells()
            .iter()
            .map(|&(cell, _)| {
                let (x, y) = decode_cell(cell);
                let (dx, dy) = (i64::from(x) - i64::from(x0), i64::from(y) - i64::from(y0));
                dy * i64::from(width) + dx
            })
            .collect();
        actions.sort_unstable();
        actions_tuple(py, &actions)
    }

    /// The tile decision's legal actions of `pacru.encoding.lsd` once the cell code `cell`
    /// is chosen: `base + face` of each move on it (base: the encoding's cell actions),
    /// ascending (none: an empty tuple). The move of a face is the key
    /// `cell << 6 | face`: nothing else need be kept.
    fn cell_tiles<'py>(
        &self,
        py: Python<'py>,
        cell: i64,
        base: i64,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let faces = self
            .cells()
            .iter()
            .find(|&&(at, _)| i64::from(at) == cell)
            .map_or(0, |&(_, faces)| faces);
        let ascending: Vec<i64> = (0..64u8)
            .filter(|&f| faces >> f & 1 == 1)
            .map(|f| base.saturating_add(i64::from(f)))
            .collect();
        actions_tuple(py, &ascending)
    }
}

/// Actions below this are made once as Python ints (`ACTION_INTS`): the cells and tiles
/// of the default window (1,745 actions) and of tile sets up to about 90 tiles.
const KEPT_INTS: usize = 1 << 13;

/// The Python int of every action below `KEPT_INTS`, made on first use: the decisions list
/// a dozen actions a ply, nearly all past CPython's cache of small ints, and making an
/// int costs more than finding the actions.
static ACTION_INTS: PyOnceLock<Vec<Py<PyInt>>> = PyOnceLock::new();

/// `actions` as a tuple of ints, those below `KEPT_INTS` the ints made once.
fn actions_tuple<'py>(py: Python<'py>, actions: &[i64]) -> PyResult<Bound<'py, PyTuple>> {
    let ints = ACTION_INTS.get_or_init(py, || {
        (0..KEPT_INTS).map(|a| PyInt::new(py, a).unbind()).collect()
    });
    PyTuple::new(
        py,
        actions.iter().map(
            |&a| match usize::try_from(a).ok().and_then(|a| ints.get(a)) {
                Some(int) => int.bind(py).clone(),
                None => PyInt::new(py, a),
            },
        ),
    )
}
