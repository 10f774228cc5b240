//! The families of a `NativeLegalMoves`, made here from the engine's list: `StepFamily`
//! and `ReorientationFamily`, with the API of the Python engine's classes
//! (`pacru.chevron.families`, whose virtual subclasses they are by registration), and
//! the list's `family_of` and the field reading of its `from_field`
//! (`pacru.chevron.movelist.LegalMoves`), with the same results and errors. A family
//! shares the engine's list and hands out its moves by index: native moves
//! (`pacru._native.Move`), the list's own.

use std::sync::{Arc, Mutex};

use pacru_engine as engine;
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PySlice, PyString, PyTuple};

use super::value::{is_move, PyMove};
use crate::from_python;

/// The turns of a reorientation in list order: 4 turns with 4+ free own fields, else 2
/// (D25).
const TURNS: [i8; 4] = [-2, -1, 1, 2];
const TURNS_FEW: [i8; 2] = [-1, 1];

/// The turns the list's reorientations make, in list order {R14, D25}.
fn turns(list: &engine::MoveList) -> &'static [i8] {
    match list.reorientation_layout().2 {
        4 => &TURNS,
        2 => &TURNS_FEW,
        _ => &[],
    }
}

/// The codes `field * 8 + facing` of the chevrons that may reorient, ascending field
/// (none for a pass) {R14}.
pub(crate) fn reorienting_codes(list: &engine::MoveList) -> Vec<u16> {
    if list.is_pass() {
        return Vec::new();
    }
    let pos = list.position();
    let seat = usize::from(pos.to_move);
    engine::geometry::bits(list.reorientation_fields().0)
        .filter_map(|f| {
            let facing = pos.chevrons.get(seat)?.facing_at(f)?;
            Some(u16::from(f) * 8 + u16::from(facing))
        })
        .collect()
}

/// The number of families of `list`: its step families, then one reorientation family
/// per reorienting chevron and turn {R14}; none for a pass.
pub(crate) fn family_count(list: &engine::MoveList) -> usize {
    if list.is_pass() {
        return 0;
    }
    let chevrons = list.reorientation_fields().0.count_ones() as usize;
    list.step_count() + chevrons * turns(list).len()
}

/// `(start, size)` of every family of `list`, in list order ([`family_count`] of them):
/// the step families, then the reorientation families by chevron and turn {R14}.
pub(crate) fn family_ranges(list: &engine::MoveList) -> Vec<(u64, u64)> {
    let mut out = Vec::with_capacity(family_count(list));
    if list.is_pass() {
        return out;
    }
    out.extend((0..list.step_count()).filter_map(|i| list.step_range(i)));
    let (mut at, sizes, _, _) = list.reorientation_layout();
    for _ in 0..list.reorientation_fields().0.count_ones() {
        for &size in sizes.iter().take(turns(list).len()) {
            out.push((at, size));
            at += size;
        }
    }
    out
}

/// The move `index` of `list`, as a native move.
fn move_at(py: Python<'_>, list: &engine::MoveList, index: u64) -> PyResult<Py<PyAny>> {
    let m = list
        .get(index)
        .ok_or_else(|| PyIndexError::new_err("legal move index out of range"))?;
    Ok(PyMove::object(py, m)?.into_any().unbind())
}

/// Iterates over the moves `next .. end` of a list, made one at a time (a reorientation
/// family can hold hundreds of thousands of moves).
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct FamilyIter {
    list: Arc<engine::MoveList>,
    next: Mutex<u64>,
    end: u64,
}

impl FamilyIter {
    fn over(list: &Arc<engine::MoveList>, start: u64, size: u64) -> FamilyIter {
        FamilyIter {
            list: Arc::clone(list),
            next: Mutex::new(start),
            end: start + size,
        }
    }
}

#[pymethods]
impl FamilyIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let i = {
            let mut next = self
                .next
                .lock()
                .map_err(|_| PyRuntimeError::new_err("family iterator poisoned"))?;
            if *next >= self.end {
                return Ok(None);
            }
            *next += 1;
            *next - 1
        };
        move_at(py, &self.list, i).map(Some)
    }
}

/// Whether `move_` is a move of `list` within `start .. start + size`; a value that is
/// no move raises the Python family's `AttributeError` (it reads `move.origin`).
fn holds(
    list: &engine::MoveList,
    start: u64,
    size: u64,
    move_: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let m = if let Ok(native) = move_.cast::<PyMove>() {
        Some(native.get().m)
    } else if is_move(move_)? {
        from_python(move_)?
    } else {
        move_.getattr(intern!(move_.py(), "origin"))?;
        None
    };
    Ok(m.and_then(|m| list.index_of(&m))
        .is_some_and(|i| start <= i && i - start < size))
}

/// `IndexError(value)`, as the Python families raise it (the index itself as argument).
fn index_error(value: Bound<'_, PyAny>) -> PyErr {
    PyIndexError::new_err(value.unbind())
}

/// Every complete move of one chevron step or pincer, differing only in choices.
#[pyclass(frozen, module = "pacru._native", name = "StepFamily")]
pub(crate) struct StepFamily {
    list: Arc<engine::MoveList>,
    index: usize,
    origin: u8,
    target: u8,
    capture: bool,
    start: u64,
    size: u64,
    options: PyOnceLock<Py<PyTuple>>,
}

#[pymethods]
impl StepFamily {
    /// The chevron's field.
    #[getter]
    fn origin(&self) -> u8 {
        self.origin
    }

    /// The destination field (a pincer's victim's field).
    #[getter]
    fn target(&self) -> u8 {
        self.target
    }

    /// True for a Pacru pincer {R11}.
    #[getter]
    fn capture(&self) -> bool {
        self.capture
    }

    /// The choices: (twist, connection, marker field or -1, meeting bitboard or 0).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let options = self.options.get_or_try_init(py, || {
            let mut choices = Vec::new();
            self.list.each_step_choice(self.index, |c| {
                choices.push((
                    c.twist,
                    c.connection,
                    c.marker.map_or(-1, i16::from),
                    c.meetings,
                ))
            });
            PyTuple::new(py, choices).map(Bound::unbind)
        })?;
        Ok(options.bind(py).clone())
    }

    /// The number of complete moves in this family (at least 1).
    #[getter]
    fn size(&self) -> u64 {
        self.size
    }

    /// The `index`-th move of this family, in list order (`0 <= index < size`).
    /// `IndexError` out of range: `IndexError(index)` below 0, `IndexError(index - size)`
    /// from `size` on (the Python family's).
    fn get(&self, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = index.py();
        if index.lt(0)? {
            return Err(index_error(index.clone()));
        }
        let i: u64 = match index.extract() {
            Ok(i) => i,
            Err(e) if e.is_instance_of::<PyOverflowError>(py) => u64::MAX,
            Err(e) => return Err(e),
        };
        if i >= self.size {
            return Err(index_error(index.sub(self.size)?));
        }
        move_at(py, &self.list, self.start + i)
    }

    fn __iter__(&self) -> FamilyIter {
        FamilyIter::over(&self.list, self.start, self.size)
    }

    /// Whether `move` is one of this family's moves.
    fn contains(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        holds(&self.list, self.start, self.size, r#move)
    }

    fn __repr__(&self) -> String {
        format!(
            "<StepFamily {}->{}{}, {} moves>",
            self.origin,
            self.target,
            if self.capture { " capture" } else { "" },
            self.size
        )
    }
}

/// Every reorientation of one chevron by one turn: each set of `cost` fields {R14}.
#[pyclass(frozen, module = "pacru._native", name = "ReorientationFamily")]
pub(crate) struct ReorientationFamily {
    list: Arc<engine::MoveList>,
    origin: u8,
    turn: i8,
    free: u128,
    start: u64,
    size: u64,
}

#[pymethods]
impl ReorientationFamily {
    /// The chevron's field.
    #[getter]
    fn origin(&self) -> u8 {
        self.origin
    }

    /// 45-degree steps, clockwise positive: -2, -1, 1 or 2.
    #[getter]
    fn turn(&self) -> i8 {
        self.turn
    }

    /// The own unoccupied fields that may be given up, ascending (D25).
    #[getter]
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, engine::geometry::bits(self.free).collect::<Vec<u8>>())
    }

    /// The bitboard of `fields`.
    #[getter]
    fn mask(&self) -> u128 {
        self.free
    }

    /// The number of fields given up: 2 for 45 degrees, 4 for 90 (D25).
    #[getter]
    fn cost(&self) -> u8 {
        2 * self.turn.unsigned_abs()
    }

    /// The number of moves: C(len(fields), cost).
    #[getter]
    fn size(&self) -> u64 {
        self.size
    }

    /// The `index`-th move: relinquished sets in lexicographic order. `IndexError(index)`
    /// out of range.
    fn get(&self, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = index.py();
        let zero = 0_i32.into_pyobject(py)?;
        if !(zero.le(index)? && index.lt(self.size)?) {
            return Err(index_error(index.clone()));
        }
        let i: u64 = index.extract()?;
        move_at(py, &self.list, self.start + i)
    }

    fn __iter__(&self) -> FamilyIter {
        FamilyIter::over(&self.list, self.start, self.size)
    }

    /// Whether `move` is one of this family's moves.
    fn contains(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        holds(&self.list, self.start, self.size, r#move)
    }

    fn __repr__(&self) -> String {
        format!(
            "<ReorientationFamily {} turn {:+}, {} moves>",
            self.origin, self.turn, self.size
        )
    }
}

/// The families of a list: its step families and its reorientation families, in list
/// order (both empty for a pass).
pub(crate) fn families<'py>(
    py: Python<'py>,
    list: &Arc<engine::MoveList>,
) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
    if list.is_pass() {
        return Ok((PyTuple::empty(py), PyTuple::empty(py)));
    }
    let mut steps = Vec::with_capacity(list.step_count());
    for index in 0..list.step_count() {
        let (Some((origin, target, capture)), Some((start, size))) =
            (list.step_fields(index), list.step_range(index))
        else {
            break;
        };
        steps.push(Py::new(
            py,
            StepFamily {
                list: Arc::clone(list),
                index,
                origin,
                target,
                capture,
                start,
                size,
                options: PyOnceLock::new(),
            },
        )?);
    }
    let (step_moves, sizes, _, per_chevron) = list.reorientation_layout();
    let free = list.reorientation_fields().1;
    let mut turns_out = Vec::new();
    let mut start = step_moves;
    for code in reorienting_codes(list) {
        let mut at = start;
        for (&turn, &size) in turns(list).iter().zip(sizes.iter()) {
            turns_out.push(Py::new(
                py,
                ReorientationFamily {
                    list: Arc::clone(list),
                    origin: engine::geometry::code_field(code),
                    turn,
                    free,
                    start: at,
                    size,
                },
            )?);
            at += size;
        }
        start += per_chevron;
    }
    Ok((PyTuple::new(py, steps)?, PyTuple::new(py, turns_out)?))
}

/// The index in the list's families (steps, then reorientations) of the family `move_`
/// would belong to (same chevron, target or turn, capture), if any: read by attribute,
/// as `LegalMoves.family_of` reads it (a value without them raises its
/// `AttributeError`; values of other types match no family).
pub(crate) fn family_index(
    list: &engine::MoveList,
    move_: &Bound<'_, PyAny>,
) -> PyResult<Option<usize>> {
    let py = move_.py();
    let origin = move_.getattr(intern!(py, "origin"))?;
    if origin.is_none() {
        return Ok(None);
    }
    let Ok(origin) = origin.extract::<i64>() else {
        return Ok(None);
    };
    let target = move_.getattr(intern!(py, "target"))?;
    if list.is_pass() {
        return Ok(None);
    }
    if target.is_none() {
        let turns = turns(list);
        if turns.is_empty() || move_.getattr(intern!(py, "capture"))?.is_truthy()? {
            return Ok(None);
        }
        let turn = move_.getattr(intern!(py, "turn"))?;
        let Some(t) = turn
            .extract::<i64>()
            .ok()
            .and_then(|turn| turns.iter().position(|&t| i64::from(t) == turn))
        else {
            return Ok(None);
        };
        let codes = reorienting_codes(list);
        let Some(chevron) = codes
            .iter()
            .position(|&c| i64::from(engine::geometry::code_field(c)) == origin)
        else {
            return Ok(None);
        };
        return Ok(Some(list.step_count() + chevron * turns.len() + t));
    }
    if list.step_count() == 0 || move_.getattr(intern!(py, "turn"))?.is_truthy()? {
        return Ok(None);
    }
    let Ok(target) = target.extract::<i64>() else {
        return Ok(None);
    };
    let capture = move_.getattr(intern!(py, "capture"))?;
    let capture = match capture.cast::<PyBool>() {
        Ok(b) => b.is_true(),
        Err(_) => match capture.extract::<i64>() {
            Ok(c @ (0 | 1)) => c == 1,
            _ => return Ok(None),
        },
    };
    Ok((0..list.step_count()).find(|&i| {
        list.step_fields(i).is_some_and(|(f, t, c)| {
            i64::from(t) == target && i64::from(f) == origin && c == capture
        })
    }))
}

/// The field index of `field` (a name such as `"e5"`, or an index 0..80 of any type
/// `operator.index` takes, `bool` refused), as `pacru.geometry.field_index` reads it:
/// `NotationError` for an unknown name, `ValueError` for anything else.
pub(crate) fn field_index(field: &Bound<'_, PyAny>) -> PyResult<u8> {
    let py = field.py();
    if let Ok(text) = field.cast::<PyString>() {
        return parse_field(text);
    }
    // `pacru._integers.integer`: an int or an `operator.index` integer, not a bool.
    let index = if field.is_instance_of::<PyBool>() {
        None
    } else {
        match field.extract::<i64>() {
            Ok(i) => Some(i),
            Err(e)
                if e.is_instance_of::<PyOverflowError>(py)
                    || e.is_instance_of::<PyTypeError>(py) =>
            {
                None
            }
            Err(e) => return Err(e),
        }
    };
    match index.and_then(|i| u8::try_from(i).ok()) {
        Some(f) if f < 81 => Ok(f),
        _ => Err(PyValueError::new_err(format!(
            "field index must be 0..80, not {}",
            field.repr()?
        ))),
    }
}

/// `pacru.geometry.parse_field`: the field of a name a1..i9 (case-insensitive, spaces
/// around it ignored), else `NotationError` with the Python message.
fn parse_field(text: &Bound<'_, PyString>) -> PyResult<u8> {
    let py = text.py();
    let found = if text.len()? < 8 {
        text.to_str()
            .ok()
            .and_then(engine::field_from_name)
            .map(engine::Field::get)
    } else {
        None
    };
    if let Some(f) = found {
        return Ok(f);
    }
    let head = text.get_item(PySlice::new(py, 0, 20, 1))?;
    let message = format!("{} is not a field; fields are a1..i9", head.repr()?);
    Err(crate::errors::pacru_error(
        py,
        "NotationError",
        (message, text),
        None,
    ))
}
