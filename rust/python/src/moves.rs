//! `NativeLegalMoves`: the move list of the native engine, itself a `pacru.LegalMoves`.
//!
//! `pacru.chevron.engine` registers this class as a virtual subclass of `LegalMoves`
//! (`LegalMoves.register`: no method of either class is replaced), so `len`, indexing,
//! iteration and `in` are this class's slots: no Python frame between a bot's
//! `rng.choice(state.legal_moves())` and the engine. Its moves are native moves
//! (`pacru._native.Move`, `value`), each made once with `Py::new`. The sequence methods (`index`, `count`,
//! `==`, `repr`) and `in` with a move's text (read by `pacru_engine::Move::from_text`)
//! are worked out here, with the results of `collections.abc.Sequence` and `LegalMoves`
//! (tests/native compares them), and no call into pacru's Python. The families (`steps`,
//! `reorientations`, `families`, `family_of`) are this extension's `StepFamily` and
//! `ReorientationFamily` (`families`), made from the engine's list when first read;
//! `from_field` is a native list of its own over the engine's list of that chevron's
//! moves (`MoveList::of_chevron`); `_family_draw` draws from the engine's own family
//! bounds, calling the user's `randrange` in one place (`draw`).

use std::sync::{Arc, Mutex};

use pacru_engine as engine;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PySlice, PyString, PyTuple};

use crate::from_python;

mod arguments;
mod families;
mod sequence;
mod spare;
mod value;

pub(crate) use arguments::parse_text;
pub(crate) use families::{FamilyIter, ReorientationFamily, StepFamily};
use sequence::index_bound;
pub(crate) use value::{is_move, use_python_types, PyMove};

/// The legal moves of one position, in the order of the Python engine.
#[pyclass(frozen, module = "pacru._native", name = "NativeLegalMoves", sequence)]
pub(crate) struct Moves {
    /// Behind an `Arc`, so that the decisions of `pacru.encoding` may share the list.
    list: Arc<engine::MoveList>,
    /// The move last handed out by indexing, with its index: applied without a check.
    issued: Mutex<Option<(Py<PyAny>, u64, engine::Move)>>,
    /// The step families and the reorientation families, made when first read.
    families: PyOnceLock<(Py<PyTuple>, Py<PyTuple>)>,
}

/// Why a move list does not pickle: `pacru.chevron.movelist.NO_PICKLE` (a test holds
/// them equal).
const NO_PICKLE: &str =
    "a LegalMoves does not pickle: pickle its state, whose legal_moves() makes the list again";

/// `attrs.exceptions.FrozenInstanceError()`, as the Python engine's list and state raise
/// it on assignment.
pub(crate) fn frozen(py: Python<'_>) -> PyErr {
    crate::errors::exception(py, "attrs.exceptions", "FrozenInstanceError", (), None)
}

/// `randrange(n)`, the callable the user gave `_family_draw`: the binding's one call of
/// a callable it is given. Its errors pass through; a result that is no integer is the
/// `TypeError` of reading it, a negative one or one past 2**64 an `IndexError` (out of
/// range, as one from `n` on is where the caller checks it; no `OverflowError`).
fn draw(randrange: &Bound<'_, PyAny>, n: u64) -> PyResult<u64> {
    let py = randrange.py();
    match randrange.call1((n,))?.extract::<u64>() {
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
            Err(PyIndexError::new_err("legal move index out of range"))
        }
        drawn => drawn,
    }
}

impl Moves {
    /// The legal moves of `pos` under `rules`.
    pub(crate) fn of(rules: &engine::Rules, pos: &engine::Position) -> Moves {
        Moves {
            list: spare::list_of(rules, pos),
            issued: Mutex::new(None),
            families: PyOnceLock::new(),
        }
    }

    /// A list of the moves `list` holds (one chevron's, `from_field`).
    fn over(list: engine::MoveList) -> Moves {
        Moves {
            list: Arc::new(list),
            issued: Mutex::new(None),
            families: PyOnceLock::new(),
        }
    }

    /// The engine's list.
    pub(crate) fn list(&self) -> &Arc<engine::MoveList> {
        &self.list
    }

    /// The index and the engine's move of `move_` when it is the move indexing handed out
    /// last.
    pub(crate) fn issued_move(&self, move_: &Bound<'_, PyAny>) -> Option<(u64, engine::Move)> {
        let issued = self.issued.lock().ok()?;
        match issued.as_ref() {
            Some((obj, i, m)) if obj.bind(move_.py()).is(move_) => Some((*i, *m)),
            _ => None,
        }
    }

    /// The `i`-th move (`0 <= i < len`), remembered as issued.
    pub(crate) fn issue(&self, py: Python<'_>, i: u64) -> PyResult<Py<PyAny>> {
        let m = self
            .list
            .get(i)
            .ok_or_else(|| PyIndexError::new_err("legal move index out of range"))?;
        self.issue_move(py, i, m)
    }

    /// The `i`-th move, `m` (what `list.get(i)` gives, known to the caller), remembered as
    /// issued.
    pub(crate) fn issue_move(
        &self,
        py: Python<'_>,
        i: u64,
        m: engine::Move,
    ) -> PyResult<Py<PyAny>> {
        let obj = PyMove::object(py, m)?.into_any().unbind();
        let before = match self.issued.lock() {
            Ok(mut issued) => issued.replace((obj.clone_ref(py), i, m)),
            Err(_) => None,
        };
        drop(before);
        Ok(obj)
    }

    /// The index of a move of either class, or of the move a text writes; None when not
    /// listed.
    fn index_of(&self, move_: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
        if let Some((i, _)) = self.issued_move(move_) {
            return Ok(Some(i));
        }
        if let Ok(native) = move_.cast::<PyMove>() {
            return Ok(self.list.index_of(&native.get().m));
        }
        if let Ok(text) = move_.cast::<PyString>() {
            // `Move.parse`'s grammar; text outside it (or no UTF-8: a lone surrogate) is in
            // no list (`in` never raises).
            return Ok(text
                .to_str()
                .ok()
                .and_then(|t| engine::Move::from_text(t).ok())
                .and_then(|m| self.list.index_of(&m)));
        }
        // A Python `pacru.Move`, read by attribute.
        if !is_move(move_)? {
            return Ok(None);
        }
        Ok(from_python(move_)?.and_then(|m| self.list.index_of(&m)))
    }

    /// The step families and the reorientation families (`families::families`), made
    /// when first read and kept.
    fn family_tuples<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        let (steps, turns) = self.families.get_or_try_init(py, || {
            families::families(py, &self.list).map(|(s, t)| (s.unbind(), t.unbind()))
        })?;
        Ok((steps.bind(py).clone(), turns.bind(py).clone()))
    }

    /// The number of move families: the step families, then the reorientation families,
    /// one per chevron and turn {R14}.
    fn families_len(&self) -> usize {
        families::family_count(&self.list)
    }

    /// `(start, size)` of the `family`-th of `count` families; `IndexError` outside.
    fn range_of(&self, family: usize, count: usize) -> PyResult<(u64, u64)> {
        if family >= count {
            return Err(PyIndexError::new_err("legal move index out of range"));
        }
        Ok(pacru_batch::family_range(&self.list, family))
    }
}

#[pymethods]
impl Moves {
    fn __len__(&self) -> usize {
        usize::try_from(self.list.len()).unwrap_or(usize::MAX)
    }

    fn __bool__(&self) -> bool {
        !self.list.is_empty()
    }

    /// The `index`-th move (negative from the end), or a tuple of the moves of a slice.
    /// `IndexError` outside the list, `TypeError` for an index that is neither.
    fn __getitem__(&self, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = index.py();
        if let Ok(slice) = index.cast::<PySlice>() {
            let n = isize::try_from(self.list.len()).unwrap_or(isize::MAX);
            let range = slice.indices(n)?;
            let mut items = Vec::with_capacity(range.slicelength);
            let mut i = range.start;
            for _ in 0..range.slicelength {
                let m = self
                    .list
                    .get(u64::try_from(i).unwrap_or(u64::MAX))
                    .ok_or_else(|| PyIndexError::new_err("legal move index out of range"))?;
                items.push(PyMove::object(py, m)?);
                i += range.step;
            }
            return Ok(PyTuple::new(py, items)?.into_any().unbind());
        }
        // Any integer operator.index accepts, as for a list, with its TypeError (the
        // Python list's `operator.index(index)`); an int beyond i64 is out of range.
        let index: i64 = match index.extract() {
            Ok(i) => i,
            Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
                return Err(PyIndexError::new_err("legal move index out of range"))
            }
            Err(e) => return Err(e),
        };
        let n = i64::try_from(self.list.len()).unwrap_or(i64::MAX);
        let i = if index < 0 { index + n } else { index };
        match u64::try_from(i) {
            Ok(i) if i < self.list.len() => self.issue(py, i),
            _ => Err(PyIndexError::new_err("legal move index out of range")),
        }
    }

    fn __iter__(slf: &Bound<'_, Self>) -> MovesIter {
        MovesIter {
            moves: slf.clone().unbind(),
            next: Mutex::new(0),
            reverse: false,
        }
    }

    fn __reversed__(slf: &Bound<'_, Self>) -> MovesIter {
        MovesIter {
            moves: slf.clone().unbind(),
            next: Mutex::new(0),
            reverse: true,
        }
    }

    /// Whether `move` (a `pacru.Move`, or its text) is in the list; never raises.
    fn __contains__(&self, move_: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.index_of(move_)?.is_some())
    }

    /// The index of `value` in the list (within `start..stop`); `ValueError` if absent:
    /// `list.index`, as the Python engine's list has it (`pacru.LegalMoves.index`): the
    /// same bounds, errors and messages, worked out here. A move is in a list once, so
    /// its one index is the answer when it lies within the bounds; a text is no item.
    #[pyo3(signature = (value, /, *bounds))]
    fn index(&self, value: &Bound<'_, PyAny>, bounds: &Bound<'_, PyTuple>) -> PyResult<u64> {
        if bounds.len() > 2 {
            return Err(PyTypeError::new_err(format!(
                "index expected at most 3 arguments, got {}",
                bounds.len() + 1
            )));
        }
        let len = i64::try_from(self.list.len()).unwrap_or(i64::MAX);
        let start = match bounds.get_item(0) {
            Ok(bound) => index_bound(&bound, len)?,
            Err(_) => 0,
        };
        let stop = match bounds.get_item(1) {
            Ok(bound) => index_bound(&bound, len)?,
            Err(_) => len,
        };
        let found = if value.is_instance_of::<PyString>() {
            None
        } else {
            self.index_of(value)?
        };
        match found {
            Some(i) if i64::try_from(i).is_ok_and(|i| start <= i && i < stop) => Ok(i),
            _ => Err(PyValueError::new_err(format!(
                "{} is not in list",
                value.repr()?
            ))),
        }
    }

    /// How often `value` is in the list: `collections.abc.Sequence.count` (the items `v`
    /// with `v is value or v == value`), as the Python engine's list has it. A move is in
    /// a list at most once; a text, an int or None equals no move (a text is no item:
    /// `in` reads text, `count` does not); any other value is compared with every move.
    fn count(&self, value: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.count_of(value)
    }

    fn __richcmp__(
        slf: &Bound<'_, Self>,
        other: &Bound<'_, PyAny>,
        op: CompareOp,
    ) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let equal = match op {
            CompareOp::Eq | CompareOp::Ne => slf.get().equals(other)?,
            _ => None,
        };
        Ok(match equal {
            None => py.NotImplemented(),
            Some(equal) => (equal == matches!(op, CompareOp::Eq))
                .into_pyobject(py)?
                .to_owned()
                .into_any()
                .unbind(),
        })
    }

    /// An immutable value: a copy is the list itself.
    fn __copy__(slf: &Bound<'_, Self>) -> Py<Self> {
        slf.clone().unbind()
    }

    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf.clone().unbind()
    }

    /// A list does not pickle (its state does), with the Python list's message.
    fn __reduce__(&self) -> PyResult<Py<PyAny>> {
        Err(PyTypeError::new_err(NO_PICKLE))
    }

    fn __hash__(&self) -> PyResult<isize> {
        Err(PyTypeError::new_err("unhashable type: 'LegalMoves'"))
    }

    /// `<LegalMoves [e1-e2, ...]>`: the first 8 moves' text, then the count when there
    /// are more (`LegalMoves.__repr__`).
    fn __repr__(&self) -> String {
        self.repr()
    }

    fn __setattr__(
        &self,
        py: Python<'_>,
        _name: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        Err(frozen(py))
    }

    fn __delattr__(&self, py: Python<'_>, _name: &Bound<'_, PyAny>) -> PyResult<()> {
        Err(frozen(py))
    }

    /// True when the only legal move is `pass` {S-R2, A-R10}.
    #[getter]
    fn is_pass(&self) -> bool {
        self.list.is_pass()
    }

    /// The step and pincer families, in list order.
    #[getter]
    fn steps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        Ok(self.family_tuples(py)?.0)
    }

    /// The reorientation families {R14}: by chevron, then turn (-2, -1, +1, +2).
    #[getter]
    fn reorientations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        Ok(self.family_tuples(py)?.1)
    }

    /// Every family: the steps, then the reorientations.
    #[getter]
    fn families<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (steps, turns) = self.family_tuples(py)?;
        PyTuple::new(py, steps.iter().chain(turns.iter()).collect::<Vec<_>>())
    }

    /// The family a move would belong to (same chevron, target/turn, capture), if any.
    fn family_of<'py>(&self, r#move: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let py = r#move.py();
        let Some(k) = families::family_index(&self.list, r#move)? else {
            return Ok(None);
        };
        let (steps, turns) = self.family_tuples(py)?;
        match k.checked_sub(steps.len()) {
            None => steps.get_item(k).map(Some),
            Some(k) => turns.get_item(k).map(Some),
        }
    }

    /// The legal moves of the chevron on `field` (name or index), in list order: a
    /// native list of that chevron's families only (`LegalMoves.from_field`: its step
    /// families, then its reorientation families {R14}), empty when no chevron of the
    /// player to move stands there or the only move is a pass. Made from the engine's
    /// list (`MoveList::of_chevron`), without Python. `NotationError` for an unknown
    /// field name, `ValueError` for an index outside 0..80.
    #[allow(clippy::wrong_self_convention)] // the name of the `LegalMoves` method it is
    fn from_field(&self, field: &Bound<'_, PyAny>) -> PyResult<Py<Moves>> {
        let f = families::field_index(field)?;
        // Made by `Py::new`, as a state's list is: a list returned by value would have
        // PyO3 build it by another path, which cost every ply a dozen instructions
        // (benchmarks/ply_instructions.py: a function of the hot path inlined otherwise).
        Py::new(field.py(), Moves::over(self.list.of_chevron(f)))
    }

    /// A family drawn by `randrange(family count)`, then its move by `randrange(size)`,
    /// as `LegalMoves._family_draw` draws it, from the engine's family bounds; None when
    /// there is no family (a pass, or no move).
    fn _family_draw(&self, randrange: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
        let py = randrange.py();
        let count = self.families_len();
        if count == 0 {
            return Ok(None);
        }
        let family = usize::try_from(draw(randrange, u64::try_from(count).unwrap_or(u64::MAX))?)
            .unwrap_or(usize::MAX);
        let (start, size) = self.range_of(family, count)?;
        let offset = draw(randrange, size)?;
        if offset >= size {
            return Err(PyIndexError::new_err("legal move index out of range"));
        }
        self.issue(py, start + offset).map(Some)
    }

    /// `(steps, reorientations)`: `(start, size)` of each step family and each
    /// reorientation family {R14}, in list order, as `LegalMoves._family_bounds` gives
    /// them (both empty for a pass): from the engine, without the families.
    fn _family_bounds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let ranges = families::family_ranges(&self.list);
        let steps = self.list.step_count().min(ranges.len());
        let (step_ranges, turn_ranges) = ranges.split_at(steps);
        (
            PyTuple::new(py, step_ranges)?,
            PyTuple::new(py, turn_ranges)?,
        )
            .into_pyobject(py)
    }

    /// The number of move families, `len(LegalMoves.families)`: the step families, then
    /// the reorientation families, one per chevron and turn {R14}.
    fn family_count(&self) -> usize {
        self.families_len()
    }

    /// `(start, size)` of the `family`-th family (`0 <= family < family_count()`): its
    /// moves are `start .. start + size` of this list, as `LegalMoves.families[family]`
    /// holds them. `IndexError` outside.
    fn family_range(&self, family: usize) -> PyResult<(u64, u64)> {
        self.range_of(family, self.families_len())
    }

    /// The list itself, where `ChevronState.apply_move` looks for the issued move of a
    /// list of either engine (`LegalMoves._impl.issued`).
    #[getter]
    fn _impl<'py>(slf: &Bound<'py, Self>) -> Bound<'py, Self> {
        slf.clone()
    }

    /// Mark `move` (a move of this list, or an equal one) as the move handed out last, as
    /// indexing does: the Python decisions of `pacru.encoding` hand out their finished
    /// move so, and `apply_move` then takes it without a check. `ValueError` when the
    /// list does not hold it.
    fn _issue(&self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let Some(i) = self.index_of(r#move)? else {
            return Err(PyValueError::new_err("the move is not in this list"));
        };
        let m = self
            .list
            .get(i)
            .ok_or_else(|| PyIndexError::new_err("legal move index out of range"))?;
        let before = match self.issued.lock() {
            Ok(mut issued) => issued.replace((r#move.clone().unbind(), i, m)),
            Err(_) => None,
        };
        drop(before);
        Ok(())
    }

    /// The move indexing handed out last, or None.
    #[getter]
    fn issued(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.issued
            .lock()
            .ok()?
            .as_ref()
            .map(|(obj, _, _)| obj.clone_ref(py))
    }
}

impl Drop for Moves {
    /// Gives the engine's list to this thread's spare (see `spare`).
    fn drop(&mut self) {
        spare::give_up(&mut self.list);
    }
}

/// Iterates over a `NativeLegalMoves` in order, or in reverse.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct MovesIter {
    moves: Py<Moves>,
    next: Mutex<u64>,
    reverse: bool,
}

#[pymethods]
impl MovesIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let k = {
            let mut next = self
                .next
                .lock()
                .map_err(|_| PyRuntimeError::new_err("move iterator poisoned"))?;
            let k = *next;
            *next += 1;
            k
        };
        let moves = self.moves.get();
        let i = if self.reverse {
            match moves.list.len().checked_sub(k + 1) {
                Some(i) => i,
                None => return Ok(None),
            }
        } else {
            k
        };
        match moves.list.get(i) {
            Some(m) => PyMove::object(py, m).map(|b| Some(b.into_any().unbind())),
            None => Ok(None),
        }
    }
}
