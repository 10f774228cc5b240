//! The decisions of `pacru.encoding`'s chevron layout on the native engine.
//!
//! A `NativeDecision` is one decision of a chevron move, worked out by
//! `pacru_batch::decision` (the code of `pacru.vector`'s native loop) on the position's own
//! native move list. It is a frozen object that owns its decision state (a
//! `pacru_batch::decision::Game`: a few words and the shared list), so `choose` copies it,
//! takes the action and wraps the result; no decision is kept anywhere else. The class
//! has the fields and methods of `pacru.encoding.Decision`, whose virtual subclass
//! `pacru.encoding._native` registers it as.
//!
//! It calls nothing of Python's: it reads the state as the `State` it is, refuses an
//! action with the errors of `Encoding._checked_action` (the Python decisions' check: the
//! same classes and messages, made by [`refusal`], the one place that makes a Python
//! object by calling it: the error's class) and makes its action mask through numpy's C
//! API (the `numpy` crate: no numpy function is called; numpy is imported on the first
//! mask). The only Python it runs besides is the user's: the `__index__`, `__str__` and
//! `__repr__` of an action it refuses, through the C API.
//!
//! It checks the state `ChevronEncoding.start` hands it (`DecisionLayout::start`: the
//! engine's own state class and the encoding's rules, as the engine holds them), so that
//! the Python method is one call of it and nothing else on nearly every move.
//!
//! Its edge to the rest of the crate is small, so that it does not depend on how the
//! state and its list are made: [`native_moves`] finds a state's native list
//! (`State::moves_of`, what `legal_moves()` gives), and a decision uses two calls of that
//! list, `Moves::list` (the engine's `MoveList`) and `Moves::issue_move` (the finished
//! decision's move, handed out as the list hands out its moves, so that `apply_move`
//! takes it without a check).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use numpy::PyArray1;
use pacru_batch::decision::{Actions, DecisionError, Game, Layout, Stage, NUM_ACTIONS};
use pacru_engine::Rules;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyInt, PyString, PyTuple, PyType};

use crate::moves::Moves;
use crate::state::State;

mod refusal;

/// The error of a decision the engine could not take: `ValueError` for an action that is
/// not legal (`choose` checks first, so only a direct call of this module meets it),
/// `RuntimeError` for a move list that does not hold what its bounds promise.
pub(crate) fn decision_error(err: DecisionError) -> PyErr {
    match err {
        DecisionError::IllegalAction(_) => PyValueError::new_err(err.to_string()),
        DecisionError::NoFamily | DecisionError::NotListed => {
            PyRuntimeError::new_err(format!("pacru engine: {err}"))
        }
    }
}

/// `f()`, with a panic (a bug) as a `RuntimeError` instead of PyO3's `PanicException`.
fn no_panic<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(PyRuntimeError::new_err(
            "pacru engine: internal error (a panic) in a decision",
        ))
    })
}

/// The native move list of `state`, or None when `state` is not a native `State` (a
/// state of the Python engine: its decisions are the Python ones).
///
/// The one place that reads a state here: the list `State.legal_moves()` gives (made and
/// kept by the state on first use), read without calling the method.
fn native_moves<'py>(state: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, Moves>>> {
    match state.cast::<State>() {
        Ok(state) => State::moves_of(state).map(|moves| Some(moves.clone())),
        Err(_) => Ok(None),
    }
}

/// The fixed parts of one encoding: its game, player count, scales, rules and the
/// engine's state class.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct DecisionLayout {
    players: u8,
    /// The layout of its encoding's decisions, with the encoding's rules as the engine
    /// holds them (None: options no native state has, so that no state is decided here);
    /// a decision reads it here, through its encoding, for its observation.
    layout: Option<Layout>,
    /// The engine's own state class (`NativeChevronState`): `start` takes its states, not
    /// a user's subclass (which may change what the encoding checks).
    class: Py<PyType>,
}

/// The engine's rules of game `game_index` with these options, or None for options out
/// of the engine's range (no native state has them).
fn engine_rules(
    game_index: u8,
    meeting_rule: &Bound<'_, PyAny>,
    move_cap: &Bound<'_, PyAny>,
    idle_rounds: &Bound<'_, PyAny>,
) -> Option<Rules> {
    let game = crate::game_of(crate::GAMES.get(usize::from(game_index))?).ok()?;
    let meeting: String = meeting_rule.extract().ok()?;
    let move_cap = if move_cap.is_none() {
        None
    } else {
        Some(move_cap.extract::<u64>().ok()?)
    };
    Some(Rules {
        game,
        meeting_rule: crate::meeting_rule_of(&meeting).ok()?,
        move_cap,
        idle_rounds: idle_rounds.extract::<u64>().ok()?,
    })
}

#[pymethods]
impl DecisionLayout {
    /// The layout of the encoding of game `game_index` (0..3: Lilacru, Shacru, Azacru,
    /// Pacru) for `players` players, with its ply and idle scales, its Pacru supply {R1}
    /// (0 for the other games), the engine's state class `state_class` and the options
    /// of its rules (`pacru.chevron.rules.Rules`'s `meeting_rule`, `move_cap` and
    /// `idle_rounds`; options out of the engine's range take no native state).
    ///
    /// Raises `ValueError` for a game index past the chevron games or a player count
    /// other than 2, 3 or 4.
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        players: u8,
        game_index: u8,
        ply_scale: f64,
        idle_scale: f64,
        supply: u32,
        state_class: Bound<'_, PyType>,
        meeting_rule: &Bound<'_, PyAny>,
        move_cap: &Bound<'_, PyAny>,
        idle_rounds: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        if usize::from(game_index) >= crate::GAMES.len() || !(2..=4).contains(&players) {
            return Err(PyValueError::new_err(format!(
                "no chevron game {game_index} for {players} players"
            )));
        }
        let layout =
            engine_rules(game_index, meeting_rule, move_cap, idle_rounds).map(|rules| Layout {
                rules,
                players,
                game_index,
                ply_scale,
                idle_scale,
                supply,
            });
        Ok(DecisionLayout {
            players,
            layout,
            class: state_class.unbind(),
        })
    }

    /// The first decision of the player to move in `state` for `encoding`, or None where
    /// the native engine does not take it: `state` is not of the engine's own state class
    /// (a state of the Python engine, or a subclass: see `start_checked`), its rules are
    /// not the encoding's, its game is over or of another player count, or the player
    /// has no legal move. `ChevronEncoding.start` calls it first, with no check of its
    /// own: this is that check.
    fn start<'py>(
        &self,
        encoding: &Bound<'py, PyAny>,
        state: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, NativeDecision>>> {
        if !state.get_type().is(self.class.bind(state.py())) {
            return Ok(None);
        }
        self.start_checked(encoding, state)
    }

    /// As `start`, for a native `State` of any class (a subclass of the engine's, which
    /// the caller checked as `Encoding.start` checks a state), or None.
    fn start_checked<'py>(
        &self,
        encoding: &Bound<'py, PyAny>,
        state: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, NativeDecision>>> {
        match native_moves(state)? {
            Some(moves) => self.start_on(encoding, state, &moves),
            None => Ok(None),
        }
    }
}

impl DecisionLayout {
    /// [`DecisionLayout::start`] on `moves`, the native list of `state`.
    fn start_on<'py>(
        &self,
        encoding: &Bound<'py, PyAny>,
        state: &Bound<'py, PyAny>,
        moves: &Bound<'py, Moves>,
    ) -> PyResult<Option<Bound<'py, NativeDecision>>> {
        let py = state.py();
        let list = moves.get().list();
        let pos = list.position();
        let Some(layout) = &self.layout else {
            return Ok(None);
        };
        if pos.outcome.is_some() || pos.players != self.players || layout.rules != list.rules() {
            return Ok(None);
        }
        let game = no_panic(|| Ok(Game::of_list(Arc::clone(list))))?;
        if game.legal.is_empty() {
            return Ok(None);
        }
        let parts = Parts {
            encoding: encoding.clone().unbind(),
            state: state.clone().unbind(),
        };
        NativeDecision::make(py, game, parts, None).map(Some)
    }
}

/// What every decision of one move has alike.
struct Parts {
    encoding: Py<PyAny>,
    state: Py<PyAny>,
}

/// A decision of the player to move in a chevron game, on the native engine: a
/// `pacru.encoding.Decision` (its virtual subclass), with the same fields and methods.
///
/// Made by `ChevronEncoding.start` and `choose`, never directly; immutable, compared by
/// identity.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct NativeDecision {
    /// The decision state, inside the object: a malloc and a free less per decision
    /// than a box (its own parts allocate nothing: a clone shares the list and the
    /// options, so only the object's allocation can fail, as `MemoryError`). It shares
    /// the list of the state's `Moves`, which `state` keeps.
    game: Game,
    /// The fields read most, as Python objects: served by the interpreter as slots.
    /// Every Python object a decision holds costs each decision a reference taken and
    /// given back, so those read less (`player`, `kind`) are made when read.
    /// The `Encoding` this decision belongs to.
    #[pyo3(get)]
    encoding: Py<PyAny>,
    /// The position the move is chosen in (unchanged until the move is applied).
    #[pyo3(get)]
    state: Py<PyAny>,
    /// The legal actions of this decision, ascending; empty once done.
    #[pyo3(get)]
    legal_actions: Py<PyTuple>,
    /// The complete move once `done`, else None.
    #[pyo3(get, name = "move")]
    move_: Py<PyAny>,
}

impl NativeDecision {
    /// The decision of `game` for `encoding` in `state`, whose move is `move_` once
    /// complete. Inlined: the decision state (two hundred bytes) is then written once
    /// into the new object rather than copied through a call (a few copies per decision
    /// cost as much as the allocation).
    #[inline(always)]
    fn make<'py>(
        py: Python<'py>,
        game: Game,
        parts: Parts,
        move_: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, NativeDecision>> {
        let legal_actions = if game.legal.is_empty() {
            PyTuple::empty(py)
        } else {
            actions_tuple(py, &game.legal)?
        };
        let Parts { encoding, state } = parts;
        Bound::new(
            py,
            NativeDecision {
                game,
                encoding,
                state,
                legal_actions: legal_actions.unbind(),
                move_: move_.unwrap_or_else(|| py.None()),
            },
        )
    }

    /// The decision after the legal `action`.
    #[inline(always)]
    fn after<'py>(&self, py: Python<'py>, action: u16) -> PyResult<Bound<'py, NativeDecision>> {
        let mut game = self.game.clone();
        let played = no_panic(|| game.step(action).map_err(decision_error))?;
        let move_ = match played {
            None => None,
            Some(at) => {
                let chosen = game.chosen_move().ok_or_else(|| {
                    PyRuntimeError::new_err("pacru engine: a finished decision has no move")
                })?;
                let moves = native_moves(self.state.bind(py))?.ok_or_else(|| {
                    PyRuntimeError::new_err("pacru engine: a decision's state is not native")
                })?;
                Some(moves.get().issue_move(py, at, chosen)?)
            }
        };
        let parts = Parts {
            encoding: self.encoding.clone_ref(py),
            state: self.state.clone_ref(py),
        };
        NativeDecision::make(py, game, parts, move_)
    }
}

#[pymethods]
impl NativeDecision {
    /// The actions chosen so far for this move, oldest first (forced decisions are taken
    /// automatically and do not appear); once `done` it equals
    /// `encoding.actions(state, move)`.
    #[getter]
    fn prefix<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        ints_tuple(py, self.game.prefix().iter().copied())
    }

    /// The seat index (in `state.players`) of the player deciding.
    #[getter]
    fn player(&self) -> u8 {
        self.game.pos().to_move
    }

    /// What is decided: `"origin"`, `"target"`, `"twist"`, `"benefit"`, `"meeting"`,
    /// `"relinquish"`, or `"done"` once the move is complete.
    #[getter]
    fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        kind_name(py, self.game.stage()).clone()
    }

    /// True once the move is complete (`move` is set, no action is left).
    #[getter]
    fn done(&self, py: Python<'_>) -> bool {
        !self.move_.is_none(py)
    }

    /// A new numpy bool array of length `encoding.num_actions`, True at the legal actions
    /// (writable, as the Python decisions' mask is).
    ///
    /// Made through numpy's C API (the `numpy` crate), not by calling a numpy function.
    /// Raises `ModuleNotFoundError` without numpy, as the Python decisions do.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        numpy_imported(py)?;
        let mut mask = vec![false; NUM_ACTIONS];
        for action in self.game.legal.iter() {
            if let Some(legal) = mask.get_mut(usize::from(action)) {
                *legal = true;
            }
        }
        Ok(PyArray1::from_vec(py, mask))
    }

    /// The decision after taking `action`; this one is unchanged.
    ///
    /// `action` is an `int` or any integer type `operator.index` accepts, taken as its
    /// `int` value. Raises `IllegalMoveError` as `Decision.choose` does: `action` is not
    /// one of `legal_actions` (reason `"illegal-action"`; a `bool`, float or other
    /// non-integer is never one), or the move is already complete (`"move-complete"`).
    fn choose<'py>(
        slf: &Bound<'py, Self>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, NativeDecision>> {
        let py = slf.py();
        let me = slf.get();
        // A complete move has no legal action: `legal` is empty then.
        let legal = if action.is_exact_instance_of::<PyInt>() {
            action
                .extract::<u16>()
                .ok()
                .filter(|&a| me.game.legal.contains(a))
        } else {
            None
        };
        let action = match legal {
            Some(action) => action,
            None => me.checked_action(action)?,
        };
        me.after(py, action)
    }

    /// `(stage, relinquished)`: the stage (0..6: origin, target, twist, benefit, meeting,
    /// relinquish, done) and how many fields given up by the reorientation are chosen so
    /// far {R14}; for `ChevronEncoding.action_to_choice`.
    fn _stage(&self) -> (u8, usize) {
        (self.game.stage() as u8, self.game.relinquished_count())
    }

    /// The observation planes seen by seat `player`: `planes * 81` float32 values
    /// (native-endian) in a new bytearray; for `ChevronEncoding.observation`.
    ///
    /// Raises `ValueError` when `player` is not a seat index.
    fn _observation<'py>(
        &self,
        py: Python<'py>,
        player: usize,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        // Read from the encoding (its `_native`), not kept by every decision: an atomic
        // count taken and given back per decision cost more than an observation's lookup.
        let encoding = self.encoding.bind(py);
        let native = encoding.getattr(intern!(py, "_native"))?;
        let layout = match native.cast::<DecisionLayout>() {
            Ok(native) => native.get().layout,
            Err(_) => None,
        };
        let layout = &layout.ok_or_else(|| {
            PyRuntimeError::new_err("pacru engine: a decision's encoding has no native layout")
        })?;
        if player >= usize::from(layout.players) {
            return Err(PyValueError::new_err(format!(
                "player must be a seat index 0..{}, not {player}",
                layout.players - 1
            )));
        }
        let size = layout.planes() * 81 * 4;
        no_panic(|| {
            PyByteArray::new_with(py, size, |buf| {
                self.game.observation_of(layout, player, buf);
                Ok(())
            })
        })
    }

    /// An immutable value: a copy is the decision itself.
    fn __copy__(slf: &Bound<'_, Self>) -> Py<Self> {
        slf.clone().unbind()
    }

    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf.clone().unbind()
    }

    /// As `Decision.__repr__`: `<Decision origin player=0 prefix=[] legal=4 move=None>`.
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let prefix: Vec<String> = self.game.prefix().iter().map(u16::to_string).collect();
        Ok(format!(
            "<Decision {} player={} prefix=[{}] legal={} move={}>",
            kind_name(py, self.game.stage()),
            self.game.pos().to_move,
            prefix.join(", "),
            self.game.legal.len(),
            self.move_text(py)?,
        ))
    }
}

impl NativeDecision {
    /// `str(move)`: the engine's text of the chosen move (the notation `str(Move)`
    /// gives), `"None"` before the move is complete.
    fn move_text(&self, py: Python<'_>) -> PyResult<String> {
        if self.move_.is_none(py) {
            return Ok("None".to_owned());
        }
        match self.game.chosen_move() {
            Some(chosen) => Ok(chosen.to_string()),
            None => Err(PyRuntimeError::new_err(
                "pacru engine: a finished decision has no move",
            )),
        }
    }
}

/// Set once numpy is imported: the `numpy` crate reads numpy's C API from the module it
/// imports, and panics where numpy is missing, so the import is tried here first.
static NUMPY: PyOnceLock<()> = PyOnceLock::new();

/// Ok once numpy can be imported (`ModuleNotFoundError` without it; tried again on the
/// next call, as the Python decisions import it at each mask).
fn numpy_imported(py: Python<'_>) -> PyResult<()> {
    NUMPY
        .get_or_try_init(py, || py.import(intern!(py, "numpy")).map(drop))
        .copied()
}

/// The Python int of every action, made once: most actions are past CPython's cache of
/// small ints, and every decision lists its actions anew.
static ACTION_INTS: PyOnceLock<Vec<Py<PyInt>>> = PyOnceLock::new();

/// The Python ints of the actions, by action.
fn action_ints(py: Python<'_>) -> &[Py<PyInt>] {
    ACTION_INTS.get_or_init(py, || {
        (0..NUM_ACTIONS)
            .map(|a| PyInt::new(py, a).unbind())
            .collect()
    })
}

/// The actions `actions` as a tuple of ints.
fn ints_tuple<'py>(
    py: Python<'py>,
    actions: impl ExactSizeIterator<Item = u16>,
) -> PyResult<Bound<'py, PyTuple>> {
    let ints = action_ints(py);
    PyTuple::new(
        py,
        actions.map(|a| match ints.get(usize::from(a)) {
            Some(int) => int.bind(py).clone(),
            None => PyInt::new(py, a),
        }),
    )
}

/// The actions of `set` as a tuple of ints, ascending.
fn actions_tuple<'py>(py: Python<'py>, set: &Actions) -> PyResult<Bound<'py, PyTuple>> {
    ints_tuple(py, set.iter())
}

/// The `kind` of a decision at each stage.
fn kind_name(py: Python<'_>, stage: Stage) -> &Bound<'_, PyString> {
    match stage {
        Stage::Origin => intern!(py, "origin"),
        Stage::Target => intern!(py, "target"),
        Stage::Twist => intern!(py, "twist"),
        Stage::Benefit => intern!(py, "benefit"),
        Stage::Meeting => intern!(py, "meeting"),
        Stage::Relinquish => intern!(py, "relinquish"),
        Stage::Done => intern!(py, "done"),
    }
}
