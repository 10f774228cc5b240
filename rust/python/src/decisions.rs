//! The decisions of `pacru.encoding`'s chevron layout on the native engine: worked out by
//! `pacru_batch::decision` on the native move list, so that a move chosen action by action
//! never reads the Python engine's families.
//!
//! `pacru.encoding.chevron` keeps the `Decision` tuples; under the native engine they are
//! of its subclass `_NativeDecision`, whose item 7 (the cursor of a Python decision) is the
//! `NativeLegalMoves` of the position. The list caches the first decision and the last one
//! made ([`Cache`]); a decision is found again by its prefix (the actions chosen), and one
//! that is neither (a choice made twice from one decision) is replayed from the first. So a
//! decision costs no object of its own beyond its tuples.
//!
//! `_NativeDecision.choose` and `ChevronEncoding.start` are C methods (`decision_methods`):
//! the interpreter calls them as it calls `list.append`, with no Python frame. They take a
//! legal action given as an `int` and a `ChevronState` of the encoding's own rules object,
//! positionally; every other call goes to the Python method, which checks it and raises
//! the documented error. The finished decision's move is handed out by the list, so
//! `apply_move` takes it without a check.

use std::ffi::{c_int, c_void, CString};
use std::sync::{Arc, Mutex};

use pacru_batch::decision::{Actions, Game, Layout, Next, NUM_ACTIONS};
use pacru_engine::MoveList;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyInt, PyString, PyTuple, PyType};

use crate::methods::{cached_legal_moves, call_args, descriptor, to_c};
use crate::moves::Moves;
use crate::{new_tuple_of, registered, state_rules};

/// The class of the decisions made here (`pacru.encoding.chevron._NativeDecision`).
static DECISION_CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// The Python `Decision.choose`, for every call the fast path does not take.
static CHECKED_CHOOSE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// The Python `ChevronEncoding.start`, likewise.
static CHECKED_START: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The fixed parts of one encoding (its game plane, player count and scales); the rules
/// are those of each list's position.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct DecisionLayout {
    /// The encoding's `Rules` object: a state with this very object is of its rules.
    rules: Py<PyAny>,
    players: u8,
    game_index: u8,
    ply_scale: f64,
    idle_scale: f64,
    supply: u32,
}

#[pymethods]
impl DecisionLayout {
    /// The layout of the encoding of `rules` (its `Rules` object) and game `game_index`
    /// (0..3: Lilacru, Shacru, Azacru, Pacru) for `players` players, its ply and idle scales and its Pacru supply {R1} (0 for the
    /// other games).
    ///
    /// Raises `ValueError` for a game index past the chevron games or a player count
    /// other than 2, 3 or 4.
    #[new]
    fn new(
        rules: Py<PyAny>,
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
            rules,
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
        let step = moves.get().decisions.start(layout, list)?;
        if step.legal.is_empty() {
            return Ok(None);
        }
        let parts = [
            encoding.clone(),
            to_move.into_pyobject(py)?.into_any(),
            PyTuple::empty(py).into_any(),
            actions_tuple(py, &step.legal)?,
            kind_name(py, step.stage).clone().into_any(),
            py.None().into_bound(py),
            moves.into_any(),
        ];
        make_decision(py, state, parts).map(Some)
    }
}

/// The decisions taken on one native move list: its layout, its first decision and the
/// last one made. Empty until `DecisionLayout.start` first reads the list.
#[derive(Default)]
pub(crate) struct Cache(Mutex<Option<Box<Decisions>>>);

struct Decisions {
    layout: Layout,
    start: Game,
    /// The last decision made, when it is not the first.
    last: Option<Game>,
}

/// What a decision's tuple is made of, read from its `Game` under the cache's lock (no
/// Python object is made there: that may run Python code, which may take decisions).
struct Step {
    legal: Actions,
    stage: u8,
    /// The complete move and its index in the list.
    played: Option<(u64, pacru_engine::Move)>,
}

impl Step {
    fn of(game: &Game, at: Option<u64>) -> Step {
        Step {
            legal: game.legal,
            stage: game.stage(),
            played: at.zip(game.chosen_move()),
        }
    }
}

impl Cache {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Option<Box<Decisions>>>> {
        self.0
            .lock()
            .map_err(|_| PyRuntimeError::new_err("pacru engine: a decision cache was poisoned"))
    }

    /// The first decision, made and kept on the first call.
    fn start(&self, layout: Layout, list: &Arc<MoveList>) -> PyResult<Step> {
        let mut cache = self.lock()?;
        let decisions = cache.get_or_insert_with(|| {
            Box::new(Decisions {
                layout,
                start: Game::of_list(&layout, Arc::clone(list)),
                last: None,
            })
        });
        Ok(Step::of(&decisions.start, None))
    }

    /// The decision after `action` in the decision of `prefix`, kept as the last one; None
    /// when `action` is not one of its legal actions (or no decision was started).
    fn advance(&self, prefix: &[u16], action: i64) -> PyResult<Option<Step>> {
        let mut cache = self.lock()?;
        let Some(decisions) = cache.as_mut() else {
            return Ok(None);
        };
        let legal = |game: &Game| {
            u16::try_from(action)
                .ok()
                .filter(|&a| game.legal.contains(a))
        };
        // The last decision is taken over (a choice made from it again is replayed).
        let base = match decisions.last.take() {
            Some(last) if last.prefix() == prefix => last,
            other => {
                decisions.last = other;
                match decisions.replay(prefix) {
                    Some(game) => game,
                    None => return Ok(None),
                }
            }
        };
        let Some(action) = legal(&base) else {
            decisions.last = Some(base);
            return Ok(None);
        };
        let (next, played) = match base.advance_into(action) {
            Next::Ask(g) => (g, None),
            Next::Done(g, at) => (g, Some(at)),
        };
        let step = Step::of(&next, played);
        decisions.last = Some(next);
        Ok(Some(step))
    }

    /// The decision of `prefix` and the layout (None when no decision was started).
    fn game(&self, prefix: &[u16]) -> PyResult<Option<(Game, Layout)>> {
        let cache = self.lock()?;
        Ok(cache.as_ref().and_then(|d| {
            let game = match &d.last {
                Some(last) if last.prefix() == prefix => Some(last.clone()),
                _ => d.replay(prefix),
            };
            game.map(|g| (g, d.layout))
        }))
    }
}

impl Decisions {
    /// The decision the actions of `prefix` lead to from the first (None if one of them is
    /// not legal where it is taken).
    fn replay(&self, prefix: &[u16]) -> Option<Game> {
        let mut game = self.start.clone();
        for &action in prefix {
            if !game.legal.contains(action) {
                return None;
            }
            game = match game.advance_into(action) {
                Next::Ask(g) | Next::Done(g, _) => g,
            };
        }
        Some(game)
    }
}

/// The actions chosen in a move under way, at most one per decision.
type Prefix = ([u16; 8], usize);

/// The native move list and the prefix of `decision`, a `_NativeDecision` (None for a
/// tuple that is not one), the prefix both as its tuple and as actions.
fn parts_of<'py>(
    decision: &Bound<'py, PyAny>,
) -> PyResult<Option<(Bound<'py, Moves>, Bound<'py, PyTuple>, Prefix)>> {
    let Ok(tuple) = decision.cast::<PyTuple>() else {
        return Ok(None);
    };
    if tuple.len() != 8 {
        return Ok(None);
    }
    let Ok(moves) = tuple.get_item(7)?.cast_into::<Moves>() else {
        return Ok(None);
    };
    let Ok(prefix) = tuple.get_item(3)?.cast_into::<PyTuple>() else {
        return Ok(None);
    };
    let mut actions = [0u16; 8];
    if prefix.len() > actions.len() {
        return Ok(None);
    }
    for (slot, item) in actions.iter_mut().zip(prefix.iter()) {
        *slot = item.extract::<u16>()?;
    }
    let n = prefix.len();
    Ok(Some((moves, prefix, (actions, n))))
}

/// The decision after `action` in `decision` (a `_NativeDecision` whose move is not
/// complete), or None when `action` is not one of its legal actions.
fn decide<'py>(decision: &Bound<'py, PyAny>, action: i64) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = decision.py();
    let Some((moves, prefix, actions)) = parts_of(decision)? else {
        return Ok(None);
    };
    let Some(step) = moves
        .get()
        .decisions
        .advance(&actions.0[..actions.1], action)?
    else {
        return Ok(None);
    };
    let tuple = decision.cast::<PyTuple>()?;
    let move_ = match step.played {
        Some((at, m)) => moves.get().issue_move(py, at, m)?.into_bound(py),
        None => py.None().into_bound(py),
    };
    let n = prefix.len();
    let last = action.into_pyobject(py)?.into_any();
    let chosen = new_tuple_of(
        py,
        None,
        n + 1,
        (0..n + 1).map(|i| match i < n {
            true => prefix.get_item(i),
            false => Ok(last.clone()),
        }),
    )?;
    let parts = [
        tuple.get_item(0)?,
        tuple.get_item(2)?,
        chosen,
        actions_tuple(py, &step.legal)?,
        kind_name(py, step.stage).clone().into_any(),
        move_,
        moves.into_any(),
    ];
    make_decision(py, &tuple.get_item(1)?, parts).map(Some)
}

/// `ChevronEncoding._choose` of a native decision: the decision after the legal `action`.
///
/// Raises `ValueError` when `action` is not legal there (the caller checks first).
#[pyfunction]
pub(crate) fn decision_choose<'py>(
    decision: &Bound<'py, PyAny>,
    action: i64,
) -> PyResult<Bound<'py, PyAny>> {
    decide(decision, action)?.ok_or_else(|| {
        PyValueError::new_err(format!("action {action} is not legal in this decision"))
    })
}

/// The stage of a native decision (0..6: origin, target, twist, benefit, meeting,
/// relinquish, done) and how many fields given up by its reorientation are chosen {R14}.
///
/// Raises `ValueError` for a tuple that is not a native decision.
#[pyfunction]
pub(crate) fn decision_stage(decision: &Bound<'_, PyAny>) -> PyResult<(u8, usize)> {
    let (game, _) = game_of(decision)?;
    Ok((game.stage(), game.relinquished_count()))
}

/// The observation planes of a native decision seen by seat `player`: `planes * 81`
/// float32 values (native-endian) in a new bytearray.
///
/// Raises `ValueError` when `player` is not a seat index, or for a tuple that is not a
/// native decision.
#[pyfunction]
pub(crate) fn decision_observation<'py>(
    decision: &Bound<'py, PyAny>,
    player: usize,
) -> PyResult<Bound<'py, PyByteArray>> {
    let py = decision.py();
    let (game, layout) = game_of(decision)?;
    if player >= usize::from(layout.players) {
        return Err(PyValueError::new_err(format!(
            "player must be a seat index 0..{}, not {player}",
            layout.players - 1
        )));
    }
    let size = layout.planes() * 81 * 4;
    PyByteArray::new_with(py, size, |buf| {
        game.observation_of(&layout, player, buf);
        Ok(())
    })
}

/// The decision state of a native decision, and its layout.
fn game_of(decision: &Bound<'_, PyAny>) -> PyResult<(Game, Layout)> {
    let found = match parts_of(decision)? {
        Some((moves, _, (actions, n))) => moves.get().decisions.game(&actions[..n])?,
        None => None,
    };
    found.ok_or_else(|| PyValueError::new_err("not a decision of the native engine"))
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
    new_tuple_of(py, None, set.len(), items.map(Ok))
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
    new_tuple_of(py, Some(class), 8, items.map(Ok))
}

/// The next decision after `action` in `decision`, when `action` is one of its legal
/// actions given as an `int` and the move is not complete; else None.
fn take<'py>(
    decision: &Bound<'py, PyAny>,
    action: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    if !action.is_exact_instance_of::<PyInt>() {
        return Ok(None);
    }
    let Ok(tuple) = decision.cast::<PyTuple>() else {
        return Ok(None);
    };
    if tuple.len() != 8 || !tuple.get_item(6)?.is_none() {
        return Ok(None);
    }
    match action.extract::<i64>() {
        Ok(number) => decide(decision, number),
        Err(_) => Ok(None),
    }
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

/// The first decision of `state` for `encoding`, when `state` is a `ChevronState` (not a
/// subclass) of the encoding's own rules object whose player to move has a decision; else
/// None (the Python `ChevronEncoding.start` checks it).
fn start<'py>(
    encoding: &Bound<'py, PyAny>,
    state: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = encoding.py();
    let Some(rules) = state_rules(state)? else {
        return Ok(None);
    };
    let layout = encoding.getattr(intern!(py, "_native"))?;
    let Ok(layout) = layout.cast::<DecisionLayout>() else {
        return Ok(None);
    };
    if !rules.is(layout.get().rules.bind(py)) {
        return Ok(None);
    }
    layout.get().start(encoding, state)
}

/// The Python `ChevronEncoding.start` called with `encoding` and the call's arguments.
fn checked_start<'py>(
    encoding: &Bound<'py, PyAny>,
    args: &[Bound<'py, PyAny>],
    kwargs: Option<Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = encoding.py();
    let mut all = Vec::with_capacity(args.len() + 1);
    all.push(encoding.clone());
    all.extend(args.iter().cloned());
    registered(py, &CHECKED_START)?
        .bind(py)
        .call(PyTuple::new(py, all)?, kwargs.as_ref())
}

/// `METH_FASTCALL | METH_KEYWORDS` entry of `start`.
unsafe extern "C" fn c_start(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls a method with the GIL held; `slf` is live for the call.
    let py = unsafe { Python::assume_attached() };
    // SAFETY: as above; `from_borrowed_ptr` takes its own reference.
    let encoding = unsafe { Bound::from_borrowed_ptr(py, slf) };
    let run = || -> PyResult<Py<PyAny>> {
        if nargs == 1 && kwnames.is_null() {
            // SAFETY: the vectorcall protocol passes `nargs` live positional values.
            let state = unsafe { Bound::from_borrowed_ptr(py, *args) };
            if let Some(decision) = start(&encoding, &state)? {
                return Ok(decision.unbind());
            }
        }
        // SAFETY: these are the arguments CPython passes to this method, during the call.
        let (values, kwargs) = unsafe { call_args(py, args, nargs, kwnames) }?;
        checked_start(&encoding, &values, kwargs).map(Bound::unbind)
    };
    to_c(py, run)
}

/// The C methods `choose` of the decision class `class` (a `Decision` subclass, the
/// class of the decisions made here) and `start` of the encoding class `encoding_class`
/// (`ChevronEncoding`), with the Python methods' docstrings; `checked_choose` and
/// `checked_start` are the Python methods they fall back on.
#[pyfunction]
pub(crate) fn decision_methods(
    class: &Bound<'_, PyType>,
    checked_choose: Py<PyAny>,
    choose_doc: &str,
    encoding_class: &Bound<'_, PyType>,
    checked_start: Py<PyAny>,
    start_doc: &str,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let py = class.py();
    // `make_decision` builds the decisions as `tuple.__new__` does: a tuple subclass
    // adding no `__new__` and no fields.
    let tuple = py.get_type::<PyTuple>();
    let new = intern!(py, "__new__");
    let size = intern!(py, "__basicsize__");
    let plain = class.is_subclass_of::<PyTuple>()?
        && class.getattr(new)?.is(tuple.getattr(new)?)
        && class.getattr(size)?.eq(tuple.getattr(size)?)?;
    if !plain {
        return Err(PyValueError::new_err(
            "a decision class is a subclass of tuple with no __new__ and no fields",
        ));
    }
    let _ = DECISION_CLASS.set(py, class.clone().into_any().unbind());
    let _ = CHECKED_CHOOSE.set(py, checked_choose);
    let _ = CHECKED_START.set(py, checked_start);
    let flags: c_int = ffi::METH_FASTCALL | ffi::METH_KEYWORDS;
    let choose = descriptor(
        class,
        "choose",
        &format!("choose($self, action)\n--\n\n{choose_doc}"),
        ffi::PyMethodDefPointer {
            PyCFunctionFastWithKeywords: c_choose,
        },
        flags,
    )?;
    let start = descriptor(
        encoding_class,
        "start",
        &format!("start($self, state)\n--\n\n{start_doc}"),
        ffi::PyMethodDefPointer {
            PyCFunctionFastWithKeywords: c_start,
        },
        flags,
    )?;
    Ok((choose, start))
}

/// `decision.<name>` of a decision: its tuple item `closure` (an index, not a pointer).
unsafe extern "C" fn item_getter(
    slf: *mut ffi::PyObject,
    closure: *mut c_void,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls a getter with the GIL held and `slf` live, of the class (the
    // descriptor checks it): a tuple. `PyTuple_GetItem` returns a borrowed item, or NULL
    // with `IndexError` set for an index past the end.
    let item = unsafe { ffi::PyTuple_GetItem(slf, closure as ffi::Py_ssize_t) };
    if !item.is_null() {
        // SAFETY: a live object; the getter returns a new reference.
        unsafe { ffi::Py_IncRef(item) };
    }
    item
}

/// Read-only attributes of the tuple subclass `class`, one per `(name, index, doc)`, each
/// the tuple's item `index`: a C getter, which the interpreter calls without the frame of
/// a property's function or the call of `operator.itemgetter`.
#[pyfunction]
pub(crate) fn tuple_item_getters(
    class: &Bound<'_, PyType>,
    items: Vec<(String, usize, String)>,
) -> PyResult<Vec<Py<PyAny>>> {
    let py = class.py();
    if !class.is_subclass_of::<PyTuple>()? {
        return Err(PyValueError::new_err(
            "item getters are for a subclass of tuple",
        ));
    }
    items
        .into_iter()
        .map(|(name, index, doc)| {
            // The definition must outlive the descriptor, which lives as long as the class
            // (all of the process): leaked once per attribute, a few dozen bytes.
            let def: &'static mut ffi::PyGetSetDef = Box::leak(Box::new(ffi::PyGetSetDef {
                name: CString::new(name)?.into_raw(),
                get: Some(item_getter),
                set: None,
                doc: CString::new(doc)?.into_raw(),
                closure: index as *mut c_void,
            }));
            // SAFETY: `class` is a live type object and `def` a valid, never-freed
            // definition; the result is a new reference or NULL with the exception set.
            let descr = unsafe { ffi::PyDescr_NewGetSet(class.as_type_ptr(), def) };
            // SAFETY: as above.
            unsafe { Bound::from_owned_ptr_or_err(py, descr) }.map(Bound::unbind)
        })
        .collect()
}
