//! `Batch`: the games of a `pacru.vector` batch held natively, stepped decision by decision
//! with the chevron encoding of `pacru_batch::decision` (the native seam of
//! `pacru._vector_native`).

use std::sync::Arc;

use pacru_batch::decision::{Game, Layout, NUM_ACTIONS};
use pacru_batch::returns_of;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};

use crate::PyPosition;

/// The arrays of the rows just stepped, as writable bytearrays numpy reads in place:
/// observation (float32), mask (bool), player (int32), rewards (float32), terminated and
/// truncated (bool).
type FrameBytes<'py> = (
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
);

/// The games of a batch: an immutable value; `step` returns a new one.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct Batch {
    layout: Layout,
    start: Arc<Game>,
    games: Vec<Arc<Game>>,
}

impl Batch {
    fn frame<'py>(&self, py: Python<'py>, rows: &[usize]) -> PyResult<FrameBytes<'py>> {
        let layout = &self.layout;
        let plane_bytes = layout.planes() * 81 * 4;
        let p = usize::from(layout.players);
        let games: Vec<&Game> = rows.iter().map(|&r| &*self.games[r]).collect();
        let observation = PyByteArray::new_with(py, games.len() * plane_bytes, |buf| {
            for (g, out) in games.iter().zip(buf.chunks_exact_mut(plane_bytes)) {
                if !g.is_over() {
                    g.observation(layout, out);
                }
            }
            Ok(())
        })?;
        let mask = PyByteArray::new_with(py, games.len() * NUM_ACTIONS, |buf| {
            for (g, out) in games.iter().zip(buf.chunks_exact_mut(NUM_ACTIONS)) {
                if g.is_over() {
                    out.fill(1);
                } else {
                    for &a in &g.legal {
                        out[usize::from(a)] = 1;
                    }
                }
            }
            Ok(())
        })?;
        let mut player = Vec::with_capacity(4 * games.len());
        let mut rewards = Vec::with_capacity(4 * p * games.len());
        let (mut terminated, mut truncated) = (Vec::new(), Vec::new());
        for g in &games {
            let over = g.is_over();
            let seat = if over { -1 } else { i32::from(g.pos.to_move) };
            player.extend_from_slice(&seat.to_ne_bytes());
            let returns = returns_of(&g.pos);
            for r in &returns[..p] {
                rewards.extend_from_slice(&(if over { *r } else { 0.0 }).to_ne_bytes());
            }
            let cut = over && g.truncated();
            terminated.push(u8::from(over && !cut));
            truncated.push(u8::from(cut));
        }
        Ok((
            observation,
            mask,
            PyByteArray::new(py, &player),
            PyByteArray::new(py, &rewards),
            PyByteArray::new(py, &terminated),
            PyByteArray::new(py, &truncated),
        ))
    }

    fn row(&self, row: usize) -> PyResult<&Game> {
        self.games
            .get(row)
            .map(|g| &**g)
            .ok_or_else(|| PyIndexError::new_err(format!("no game {row} in the batch")))
    }
}

#[pymethods]
impl Batch {
    /// `n` games at the first decision of `start`, and the frame of every row.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (start, n, game_index, ply_scale, idle_scale, supply))]
    fn create<'py>(
        py: Python<'py>,
        start: &Bound<'py, PyPosition>,
        n: usize,
        game_index: u8,
        ply_scale: f64,
        idle_scale: f64,
        supply: u32,
    ) -> PyResult<(Py<Batch>, FrameBytes<'py>)> {
        let s = start.get();
        // The observation has one plane per chevron game: a larger index would write past it.
        if usize::from(game_index) >= crate::GAMES.len() {
            return Err(PyValueError::new_err(format!(
                "game index {game_index} is not that of a chevron game"
            )));
        }
        let layout = Layout {
            rules: s.rules,
            players: s.pos.players,
            game_index,
            ply_scale,
            idle_scale,
            supply,
        };
        let first = Arc::new(Game::start(&layout, s.pos.clone()));
        let batch = Batch {
            layout,
            games: vec![first.clone(); n],
            start: first,
        };
        let rows: Vec<usize> = (0..n).collect();
        let frame = batch.frame(py, &rows)?;
        Ok((Py::new(py, batch)?, frame))
    }

    /// The batch after one decision in each game of `rows`: a restart where `restart` is
    /// set (from `starts[j]`, of the batch's rules and seats, or the batch's start when
    /// None), else `actions[j]`, which must be legal (both checked: `ValueError`).
    /// Returns the new batch and the frame of `rows`.
    #[pyo3(signature = (rows, actions, restart, starts))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        rows: Vec<usize>,
        actions: Vec<u16>,
        restart: Vec<bool>,
        starts: Vec<Option<Bound<'py, PyPosition>>>,
    ) -> PyResult<(Py<Batch>, FrameBytes<'py>)> {
        let k = rows.len();
        if actions.len() != k || restart.len() != k || starts.len() != k {
            return Err(PyValueError::new_err(
                "rows, actions, restart and starts differ in length",
            ));
        }
        let mut games = self.games.clone();
        for j in 0..k {
            let row = rows[j];
            let game = self.row(row)?;
            games[row] = if restart[j] {
                match &starts[j] {
                    Some(pos) => {
                        let pos = pos.get();
                        // The batch steps and observes every game under its own rules and
                        // seats: another start would be played and encoded wrongly.
                        if pos.rules != self.layout.rules || pos.pos.players != self.layout.players
                        {
                            return Err(PyValueError::new_err(format!(
                                "game {row}: the restart position is not of the batch's game"
                            )));
                        }
                        Arc::new(Game::start(&self.layout, pos.pos.clone()))
                    }
                    None => self.start.clone(),
                }
            } else {
                if !game.legal.contains(&actions[j]) {
                    return Err(PyValueError::new_err(format!(
                        "game {row}: action {} is not legal in its decision",
                        actions[j]
                    )));
                }
                Arc::new(game.choose(&self.layout, actions[j]))
            };
        }
        let batch = Batch {
            layout: self.layout,
            start: self.start.clone(),
            games,
        };
        let frame = batch.frame(py, &rows)?;
        Ok((Py::new(py, batch)?, frame))
    }

    /// Game `row`'s position: markers, chevrons, to_move, out, trigger, idle, ply, occupied,
    /// termination value (None while it goes on) and winners (a seat bitmask).
    #[allow(clippy::type_complexity)]
    fn position<'py>(&self, py: Python<'py>, row: usize) -> PyResult<Bound<'py, PyTuple>> {
        let pos = &self.row(row)?.pos;
        let players = usize::from(pos.players);
        let markers = PyTuple::new(py, pos.markers.iter().take(players))?;
        let mut seats = Vec::with_capacity(players);
        for seat in pos.chevrons.iter().take(players) {
            seats.push(PyTuple::new(py, seat.to_vec())?);
        }
        let chevrons = PyTuple::new(py, seats)?;
        let (term, winners) = match pos.outcome {
            Some(o) => (Some(o.termination.value()), o.winners),
            None => (None, 0),
        };
        (
            markers,
            chevrons,
            pos.to_move,
            pos.out,
            pos.trigger,
            pos.idle,
            pos.ply,
            pos.occupied(),
            term,
            winners,
        )
            .into_pyobject(py)
    }

    /// The actions already chosen in the move under way in game `row`.
    fn prefix<'py>(&self, py: Python<'py>, row: usize) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.row(row)?.prefix)
    }
}
