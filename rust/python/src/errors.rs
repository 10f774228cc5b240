//! The one place where the engine's typed errors become `pacru`'s exceptions, with the
//! classes and messages of the Python engine.

use pacru_engine::EngineError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The `pacru.errors` exception of an engine error: `ValueError` for a game or option the
/// engine refuses, `InvalidPositionError` for values that make no position or a counter
/// at its end, `IllegalMoveError` and `GameOverError` for a refused move (the Python
/// rules name the rule of a refused move before the engine sees it: these are defensive).
pub(crate) fn to_py(py: Python<'_>, err: EngineError) -> PyErr {
    let message = err.message();
    let class = match err {
        EngineError::UnknownGame(_) | EngineError::InvalidOption(_) => {
            return PyValueError::new_err(message)
        }
        EngineError::InvalidPosition(_) | EngineError::CounterLimit(_) => "InvalidPositionError",
        EngineError::IllegalMove(_) => "IllegalMoveError",
        EngineError::GameOver(_) => "GameOverError",
    };
    let made = (|| -> PyResult<PyErr> {
        let class = py.import("pacru.errors")?.getattr(class)?;
        let value = match err {
            EngineError::IllegalMove(_) => {
                let kwargs = pyo3::types::PyDict::new(py);
                kwargs.set_item("rule", "")?;
                kwargs.set_item("reason", "not-legal")?;
                class.call((message.as_str(),), Some(&kwargs))?
            }
            _ => class.call1((message.as_str(),))?,
        };
        Ok(PyErr::from_value(value))
    })();
    made.unwrap_or_else(|e| e)
}
