//! The sequence methods of the native move list that compare or show its moves: `==`
//! (`LegalMoves.__eq__`), `count` (`collections.abc.Sequence.count`), `repr`
//! (`LegalMoves.__repr__`) and the bounds of `index` (`list.index`), worked out here with
//! the Python engine's results and no call into pacru's Python (tests/native compares
//! them).

use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyList, PyString, PyTuple};

use super::value::{is_exact_move, legal_moves_class, PyMove};
use super::Moves;

/// How many moves `repr` shows before it gives the count (`LegalMoves.__repr__`).
const REPR_SHOWN: u64 = 8;

/// A bound of `Moves.index` as `list.index` reads it, clamped to `0..=len` as
/// `slice.indices` clamps it: an integer (`operator.index`; one past the machine's counts
/// by its sign), never `None` or another value.
pub(super) fn index_bound(bound: &Bound<'_, PyAny>, len: i64) -> PyResult<i64> {
    let refused =
        || PyTypeError::new_err("slice indices must be integers or have an __index__ method");
    if bound.is_none() {
        return Err(refused());
    }
    let i: i64 = match bound.extract() {
        Ok(i) => i,
        Err(e) if e.is_instance_of::<PyOverflowError>(bound.py()) => {
            if bound.lt(0)? {
                i64::MIN
            } else {
                i64::MAX
            }
        }
        Err(_) => return Err(refused()),
    };
    Ok(if i < 0 {
        i.saturating_add(len).max(0)
    } else {
        i.min(len)
    })
}

impl Moves {
    /// The `i`-th move as a native move (not remembered as issued); `IndexError` outside.
    fn item<'py>(&self, py: Python<'py>, i: u64) -> PyResult<Bound<'py, PyAny>> {
        let m = self
            .list
            .get(i)
            .ok_or_else(|| PyIndexError::new_err("legal move index out of range"))?;
        Ok(PyMove::object(py, m)?.into_any())
    }

    /// `LegalMoves.__eq__`: against a `LegalMoves` of either engine, the same length and
    /// each pair of moves equal; against a tuple or list, `list(self) == list(other)`;
    /// None (`NotImplemented`) against anything else.
    pub(super) fn equals(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<bool>> {
        let py = other.py();
        if let Ok(native) = other.cast::<Moves>() {
            // Equal engine moves are equal `pacru.Move`s: no move need be made.
            let theirs = &native.get().list;
            let n = self.list.len();
            return Ok(Some(
                theirs.len() == n && (0..n).all(|i| self.list.get(i) == theirs.get(i)),
            ));
        }
        if other.is_instance(legal_moves_class(py)?)? {
            if u64::try_from(other.len()?).ok() != Some(self.list.len()) {
                return Ok(Some(false));
            }
            // `all(a == b for a, b in zip(self, other))`.
            for (i, b) in (0..).zip(other.try_iter()?) {
                if !self.item(py, i)?.eq(b?)? {
                    return Ok(Some(false));
                }
            }
            return Ok(Some(true));
        }
        if !(other.is_instance_of::<PyTuple>() || other.is_instance_of::<PyList>()) {
            return Ok(None);
        }
        // `list(other)` (a subclass's own iteration), then `list.__eq__`: the lengths,
        // then each pair by identity or `==`.
        let theirs = PyList::new(py, other.try_iter()?.collect::<PyResult<Vec<_>>>()?)?;
        if u64::try_from(theirs.len()).ok() != Some(self.list.len()) {
            return Ok(Some(false));
        }
        for (i, b) in (0..).zip(theirs.iter()) {
            let a = self.item(py, i)?;
            if !(a.is(&b) || a.eq(&b)?) {
                return Ok(Some(false));
            }
        }
        Ok(Some(true))
    }

    /// `Sequence.count(value)`: see `Moves::count`.
    pub(super) fn count_of(&self, value: &Bound<'_, PyAny>) -> PyResult<usize> {
        let py = value.py();
        if is_exact_move(value)? {
            return Ok(usize::from(self.index_of(value)?.is_some()));
        }
        if value.is_none()
            || value.is_exact_instance_of::<PyString>()
            || value.is_exact_instance_of::<PyInt>()
            || value.is_exact_instance_of::<PyFloat>()
        {
            return Ok(0);
        }
        let mut count = 0;
        for i in 0..self.list.len() {
            let item = self.item(py, i)?;
            if item.is(value) || item.eq(value)? {
                count += 1;
            }
        }
        Ok(count)
    }

    /// `LegalMoves.__repr__`: see `Moves::__repr__`.
    pub(super) fn repr(&self) -> String {
        let n = self.list.len();
        let shown: Vec<String> = (0..n.min(REPR_SHOWN))
            .filter_map(|i| self.list.get(i))
            .map(|m| m.to_string())
            .collect();
        let more = if n > REPR_SHOWN {
            format!(", ... ({n} moves)")
        } else {
            String::new()
        };
        format!("<LegalMoves [{}{more}]>", shown.join(", "))
    }
}
