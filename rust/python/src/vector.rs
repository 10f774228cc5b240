//! `Batch`: the games of a `pacru.vector` batch held natively ([`pacru_batch::Batch`], the
//! native seam of `pacru.vector.native`): its methods convert their arguments, call the
//! batch, and hand its frames back as bytearrays numpy reads in place (laid out by
//! [`pacru_batch::frame`]) and its errors back as exceptions.

use numpy::{PyArray1, PyArrayMethods};
use pacru_batch::decision::Layout;
use pacru_batch::frame::Before;
use pacru_batch::fused::Options;
use pacru_batch::{Error, Host};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};

use crate::errors::{bytearray, no_memory};
use crate::PyPosition;

/// The interpreter as the host of a batch: its buffers are bytearrays, written with the
/// GIL released.
pub(crate) struct Gil<'py>(pub(crate) Python<'py>);

impl<'py> Host for Gil<'py> {
    type Bytes = Bound<'py, PyByteArray>;
    type Error = PyErr;

    /// A new bytearray of `len` bytes, written by `write` without the GIL (it is new and
    /// zeroed, and no other thread can reach it yet).
    fn zeroed<T: Send>(
        &self,
        len: usize,
        write: impl FnOnce(&mut [u8]) -> T + Send,
    ) -> PyResult<(Bound<'py, PyByteArray>, T)> {
        let py = self.0;
        let mut result = None;
        let bytes = PyByteArray::new_with(py, len, |buf| {
            result = Some(py.detach(|| write(buf)));
            Ok(())
        })?;
        match result {
            Some(r) => Ok((bytes, r)),
            None => Err(PyRuntimeError::new_err("the frame was not written")),
        }
    }

    fn detach<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        self.0.detach(work)
    }

    fn error(&self, e: Error) -> PyErr {
        batch_error(e)
    }
}

/// The exception of a batch's error: `MemoryError` for memory, `IndexError` for a row out
/// of the batch, `RuntimeError` for a bug, else `ValueError`; with the error's message.
pub(crate) fn batch_error(e: Error) -> PyErr {
    match e {
        Error::Memory(err) => no_memory("the batch is too large to hold", err),
        Error::TooLarge(message) => PyMemoryError::new_err(message),
        Error::Decision(err) => crate::decisions::decision_error(err),
        Error::NoRow(_) => PyIndexError::new_err(e.to_string()),
        Error::Bot | Error::Lost => PyRuntimeError::new_err(e.to_string()),
        Error::Argument(_) | Error::Illegal(..) | Error::Restarts(_) => {
            PyValueError::new_err(e.to_string())
        }
    }
}

/// The games of a batch: a value that `step` and `advance` leave as it is (each returns a
/// new one); only `advance_in_place`, for a batch its caller hands over, changes it.
#[pyclass(module = "pacru._native")]
pub(crate) struct Batch(pacru_batch::Batch);

/// A new batch and its frame as Python values.
type Made<'py> = (Py<Batch>, Bound<'py, PyByteArray>);

/// `made`'s batch as a Python object, with its frame.
fn made<'py>(
    py: Python<'py>,
    made: (pacru_batch::Batch, Bound<'py, PyByteArray>),
) -> PyResult<Made<'py>> {
    Ok((Py::new(py, Batch(made.0))?, made.1))
}

/// A new batch, its frame and the games it renewed as they ended, as Python values.
type Ended<'py> = (Py<Batch>, Bound<'py, PyByteArray>, Py<Batch>);

/// `made`'s batches as Python objects, with its frame.
fn ended<'py>(
    py: Python<'py>,
    (batch, frame, ended): (
        pacru_batch::Batch,
        Bound<'py, PyByteArray>,
        pacru_batch::Batch,
    ),
) -> PyResult<Ended<'py>> {
    Ok((
        Py::new(py, Batch(batch))?,
        frame,
        Py::new(py, Batch(ended))?,
    ))
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
    ) -> PyResult<Made<'py>> {
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
        let pos = s.pos.clone();
        made(
            py,
            pacru_batch::Batch::create(&Gil(py), layout, pos, n, threads)?,
        )
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
    ) -> PyResult<Ended<'py>> {
        let before = Before {
            actions,
            restart,
            renew,
            steps,
            episodes,
        };
        ended(py, self.0.advance(&Gil(py), &before, threads)?)
    }

    /// `Batch.advance` on this batch's own games, each stepped where it is (no game copied,
    /// no old batch freed): for a batch that its caller hands over and no one else holds
    /// (`VectorEnv.step(..., donate=True)`). Returns the frame and the games renewed as
    /// `Batch.advance` does; this batch is now the new one. Every action is checked before
    /// any game steps: an illegal one (`ValueError` naming the game), arguments of the
    /// wrong length or no room for the frame leave the batch unchanged; after an error
    /// while the games step it holds no game.
    /// `RuntimeError` while another thread uses the batch.
    #[pyo3(signature = (actions, restart, renew, steps, episodes, threads=1))]
    #[allow(clippy::too_many_arguments)]
    fn advance_in_place<'py>(
        mut slf: PyRefMut<'py, Self>,
        py: Python<'py>,
        actions: &[u8],
        restart: &[u8],
        renew: bool,
        steps: &[u8],
        episodes: &[u8],
        threads: usize,
    ) -> PyResult<(Bound<'py, PyByteArray>, Py<Batch>)> {
        let before = Before {
            actions,
            restart,
            renew,
            steps,
            episodes,
        };
        let (frame, ended) = slf.0.advance_in_place(&Gil(py), &before, threads)?;
        Ok((frame, Py::new(py, Batch(ended))?))
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
    ) -> PyResult<Made<'py>> {
        let starts: Vec<_> = starts
            .iter()
            .map(|s| s.as_ref().map(|s| (&s.get().rules, &s.get().pos)))
            .collect();
        let host = Gil(py);
        made(
            py,
            self.0
                .step(&host, &rows, &actions, &restart, &starts, threads)?,
        )
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
        let host = Gil(py);
        let (batch, frame, taken) = self
            .0
            .play_bots(&host, seats, bot, base, episodes, budgets, threads)?;
        Ok((Py::new(py, Batch(batch))?, frame, bytearray(py, &taken)?))
    }

    /// `Batch.play_bots` on this batch's own games, each played where it is (no game
    /// copied, no old batch freed): for a batch that its caller hands over and no one else
    /// holds. Returns the frame and the decisions taken as `Batch.play_bots` does; this
    /// batch is now the new one. Arguments of the wrong length or an unknown bot leave it
    /// unchanged (`ValueError`); after an error while the games play it holds no game.
    /// `RuntimeError` while another thread uses the batch.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (seats, bot, base, episodes, budgets, threads=1))]
    fn play_bots_in_place<'py>(
        mut slf: PyRefMut<'py, Self>,
        py: Python<'py>,
        seats: &[u8],
        bot: &str,
        base: u64,
        episodes: &[u8],
        budgets: &[u8],
        threads: usize,
    ) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>)> {
        let host = Gil(py);
        let (frame, taken) = slf
            .0
            .play_bots_in_place(&host, seats, bot, base, episodes, budgets, threads)?;
        Ok((frame, bytearray(py, &taken)?))
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
    /// byte a game or nothing, all native-endian. `mask` and `observation`, zeroed
    /// contiguous uint8 arrays of 415 bytes a game and of `Batch.observation`'s length for
    /// `dtype` (`ValueError` for other lengths), receive the mask (bool, all True where the
    /// player is -1) and the observation (as `Batch.observation` writes it, zeros where
    /// the player is -1), each row written by the thread that stepped its game. Returns
    /// the new batch and one bytearray: the frame of `Batch.advance` without its mask
    /// (rewards and flags of the last end met in the step), then at offsets rounded up to
    /// 8 bytes the step
    /// counts (int32), the episodes (int64), right after them the learner's rewards
    /// (float32, its seat of the episode it decided in) and its seats now (int64); last, with
    /// `same_step`, the games of those ends as they ended (over, or cut by `max_steps`),
    /// a batch of its own whose game `j` is that of the `j`-th row (ascending) showing an
    /// end (empty in next-step mode). Played without the GIL on up to `threads` threads;
    /// the same games for every count.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, restart, steps, episodes, mask, observation, same_step, max_steps, seat, seat_base, bot, bot_base, dtype="float32", threads=1))]
    fn learner_step<'py>(
        &self,
        py: Python<'py>,
        actions: &[u8],
        restart: &[u8],
        steps: &[u8],
        episodes: &[u8],
        mask: &Bound<'py, PyArray1<u8>>,
        observation: &Bound<'py, PyArray1<u8>>,
        same_step: bool,
        max_steps: Option<u32>,
        seat: i32,
        seat_base: u64,
        bot: &str,
        bot_base: u64,
        dtype: &str,
        threads: usize,
    ) -> PyResult<Ended<'py>> {
        let options = Options {
            same_step,
            max_steps,
            seat,
            seat_base,
            bot,
            bot_base,
            dtype,
            threads,
        };
        let host = Gil(py);
        let (mut mask, mut obs) = (mask.try_readwrite()?, observation.try_readwrite()?);
        let outs = [mask.as_slice_mut()?, obs.as_slice_mut()?];
        ended(
            py,
            self.0
                .learner_step(&host, actions, restart, steps, episodes, outs, &options)?,
        )
    }

    /// `Batch.learner_step` on this batch's own games, each stepped where it is (no game
    /// copied, no old batch freed): for a batch that its caller hands over and no one else
    /// holds. Returns the bytearray and the games of the ends met as `Batch.learner_step`
    /// does; this batch is now the new one. Every action is checked before any game
    /// steps: an illegal one (`ValueError` naming the game), arguments of the wrong length
    /// or an unknown bot, seat or dtype leave the batch unchanged; after an error while
    /// the games step (`ValueError` for `max_steps` cutting a game twice, memory, a bug) it
    /// holds no game. `RuntimeError` while another thread uses the batch.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, restart, steps, episodes, mask, observation, same_step, max_steps, seat, seat_base, bot, bot_base, dtype="float32", threads=1))]
    fn learner_step_in_place<'py>(
        mut slf: PyRefMut<'py, Self>,
        py: Python<'py>,
        actions: &[u8],
        restart: &[u8],
        steps: &[u8],
        episodes: &[u8],
        mask: &Bound<'py, PyArray1<u8>>,
        observation: &Bound<'py, PyArray1<u8>>,
        same_step: bool,
        max_steps: Option<u32>,
        seat: i32,
        seat_base: u64,
        bot: &str,
        bot_base: u64,
        dtype: &str,
        threads: usize,
    ) -> PyResult<(Bound<'py, PyByteArray>, Py<Batch>)> {
        let options = Options {
            same_step,
            max_steps,
            seat,
            seat_base,
            bot,
            bot_base,
            dtype,
            threads,
        };
        let host = Gil(py);
        let (mut mask, mut obs) = (mask.try_readwrite()?, observation.try_readwrite()?);
        let outs = [mask.as_slice_mut()?, obs.as_slice_mut()?];
        let (buffer, ended) = slf
            .0
            .learner_step_in_place(&host, actions, restart, steps, episodes, outs, &options)?;
        Ok((buffer, Py::new(py, Batch(ended))?))
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
        self.0.random_actions(&Gil(py), base, shown, threads)
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
        self.0.legal_action_mask(&Gil(py), shown, threads)
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
        self.0.observation(&Gil(py), threads, dtype)
    }

    /// The number of games.
    fn __len__(&self) -> usize {
        self.0.len()
    }

    /// `Batch.observation` written into `out`, a contiguous uint8 array (any contents) of its
    /// length (`ValueError` for another length or dtype): a numpy array as malloc gives it,
    /// each row zeroed and written by the thread that writes it, instead of a bytearray
    /// that the calling thread alone must allocate and zero. Written without the GIL.
    #[pyo3(signature = (out, threads=1, dtype="float32"))]
    fn observation_into(
        &self,
        py: Python<'_>,
        out: &Bound<'_, PyArray1<u8>>,
        threads: usize,
        dtype: &str,
    ) -> PyResult<()> {
        let mut rw = out.try_readwrite()?;
        let buf = rw.as_slice_mut()?;
        py.detach(|| self.0.observation_into(buf, threads, dtype))
            .map_err(batch_error)
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

impl Batch {
    fn row(&self, row: usize) -> PyResult<&pacru_batch::decision::Game> {
        self.0
            .get(row)
            .ok_or_else(|| batch_error(Error::NoRow(row)))
    }
}
