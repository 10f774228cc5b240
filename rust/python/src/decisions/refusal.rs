//! The refusals of `NativeDecision.choose`: the check of `Encoding._checked_action` (the
//! Python decisions' own), made here with the same outcome, so that a decision calls no
//! method of pacru's: the int value of any integer type that is legal, else
//! `IllegalMoveError` with the Python check's rule, reason and message, word for word
//! (tests/encoding/test_api.py holds both engines to them).

use pacru_batch::decision::{
    BENEFIT_CONNECTION, BENEFIT_NONE, MARKER, MEETING, NUM_ACTIONS, ORIGIN, PASS, RELINQUISH,
    TARGET, TURN, TWIST,
};
use pacru_engine::geometry::field_name;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use super::NativeDecision;
use crate::errors;

impl NativeDecision {
    /// The action `choose` takes for `action`, which its fast path (a legal `int`) did
    /// not: the int value of an integer of another type that is legal, else the error of
    /// `Encoding._checked_action` (the Python decisions' check), the same class, fields
    /// and message.
    ///
    /// Raises `IllegalMoveError` (rule `"encoding"`): reason `"move-complete"` once the
    /// move is complete, else `"illegal-action"` for a non-integer (a `bool` is not one,
    /// as `pacru._integers.integer` has it) or an integer that is not a legal action. An
    /// error of the action's own `__index__` other than `TypeError` propagates, as there.
    pub(super) fn checked_action(&self, action: &Bound<'_, PyAny>) -> PyResult<u16> {
        let py = action.py();
        if !self.move_.is_none(py) {
            let message = format!(
                "the move {} is complete; apply it and start the next decision",
                self.move_text(py)?
            );
            return Err(errors::illegal_move(
                py,
                &message,
                "encoding",
                "move-complete",
            ));
        }
        let legal = self.legal_text();
        let Some(number) = index_of(action)? else {
            let message = format!(
                "an action is an integer, not {}; legal: {legal}",
                action.repr()?
            );
            return Err(errors::illegal_move(
                py,
                &message,
                "encoding",
                "illegal-action",
            ));
        };
        let found = match number {
            Index::Small(n) => u16::try_from(n)
                .ok()
                .filter(|&a| self.game.legal.contains(a)),
            Index::Large(_) => None,
        };
        if let Some(action) = found {
            return Ok(action);
        }
        let (shown, name) = match number {
            Index::Small(n) => (n.to_string(), action_name(n)),
            Index::Large(text) => (text, "?".to_owned()),
        };
        let message = format!(
            "action {shown} ({name}) is not legal in this {} decision; legal: {legal}",
            super::kind_name(py, self.game.stage())
        );
        Err(errors::illegal_move(
            py,
            &message,
            "encoding",
            "illegal-action",
        ))
    }

    /// `list(legal_actions)` as Python prints it: `[1, 5, 9]`.
    fn legal_text(&self) -> String {
        let actions: Vec<String> = self.game.legal.iter().map(|a| a.to_string()).collect();
        format!("[{}]", actions.join(", "))
    }
}

/// The int value of an action, as `operator.index` gives it.
enum Index {
    /// One that fits an `i64`.
    Small(i64),
    /// A larger one (no action): its text, `repr` of its int value (see [`large_text`]).
    Large(String),
}

/// `action` as `pacru._integers.integer` takes it: its int value (`operator.index`),
/// or None for a `bool` or a value that is not an integer (`TypeError` of `__index__`).
/// Any other error of the value's `__index__` propagates.
fn index_of(action: &Bound<'_, PyAny>) -> PyResult<Option<Index>> {
    let py = action.py();
    if action.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    // PyO3 reads an integer through `operator.index` (`PyNumber_Index`, the C API).
    match action.extract::<i64>() {
        Ok(n) => Ok(Some(Index::Small(n))),
        Err(e) if e.is_instance_of::<PyTypeError>(py) => Ok(None),
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
            large_text(action).map(|text| Some(Index::Large(text)))
        }
        Err(e) => Err(e),
    }
}

/// The text of an integer `action` past an `i64` (the error path only), as the Python
/// check shows its int value (`repr(operator.index(action))`), by the C API alone (no call
/// of anything of Python's but the action's own `__index__`): its value as a `u64` (PyO3
/// reads it through `PyNumber_Index`), written here, else its `str()` (`PyObject_Str`):
/// the same digits for an `int` and for every integer type of numpy (none is wider than 64
/// bits); only a type of one's own whose `__index__` gives an int past 64 bits, or an
/// `int` subclass with a `__str__` of its own, is shown by that `__str__`.
fn large_text(action: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = action.py();
    match action.extract::<u64>() {
        Ok(n) => Ok(n.to_string()),
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => Ok(action.str()?.to_string()),
        Err(e) => Err(e),
    }
}

/// `ChevronEncoding.action_name(action)`: `"pass"`, `"origin e5"`, `"target e7"`,
/// `"turn >>"`, `"twist <"`, `"benefit none"`, `"benefit connection"`, `"marker d9"`,
/// `"meeting i9"`, `"relinquish c4"`; `"?"` outside `0 .. NUM_ACTIONS - 1`.
fn action_name(action: i64) -> String {
    let Some(a) = u16::try_from(action)
        .ok()
        .filter(|&a| usize::from(a) < NUM_ACTIONS)
    else {
        return "?".to_owned();
    };
    // A field of a block of 81 actions starting at `base` (below 81: a u8).
    let field = |base: u16| field_name(u8::try_from(a - base).unwrap_or(u8::MAX));
    match a {
        PASS => "pass".to_owned(),
        _ if a < TARGET => format!("origin {}", field(ORIGIN)),
        _ if a < TURN => format!("target {}", field(TARGET)),
        _ if a < TWIST => {
            let turn = ["<<", "<", ">", ">>"][usize::from(a - TURN)];
            format!("turn {turn}")
        }
        _ if a < BENEFIT_NONE => {
            let twist = ["twist <", "twist none", "twist >"][usize::from(a - TWIST)];
            twist.to_owned()
        }
        BENEFIT_NONE => "benefit none".to_owned(),
        BENEFIT_CONNECTION => "benefit connection".to_owned(),
        _ if a < MEETING => format!("marker {}", field(MARKER)),
        _ if a < RELINQUISH => format!("meeting {}", field(MEETING)),
        _ => format!("relinquish {}", field(RELINQUISH)),
    }
}
