//! The arguments of `pacru._native.Move`: the constructor's, read and checked with the
//! order, errors and messages of the Python `pacru.chevron.move.Move`, and a move's text,
//! read by the engine's reader with the `NotationError` messages of `Move.parse`.

use pacru_engine as engine;
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PySlice, PyString, PyTuple};

/// The constructor's parameters, in order.
pub(super) const PARAMETERS: [&str; 9] = [
    "origin",
    "target",
    "capture",
    "twist",
    "turn",
    "connection",
    "marker",
    "meeting",
    "relinquished",
];

/// `value` as a field index 0..80 (any integer type but bool), else None: `_field` of
/// `pacru.chevron.move`. An error of `__index__` other than TypeError propagates.
fn field_index(value: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
    if value.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    match value.extract::<i64>() {
        Ok(i) => Ok(u8::try_from(i).ok().filter(|&f| f < 81)),
        Err(e) if not_integer(value.py(), &e) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether `e` is what `operator.index` raises for a non-integer (TypeError), or an int
/// beyond i64 (OverflowError): values in no range of a move.
fn not_integer(py: Python<'_>, e: &PyErr) -> bool {
    e.is_instance_of::<PyTypeError>(py) || e.is_instance_of::<PyOverflowError>(py)
}

/// A field argument: None, or a field index (`_field_or_none`).
fn field_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<engine::Field>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    match field_index(value)?.and_then(engine::Field::new) {
        Some(f) => Ok(Some(f)),
        None => Err(PyValueError::new_err(format!(
            "field index must be 0..80 (an int), not {}",
            value.repr()?
        ))),
    }
}

/// A bool argument: exactly True or False (`_exact_bool`).
fn bool_arg(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let Some(value) = value else {
        return Ok(false);
    };
    if value.is_exact_instance_of::<PyBool>() {
        return value.is_truthy();
    }
    Err(PyValueError::new_err(format!(
        "'{name}' must be True or False as bool (got {})",
        value.repr()?
    )))
}

/// An int argument among `allowed` (any integer type but bool: `_one_of`).
fn one_of(
    name: &str,
    allowed: &[i8],
    shown: &str,
    value: Option<&Bound<'_, PyAny>>,
) -> PyResult<i8> {
    let Some(value) = value else {
        return Ok(0);
    };
    let number = if value.is_instance_of::<PyBool>() {
        None
    } else {
        match value.extract::<i64>() {
            Ok(i) => i8::try_from(i).ok().filter(|n| allowed.contains(n)),
            Err(e) if not_integer(value.py(), &e) => None,
            Err(e) => return Err(e),
        }
    };
    number.ok_or_else(|| {
        let got = value.repr().map(|r| r.to_string()).unwrap_or_default();
        PyValueError::new_err(format!("'{name}' must be in {shown} as int (got {got})"))
    })
}

/// The relinquished fields as a bitboard: a tuple or list of field indices, none twice
/// (`_sorted_fields`).
fn relinquished_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<u128> {
    let Some(value) = value else {
        return Ok(0);
    };
    if !(value.is_instance_of::<PyTuple>() || value.is_instance_of::<PyList>()) {
        return Err(PyValueError::new_err(format!(
            "relinquished fields are a tuple of field indices, not {}",
            value.repr()?
        )));
    }
    let mut fields = Vec::new();
    for item in value.try_iter()? {
        fields.push(field_index(&item?)?);
    }
    if fields.len() != value.len()? || fields.iter().any(Option::is_none) {
        return Err(PyValueError::new_err(format!(
            "relinquished fields are int indices 0..80, not {}",
            value.repr()?
        )));
    }
    let mut board = 0u128;
    for f in fields.into_iter().flatten().filter_map(engine::Field::new) {
        if board & f.bit() != 0 {
            return Err(PyValueError::new_err(format!(
                "a relinquished field is named twice: {}",
                value.repr()?
            )));
        }
        board |= f.bit();
    }
    Ok(board)
}

/// The constructor's arguments, positional or by keyword, by parameter; `TypeError` for
/// too many, an unknown keyword or a parameter given twice.
fn arguments<'py>(
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<[Option<Bound<'py, PyAny>>; 9]> {
    let mut slots: [Option<Bound<'py, PyAny>>; 9] = Default::default();
    if args.len() > PARAMETERS.len() {
        return Err(PyTypeError::new_err(format!(
            "Move() takes at most {} positional arguments ({} given)",
            PARAMETERS.len(),
            args.len()
        )));
    }
    for (slot, arg) in slots.iter_mut().zip(args.iter()) {
        *slot = Some(arg);
    }
    for (key, value) in kwargs.into_iter().flatten() {
        let name: String = key.extract()?;
        let Some(i) = PARAMETERS.iter().position(|p| *p == name) else {
            return Err(PyTypeError::new_err(format!(
                "Move() got an unexpected keyword argument '{name}'"
            )));
        };
        if slots[i].replace(value).is_some() {
            return Err(PyTypeError::new_err(format!(
                "Move() got multiple values for argument '{name}'"
            )));
        }
    }
    Ok(slots)
}

/// The move of the constructor's checked arguments, or the `ValueError` of the Python
/// class's `__attrs_post_init__` for parts the notation cannot write.
#[allow(clippy::too_many_arguments)]
fn checked_move(
    origin: Option<engine::Field>,
    target: Option<engine::Field>,
    capture: bool,
    twist: i8,
    turn: i8,
    connection: bool,
    marker: Option<engine::Field>,
    meeting: Option<engine::Field>,
    relinquished: u128,
) -> PyResult<engine::Move> {
    let choices = capture || twist != 0 || connection || marker.is_some() || meeting.is_some();
    let refusal =
        if origin.is_none() && (target.is_some() || choices || turn != 0 || relinquished != 0) {
            Some("a pass has no fields or choices")
        } else if origin.is_some() && origin == target {
            Some("a move must leave its field")
        } else if target.is_none() && origin.is_some() && turn == 0 {
            Some("a move needs a target field, or a turn for a reorientation")
        } else if target.is_some() && (turn != 0 || relinquished != 0) {
            Some("turn and relinquished fields belong to reorientations only")
        } else if target.is_none() && choices {
            Some("a reorientation has no capture, twist or Pacru step choices")
        } else {
            None
        };
    if let Some(refusal) = refusal {
        return Err(PyValueError::new_err(refusal));
    }
    engine::Move::from_parts(
        origin,
        target,
        capture,
        twist,
        turn,
        connection,
        marker,
        meeting,
        relinquished,
    )
    .ok_or_else(|| PyRuntimeError::new_err("pacru engine: a checked move has no engine move"))
}

/// `NotationError(message, text)` (`pacru.errors`).
fn notation_error(py: Python<'_>, message: &str, text: &Bound<'_, PyAny>) -> PyErr {
    crate::errors::pacru_error(py, "NotationError", (message, text), None)
}

/// The end of every "not a move" message: the grammar by example.
const GRAMMAR_TAIL: &str =
    "; expected e.g. 'e4-e5', 'a3-b4>', 'g9-e7*', 'e3xe4+e6@i9', 'd9>>(c4,b5,a7,b7)' or 'pass'";

/// Where and why the reader's `text` leaves the grammar, in `Move.parse`'s words: what
/// comes after the part read (at most 40 characters shown) and what was found instead.
fn misreading(
    py: Python<'_>,
    text: &str,
    at: usize,
    expected: engine::Expected,
) -> PyResult<String> {
    let words = expected.words();
    if at == 0 {
        return Ok(format!("a move begins with {words}"));
    }
    let read = PyString::new(py, &text[..at.min(40)]).repr()?;
    let rest = &text[at..];
    let found = if rest.is_empty() {
        "the end".to_owned()
    } else {
        let shown = &rest[..rest.len().min(10)];
        PyString::new(py, shown).repr()?.to_string()
    };
    Ok(format!("after {read} comes {words}, not {found}"))
}

/// The move `text` writes, read by the engine's reader (`pacru_engine::Move::from_text`),
/// with the `NotationError` messages of the Python `Move.parse`.
pub(crate) fn parse_text(text: &Bound<'_, PyAny>) -> PyResult<engine::Move> {
    let py = text.py();
    let Ok(string) = text.cast::<PyString>() else {
        let empty = PyString::new(py, "");
        return Err(notation_error(
            py,
            "a move must be given as a string",
            &empty,
        ));
    };
    let limit = engine::MAX_MOVE_TEXT;
    if string.len()? > limit {
        let message = format!("move text longer than {limit} characters");
        return Err(notation_error(py, &message, text));
    }
    // Text that is no UTF-8 (a lone surrogate) is outside the grammar.
    let read = string.to_str().map_or(
        Err(engine::MoveTextError::NotAscii),
        engine::Move::from_text,
    );
    let message = match read {
        Ok(m) => return Ok(m),
        Err(engine::MoveTextError::SameField(_)) => {
            format!("{}: a move must leave its field", text.repr()?)
        }
        Err(engine::MoveTextError::RelinquishedTwice(_)) => {
            format!("{}: a relinquished field is named twice", text.repr()?)
        }
        Err(engine::MoveTextError::TooLong(_)) => {
            format!("move text longer than {limit} characters")
        }
        Err(engine::MoveTextError::NotAscii) => {
            let shown = text.get_item(PySlice::new(py, 0, 40, 1))?;
            format!("{} is not a move{GRAMMAR_TAIL}", shown.repr()?)
        }
        Err(engine::MoveTextError::Unexpected { at, expected }) => {
            let shown = text.get_item(PySlice::new(py, 0, 40, 1))?;
            // The reader's text: stripped and lower-cased ASCII, so `at` is a character index.
            let read = string
                .to_str()?
                .trim_matches(engine::is_python_space)
                .to_ascii_lowercase();
            let why = misreading(py, &read, at, expected)?;
            format!("{} is not a move: {why}{GRAMMAR_TAIL}", shown.repr()?)
        }
    };
    Err(notation_error(py, &message, text))
}

/// The move of the constructor's arguments `Move(origin=None, target=None, capture=False,
/// twist=0, turn=0, connection=False, marker=None, meeting=None, relinquished=())`,
/// positional or by keyword, with the checks and `ValueError` messages of the Python class.
pub(super) fn constructed(
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<engine::Move> {
    let [origin, target, capture, twist, turn, connection, marker, meeting, relinquished] =
        arguments(args, kwargs)?;
    // The Python class's order: the converters field by field, then the validators.
    let origin = field_arg(origin.as_ref())?;
    let target = field_arg(target.as_ref())?;
    let twist = one_of("twist", &[-1, 0, 1], "(-1, 0, 1)", twist.as_ref())?;
    let turn = one_of(
        "turn",
        &[-2, -1, 0, 1, 2],
        "(-2, -1, 0, 1, 2)",
        turn.as_ref(),
    )?;
    let marker = field_arg(marker.as_ref())?;
    let meeting = field_arg(meeting.as_ref())?;
    let relinquished = relinquished_arg(relinquished.as_ref())?;
    let capture = bool_arg("capture", capture.as_ref())?;
    let connection = bool_arg("connection", connection.as_ref())?;
    checked_move(
        origin,
        target,
        capture,
        twist,
        turn,
        connection,
        marker,
        meeting,
        relinquished,
    )
}
