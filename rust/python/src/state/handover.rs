//! The hand-over of a successor: `State::successor` leaves what the new state is made of
//! in this thread's cell and calls the successor's class with no argument; the class's
//! `__new__` (`State.__new__`) takes it from there and builds the state, so that no
//! argument is built or parsed per ply.

use std::cell::Cell;
use std::sync::Arc;

use pacru_engine as engine;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use super::{Carried, State};

thread_local! {
    /// The successor being made: set by [`made`] just before it calls the successor's
    /// class, taken by that class's `__new__` in the same thread before it allocates
    /// anything (so no Python code, not even a collection, runs between the two).
    /// Three words ([`Handover`]), not the whole state: the slot is written, read and
    /// cleared once a ply, and a `Cell` of a few words moves them in and out without a
    /// borrow flag; `__new__` builds the state from them where PyO3 places it.
    static HANDOVER: Cell<Option<Handover>> = const { Cell::new(None) };
}

/// What `State::successor` hands to the class's `__new__`: what the successor carries on
/// from its predecessor, its position and the move that reached it.
struct Handover {
    carried: Arc<Carried>,
    pos: Box<engine::Position>,
    last: Py<PyAny>,
}

/// An object of `class` (the successors' class) made by its `__new__` from `carried`,
/// `pos` and `last`, handed over.
#[inline] // once a ply: inlined as it was in `State::successor`
pub(super) fn made<'py>(
    class: &Bound<'py, PyType>,
    carried: Arc<Carried>,
    pos: Box<engine::Position>,
    last: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let handover = Handover {
        carried,
        pos,
        last: last.clone().unbind(),
    };
    // Err: the thread is ending; the class then refuses the call with no values.
    let _ = HANDOVER.try_with(|cell| cell.set(Some(handover)));
    let made = class.call0();
    // Left over only when the class's `__new__` is not this one's (a broken subclass):
    // dropped here, so that no later call with no values finds it.
    drop(HANDOVER.try_with(Cell::take));
    made
}

/// The successor that `State::successor` left in `HANDOVER`; `TypeError` when there is
/// none (the class called with no values).
#[inline] // once a ply: inlined as it was in `State.__new__`
pub(super) fn handed_over() -> PyResult<State> {
    let Some(Handover { carried, pos, last }) = HANDOVER.try_with(Cell::take).ok().flatten() else {
        return Err(PyTypeError::new_err(
            "a state is made by pacru.new_game or pacru.from_position, or from its values",
        ));
    };
    Ok(State {
        pos,
        carried,
        last: Some(last),
        moves: PyOnceLock::new(),
        markers: PyOnceLock::new(),
        chevrons: PyOnceLock::new(),
        occupied: PyOnceLock::new(),
        outcome: PyOnceLock::new(),
    })
}
