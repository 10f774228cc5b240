//! `Batch`: the games of a `pacru.vector` batch held natively, stepped decision by decision
//! with the chevron encoding of `pacru_batch::decision` (the native seam of
//! `pacru.vector.native`).

use std::collections::TryReserveError;

use pacru_batch::decision::{Cell, DecisionError, Game, Layout, NUM_ACTIONS};
use pacru_batch::learner::game_seed;
use pacru_batch::opponent::{play_bots, Bot};
use pacru_batch::par::{
    chunks, drop_on_pool, each, each_shared, guided_ends, on_worker, threads_for, threads_with,
    try_filled, try_with_capacity,
};
use pacru_batch::returns_of;
use pacru_batch::rng::{mix, pick, uniform};
use pacru_batch::tune::Tuner;
use pacru_engine::Position;
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};

use crate::errors::{bytearray, no_memory};
use crate::PyPosition;

mod fused;

// A frame, the arrays of the rows of a step, is one writable bytearray numpy reads in
// place (no copy, no Python object a row), each array at an offset of [`offsets`]: mask
// (bool, rows x actions), player (int32), rewards (float32, rows x players), terminated
// and truncated (bool). The observation is not among them: `Batch.observation` writes it
// when it is read. Nor is the mask in the frame of `Batch.advance` ([`bare_offsets`]):
// `Batch.legal_action_mask` writes it when it is read (it is 425 of the 440 bytes a game
// of a frame, and zeroing it held the caller of a step alone for longer than the
// worker's wake-up).

/// Where each array of a frame starts: a multiple of this many bytes.
const ALIGN: usize = 8;

/// The byte offsets of a frame of `k` rows of `p` players: mask, player, rewards,
/// terminated, truncated and the end (each array starts at a multiple of 8 bytes).
fn offsets(k: usize, p: usize) -> Option<[usize; 6]> {
    frame_offsets(k, NUM_ACTIONS, p)
}

/// The byte offsets of a frame of `k` rows of `p` players without its mask (an empty
/// array at 0), as [`offsets`] gives the others.
fn bare_offsets(k: usize, p: usize) -> Option<[usize; 6]> {
    frame_offsets(k, 0, p)
}

/// The byte offsets of a frame of `k` rows, `a` actions and `p` players (the chevron
/// games' and LSD's frames are laid out alike): mask, player, rewards, terminated,
/// truncated and the end, each array at a multiple of [`ALIGN`] bytes; None past what an
/// allocation can hold.
pub(crate) fn frame_offsets(k: usize, a: usize, p: usize) -> Option<[usize; 6]> {
    let up = |x: usize| x.checked_next_multiple_of(ALIGN);
    let player = up(k.checked_mul(a)?)?;
    let rewards = up(player.checked_add(k.checked_mul(4)?)?)?;
    let terminated = up(rewards.checked_add(k.checked_mul(4 * p)?)?)?;
    let truncated = terminated.checked_add(k)?;
    let end = truncated.checked_add(k)?;
    (end <= isize::MAX as usize).then_some([0, player, rewards, terminated, truncated, end])
}

/// The observation's cell of a dtype name: "float32", "uint8" or "bool" (`ValueError`
/// for another).
pub(crate) fn observation_cell(dtype: &str) -> PyResult<Cell> {
    match dtype {
        "float32" => Ok(Cell::F32),
        "uint8" => Ok(Cell::U8),
        "bool" => Ok(Cell::Bool),
        _ => Err(PyValueError::new_err(format!(
            "no observation dtype {dtype:?}: 'float32', 'uint8' or 'bool'"
        ))),
    }
}

/// The arrays of a frame (or of some of its rows), borrowed from its bytearray, with
/// the counters after them where the frame has them (`Batch.advance`'s; else empty).
struct Out<'a> {
    mask: &'a mut [u8],
    player: &'a mut [u8],
    rewards: &'a mut [u8],
    terminated: &'a mut [u8],
    truncated: &'a mut [u8],
    steps: &'a mut [u8],
    episodes: &'a mut [u8],
}

impl<'a> Out<'a> {
    /// The arrays of a frame of `k` rows of `p` players in `buf` (zeroed, of the length
    /// [`offsets`] gives).
    fn of(buf: &'a mut [u8], k: usize, p: usize) -> Out<'a> {
        Out::at(buf, offsets(k, p).unwrap_or_default())
    }

    /// The arrays of a frame in `buf` (zeroed) at the offsets `at` ([`offsets`], or
    /// [`bare_offsets`]: an empty mask, which [`Out::write`] leaves out).
    fn at(buf: &'a mut [u8], at: [usize; 6]) -> Out<'a> {
        let (mask, rest) = buf.split_at_mut(at[1]);
        let (player, rest) = rest.split_at_mut(at[2] - at[1]);
        let (rewards, rest) = rest.split_at_mut(at[3] - at[2]);
        let (terminated, rest) = rest.split_at_mut(at[4] - at[3]);
        let (truncated, _) = rest.split_at_mut(at[5] - at[4]);
        Out {
            mask,
            player,
            rewards,
            terminated,
            truncated,
            steps: &mut [],
            episodes: &mut [],
        }
    }

    /// These arrays with the counters `steps` (int32) and `episodes` (int64) of their rows.
    fn counting(self, steps: &'a mut [u8], episodes: &'a mut [u8]) -> Out<'a> {
        Out {
            steps,
            episodes,
            ..self
        }
    }

    /// The first `rows` rows, and the others.
    fn split(self, rows: usize, p: usize) -> (Out<'a>, Out<'a>) {
        let (m0, m1) = self
            .mask
            .split_at_mut((rows * NUM_ACTIONS).min(self.mask.len()));
        let (s0, s1) = self.player.split_at_mut(rows * 4);
        let (r0, r1) = self.rewards.split_at_mut(rows * 4 * p);
        let (t0, t1) = self.terminated.split_at_mut(rows);
        let (c0, c1) = self.truncated.split_at_mut(rows);
        let (d0, d1) = self.steps.split_at_mut((rows * 4).min(self.steps.len()));
        let (e0, e1) = self
            .episodes
            .split_at_mut((rows * 8).min(self.episodes.len()));
        (
            Out {
                mask: m0,
                player: s0,
                rewards: r0,
                terminated: t0,
                truncated: c0,
                steps: d0,
                episodes: e0,
            },
            Out {
                mask: m1,
                player: s1,
                rewards: r1,
                terminated: t1,
                truncated: c1,
                steps: d1,
                episodes: e1,
            },
        )
    }

    /// Row `j`: the decision of `shown` (an all-True mask and player -1 once it is over),
    /// and the end of `ended` (a game that ended and was restarted as `shown`) or of
    /// `shown` itself: its returns and flags.
    fn write(&mut self, j: usize, p: usize, shown: &Game, ended: Option<&Game>) {
        if let Some(mask) = self.mask.get_mut(j * NUM_ACTIONS..(j + 1) * NUM_ACTIONS) {
            write_mask(mask, shown, false);
        }
        let seat = if shown.is_over() {
            -1
        } else {
            i32::from(shown.pos().to_move)
        };
        self.player[4 * j..4 * j + 4].copy_from_slice(&seat.to_ne_bytes());
        let end = ended.unwrap_or(shown);
        if end.is_over() {
            let returns = returns_of(end.pos());
            let rewards = &mut self.rewards[4 * p * j..4 * p * (j + 1)];
            for (r, cell) in returns[..p].iter().zip(rewards.chunks_exact_mut(4)) {
                cell.copy_from_slice(&r.to_ne_bytes());
            }
            let cut = end.truncated();
            self.terminated[j] = u8::from(!cut);
            self.truncated[j] = u8::from(cut);
        }
    }
}

/// The mask of `game`'s decision into `mask` (zeroed, a byte an action): 1 at its legal
/// actions, or at every action once it is over or where `shown` (its row shows an end or
/// a cut, as pgx's do: any action is taken there, and ignored).
fn write_mask(mask: &mut [u8], game: &Game, shown: bool) {
    if shown || game.is_over() {
        mask.fill(1);
    } else {
        for a in game.legal.iter() {
            if let Some(cell) = mask.get_mut(usize::from(a)) {
                *cell = 1;
            }
        }
    }
}

/// `f(start, end, out)` on contiguous chunks of `0..rows` and their rows of `out`, on up
/// to `threads` threads (as many as `tuner` finds pay): the chunks' results, first chunk
/// first. Four chunks a thread, taken as the threads come (`par::each`): a worker that
/// does not come leaves the caller small ones.
fn par_rows<'a, T, F>(
    tuner: &Tuner,
    rows: usize,
    threads: usize,
    p: usize,
    out: Out<'a>,
    f: F,
) -> Vec<T>
where
    T: Send,
    F: Fn(usize, usize, Out<'_>) -> T + Sync,
{
    tuner.run(rows, threads_for(rows, threads), |t| {
        if t <= 1 {
            return vec![f(0, rows, out)];
        }
        let pieces = (4 * t).min(rows);
        each(split_rows(rows, pieces, p, out), t, |(a, b, part)| {
            f(a, b, part)
        })
    })
}

/// `out` cut into `pieces` contiguous pieces of its `rows` rows, alike: each piece's
/// first row, end and arrays.
fn split_rows(rows: usize, pieces: usize, p: usize, out: Out<'_>) -> Vec<(usize, usize, Out<'_>)> {
    let ends = (1..=pieces).map(|i| rows * i / pieces);
    split_at(ends, p, out)
}

/// `out` cut at the row ends `ends` (ascending, the last its number of rows): each
/// piece's first row, end and arrays.
fn split_at(
    ends: impl Iterator<Item = usize>,
    p: usize,
    out: Out<'_>,
) -> Vec<(usize, usize, Out<'_>)> {
    let mut parts = Vec::new();
    let mut rest = out;
    let mut start = 0;
    for end in ends {
        let (part, tail) = rest.split(end - start, p);
        parts.push((start, end, part));
        rest = tail;
        start = end;
    }
    parts
}

/// A new bytearray holding a frame of `k` rows, written by `write` without the GIL (the
/// bytearray is new and zeroed, and no other thread can reach it yet); `write`'s result
/// comes back with it.
fn new_frame<'py, T: Send>(
    py: Python<'py>,
    k: usize,
    p: usize,
    write: impl FnOnce(Out<'_>) -> T + Send,
) -> PyResult<(Bound<'py, PyByteArray>, T)> {
    let total = offsets(k, p)
        .ok_or_else(|| PyMemoryError::new_err("the batch's arrays are too large to hold"))?[5];
    let mut result = None;
    let bytes = PyByteArray::new_with(py, total, |buf| {
        result = Some(py.detach(|| write(Out::of(buf, k, p))));
        Ok(())
    })?;
    match result {
        Some(r) => Ok((bytes, r)),
        None => Err(PyRuntimeError::new_err("the frame was not written")),
    }
}

/// The `i`-th native-endian value of `N` bytes in `bytes`.
fn word<const N: usize>(bytes: &[u8], i: usize) -> [u8; N] {
    let mut w = [0u8; N];
    w.copy_from_slice(&bytes[N * i..N * (i + 1)]);
    w
}

/// The counters of a frame of `k` rows after a step: each game's decisions (int32) at
/// the first offset, its episode (int64) at the second, and the end; None past what an
/// allocation can hold.
fn counter_offsets(k: usize, p: usize) -> Option<[usize; 3]> {
    let up = |x: usize| x.checked_next_multiple_of(ALIGN);
    let steps = up(bare_offsets(k, p)?[5])?;
    let episodes = up(steps.checked_add(k.checked_mul(4)?)?)?;
    let end = episodes.checked_add(k.checked_mul(8)?)?;
    (end <= isize::MAX as usize).then_some([steps, episodes, end])
}

/// The counters before a step, and what changes them (see `Batch.advance`).
struct Before<'a> {
    actions: &'a [u8],
    restart: &'a [u8],
    renew: bool,
    steps: &'a [u8],
    episodes: &'a [u8],
}

/// A new bytearray holding a frame of `k` rows without its mask ([`bare_offsets`]) and
/// its counters (`counter_offsets`), written by `write` without the GIL (the counters
/// with [`count`], once the rows' ends are written); `write`'s result comes back with it.
fn new_counted_frame<'py, T: Send>(
    py: Python<'py>,
    k: usize,
    p: usize,
    write: impl FnOnce(Out<'_>) -> T + Send,
) -> PyResult<(Bound<'py, PyByteArray>, T)> {
    let (Some(at), Some(ends)) = (bare_offsets(k, p), counter_offsets(k, p)) else {
        return Err(PyMemoryError::new_err(
            "the batch's arrays are too large to hold",
        ));
    };
    new_frame_of(py, ends[2], |buf| {
        let (frame, counters) = buf.split_at_mut(ends[0]);
        let (steps, episodes) = counters.split_at_mut(ends[1] - ends[0]);
        write(Out::at(frame, at).counting(steps, episodes))
    })
}

/// The decisions and episode after a step of the games of `out`'s rows, the first of them
/// row `first` of the batch, into its counters (int32 and int64): from `before`'s, 0 and
/// the next episode for a game restarted, or renewed (it ended: its flag set in
/// `out`), else one more decision. Wrapping, as numpy's integers do. Each piece of a
/// step counts its own rows, once it has written their ends.
fn count(out: &mut Out<'_>, first: usize, before: &Before<'_>) {
    let (terminated, truncated) = (&*out.terminated, &*out.truncated);
    let new = out
        .steps
        .chunks_exact_mut(4)
        .zip(out.episodes.chunks_exact_mut(8));
    for (j, (s_out, e_out)) in new.enumerate() {
        let row = first + j;
        let (terminated, truncated) = (terminated.get(j), truncated.get(j));
        let mut s = i32::from_ne_bytes(word(before.steps, row)).wrapping_add(1);
        let mut e = i64::from_ne_bytes(word(before.episodes, row));
        let restarted = before.restart.get(row).is_some_and(|&r| r != 0);
        let ended = terminated.is_some_and(|&f| f != 0) || truncated.is_some_and(|&f| f != 0);
        if restarted {
            (s, e) = (0, e.wrapping_add(1));
        }
        if before.renew && ended {
            (s, e) = (0, e.wrapping_add(1));
        }
        s_out.copy_from_slice(&s.to_ne_bytes());
        e_out.copy_from_slice(&e.to_ne_bytes());
    }
}

/// A new bytearray of `total` bytes, written by `write` without the GIL (it is new and
/// zeroed, and no other thread can reach it yet); `write`'s result comes back with it.
fn new_frame_of<'py, T: Send>(
    py: Python<'py>,
    total: usize,
    write: impl FnOnce(&mut [u8]) -> T + Send,
) -> PyResult<(Bound<'py, PyByteArray>, T)> {
    let mut result = None;
    let bytes = PyByteArray::new_with(py, total, |buf| {
        result = Some(py.detach(|| write(buf)));
        Ok(())
    })?;
    match result {
        Some(r) => Ok((bytes, r)),
        None => Err(PyRuntimeError::new_err("the frame was not written")),
    }
}

/// How many pieces a step shared out as it comes (`pacru_batch::par::each_shared`,
/// `fused::queued`) cuts `rows` rows into for `threads` threads: one for one thread; else
/// about 16 a thread, of `min_rows` rows at least (a piece costs a lock and an allocation;
/// at 16 a thread, the last piece is short beside a thread's share).
fn pieces(rows: usize, threads: usize, min_rows: usize) -> usize {
    if threads <= 1 {
        1
    } else {
        (rows / min_rows.max(1)).clamp(threads, 16 * threads)
    }
}

/// A new bytearray of one random action a game (native-endian int64) for the `n` games
/// of a batch, `games(a, b)` those of rows `a..b` in order: `draw(game, u, shown,
/// scratch)` is game `row`'s, drawn with its uniform `u` of the hash base `base`
/// (`pacru_batch::rng::uniform`), `shown` when `shown[row]` is set (its row shows an end
/// or a cut: an all-True mask), `scratch` a vector the draws of a thread share. Drawn
/// without the GIL, in pieces shared out on up to `threads` threads, each walking its
/// rows' games in order (not looking each row up among the parts of a batch made on
/// several threads: a binary search over their starts). `ValueError` when `shown` does
/// not hold a byte a game.
#[allow(clippy::too_many_arguments)]
pub(crate) fn random_draws<'py, 'g, G: 'g, I: Iterator<Item = &'g G>>(
    tuner: &Tuner,
    py: Python<'py>,
    base: u64,
    shown: &[u8],
    n: usize,
    threads: usize,
    games: impl Fn(usize, usize) -> I + Sync,
    draw: impl Fn(&G, f64, bool, &mut Vec<usize>) -> usize + Sync,
) -> PyResult<Bound<'py, PyByteArray>> {
    if shown.len() != n {
        return Err(PyValueError::new_err("shown must hold one byte a game"));
    }
    let first = mix(base);
    PyByteArray::new_with(py, 8 * n, |buf| {
        py.detach(|| {
            tuner.run(n, threads, |threads| {
                let per = n.div_ceil(pieces(n, threads, DRAWS_PER_PIECE)).max(1);
                let parts = buf.chunks_mut(8 * per).enumerate().collect();
                each_shared(parts, threads, |(i, out): (usize, &mut [u8])| {
                    let mut scratch = Vec::new();
                    let (a, b) = (i * per, i * per + out.len() / 8);
                    let cells = out.chunks_exact_mut(8);
                    for ((row, cell), game) in (a..).zip(cells).zip(games(a, b)) {
                        let action = draw(game, uniform(first, row), shown[row] != 0, &mut scratch);
                        cell.copy_from_slice(&(action as i64).to_ne_bytes());
                    }
                });
            })
        });
        Ok(())
    })
}

/// The games of a batch: an immutable value; `step` returns a new one. A game is cheap to
/// copy (what the decisions of a move share is behind `Arc`s), so a new batch copies the
/// games it does not step.
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct Batch {
    layout: Layout,
    start: Game,
    games: Games,
}

/// The games of a batch, row after row, in the contiguous parts that the threads of the
/// call that made them returned: kept as they are (gathering them in one vector would copy
/// every game on the calling thread). Each part is freed by the kind of thread that made
/// it (see `Drop`).
struct Games {
    parts: Vec<Vec<Game>>,
    /// The first row of each part, then the number of rows.
    starts: Vec<usize>,
    /// Whether each part was made on a worker of the pool (else on the calling thread).
    on_pool: Vec<bool>,
}

impl Games {
    /// The parts of a call (`par::chunks`, whose parts any thread may have made): the
    /// first freed on the calling thread, the others on the pool.
    fn new(parts: Vec<Vec<Game>>) -> Games {
        let made = parts.into_iter().enumerate().map(|(i, part)| (part, i > 0));
        Games::made(made.collect())
    }

    /// The parts, each with whether a worker of the pool made it.
    fn made(parts: Vec<(Vec<Game>, bool)>) -> Games {
        let mut starts = Vec::with_capacity(parts.len() + 1);
        let mut at = 0;
        starts.push(at);
        for (part, _) in &parts {
            at += part.len();
            starts.push(at);
        }
        let (parts, on_pool) = parts.into_iter().unzip();
        Games {
            parts,
            starts,
            on_pool,
        }
    }

    fn len(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// Game `row`, or None past the last.
    fn get(&self, row: usize) -> Option<&Game> {
        let i = self.starts.partition_point(|&s| s <= row).checked_sub(1)?;
        self.parts.get(i)?.get(row - self.starts[i])
    }

    /// The games of rows `a..b` (those of the batch among them), in order.
    fn range(&self, a: usize, b: usize) -> impl Iterator<Item = &Game> {
        self.parts
            .iter()
            .zip(&self.starts)
            .flat_map(move |(part, &s)| {
                let lo = a.saturating_sub(s).min(part.len());
                let hi = b.saturating_sub(s).clamp(lo, part.len());
                part[lo..hi].iter()
            })
    }
}

impl std::ops::Index<usize> for Games {
    type Output = Game;

    /// Game `row` (rows are checked against the batch before they are looked up).
    fn index(&self, row: usize) -> &Game {
        match self.get(row) {
            Some(game) => game,
            None => panic!("no game {row} in a batch of {}", self.len()),
        }
    }
}

impl Drop for Batch {
    /// Frees each part of the games on the kind of thread that made it: those a worker
    /// made on the pool, between the pieces of the next calls
    /// (`pacru_batch::par::drop_on_pool`), the others here. A game's last reference to a
    /// move list frees it, and glibc frees a block fastest on a thread of the arena it
    /// came from: the calling thread freeing everything is a good share of what a step
    /// cannot split, a worker freeing the caller's blocks holds the lock of the arena
    /// that the caller's Python allocates from (two threads at batch 1,024: 1.56x one
    /// thread this way, 1.36x with every part on the pool and 1.37x with every part
    /// here, medians of five runs in alternation).
    fn drop(&mut self) {
        let mut parts = std::mem::take(&mut self.games.parts);
        let on_pool = std::mem::take(&mut self.games.on_pool);
        // No room to sort the parts: all of them here.
        let Ok(mut mine) = try_with_capacity(parts.len()) else {
            parts.into_iter().flatten().for_each(Game::retire);
            return;
        };
        for (part, &pool) in parts.iter_mut().zip(&on_pool) {
            if !pool {
                mine.push(std::mem::take(part));
            }
        }
        parts.retain(|part| !part.is_empty());
        if !parts.is_empty() {
            drop_on_pool(parts, Game::retire);
        }
        mine.into_iter().flatten().for_each(Game::retire);
    }
}

/// The rows of a step of `batch` (see `Batch.advance`), written into `out`, on up to
/// `threads` threads taking pieces of rows as they come: each piece's games, whether a
/// worker of the pool made them, and the games its rows renewed as they ended (in row
/// order).
#[allow(clippy::type_complexity)]
fn advance_rows(
    batch: &Batch,
    threads: usize,
    out: Out<'_>,
    before: &Before<'_>,
) -> Vec<Option<Result<(Vec<Game>, bool, Vec<Game>), StepError>>> {
    let n = batch.games.len();
    let p = usize::from(batch.layout.players);
    let (layout, restart, actions, renew) =
        (&batch.layout, before.restart, before.actions, before.renew);
    let parts = split_at(guided_ends(n, threads, 8).into_iter(), p, out);
    each_shared(parts, threads, |(a, b, mut out)| {
        let mut games = try_with_capacity(b - a).map_err(StepError::Memory)?;
        let mut ended = Vec::new();
        for (j, (row, old)) in (a..b).zip(batch.games.range(a, b)).enumerate() {
            // Each game is copied once, into its place in the new batch, and
            // stepped there.
            let mut game = if restart.get(row).is_some_and(|&r| r != 0) {
                batch.start.clone()
            } else {
                let mut bytes = [0u8; 8];
                bytes.copy_from_slice(&actions[8 * row..8 * row + 8]);
                let action = i64::from_ne_bytes(bytes);
                let mut game = old.clone();
                let a = u16::try_from(action).unwrap_or(u16::MAX);
                match game.choose_in_place(layout, a) {
                    Ok(()) => game,
                    Err(DecisionError::IllegalAction(_)) => {
                        return Err(StepError::Illegal(row, action))
                    }
                    Err(e) => return Err(StepError::Decision(e)),
                }
            };
            if renew && game.is_over() {
                out.write(j, p, &batch.start, Some(&game));
                // Kept as it ended: the caller reads its last position (`final_obs`).
                ended.try_reserve(1).map_err(StepError::Memory)?;
                ended.push(std::mem::replace(&mut game, batch.start.clone()));
            } else {
                out.write(j, p, &game, None);
            }
            games.push(game);
        }
        count(&mut out, a, before);
        Ok((games, on_worker(), ended))
    })
}

impl Batch {
    /// A batch of `games` under this one's rules and start (the games a step renewed as
    /// they ended, for `Batch.advance` and `Batch.learner_step` to hand back).
    fn of_games(&self, games: Games) -> Batch {
        Batch {
            layout: self.layout,
            start: self.start.clone(),
            games,
        }
    }

    fn row(&self, row: usize) -> PyResult<&Game> {
        self.games
            .get(row)
            .ok_or_else(|| PyIndexError::new_err(format!("no game {row} in the batch")))
    }
}

#[pymethods]
impl Batch {
    /// `n` games at the first decision of `start`, and the frame of every row (one
    /// bytearray, see `Batch.advance`), built on up to `threads` threads. `MemoryError`
    /// when the batch cannot be held.
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
    ) -> PyResult<(Py<Batch>, Bound<'py, PyByteArray>)> {
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
        let p = usize::from(layout.players);
        let games = py
            .detach(|| try_filled(n, first.clone()))
            .map_err(too_big)?;
        let (frame, ()) = new_frame(py, n, p, |out| {
            par_rows(&CREATE, n, threads, p, out, |a, b, mut out| {
                for (j, g) in games[a..b].iter().enumerate() {
                    out.write(j, p, g, None);
                }
            });
        })?;
        let batch = Batch {
            layout,
            games: Games::new(vec![games]),
            start: first,
        };
        Ok((Py::new(py, batch)?, frame))
    }

    /// The batch after one decision in every game: a restart where `restart[i]` is set
    /// (`restart`: one byte a game, or empty for none), else the action `actions[i]`
    /// (`actions`: the native-endian int64 bytes of one action a game), which must be
    /// legal (`ValueError` naming the game otherwise). With `renew`, a game that ends
    /// restarts from the batch's start in the same call: its row shows the new game's
    /// decision with the old game's end (returns and flags). Returns the new batch and the
    /// frame of every row without its mask (`Batch.legal_action_mask` makes it), one
    /// bytearray: at the byte offsets 0, `b`, `c` and `c + n` (`b = ceil8(4n)`,
    /// `c = ceil8(b + 4n * players)`) the player deciding (int32, -1 at an end), the
    /// rewards (float32, n x players), terminated and truncated (bool); then, at
    /// `d = ceil8(c + 2n)` and
    /// `ceil8(d + 4n)`, each game's decisions and episode after this one (int32 and int64,
    /// from `steps` and `episodes`, the same native-endian arrays before it): 0 and the
    /// next episode for a game restarted or renewed, else one more decision (both wrap as
    /// numpy's do). Last, the games renewed, as they ended: a batch of its own whose game
    /// `j` is that of the `j`-th row (ascending) whose frame shows an end (none without
    /// `renew`), for their last positions (`pacru.vector.final`). Everything a game needs
    /// (its decision, the engine's move, the restart, its frame row) is done without the
    /// GIL on up to `threads` threads, each taking pieces of contiguous rows as it comes
    /// free (a worker still freeing an old batch leaves more to the others); the same
    /// games for every count.
    #[pyo3(signature = (actions, restart, renew, steps, episodes, threads=1))]
    #[allow(clippy::too_many_arguments)]
    fn advance<'py>(
        &self,
        py: Python<'py>,
        actions: &[u8],
        restart: &[u8],
        renew: bool,
        steps: &[u8],
        episodes: &[u8],
        threads: usize,
    ) -> PyResult<(Py<Batch>, Bound<'py, PyByteArray>, Py<Batch>)> {
        let n = self.games.len();
        let ok = actions.len() == 8 * n
            && (restart.is_empty() || restart.len() == n)
            && steps.len() == 4 * n
            && episodes.len() == 8 * n;
        if !ok {
            return Err(PyValueError::new_err(
                "actions and episodes must hold one int64 a game, steps one int32, restart \
                 one byte a game or none",
            ));
        }
        let p = usize::from(self.layout.players);
        let before = Before {
            actions,
            restart,
            renew,
            steps,
            episodes,
        };
        let most = threads_for(n, threads);
        let (frame, parts) = ADVANCE.run(n, most, |t| {
            new_counted_frame(py, n, p, |out| advance_rows(self, t, out, &before))
        })?;
        let parts = parts
            .into_iter()
            .map(|part| part.unwrap_or(Err(StepError::Lost)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(StepError::into_py)?;
        let mut ended = Vec::new();
        let parts = parts
            .into_iter()
            .map(|(games, pool, last)| {
                ended.push((last, pool));
                (games, pool)
            })
            .collect();
        let batch = Batch {
            layout: self.layout,
            start: self.start.clone(),
            games: Games::made(parts),
        };
        let ended = self.of_games(Games::made(ended));
        Ok((Py::new(py, batch)?, frame, Py::new(py, ended)?))
    }

    /// The batch after one decision in each game of `rows`: a restart where `restart` is
    /// set (from `starts[j]`, of the batch's rules and seats, or the batch's start when
    /// None), else `actions[j]`, which must be legal (both checked: `ValueError`; a row
    /// out of the batch: `IndexError`). Returns the new batch and the frame of `rows`
    /// (laid out as `Batch.advance`'s, one row per entry of `rows`). The games are played
    /// without the GIL, on up to `threads` threads (the same games for every count).
    #[pyo3(signature = (rows, actions, restart, starts, threads=1))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        rows: Vec<usize>,
        actions: Vec<u16>,
        restart: Vec<bool>,
        starts: Vec<Option<Bound<'py, PyPosition>>>,
        threads: usize,
    ) -> PyResult<(Py<Batch>, Bound<'py, PyByteArray>)> {
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
        let games = py
            .detach(|| {
                // Which entry of `rows` steps each game, if any.
                let mut slot =
                    try_filled(self.games.len(), usize::MAX).map_err(StepError::Memory)?;
                for (j, &row) in rows.iter().enumerate() {
                    slot[row] = j;
                }
                let n = self.games.len();
                let parts = chunks(n, threads, |a, b| {
                    (a..b)
                        .map(|row| match slot[row] {
                            usize::MAX => Ok(self.games[row].clone()),
                            j if restart[j] => Ok(match &positions[j] {
                                Some(pos) => Game::start(&self.layout, pos.clone()),
                                None => self.start.clone(),
                            }),
                            j => self.games[row].choose(&self.layout, actions[j]),
                        })
                        .collect::<Result<Vec<Game>, DecisionError>>()
                });
                let parts = parts
                    .into_iter()
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(StepError::Decision)?;
                Ok(Games::new(parts))
            })
            .map_err(StepError::into_py)?;
        let p = usize::from(self.layout.players);
        let (frame, ()) = new_frame(py, k, p, |out| {
            par_rows(&STEP, k, threads, p, out, |a, b, mut out| {
                for (j, &row) in rows[a..b].iter().enumerate() {
                    out.write(j, p, &games[row], None);
                }
            });
        })?;
        let batch = Batch {
            layout: self.layout,
            start: self.start.clone(),
            games,
        };
        Ok((Py::new(py, batch)?, frame))
    }

    /// The built-in bot `bot` ("random" or "greedy") plays in every game whose decision
    /// starts a move of a seat other than `seats[i]` (-1: every seat is a bot's), until
    /// that seat decides, the game ends or `budgets[i]` decisions are taken; the move at
    /// ply `p` of game `i` draws from `SplitMix64::for_game(seed_i, p)`, `seed_i =
    /// mix(mix(mix(base) ^ i * GAMMA) ^ (episodes[i] + 1) * GAMMA)` (`pacru.vector.draws.
    /// game_seeds`). `seats` holds int32, `episodes` int64 and `budgets` uint32 values, one
    /// a game, as native-endian bytes. Returns the new batch, the frame of every row (as
    /// `Batch.advance`'s) and the decisions taken in each game (uint32 bytes). Played
    /// without the GIL on up to `threads` threads (the same games for every count).
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    #[pyo3(signature = (seats, bot, base, episodes, budgets, threads=1))]
    fn play_bots<'py>(
        &self,
        py: Python<'py>,
        seats: &[u8],
        bot: &str,
        base: u64,
        episodes: &[u8],
        budgets: &[u8],
        threads: usize,
    ) -> PyResult<(Py<Batch>, Bound<'py, PyByteArray>, Bound<'py, PyByteArray>)> {
        let n = self.games.len();
        if seats.len() != 4 * n || episodes.len() != 8 * n || budgets.len() != 4 * n {
            return Err(PyValueError::new_err(
                "seats, episodes and budgets must have one entry per game",
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
        let p = usize::from(layout.players);
        let first = mix(base);
        let (frame, parts) = new_frame(py, n, p, |out| {
            par_rows(&BOTS, n, threads, p, out, |a, b, mut out| {
                let mut games = try_with_capacity(b - a)?;
                let mut taken: Vec<u32> = try_with_capacity(b - a)?;
                for (j, i) in (a..b).enumerate() {
                    let seed = game_seed(first, i, i64::from_ne_bytes(word(episodes, i)));
                    let seat = i32::from_ne_bytes(word(seats, i));
                    let budget = u32::from_ne_bytes(word(budgets, i));
                    let Some((g, t)) = play_bots(&layout, &self.games[i], seat, bot, seed, budget)
                    else {
                        return Ok::<_, TryReserveError>(None);
                    };
                    out.write(j, p, &g, None);
                    games.push(g);
                    taken.push(t);
                }
                Ok(Some((games, taken)))
            })
        })?;
        let played = py.detach(|| {
            let mut games = try_with_capacity(parts.len())?;
            let mut taken: Vec<u8> = try_with_capacity(4 * n)?;
            for part in parts {
                let Some((g, t)) = part? else {
                    return Ok(None);
                };
                games.push(g);
                for x in t {
                    taken.extend_from_slice(&x.to_ne_bytes());
                }
            }
            Ok(Some((games, taken)))
        });
        let Some((games, taken)) = played.map_err(too_big)? else {
            return Err(PyRuntimeError::new_err(
                "a bot's move could not be played through the encoding",
            ));
        };
        let batch = Batch {
            layout,
            start: self.start.clone(),
            games: Games::new(games),
        };
        Ok((Py::new(py, batch)?, frame, bytearray(py, &taken)?))
    }

    /// One learner step against the built-in bot `bot` ("random" or "greedy") in every
    /// game, in one call: game `i` takes `actions[i]` (which must be legal: `ValueError`
    /// naming the game), or restarts where `restart[i]` is set (next-step: its row showed
    /// an end; the action is ignored); with `same_step` a game that ends restarts at once
    /// and the bots play on in the new game, else its end is shown (player -1). The bots
    /// then play every game's moves until the learner's seat decides (`seat`, or, when
    /// -1, drawn per game and episode as `pacru.vector.play.draw_seats` with `seat_base`
    /// = `hash_base(seed, 1)`); the move at ply `q` of game `i` draws from
    /// `SplitMix64::for_game(seed_i, q)`, `seed_i` hashed from `bot_base`, `i` and the
    /// episode as in `Batch.play_bots`. `max_steps` cuts a game after that many decisions
    /// (truncated, zero rewards); `ValueError` when it cuts a game twice in the bots'
    /// moves. `steps` holds int32 and `episodes` int64 values, one a game, `restart` a
    /// byte a game or nothing, all native-endian. Returns the new batch and one bytearray:
    /// the frame of `Batch.advance` (rewards and flags of the last end met in the step),
    /// then at offsets rounded up to 8 bytes the step counts (int32), the episodes
    /// (int64), right after them the learner's rewards (float32, its seat of the episode
    /// it decided in), then its seats now (int64) and the observation (as
    /// `Batch.observation` writes it for `dtype`, zeros where the player is -1); last, with
    /// `same_step`, the games of those ends as they ended (over, or cut by `max_steps`),
    /// a batch of its own whose game `j` is that of the `j`-th row (ascending) showing an
    /// end (empty in next-step mode). Played without the GIL on up to `threads` threads;
    /// the same games for every count.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, restart, steps, episodes, same_step, max_steps, seat, seat_base, bot, bot_base, dtype="float32", threads=1))]
    fn learner_step<'py>(
        &self,
        py: Python<'py>,
        actions: &[u8],
        restart: &[u8],
        steps: &[u8],
        episodes: &[u8],
        same_step: bool,
        max_steps: Option<u32>,
        seat: i32,
        seat_base: u64,
        bot: &str,
        bot_base: u64,
        dtype: &str,
        threads: usize,
    ) -> PyResult<(Py<Batch>, Bound<'py, PyByteArray>, Py<Batch>)> {
        let options = fused::Options {
            same_step,
            max_steps,
            seat,
            seat_base,
            bot,
            bot_base,
            dtype,
            threads,
        };
        fused::learner_step(self, py, actions, restart, steps, episodes, &options)
    }

    /// A uniformly random action of every game, as the native-endian int64 bytes of one
    /// action a game: game `i` takes the `floor(u * count)`-th (ascending) of its legal
    /// actions, or of all 415 where `shown[i]` is set (a row showing an end, whose mask
    /// is all True) or its game is over; `u = (z >> 11) * 2**-53` for the SplitMix64 hash
    /// `z = mix(mix(mix(base) ^ i * GAMMA) ^ GAMMA)` (`pacru.vector.draws.uniforms`
    /// computes the same with numpy). `shown` holds a byte per game. Drawn without the
    /// GIL on up to `threads` threads. `ValueError` when `shown` has another length.
    #[pyo3(signature = (base, shown, threads=1))]
    fn random_actions<'py>(
        &self,
        py: Python<'py>,
        base: u64,
        shown: &[u8],
        threads: usize,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        let n = self.games.len();
        let t = threads_with(n, threads, DRAWS_PER_THREAD);
        let games = |a, b| self.games.range(a, b);
        random_draws(
            &DRAWS,
            py,
            base,
            shown,
            n,
            t,
            games,
            |game: &Game, u, shown, _| {
                let legal = &game.legal;
                if shown || legal.is_empty() {
                    pick(u, NUM_ACTIONS)
                } else {
                    legal.nth(pick(u, legal.len())).map_or(0, usize::from)
                }
            },
        )
    }

    /// The mask of every game's decision, row after row: 415 bytes a game (bool), 1 at
    /// each legal action, or at every action for a game that is over or where `shown` is
    /// set (one byte a game: its row shows an end or a cut). Written without the GIL, on
    /// up to `threads` threads. `ValueError` when `shown` does not hold a byte a game.
    #[pyo3(signature = (shown, threads=1))]
    fn legal_action_mask<'py>(
        &self,
        py: Python<'py>,
        shown: &[u8],
        threads: usize,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        let n = self.games.len();
        if shown.len() != n {
            return Err(PyValueError::new_err("shown must hold one byte a game"));
        }
        let total = n
            .checked_mul(NUM_ACTIONS)
            .filter(|&t| t <= isize::MAX as usize)
            .ok_or_else(|| PyMemoryError::new_err("the mask is too large to hold"))?;
        let games = &self.games;
        PyByteArray::new_with(py, total, |buf| {
            py.detach(|| {
                MASK.run(n, threads_for(n, threads), |t| {
                    // Four pieces a thread, taken as the threads come.
                    let per = n.div_ceil(if t > 1 { 4 * t } else { 1 }).max(1);
                    let parts = buf.chunks_mut(NUM_ACTIONS * per).enumerate().collect();
                    each(parts, t, |(i, rows): (usize, &mut [u8])| {
                        let first = i * per;
                        let masks = rows.chunks_exact_mut(NUM_ACTIONS);
                        for ((mask, game), &s) in
                            masks.zip(games.range(first, n)).zip(&shown[first..])
                        {
                            write_mask(mask, game, s != 0);
                        }
                    });
                })
            });
            Ok(())
        })
    }

    /// The observation planes of every game, row after row: `planes * 81` values each,
    /// zeros for a game that is over, as `dtype` says: "float32" (native-endian),
    /// "uint8" (each value times 255, rounded half to even) or "bool" (1 where the value
    /// is not 0), written directly in that type. Written without the GIL, on up to
    /// `threads` threads. `ValueError` for another dtype.
    #[pyo3(signature = (threads=1, dtype="float32"))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        threads: usize,
        dtype: &str,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        let cell = observation_cell(dtype)?;
        let layout = &self.layout;
        let row_bytes = layout.planes() * 81 * cell.size();
        let games = &self.games;
        let total = games
            .len()
            .checked_mul(row_bytes)
            .filter(|&t| t <= isize::MAX as usize)
            .ok_or_else(|| PyMemoryError::new_err("the observation is too large to hold"))?;
        PyByteArray::new_with(py, total, |buf| {
            // The bytearray is new and zeroed, and no other thread can reach it yet.
            py.detach(|| {
                let write = |a: usize, out: &mut [u8]| {
                    let rows = out.len() / row_bytes;
                    for (g, o) in games
                        .range(a, a + rows)
                        .zip(out.chunks_exact_mut(row_bytes))
                    {
                        if !g.is_over() {
                            g.observation_as(layout, cell, o);
                        }
                    }
                };
                let n = games.len();
                OBSERVATION.run(n, threads_for(n, threads), |t| {
                    // Four pieces a thread, taken as the threads come.
                    let per = n.div_ceil(if t > 1 { 4 * t } else { 1 }).max(1);
                    let parts = buf.chunks_mut(per * row_bytes.max(1)).enumerate();
                    each(parts.collect(), t, |(i, out)| write(i * per, out));
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
    /// The action given to a game (its row, the action) is not legal there.
    Illegal(usize, i64),
    /// A piece of the games was lost: its thread panicked (a bug).
    Lost,
}

impl From<TryReserveError> for StepError {
    fn from(e: TryReserveError) -> StepError {
        StepError::Memory(e)
    }
}

impl StepError {
    fn into_py(self) -> PyErr {
        match self {
            StepError::Memory(e) => too_big(e),
            StepError::Illegal(row, action) => PyValueError::new_err(format!(
                "game {row}: action {action} is not legal in its decision"
            )),
            StepError::Decision(e) => crate::decisions::decision_error(e),
            StepError::Lost => PyRuntimeError::new_err("a thread of the step failed"),
        }
    }
}

// The thread count of each kind of call, chosen by measure (see `pacru_batch::tune`).
static CREATE: Tuner = Tuner::new();
static STEP: Tuner = Tuner::new();
static BOTS: Tuner = Tuner::new();
static ADVANCE: Tuner = Tuner::new();
pub(crate) static DRAWS: Tuner = Tuner::new();
static MASK: Tuner = Tuner::new();
static OBSERVATION: Tuner = Tuner::new();

/// The fewest games a thread of `Batch.random_actions` draws for: a draw takes about 50
/// nanoseconds, handing a piece to a worker kept warm by the step before about a
/// microsecond (several when it has to be woken).
const DRAWS_PER_THREAD: usize = 256;

/// The fewest games of a piece of `Batch.random_actions`' draws.
const DRAWS_PER_PIECE: usize = 128;

/// `MemoryError` for an allocation that failed.
fn too_big(e: TryReserveError) -> PyErr {
    no_memory("the batch is too large to hold", e)
}
