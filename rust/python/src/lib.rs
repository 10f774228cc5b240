//! `pacru._native`: the chevron engine `pacru_engine` as a Python extension module.
//!
//! The Python side is `src/pacru/chevron/native.py`. A ply crosses the boundary twice: once
//! for the move list of a position (`Position.legal_moves`, whose length, indexing and
//! membership then run here), once to apply a move (`Moves.apply`), which returns the next
//! position with every part of the next `ChevronState` in one tuple. Moves are the Python
//! `pacru.Move` values, built by the Python factory `make_move` (registered by `init`) and
//! shared: a move without relinquished fields is built once per process.
//!
//! No code path panics on any input: bad input is a Python exception (`ValueError`,
//! `IndexError`, `TypeError`), and the objects refuse assignment (frozen classes).

mod rollouts;
mod vector;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use pacru_engine as engine;
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyRuntimeError, PyValueError};
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyTuple, PyType};

/// The chevron games, by their Python names.
const GAMES: [&str; 4] = ["lilacru", "shacru", "azacru", "pacru"];
/// The games whose native engine agrees with the Python engine over the differential
/// suite (tests/native): `pacru.ENGINE` is "native" only when that is every game.
const VERIFIED: &[&str] = &GAMES;

static MAKE_MOVE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `pacru.chevron.native.NativeLegalMoves`, the class of the lists `legal_moves` returns.
static LIST_CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
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
/// The slot of a `NativeLegalMoves`, and the maker of those lists.
static LIST_NAMES: PyOnceLock<[Py<PyString>; 1]> = PyOnceLock::new();
static LIST_MAKER: PyOnceLock<Option<Maker>> = PyOnceLock::new();
/// The moves without relinquished fields built so far, by `move_key`.
static SHARED: OnceLock<Mutex<HashMap<u64, Py<PyAny>>>> = OnceLock::new();
/// How many shared moves are kept before starting afresh (as `families.make_move`).
const SHARED_SIZE: usize = 1 << 16;

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

fn fields_of(mut board: u128) -> Vec<u8> {
    let mut out = Vec::with_capacity(board.count_ones() as usize);
    while board != 0 {
        out.push(board.trailing_zeros() as u8);
        board &= board - 1;
    }
    out
}

/// The Python `pacru.Move` of an engine move, shared when it relinquishes no field.
fn to_python(py: Python<'_>, m: &engine::Move) -> PyResult<Py<PyAny>> {
    let shared = SHARED.get_or_init(|| Mutex::new(HashMap::new()));
    let key = move_key(m);
    if m.relinquished == 0 {
        // The lock is never held while Python runs: another thread could take the GIL.
        if let Some(found) = shared
            .lock()
            .ok()
            .and_then(|c| c.get(&key).map(|o| o.clone_ref(py)))
        {
            return Ok(found);
        }
    }
    let make = registered(py, &MAKE_MOVE)?;
    let relinquished = PyTuple::new(py, fields_of(m.relinquished))?;
    let built = make.call1(
        py,
        (
            m.origin,
            m.target,
            m.capture,
            m.twist,
            m.turn,
            m.connection,
            m.marker,
            m.meeting,
            relinquished,
        ),
    )?;
    if m.relinquished == 0 {
        if let Ok(mut cache) = shared.lock() {
            if cache.len() >= SHARED_SIZE {
                cache.clear();
            }
            cache.insert(key, built.clone_ref(py));
        }
    }
    Ok(built)
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

/// Register the Python side: the factory of moves (`pacru.chevron.families.make_move`),
/// the class of move lists and the factory of outcomes (`pacru.chevron.native`).
#[pyfunction]
fn init(
    py: Python<'_>,
    make_move: Py<PyAny>,
    list_class: Py<PyAny>,
    outcome: Py<PyAny>,
    position: Py<PyAny>,
    empty: Py<PyAny>,
) -> PyResult<()> {
    // A second call (a reloaded module) keeps the first ones: they build equal values.
    let _ = MAKE_MOVE.set(py, make_move);
    let _ = LIST_CLASS.set(py, list_class);
    let _ = OUTCOME.set(py, outcome);
    let _ = POSITION.set(py, position);
    let _ = EMPTY.set(py, empty);
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
            // SAFETY: the type of a live object is a live type object.
            let set = unsafe {
                ffi::PyType_GetSlot(descr.get_type().as_type_ptr(), ffi::Py_tp_descr_set)
            };
            if set.is_null() {
                return Ok(None);
            }
            // SAFETY: the `Py_tp_descr_set` slot of a type holds a `descrsetfunc`.
            let set: ffi::descrsetfunc = unsafe { std::mem::transmute(set) };
            slots.push((descr.unbind(), set));
        }
        // SAFETY: the `Py_tp_alloc` slot of a type holds an `allocfunc`.
        let alloc: ffi::allocfunc = unsafe { std::mem::transmute(alloc) };
        Ok(Some(Maker {
            class: class.clone().unbind(),
            alloc,
            slots,
        }))
    }

    /// A new object of the class with its slots set to `values`, in the order of the names.
    fn make<'py>(
        &self,
        py: Python<'py>,
        values: &[Bound<'py, PyAny>],
    ) -> PyResult<Bound<'py, PyAny>> {
        // SAFETY: `alloc` is the class's own allocator, called as `object.__new__` calls it.
        let obj = unsafe { (self.alloc)(self.class.bind(py).as_type_ptr(), 0) };
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        // SAFETY: a non-null result of an allocator is a new, owned reference.
        let obj = unsafe { Bound::from_owned_ptr(py, obj) };
        for ((descr, set), value) in self.slots.iter().zip(values) {
            // SAFETY: `set` is the setter of `descr`'s type; the pointers are live references.
            if unsafe { set(descr.as_ptr(), obj.as_ptr(), value.as_ptr()) } < 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(obj)
    }
}

/// A new object of `class` with the slots `names` set to `values`: through the maker cached
/// in `cell` when it is this class's, else by `object.__new__` and `object.__setattr__`.
fn make_object<'py>(
    py: Python<'py>,
    cell: &PyOnceLock<Option<Maker>>,
    class: &Bound<'py, PyType>,
    names: &[Py<PyString>],
    values: &[Bound<'py, PyAny>],
) -> PyResult<Bound<'py, PyAny>> {
    let maker = cell.get_or_try_init(py, || Maker::of(class, names))?;
    if let Some(maker) = maker {
        if maker.class.as_ptr() == class.as_ptr() {
            return maker.make(py, values);
        }
    }
    let new = registered(py, &OBJECT_NEW)?.bind(py).call1((class,))?;
    for (name, value) in names.iter().zip(values) {
        set_slot(&new, name.bind(py), value)?;
    }
    Ok(new)
}

/// The legal moves of a `ChevronState` (not cached: the state caches them).
#[pyfunction]
fn legal_moves<'py>(state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = state.py();
    if !state.getattr(intern!(py, "outcome"))?.is_none() {
        return Ok(registered(py, &EMPTY)?.bind(py).clone());
    }
    let mut pos = state.getattr(intern!(py, "_pos"))?;
    if pos.is_none() {
        pos = registered(py, &POSITION)?.bind(py).call1((state,))?;
    }
    PyPosition::legal_moves(pos.cast::<PyPosition>()?)
}

/// The `ChevronState` after the legal `move` (checked by `ChevronState.apply_move`).
#[pyfunction]
fn apply<'py>(state: &Bound<'py, PyAny>, move_: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = state.py();
    let moves = state.getattr(intern!(py, "_moves"))?;
    if !moves.is_none() {
        if let Ok(list) = moves.getattr(intern!(py, "_impl"))?.cast::<Moves>() {
            return list.get().apply_state(state, move_);
        }
    }
    // No native list cached (a list of the Python engine, or none yet): make one.
    let list = legal_moves(state)?.getattr(intern!(py, "_impl"))?;
    list.cast::<Moves>()?.get().apply_state(state, move_)
}

/// A chevron position with its rules, as the engine holds it.
#[pyclass(frozen, module = "pacru._native", name = "Position")]
pub(crate) struct PyPosition {
    rules: engine::Rules,
    pos: engine::Position,
    /// The Python tuples of the state's markers and chevrons: the next state reuses the
    /// entries of the seats a move leaves alone (a 128-bit int is slow to make).
    markers: Py<PyTuple>,
    chevrons: Py<PyTuple>,
}

impl PyPosition {
    fn successor<'py>(
        &self,
        py: Python<'py>,
        next: engine::Position,
        markers: &Bound<'py, PyTuple>,
        chevrons: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyPosition>> {
        Bound::new(
            py,
            PyPosition {
                rules: self.rules,
                pos: next,
                markers: markers.clone().unbind(),
                chevrons: chevrons.clone().unbind(),
            },
        )
    }

    /// The Python tuples of `next`'s markers and chevrons, sharing this position's entries
    /// where they are unchanged.
    fn tuples<'py>(
        &self,
        py: Python<'py>,
        next: &engine::Position,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        let players = usize::from(next.players);
        let markers = if next.markers == self.pos.markers {
            self.markers.bind(py).clone()
        } else {
            let old = self.markers.bind(py);
            let mut items = Vec::with_capacity(players);
            for (i, m) in next.markers.iter().take(players).enumerate() {
                items.push(if *m == self.pos.markers[i] {
                    old.get_item(i)?
                } else {
                    board(py, *m)
                });
            }
            PyTuple::new(py, items)?
        };
        let chevrons = if next.chevrons == self.pos.chevrons {
            self.chevrons.bind(py).clone()
        } else {
            let old = self.chevrons.bind(py);
            let mut items = Vec::with_capacity(players);
            for (i, seat) in next.chevrons.iter().take(players).enumerate() {
                items.push(if *seat == self.pos.chevrons[i] {
                    old.get_item(i)?
                } else {
                    PyTuple::new(py, seat.to_vec())?.into_any()
                });
            }
            PyTuple::new(py, items)?
        };
        Ok((markers, chevrons))
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (game, meeting_rule, move_cap, idle_rounds, markers, chevrons, to_move,
                        out, trigger, idle, ply, termination, winners))]
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
        let players =
            u8::try_from(boards.len()).map_err(|_| PyValueError::new_err("too many players"))?;
        let codes: Vec<&[u16]> = seats.iter().map(Vec::as_slice).collect();
        let pos = engine::Position::new(
            players, &boards, &codes, to_move, out, trigger, idle, ply, outcome,
        )
        .map_err(engine_error)?;
        Ok(PyPosition {
            rules,
            pos,
            markers: markers.unbind(),
            chevrons: chevrons.unbind(),
        })
    }

    /// The legal moves of the player to move, as a `NativeLegalMoves`.
    fn legal_moves<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let list = engine::legal_moves(&me.rules, &me.pos);
        let len = list.len();
        let is_pass = list.is_pass();
        let moves = Moves {
            position: slf.clone().unbind(),
            list,
            len,
            is_pass,
            issued: Mutex::new(None),
        };
        let class = registered(py, &LIST_CLASS)?.bind(py).cast::<PyType>()?;
        let names = LIST_NAMES.get_or_init(py, || [PyString::intern(py, "_impl").unbind()]);
        let moves = Bound::new(py, moves)?.into_any();
        make_object(py, &LIST_MAKER, class, names, &[moves])
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

/// The legal moves of one position, in the order of the Python engine.
#[pyclass(frozen, module = "pacru._native")]
struct Moves {
    position: Py<PyPosition>,
    list: engine::MoveList,
    len: u64,
    is_pass: bool,
    /// The move last handed out by `get`, with its index: applied without a check.
    issued: Mutex<Option<(Py<PyAny>, u64)>>,
}

#[pymethods]
impl Moves {
    fn __len__(&self) -> usize {
        usize::try_from(self.len).unwrap_or(usize::MAX)
    }

    /// The `index`-th move (negative from the end); `IndexError` outside the list.
    fn get(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let index: i64 = match index.extract() {
            Ok(i) => i,
            // An int beyond 64 bits is out of range, as for any list.
            Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
                return Err(PyIndexError::new_err("legal move index out of range"))
            }
            Err(e) => return Err(e),
        };
        let n = i64::try_from(self.len).unwrap_or(i64::MAX);
        let i = if index < 0 { index + n } else { index };
        let (i, m) = u64::try_from(i)
            .ok()
            .and_then(|i| Some((i, self.list.get(i)?)))
            .ok_or_else(|| PyIndexError::new_err("legal move index out of range"))?;
        let obj = to_python(py, &m)?;
        if let Ok(mut issued) = self.issued.lock() {
            *issued = Some((obj.clone_ref(py), i));
        }
        Ok(obj)
    }

    fn __iter__(slf: &Bound<'_, Self>) -> MovesIter {
        MovesIter {
            moves: slf.clone().unbind(),
            next: Mutex::new(0),
        }
    }

    /// Whether `move` (a `pacru.Move`) is in the list.
    fn contains(&self, move_: &Bound<'_, PyAny>) -> PyResult<bool> {
        if self.is_issued(move_).is_some() {
            return Ok(true);
        }
        Ok(self.list.index_of(&from_python(move_)?).is_some())
    }

    /// The `ChevronState` after `move` (which must be in this list) from `state`, the state
    /// whose list this is: one call per applied move.
    fn apply_state<'py>(
        &self,
        state: &Bound<'py, PyAny>,
        move_: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = state.py();
        let position = self.position.get();
        let next = match self.is_issued(move_) {
            Some(index) => self.list.apply_index(index).ok_or_else(|| {
                PyValueError::new_err("pacru engine: the issued move does not apply")
            })?,
            None => engine::apply(&position.rules, &position.pos, &from_python(move_)?)
                .map_err(engine_error)?,
        };
        let (markers, chevrons) = position.tuples(py, &next)?;
        let players = state.getattr(intern!(py, "players"))?;
        let outcome = match next.outcome {
            Some(o) => registered(py, &OUTCOME)?.bind(py).call1((
                o.termination.value(),
                o.winners,
                &players,
            ))?,
            None => py.None().into_bound(py),
        };
        let ply = state.getattr(intern!(py, "ply"))?.extract::<u64>()? + 1;
        let none = py.None().into_bound(py);
        let occupied = board(py, next.occupied());
        let (to_move, out, trigger, idle) = (next.to_move, next.out, next.trigger, next.idle);
        let pos = position.successor(py, next, &markers, &chevrons)?;
        let values: [Bound<'py, PyAny>; 15] = [
            state.getattr(intern!(py, "rules"))?,
            players,
            markers.clone().into_any(),
            chevrons.clone().into_any(),
            to_move.into_pyobject(py)?.into_any(),
            out.into_pyobject(py)?.into_any(),
            trigger.into_pyobject(py)?.into_any(),
            idle.into_pyobject(py)?.into_any(),
            ply.into_pyobject(py)?.into_any(),
            outcome,
            occupied,
            move_.clone(),
            none.clone(),
            pos.into_any(),
            none,
        ];
        let names = STATE_NAMES.get_or_init(py, || {
            STATE_SLOTS.map(|name| PyString::intern(py, name).unbind())
        });
        make_object(py, &STATE_MAKER, &state.get_type(), names, &values)
    }

    #[getter]
    fn issued(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.issued
            .lock()
            .ok()?
            .as_ref()
            .map(|(obj, _)| obj.clone_ref(py))
    }

    #[getter]
    fn is_pass(&self) -> bool {
        self.is_pass
    }

    /// The number of move families, `len(LegalMoves.families)`: the step families, then
    /// the reorientation families, one per chevron and turn {R14}.
    fn family_count(&self) -> usize {
        let p = self.position.get();
        pacru_batch::family_count(&p.rules, &p.pos, &self.list)
    }

    /// `(start, size)` of the `family`-th family (`0 <= family < family_count()`): its
    /// moves are `start .. start + size` of this list, as `LegalMoves.families[family]`
    /// holds them. `IndexError` outside.
    fn family_range(&self, family: usize) -> PyResult<(u64, u64)> {
        if family >= self.family_count() {
            return Err(PyIndexError::new_err("move family index out of range"));
        }
        let p = self.position.get();
        Ok(pacru_batch::family_range(
            &p.rules, &p.pos, &self.list, family,
        ))
    }

    /// The position this list belongs to.
    #[getter]
    fn position(&self, py: Python<'_>) -> Py<PyPosition> {
        self.position.clone_ref(py)
    }
}

impl Moves {
    /// The index of `move_` when it is the move `get` handed out last.
    fn is_issued(&self, move_: &Bound<'_, PyAny>) -> Option<u64> {
        let issued = self.issued.lock().ok()?;
        match issued.as_ref() {
            Some((obj, i)) if obj.as_ptr() == move_.as_ptr() => Some(*i),
            _ => None,
        }
    }
}

/// Iterates over a `Moves` in order.
#[pyclass(frozen, module = "pacru._native")]
struct MovesIter {
    moves: Py<Moves>,
    next: Mutex<u64>,
}

#[pymethods]
impl MovesIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let i = {
            let mut next = self
                .next
                .lock()
                .map_err(|_| PyRuntimeError::new_err("move iterator poisoned"))?;
            let i = *next;
            *next += 1;
            i
        };
        match self.moves.get().list.get(i) {
            Some(m) => to_python(py, &m).map(Some),
            None => Ok(None),
        }
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
    m.add_function(wrap_pyfunction!(rollouts::random_rollouts, m)?)?;
    m.add_class::<PyPosition>()?;
    m.add_class::<vector::Batch>()?;
    m.add_class::<Moves>()?;
    m.add_class::<MovesIter>()?;
    Ok(())
}
