//! The decisions of `pacru.encoding`'s chevron layout on the native engine: worked out by
//! `pacru_batch::decision` on the native move list, so that a move chosen action by action
//! never reads the Python engine's families.
//!
//! `pacru.encoding.chevron` keeps the `Decision` tuples; under the native engine they are
//! of its subclass `_NativeDecision`, whose cursor (item 7) is a `DecisionCursor` instead of
//! the Python tuple, and whose `choose` is a C method (`decision_choose`): the interpreter
//! calls it as it calls `list.append`, with no Python frame. It takes a legal action given
//! as an `int`, positionally; every other call goes to the Python `Decision.choose`, which
//! checks it and raises the documented error. The finished decision's move is handed out by
//! the `NativeLegalMoves` it was chosen from, so `apply_move` takes it without a check.

use std::ffi::c_int;
use std::sync::Arc;

use pacru_batch::decision::{Actions, Game, Layout, Next, NUM_ACTIONS};
use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyInt, PyString, PyTuple, PyType};

use crate::methods::{cached_legal_moves, call_args, descriptor, to_c};
use crate::moves::Moves;
use crate::registered;

/// The class of the decisions made here (`pacru.encoding.chevron._NativeDecision`).
static DECISION_CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// The Python `Decision.choose`, for every call the fast path does not take.
static CHECKED_CHOOSE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The fixed parts of one encoding (its game plane, player count and scales); the rules
/// are those of each list's position.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct DecisionLayout {
    players: u8,
    game_index: u8,
    ply_scale: f64,
    idle_scale: f64,
    supply: u32,
}

#[pymethods]
impl DecisionLayout {
    /// The layout of game `game_index` (0..3: Lilacru, Shacru, Azacru, Pacru) for
    /// `players` players, its ply and idle scales and its Pacru supply {R1} (0 for the
    /// other games).
    ///
    /// Raises `ValueError` for a game index past the chevron games or a player count
    /// other than 2, 3 or 4.
    #[new]
    fn new(
        players: u8,
        game_index: u8,
        ply_scale: f64,
        idle_scale: f64,
        supply: u32,
    ) -> PyResult<Self> {
        if usize::from(game_index) >= crate::GAMES.len() || !(2..=4).contains(&players) {
            return Err(PyValueError::new_err(format!(
                "no chevron game {game_index} for {players} players"
            )));
        }
        Ok(DecisionLayout {
            players,
            game_index,
            ply_scale,
            idle_scale,
            supply,
        })
    }

    /// The first decision of the player to move in `state` (a `ChevronState` of
    /// `encoding`'s rules, checked by the caller), or None when there is none to take
    /// here: the game is over, another player count, or the player has no legal move.
    fn start<'py>(
        &self,
        encoding: &Bound<'py, PyAny>,
        state: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let py = state.py();
        let moves = cached_legal_moves(state)?;
        // A finished game's list is the Python engine's empty one.
        let Ok(moves) = moves.cast_into::<Moves>() else {
            return Ok(None);
        };
        let list = moves.get().list();
        let pos = list.position();
        if pos.outcome.is_some() || pos.players != self.players {
            return Ok(None);
        }
        let layout = Layout {
            rules: list.rules(),
            players: self.players,
            game_index: self.game_index,
            ply_scale: self.ply_scale,
            idle_scale: self.idle_scale,
            supply: self.supply,
        };
        let to_move = pos.to_move;
        let game = Game::of_list(&layout, Arc::clone(list));
        if game.legal.is_empty() {
            return Ok(None);
        }
        let legal = actions_tuple(py, &game.legal)?;
        let cursor = DecisionCursor {
            moves: moves.unbind(),
            layout,
            game,
        };
        let parts = [
            encoding.clone(),
            to_move.into_pyobject(py)?.into_any(),
            PyTuple::empty(py).into_any(),
            legal.into_any(),
            kind_name(py, 0).clone().into_any(),
            py.None().into_bound(py),
            Bound::new(py, cursor)?.into_any(),
        ];
        make_decision(py, state, parts).map(Some)
    }
}

/// Where a move chosen action by action stands: the cursor of a `pacru.encoding.Decision`
/// under the native engine. Immutable.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct DecisionCursor {
    moves: Py<Moves>,
    layout: Layout,
    game: Game,
}

/// The Python int of every action, made once: most actions are past CPython's cache of
/// small ints, and a decision lists its actions anew.
static ACTION_INTS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

/// The actions of `set` as a tuple of ints, ascending.
fn actions_tuple<'py>(py: Python<'py>, set: &Actions) -> PyResult<Bound<'py, PyAny>> {
    let ints = ACTION_INTS.get_or_init(py, || {
        (0..NUM_ACTIONS)
            .map(|a| PyInt::new(py, a).into_any().unbind())
            .collect()
    });
    let items = set
        .iter()
        .filter_map(|a| ints.get(usize::from(a)).map(|i| i.bind(py).clone()));
    filled_tuple(py, None, set.len(), items)
}

/// A new tuple of `len` items from `items`, of the tuple subclass `class` (a Python class
/// adding no fields: checked by `decision_methods`) or of `tuple` itself (None): what
/// `tuple.__new__` does, without a tuple in between. `ValueError` if `items` are fewer.
fn filled_tuple<'py>(
    py: Python<'py>,
    class: Option<&Bound<'py, PyType>>,
    len: usize,
    items: impl Iterator<Item = Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let n = ffi::Py_ssize_t::try_from(len)?;
    let raw = match class {
        // SAFETY: `class` is a live type object whose instances `PyType_GenericAlloc`
        // makes (a Python class); either call returns a new reference or NULL with the
        // exception set.
        Some(class) => unsafe { ffi::PyType_GenericAlloc(class.as_type_ptr(), n) },
        // SAFETY: as above.
        None => unsafe { ffi::PyTuple_New(n) },
    };
    // SAFETY: as above.
    let tuple = unsafe { Bound::from_owned_ptr_or_err(py, raw) }?;
    let mut filled: ffi::Py_ssize_t = 0;
    for item in items.take(len) {
        // SAFETY: `tuple` is a new tuple (or tuple subclass instance) of `n` items that
        // nothing else holds (its reference count is 1, as `PyTuple_SetItem` requires),
        // and `filled < n`; `PyTuple_SetItem` steals the reference `into_ptr` gives. No
        // Python code runs until it is handed out: the items exist already and setting
        // one allocates nothing, so the collector (which skips empty items) sees nothing
        // half-made.
        if unsafe { ffi::PyTuple_SetItem(tuple.as_ptr(), filled, item.into_ptr()) } != 0 {
            return Err(PyErr::fetch(py));
        }
        filled += 1;
    }
    if filled != n {
        // Dropped with its empty items (a tuple frees them as absent).
        return Err(PyValueError::new_err("a tuple's items ran out"));
    }
    Ok(tuple)
}

/// The `kind` of a decision at each stage.
fn kind_name(py: Python<'_>, stage: u8) -> &Bound<'_, PyString> {
    match stage {
        0 => intern!(py, "origin"),
        1 => intern!(py, "target"),
        2 => intern!(py, "twist"),
        3 => intern!(py, "benefit"),
        4 => intern!(py, "meeting"),
        5 => intern!(py, "relinquish"),
        _ => intern!(py, "done"),
    }
}

/// A decision: (encoding, state, player, prefix, legal actions, kind, move, cursor), `state`
/// second and the rest from `parts`.
fn make_decision<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    parts: [Bound<'py, PyAny>; 7],
) -> PyResult<Bound<'py, PyAny>> {
    let class = registered(py, &DECISION_CLASS)?.bind(py).cast::<PyType>()?;
    let [encoding, rest @ ..] = parts;
    let items = [encoding, state.clone()].into_iter().chain(rest);
    filled_tuple(py, Some(class), 8, items)
}

impl DecisionCursor {
    /// The decision after the legal `action` (`ValueError` if it is not legal here) in
    /// `decision`, the one this cursor belongs to.
    fn decide<'py>(
        &self,
        decision: &Bound<'py, PyTuple>,
        action: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = decision.py();
        let Some(action) = self.legal_action(action) else {
            return Err(PyValueError::new_err(format!(
                "action {action} is not legal in this decision"
            )));
        };
        let (game, played) = match self.game.advance(action) {
            Next::Ask(g) => (g, None),
            Next::Done(g, at) => (g, Some(at)),
        };
        let move_ = match played {
            Some(at) => self.moves.get().issue(py, at)?.into_bound(py),
            None => py.None().into_bound(py),
        };
        let prefix = decision.get_item(3)?.cast_into::<PyTuple>()?;
        let n = prefix.len();
        let last = action.into_pyobject(py)?.into_any();
        // Item `i < n` of a tuple of `n` items is there: `get_item` does not fail.
        let chosen = PyTuple::new(
            py,
            (0..n + 1).map(|i| match i < n {
                true => prefix.get_item(i).unwrap_or_else(|_| last.clone()),
                false => last.clone(),
            }),
        )?;
        let legal = actions_tuple(py, &game.legal)?;
        let kind = kind_name(py, game.stage()).clone();
        let next = DecisionCursor {
            moves: self.moves.clone_ref(py),
            layout: self.layout,
            game,
        };
        let parts = [
            decision.get_item(0)?,
            decision.get_item(2)?,
            chosen.into_any(),
            legal.into_any(),
            kind.into_any(),
            move_,
            Bound::new(py, next)?.into_any(),
        ];
        make_decision(py, &decision.get_item(1)?, parts)
    }

    /// `action` when it is one of the legal actions.
    fn legal_action(&self, action: i64) -> Option<u16> {
        u16::try_from(action)
            .ok()
            .filter(|&a| self.game.legal.contains(a))
    }
}

#[pymethods]
impl DecisionCursor {
    /// The decision after the legal `action` in `decision`, the one this cursor belongs
    /// to (what `ChevronEncoding._choose` returns).
    ///
    /// Raises `ValueError` when `action` is not legal here (the caller checks first).
    #[pyo3(name = "decide")]
    fn py_decide<'py>(
        &self,
        decision: &Bound<'py, PyTuple>,
        action: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.decide(decision, action)
    }

    /// The stage, 0..6: origin, target, twist, benefit, meeting, relinquish, done.
    #[getter]
    fn stage(&self) -> u8 {
        self.game.stage()
    }

    /// How many fields given up by the reorientation are chosen so far {R14}.
    #[getter]
    fn relinquished_count(&self) -> usize {
        self.game.relinquished_count()
    }

    /// The observation planes seen by seat `player`: `planes * 81` float32 values
    /// (native-endian) in a new bytearray.
    ///
    /// Raises `ValueError` when `player` is not a seat index.
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: usize,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        if player >= usize::from(self.layout.players) {
            return Err(PyValueError::new_err(format!(
                "player must be a seat index 0..{}, not {player}",
                self.layout.players - 1
            )));
        }
        let size = self.layout.planes() * 81 * 4;
        PyByteArray::new_with(py, size, |buf| {
            self.game.observation_of(&self.layout, player, buf);
            Ok(())
        })
    }
}

/// The next decision after `action` in `decision`, when `action` is one of its legal
/// actions given as an `int` and the move is not complete; else None.
fn take<'py>(
    decision: &Bound<'py, PyAny>,
    action: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let Ok(tuple) = decision.cast::<PyTuple>() else {
        return Ok(None);
    };
    if !action.is_exact_instance_of::<PyInt>() || !tuple.get_item(6)?.is_none() {
        return Ok(None);
    }
    let (Ok(cursor), Ok(number)) = (
        tuple.get_item(7)?.cast_into::<DecisionCursor>(),
        action.extract::<i64>(),
    ) else {
        return Ok(None);
    };
    let cursor = cursor.get();
    if cursor.legal_action(number).is_none() {
        return Ok(None);
    }
    cursor.decide(tuple, number).map(Some)
}

/// The Python `Decision.choose` called with `decision` and the call's arguments.
fn checked_choose<'py>(
    decision: &Bound<'py, PyAny>,
    args: &[Bound<'py, PyAny>],
    kwargs: Option<Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = decision.py();
    let mut all = Vec::with_capacity(args.len() + 1);
    all.push(decision.clone());
    all.extend(args.iter().cloned());
    registered(py, &CHECKED_CHOOSE)?
        .bind(py)
        .call(PyTuple::new(py, all)?, kwargs.as_ref())
}

/// `METH_FASTCALL | METH_KEYWORDS` entry of `choose`.
unsafe extern "C" fn c_choose(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls a method with the GIL held; `slf` is live for the call.
    let py = unsafe { Python::assume_attached() };
    // SAFETY: as above; `from_borrowed_ptr` takes its own reference.
    let decision = unsafe { Bound::from_borrowed_ptr(py, slf) };
    let run = || -> PyResult<Py<PyAny>> {
        if nargs == 1 && kwnames.is_null() {
            // SAFETY: the vectorcall protocol passes `nargs` live positional values.
            let action = unsafe { Bound::from_borrowed_ptr(py, *args) };
            if let Some(next) = take(&decision, &action)? {
                return Ok(next.unbind());
            }
        }
        // SAFETY: these are the arguments CPython passes to this method, during the call.
        let (values, kwargs) = unsafe { call_args(py, args, nargs, kwnames) }?;
        checked_choose(&decision, &values, kwargs).map(Bound::unbind)
    };
    to_c(py, run)
}

/// The C method `choose` of the decision class `class` (a `Decision` subclass), with the
/// Python method's docstring; `checked_choose` is the Python `Decision.choose` it falls
/// back on. The decisions this module makes are of `class`.
#[pyfunction]
pub(crate) fn decision_methods(
    class: &Bound<'_, PyType>,
    checked_choose: Py<PyAny>,
    choose_doc: &str,
) -> PyResult<Py<PyAny>> {
    let py = class.py();
    // `make_decision` builds the decisions as `tuple.__new__` does: a tuple subclass
    // adding no `__new__` and no fields.
    let plain = class.is_subclass_of::<PyTuple>()?
        && class
            .getattr(intern!(py, "__new__"))?
            .is(&py.get_type::<PyTuple>().getattr(intern!(py, "__new__"))?)
        && class.getattr(intern!(py, "__basicsize__"))?.eq(py
            .get_type::<PyTuple>()
            .getattr(intern!(py, "__basicsize__"))?)?;
    if !plain {
        return Err(PyValueError::new_err(
            "a decision class is a subclass of tuple with no __new__ and no fields",
        ));
    }
    let _ = DECISION_CLASS.set(py, class.clone().into_any().unbind());
    let _ = CHECKED_CHOOSE.set(py, checked_choose);
    let flags: c_int = ffi::METH_FASTCALL | ffi::METH_KEYWORDS;
    descriptor(
        class,
        "choose",
        &format!("choose($self, action)\n--\n\n{choose_doc}"),
        ffi::PyMethodDefPointer {
            PyCFunctionFastWithKeywords: c_choose,
        },
        flags,
    )
}
