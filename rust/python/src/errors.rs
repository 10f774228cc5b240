//! The one place where the engine's typed errors become `pacru`'s exceptions, with the
//! classes and messages of the Python engine, and where a failed allocation becomes
//! `MemoryError`.

use std::collections::TryReserveError;
use std::ops::{Deref, DerefMut};

use pacru_engine::{EngineError, Illegal, Refusal};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyTuple};

/// The `pacru.errors` exception of an engine error: `ValueError` for a game or option the
/// engine refuses, `InvalidPositionError` for values that make no position or a counter
/// at its end, `IllegalMoveError` and `GameOverError` for a refused move: with the rule it
/// breaks ([`refused`], seats unnamed) when the refusal carries it ([`Refusal::Rule`]),
/// else defensively with none (a state names the rule itself before the engine refuses).
pub(crate) fn to_py(py: Python<'_>, err: EngineError) -> PyErr {
    let message = err.to_string();
    let class = match err {
        EngineError::UnknownGame | EngineError::InvalidOption(_) => {
            return PyValueError::new_err(message)
        }
        EngineError::InvalidPosition(_) | EngineError::CounterLimit(_) => "InvalidPositionError",
        EngineError::IllegalMove(..) => "IllegalMoveError",
        EngineError::GameOver(_) => "GameOverError",
    };
    match err {
        EngineError::IllegalMove(m, Refusal::Rule(rule)) => {
            return refused(py, &rule, &PyTuple::empty(py), &m.to_string())
        }
        EngineError::IllegalMove(..) => return illegal(py, &message),
        _ => {}
    }
    let made = (|| -> PyResult<PyErr> {
        let class = py.import("pacru.errors")?.getattr(class)?;
        Ok(PyErr::from_value(class.call1((message.as_str(),))?))
    })();
    made.unwrap_or_else(|e| e)
}

/// `IllegalMoveError(message)` of a move the engine refused (no rule named: the Python
/// rules name it before the engine sees a move, so this is defensive).
pub(crate) fn illegal(py: Python<'_>, message: &str) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let class = py.import("pacru.errors")?.getattr("IllegalMoveError")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("rule", "")?;
        kwargs.set_item("reason", "not-legal")?;
        Ok(PyErr::from_value(class.call((message,), Some(&kwargs))?))
    })();
    made.unwrap_or_else(|e| e)
}

/// The error of a move the engine refused, with the rule it breaks (`pacru.chevron.legality`
/// in the engine, [`pacru_engine::check`]): `IllegalMoveError(message, rule=, reason=,
/// move=text)`, or `GameOverError(message, move=text)` once the game is over. The message
/// names the seats by `players` (colour names, in seat order); `text` is the move as the
/// caller wrote it.
pub(crate) fn refused(
    py: Python<'_>,
    illegal: &Illegal,
    players: &Bound<'_, PyTuple>,
    text: &str,
) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let names = players
            .iter()
            .map(|p| p.extract::<String>())
            .collect::<PyResult<Vec<String>>>()?;
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let message = illegal.named(&names).to_string();
        let kwargs = PyDict::new(py);
        kwargs.set_item("move", text)?;
        let errors = py.import("pacru.errors")?;
        let class = if illegal.is_game_over() {
            errors.getattr("GameOverError")?
        } else {
            kwargs.set_item("rule", illegal.rule())?;
            kwargs.set_item("reason", illegal.reason())?;
            errors.getattr("IllegalMoveError")?
        };
        Ok(PyErr::from_value(class.call((message,), Some(&kwargs))?))
    })();
    made.unwrap_or_else(|e| e)
}

/// `ValueError` for the game name `name` the engine does not know, the name echoed as
/// `pacru.chevron.rules` echoes it (the engine's error carries no text).
pub(crate) fn unknown_game(name: &str) -> PyErr {
    let valid: Vec<&str> = pacru_engine::Game::ALL.iter().map(|g| g.name()).collect();
    PyValueError::new_err(format!(
        "unknown chevron game {name:?}; valid: {}",
        valid.join(", ")
    ))
}

/// `MemoryError` for an allocation of `what` that the machine could not give: every
/// buffer whose size comes from the caller is reserved fallibly (`try_reserve_exact`)
/// and its failure becomes this error, instead of the abort of a failed `Vec` or `Box`
/// allocation. `what` says what did not fit ("the batch is too large to hold").
pub(crate) fn no_memory(what: &str, err: TryReserveError) -> PyErr {
    PyMemoryError::new_err(format!("{what} ({err})"))
}

/// A value on the heap, allocated fallibly: `Box::new` aborts when the allocation fails
/// and `Box::try_new` is not stable, so the value is held as a boxed array of one (a
/// `Vec` reserved with `try_reserve_exact`, then boxed without reallocating); it reads
/// as the value itself.
pub(crate) struct Heap<T>(Box<[T; 1]>);

impl<T> Heap<T> {
    /// `value` moved onto the heap, or `MemoryError`.
    pub(crate) fn new(value: T) -> PyResult<Self> {
        let mut one = Vec::new();
        one.try_reserve_exact(1)
            .map_err(|e| no_memory("no memory for a native value", e))?;
        one.push(value);
        match Box::<[T; 1]>::try_from(one) {
            Ok(boxed) => Ok(Heap(boxed)),
            Err(_) => Err(PyRuntimeError::new_err(
                "pacru engine: a vector of one value is not one",
            )),
        }
    }
}

impl<T> Deref for Heap<T> {
    type Target = T;

    fn deref(&self) -> &T {
        let [value] = &*self.0;
        value
    }
}

impl<T> DerefMut for Heap<T> {
    fn deref_mut(&mut self) -> &mut T {
        let [value] = &mut *self.0;
        value
    }
}

/// A new `bytearray` holding `data`, or `MemoryError` (PyO3's `PyByteArray::new` panics
/// when Python cannot allocate it).
pub(crate) fn bytearray<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyByteArray>> {
    PyByteArray::new_with(py, data.len(), |buf| {
        buf.copy_from_slice(data);
        Ok(())
    })
}
