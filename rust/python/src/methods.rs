//! `ChevronState.legal_moves` and `ChevronState.apply_move` as C methods of the class.
//!
//! Every ply of a bot calls both. As Python methods each is a Python frame around one call
//! into this module; as method descriptors of the class (`PyDescr_NewMethod`, what CPython
//! makes of every method of a C type) the interpreter calls them directly, as it calls
//! `list.append`. `pacru.chevron.engine.install` puts them on the class when the native
//! engine is in use. They do what the Python methods do: `legal_moves` caches the list
//! in the state's `_moves` slot; `apply_move` applies the move the state's own list
//! handed out last without a check, and hands any other call (text, another move, keyword
//! arguments, a finished game) to the Python method, which checks it and names the rule
//! that refuses it.

use std::ffi::{c_int, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use pyo3::exceptions::PyRuntimeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

use crate::moves::Moves;
use crate::{init_state_class, legal_moves, registered, set_state_slot, state_slot, STATE_MOVES};

/// The Python `ChevronState.apply_move`, for every call the fast path does not take.
static CHECKED_APPLY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The state's cached list, or a new one stored in its `_moves` slot.
pub(crate) fn cached_legal_moves<'py>(state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let moves = state_slot(state, STATE_MOVES)?;
    if !moves.is_none() {
        return Ok(moves);
    }
    let moves = legal_moves(state)?;
    set_state_slot(state, STATE_MOVES, &moves)?;
    Ok(moves)
}

/// The state after `move_` when it is the move the state's own list issued last (applied
/// at once); None for any other move, which the Python method checks.
fn apply_issued<'py>(
    state: &Bound<'py, PyAny>,
    move_: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let moves = state_slot(state, STATE_MOVES)?;
    match moves.cast::<Moves>() {
        Ok(list) => list.get().apply_issued(state, move_).transpose(),
        Err(_) => Ok(None),
    }
}

/// The result of `f` as CPython expects it from a C function: a new reference, or NULL
/// with the exception set. A panic (a bug) becomes a `RuntimeError`, never an abort.
fn to_c(py: Python<'_>, f: impl FnOnce() -> PyResult<Py<PyAny>>) -> *mut ffi::PyObject {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(obj)) => obj.into_ptr(),
        Ok(Err(err)) => {
            err.restore(py);
            ptr::null_mut()
        }
        Err(_) => {
            PyRuntimeError::new_err("pacru engine: internal error (a panic) in a native method")
                .restore(py);
            ptr::null_mut()
        }
    }
}

/// `METH_NOARGS` entry of `legal_moves`.
unsafe extern "C" fn c_legal_moves(
    slf: *mut ffi::PyObject,
    _unused: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls a method with the GIL held, and `slf` is a live reference for
    // the duration of the call (the method descriptor checked its type).
    let py = unsafe { Python::assume_attached() };
    // SAFETY: as above: `slf` outlives the borrow, which ends with the call.
    let Some(state) = (unsafe { Borrowed::from_ptr_or_opt(py, slf) }) else {
        return no_self(py);
    };
    to_c(py, || cached_legal_moves(&state).map(Bound::unbind))
}

/// The positional arguments of a call, and its keyword arguments (None without any).
type CallArgs<'py> = (Vec<Bound<'py, PyAny>>, Option<Bound<'py, PyDict>>);

/// The positional arguments and the keyword arguments (None without any) of a vectorcall.
///
/// # Safety
/// `args`, `nargs` and `kwnames` must be what CPython passes to a
/// `METH_FASTCALL | METH_KEYWORDS` function, read during that call with the GIL held.
unsafe fn call_args<'py>(
    py: Python<'py>,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<CallArgs<'py>> {
    let positional = usize::try_from(nargs).unwrap_or(0);
    let names = if kwnames.is_null() {
        None
    } else {
        // SAFETY: a non-NULL `kwnames` of the vectorcall protocol is a live tuple.
        Some(unsafe { Bound::from_borrowed_ptr(py, kwnames) }.cast_into::<PyTuple>()?)
    };
    let keywords = names.as_ref().map_or(0, |n| n.len());
    let mut values = Vec::with_capacity(positional + keywords);
    for i in 0..positional + keywords {
        // SAFETY: the vectorcall protocol passes `nargs` positional values followed by
        // one value per keyword name, each a live reference for the call.
        values.push(unsafe { Bound::from_borrowed_ptr(py, *args.add(i)) });
    }
    let kwargs = match names {
        Some(names) => {
            let dict = PyDict::new(py);
            for (name, value) in names.iter().zip(&values[positional..]) {
                dict.set_item(name, value)?;
            }
            Some(dict)
        }
        None => None,
    };
    values.truncate(positional);
    Ok((values, kwargs))
}

/// The error of a method called without its object (CPython never does).
fn no_self(py: Python<'_>) -> *mut ffi::PyObject {
    PyRuntimeError::new_err("pacru engine: a method called without its object").restore(py);
    ptr::null_mut()
}

/// The fast path of a method for a call with one positional argument: the result, or None
/// when the Python method must take the call (it checks it and raises its errors).
pub(crate) type FastPath =
    for<'py> fn(&Bound<'py, PyAny>, &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>>;

/// The body of a `METH_FASTCALL | METH_KEYWORDS` C method whose Python method is `checked`:
/// `fast(self, argument)` for a call with one positional argument (the call of every ply:
/// no vector to allocate), and every call it does not take goes to `checked`.
///
/// # Safety
/// The arguments must be what CPython passes to the C method, during that call.
pub(crate) unsafe fn fast_or_checked(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
    fast: FastPath,
    checked: &PyOnceLock<Py<PyAny>>,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls a method with the GIL held; `slf` is live for the call.
    let py = unsafe { Python::assume_attached() };
    // SAFETY: as above: `slf` outlives the borrow, which ends with the call.
    let Some(obj) = (unsafe { Borrowed::from_ptr_or_opt(py, slf) }) else {
        return no_self(py);
    };
    let run = || -> PyResult<Py<PyAny>> {
        if nargs == 1 && kwnames.is_null() {
            // SAFETY: the vectorcall protocol passes `nargs` live positional values.
            let arg = unsafe { Bound::from_borrowed_ptr(py, *args) };
            if let Some(done) = fast(&obj, &arg)? {
                return Ok(done.unbind());
            }
        }
        // SAFETY: these are the arguments CPython passes to this method, during the call.
        let (values, kwargs) = unsafe { call_args(py, args, nargs, kwnames) }?;
        let mut all = Vec::with_capacity(values.len() + 1);
        all.push(obj.to_owned());
        all.extend(values);
        registered(py, checked)?
            .bind(py)
            .call(PyTuple::new(py, all)?, kwargs.as_ref())
            .map(Bound::unbind)
    };
    to_c(py, run)
}

/// `METH_FASTCALL | METH_KEYWORDS` entry of `apply_move`.
unsafe extern "C" fn c_apply_move(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: these are the arguments CPython passes to this method, during the call.
    unsafe { fast_or_checked(slf, args, nargs, kwnames, apply_issued, &CHECKED_APPLY) }
}

/// A method descriptor of `class` named `name`, with `doc` (its first line the signature
/// `inspect` reads), calling `meth` with `flags`.
pub(crate) fn descriptor(
    class: &Bound<'_, PyType>,
    name: &str,
    doc: &str,
    meth: ffi::PyMethodDefPointer,
    flags: c_int,
) -> PyResult<Py<PyAny>> {
    let py = class.py();
    let name = CString::new(name)?;
    let doc = CString::new(doc)?;
    // The definition must outlive the descriptor, which lives as long as the class (all
    // of the process): leaked once per installation, a few dozen bytes.
    let def: &'static mut ffi::PyMethodDef = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: name.into_raw(),
        ml_meth: meth,
        ml_flags: flags,
        ml_doc: doc.into_raw(),
    }));
    // SAFETY: `class` is a live type object and `def` a valid, never-freed definition whose
    // function has the calling convention `flags` declares.
    let descr = unsafe { ffi::PyDescr_NewMethod(class.as_type_ptr(), def) };
    // SAFETY: a non-NULL result is a new reference; NULL means an exception is set.
    unsafe { Bound::from_owned_ptr_or_err(py, descr) }.map(Bound::unbind)
}

/// The C methods `(legal_moves, apply_move)` of the state class `class`, with the Python
/// methods' docstrings; `checked_apply` is the Python `apply_move` they fall back on.
#[pyfunction]
pub(crate) fn state_methods(
    class: &Bound<'_, PyType>,
    checked_apply: Py<PyAny>,
    legal_moves_doc: &str,
    apply_move_doc: &str,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let py = class.py();
    init_state_class(class)?;
    let _ = CHECKED_APPLY.set(py, checked_apply);
    let legal = descriptor(
        class,
        "legal_moves",
        &format!("legal_moves($self, /)\n--\n\n{legal_moves_doc}"),
        ffi::PyMethodDefPointer {
            PyCFunction: c_legal_moves,
        },
        ffi::METH_NOARGS,
    )?;
    let apply = descriptor(
        class,
        "apply_move",
        &format!("apply_move($self, move)\n--\n\n{apply_move_doc}"),
        ffi::PyMethodDefPointer {
            PyCFunctionFastWithKeywords: c_apply_move,
        },
        ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
    )?;
    Ok((legal, apply))
}
