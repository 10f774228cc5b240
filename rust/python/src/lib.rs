//! `pacru._native`: the chevron engine `pacru_engine` as a Python extension module.
//!
//! Safe PyO3 on the stable ABI (`abi3-py311`) only: no object memory is read or written,
//! no type is built by hand, and no Python object of pacru's is kept in a static. The
//! Python side is `pacru.chevron.native`, reached through the engine boundary
//! `pacru.chevron.engine`:
//!
//! * `Position`: a chevron position with its rules, as the engine holds it (a
//!   `ChevronState` keeps one in its `_pos` slot); `Position.apply` gives the parts of the
//!   next state, from which `pacru.chevron.resolve.successor` builds it;
//! * `NativeLegalMoves` (`moves`): the move list, a `pacru.LegalMoves` by registration;
//!   its moves are `pacru.Move` values taken from the move table the caller hands to
//!   `Position.legal_moves` (a dict that builds a missing move);
//! * `random_rollouts` and `Batch` (`rollouts`, `vector`): whole games in the engine.
//!
//! Engine errors are typed (`pacru_engine::EngineError`) and become `pacru`'s exceptions
//! in one place (`errors`). No code path panics on any input.

#![forbid(unsafe_code)]

mod decisions;
mod errors;
mod moves;
mod rollouts;
mod search;
mod vector;

use std::sync::OnceLock;

use pacru_engine as engine;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;

use moves::{Moves, MovesIter};

/// The chevron games, by their Python names.
const GAMES: [&str; 4] = ["lilacru", "shacru", "azacru", "pacru"];
/// The games whose native engine agrees with the Python engine over the differential
/// suite (tests/native): `pacru.ENGINE` is "native" only when that is every game.
const VERIFIED: &[&str] = &GAMES;

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

/// A board as a Python int: one call for the common board below 2^64 (pyo3's conversion of a
/// `u128` under the stable ABI always takes three).
fn board<'py>(py: Python<'py>, value: u128) -> Bound<'py, PyAny> {
    match u64::try_from(value) {
        Ok(small) => small.into_pyobject(py).map(Bound::into_any),
        Err(_) => value.into_pyobject(py).map(Bound::into_any),
    }
    .unwrap_or_else(|never| match never {})
}

/// The `pacru.Move` of an engine move: `table[key]`, the table building a missing one.
/// The key is the int `move_key(m)`, or for a reorientation the tuple of that int and
/// the relinquished fields (what `pacru.chevron.native.MoveTable` decodes).
pub(crate) fn to_python<'py>(
    table: &Bound<'py, PyAny>,
    m: &engine::Move,
) -> PyResult<Bound<'py, PyAny>> {
    let key = move_key(m);
    if m.relinquished == 0 {
        return table.get_item(key);
    }
    let py = table.py();
    let ints = code_ints(py);
    let mut fields = Vec::with_capacity(m.relinquished.count_ones() as usize);
    let mut rest = m.relinquished;
    while rest != 0 {
        fields.push(ints[rest.trailing_zeros() as usize].bind(py));
        rest &= rest - 1;
    }
    table.get_item((key, PyTuple::new(py, fields)?))
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
pub(crate) fn from_python(m: &Bound<'_, PyAny>) -> PyResult<engine::Move> {
    let py = m.py();
    let mut relinquished: u128 = 0;
    for f in m.getattr(intern!(py, "relinquished"))?.try_iter()? {
        if let Some(f) = field_or_none(&f?)? {
            relinquished |= 1u128 << f;
        }
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

/// A chevron position with its rules, as the engine holds it.
#[pyclass(frozen, module = "pacru._native", name = "Position")]
pub(crate) struct PyPosition {
    pub(crate) rules: engine::Rules,
    pub(crate) pos: engine::Position,
    /// The Python tuples of the state's markers and chevrons: the next state reuses the
    /// entries of the seats a move leaves alone (a 128-bit int is slow to make).
    markers: Py<PyTuple>,
    chevrons: Py<PyTuple>,
    /// The occupied fields as a Python int, reused while no chevron moves.
    occupied: Py<PyAny>,
}

/// The parts of the state after a move, as `Position.apply` returns them: the position,
/// markers, chevrons, seat to move, occupied fields, out, trigger, idle, termination
/// value (None while the game goes on) and winners bitmask.
type Parts<'py> = (
    Bound<'py, PyPosition>,
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    u8,
    Bound<'py, PyAny>,
    u8,
    i8,
    u64,
    Option<&'static str>,
    u8,
);

impl PyPosition {
    /// The parts of the state whose position is `next`, a successor of this one.
    pub(crate) fn parts<'py>(
        &self,
        py: Python<'py>,
        next: engine::Position,
    ) -> PyResult<Parts<'py>> {
        let (markers, chevrons) = self.tuples(py, &next)?;
        let occupied = board_after(self.occupied.bind(py), self.pos.occupied(), next.occupied())?;
        let (to_move, out, trigger, idle) = (next.to_move, next.out, next.trigger, next.idle);
        let (termination, winners) = match next.outcome {
            Some(o) => (Some(o.termination.value()), o.winners),
            None => (None, 0),
        };
        let pos = Bound::new(
            py,
            PyPosition {
                rules: self.rules,
                pos: next,
                markers: markers.clone().unbind(),
                chevrons: chevrons.clone().unbind(),
                occupied: occupied.clone().unbind(),
            },
        )?;
        Ok((
            pos,
            markers,
            chevrons,
            to_move,
            occupied,
            out,
            trigger,
            idle,
            termination,
            winners,
        ))
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
            let items = (0..players)
                .map(|i| {
                    let before = old.get_item(i)?;
                    if next.markers[i] == self.pos.markers[i] {
                        Ok(before)
                    } else {
                        board_after(&before, self.pos.markers[i], next.markers[i])
                    }
                })
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, items)?
        };
        let chevrons = if next.chevrons.get(..players) == self.pos.chevrons.get(..players) {
            self.chevrons.bind(py).clone()
        } else {
            let old = self.chevrons.bind(py);
            let ints = code_ints(py);
            let items = (0..players)
                .map(|i| {
                    let seat = &next.chevrons[i];
                    if *seat == self.pos.chevrons[i] {
                        return old.get_item(i);
                    }
                    let codes: Vec<_> =
                        seat.iter().map(|c| ints[usize::from(c)].bind(py)).collect();
                    PyTuple::new(py, codes).map(Bound::into_any)
                })
                .collect::<PyResult<Vec<_>>>()?;
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
        Ok(PyPosition {
            rules,
            occupied: board(py, pos.occupied()).unbind(),
            pos,
            markers: markers.unbind(),
            chevrons: chevrons.unbind(),
        })
    }

    /// The legal moves of the player to move, a `NativeLegalMoves` whose moves come from
    /// `table` (`table[key]`, see `pacru.chevron.native.MoveTable`).
    fn legal_moves<'py>(
        slf: &Bound<'py, Self>,
        table: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Moves>> {
        Bound::new(slf.py(), Moves::of(slf, table))
    }

    /// The parts of the state after `move` (see `Parts`): the move `moves` (this
    /// position's list, or None) handed out last is applied as decoded, any other is
    /// checked by the engine. Engine errors become `pacru` exceptions (`errors`).
    fn apply<'py>(
        slf: &Bound<'py, Self>,
        r#move: &Bound<'py, PyAny>,
        moves: Option<&Bound<'py, Moves>>,
    ) -> PyResult<Parts<'py>> {
        let move_ = r#move;
        let py = slf.py();
        let me = slf.get();
        let issued = moves.and_then(|list| list.get().issued_move(move_));
        let next = match (moves, issued) {
            (Some(list), Some((_, m))) => {
                let mut next = me.pos.clone();
                list.get()
                    .list()
                    .resolve_listed_into(&m, &mut next)
                    .map_err(|e| errors::to_py(py, e))?;
                next
            }
            _ => engine::apply(&me.rules, &me.pos, &from_python(move_)?)
                .map_err(|e| errors::to_py(py, e))?,
        };
        me.parts(py, next)
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
    m.add_function(wrap_pyfunction!(rollouts::random_rollouts, m)?)?;
    search::register(m)?;
    m.add_class::<PyPosition>()?;
    m.add_class::<vector::Batch>()?;
    m.add_class::<Moves>()?;
    m.add_class::<decisions::DecisionLayout>()?;
    m.add_class::<decisions::NativeDecision>()?;
    m.add_class::<MovesIter>()?;
    Ok(())
}
