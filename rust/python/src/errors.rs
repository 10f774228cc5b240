//! The one place where the engine's typed errors become `pacru`'s exceptions, with the
//! classes and messages of the Python engine, and where a failed allocation becomes
//! `MemoryError`.

use std::collections::TryReserveError;

use pacru_engine::{EngineError, Illegal, Refusal};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyTuple};
use pyo3::BoundObject;

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
    pacru_error(py, class, (message,), None)
}

/// The exception `module.class(*args, **kwargs)`: the binding's one call into Python to
/// raise an error (`pacru.errors`' classes, and attrs' `FrozenInstanceError` that the
/// Python engine's frozen objects raise). An error while making it is the error raised.
pub(crate) fn exception<'py>(
    py: Python<'py>,
    module: &str,
    class: &str,
    args: impl IntoPyObject<'py, Target = PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let class = py.import(module)?.getattr(class)?;
        let args: Bound<'py, PyTuple> = args.into_pyobject(py).map_err(Into::into)?.into_bound();
        Ok(PyErr::from_value(class.call(args, kwargs)?))
    })();
    made.unwrap_or_else(|e| e)
}

/// The `pacru.errors` exception `class(*args, **kwargs)` ([`exception`]).
pub(crate) fn pacru_error<'py>(
    py: Python<'py>,
    class: &str,
    args: impl IntoPyObject<'py, Target = PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyErr {
    exception(py, "pacru.errors", class, args, kwargs)
}

/// `IllegalMoveError(message)` of a move the engine refused (no rule named: the Python
/// rules name it before the engine sees a move, so this is defensive).
pub(crate) fn illegal(py: Python<'_>, message: &str) -> PyErr {
    illegal_move(py, message, "", "not-legal")
}

/// `IllegalMoveError(message, rule=rule, reason=reason)`: a move or an action refused by
/// `rule` for `reason` (the `pacru.errors` fields a caller can branch on).
pub(crate) fn illegal_move(py: Python<'_>, message: &str, rule: &str, reason: &str) -> PyErr {
    let kwargs = PyDict::new(py);
    if let Err(e) = kwargs
        .set_item("rule", rule)
        .and_then(|()| kwargs.set_item("reason", reason))
    {
        return e;
    }
    pacru_error(py, "IllegalMoveError", (message,), Some(&kwargs))
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
        let class = if illegal.is_game_over() {
            "GameOverError"
        } else {
            kwargs.set_item("rule", illegal.rule())?;
            kwargs.set_item("reason", illegal.reason())?;
            "IllegalMoveError"
        };
        Ok(pacru_error(py, class, (message,), Some(&kwargs)))
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

/// A new `bytearray` holding `data`, or `MemoryError` (PyO3's `PyByteArray::new` panics
/// when Python cannot allocate it).
pub(crate) fn bytearray<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyByteArray>> {
    PyByteArray::new_with(py, data.len(), |buf| {
        buf.copy_from_slice(data);
        Ok(())
    })
}
