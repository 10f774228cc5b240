//! `Batch.learner_step`: one step of `pacru.gymnasium_vector.PacruVectorEnv` against a
//! built-in bot in one call (the learner's decision, restarts, the bots' moves, the frame,
//! the observation), each game on a thread without the GIL
//! ([`pacru_batch::learner::Turn::step`] plays a game).
//!
//! The result is one bytearray: the frame of `Batch.advance` (mask, player, rewards,
//! terminated, truncated) then, each at a multiple of 8 bytes, the step counts (int32),
//! the episodes (int64), the learner's rewards (float32), its seats (int64) and the
//! observation (the dtype's bytes, a row per game): [`layout`]. The bytearray comes zeroed
//! (the only way safe code gets one), so a row writes only what is not zero.

use std::collections::TryReserveError;

use pacru_batch::decision::{Cell, NUM_ACTIONS};
use pacru_batch::learner::{mix, Row, Seats, Turn, TurnError};
use pacru_batch::opponent::Bot;
use pacru_batch::par::{beside, threads_for, try_with_capacity, Queue};
use pacru_batch::tune::Tuner;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use super::{
    new_frame_of, observation_cell, offsets, pieces, too_big, word, Batch, Games, Out, ALIGN,
};

/// The thread count of learner steps, chosen by measure (see `pacru_batch::tune`).
static LEARNER: Tuner = Tuner::new();

/// The byte offsets of a learner step's arrays for `n` games of `p` players and
/// observation rows of `row_bytes`: frame end, steps, episodes, rewards, seats,
/// observation and the end.
pub(super) fn layout(n: usize, p: usize, row_bytes: usize) -> Option<[usize; 7]> {
    let up = |x: usize| x.checked_next_multiple_of(ALIGN);
    let frame = offsets(n, p)?[5];
    let steps = up(frame)?;
    let episodes = up(steps.checked_add(n.checked_mul(4)?)?)?;
    let rewards = episodes.checked_add(n.checked_mul(8)?)?;
    let seats = up(rewards.checked_add(n.checked_mul(4)?)?)?;
    let observation = up(seats.checked_add(n.checked_mul(8)?)?)?;
    let end = observation.checked_add(n.checked_mul(row_bytes)?)?;
    (end <= isize::MAX as usize).then_some([
        frame,
        steps,
        episodes,
        rewards,
        seats,
        observation,
        end,
    ])
}

/// The rows of a learner step's arrays (or some of them), borrowed from its bytearray.
struct Rows<'a> {
    out: Out<'a>,
    steps: &'a mut [u8],
    episodes: &'a mut [u8],
    rewards: &'a mut [u8],
    seats: &'a mut [u8],
    observation: &'a mut [u8],
}

impl<'a> Rows<'a> {
    /// The arrays of `buf` (zeroed, of the length [`layout`] gives).
    fn of(buf: &'a mut [u8], n: usize, p: usize, at: [usize; 7]) -> Rows<'a> {
        let (frame, rest) = buf.split_at_mut(at[0]);
        let (_, rest) = rest.split_at_mut(at[1] - at[0]);
        let (steps, rest) = rest.split_at_mut(at[2] - at[1]);
        let (episodes, rest) = rest.split_at_mut(at[3] - at[2]);
        let (rewards, rest) = rest.split_at_mut(at[4] - at[3]);
        let (seats, rest) = rest.split_at_mut(at[5] - at[4]);
        let (observation, _) = rest.split_at_mut(at[6] - at[5]);
        Rows {
            out: Out::of(frame, n, p),
            steps: &mut steps[..4 * n],
            episodes,
            rewards: &mut rewards[..4 * n],
            seats: &mut seats[..8 * n],
            observation,
        }
    }

    /// The first `rows` rows, and the others.
    fn split(self, rows: usize, p: usize, row_bytes: usize) -> (Rows<'a>, Rows<'a>) {
        let (o0, o1) = self.out.split(rows, p);
        let (s0, s1) = self.steps.split_at_mut(4 * rows);
        let (e0, e1) = self.episodes.split_at_mut(8 * rows);
        let (r0, r1) = self.rewards.split_at_mut(4 * rows);
        let (t0, t1) = self.seats.split_at_mut(8 * rows);
        let (b0, b1) = self.observation.split_at_mut(row_bytes * rows);
        (
            Rows {
                out: o0,
                steps: s0,
                episodes: e0,
                rewards: r0,
                seats: t0,
                observation: b0,
            },
            Rows {
                out: o1,
                steps: s1,
                episodes: e1,
                rewards: r1,
                seats: t1,
                observation: b1,
            },
        )
    }

    /// Row `j`: `row`'s decision (or its end shown), its end's rewards and flags, its
    /// counts, the learner's reward and seat, and its observation (zeros at an end).
    fn write(
        &mut self,
        j: usize,
        p: usize,
        row: &Row,
        turn: &Turn<'_>,
        cell: Cell,
        row_bytes: usize,
    ) {
        let out = &mut self.out;
        let mask = &mut out.mask[j * NUM_ACTIONS..(j + 1) * NUM_ACTIONS];
        let player = if row.shown {
            mask.fill(1);
            -1
        } else {
            for a in row.game.legal.iter() {
                mask[usize::from(a)] = 1;
            }
            let obs = &mut self.observation[j * row_bytes..(j + 1) * row_bytes];
            row.game.observation_as(turn.layout, cell, obs);
            i32::from(row.game.pos().to_move)
        };
        out.player[4 * j..4 * j + 4].copy_from_slice(&player.to_ne_bytes());
        if let Some(end) = row.end {
            let rewards = &mut out.rewards[4 * p * j..4 * p * (j + 1)];
            for (r, c) in end.rewards[..p].iter().zip(rewards.chunks_exact_mut(4)) {
                c.copy_from_slice(&r.to_ne_bytes());
            }
            out.terminated[j] = u8::from(end.terminated);
            out.truncated[j] = u8::from(!end.terminated);
        }
        self.steps[4 * j..4 * j + 4].copy_from_slice(&row.steps.to_ne_bytes());
        self.episodes[8 * j..8 * j + 8].copy_from_slice(&row.episode.to_ne_bytes());
        self.rewards[4 * j..4 * j + 4].copy_from_slice(&row.reward.to_ne_bytes());
        let seat = i64::from(row.seat);
        self.seats[8 * j..8 * j + 8].copy_from_slice(&seat.to_ne_bytes());
    }
}

/// Why a learner step failed, and in which game.
enum Failure {
    Memory(TryReserveError),
    Game(usize, TurnError),
    /// A piece of the games was lost: its thread panicked (a bug).
    Lost,
}

impl From<TryReserveError> for Failure {
    fn from(e: TryReserveError) -> Failure {
        Failure::Memory(e)
    }
}

/// The arguments of `Batch.learner_step` that are not arrays.
pub(super) struct Options<'s> {
    pub same_step: bool,
    pub max_steps: Option<u32>,
    pub seat: i32,
    pub seat_base: u64,
    pub bot: &'s str,
    pub bot_base: u64,
    pub dtype: &'s str,
    pub threads: usize,
}

/// `Batch.learner_step` (see its docstring in `vector.rs`).
pub(super) fn learner_step<'py>(
    batch: &Batch,
    py: Python<'py>,
    actions: &[u8],
    restart: &[u8],
    steps: &[u8],
    episodes: &[u8],
    o: &Options<'_>,
) -> PyResult<(Py<Batch>, Bound<'py, PyByteArray>, Py<Batch>)> {
    let n = batch.games.len();
    let ok = actions.len() == 8 * n
        && (restart.is_empty() || restart.len() == n)
        && steps.len() == 4 * n
        && episodes.len() == 8 * n;
    if !ok {
        return Err(PyValueError::new_err(
            "actions and episodes must hold an int64 a game, steps an int32, restart a byte or none",
        ));
    }
    let layout = &batch.layout;
    let p = usize::from(layout.players);
    let seats = match u8::try_from(o.seat) {
        Ok(seat) if usize::from(seat) < p => Seats::Fixed(seat),
        _ if o.seat == -1 => Seats::Drawn {
            first: mix(o.seat_base),
            players: layout.players,
        },
        _ => {
            return Err(PyValueError::new_err(format!(
                "no seat {} in the game",
                o.seat
            )))
        }
    };
    let bot = match o.bot {
        "random" => Bot::Random,
        "greedy" => Bot::Greedy,
        other => {
            return Err(PyValueError::new_err(format!(
                "no native bot {other:?}: 'random' or 'greedy'"
            )))
        }
    };
    let cell = observation_cell(o.dtype)?;
    let turn = Turn {
        layout,
        start: &batch.start,
        same_step: o.same_step,
        max_steps: o.max_steps,
        bot,
        bot_first: mix(o.bot_base),
        seats,
    };
    let row_bytes = layout.planes() * 81 * cell.size();
    let at = layout_or_err(n, p, row_bytes)?;
    let (buffer, games, t) = LEARNER.run(n, threads_for(n, o.threads), |t| {
        // Shared out as it comes (`queued`): zeroing the bytearray alone takes a third of a
        // step on one thread at 256 games (4 MB of float32 observation), and the workers step
        // games meanwhile. Pieces of 8 rows: a learner step plays several decisions a game.
        let pieces = pieces(n, t, 8);
        let bound = |piece: usize| n * piece / pieces;
        let step_piece = |piece: usize| -> Result<Vec<Row>, Failure> {
            let (a, b) = (bound(piece), bound(piece + 1));
            let mut rows = try_with_capacity(b - a)?;
            for i in a..b {
                let row = turn
                    .step(
                        i,
                        &batch.games[i],
                        restart.get(i).is_some_and(|&r| r != 0),
                        i64::from_ne_bytes(word(actions, i)),
                        i32::from_ne_bytes(word(steps, i)),
                        i64::from_ne_bytes(word(episodes, i)),
                    )
                    .map_err(|e| Failure::Game(i, e))?;
                rows.push(row);
            }
            Ok(rows)
        };
        let (buffer, games) = queued(py, t, pieces, at[6], &step_piece, |buf, take| {
            let mut games = try_with_capacity(n)?;
            let mut ended = Vec::new();
            let mut rest = Rows::of(buf, n, p, at);
            for piece in 0..pieces {
                let rows = take(piece).ok_or(Failure::Lost)??;
                let (mut part, tail) = rest.split(rows.len(), p, row_bytes);
                rest = tail;
                for (j, row) in rows.into_iter().enumerate() {
                    part.write(j, p, &row, &turn, cell, row_bytes);
                    games.push(row.game);
                    if let Some(last) = row.last {
                        ended.try_reserve(1)?;
                        ended.push(last);
                    }
                }
            }
            Ok((games, ended))
        })?;
        Ok::<_, PyErr>((buffer, games, t))
    })?;
    let (games, ended) = games
        // Stepped by whichever thread came: freed on the pool on two threads or more.
        .map(|(g, e)| (Games::made(vec![(g, t > 1)]), Games::made(vec![(e, t > 1)])))
        .map_err(|f| match f {
            Failure::Memory(e) => too_big(e),
            Failure::Game(i, e) => game_error(i, e, o.max_steps),
            Failure::Lost => PyRuntimeError::new_err("a thread of the step failed"),
        })?;
    let next = batch.of_games(games);
    let ended = batch.of_games(ended);
    Ok((Py::new(py, next)?, buffer, Py::new(py, ended)?))
}

/// A new bytearray of `total` bytes and `fill`'s result, the work of a step shared out
/// as it comes: `step(piece)` runs on `pieces` pieces of the rows, on the `threads - 1`
/// workers from the start and on the caller once it has the bytearray (zeroed, with the
/// GIL held: the workers need not wait for it); the caller then runs `fill` on it
/// without the GIL, which takes each piece's result with `take(piece)` (the piece is
/// stepped there if no thread has taken it yet, else waited for; None for a piece whose
/// thread panicked). The caller writes the rows, the workers step them: writing a row is
/// mostly waiting for memory, stepping a game mostly computing, so the two overlap.
fn queued<'py, S: Send, T: Send>(
    py: Python<'py>,
    threads: usize,
    pieces: usize,
    total: usize,
    step: &(dyn Fn(usize) -> S + Sync),
    fill: impl FnOnce(&mut [u8], &(dyn Fn(usize) -> Option<S> + Sync)) -> T + Send,
) -> PyResult<(Bound<'py, PyByteArray>, T)> {
    let queue = Queue::new(pieces).map_err(too_big)?;
    // The workers from the first piece too: the caller takes the pieces in order, and
    // finds those the workers stepped while it zeroed the bytearray (from the back, the
    // caller would step the first half itself: 593 against 500 us a learner step of 256
    // games, in alternation).
    let drain = || queue.drain(step);
    beside(threads.saturating_sub(1), &drain, || {
        new_frame_of(py, total, |buf| fill(buf, &|piece| queue.take(piece, step)))
    })
}

fn layout_or_err(n: usize, p: usize, row_bytes: usize) -> PyResult<[usize; 7]> {
    layout(n, p, row_bytes)
        .ok_or_else(|| PyMemoryError::new_err("the batch's arrays are too large to hold"))
}

/// The exception of game `row`'s failed step.
fn game_error(row: usize, e: TurnError, max_steps: Option<u32>) -> PyErr {
    match e {
        TurnError::Illegal(action) => PyValueError::new_err(format!(
            "game {row}: action {action} is not legal in its decision"
        )),
        TurnError::Decision(e) => crate::decisions::decision_error(e),
        TurnError::Bot => {
            PyRuntimeError::new_err("a bot's move could not be played through the encoding")
        }
        TurnError::Restarts => PyValueError::new_err(format!(
            "max_steps={} cuts the games before the learner decides: the opponents' moves \
             take more decisions than that",
            max_steps.map_or_else(|| "None".to_owned(), |m| m.to_string())
        )),
    }
}
