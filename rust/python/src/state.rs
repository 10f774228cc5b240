//! `State`: the native engine's game state, the base of `pacru.chevron.native.NativeChevronState`.
//!
//! A frozen object that owns the engine's rules and position and serves the state's fields
//! from them: the counters as plain getters, the markers, chevrons and occupied fields
//! built when first read and kept (`PyOnceLock`), the outcome as the engine's parts (the
//! Python subclass makes and keeps its `pacru.Outcome`). It carries the Python objects
//! it was made with (the rule object, the players and the class of its successors) on to
//! its successors, shared with them (`Carried`). `legal_moves()` and `apply_move()` are
//! its own methods: a ply crosses the language boundary once for the list and once for
//! the move.
//!
//! A successor is made by calling its class (`pacru.chevron.native.NativeChevronState`, a
//! Python subclass adding the shared methods of `pacru.ChevronState`): the class's
//! `__new__` is this class's, and takes what the caller left in this thread's hand-over
//! cell (`handover`: what it carries on, its position and the move), so that no argument
//! is built or parsed per ply.

use std::sync::Arc;

use pacru_engine as engine;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

mod arguments;
mod handover;

use handover::handed_over;

use crate::moves::{frozen, is_move, parse_text, Moves, PyMove};
use crate::PyPosition;
use crate::{
    board, code_ints, errors, from_python, game_of, kept, meeting_rule_of, termination_of,
};

/// What a state carries on to its successors unchanged, shared by all of them: one count
/// to keep a ply instead of a Python reference each.
struct Carried {
    rules: engine::Rules,
    /// The `pacru.chevron.rules.Rules` object and the tuple of colours.
    py_rules: Py<PyAny>,
    players: Py<PyTuple>,
    /// The class of the successors: the engine's concrete class.
    class: Py<PyType>,
}

/// The native engine's game state (see the module docs).
#[pyclass(frozen, subclass, weakref, module = "pacru._native", name = "State")]
pub(crate) struct State {
    /// Boxed, so that the state moves as a few words (through the hand-over and into its
    /// object) while its position is written once, where the engine resolves the move.
    pos: Box<engine::Position>,
    /// The rules, the rule object, the players and the successors' class.
    carried: Arc<Carried>,
    /// The move that produced this state, or None.
    last: Option<Py<PyAny>>,
    moves: PyOnceLock<Py<Moves>>,
    markers: PyOnceLock<Py<PyTuple>>,
    chevrons: PyOnceLock<Py<PyTuple>>,
    occupied: PyOnceLock<Py<PyAny>>,
    outcome: PyOnceLock<Py<PyAny>>,
}

/// The class whose successors a state of class `cls` makes: the class just below `State`
/// in `cls.__mro__` (a user's subclass of the engine's class gets the engine's class).
fn successor_class<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyType>> {
    let py = cls.py();
    let base = py.get_type::<State>();
    let mro = cls.getattr(intern!(py, "__mro__"))?;
    let mut below = cls.clone();
    for entry in mro.try_iter()? {
        let entry = entry?.cast_into::<PyType>()?;
        if entry.is(&base) {
            return Ok(below);
        }
        below = entry;
    }
    Ok(cls.clone())
}

/// The seats' bitmask of the winners in `outcome` (a `pacru.Outcome`) among `players`.
fn winners_of(players: &Bound<'_, PyTuple>, outcome: &Bound<'_, PyAny>) -> PyResult<u8> {
    let py = players.py();
    let winners = outcome.getattr(intern!(py, "winners"))?;
    let mut mask = 0u8;
    for (i, p) in players.iter().enumerate().take(8) {
        if winners.contains(p)? {
            mask |= 1 << i;
        }
    }
    Ok(mask)
}

/// `value` unless it is None.
fn given<'a, 'py>(value: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    value.filter(|x| !x.is_none())
}

/// `InvalidPositionError` for a count or seat no engine holds, as the Python engine's
/// readers word it.
fn out_of_range(py: Python<'_>) -> PyErr {
    errors::to_py(py, engine::PositionError::OutOfRange.into())
}

/// An int argument, as `operator.index` reads it (PyO3's extraction takes any integer type
/// through `__index__`); an int outside `T` is out of range.
fn index_arg<'py, T>(value: &Bound<'py, PyAny>) -> PyResult<T>
where
    T: for<'a> FromPyObject<'a, 'py>,
    for<'a> <T as FromPyObject<'a, 'py>>::Error: Into<PyErr>,
{
    let py = value.py();
    value.extract::<T>().map_err(|e| {
        let e: PyErr = e.into();
        if e.is_instance_of::<PyOverflowError>(py) {
            out_of_range(py)
        } else {
            e
        }
    })
}

/// The position after `m`, a move of `list`, written in its box.
fn resolved(
    py: Python<'_>,
    list: &engine::MoveList,
    m: &engine::Move,
) -> PyResult<Box<engine::Position>> {
    list.resolve_listed_boxed(m)
        .map_err(|e| errors::to_py(py, e))
}

impl State {
    /// The state of position `next`, reached by `last`: an object of the successor class
    /// of `slf`.
    fn successor<'py>(
        slf: &Bound<'py, Self>,
        next: Box<engine::Position>,
        last: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.get();
        let carried = Arc::clone(&me.carried);
        handover::made(me.carried.class.bind(slf.py()), carried, next, last)
    }

    /// A state from its values (`State.__new__`'s body, its arguments bound; with no
    /// rules, the successor handed over).
    #[allow(clippy::too_many_arguments)]
    fn of_values(
        cls: &Bound<'_, PyType>,
        rules: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        markers: Option<&Bound<'_, PyAny>>,
        chevrons: Option<&Bound<'_, PyAny>>,
        to_move: Option<&Bound<'_, PyAny>>,
        out: Option<&Bound<'_, PyAny>>,
        trigger: Option<&Bound<'_, PyAny>>,
        idle: Option<&Bound<'_, PyAny>>,
        ply: Option<&Bound<'_, PyAny>>,
        outcome: Option<&Bound<'_, PyAny>>,
        occupied: Option<&Bound<'_, PyAny>>,
        last: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<State> {
        let py = cls.py();
        let _ = occupied; // derived from the chevrons
        let Some(rules) = rules else {
            return handed_over();
        };
        let (Some(players), Some(markers), Some(chevrons), Some(to_move)) =
            (players, markers, chevrons, to_move)
        else {
            return Err(PyTypeError::new_err(
                "a state needs rules, players, markers, chevrons and to_move",
            ));
        };
        let players = players.cast::<PyTuple>()?.clone();
        let game: String = rules.getattr(intern!(py, "game"))?.extract()?;
        let meeting: String = rules.getattr(intern!(py, "meeting_rule"))?.extract()?;
        let move_cap = rules.getattr(intern!(py, "move_cap"))?;
        let engine_rules = engine::Rules {
            game: game_of(&game)?,
            meeting_rule: meeting_rule_of(&meeting)?,
            move_cap: if move_cap.is_none() {
                None
            } else {
                Some(index_arg(&move_cap)?)
            },
            idle_rounds: index_arg(&rules.getattr(intern!(py, "idle_rounds"))?)?,
        };
        let (termination, winners) = match outcome {
            Some(o) if !o.is_none() => {
                let value: String = o
                    .getattr(intern!(py, "termination"))?
                    .getattr(intern!(py, "value"))?
                    .extract()?;
                (Some(termination_of(&value)?), winners_of(&players, o)?)
            }
            _ => (None, 0),
        };
        let mut boards = Vec::new();
        for m in markers.try_iter()? {
            boards.push(index_arg::<u128>(&m?)?);
        }
        let mut seats: Vec<Vec<u16>> = Vec::new();
        for codes in chevrons.try_iter()? {
            let mut seat = Vec::new();
            for c in codes?.try_iter()? {
                seat.push(index_arg::<u16>(&c?)?);
            }
            seats.push(seat);
        }
        let count = u8::try_from(boards.len()).map_err(|_| out_of_range(py))?;
        let codes: Vec<&[u16]> = seats.iter().map(Vec::as_slice).collect();
        let pos = engine::Position::new(
            count,
            &boards,
            &codes,
            index_arg(to_move)?,
            given(out).map_or(Ok(0), index_arg)?,
            given(trigger).map_or(Ok(-1), index_arg)?,
            given(idle).map_or(Ok(0), index_arg)?,
            given(ply).map_or(Ok(0), index_arg)?,
            termination.map(|termination| engine::Outcome {
                termination,
                winners,
            }),
        )
        .map_err(|e| errors::to_py(py, e))?;
        if usize::from(pos.players) != players.len() {
            return Err(errors::to_py(
                py,
                engine::PositionError::PlayersDiffer.into(),
            ));
        }
        Ok(State {
            pos: Box::new(pos),
            carried: Arc::new(Carried {
                rules: engine_rules,
                py_rules: rules.clone().unbind(),
                players: players.unbind(),
                class: successor_class(cls)?.unbind(),
            }),
            last: given(last).map(|m| m.clone().unbind()),
            moves: PyOnceLock::new(),
            markers: PyOnceLock::new(),
            chevrons: PyOnceLock::new(),
            occupied: PyOnceLock::new(),
            outcome: PyOnceLock::new(),
        })
    }

    /// Nothing when `m` is legal in this state (`list` is its legal moves), else its
    /// error: the rule it breaks as the engine names it ([`engine::check`]), or the end of
    /// the game; `text` is the move as the caller wrote it (None: the move's own text).
    fn check(
        &self,
        py: Python<'_>,
        list: &engine::MoveList,
        m: &engine::Move,
        text: Option<&str>,
    ) -> PyResult<()> {
        engine::check(list, m).map_err(|illegal| {
            let written = text.map_or_else(|| m.to_string(), str::to_owned);
            errors::refused(py, &illegal, self.carried.players.bind(py), &written)
        })
    }

    /// The list of this state, made on first use (what `legal_moves()` gives; for the
    /// native decisions too).
    pub(crate) fn moves_of<'a, 'py>(slf: &'a Bound<'py, Self>) -> PyResult<&'a Bound<'py, Moves>> {
        let py = slf.py();
        let me = slf.get();
        let moves = kept(py, &me.moves, || {
            Py::new(py, Moves::of(&me.carried.rules, &me.pos))
        })?;
        // The cell lives as long as the state.
        Ok(moves.bind(py))
    }
}

#[pymethods]
impl State {
    /// A state from its values (see `pacru.ChevronState`); with no argument, the successor
    /// that `apply_move` handed over. The arguments are bound by [`arguments::bind`].
    #[new]
    #[classmethod]
    #[pyo3(signature = (*args, **kwargs),
           text_signature = "($cls, rules=None, players=None, markers=None, chevrons=None, \
                             to_move=None, out=None, trigger=None, idle=None, ply=None, \
                             outcome=None, occupied=None, last=None)")]
    fn new(
        cls: &Bound<'_, PyType>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<State> {
        if arguments::none_given(args, kwargs) {
            return handed_over();
        }
        let [rules, players, markers, chevrons, to_move, out, trigger, idle, ply, outcome, occupied, last] =
            arguments::bind(args, kwargs)?;
        State::of_values(
            cls,
            rules.as_ref(),
            players.as_ref(),
            markers.as_ref(),
            chevrons.as_ref(),
            to_move.as_ref(),
            out.as_ref(),
            trigger.as_ref(),
            idle.as_ref(),
            ply.as_ref(),
            outcome.as_ref(),
            occupied.as_ref(),
            last.as_ref(),
        )
    }

    /// The game and its options (:class:`pacru.chevron.rules.Rules`).
    #[getter]
    fn rules(&self, py: Python<'_>) -> Py<PyAny> {
        self.carried.py_rules.clone_ref(py)
    }

    /// Colour names in turn order.
    #[getter]
    fn players(&self, py: Python<'_>) -> Py<PyTuple> {
        self.carried.players.clone_ref(py)
    }

    /// Per player (turn order), a bitboard of the fields with their marker.
    #[getter]
    fn markers(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let n = usize::from(self.pos.players);
        kept(py, &self.markers, || {
            let boards = self.pos.markers.iter().take(n).map(|&m| board(py, m));
            PyTuple::new(py, boards).map(Bound::unbind)
        })
        .map(|t| t.clone_ref(py))
    }

    /// Per player, the sorted codes ``field * 8 + facing`` of their chevrons.
    #[getter]
    fn chevrons(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let n = usize::from(self.pos.players);
        kept(py, &self.chevrons, || {
            let ints = code_ints(py);
            let seats = self
                .pos
                .chevrons
                .iter()
                .take(n)
                .map(|seat| {
                    let codes: Vec<_> =
                        seat.iter().map(|c| ints[usize::from(c)].bind(py)).collect();
                    PyTuple::new(py, codes)
                })
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, seats).map(Bound::unbind)
        })
        .map(|t| t.clone_ref(py))
    }

    /// The bitboard of the fields a chevron stands on.
    #[getter]
    fn occupied(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        kept(py, &self.occupied, || {
            Ok(board(py, self.pos.occupied()).unbind())
        })
        .map(|o| o.clone_ref(py))
    }

    /// The index in ``players`` of the player to move (of the winner or last mover once the
    /// game is over).
    #[getter]
    fn to_move(&self) -> u8 {
        self.pos.to_move
    }

    /// Pacru: bit ``i`` set when ``players[i]`` is eliminated {R15}.
    #[getter]
    fn out(&self) -> u8 {
        self.pos.out
    }

    /// Azacru: index of the player whose pass triggered the end, -1 before {A-R10}.
    #[getter]
    fn trigger(&self) -> i8 {
        self.pos.trigger
    }

    /// Lilacru/Shacru: plies since a field was last acquired (D33).
    #[getter]
    fn idle(&self) -> u64 {
        self.pos.idle
    }

    /// Plies played since the start of the game.
    #[getter]
    fn ply(&self) -> u64 {
        self.pos.ply
    }

    // `pacru.GameState.is_terminal`, read here without building the outcome.
    /// True once the game is over.
    #[getter]
    fn is_terminal(&self) -> bool {
        self.pos.outcome.is_some()
    }

    /// How the game ended, as the engine holds it: `(termination value, bitmask of the
    /// winning seats)`, or None while it goes on. `NativeChevronState.outcome` makes the
    /// `pacru.Outcome` of it, so that the extension builds no Python object of pacru's.
    #[getter]
    fn _outcome_parts(&self) -> Option<(&'static str, u8)> {
        self.pos.outcome.map(|o| (o.termination.value(), o.winners))
    }

    /// The outcome this state keeps: `made` the first time (the `pacru.Outcome` of
    /// `_outcome_parts`), the one kept then afterwards, so that every read gives one object.
    fn _keep_outcome(&self, py: Python<'_>, made: Py<PyAny>) -> PyResult<Py<PyAny>> {
        kept(py, &self.outcome, || Ok(made)).map(|o| o.clone_ref(py))
    }

    /// The outcome kept by `_keep_outcome`, or None before.
    #[getter]
    fn _kept_outcome(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.outcome.get(py).map(|o| o.clone_ref(py))
    }

    /// The move that produced this state; None at the start or for a loaded position.
    #[getter]
    fn _last(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.last.as_ref().map(|m| m.clone_ref(py))
    }

    /// The cached list, or None before ``legal_moves()`` was first called.
    #[getter]
    fn _moves(&self, py: Python<'_>) -> Option<Py<Moves>> {
        self.moves.get(py).map(|m| m.clone_ref(py))
    }

    /// Every complete legal move, in the documented order (:mod:`pacru.chevron.movelist`).
    ///
    /// Each twist choice, connection-or-crossing choice, marker field, meeting
    /// field and set of relinquished fields is its own move. Empty once the
    /// game is over; only ``pass`` for a Lilacru/Shacru/Azacru player who
    /// cannot move {S-R2, A-R10, D34}. Computed once per state, then cached.
    #[pyo3(text_signature = "($self)")]
    fn legal_moves<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Moves>> {
        State::moves_of(slf).cloned()
    }

    /// The state after ``move``; this state is not changed.
    ///
    /// The move does all that its game's rules say (Lilacru L1 to L7, Shacru
    /// S-R1 to S-R6, Azacru A-R1 to A-R10, Pacru R1 to R16): markers placed,
    /// twists, connections, pincers, meetings, eliminations; then the turn
    /// passes and the end of the game is decided (:attr:`outcome`). The new
    /// state is of the same engine as this one.
    ///
    /// Args:
    ///     move: a :class:`Move` or its text, e.g. ``"e4-e6"``, ``"g9-e7+d9"``
    ///         (one of :meth:`legal_moves`; text as :meth:`parse_move` reads it).
    ///
    /// Raises:
    ///     NotationError: unparseable move text.
    ///     IllegalMoveError: the move is not legal here; the message names the
    ///         rule that forbids it (``err.rule``, ``err.reason``).
    ///     GameOverError: the game is over.
    ///     TypeError: ``move`` is neither a :class:`Move` nor a ``str``.
    #[pyo3(text_signature = "($self, move)")]
    fn apply_move<'py>(
        slf: &Bound<'py, Self>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        if let Some(list) = me.moves.get(py) {
            let list = list.get();
            if let Some((_, m)) = list.issued_move(r#move) {
                // The move this state's own list handed out last: legal as decoded (the
                // bot's hot path, rng.choice(state.legal_moves())).
                let next = resolved(py, list.list(), &m)?;
                return State::successor(slf, next, r#move);
            }
        }
        let text = r#move.is_instance_of::<PyString>();
        let move_ = if text {
            // Read by the engine's reader, with `Move.parse`'s errors.
            PyMove::object(py, parse_text(r#move)?)?.into_any()
        } else {
            if !is_move(r#move)? {
                return Err(PyTypeError::new_err(format!(
                    "apply_move takes a Move or a string, not {}",
                    r#move.get_type().name()?
                )));
            }
            r#move.clone()
        };
        let moves = State::moves_of(slf)?.get();
        let wanted = from_python(&move_)?;
        let found = wanted.and_then(|w| moves.list().index_of(&w));
        let Some(m) = found.and_then(|i| moves.list().get(i)) else {
            // Refused: the engine names the rule (the error path only, no Python rules),
            // writing a text as it was given.
            let given = r#move.cast::<PyString>().ok();
            let written = given.as_ref().and_then(|t| t.to_str().ok());
            return Err(match wanted {
                Some(w) => match me.check(py, moves.list(), &w, written) {
                    Err(refused) => refused,
                    // Not listed, yet no rule against it: the engine's defensive refusal.
                    Ok(()) => errors::to_py(
                        py,
                        engine::EngineError::IllegalMove(w, engine::Refusal::NotListed),
                    ),
                },
                None => errors::illegal(py, &format!("{} is not legal here", move_.str()?)),
            });
        };
        let next = resolved(py, moves.list(), &m)?;
        State::successor(slf, next, &move_)
    }

    /// Nothing when ``move`` (a :class:`Move`) is legal here, else its error: the rule it
    /// breaks (``IllegalMoveError``), named by the engine, or ``GameOverError``; ``text``
    /// is the move as written (None: ``str(move)``). The native engine's
    /// ``ChevronState._check`` (``parse_move`` and SAN call it).
    #[pyo3(signature = (r#move, text=None))]
    fn _check(
        slf: &Bound<'_, Self>,
        r#move: &Bound<'_, PyAny>,
        text: Option<&str>,
    ) -> PyResult<()> {
        let py = slf.py();
        let me = slf.get();
        let list = State::moves_of(slf)?.get().list();
        let Some(m) = from_python(r#move)? else {
            // Parts no `pacru.Move` holds: no move of any list.
            return Err(errors::illegal(
                py,
                &format!("{} is not legal here", r#move.str()?),
            ));
        };
        me.check(py, list, &m, text)
    }

    /// This state's position as the engine's ``Position`` (for the batch layer).
    fn _position(&self) -> PyPosition {
        PyPosition::of(self.carried.rules, self.pos.as_ref().clone())
    }

    fn __setattr__(
        &self,
        py: Python<'_>,
        _name: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        Err(frozen(py))
    }

    fn __delattr__(&self, py: Python<'_>, _name: &Bound<'_, PyAny>) -> PyResult<()> {
        Err(frozen(py))
    }
}
