//! The alpha-beta bot of `pacru_search` for Python (`pacru.bots.search`): a best move,
//! the evaluation's features and self-play samples, the position taken as plain values.

use crate::errors;
use pacru_engine as engine;
use pacru_search as search;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// How often a search waiting for its worker looks for a signal (Ctrl-C).
const SIGNAL_PERIOD: Duration = Duration::from_millis(5);
/// The worker's stack: the recursion is at most 64 plies deep, as on any Python thread.
const WORKER_STACK: usize = 16 << 20;

/// A chevron position as `ChevronState` holds it: game, meeting rule, move cap, idle
/// rounds, markers (one bitboard per seat), chevrons (codes per seat), to_move, out,
/// trigger, idle, ply.
type Fields = (
    String,
    String,
    Option<u64>,
    u64,
    Vec<u128>,
    Vec<Vec<u16>>,
    u8,
    u8,
    i8,
    u64,
    u64,
);

/// A move as plain values: origin, target, capture, twist, turn, connection, marker,
/// meeting, relinquished fields ascending.
type MoveFields = (
    Option<u8>,
    Option<u8>,
    bool,
    i8,
    i8,
    bool,
    Option<u8>,
    Option<u8>,
    Vec<u8>,
);

/// Self-play samples: features per sample, the network's active inputs per sample,
/// results, plies, termination.
type Samples = (
    Vec<Vec<f32>>,
    Vec<Vec<u16>>,
    Vec<f32>,
    Vec<f32>,
    u32,
    &'static str,
);

/// A network evaluation of the search (`pacru_search::network`), read from its file's
/// bytes; immutable, shared by the searches that use it.
#[pyclass(frozen, module = "pacru._native", name = "Network")]
pub(crate) struct PyNetwork {
    inner: Arc<search::Network>,
}

#[pymethods]
impl PyNetwork {
    /// The network written in `data` (the format of `pacru_search::network`).
    /// `ValueError`: bytes that are not one, with the reason.
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        search::Network::from_bytes(data)
            .map(|net| PyNetwork {
                inner: Arc::new(net),
            })
            .map_err(|err| PyValueError::new_err(err.to_string()))
    }

    /// The units of the first hidden layer.
    #[getter]
    fn hidden(&self) -> usize {
        self.inner.hidden()
    }

    /// The units of the second hidden layer.
    #[getter]
    fn hidden2(&self) -> usize {
        self.inner.hidden2()
    }

    /// The value of the position for `seat`, a logit: the logistic model's with
    /// `weights` plus the network's correction. `ValueError`: a bad position, seat or
    /// weights.
    fn evaluate(&self, fields: Fields, seat: u8, weights: Vec<f32>) -> PyResult<f32> {
        let (rules, pos) = position_of(&fields)?;
        let seat = seat_of(&pos, seat)?;
        Ok(self
            .inner
            .evaluate(&rules, &pos, seat, &weights_of(&weights)?))
    }
}

/// `seat` of `pos` as an index; `ValueError` past its players.
fn seat_of(pos: &engine::Position, seat: u8) -> PyResult<usize> {
    if seat >= pos.players {
        return Err(PyValueError::new_err(format!(
            "seat {seat} of a {}-player game",
            pos.players
        )));
    }
    Ok(usize::from(seat))
}

/// The network's inputs of the position from `seat`'s view: the sparse inputs that are
/// on, ascending, and the relative features (`pacru_search::network`). `ValueError`: a
/// bad position or seat.
#[pyfunction]
fn network_inputs(fields: Fields, seat: u8) -> PyResult<(Vec<u16>, Vec<f32>)> {
    let (rules, pos) = position_of(&fields)?;
    let seat = seat_of(&pos, seat)?;
    let (active, features) = search::network::inputs(&rules, &pos, seat);
    Ok((active, features.to_vec()))
}

/// The engine's error as pacru's exception (mapped in one place, `crate::errors`).
fn invalid(err: engine::EngineError) -> PyErr {
    Python::attach(|py| crate::errors::to_py(py, err))
}

/// The rules and position of `fields`; `ValueError` for a bad game, option or shape.
fn position_of(fields: &Fields) -> PyResult<(engine::Rules, engine::Position)> {
    let (game, meeting, cap, idle_rounds, markers, chevrons, to_move, out, trigger, idle, ply) =
        fields;
    let meeting_rule = match meeting.as_str() {
        "2011" => engine::MeetingRule::Y2011,
        "original" => engine::MeetingRule::Original,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown meeting rule {other:?}; valid: 2011, original"
            )))
        }
    };
    let game = engine::Game::parse(game).map_err(|_| errors::unknown_game(game))?;
    let rules =
        engine::Rules::with_options(game, meeting_rule, *cap, *idle_rounds).map_err(invalid)?;
    let players = u8::try_from(markers.len())
        .map_err(|_| PyValueError::new_err("a chevron game has 2 to 4 players"))?;
    let codes: Vec<&[u16]> = chevrons.iter().map(Vec::as_slice).collect();
    let pos = engine::Position::new(
        players, markers, &codes, *to_move, *out, *trigger, *idle, *ply, None,
    )
    .map_err(invalid)?;
    Ok((rules, pos))
}

fn weights_of(weights: &[f32]) -> PyResult<[f32; search::FEATURES]> {
    weights.try_into().map_err(|_| {
        PyValueError::new_err(format!(
            "the evaluation needs {} weights ({}), not {}",
            search::FEATURES,
            search::FEATURE_NAMES.join(", "),
            weights.len()
        ))
    })
}

fn move_fields(m: &engine::Move) -> MoveFields {
    (
        m.origin().map(u8::from),
        m.target().map(u8::from),
        m.capture(),
        m.twist(),
        m.turn(),
        m.connection(),
        m.marker().map(u8::from),
        m.meeting().map(u8::from),
        engine::geometry::bits(m.relinquished()).collect(),
    )
}

/// The best move of the seat to move and (value in thousandths of a logit, completed
/// depth, nodes), or None when it has no move. The search runs without the GIL and
/// stops on a signal whose handler raises (Ctrl-C: `KeyboardInterrupt`), see
/// [`interruptible`]. `ValueError`: a bad position, weights or budget;
/// `InvalidPositionError`: moves none of which can be played (the ply at its end).
#[pyfunction]
#[pyo3(signature = (fields, weights, nodes, time_limit, depth, seed, network=None))]
#[allow(clippy::too_many_arguments)]
fn search_move(
    py: Python<'_>,
    fields: Fields,
    weights: Vec<f32>,
    nodes: Option<u64>,
    time_limit: Option<f64>,
    depth: Option<u32>,
    seed: u64,
    network: Option<&PyNetwork>,
) -> PyResult<Option<(MoveFields, i32, u32, u64)>> {
    let (rules, pos) = position_of(&fields)?;
    let time = match time_limit {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(PyValueError::new_err(format!(
                "time_limit must be positive seconds, not {t}"
            )))
        }
        Some(t) => Some(Duration::from_secs_f64(t.min(1e9))),
        None => None,
    };
    let settings = search::Settings {
        budget: search::Budget { nodes, time, depth },
        seed,
        weights: weights_of(&weights)?,
        network: network.map(|n| Arc::clone(&n.inner)),
    };
    let found = interruptible(py, |stop| {
        search::search_until(&rules, &pos, &settings, stop)
    })?;
    let report = found.map_err(invalid)?;
    Ok(report.map(|r| (move_fields(&r.best), r.value, r.depth, r.nodes)))
}

/// `work` on a worker thread, the GIL released, while this thread looks for signals
/// every [`SIGNAL_PERIOD`]; a signal handler's exception (Ctrl-C's `KeyboardInterrupt`)
/// raises `work`'s stop flag, waits for it to return, and is returned.
///
/// Why this design: a search of a long `time_limit` holds no GIL, so Python never
/// runs the handler of a Ctrl-C that arrives meanwhile. The worker itself never takes
/// the GIL (threads searching at once do not contend for it); this thread takes it only
/// for `PyErr_CheckSignals` (`check_signals`), a C-API call that runs the handlers the
/// process installed and nothing of pacru's Python. It does nothing on threads other
/// than the main thread, which signals never reach.
fn interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&AtomicBool) -> T + Send,
{
    let stop = AtomicBool::new(false);
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel();
            let stop = &stop;
            std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    // The receiver is gone only after an interrupt: nothing to report.
                    let _ = done.send(work(stop));
                })
                .map_err(|err| {
                    pyo3::exceptions::PyRuntimeError::new_err(format!(
                        "cannot start the search thread: {err}"
                    ))
                })?;
            loop {
                match finished.recv_timeout(SIGNAL_PERIOD) {
                    Ok(value) => return Ok(value),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if let Err(err) = Python::attach(|py| py.check_signals()) {
                            stop.store(true, Ordering::Relaxed);
                            return Err(err); // the scope joins the worker, soon stopped
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        return Err(pyo3::exceptions::PyRuntimeError::new_err(
                            "the search thread ended without an answer",
                        ))
                    }
                }
            }
        })
    })
}

/// Per seat, its relative features (its counts minus the other seats' mean, see
/// `pacru_search::features`). `ValueError`: a bad position.
#[pyfunction]
fn search_features(fields: Fields) -> PyResult<Vec<Vec<f32>>> {
    let (rules, pos) = position_of(&fields)?;
    let rows = search::features::seat_features(&rules, &pos);
    Ok((0..usize::from(pos.players))
        .map(|seat| search::features::relative_features(&pos, &rows, seat).to_vec())
        .collect())
}

/// One self-play game from the start position (`pacru_search::selfplay`): (features per
/// sample, the network's active inputs per sample, results, the search's values in logits
/// (NaN where none), plies, termination), without
/// the GIL; the search values its leaves with `network` when given, else `weights`; the
/// plies `offset`, `offset + every`, ... are sampled (`offset` modulo `every`).
/// `ValueError`: a bad game, player count or weights.
#[pyfunction]
#[pyo3(signature = (game, players, seed, nodes, epsilon, weights, every, max_plies, network=None, offset=0))]
#[allow(clippy::too_many_arguments)]
fn search_selfplay(
    py: Python<'_>,
    game: &str,
    players: u8,
    seed: u64,
    nodes: u64,
    epsilon: f64,
    weights: Vec<f32>,
    every: u32,
    max_plies: u32,
    network: Option<&PyNetwork>,
    offset: u32,
) -> PyResult<Samples> {
    let rules =
        engine::Rules::new(engine::Game::parse(game).map_err(|_| errors::unknown_game(game))?);
    let start = engine::Position::start(players).map_err(invalid)?;
    let settings = search::Settings {
        budget: search::Budget {
            nodes: Some(nodes),
            time: None,
            depth: None,
        },
        seed: 0,
        weights: weights_of(&weights)?,
        network: network.map(|n| Arc::clone(&n.inner)),
    };
    let g = py.detach(|| {
        search::selfplay(
            &rules, &start, seed, &settings, epsilon, every, offset, max_plies,
        )
    });
    let features = g.features.iter().map(|f| f.to_vec()).collect();
    Ok((
        features,
        g.boards,
        g.results,
        // NaN where the game has no value (`pacru.training` reads NaN as "none taken").
        g.values.iter().map(|v| v.unwrap_or(f32::NAN)).collect(),
        g.plies,
        g.termination,
    ))
}

/// Adds the search functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SEARCH_FEATURES", search::FEATURE_NAMES.to_vec())?;
    m.add("SEARCH_DEFAULT_WEIGHTS", search::DEFAULT_WEIGHTS.to_vec())?;
    m.add_function(wrap_pyfunction!(search_move, m)?)?;
    m.add_function(wrap_pyfunction!(search_features, m)?)?;
    m.add_function(wrap_pyfunction!(search_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(network_inputs, m)?)?;
    m.add("NETWORK_SPARSE_INPUTS", search::network::SPARSE_INPUTS)?;
    m.add_class::<PyNetwork>()
}
