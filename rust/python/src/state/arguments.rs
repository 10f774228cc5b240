//! `State.__new__`'s arguments, bound to its parameters here rather than by PyO3: the
//! successor of every ply is made by calling the class with no argument, and PyO3's
//! binding of twelve optional parameters costs more than the rest of `__new__`. The
//! errors are PyO3's, word for word.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

/// `State.__new__`'s parameters, in order (its `text_signature`).
pub(super) const PARAMETERS: [&str; 12] = [
    "rules", "players", "markers", "chevrons", "to_move", "out", "trigger", "idle", "ply",
    "outcome", "occupied", "last",
];

/// The value given for each parameter (None: not given, or given as None).
pub(super) type Bound12<'py> = [Option<Bound<'py, PyAny>>; 12];

/// Whether the call gave no argument at all (the hand-over of `apply_move`).
pub(super) fn none_given(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> bool {
    args.is_empty() && kwargs.is_none_or(|k| k.is_empty())
}

/// `args` and `kwargs` bound to [`PARAMETERS`], None for a parameter not given or given
/// None.
///
/// # Errors
/// `TypeError`, as PyO3 words it: more than twelve positional arguments, a keyword that
/// names no parameter, or a parameter given twice.
pub(super) fn bind<'py>(
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound12<'py>> {
    let given = args.len();
    if given > PARAMETERS.len() {
        let was = if given == 1 { "was" } else { "were" };
        return Err(PyTypeError::new_err(format!(
            "State.__new__() takes from 0 to {} positional arguments but {given} {was} given",
            PARAMETERS.len()
        )));
    }
    // The objects as given (None too), so that a parameter given twice is found.
    let mut values: Bound12<'py> = Default::default();
    for (slot, value) in values.iter_mut().zip(args.iter()) {
        *slot = Some(value);
    }
    for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        let name = key
            .cast::<PyString>()
            .ok()
            .and_then(|k| k.to_str().ok().map(str::to_owned));
        let Some((i, name)) =
            name.and_then(|n| Some((PARAMETERS.iter().position(|p| *p == n)?, n)))
        else {
            return Err(PyTypeError::new_err(format!(
                "State.__new__() got an unexpected keyword argument '{}'",
                key.str()?
            )));
        };
        let Some(slot) = values.get_mut(i) else {
            continue;
        };
        if slot.is_some() {
            return Err(PyTypeError::new_err(format!(
                "State.__new__() got multiple values for argument '{name}'"
            )));
        }
        *slot = Some(value);
    }
    Ok(values.map(|v| v.filter(|v| !v.is_none())))
}
