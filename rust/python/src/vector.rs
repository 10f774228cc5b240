//! `Batch`: the games of a `pacru.vector` batch held natively, stepped decision by decision
//! with the chevron encoding of `pacru_batch::decision` (the native seam of
//! `pacru._vector_native`).

use std::collections::TryReserveError;

use pacru_batch::decision::{DecisionError, Game, Layout, NUM_ACTIONS};
use pacru_batch::opponent::{play_bots, Bot};
use pacru_batch::par::{chunks, threads_for, try_filled, try_with_capacity};
use pacru_batch::returns_of;
use pacru_engine::Position;
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};

use crate::errors::{bytearray, no_memory};
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
    /// The frame of `rows` of `games`, built on up to `threads` threads.
    fn of(
        layout: &Layout,
        games: &[Game],
        rows: &[usize],
        threads: usize,
    ) -> Result<Frame, TryReserveError> {
        let p = usize::from(layout.players);
        let k = rows.len();
        let mut frame = Frame {
            mask: try_filled(k.saturating_mul(NUM_ACTIONS), 0)?,
            player: try_with_capacity(4 * k)?,
            rewards: try_with_capacity(4 * p * k)?,
            terminated: try_with_capacity(k)?,
            truncated: try_with_capacity(k)?,
        };
        let t = threads_for(k, threads);
        if t <= 1 {
            let mut mask = std::mem::take(&mut frame.mask);
            frame.fill(p, games, rows, &mut mask);
            frame.mask = mask;
            return Ok(frame);
        }
        // The mask, the large array, is written in place by each thread; the others
        // (a few bytes a game) are gathered after.
        let per = k.div_ceil(t);
        let parts: Vec<Result<Frame, TryReserveError>> = std::thread::scope(|s| {
            let mut pieces = rows
                .chunks(per)
                .zip(frame.mask.chunks_mut(per * NUM_ACTIONS));
            let first = pieces.next();
            let handles: Vec<_> = pieces
                .map(|(part, out)| {
                    s.spawn(move || {
                        let mut small = Frame::small(p, part.len())?;
                        small.fill(p, games, part, out);
                        Ok(small)
                    })
                })
                .collect();
            let mut out = Vec::with_capacity(t);
            if let Some((part, mask)) = first {
                out.push(Frame::small(p, part.len()).map(|mut small| {
                    small.fill(p, games, part, mask);
                    small
                }));
            }
            for h in handles {
                match h.join() {
                    Ok(v) => out.push(v),
                    Err(e) => std::panic::resume_unwind(e),
                }
            }
            out
        });
        for part in parts {
            let part = part?;
            frame.player.extend_from_slice(&part.player);
            frame.rewards.extend_from_slice(&part.rewards);
            frame.terminated.extend_from_slice(&part.terminated);
            frame.truncated.extend_from_slice(&part.truncated);
        }
        Ok(frame)
    }

    /// A frame of `k` rows without its mask (written elsewhere).
    fn small(p: usize, k: usize) -> Result<Frame, TryReserveError> {
        Ok(Frame {
            mask: Vec::new(),
            player: try_with_capacity(4 * k)?,
            rewards: try_with_capacity(4 * p * k)?,
            terminated: try_with_capacity(k)?,
            truncated: try_with_capacity(k)?,
        })
    }

    /// Appends the rows `rows` of `games`, their masks written into `mask` (zeroed).
    fn fill(&mut self, p: usize, games: &[Game], rows: &[usize], mask: &mut [u8]) {
        for (&row, out) in rows.iter().zip(mask.chunks_exact_mut(NUM_ACTIONS)) {
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
            self.player.extend_from_slice(&seat.to_ne_bytes());
            let returns = if over { returns_of(g.pos()) } else { [0.0; 4] };
            for r in &returns[..p] {
                self.rewards.extend_from_slice(&r.to_ne_bytes());
            }
            let cut = over && g.truncated();
            self.terminated.push(u8::from(over && !cut));
            self.truncated.push(u8::from(cut));
        }
    }

    fn into_py(self, py: Python<'_>) -> PyResult<FrameBytes<'_>> {
        Ok((
            bytearray(py, &self.mask)?,
            bytearray(py, &self.player)?,
            bytearray(py, &self.rewards)?,
            bytearray(py, &self.terminated)?,
            bytearray(py, &self.truncated)?,
        ))
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
    /// `n` games at the first decision of `start`, and the frame of every row, built on up
    /// to `threads` threads. `MemoryError` when the batch cannot be held.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (start, n, game_index, ply_scale, idle_scale, supply, threads=1))]
    fn create<'py>(
        py: Python<'py>,
        start: &Bound<'py, PyPosition>,
        n: usize,
        game_index: u8,
        ply_scale: f64,
        idle_scale: f64,
        supply: u32,
        threads: usize,
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
        let (batch, frame) = py
            .detach(|| {
                let games = try_filled(n, first.clone())?;
                let rows: Vec<usize> = try_with_capacity(n)?;
                let mut rows = rows;
                rows.extend(0..n);
                let frame = Frame::of(&layout, &games, &rows, threads)?;
                let batch = Batch {
                    layout,
                    games,
                    start: first,
                };
                Ok((batch, frame))
            })
            .map_err(too_big)?;
        let frame = frame.into_py(py)?;
        Ok((Py::new(py, batch)?, frame))
    }

    /// The batch after one decision in each game of `rows`: a restart where `restart` is
    /// set (from `starts[j]`, of the batch's rules and seats, or the batch's start when
    /// None), else `actions[j]`, which must be legal (both checked: `ValueError`; a row
    /// out of the batch: `IndexError`). Returns the new batch and the frame of `rows`.
    /// The games are played without the GIL, on up to `threads` threads (the same games
    /// for every count).
    #[pyo3(signature = (rows, actions, restart, starts, threads=1))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        rows: Vec<usize>,
        actions: Vec<u16>,
        restart: Vec<bool>,
        starts: Vec<Option<Bound<'py, PyPosition>>>,
        threads: usize,
    ) -> PyResult<(Py<Batch>, FrameBytes<'py>)> {
        let k = rows.len();
        if actions.len() != k || restart.len() != k || starts.len() != k {
            return Err(PyValueError::new_err(
                "rows, actions, restart and starts differ in length",
            ));
        }
        let mut positions: Vec<Option<Position>> = try_with_capacity(k).map_err(too_big)?;
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
                let mut slot =
                    try_filled(self.games.len(), usize::MAX).map_err(StepError::Memory)?;
                for (j, &row) in rows.iter().enumerate() {
                    slot[row] = j;
                }
                let n = self.games.len();
                let parts = chunks(n, threads, |a, b| {
                    let mut part = try_with_capacity(b - a).map_err(StepError::Memory)?;
                    for (game, &j) in self.games[a..b].iter().zip(&slot[a..b]) {
                        part.push(match j {
                            usize::MAX => game.clone(),
                            j if restart[j] => match &positions[j] {
                                Some(pos) => Game::start(&self.layout, pos.clone()),
                                None => self.start.clone(),
                            },
                            j => game
                                .choose(&self.layout, actions[j])
                                .map_err(StepError::Decision)?,
                        });
                    }
                    Ok(part)
                });
                let parts = parts.into_iter().collect::<Result<Vec<_>, _>>()?;
                let games = concat(parts, n).map_err(StepError::Memory)?;
                let frame =
                    Frame::of(&self.layout, &games, &rows, threads).map_err(StepError::Memory)?;
                let batch = Batch {
                    layout: self.layout,
                    start: self.start.clone(),
                    games,
                };
                Ok((batch, frame))
            })
            .map_err(StepError::into_py)?;
        let frame = frame.into_py(py)?;
        Ok((Py::new(py, batch)?, frame))
    }

    /// The built-in bot `bot` ("random" or "greedy") plays in every game whose decision
    /// starts a move of a seat other than `seats[i]` (-1: every seat is a bot's), until
    /// that seat decides, the game ends or `budgets[i]` decisions are taken; the move at
    /// ply `p` of game `i` draws from `SplitMix64::for_game(seeds[i], p)`. Returns the new
    /// batch, the frame of every row and the decisions taken in each game (uint32 bytes).
    /// Played without the GIL on up to `threads` threads (the same games for every count).
    #[pyo3(signature = (seats, bot, seeds, budgets, threads=1))]
    fn play_bots<'py>(
        &self,
        py: Python<'py>,
        seats: Vec<i32>,
        bot: &str,
        seeds: Vec<u64>,
        budgets: Vec<u32>,
        threads: usize,
    ) -> PyResult<(Py<Batch>, FrameBytes<'py>, Bound<'py, PyByteArray>)> {
        let n = self.games.len();
        if seats.len() != n || seeds.len() != n || budgets.len() != n {
            return Err(PyValueError::new_err(
                "seats, seeds and budgets must have one entry per game",
            ));
        }
        let bot = match bot {
            "random" => Bot::Random,
            "greedy" => Bot::Greedy,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "no native bot {bot:?}: 'random' or 'greedy'"
                )))
            }
        };
        let layout = self.layout;
        let played = py.detach(|| {
            let parts = chunks(n, threads, |a, b| -> Result<_, TryReserveError> {
                let mut part = try_with_capacity(b - a)?;
                for i in a..b {
                    let game = &self.games[i];
                    match play_bots(&layout, game, seats[i], bot, seeds[i], budgets[i]) {
                        Some(played) => part.push(played),
                        None => return Ok(None),
                    }
                }
                Ok(Some(part))
            });
            let mut games = try_with_capacity(n)?;
            let mut taken: Vec<u8> = try_with_capacity(4 * n)?;
            for part in parts {
                let Some(part) = part? else {
                    return Ok(None);
                };
                for (g, t) in part {
                    games.push(g);
                    taken.extend_from_slice(&t.to_ne_bytes());
                }
            }
            let mut rows: Vec<usize> = try_with_capacity(n)?;
            rows.extend(0..n);
            let frame = Frame::of(&layout, &games, &rows, threads)?;
            Ok(Some((games, frame, taken)))
        });
        let Some((games, frame, taken)) = played.map_err(too_big)? else {
            return Err(PyRuntimeError::new_err(
                "a bot's move could not be played through the encoding",
            ));
        };
        let batch = Batch {
            layout,
            start: self.start.clone(),
            games,
        };
        let frame = frame.into_py(py)?;
        Ok((Py::new(py, batch)?, frame, bytearray(py, &taken)?))
    }

    /// The observation planes of every game, row after row: `planes * 81` float32 values
    /// (native-endian) each, zeros for a game that is over. Written without the GIL, on up
    /// to `threads` threads.
    #[pyo3(signature = (threads=1))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        threads: usize,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        let layout = &self.layout;
        let plane_bytes = layout.planes() * 81 * 4;
        let games = &self.games;
        let total = games
            .len()
            .checked_mul(plane_bytes)
            .filter(|&t| t <= isize::MAX as usize)
            .ok_or_else(|| PyMemoryError::new_err("the observation is too large to hold"))?;
        PyByteArray::new_with(py, total, |buf| {
            // The bytearray is new and zeroed, and no other thread can reach it yet.
            py.detach(|| {
                let write = |part: &[Game], out: &mut [u8]| {
                    for (g, o) in part.iter().zip(out.chunks_exact_mut(plane_bytes)) {
                        if !g.is_over() {
                            g.observation(layout, o);
                        }
                    }
                };
                let t = threads_for(games.len(), threads);
                if t <= 1 {
                    write(games, buf);
                    return;
                }
                let per = games.len().div_ceil(t);
                let mut parts = games.chunks(per).zip(buf.chunks_mut(per * plane_bytes));
                std::thread::scope(|s| {
                    // The first part is written on the calling thread.
                    let first = parts.next();
                    for (part, out) in parts {
                        s.spawn(move || write(part, out));
                    }
                    if let Some((part, out)) = first {
                        write(part, out);
                    }
                });
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

/// Why a step of the batch failed: memory the machine cannot give, or a decision the
/// engine refused (a bug: the actions were checked before).
enum StepError {
    Memory(TryReserveError),
    Decision(DecisionError),
}

impl StepError {
    fn into_py(self) -> PyErr {
        match self {
            StepError::Memory(e) => too_big(e),
            StepError::Decision(e) => crate::decisions::decision_error(e),
        }
    }
}

/// `MemoryError` for an allocation that failed.
fn too_big(e: TryReserveError) -> PyErr {
    no_memory("the batch is too large to hold", e)
}

/// The games of contiguous chunks, in order, in one vector of `n`.
fn concat(parts: Vec<Vec<Game>>, n: usize) -> Result<Vec<Game>, TryReserveError> {
    if parts.len() == 1 {
        return Ok(parts.into_iter().next().unwrap_or_default());
    }
    let mut games = try_with_capacity(n)?;
    for part in parts {
        games.extend(part);
    }
    Ok(games)
}
