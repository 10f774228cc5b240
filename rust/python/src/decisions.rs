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

use std::ffi::{c_void, CString};
use std::sync::{Arc, Mutex};

use pacru_batch::decision::{Actions, Game, Layout, Next, NUM_ACTIONS};
use pacru_engine::MoveList;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyInt, PyString, PyTuple, PyType};

use crate::methods::{cached_legal_moves, descriptor, fast_or_checked};
use crate::moves::Moves;
use crate::{new_tuple_of, registered, state_rules, tuple_items_direct, TUPLE_ITEMS};

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
        let player = to_move.into_pyobject(py)?.into_any();
        let prefix = PyTuple::empty(py).into_any();
        let legal = actions_tuple(py, &step.legal)?;
        let none = py.None().into_bound(py);
        let parts = [
            encoding,
            state,
            &player,
            &prefix,
            &legal,
            kind_name(py, step.stage).as_any(),
            &none,
            moves.as_any(),
        ];
        make_decision(py, parts).map(Some)
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
    /// Forgets every decision (the list is being freed).
    pub(crate) fn clear(&mut self) {
        if let Ok(decisions) = self.0.get_mut() {
            *decisions = None;
        }
    }

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
                start: Game::of_list(Arc::clone(list)),
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
        // The last decision is advanced in place (a choice made from it again, or from an
        // earlier one, is replayed from the first).
        let hit = matches!(&decisions.last, Some(last) if last.prefix() == prefix);
        if !hit {
            decisions.last = decisions.replay(prefix);
        }
        let Some(game) = decisions.last.as_mut() else {
            return Ok(None);
        };
        let Some(action) = u16::try_from(action)
            .ok()
            .filter(|&a| game.legal.contains(a))
        else {
            return Ok(None);
        };
        let played = game.step(action);
        Ok(Some(Step::of(game, played)))
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

/// A native decision's move list and prefix.
type Parts<'a, 'py> = (Borrowed<'a, 'py, Moves>, Prefix);

/// The 8 items of a decision, borrowed as long as the tuple is; None for a tuple of another
/// length. Read in place where the tuple layout is the one `tuple_items_direct` checked.
fn decision_items<'a, 'py>(tuple: &'a Bound<'py, PyTuple>) -> PyResult<Option<Items<'a, 'py>>> {
    let py = tuple.py();
    if !tuple_items_direct(py) {
        if tuple.len() != 8 {
            return Ok(None);
        }
        let item = |i| tuple.get_borrowed_item(i);
        let items = [
            item(0)?,
            item(1)?,
            item(2)?,
            item(3)?,
            item(4)?,
            item(5)?,
            item(6)?,
            item(7)?,
        ];
        return Ok(Some(items));
    }
    // SAFETY: a tuple starts with a `PyVarObject` header, whose size is its item count;
    // its items are the words after the header (checked by `tuple_items_direct`), each a
    // live object the tuple holds while `tuple` is borrowed, or NULL if not set yet.
    unsafe {
        if (*tuple.as_ptr().cast::<ffi::PyVarObject>()).ob_size != 8 {
            return Ok(None);
        }
        let first = tuple
            .as_ptr()
            .cast::<u8>()
            .add(TUPLE_ITEMS)
            .cast::<*mut ffi::PyObject>();
        let item = |i| {
            Borrowed::from_ptr_or_opt(py, first.add(i).read())
                .ok_or_else(|| PyValueError::new_err("pacru engine: a tuple item is not set"))
        };
        Ok(Some([
            item(0)?,
            item(1)?,
            item(2)?,
            item(3)?,
            item(4)?,
            item(5)?,
            item(6)?,
            item(7)?,
        ]))
    }
}

/// The items of a decision.
type Items<'a, 'py> = [Borrowed<'a, 'py, PyAny>; 8];

/// The native move list and the prefix (as actions) of a decision's `items`; None when it
/// is not a native decision.
fn parts_of<'a, 'py>(items: &Items<'a, 'py>) -> PyResult<Option<Parts<'a, 'py>>> {
    let (Ok(moves), Ok(prefix)) = (items[7].cast::<Moves>(), items[3].cast::<PyTuple>()) else {
        return Ok(None);
    };
    let mut actions = [0u16; 8];
    let n = prefix.len();
    if n > actions.len() {
        return Ok(None);
    }
    for (i, slot) in actions.iter_mut().enumerate().take(n) {
        *slot = prefix.get_borrowed_item(i)?.extract::<u16>()?;
    }
    Ok(Some((moves, (actions, n))))
}

/// The decision after `action` in `decision` (a `_NativeDecision` whose move is not
/// complete), or None when `action` is not one of its legal actions.
fn decide<'py>(decision: &Bound<'py, PyTuple>, action: i64) -> PyResult<Option<Bound<'py, PyAny>>> {
    match decision_items(decision)? {
        Some(items) => decide_items(decision.py(), &items, action),
        None => Ok(None),
    }
}

/// [`decide`] on the decision's items.
fn decide_items<'py>(
    py: Python<'py>,
    items: &Items<'_, 'py>,
    action: i64,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let Some((moves, (actions, n))) = parts_of(items)? else {
        return Ok(None);
    };
    let Some(step) = moves.get().decisions.advance(&actions[..n], action)? else {
        return Ok(None);
    };
    let move_ = match step.played {
        Some((at, m)) => moves.get().issue_move(py, at, m)?.into_bound(py),
        None => py.None().into_bound(py),
    };
    let ints = action_ints(py);
    // `action` is legal: one of the actions; so are those of the prefix.
    let chosen = actions[..n].iter().map(|&a| i64::from(a)).chain([action]);
    let chosen = tuple_of(
        py,
        None,
        n + 1,
        chosen.map(|a| {
            usize::try_from(a)
                .ok()
                .and_then(|a| ints.get(a))
                .map(|i| i.bind(py))
        }),
    )?;
    let legal = actions_tuple(py, &step.legal)?;
    let parts = [
        &*items[0],
        &*items[1],
        &*items[2],
        &chosen,
        &legal,
        kind_name(py, step.stage).as_any(),
        &move_,
        moves.as_any(),
    ];
    make_decision(py, parts).map(Some)
}

/// `ChevronEncoding._choose` of a native decision: the decision after the legal `action`.
///
/// Raises `ValueError` when `action` is not legal there (the caller checks first).
#[pyfunction]
pub(crate) fn decision_choose<'py>(
    decision: &Bound<'py, PyTuple>,
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
pub(crate) fn decision_stage(decision: &Bound<'_, PyTuple>) -> PyResult<(u8, usize)> {
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
    decision: &Bound<'py, PyTuple>,
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
fn game_of(decision: &Bound<'_, PyTuple>) -> PyResult<(Game, Layout)> {
    let parts = match decision_items(decision)? {
        Some(items) => parts_of(&items)?,
        None => None,
    };
    let found = match parts {
        Some((moves, (actions, n))) => moves.get().decisions.game(&actions[..n])?,
        None => None,
    };
    found.ok_or_else(|| PyValueError::new_err("not a decision of the native engine"))
}

/// The Python int of every action, made once: most actions are past CPython's cache of
/// small ints, and a decision lists its actions anew.
static ACTION_INTS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

/// The Python ints of the actions, by action.
fn action_ints(py: Python<'_>) -> &[Py<PyAny>] {
    ACTION_INTS.get_or_init(py, || {
        (0..NUM_ACTIONS)
            .map(|a| PyInt::new(py, a).into_any().unbind())
            .collect()
    })
}

/// The actions of `set` as a tuple of ints, ascending.
fn actions_tuple<'py>(py: Python<'py>, set: &Actions) -> PyResult<Bound<'py, PyAny>> {
    let ints = action_ints(py);
    let items = set
        .iter()
        .map(|a| ints.get(usize::from(a)).map(|i| i.bind(py)));
    tuple_of(py, None, set.len(), items)
}

/// [`new_tuple_of`] of `len` items at hand (`ValueError` for a None, which no caller
/// passes: the actions and the parts of a decision all exist).
fn tuple_of<'a, 'py: 'a>(
    py: Python<'py>,
    class: Option<&Bound<'py, PyType>>,
    len: usize,
    items: impl Iterator<Item = Option<&'a Bound<'py, PyAny>>>,
) -> PyResult<Bound<'py, PyAny>> {
    let items = items.map(|i| {
        i.cloned()
            .ok_or_else(|| PyValueError::new_err("pacru engine: no tuple item"))
    });
    new_tuple_of(py, class, len, items)
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

/// A decision: (encoding, state, player, prefix, legal actions, kind, move, cursor).
fn make_decision<'py>(
    py: Python<'py>,
    items: [&Bound<'py, PyAny>; 8],
) -> PyResult<Bound<'py, PyAny>> {
    let class = registered(py, &DECISION_CLASS)?.bind(py).cast::<PyType>()?;
    tuple_of(py, Some(class), items.len(), items.into_iter().map(Some))
}

/// The next decision after `action` in `decision`, when `action` is one of its legal
/// actions given as an `int` and the move is not complete; else None.
fn take<'py>(
    decision: &Bound<'py, PyAny>,
    action: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = decision.py();
    if !action.is_exact_instance_of::<PyInt>() {
        return Ok(None);
    }
    let Ok(tuple) = decision.cast::<PyTuple>() else {
        return Ok(None);
    };
    let Some(items) = decision_items(tuple)? else {
        return Ok(None);
    };
    if !items[6].is_none() {
        return Ok(None);
    }
    match action.extract::<i64>() {
        Ok(number) => decide_items(py, &items, number),
        Err(_) => Ok(None),
    }
}

/// `METH_FASTCALL | METH_KEYWORDS` entry of `choose`.
unsafe extern "C" fn c_choose(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: these are the arguments CPython passes to this method, during the call.
    unsafe { fast_or_checked(slf, args, nargs, kwnames, take, &CHECKED_CHOOSE) }
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
    let Some(layout) = layout_of(encoding)? else {
        return Ok(None);
    };
    if !rules.is(layout.get().rules.bind(py)) {
        return Ok(None);
    }
    layout.get().start(encoding, state)
}

/// The encoding that started a decision last, and its layout: a bot starts every decision
/// with one encoding, whose attribute is then not looked up again.
static LAST_LAYOUT: Mutex<Option<(Py<PyAny>, Py<DecisionLayout>)>> = Mutex::new(None);

/// The `DecisionLayout` of `encoding` (its `_native`), None if it has none.
fn layout_of<'py>(encoding: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, DecisionLayout>>> {
    let py = encoding.py();
    if let Ok(last) = LAST_LAYOUT.lock() {
        if let Some((enc, layout)) = last.as_ref() {
            if enc.is(encoding) {
                return Ok(Some(layout.bind(py).clone()));
            }
        }
    }
    let layout = encoding.getattr(intern!(py, "_native"))?;
    let Ok(layout) = layout.cast_into::<DecisionLayout>() else {
        return Ok(None);
    };
    let before = match LAST_LAYOUT.lock() {
        Ok(mut last) => last.replace((encoding.clone().unbind(), layout.clone().unbind())),
        Err(_) => None,
    };
    // Released as `Bound`s: a `Py` dropped in a C method would wait in PyO3's pool.
    drop(before.map(|(e, l)| (e.into_bound(py), l.into_bound(py))));
    Ok(Some(layout))
}

/// `METH_FASTCALL | METH_KEYWORDS` entry of `start`.
unsafe extern "C" fn c_start(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: these are the arguments CPython passes to this method, during the call.
    unsafe { fast_or_checked(slf, args, nargs, kwnames, start, &CHECKED_START) }
}

/// The fields of a decision in its tuple, in order (item 7, the cursor, is private).
const FIELDS: [&str; 7] = [
    "encoding",
    "state",
    "player",
    "prefix",
    "legal_actions",
    "kind",
    "move",
];

/// `tp_alloc` of the decision class: room for the 8 items of a decision in every object,
/// even one made with fewer (`tuple.__new__(cls, ())`): its fields are then read as
/// absent (NULL: `AttributeError`), never past its end. The tuple's size stays the items
/// given, so the tuple itself is unchanged.
unsafe extern "C" fn decision_alloc(
    class: *mut ffi::PyTypeObject,
    items: ffi::Py_ssize_t,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls `tp_alloc` with the GIL held and a live type; the result is a
    // new object of `max(items, 8)` zeroed items, or NULL with the exception set.
    let obj = unsafe { ffi::PyType_GenericAlloc(class, items.max(8)) };
    if !obj.is_null() && items < 8 {
        // SAFETY: a tuple object starts with a `PyVarObject` header; nothing else holds
        // the new object yet. Its size only shrinks: the items past it stay NULL.
        unsafe { (*obj.cast::<ffi::PyVarObject>()).ob_size = items.max(0) };
    }
    obj
}

/// A C string that lives as long as the process (type and member names and docs: the
/// class keeps pointers to them).
fn leaked(text: &str) -> PyResult<*const std::ffi::c_char> {
    Ok(CString::new(text)?.into_raw())
}

/// The decision class of the native engine, `_NativeDecision`, a subclass of `base`
/// (`pacru.encoding.Decision`, a tuple subclass adding no field), and the C method
/// `start` of the encoding class `encoding_class` (`ChevronEncoding`).
///
/// The class is made in C: its fields are member descriptors on the tuple's items, which
/// the interpreter reads as it reads a slot, and its objects always have room for a
/// decision's 8 items (`decision_alloc`). `choose` is its C method; `checked_choose` and
/// `checked_start` are the Python methods the C ones fall back on; `docs` are the fields'
/// docstrings, in `FIELDS` order.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn decision_class(
    base: &Bound<'_, PyType>,
    doc: &str,
    docs: Vec<String>,
    checked_choose: Py<PyAny>,
    choose_doc: &str,
    encoding_class: &Bound<'_, PyType>,
    checked_start: Py<PyAny>,
    start_doc: &str,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let py = base.py();
    // The members read the tuple's items in place: only where its layout is the one
    // `tuple_items_direct` checks, for a subclass adding no field or `__new__`.
    let tuple = py.get_type::<PyTuple>();
    let new = intern!(py, "__new__");
    let size = intern!(py, "__basicsize__");
    let plain = base.is_subclass_of::<PyTuple>()?
        && base.getattr(new)?.is(tuple.getattr(new)?)
        && base.getattr(size)?.eq(tuple.getattr(size)?)?;
    if !plain || !tuple_items_direct(py) || docs.len() != FIELDS.len() {
        return Err(PyValueError::new_err(
            "a decision class is made from a subclass of tuple with no __new__ and no fields",
        ));
    }
    let word = std::mem::size_of::<*mut ffi::PyObject>();
    let mut members = Vec::with_capacity(FIELDS.len() + 1);
    for (i, (name, doc)) in FIELDS.iter().zip(&docs).enumerate() {
        members.push(ffi::PyMemberDef {
            name: leaked(name)?,
            type_code: ffi::Py_T_OBJECT_EX,
            offset: ffi::Py_ssize_t::try_from(TUPLE_ITEMS + i * word)?,
            flags: ffi::Py_READONLY,
            doc: leaked(doc)?,
        });
    }
    members.push(ffi::PyMemberDef::default());
    let methods = vec![
        ffi::PyMethodDef {
            ml_name: leaked("choose")?,
            ml_meth: ffi::PyMethodDefPointer {
                PyCFunctionFastWithKeywords: c_choose,
            },
            ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
            ml_doc: leaked(&format!("choose($self, action)\n--\n\n{choose_doc}"))?,
        },
        ffi::PyMethodDef::zeroed(),
    ];
    // The class keeps pointers into these (its name, methods and members): they live as
    // long as the process, leaked once, a few hundred bytes.
    let members: &'static mut [ffi::PyMemberDef] = members.leak();
    let methods: &'static mut [ffi::PyMethodDef] = methods.leak();
    let slots: &'static mut [ffi::PyType_Slot] = vec![
        ffi::PyType_Slot {
            slot: ffi::Py_tp_alloc,
            pfunc: decision_alloc as *mut c_void,
        },
        ffi::PyType_Slot {
            slot: ffi::Py_tp_members,
            pfunc: members.as_mut_ptr().cast(),
        },
        ffi::PyType_Slot {
            slot: ffi::Py_tp_methods,
            pfunc: methods.as_mut_ptr().cast(),
        },
        ffi::PyType_Slot {
            slot: ffi::Py_tp_doc,
            pfunc: leaked(doc)?.cast_mut().cast(),
        },
        ffi::PyType_Slot {
            slot: 0,
            pfunc: std::ptr::null_mut(),
        },
    ]
    .leak();
    let spec: &'static mut ffi::PyType_Spec = Box::leak(Box::new(ffi::PyType_Spec {
        name: leaked("pacru.encoding.chevron._NativeDecision")?,
        basicsize: 0,
        itemsize: 0,
        flags: ffi::Py_TPFLAGS_DEFAULT as std::ffi::c_uint,
        slots: slots.as_mut_ptr(),
    }));
    let bases = PyTuple::new(py, [base])?;
    // SAFETY: `spec` and everything it points to live as long as the process; `bases` is
    // a live tuple of one type. The result is a new reference or NULL with the exception
    // set.
    let class = unsafe { ffi::PyType_FromSpecWithBases(spec, bases.as_ptr()) };
    // SAFETY: as above.
    let class = unsafe { Bound::from_owned_ptr_or_err(py, class) }?;
    let _ = DECISION_CLASS.set(py, class.clone().unbind());
    let _ = CHECKED_CHOOSE.set(py, checked_choose);
    let _ = CHECKED_START.set(py, checked_start);
    let start = descriptor(
        encoding_class,
        "start",
        &format!("start($self, state)\n--\n\n{start_doc}"),
        ffi::PyMethodDefPointer {
            PyCFunctionFastWithKeywords: c_start,
        },
        ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
    )?;
    Ok((class.unbind(), start))
}
