//! `pacru._native`: the chevron engine `pacru_engine` as a Python extension module.
//!
//! Safe PyO3 on the stable ABI (`abi3-py311`) only: no object memory is read or written,
//! no type is built by hand, and the only Python objects of pacru's kept in a static are
//! the classes `pacru.chevron.engine` hands over at import (`moves::use_python_types`). The
//! Python side is `pacru.chevron.native`, reached through the engine boundary
//! `pacru.chevron.engine`:
//!
//! * `State` (`state`): the native engine's game state, the base of
//!   `pacru.chevron.native.NativeChevronState` (which adds the shared methods of
//!   `pacru.ChevronState`). It owns the engine's rules and position, serves the state's
//!   fields from them, lists its legal moves and applies a move itself, making the next
//!   state by calling its class; it carries the rule object, the players and that class
//!   on to its successors;
//! * `NativeLegalMoves` (`moves`): the move list, a `pacru.LegalMoves` by registration;
//! * `Move` (`moves::value`): the native engine's move, a frozen value holding the
//!   engine's move (`pacru.Move` on the native engine), which the list hands out;
//! * `Position`: a position with its rules, what the batch layer starts from;
//! * `random_rollouts` and `Batch` (`rollouts`, `vector`): whole games in the engine;
//!   `DecisionLayout` and `NativeDecision` (`decisions`): the encodings' decisions;
//! * `LsdBatch` (`lsd`): the games of an LSD `pacru.vector` batch on `pacru_lsd`.
//! * `LsdRules`, `LsdPosition`, `LsdMoves` (`lsd_state`): one `pacru.LsdState` on `pacru_lsd`.
//!
//! Engine errors are typed (`pacru_engine::EngineError`) and become `pacru`'s exceptions
//! in one place (`errors`). No code path panics on any input.

#![forbid(unsafe_code)]

mod decisions;
mod errors;
mod lsd;
mod lsd_state;
mod moves;
mod rollouts;
mod search;
mod state;
mod vector;

use pacru_engine as engine;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;

use moves::{Moves, MovesIter, PyMove};

/// The chevron games, by their Python names.
const GAMES: [&str; 4] = ["lilacru", "shacru", "azacru", "pacru"];
/// The games whose native engine agrees with the Python engine over the differential
/// suite (tests/native): `pacru.ENGINE` is "native" only when that is every game.
const VERIFIED: &[&str] = &GAMES;

/// The game named `name`; `ValueError` echoing the name (as `pacru.chevron.pystate` does)
/// for one the engine does not know.
pub(crate) fn game_of(name: &str) -> PyResult<engine::Game> {
    engine::Game::parse(name)
        .map_err(|_| PyValueError::new_err(format!("unknown chevron game {name:?}")))
}

fn game_name(game: engine::Game) -> &'static str {
    match game {
        engine::Game::Lilacru => GAMES[0],
        engine::Game::Shacru => GAMES[1],
        engine::Game::Azacru => GAMES[2],
        engine::Game::Pacru => GAMES[3],
    }
}

pub(crate) fn meeting_rule_of(name: &str) -> PyResult<engine::MeetingRule> {
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

pub(crate) fn termination_of(value: &str) -> PyResult<engine::Termination> {
    engine::Termination::parse(value)
        .ok_or_else(|| PyValueError::new_err(format!("no chevron termination {value:?}")))
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

/// The value `cell` keeps, made by `make` when it holds none yet. Unlike
/// `PyOnceLock::get_or_try_init`, which detaches from the interpreter around its lock (a
/// release and reacquisition of the GIL on every first read: a state's move list is read
/// once a ply), the value is made first, then set: a thread that loses a race to set it
/// drops its own and reads the one kept, so every read still gives one object.
///
/// # Errors
/// `make`'s error (the cell is then left empty).
pub(crate) fn kept<'a, T>(
    py: Python<'_>,
    cell: &'a PyOnceLock<T>,
    make: impl FnOnce() -> PyResult<T>,
) -> PyResult<&'a T> {
    if let Some(value) = cell.get(py) {
        return Ok(value);
    }
    // Err: another thread set the cell first; its value is the one kept.
    drop(cell.set(py, make()?));
    cell.get(py)
        .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("a kept value was not set"))
}

/// A board as a Python int: one call for the common board below 2^64 (pyo3's conversion of a
/// `u128` under the stable ABI always takes three).
pub(crate) fn board<'py>(py: Python<'py>, value: u128) -> Bound<'py, PyAny> {
    match u64::try_from(value) {
        Ok(small) => small.into_pyobject(py).map(Bound::into_any),
        Err(_) => value.into_pyobject(py).map(Bound::into_any),
    }
    .unwrap_or_else(|never| match never {})
}

/// The field a Python value names (None for None): the boundary where a number becomes
/// an engine [`engine::Field`].
fn field_or_none(value: &Bound<'_, PyAny>) -> PyResult<Option<engine::Field>> {
    if value.is_none() {
        return Ok(None);
    }
    let f: u8 = value.extract()?;
    match engine::Field::new(f) {
        Some(field) => Ok(Some(field)),
        None => Err(PyValueError::new_err(format!(
            "field index {f} outside 0..80"
        ))),
    }
}

/// The engine move of a move: a native move's own, a Python `pacru.Move` read attribute
/// by attribute; None for parts that make no move (`pacru.Move` refuses them: no list
/// holds such a move).
pub(crate) fn from_python(m: &Bound<'_, PyAny>) -> PyResult<Option<engine::Move>> {
    if let Ok(native) = m.cast::<PyMove>() {
        return Ok(Some(native.get().m));
    }
    let py = m.py();
    let mut relinquished: u128 = 0;
    for f in m.getattr(intern!(py, "relinquished"))?.try_iter()? {
        if let Some(f) = field_or_none(&f?)? {
            relinquished |= f.bit();
        }
    }
    Ok(engine::Move::from_parts(
        field_or_none(&m.getattr(intern!(py, "origin"))?)?,
        field_or_none(&m.getattr(intern!(py, "target"))?)?,
        m.getattr(intern!(py, "capture"))?.extract()?,
        m.getattr(intern!(py, "twist"))?.extract()?,
        m.getattr(intern!(py, "turn"))?.extract()?,
        m.getattr(intern!(py, "connection"))?.extract()?,
        field_or_none(&m.getattr(intern!(py, "marker"))?)?,
        field_or_none(&m.getattr(intern!(py, "meeting"))?)?,
        relinquished,
    ))
}

/// A chevron position with its rules, as the engine holds it: what the batch layer
/// (`random_rollouts`, `Batch`) starts from (`pacru.chevron.native.position`).
#[pyclass(frozen, module = "pacru._native", name = "Position")]
pub(crate) struct PyPosition {
    pub(crate) rules: engine::Rules,
    pub(crate) pos: engine::Position,
}

impl PyPosition {
    /// The position `pos` under `rules`.
    pub(crate) fn of(rules: engine::Rules, pos: engine::Position) -> PyPosition {
        PyPosition { rules, pos }
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
        move_cap: Option<u64>,
        idle_rounds: u64,
        markers: Bound<'_, PyTuple>,
        chevrons: Bound<'_, PyTuple>,
        to_move: u8,
        out: u8,
        trigger: i8,
        idle: u64,
        ply: u64,
        termination: Option<&str>,
        winners: u8,
    ) -> PyResult<Self> {
        let py = markers.py();
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
        .map_err(|e| errors::to_py(py, e))?;
        Ok(PyPosition { rules, pos })
    }

    /// The number of move sequences of `depth` plies.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        py.detach(|| engine::perft(&self.rules, &self.pos, depth))
    }

    /// The markers per seat.
    #[getter]
    fn markers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let n = usize::from(self.pos.players);
        PyTuple::new(py, self.pos.markers.iter().take(n).map(|&m| board(py, m)))
    }

    /// The chevron codes per seat.
    #[getter]
    fn chevrons<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let n = usize::from(self.pos.players);
        let seats = self
            .pos
            .chevrons
            .iter()
            .take(n)
            .map(|seat| PyTuple::new(py, seat.iter().collect::<Vec<_>>()))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, seats)
    }

    /// The rule options (game, meeting rule, move cap, idle rounds), as `ChevronState`
    /// pickles them.
    #[getter]
    fn options(&self) -> (&'static str, &'static str, Option<u64>, u64) {
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
            self.markers(py)?,
            self.chevrons(py)?,
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
    m.add_function(wrap_pyfunction!(rollouts::random_rollouts, m)?)?;
    search::register(m)?;
    m.add_class::<PyPosition>()?;
    m.add_class::<state::State>()?;
    m.add_class::<vector::Batch>()?;
    m.add_class::<lsd::LsdBatch>()?;
    m.add_class::<lsd_state::LsdRules>()?;
    m.add_class::<lsd_state::LsdPosition>()?;
    m.add_class::<lsd_state::LsdMoves>()?;
    m.add_class::<Moves>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<moves::StepFamily>()?;
    m.add_class::<moves::ReorientationFamily>()?;
    m.add_class::<moves::FamilyIter>()?;
    m.add_function(wrap_pyfunction!(moves::use_python_types, m)?)?;
    m.add_class::<decisions::DecisionLayout>()?;
    m.add_class::<decisions::NativeDecision>()?;
    m.add_class::<MovesIter>()?;
    Ok(())
}
