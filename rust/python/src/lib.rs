//! `pacru._native`: the chevron engine `pacru_engine` as a Python extension module.
//!
//! The Python side is `src/pacru/chevron/native.py`. A ply of a bot runs no Python frame of
//! pacru: `ChevronState.legal_moves` and `apply_move` are C methods of the class
//! (`methods`), the move list is this module's `NativeLegalMoves` (`moves`, a
//! `pacru.LegalMoves` by registration), and the next `ChevronState` and its `pacru.Move`
//! values are built here slot by slot (`Maker`), without Python calls. A move without
//! relinquished fields is built once per process and shared.
//!
//! No code path panics on any input: bad input is a Python exception (`ValueError`,
//! `IndexError`, `TypeError`), and the objects refuse assignment (frozen classes).

mod decisions;
mod methods;
mod moves;
mod rollouts;
mod vector;

use std::mem::ManuallyDrop;
use std::sync::{Mutex, OnceLock};

use pacru_engine as engine;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyTuple, PyType};

use moves::{Moves, MovesIter};

/// The chevron games, by their Python names.
const GAMES: [&str; 4] = ["lilacru", "shacru", "azacru", "pacru"];
/// The games whose native engine agrees with the Python engine over the differential
/// suite (tests/native): `pacru.ENGINE` is "native" only when that is every game.
const VERIFIED: &[&str] = &GAMES;

/// `pacru.Move`, the class of moves.
static MOVE_CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// The slots of `pacru.Move` in field order, then its hash cache.
const MOVE_SLOTS: [&str; 10] = [
    "origin",
    "target",
    "capture",
    "twist",
    "turn",
    "connection",
    "marker",
    "meeting",
    "relinquished",
    "_attrs_cached_hash",
];
static MOVE_NAMES: PyOnceLock<[Py<PyString>; 10]> = PyOnceLock::new();
/// The maker of `pacru.Move` objects (None: made through Python calls).
static MOVE_MAKER: PyOnceLock<Option<Maker>> = PyOnceLock::new();
/// `pacru.chevron.native.python_list(position)`: the Python engine's list of a position.
static PYTHON_LIST: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `pacru.LegalMoves`, whose `__eq__` and `__repr__` the native list shares.
static LEGAL_MOVES: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `pacru.chevron.movelist._move_or_none(text)`: the move a text writes, or None.
static MOVE_OR_NONE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `attrs.exceptions.FrozenInstanceError`, raised on assignment to a list.
static FROZEN: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `pacru.chevron.native.outcome(termination, winners, players)`: a `pacru.Outcome`.
static OUTCOME: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `pacru.chevron.native.position(state)`: the native position of a Python-made state.
static POSITION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `pacru.LegalMoves.empty()`, the list of a finished game.
static EMPTY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `object.__new__`: a new state or list, its slots then set one by one.
static OBJECT_NEW: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// The slots of `ChevronState` in field order, then its hash cache (state.py checks the
/// fields; `Moves.apply_state` sets them all).
const STATE_SLOTS: [&str; 15] = [
    "rules",
    "players",
    "markers",
    "chevrons",
    "to_move",
    "out",
    "trigger",
    "idle",
    "ply",
    "outcome",
    "occupied",
    "_last",
    "_moves",
    "_pos",
    "_attrs_cached_hash",
];
static STATE_NAMES: PyOnceLock<[Py<PyString>; 15]> = PyOnceLock::new();
/// The maker of `ChevronState` objects (None: made through Python calls).
static STATE_MAKER: PyOnceLock<Option<Maker>> = PyOnceLock::new();
/// The moves without relinquished fields built so far: a table of `SHARED_SIZE` entries
/// indexed by a hash of `move_key`, each the last move built with that index (with its
/// key); empty until first used.
static SHARED: Mutex<Vec<SharedEntry>> = Mutex::new(Vec::new());
/// A shared move with its `move_key`, or nothing.
type SharedEntry = Option<(u64, Py<PyAny>)>;
/// How many shared moves are kept.
const SHARED_SIZE: usize = 1 << 16;

/// The entry of `key` in `SHARED`: one multiplication (Fibonacci hashing), its top bits.
fn shared_index(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as usize % SHARED_SIZE
}

fn engine_error(err: engine::EngineError) -> PyErr {
    PyValueError::new_err(format!("pacru engine: {}", err.message()))
}

fn game_of(name: &str) -> PyResult<engine::Game> {
    Ok(match name {
        "lilacru" => engine::Game::Lilacru,
        "shacru" => engine::Game::Shacru,
        "azacru" => engine::Game::Azacru,
        "pacru" => engine::Game::Pacru,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown chevron game {name:?}"
            )))
        }
    })
}

fn game_name(game: engine::Game) -> &'static str {
    match game {
        engine::Game::Lilacru => GAMES[0],
        engine::Game::Shacru => GAMES[1],
        engine::Game::Azacru => GAMES[2],
        engine::Game::Pacru => GAMES[3],
    }
}

fn meeting_rule_of(name: &str) -> PyResult<engine::MeetingRule> {
    Ok(match name {
        "2011" => engine::MeetingRule::Y2011,
        "original" => engine::MeetingRule::Original,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown meeting rule {name:?}"
            )))
        }
    })
}

fn meeting_rule_name(rule: engine::MeetingRule) -> &'static str {
    match rule {
        engine::MeetingRule::Y2011 => "2011",
        engine::MeetingRule::Original => "original",
    }
}

fn termination_of(value: &str) -> PyResult<engine::Termination> {
    engine::Termination::parse(value)
        .ok_or_else(|| PyValueError::new_err(format!("no chevron termination {value:?}")))
}

/// A key packing every part of a move without relinquished fields (below 2^40).
fn move_key(m: &engine::Move) -> u64 {
    let field = |f: Option<u8>| u64::from(f.map_or(81, |x| x));
    field(m.origin)
        | field(m.target) << 7
        | field(m.marker) << 14
        | field(m.meeting) << 21
        | u64::from(m.capture) << 28
        | u64::from(m.connection) << 29
        | ((i64::from(m.twist) + 1) as u64 & 3) << 30
        | ((i64::from(m.turn) + 2) as u64 & 7) << 32
}

/// The fields of `board`, ascending, as cached Python ints.
fn field_ints(py: Python<'_>, mut board: u128) -> impl Iterator<Item = PyResult<Bound<'_, PyAny>>> {
    let ints = code_ints(py);
    std::iter::from_fn(move || {
        if board == 0 {
            return None;
        }
        let f = board.trailing_zeros() as usize;
        board &= board - 1;
        Some(Ok(ints[f].bind(py).clone()))
    })
}

/// The Python `pacru.Move` of an engine move, shared when it relinquishes no field.
fn to_python(py: Python<'_>, m: &engine::Move) -> PyResult<Py<PyAny>> {
    if m.relinquished != 0 {
        return build_move(py, m);
    }
    let key = move_key(m);
    let index = shared_index(key);
    // The lock is never held while Python runs: another thread could take the GIL.
    if let Ok(shared) = SHARED.lock() {
        if let Some(Some((k, found))) = shared.get(index) {
            if *k == key {
                return Ok(found.clone_ref(py));
            }
        }
    }
    let built = build_move(py, m)?;
    let evicted = match SHARED.lock() {
        Ok(mut shared) => {
            if shared.is_empty() {
                shared.resize_with(SHARED_SIZE, || None);
            }
            shared
                .get_mut(index)
                .and_then(|entry| entry.replace((key, built.clone_ref(py))))
        }
        Err(_) => None,
    };
    // Released after the lock: freeing a move may run Python code.
    drop(evicted);
    Ok(built)
}

/// A new `pacru.Move` with the parts of `m`, its slots set as `families.make_move` sets
/// them (the engine's moves are valid, so the class's converters have nothing to do).
fn build_move(py: Python<'_>, m: &engine::Move) -> PyResult<Py<PyAny>> {
    let field = |f: Option<u8>| match f {
        Some(f) => f.into_pyobject(py).map(Bound::into_any),
        None => Ok(py.None().into_bound(py)),
    };
    let flag = |b: bool| b.into_pyobject(py).map(|b| b.to_owned().into_any());
    let count = m.relinquished.count_ones() as usize;
    let relinquished = new_tuple(py, count, field_ints(py, m.relinquished))?.into_any();
    let values = [
        field(m.origin)?,
        field(m.target)?,
        flag(m.capture)?,
        m.twist.into_pyobject(py)?.into_any(),
        m.turn.into_pyobject(py)?.into_any(),
        flag(m.connection)?,
        field(m.marker)?,
        field(m.meeting)?,
        relinquished,
        py.None().into_bound(py),
    ];
    let class = registered(py, &MOVE_CLASS)?.bind(py).cast::<PyType>()?;
    let names = MOVE_NAMES.get_or_init(py, || {
        MOVE_SLOTS.map(|name| PyString::intern(py, name).unbind())
    });
    let made = make_object(py, &MOVE_MAKER, class, names, values)?;
    untrack(&made);
    Ok(made.unbind())
}

/// Take `obj` out of the cyclic garbage collector's care: for an object that can be in no
/// reference cycle, such as a move (ints, booleans, None and a tuple of ints; CPython
/// untracks a tuple of such values itself). The moves the cache keeps are then not
/// traversed again by every full collection.
fn untrack(obj: &Bound<'_, PyAny>) {
    // SAFETY: `obj` is a live object; its type's flags say whether it has the collector's
    // header that PyObject_GC_UnTrack reads (untracking an untracked object does nothing).
    unsafe {
        if ffi::PyType_GetFlags(ffi::Py_TYPE(obj.as_ptr())) & ffi::Py_TPFLAGS_HAVE_GC != 0 {
            ffi::PyObject_GC_UnTrack(obj.as_ptr().cast());
        }
    }
}

/// The Python ints of every chevron code `field * 8 + facing` (0..648), made once: most
/// are above CPython's cache of small ints, and every move changes a seat's codes.
pub(crate) fn code_ints(py: Python<'_>) -> &[Py<PyAny>] {
    static CODES: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();
    CODES.get_or_init(py, || {
        (0u16..81 * 8)
            .map(|c| {
                c.into_pyobject(py)
                    .map_or_else(|never| match never {}, |i| i.into_any().unbind())
            })
            .collect()
    })
}

/// The Python int `value`, from the cached ints of `code_ints` when it is one of them (a
/// look-up instead of a call: a state's seat, ply and counters are usually small).
/// `ints` is `code_ints(py)`, fetched once by a caller that needs several.
#[inline]
fn small_int<'py>(py: Python<'py>, ints: &[Py<PyAny>], value: i64) -> Bound<'py, PyAny> {
    match usize::try_from(value).ok().and_then(|i| ints.get(i)) {
        Some(int) => int.bind(py).clone(),
        None => value
            .into_pyobject(py)
            .map_or_else(|never| match never {}, Bound::into_any),
    }
}

/// The Python int of the board `new`, from `old_int`, the int of the board `old`: a change of
/// one or two fields is one XOR with a cached int of those fields, cheaper than making
/// an int above 2^64 afresh (three calls under the stable ABI) when a chevron or a marker on
/// ranks 8 and 9 keeps the board that large.
fn board_after<'py>(
    old_int: &Bound<'py, PyAny>,
    old: u128,
    new: u128,
) -> PyResult<Bound<'py, PyAny>> {
    let py = old_int.py();
    let delta = old ^ new;
    if delta == 0 {
        return Ok(old_int.clone());
    }
    if new >> 64 == 0 || delta.count_ones() > 2 {
        return Ok(board(py, new));
    }
    // The ints of every board of one or two fields, made when first needed: a step changes
    // two fields of the occupied board, so one XOR instead of two.
    static DELTAS: PyOnceLock<Vec<OnceLock<Py<PyAny>>>> = PyOnceLock::new();
    let deltas = DELTAS.get_or_init(py, || (0..81 * 81).map(|_| OnceLock::new()).collect());
    let low = delta.trailing_zeros() as usize;
    let high = 127 - delta.leading_zeros() as usize;
    let Some(cell) = deltas.get(low * 81 + high) else {
        return Ok(board(py, new));
    };
    let bits = cell.get_or_init(|| board(py, delta).unbind());
    old_int.bitxor(bits.bind(py))
}

/// Where a tuple's items start: after its header, as CPython lays out `PyTupleObject`.
pub(crate) const TUPLE_ITEMS: usize = std::mem::size_of::<ffi::PyVarObject>();

/// Whether a tuple's items lie at `TUPLE_ITEMS` (checked once on a tuple PyTuple_SetItem
/// filled): then new tuples are filled by writing their items, without a call per item.
pub(crate) fn tuple_items_direct(py: Python<'_>) -> bool {
    static DIRECT: PyOnceLock<bool> = PyOnceLock::new();
    *DIRECT.get_or_init(py, || {
        // Bound, not Py: a `Py` dropped in a C method (no pyo3 frame around it) would be
        // queued in pyo3's pool of deferred releases, which every later call then checks.
        let items = [py.None().into_bound(py), py.NotImplemented().into_bound(py)];
        let Ok(tuple) = PyTuple::new(py, &items) else {
            return false;
        };
        let base = tuple.as_ptr().cast::<u8>();
        items.iter().enumerate().all(|(i, item)| {
            // SAFETY: a tuple of two items is at least its header and two words long.
            let word = unsafe {
                base.add(TUPLE_ITEMS + i * std::mem::size_of::<*mut ffi::PyObject>())
                    .cast::<*mut ffi::PyObject>()
                    .read_unaligned()
            };
            word == item.as_ptr()
        })
    })
}

/// A new tuple of the first `len` items of `items` (an error if there are fewer), without
/// collecting them first.
fn new_tuple<'py>(
    py: Python<'py>,
    len: usize,
    items: impl Iterator<Item = PyResult<Bound<'py, PyAny>>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let tuple = new_tuple_of(py, None, len, items)?;
    // SAFETY: the object PyTuple_New made is a tuple.
    Ok(unsafe { tuple.cast_into_unchecked::<PyTuple>() })
}

/// As [`new_tuple`], an object of the tuple subclass `class` (a Python class that adds no
/// field and no `__new__`, whose instances `PyType_GenericAlloc` makes: what
/// `tuple.__new__(class, items)` makes, without a tuple in between), or a tuple (None).
pub(crate) fn new_tuple_of<'py>(
    py: Python<'py>,
    class: Option<&Bound<'py, PyType>>,
    len: usize,
    items: impl Iterator<Item = PyResult<Bound<'py, PyAny>>>,
) -> PyResult<Bound<'py, PyAny>> {
    let size = ffi::Py_ssize_t::try_from(len)
        .map_err(|_| PyValueError::new_err("pacru engine: tuple too long"))?;
    let raw = match class {
        // SAFETY: `class` is a live type object whose instances PyType_GenericAlloc makes
        // (the caller's promise); called with the GIL held, NULL means an exception is set.
        Some(class) => unsafe { ffi::PyType_GenericAlloc(class.as_type_ptr(), size) },
        // SAFETY: PyTuple_New is called with the GIL held; NULL means an exception is set.
        None => unsafe { ffi::PyTuple_New(size) },
    };
    // SAFETY: as above.
    let tuple = unsafe { Bound::from_owned_ptr_or_err(py, raw) }?;
    let mut filled: ffi::Py_ssize_t = 0;
    let direct = tuple_items_direct(py);
    for item in items.take(len) {
        let item = item?.into_ptr();
        if direct {
            // SAFETY: the items of a tuple (a subclass adding no field lays them out alike)
            // are the words after its `PyVarObject` header (checked once by
            // `tuple_items_direct`), `filled < size`, and the new tuple's item is NULL and
            // nothing else holds the tuple yet; it takes over the reference, as
            // PyTuple_SetItem does. Until all are set no Python code runs (the items exist
            // already), and the collector skips NULL items.
            unsafe {
                tuple
                    .as_ptr()
                    .cast::<u8>()
                    .add(TUPLE_ITEMS)
                    .cast::<*mut ffi::PyObject>()
                    .offset(filled)
                    .write(item);
            }
        // SAFETY: `tuple` is a new tuple of `size` items that nothing else holds yet (so
        // PyTuple_SetItem may fill it) and `filled < size`; the call takes over the item's
        // reference. An error leaves the rest NULL, which freeing the tuple allows.
        } else if unsafe { ffi::PyTuple_SetItem(tuple.as_ptr(), filled, item) } < 0 {
            return Err(PyErr::fetch(py));
        }
        filled += 1;
    }
    if filled != size {
        return Err(PyValueError::new_err("pacru engine: too few tuple items"));
    }
    Ok(tuple)
}

/// A board as a Python int: one call for the common board below 2^64 (pyo3's conversion of a
/// `u128` under the stable ABI always takes three).
fn board<'py>(py: Python<'py>, value: u128) -> Bound<'py, PyAny> {
    match u64::try_from(value) {
        Ok(small) => small.into_pyobject(py).map(Bound::into_any),
        Err(_) => value.into_pyobject(py).map(Bound::into_any),
    }
    .unwrap_or_else(|never| match never {})
}

fn field_or_none(value: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
    if value.is_none() {
        return Ok(None);
    }
    let f: u8 = value.extract()?;
    if f > 80 {
        return Err(PyValueError::new_err(format!(
            "field index {f} outside 0..80"
        )));
    }
    Ok(Some(f))
}

/// The engine move of a Python `pacru.Move` (read attribute by attribute).
fn from_python(m: &Bound<'_, PyAny>) -> PyResult<engine::Move> {
    let py = m.py();
    let mut relinquished: u128 = 0;
    for f in m.getattr(intern!(py, "relinquished"))?.try_iter()? {
        let f = field_or_none(&f?)?.unwrap_or(0);
        relinquished |= 1u128 << f;
    }
    Ok(engine::Move {
        origin: field_or_none(&m.getattr(intern!(py, "origin"))?)?,
        target: field_or_none(&m.getattr(intern!(py, "target"))?)?,
        capture: m.getattr(intern!(py, "capture"))?.extract()?,
        twist: m.getattr(intern!(py, "twist"))?.extract()?,
        turn: m.getattr(intern!(py, "turn"))?.extract()?,
        connection: m.getattr(intern!(py, "connection"))?.extract()?,
        marker: field_or_none(&m.getattr(intern!(py, "marker"))?)?,
        meeting: field_or_none(&m.getattr(intern!(py, "meeting"))?)?,
        relinquished,
    })
}

/// Register the Python side: the class of moves, the class whose `__eq__`/`__repr__` the
/// native list shares, the factories of outcomes, native positions and Python-engine lists
/// (`pacru.chevron.native`), the empty list, the text-to-move reader of `in` and the error
/// of assignment.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn init(
    py: Python<'_>,
    move_class: Py<PyAny>,
    legal_moves: Py<PyAny>,
    outcome: Py<PyAny>,
    position: Py<PyAny>,
    python_list: Py<PyAny>,
    empty: Py<PyAny>,
    move_or_none: Py<PyAny>,
    frozen: Py<PyAny>,
) -> PyResult<()> {
    check_fields(move_class.bind(py).cast::<PyType>()?, &MOVE_SLOTS)?;
    // A second call (a reloaded module) keeps the first ones: they build equal values.
    let _ = MOVE_CLASS.set(py, move_class);
    let _ = LEGAL_MOVES.set(py, legal_moves);
    let _ = OUTCOME.set(py, outcome);
    let _ = POSITION.set(py, position);
    let _ = PYTHON_LIST.set(py, python_list);
    let _ = EMPTY.set(py, empty);
    let _ = MOVE_OR_NONE.set(py, move_or_none);
    let _ = FROZEN.set(py, frozen);
    let new = py
        .import("builtins")?
        .getattr("object")?
        .getattr("__new__")?;
    let _ = OBJECT_NEW.set(py, new.unbind());
    Ok(())
}

fn registered<'a>(py: Python<'_>, cell: &'a PyOnceLock<Py<PyAny>>) -> PyResult<&'a Py<PyAny>> {
    cell.get(py)
        .ok_or_else(|| PyRuntimeError::new_err("pacru._native.init was not called"))
}

/// Set the slot `name` of `obj` as `object.__setattr__` does, around a frozen class's own
/// `__setattr__` (a new object that nothing else holds yet).
fn set_slot(
    obj: &Bound<'_, PyAny>,
    name: &Bound<'_, PyString>,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let py = obj.py();
    // SAFETY: the three pointers are live, owned references for the duration of the call.
    let rc = unsafe { ffi::PyObject_GenericSetAttr(obj.as_ptr(), name.as_ptr(), value.as_ptr()) };
    if rc < 0 {
        return Err(PyErr::fetch(py));
    }
    Ok(())
}

/// How to make an object of a Python class with slots as `object.__new__` then one
/// `object.__setattr__` per slot do, without their Python calls and look-ups: the class's
/// allocator and the setters of its slots' member descriptors, found once.
struct Maker {
    class: Py<PyType>,
    alloc: ffi::allocfunc,
    slots: Vec<(Py<PyAny>, ffi::descrsetfunc)>,
    /// The getters of the same descriptors (a member descriptor's `__get__`).
    getters: Vec<ffi::descrgetfunc>,
    /// Where each slot's object pointer lies in an object of the class (a byte offset),
    /// found by `slot_offsets`; None when they could not all be found (then the
    /// descriptors read and write them).
    offsets: Option<Vec<usize>>,
}

impl Maker {
    /// The maker of `class` for the slots `names` (in that order), or None when the class
    /// is abstract or a name is not a plain slot (a member descriptor) of its own.
    fn of(class: &Bound<'_, PyType>, names: &[Py<PyString>]) -> PyResult<Option<Maker>> {
        let py = class.py();
        let ty = class.as_type_ptr();
        // SAFETY: `ty` is a live type object; both calls only read it.
        let (flags, alloc) = unsafe {
            (
                ffi::PyType_GetFlags(ty),
                ffi::PyType_GetSlot(ty, ffi::Py_tp_alloc),
            )
        };
        if flags & ffi::Py_TPFLAGS_IS_ABSTRACT != 0 || alloc.is_null() {
            return Ok(None);
        }
        let mut slots = Vec::with_capacity(names.len());
        let mut getters = Vec::with_capacity(names.len());
        for name in names {
            // The descriptor `object.__setattr__` would find: the first along the MRO.
            let mut found = None;
            for base in class.getattr("__mro__")?.try_iter()? {
                if let Ok(d) = base?.getattr("__dict__")?.get_item(name.bind(py)) {
                    found = Some(d);
                    break;
                }
            }
            let Some(descr) = found else { return Ok(None) };
            if descr.get_type().name()?.to_str()? != "member_descriptor" {
                return Ok(None);
            }
            let kind = descr.get_type().as_type_ptr();
            // SAFETY: the type of a live object is a live type object.
            let (set, get) = unsafe {
                (
                    ffi::PyType_GetSlot(kind, ffi::Py_tp_descr_set),
                    ffi::PyType_GetSlot(kind, ffi::Py_tp_descr_get),
                )
            };
            if set.is_null() || get.is_null() {
                return Ok(None);
            }
            // SAFETY: the `Py_tp_descr_set` and `Py_tp_descr_get` slots of a type hold a
            // `descrsetfunc` and a `descrgetfunc`.
            let (set, get) = unsafe {
                (
                    std::mem::transmute::<*mut std::ffi::c_void, ffi::descrsetfunc>(set),
                    std::mem::transmute::<*mut std::ffi::c_void, ffi::descrgetfunc>(get),
                )
            };
            slots.push((descr.unbind(), set));
            getters.push(get);
        }
        // SAFETY: the `Py_tp_alloc` slot of a type holds an `allocfunc`.
        let alloc: ffi::allocfunc = unsafe { std::mem::transmute(alloc) };
        let mut maker = Maker {
            class: class.clone().unbind(),
            alloc,
            slots,
            getters,
            offsets: None,
        };
        maker.offsets = maker.slot_offsets(py)?;
        Ok(Some(maker))
    }

    /// A new, empty object of the class (every slot NULL: the allocator zeroes it).
    fn alloc<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        // SAFETY: `alloc` is the class's own allocator, called as `object.__new__` calls it.
        let obj = unsafe { (self.alloc)(self.class.bind(py).as_type_ptr(), 0) };
        // SAFETY: a non-NULL result of an allocator is a new, owned reference; NULL means
        // an exception is set.
        unsafe { Bound::from_owned_ptr_or_err(py, obj) }
    }

    /// The byte offset of every slot in an object of the class, found by setting each slot
    /// of an empty object in turn to a new object through its descriptor and looking for
    /// that object's address among the words of the object (`__basicsize__` bytes, after
    /// the object header); None unless every slot is found at exactly one word, distinct
    /// from the others, which its descriptor sets back to NULL.
    ///
    /// A member descriptor of a slot stores the object pointer at a fixed offset of the
    /// instance (`PyMemberDef.offset`, which the limited API does not expose); writing and
    /// reading that word as the descriptor does then skips its type checks and calls.
    fn slot_offsets(&self, py: Python<'_>) -> PyResult<Option<Vec<usize>>> {
        const WORD: usize = std::mem::size_of::<*mut ffi::PyObject>();
        let size: usize = self.class.bind(py).getattr("__basicsize__")?.extract()?;
        let header = std::mem::size_of::<ffi::PyObject>();
        let probe = self.alloc(py)?;
        let base = probe.as_ptr().cast::<u8>();
        // SAFETY: `k` ranges over whole words inside the object's `__basicsize__` bytes,
        // all allocated by the class's allocator and initialised (zeroed, then set only by
        // descriptors); the probe is alive while they are read.
        let word = |k: usize| unsafe { base.add(k).cast::<usize>().read_unaligned() };
        let mut offsets = Vec::with_capacity(self.slots.len());
        for (descr, set) in &self.slots {
            let marker = pyo3::types::PyList::empty(py);
            // SAFETY: `set` is the setter of `descr`'s type; the pointers are live.
            if unsafe { set(descr.as_ptr(), probe.as_ptr(), marker.as_ptr()) } < 0 {
                return Err(PyErr::fetch(py));
            }
            let address = marker.as_ptr() as usize;
            let found: Vec<usize> = (header..size.saturating_sub(WORD - 1))
                .step_by(WORD)
                .filter(|&k| word(k) == address)
                .collect();
            // SAFETY: as above; a NULL value deletes the slot.
            if unsafe { set(descr.as_ptr(), probe.as_ptr(), std::ptr::null_mut()) } < 0 {
                return Err(PyErr::fetch(py));
            }
            match found[..] {
                [k] if word(k) == 0 && !offsets.contains(&k) => offsets.push(k),
                _ => return Ok(None),
            }
        }
        Ok(Some(offsets))
    }

    /// The address of slot `i` of `obj` (an object of this class, `owns`) when the
    /// offsets are known.
    #[inline]
    fn slot_ptr(&self, obj: &Bound<'_, PyAny>, i: usize) -> Option<*mut *mut ffi::PyObject> {
        let offset = *self.offsets.as_ref()?.get(i)?;
        // SAFETY: `offset` is the offset of a slot inside an object of this class
        // (`slot_offsets`), and `obj` is one, so the result points inside its allocation.
        Some(unsafe { obj.as_ptr().cast::<u8>().add(offset) }.cast::<*mut ffi::PyObject>())
    }

    /// A new object of the class with its slots set to `values`, in the order of the names.
    fn make<'py, const N: usize>(
        &self,
        py: Python<'py>,
        values: [Bound<'py, PyAny>; N],
    ) -> PyResult<Bound<'py, PyAny>> {
        let obj = self.alloc(py)?;
        match self.offsets.as_deref() {
            Some(offsets) if offsets.len() == N => {
                let base = obj.as_ptr().cast::<u8>();
                for (offset, value) in offsets.iter().zip(values) {
                    // SAFETY: `offset` is the offset of a slot inside an object of this
                    // class (`slot_offsets`), of which `obj` is a new one that nothing else
                    // holds; the slot takes over the reference, as in `set_owned`.
                    unsafe {
                        let slot = base.add(*offset).cast::<*mut ffi::PyObject>();
                        let old = slot.read();
                        slot.write(value.into_ptr());
                        if !old.is_null() {
                            ffi::Py_DECREF(old);
                        }
                    }
                }
            }
            _ => {
                for (i, value) in values.into_iter().enumerate() {
                    self.set_owned(&obj, i, value)?;
                }
            }
        }
        Ok(obj)
    }

    /// Whether `obj` is an object of exactly this maker's class.
    #[inline]
    fn owns(&self, obj: &Bound<'_, PyAny>) -> bool {
        obj.get_type_ptr() == self.class.bind(obj.py()).as_type_ptr()
    }

    /// Slot `i` of `obj`, an object of this class (`owns`), as `obj.<name>` reads it.
    #[inline]
    fn get<'py>(&self, obj: &Bound<'py, PyAny>, i: usize) -> PyResult<Bound<'py, PyAny>> {
        let py = obj.py();
        if let Some(slot) = self.slot_ptr(obj, i) {
            // SAFETY: `slot` is the word of slot `i` of the live `obj`, NULL or a strong
            // reference the object holds.
            let value = unsafe { slot.read() };
            if !value.is_null() {
                // SAFETY: a live object's slot holds a live reference; this takes a new one,
                // as the descriptor's getter does.
                return Ok(unsafe { Bound::from_borrowed_ptr(py, value) });
            }
        }
        let (descr, _) = &self.slots[i];
        let class = self.class.bind(py);
        // SAFETY: `getters[i]` is the getter of `descr`'s type, called as `obj.<name>` calls
        // it: the descriptor, an object of its class and that class, all live references.
        let value = unsafe { (self.getters[i])(descr.as_ptr(), obj.as_ptr(), class.as_ptr()) };
        // SAFETY: a non-NULL result is a new reference; NULL means an exception is set
        // (an unset slot: AttributeError).
        unsafe { Bound::from_owned_ptr_or_err(py, value) }
    }

    /// Set slot `i` of `obj`, an object of this class (`owns`), around its frozen
    /// `__setattr__`, as `object.__setattr__` does.
    fn set(&self, obj: &Bound<'_, PyAny>, i: usize, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_owned(obj, i, value.clone())
    }

    /// `set`, handing over the reference `value`.
    #[inline]
    fn set_owned(&self, obj: &Bound<'_, PyAny>, i: usize, value: Bound<'_, PyAny>) -> PyResult<()> {
        if let Some(slot) = self.slot_ptr(obj, i) {
            // SAFETY: `slot` is the word of slot `i` of the live `obj`; as the member
            // descriptor does, it takes the new reference, then the old one (if any) is
            // released, last, since releasing may run arbitrary code.
            unsafe {
                let old = slot.read();
                slot.write(value.into_ptr());
                if !old.is_null() {
                    ffi::Py_DECREF(old);
                }
            }
            return Ok(());
        }
        let (descr, set) = &self.slots[i];
        // SAFETY: `set` is the setter of `descr`'s type; the pointers are live references.
        if unsafe { set(descr.as_ptr(), obj.as_ptr(), value.as_ptr()) } < 0 {
            return Err(PyErr::fetch(obj.py()));
        }
        Ok(())
    }
}

/// The index in `STATE_SLOTS` of the cached move list and of the native position.
const STATE_MOVES: usize = 12;
const STATE_POSITION: usize = 13;

/// The names of the slots of `ChevronState`, interned once.
fn state_names(py: Python<'_>) -> &[Py<PyString>; 15] {
    STATE_NAMES.get_or_init(py, || {
        STATE_SLOTS.map(|name| PyString::intern(py, name).unbind())
    })
}

/// Slot `i` of a `ChevronState` (`STATE_SLOTS` order): through its descriptor when the
/// state's class is the one `init_state_class` saw, else by name.
#[inline]
fn state_slot<'py>(state: &Bound<'py, PyAny>, i: usize) -> PyResult<Bound<'py, PyAny>> {
    let py = state.py();
    if let Some(Some(maker)) = STATE_MAKER.get(py) {
        if maker.owns(state) {
            return maker.get(state, i);
        }
    }
    state.getattr(state_names(py)[i].bind(py))
}

/// Set slot `i` of a `ChevronState` around its frozen `__setattr__`.
fn set_state_slot(state: &Bound<'_, PyAny>, i: usize, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = state.py();
    if let Some(Some(maker)) = STATE_MAKER.get(py) {
        if maker.owns(state) {
            return maker.set(state, i, value);
        }
    }
    set_slot(state, state_names(py)[i].bind(py), value)
}

/// Find the slots of the state class `class` once, before the first state is read.
fn init_state_class(class: &Bound<'_, PyType>) -> PyResult<()> {
    let py = class.py();
    check_fields(class, &STATE_SLOTS)?;
    let names = state_names(py);
    STATE_MAKER.get_or_try_init(py, || Maker::of(class, names))?;
    Ok(())
}

/// Refuse an attrs class whose fields are not `slots` (the last, its hash cache, aside):
/// the objects this module builds set every field, so a field added on the Python side
/// must be added here too, and this says so at import instead of leaving it unset.
fn check_fields(class: &Bound<'_, PyType>, slots: &[&str]) -> PyResult<()> {
    let mut fields = Vec::new();
    for field in class.getattr("__attrs_attrs__")?.try_iter()? {
        fields.push(field?.getattr("name")?.extract::<String>()?);
    }
    let expected = &slots[..slots.len() - 1];
    if fields != expected {
        return Err(PyRuntimeError::new_err(format!(
            "pacru._native: the fields of {} are {fields:?}, the extension sets {expected:?}",
            class.name()?
        )));
    }
    Ok(())
}

/// A new object of `class` with the slots `names` set to `values`: through the maker cached
/// in `cell` when it is this class's, else by `object.__new__` and `object.__setattr__`.
fn make_object<'py, const N: usize>(
    py: Python<'py>,
    cell: &PyOnceLock<Option<Maker>>,
    class: &Bound<'py, PyType>,
    names: &[Py<PyString>],
    values: [Bound<'py, PyAny>; N],
) -> PyResult<Bound<'py, PyAny>> {
    let maker = cell.get_or_try_init(py, || Maker::of(class, names))?;
    if let Some(maker) = maker {
        if maker.class.as_ptr() == class.as_ptr() {
            return maker.make(py, values);
        }
    }
    let new = registered(py, &OBJECT_NEW)?.bind(py).call1((class,))?;
    for (name, value) in names.iter().zip(values) {
        set_slot(&new, name.bind(py), &value)?;
    }
    Ok(new)
}

/// The legal moves of a `ChevronState` (not cached: the state caches them).
#[pyfunction]
fn legal_moves<'py>(state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = state.py();
    let mut pos = state_slot(state, STATE_POSITION)?;
    if pos.is_none() {
        pos = registered(py, &POSITION)?.bind(py).call1((state,))?;
    }
    let pos = pos.cast::<PyPosition>()?;
    // A finished game's native position has its outcome, as the state has.
    if pos.get().pos.outcome.is_some() {
        return Ok(registered(py, &EMPTY)?.bind(py).clone());
    }
    PyPosition::legal_moves(pos).map(Bound::into_any)
}

/// The `ChevronState` after the legal `move` (checked by `ChevronState.apply_move`).
#[pyfunction]
fn apply<'py>(state: &Bound<'py, PyAny>, move_: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let moves = state_slot(state, STATE_MOVES)?;
    if let Ok(list) = moves.cast::<Moves>() {
        return list.get().apply_state(state, move_);
    }
    // No native list cached (a list of the Python engine, or none yet): make one.
    let list = legal_moves(state)?;
    list.cast::<Moves>()?.get().apply_state(state, move_)
}

/// A boxed engine position whose box, once the position is freed, serves the next one
/// (`spare`): a position is a few hundred bytes, moved as a pointer instead of copied at
/// every step from the engine into a new Python object.
pub(crate) struct PooledPos(ManuallyDrop<Box<engine::Position>>);

/// The boxes of positions freed lately.
#[allow(clippy::vec_box)] // boxes, so that a position moves in and out without a copy
static SPARE_POSITIONS: Mutex<Vec<Box<engine::Position>>> = Mutex::new(Vec::new());
/// How many boxes `SPARE_POSITIONS` keeps.
const SPARE_POSITIONS_SIZE: usize = 8;

impl PooledPos {
    fn new(pos: engine::Position) -> PooledPos {
        PooledPos(ManuallyDrop::new(Box::new(pos)))
    }

    /// A freed position's box (its content meaningless), if there is one.
    fn spare() -> Option<PooledPos> {
        let spare = SPARE_POSITIONS.lock().ok()?.pop()?;
        Some(PooledPos(ManuallyDrop::new(spare)))
    }
}

impl std::ops::Deref for PooledPos {
    type Target = engine::Position;

    fn deref(&self) -> &engine::Position {
        &self.0
    }
}

impl std::ops::DerefMut for PooledPos {
    fn deref_mut(&mut self) -> &mut engine::Position {
        &mut self.0
    }
}

impl Drop for PooledPos {
    fn drop(&mut self) {
        // SAFETY: the field is taken once, here, and `self` is not used after `drop`.
        let pos = unsafe { ManuallyDrop::take(&mut self.0) };
        if let Ok(mut spare) = SPARE_POSITIONS.lock() {
            if spare.len() < SPARE_POSITIONS_SIZE {
                spare.push(pos);
            }
        }
    }
}

/// A chevron position with its rules, as the engine holds it.
#[pyclass(frozen, module = "pacru._native", name = "Position")]
pub(crate) struct PyPosition {
    rules: engine::Rules,
    pos: PooledPos,
    /// The Python tuples of the state's markers and chevrons: the next state reuses the
    /// entries of the seats a move leaves alone (a 128-bit int is slow to make).
    markers: Py<PyTuple>,
    chevrons: Py<PyTuple>,
    /// The occupied fields as a Python int, reused while no chevron moves.
    occupied: Py<PyAny>,
    /// The state's `rules` and `players` objects, handed on to the next state (None for a
    /// position made from its parts: then they are read from the state).
    state_rules: Option<Py<PyAny>>,
    players: Option<Py<PyAny>>,
}

impl PyPosition {
    #[allow(clippy::too_many_arguments)]
    fn successor<'py>(
        &self,
        py: Python<'py>,
        next: PooledPos,
        markers: &Bound<'py, PyTuple>,
        chevrons: &Bound<'py, PyTuple>,
        occupied: &Bound<'py, PyAny>,
        rules: &Bound<'py, PyAny>,
        players: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyPosition>> {
        Bound::new(
            py,
            PyPosition {
                rules: self.rules,
                pos: next,
                markers: markers.clone().unbind(),
                chevrons: chevrons.clone().unbind(),
                occupied: occupied.clone().unbind(),
                state_rules: Some(rules.clone().unbind()),
                players: Some(players.clone().unbind()),
            },
        )
    }

    /// The occupied fields as a Python int.
    fn occupied<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.occupied.bind(py).clone()
    }

    /// The `rules` and `players` of `state`, the state of this position.
    fn state_parts<'py>(
        &self,
        state: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let py = state.py();
        Ok(match (&self.state_rules, &self.players) {
            (Some(rules), Some(players)) => (rules.bind(py).clone(), players.bind(py).clone()),
            _ => (
                state.getattr(intern!(py, "rules"))?,
                state.getattr(intern!(py, "players"))?,
            ),
        })
    }

    /// The Python tuples of `next`'s markers and chevrons, sharing this position's entries
    /// where they are unchanged.
    fn tuples<'py>(
        &self,
        py: Python<'py>,
        next: &engine::Position,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        let players = usize::from(next.players);
        let markers = if next.markers.get(..players) == self.pos.markers.get(..players) {
            self.markers.bind(py).clone()
        } else {
            let old = self.markers.bind(py);
            new_tuple(
                py,
                players,
                next.markers.iter().enumerate().map(|(i, m)| {
                    let before = old.get_item(i)?;
                    if *m == self.pos.markers[i] {
                        Ok(before)
                    } else {
                        board_after(&before, self.pos.markers[i], *m)
                    }
                }),
            )?
        };
        let chevrons = if next.chevrons.get(..players) == self.pos.chevrons.get(..players) {
            self.chevrons.bind(py).clone()
        } else {
            let old = self.chevrons.bind(py);
            new_tuple(
                py,
                players,
                next.chevrons.iter().enumerate().map(|(i, seat)| {
                    if *seat == self.pos.chevrons[i] {
                        return old.get_item(i);
                    }
                    let ints = code_ints(py);
                    let codes = seat
                        .iter()
                        .map(|c| Ok(ints[usize::from(c)].bind(py).clone()));
                    new_tuple(py, seat.len(), codes).map(Bound::into_any)
                }),
            )?
        };
        Ok((markers, chevrons))
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (game, meeting_rule, move_cap, idle_rounds, markers, chevrons, to_move,
                        out, trigger, idle, ply, termination, winners, state_rules = None,
                        players = None))]
    fn new(
        game: &str,
        meeting_rule: &str,
        move_cap: Option<u32>,
        idle_rounds: u32,
        markers: Bound<'_, PyTuple>,
        chevrons: Bound<'_, PyTuple>,
        to_move: u8,
        out: u8,
        trigger: i8,
        idle: u32,
        ply: u32,
        termination: Option<&str>,
        winners: u8,
        state_rules: Option<Py<PyAny>>,
        players: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        let rules = engine::Rules {
            game: game_of(game)?,
            meeting_rule: meeting_rule_of(meeting_rule)?,
            move_cap,
            idle_rounds,
        };
        let outcome = match termination {
            Some(t) => Some(engine::Outcome {
                termination: termination_of(t)?,
                winners,
            }),
            None => None,
        };
        let boards: Vec<u128> = markers.extract()?;
        let seats: Vec<Vec<u16>> = chevrons.extract()?;
        let count =
            u8::try_from(boards.len()).map_err(|_| PyValueError::new_err("too many players"))?;
        let codes: Vec<&[u16]> = seats.iter().map(Vec::as_slice).collect();
        let pos = engine::Position::new(
            count, &boards, &codes, to_move, out, trigger, idle, ply, outcome,
        )
        .map_err(engine_error)?;
        Ok(PyPosition {
            rules,
            occupied: board(markers.py(), pos.occupied()).unbind(),
            pos: PooledPos::new(pos),
            markers: markers.unbind(),
            chevrons: chevrons.unbind(),
            state_rules,
            players,
        })
    }

    /// The legal moves of the player to move, a `NativeLegalMoves`.
    fn legal_moves<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Moves>> {
        Bound::new(slf.py(), Moves::of(slf))
    }

    /// The number of move sequences of `depth` plies.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        py.detach(|| engine::perft(&self.rules, &self.pos, depth))
    }

    /// The markers per seat: the state's tuple.
    #[getter]
    fn markers(&self, py: Python<'_>) -> Py<PyTuple> {
        self.markers.clone_ref(py)
    }

    /// The chevron codes per seat: the state's tuple.
    #[getter]
    fn chevrons(&self, py: Python<'_>) -> Py<PyTuple> {
        self.chevrons.clone_ref(py)
    }

    /// The rule options (game, meeting rule, move cap, idle rounds), as `ChevronState`
    /// pickles them.
    #[getter]
    fn options(&self) -> (&'static str, &'static str, Option<u32>, u32) {
        (
            game_name(self.rules.game),
            meeting_rule_name(self.rules.meeting_rule),
            self.rules.move_cap,
            self.rules.idle_rounds,
        )
    }

    /// The arguments of the Python generator `movegen.generate` after its rules:
    /// (markers, chevrons, seat to move, occupied fields, end triggered).
    fn generator_args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.markers.clone_ref(py),
            self.chevrons.clone_ref(py),
            self.pos.to_move,
            self.pos.occupied(),
            self.pos.trigger >= 0,
        )
            .into_pyobject(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "<pacru._native.Position {} (meeting rule {}), ply {}>",
            game_name(self.rules.game),
            meeting_rule_name(self.rules.meeting_rule),
            self.pos.ply
        )
    }
}

#[pymodule]
#[pyo3(name = "_native")]
fn pacru_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("COMPLETE", GAMES.iter().all(|g| VERIFIED.contains(g)))?;
    m.add("GAMES", PyTuple::new(m.py(), VERIFIED)?)?;
    m.add_function(wrap_pyfunction!(init, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(methods::state_methods, m)?)?;
    m.add_function(wrap_pyfunction!(rollouts::random_rollouts, m)?)?;
    m.add_class::<PyPosition>()?;
    m.add_class::<vector::Batch>()?;
    m.add_class::<Moves>()?;
    m.add_class::<decisions::DecisionLayout>()?;
    m.add_class::<decisions::NativeDecision>()?;
    m.add_class::<MovesIter>()?;
    Ok(())
}
