//! `NativeLegalMoves`: the move list of the native engine, itself a `pacru.LegalMoves`.
//!
//! `pacru.chevron.native` registers this class as a virtual subclass of `LegalMoves`, so
//! `len`, indexing, iteration and `in` are this class's C slots: no Python frame between
//! a bot's `rng.choice(state.legal_moves())` and the engine. The families
//! (`steps`, `reorientations`, `families`, `family_of`, `from_field`) are those of the
//! pure-Python engine for the same position, made when first read, so they are the same
//! objects under either engine; `_family_draw` draws from the engine's own family bounds.

use std::mem::ManuallyDrop;
use std::sync::{Arc, Mutex};

use pacru_engine as engine;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PySlice, PyString, PyTuple};

use crate::{
    board_after, code_ints, engine_error, from_python, make_object, registered, small_int,
    state_names, to_python, PooledPos, PyPosition, FROZEN, LEGAL_MOVES, MOVE_CLASS, MOVE_OR_NONE,
    OUTCOME, PYTHON_LIST, STATE_MAKER,
};

/// The legal moves of one position, in the order of the Python engine.
#[pyclass(frozen, module = "pacru._native", name = "NativeLegalMoves", sequence)]
pub(crate) struct Moves {
    position: Py<PyPosition>,
    /// Behind an `Arc`: the list keeps its steps inline (about a kilobyte), so a small
    /// Python object is allocated and freed by CPython's small-object allocator, and the
    /// decisions of `pacru.encoding` share the list instead of copying it. Given back to
    /// `SPARE` when the list is freed and nothing else holds it (never read again then:
    /// `Drop`).
    list: ManuallyDrop<Arc<engine::MoveList>>,
    /// The move last handed out by indexing, with its index: applied without a check.
    issued: Mutex<Option<(Py<PyAny>, u64, engine::Move)>>,
    /// The Python engine's list of the same position, made when the families are read.
    python: PyOnceLock<Py<PyAny>>,
}

/// The boxes of lists freed lately, for the next lists: a bot frees one list a ply and makes
/// the next, so its lists reuse one box instead of allocating a kilobyte each. Boxes, not the
/// lists themselves: a list moves in and out of the pool without being copied. Only boxes
/// nothing else holds (no decision) are kept, so each can be refilled in place.
static SPARE: Mutex<Vec<Arc<engine::MoveList>>> = Mutex::new(Vec::new());
/// How many boxes `SPARE` keeps.
const SPARE_SIZE: usize = 8;

impl Drop for Moves {
    fn drop(&mut self) {
        // SAFETY: the field is taken once, here, and `self` is not used after `drop`.
        let mut list = unsafe { ManuallyDrop::take(&mut self.list) };
        if Arc::get_mut(&mut list).is_none() {
            return; // something else still holds the list
        }
        if let Ok(mut spare) = SPARE.lock() {
            if spare.len() < SPARE_SIZE {
                spare.push(list);
            }
        }
    }
}

impl Moves {
    /// The legal moves of `position`.
    pub(crate) fn of(position: &Bound<'_, PyPosition>) -> Moves {
        let me = position.get();
        let mut spare = SPARE.lock().ok().and_then(|mut spare| spare.pop());
        // Only lists nothing else held went to `SPARE`: `get_mut` finds each unshared.
        let list = match spare.as_mut().and_then(Arc::get_mut) {
            Some(list) => {
                engine::legal_moves_into(&me.rules, &me.pos, list);
                spare
            }
            None => None,
        };
        let list = list.unwrap_or_else(|| Arc::new(engine::legal_moves(&me.rules, &me.pos)));
        Moves {
            position: position.clone().unbind(),
            list: ManuallyDrop::new(list),
            issued: Mutex::new(None),
            python: PyOnceLock::new(),
        }
    }

    /// The engine's list.
    pub(crate) fn list(&self) -> &Arc<engine::MoveList> {
        &self.list
    }

    /// The `ChevronState` after `move` (which must be in this list) from `state`, the state
    /// whose list this is: one call per applied move.
    pub(crate) fn apply_state<'py>(
        &self,
        state: &Bound<'py, PyAny>,
        move_: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let issued = self.issued_move(move_).map(|(_, m)| m);
        self.apply_decoded(state, move_, issued)
    }

    /// `apply_state` when `move_` is the move indexing handed out last: without a second
    /// look-up; None for any other move.
    pub(crate) fn apply_issued<'py>(
        &self,
        state: &Bound<'py, PyAny>,
        move_: &Bound<'py, PyAny>,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        let (_, m) = self.issued_move(move_)?;
        Some(self.apply_decoded(state, move_, Some(m)))
    }

    /// `apply_state`, with the engine's move of `move_` when it is the issued one.
    fn apply_decoded<'py>(
        &self,
        state: &Bound<'py, PyAny>,
        move_: &Bound<'py, PyAny>,
        issued: Option<engine::Move>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = state.py();
        let position = self.position.get();
        let next = match issued {
            // The move as the list decoded it when it handed it out: not decoded again.
            Some(m) => {
                let mut next =
                    PooledPos::spare().unwrap_or_else(|| PooledPos::new(position.pos.clone()));
                if !self.list.apply_listed_into(&m, &mut next) {
                    return Err(PyRuntimeError::new_err(
                        "pacru engine: the issued move does not apply",
                    ));
                }
                next
            }
            None => PooledPos::new(
                engine::apply(&position.rules, &position.pos, &from_python(move_)?)
                    .map_err(engine_error)?,
            ),
        };
        let (markers, chevrons) = position.tuples(py, &next)?;
        let (rules, players) = position.state_parts(state)?;
        let outcome = match next.outcome {
            Some(o) => registered(py, &OUTCOME)?.bind(py).call1((
                o.termination.value(),
                o.winners,
                &players,
            ))?,
            None => py.None().into_bound(py),
        };
        let none = py.None().into_bound(py);
        let occupied = board_after(
            &position.occupied(py),
            position.pos.occupied(),
            next.occupied(),
        )?;
        let (to_move, out, trigger, idle, ply) =
            (next.to_move, next.out, next.trigger, next.idle, next.ply);
        let pos = position.successor(py, next, &markers, &chevrons, &occupied, &rules, &players)?;
        let ints = code_ints(py);
        let values: [Bound<'py, PyAny>; 15] = [
            rules,
            players,
            markers.into_any(),
            chevrons.into_any(),
            small_int(py, ints, to_move.into()),
            small_int(py, ints, out.into()),
            small_int(py, ints, trigger.into()),
            small_int(py, ints, idle.into()),
            small_int(py, ints, ply.into()),
            outcome,
            occupied,
            move_.clone(),
            none.clone(),
            pos.into_any(),
            none,
        ];
        make_object(py, &STATE_MAKER, &state.get_type(), state_names(py), values)
    }

    /// The index of `move_` when it is the move indexing handed out last.
    pub(crate) fn issued_index(&self, move_: &Bound<'_, PyAny>) -> Option<u64> {
        self.issued_move(move_).map(|(i, _)| i)
    }

    /// The index and the engine's move of `move_` when it is the move indexing handed out
    /// last.
    fn issued_move(&self, move_: &Bound<'_, PyAny>) -> Option<(u64, engine::Move)> {
        let issued = self.issued.lock().ok()?;
        match issued.as_ref() {
            Some((obj, i, m)) if obj.as_ptr() == move_.as_ptr() => Some((*i, *m)),
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
        let obj = to_python(py, &m)?;
        let before = match self.issued.lock() {
            Ok(mut issued) => issued.replace((obj.clone_ref(py), i, m)),
            Err(_) => None,
        };
        // Dropped as a `Bound`: a `Py` dropped where PyO3 does not know the thread attached
        // (the C methods of `methods.rs` and `decisions.rs`) waits in PyO3's deferred pool.
        drop(before.map(|(old, _, _)| old.into_bound(py)));
        Ok(obj)
    }

    /// The index of a `pacru.Move`, or of the move a text writes; None when not listed.
    fn index_of(&self, move_: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
        let py = move_.py();
        if let Some(i) = self.issued_index(move_) {
            return Ok(Some(i));
        }
        let class = registered(py, &MOVE_CLASS)?.bind(py);
        let parsed;
        let move_ = if move_.is_instance_of::<PyString>() {
            // Text outside the grammar is in no list (`in` never raises).
            parsed = registered(py, &MOVE_OR_NONE)?.bind(py).call1((move_,))?;
            &parsed
        } else {
            move_
        };
        if !move_.is_instance(class)? {
            return Ok(None);
        }
        Ok(self.list.index_of(&from_python(move_)?))
    }

    /// The Python engine's list of this position (for its families).
    fn python<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyAny>> {
        let list = self.python.get_or_try_init(py, || {
            registered(py, &PYTHON_LIST)?
                .bind(py)
                .call1((self.position.bind(py),))
                .map(Bound::unbind)
        })?;
        Ok(list.bind(py))
    }

    /// The number of move families: the step families, then the reorientation families,
    /// one per chevron and turn {R14}.
    fn families_len(&self) -> usize {
        let p = self.position.get();
        pacru_batch::family_count(&p.rules, &p.pos, &self.list)
    }

    /// `(start, size)` of the `family`-th of `count` families; `IndexError` outside.
    fn range_of(&self, family: usize, count: usize) -> PyResult<(u64, u64)> {
        if family >= count {
            return Err(PyIndexError::new_err("move family index out of range"));
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
                items.push(to_python(py, &m)?);
                i += range.step;
            }
            return Ok(PyTuple::new(py, items)?.into_any().unbind());
        }
        // Any integer operator.index accepts, as for a list.
        let index: i64 = match index.extract() {
            Ok(i) => i,
            Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
                return Err(PyIndexError::new_err("legal move index out of range"))
            }
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "legal move indices must be integers or slices, not {}",
                    index.get_type().name()?
                )))
            }
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

    /// The index of `value` in the list (within `start..stop`); `ValueError` if absent.
    /// Ranked by the engine, not found by iterating as `Sequence.index` does.
    #[pyo3(signature = (value, start = 0, stop = None))]
    fn index(&self, value: &Bound<'_, PyAny>, start: i64, stop: Option<i64>) -> PyResult<u64> {
        let n = i64::try_from(self.list.len()).unwrap_or(i64::MAX);
        let clamp = |i: i64| if i < 0 { (i + n).max(0) } else { i.min(n) };
        let (start, stop) = (clamp(start), clamp(stop.unwrap_or(n)));
        match self.index_of(value)? {
            Some(i) if (start..stop).contains(&i64::try_from(i).unwrap_or(i64::MAX)) => Ok(i),
            // As collections.abc.Sequence.index raises it (the Python engine's list).
            _ => Err(PyValueError::new_err(())),
        }
    }

    /// How often `value` is in the list: 0 or 1 (moves are distinct).
    fn count(&self, value: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(usize::from(self.index_of(value)?.is_some()))
    }

    fn __richcmp__(
        slf: &Bound<'_, Self>,
        other: &Bound<'_, PyAny>,
        op: CompareOp,
    ) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let eq = || {
            registered(py, &LEGAL_MOVES)?
                .bind(py)
                .getattr(intern!(py, "__eq__"))?
                .call1((slf, other))
        };
        match op {
            CompareOp::Eq => Ok(eq()?.unbind()),
            CompareOp::Ne => {
                let result = eq()?;
                if result.is(py.NotImplemented()) {
                    return Ok(result.unbind());
                }
                Ok((!result.is_truthy()?)
                    .into_pyobject(py)?
                    .to_owned()
                    .into_any()
                    .unbind())
            }
            _ => Ok(py.NotImplemented()),
        }
    }

    /// An immutable value: a copy is the list itself.
    fn __copy__(slf: &Bound<'_, Self>) -> Py<Self> {
        slf.clone().unbind()
    }

    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf.clone().unbind()
    }

    /// A list does not pickle (its state does), with the Python list's message.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let message = py.import("pacru.chevron.movelist")?.getattr("NO_PICKLE")?;
        Err(PyTypeError::new_err(message.unbind()))
    }

    fn __hash__(&self) -> PyResult<isize> {
        Err(PyTypeError::new_err("unhashable type: 'LegalMoves'"))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        Ok(registered(py, &LEGAL_MOVES)?
            .bind(py)
            .getattr(intern!(py, "__repr__"))?
            .call1((slf,))?
            .unbind())
    }

    fn __setattr__(
        &self,
        py: Python<'_>,
        _name: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        Err(PyErr::from_value(
            registered(py, &FROZEN)?.bind(py).call0()?,
        ))
    }

    fn __delattr__(&self, py: Python<'_>, _name: &Bound<'_, PyAny>) -> PyResult<()> {
        Err(PyErr::from_value(
            registered(py, &FROZEN)?.bind(py).call0()?,
        ))
    }

    /// True when the only legal move is `pass` {S-R2, A-R10}.
    #[getter]
    fn is_pass(&self) -> bool {
        self.list.is_pass()
    }

    /// The step and pincer families, in list order.
    #[getter]
    fn steps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.python(py)?.getattr(intern!(py, "steps"))
    }

    /// The reorientation families {R14}: by chevron, then turn (-2, -1, +1, +2).
    #[getter]
    fn reorientations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.python(py)?.getattr(intern!(py, "reorientations"))
    }

    /// Every family: the steps, then the reorientations.
    #[getter]
    fn families<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.python(py)?.getattr(intern!(py, "families"))
    }

    /// The family a move would belong to (same chevron, target/turn, capture), if any.
    fn family_of<'py>(&self, move_: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = move_.py();
        self.python(py)?
            .call_method1(intern!(py, "family_of"), (move_,))
    }

    /// The legal moves of the chevron on `field` (see `LegalMoves.from_field`).
    #[allow(clippy::wrong_self_convention)] // the name of the `LegalMoves` method it is
    fn from_field<'py>(&self, field: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = field.py();
        self.python(py)?
            .call_method1(intern!(py, "from_field"), (field,))
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
        let family: usize = randrange.call1((count,))?.extract()?;
        let (start, size) = self.range_of(family, count)?;
        let offset: u64 = randrange.call1((size,))?.extract()?;
        if offset >= size {
            return Err(PyIndexError::new_err("legal move index out of range"));
        }
        self.issue(py, start + offset).map(Some)
    }

    /// `(steps, reorientations)`: `(start, size)` of each step family and each
    /// reorientation family {R14}, in list order, as `LegalMoves._family_bounds` gives
    /// them (both empty for a pass): from the engine, without the families.
    fn _family_bounds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let p = self.position.get();
        let ranges = if self.list.is_pass() {
            Vec::new()
        } else {
            pacru_batch::family_ranges(&p.pos, &self.list)
        };
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

    /// The move indexing handed out last, or None.
    #[getter]
    fn issued(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.issued
            .lock()
            .ok()?
            .as_ref()
            .map(|(obj, _, _)| obj.clone_ref(py))
    }

    /// The position this list belongs to.
    #[getter]
    fn position(&self, py: Python<'_>) -> Py<PyPosition> {
        self.position.clone_ref(py)
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
            Some(m) => to_python(py, &m).map(Some),
            None => Ok(None),
        }
    }
}
