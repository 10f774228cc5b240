//! `Batch`: the games of a `pacru.vector` batch held natively, stepped decision by decision
//! with the chevron encoding of `pacru_batch::decision` (the native seam of
//! `pacru._vector_native`).

use pacru_batch::decision::{DecisionError, Game, Layout, NUM_ACTIONS};
use pacru_batch::returns_of;
use pacru_engine::Position;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};

use crate::PyPosition;

/// The arrays of the rows just stepped, as writable bytearrays numpy reads in place: mask
/// (bool), player (int32), rewards (float32), terminated and truncated (bool). The
/// observation is not among them: `Batch.observation` writes it when it is read.
type FrameBytes<'py> = (
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
);

/// The arrays of [`FrameBytes`], built without the GIL.
struct Frame {
    mask: Vec<u8>,
    player: Vec<u8>,
    rewards: Vec<u8>,
    terminated: Vec<u8>,
    truncated: Vec<u8>,
}

impl Frame {
    fn of(layout: &Layout, games: &[Game], rows: &[usize]) -> Frame {
        let p = usize::from(layout.players);
        let k = rows.len();
        let mut frame = Frame {
            mask: vec![0; k * NUM_ACTIONS],
            player: Vec::with_capacity(4 * k),
            rewards: Vec::with_capacity(4 * p * k),
            terminated: Vec::with_capacity(k),
            truncated: Vec::with_capacity(k),
        };
        for (&row, out) in rows.iter().zip(frame.mask.chunks_exact_mut(NUM_ACTIONS)) {
            let g = &games[row];
            let over = g.is_over();
            if over {
                out.fill(1);
            } else {
                for a in g.legal.iter() {
                    out[usize::from(a)] = 1;
                }
            }
            let seat = if over { -1 } else { i32::from(g.pos().to_move) };
            frame.player.extend_from_slice(&seat.to_ne_bytes());
            let returns = if over { returns_of(g.pos()) } else { [0.0; 4] };
            for r in &returns[..p] {
                frame.rewards.extend_from_slice(&r.to_ne_bytes());
            }
            let cut = over && g.truncated();
            frame.terminated.push(u8::from(over && !cut));
            frame.truncated.push(u8::from(cut));
        }
        frame
    }

    fn into_py(self, py: Python<'_>) -> FrameBytes<'_> {
        (
            PyByteArray::new(py, &self.mask),
            PyByteArray::new(py, &self.player),
            PyByteArray::new(py, &self.rewards),
            PyByteArray::new(py, &self.terminated),
            PyByteArray::new(py, &self.truncated),
        )
    }
}

/// The games of a batch: an immutable value; `step` returns a new one. A game is cheap to
/// copy (what the decisions of a move share is behind `Arc`s), so a new batch copies the
/// games it does not step.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct Batch {
    layout: Layout,
    start: Game,
    games: Vec<Game>,
}

impl Batch {
    fn row(&self, row: usize) -> PyResult<&Game> {
        self.games
            .get(row)
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
        let first = Game::start(&layout, s.pos.clone());
        let batch = Batch {
            layout,
            games: vec![first.clone(); n],
            start: first,
        };
        let rows: Vec<usize> = (0..n).collect();
        let frame = Frame::of(&batch.layout, &batch.games, &rows).into_py(py);
        Ok((Py::new(py, batch)?, frame))
    }

    /// The batch after one decision in each game of `rows`: a restart where `restart` is
    /// set (from `starts[j]`, of the batch's rules and seats, or the batch's start when
    /// None), else `actions[j]`, which must be legal (both checked: `ValueError`; a row
    /// out of the batch: `IndexError`). Returns the new batch and the frame of `rows`.
    /// The games are played without the GIL.
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
        let mut positions: Vec<Option<Position>> = Vec::with_capacity(k);
        for (j, start) in starts.iter().enumerate() {
            let row = rows[j];
            self.row(row)?;
            positions.push(match start {
                Some(pos) => {
                    let pos = pos.get();
                    // The batch steps and observes every game under its own rules and
                    // seats: another start would be played and encoded wrongly.
                    if pos.rules != self.layout.rules || pos.pos.players != self.layout.players {
                        return Err(PyValueError::new_err(format!(
                            "game {row}: the restart position is not of the batch's game"
                        )));
                    }
                    Some(pos.pos.clone())
                }
                None => None,
            });
        }
        for j in 0..k {
            let game = &self.games[rows[j]];
            if !restart[j] && !game.legal.contains(actions[j]) {
                return Err(PyValueError::new_err(format!(
                    "game {}: action {} is not legal in its decision",
                    rows[j], actions[j]
                )));
            }
        }
        let (batch, frame) = py
            .detach(|| {
                // Which entry of `rows` steps each game, if any.
                let mut slot = vec![usize::MAX; self.games.len()];
                for (j, &row) in rows.iter().enumerate() {
                    slot[row] = j;
                }
                let games = (0..self.games.len())
                    .map(|row| match slot[row] {
                        usize::MAX => Ok(self.games[row].clone()),
                        j if restart[j] => Ok(match positions[j].take() {
                            Some(pos) => Game::start(&self.layout, pos),
                            None => self.start.clone(),
                        }),
                        j => self.games[row].choose(&self.layout, actions[j]),
                    })
                    .collect::<Result<Vec<Game>, DecisionError>>()?;
                let frame = Frame::of(&self.layout, &games, &rows);
                let batch = Batch {
                    layout: self.layout,
                    start: self.start.clone(),
                    games,
                };
                Ok((batch, frame))
            })
            .map_err(crate::decisions::decision_error)?;
        let frame = frame.into_py(py);
        Ok((Py::new(py, batch)?, frame))
    }

    /// The observation planes of every game, row after row: `planes * 81` float32 values
    /// (native-endian) each, zeros for a game that is over. Written without the GIL.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyByteArray>> {
        let layout = &self.layout;
        let plane_bytes = layout.planes() * 81 * 4;
        let games = &self.games;
        PyByteArray::new_with(py, games.len() * plane_bytes, |buf| {
            // The bytearray is new and zeroed, and no other thread can reach it yet.
            py.detach(|| {
                for (g, out) in games.iter().zip(buf.chunks_exact_mut(plane_bytes)) {
                    if !g.is_over() {
                        g.observation(layout, out);
                    }
                }
            });
            Ok(())
        })
    }

    /// Game `row`'s position: markers, chevrons, to_move, out, trigger, idle, ply, occupied,
    /// termination value (None while it goes on) and winners (a seat bitmask).
    #[allow(clippy::type_complexity)]
    fn position<'py>(&self, py: Python<'py>, row: usize) -> PyResult<Bound<'py, PyTuple>> {
        let pos = self.row(row)?.pos();
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
        PyTuple::new(py, self.row(row)?.prefix())
    }
}
