//! One learner step of `pacru.gymnasium_vector.PacruVectorEnv` against a built-in bot in
//! one call ([`Batch::learner_step`]: the learner's decision, restarts, the bots' moves, the
//! frame, the observation), each game on a thread without the host's lock
//! ([`crate::learner::Turn::step`] plays a game).
//!
//! The result is one buffer: the frame of `Batch.advance` without its mask (player,
//! rewards, terminated, truncated) then, each at a multiple of 8 bytes, the step counts
//! (int32), the episodes (int64), the learner's rewards (float32) and its seats (int64):
//! [`learner_offsets`]. The buffer comes zeroed (the only way safe code gets a
//! bytearray), so a row writes only what is not zero; the calling thread writes it, piece
//! by piece in row order, while the workers step the next pieces. The mask and the
//! observation (the dtype's bytes, a row per game) go to arrays the caller hands in with
//! any contents (`numpy.empty`: at 4,096 games the float32 observation is 68 MB, which the
//! host's zeroed buffer took about 80 ms to allocate and zero on the calling thread alone,
//! most of a step, and `numpy.zeros` clears a block malloc reuses on that thread too);
//! each of their rows is zeroed and written by the thread that stepped its game, so its
//! pages are first touched there, in parallel.

use std::sync::{Mutex, PoisonError};

use crate::decision::{Cell, Game, Layout, NUM_ACTIONS};
use crate::frame::{bare_offsets, cell_of, pieces, word, Out, ALIGN};
use crate::games::Games;
use crate::host::{argument, Error, Host};
use crate::learner::{mix, Row, Seats, Turn, TurnError};
use crate::par::{beside, threads_for, try_with_capacity, Queue};
use crate::tune::Tuner;
use crate::vector::{bot_of, too_large, Batch};

/// The thread count of learner steps, chosen by measure (see `crate::tune`).
static LEARNER: Tuner = Tuner::new();
/// The same for learner steps in place (their rows cost less: no game copied or freed).
static LEARNER_IN_PLACE: Tuner = Tuner::new();

/// The byte offsets of a learner step's arrays for `n` games of `p` players: frame end,
/// steps, episodes, rewards, seats and the end.
pub fn learner_offsets(n: usize, p: usize) -> Option<[usize; 6]> {
    let up = |x: usize| x.checked_next_multiple_of(ALIGN);
    let frame = bare_offsets(n, p)?[5];
    let steps = up(frame)?;
    let episodes = up(steps.checked_add(n.checked_mul(4)?)?)?;
    let rewards = episodes.checked_add(n.checked_mul(8)?)?;
    let seats = up(rewards.checked_add(n.checked_mul(4)?)?)?;
    let end = seats.checked_add(n.checked_mul(8)?)?;
    (end <= isize::MAX as usize).then_some([frame, steps, episodes, rewards, seats, end])
}

/// The rows of a learner step's arrays (or some of them), borrowed from its bytearray.
struct Rows<'a> {
    out: Out<'a>,
    steps: &'a mut [u8],
    episodes: &'a mut [u8],
    rewards: &'a mut [u8],
    seats: &'a mut [u8],
}

impl<'a> Rows<'a> {
    /// The arrays of `buf` (zeroed, of the length [`learner_offsets`] gives).
    fn of(buf: &'a mut [u8], n: usize, setup: &Setup<'_>) -> Rows<'a> {
        let at = setup.at;
        let (frame, rest) = buf.split_at_mut(at[0]);
        let (_, rest) = rest.split_at_mut(at[1] - at[0]);
        let (steps, rest) = rest.split_at_mut(at[2] - at[1]);
        let (episodes, rest) = rest.split_at_mut(at[3] - at[2]);
        let (rewards, rest) = rest.split_at_mut(at[4] - at[3]);
        let (seats, _) = rest.split_at_mut(at[5] - at[4]);
        Rows {
            out: Out::at(frame, setup.frame_at),
            steps: &mut steps[..4 * n],
            episodes,
            rewards: &mut rewards[..4 * n],
            seats: &mut seats[..8 * n],
        }
    }

    /// The first `rows` rows, and the others.
    fn split(self, rows: usize, p: usize) -> (Rows<'a>, Rows<'a>) {
        let (o0, o1) = self.out.split(rows, p);
        let (s0, s1) = self.steps.split_at_mut(4 * rows);
        let (e0, e1) = self.episodes.split_at_mut(8 * rows);
        let (r0, r1) = self.rewards.split_at_mut(4 * rows);
        let (t0, t1) = self.seats.split_at_mut(8 * rows);
        (
            Rows {
                out: o0,
                steps: s0,
                episodes: e0,
                rewards: r0,
                seats: t0,
            },
            Rows {
                out: o1,
                steps: s1,
                episodes: e1,
                rewards: r1,
                seats: t1,
            },
        )
    }

    /// Row `j`: `row`'s `game`'s player (-1 at an end shown), its end's rewards and
    /// flags, its counts and the learner's reward and seat (its mask and observation are
    /// written where the game stepped: [`step_game`]).
    fn write(&mut self, j: usize, p: usize, row: &Row, game: &Game) {
        let out = &mut self.out;
        let player = if row.shown {
            -1
        } else {
            i32::from(game.pos().to_move)
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

/// The arguments of [`Batch::learner_step`] that are not arrays.
pub struct Options<'s> {
    pub same_step: bool,
    pub max_steps: Option<u32>,
    pub seat: i32,
    pub seat_base: u64,
    pub bot: &'s str,
    pub bot_base: u64,
    pub dtype: &'s str,
    pub threads: usize,
}

/// What a learner step of a batch works with, its arguments checked: the turn, the
/// observation's cell, a row's observation bytes and the offsets of the buffer.
struct Setup<'b> {
    turn: Turn<'b>,
    cell: Cell,
    row_bytes: usize,
    at: [usize; 6],
    /// The offsets of the frame (without its mask) at the buffer's start.
    frame_at: [usize; 6],
}

/// The [`Setup`] of a learner step of `n` games of `layout` from `start` (the arguments
/// as [`Batch::learner_step`] takes them), or the argument's error.
fn setup<'b>(
    layout: &'b Layout,
    start: &'b Game,
    n: usize,
    arrays: [&[u8]; 4],
    outs: [usize; 2],
    o: &Options<'_>,
) -> Result<Setup<'b>, Error> {
    let [actions, restart, steps, episodes] = arrays;
    let ok = actions.len() == 8 * n
        && (restart.is_empty() || restart.len() == n)
        && steps.len() == 4 * n
        && episodes.len() == 8 * n;
    if !ok {
        return Err(argument(
            "actions and episodes must hold an int64 a game, steps an int32, restart a byte or none",
        ));
    }
    let p = usize::from(layout.players);
    let seats = match u8::try_from(o.seat) {
        Ok(seat) if usize::from(seat) < p => Seats::Fixed(seat),
        _ if o.seat == -1 => Seats::Drawn {
            first: mix(o.seat_base),
            players: layout.players,
        },
        _ => return Err(argument(format!("no seat {} in the game", o.seat))),
    };
    let bot = bot_of(o.bot)?;
    let cell = cell_of(o.dtype)?;
    let turn = Turn {
        layout,
        start,
        same_step: o.same_step,
        max_steps: o.max_steps,
        bot,
        bot_first: mix(o.bot_base),
        seats,
    };
    let row_bytes = layout.planes() * 81 * cell.size();
    let [mask, observation] = outs;
    if n.checked_mul(NUM_ACTIONS) != Some(mask) {
        return Err(argument(format!(
            "the mask must hold {NUM_ACTIONS} bytes a game"
        )));
    }
    if n.checked_mul(row_bytes) != Some(observation) {
        return Err(argument(format!(
            "the observation must hold {row_bytes} bytes a game of {}",
            o.dtype
        )));
    }
    let at = learner_offsets(n, p).ok_or_else(too_large)?;
    let frame_at = bare_offsets(n, p).ok_or_else(too_large)?;
    Ok(Setup {
        turn,
        cell,
        row_bytes,
        at,
        frame_at,
    })
}

/// Game `i`'s learner step in place, its arguments read from the arrays of
/// [`Batch::learner_step`], and its mask and observation written into `mask` and `obs`
/// (whatever they held: this thread zeroes them first, so that the caller's arrays need
/// no zeroing on its thread; at an end shown, the mask all ones and the observation zero).
fn step_game(
    setup: &Setup<'_>,
    i: usize,
    game: &mut Game,
    arrays: [&[u8]; 4],
    [mask, obs]: [&mut [u8]; 2],
) -> Result<Row, Error> {
    let [actions, restart, steps, episodes] = arrays;
    let turn = &setup.turn;
    let row = turn
        .step_in(
            i,
            game,
            restart.get(i).is_some_and(|&r| r != 0),
            i64::from_ne_bytes(word(actions, i)),
            i32::from_ne_bytes(word(steps, i)),
            i64::from_ne_bytes(word(episodes, i)),
        )
        .map_err(|e| game_error(i, e, turn.max_steps))?;
    obs.fill(0);
    if row.shown {
        mask.fill(1);
    } else {
        mask.fill(0);
        for a in game.legal.iter() {
            if let Some(m) = mask.get_mut(usize::from(a)) {
                *m = 1;
            }
        }
        game.observation_as(turn.layout, setup.cell, obs);
    }
    Ok(row)
}

/// Each piece's rows of `values` (`per_row` bytes a row; the pieces end at the rows
/// `ends`), each taken once by the thread that steps the piece.
fn rows_of<'v>(
    values: &'v mut [u8],
    ends: &[usize],
    per_row: usize,
) -> Vec<Mutex<Option<&'v mut [u8]>>> {
    let mut rest = values;
    let mut start = 0;
    let mut held = Vec::with_capacity(ends.len());
    for &end in ends {
        let (piece, tail) = std::mem::take(&mut rest).split_at_mut((end - start) * per_row);
        held.push(Mutex::new(Some(piece)));
        (rest, start) = (tail, end);
    }
    held
}

/// What a piece's thread took from `held` (None: taken already).
fn take_held<T>(held: &[Mutex<Option<T>>], piece: usize) -> Option<T> {
    held.get(piece)?
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
}

/// The row ends of `pieces` pieces alike of `n` rows.
fn piece_ends(n: usize, pieces: usize) -> Vec<usize> {
    (1..=pieces).map(|k| n * k / pieces).collect()
}

impl Batch {
    /// One learner step against the built-in bot `o.bot` in every game, in one call
    /// (`pacru._native.Batch.learner_step`): game `i` takes `actions[i]` (which must be
    /// legal: [`Error::Illegal`]), or restarts where `restart[i]` is set; the bots then
    /// play every game's moves until the learner's seat decides ([`Turn::step`]). `steps`
    /// holds int32 and `episodes` int64 values, one a game, `restart` a byte a game or
    /// nothing, all native-endian; `mask` and `observation` (any contents) receive each game's
    /// mask (415 bytes a game, all ones where the row shows an end) and observation (as
    /// `Batch::observation` writes it for `o.dtype`, zeros where the row shows an end); an
    /// argument error for other lengths. Returns the new batch, the buffer of
    /// [`learner_offsets`] and, with `o.same_step`, the games of the ends the step met as
    /// they ended (over, or cut by `max_steps`): a batch of its own whose game `j` is that
    /// of the `j`-th row (ascending) showing an end (empty in next-step mode). Played
    /// without the host's lock on up to `o.threads` threads; the same games for every
    /// count.
    #[allow(clippy::too_many_arguments)]
    pub fn learner_step<H: Host>(
        &self,
        host: &H,
        actions: &[u8],
        restart: &[u8],
        steps: &[u8],
        episodes: &[u8],
        [mask, observation]: [&mut [u8]; 2],
        o: &Options<'_>,
    ) -> Result<(Batch, H::Bytes, Batch), H::Error> {
        let n = self.games.len();
        let arrays = [actions, restart, steps, episodes];
        let outs = [mask.len(), observation.len()];
        let setup =
            setup(&self.layout, &self.start, n, arrays, outs, o).map_err(|e| host.error(e))?;
        let p = usize::from(self.layout.players);
        let (buffer, games, t) = LEARNER.run(n, threads_for(n, o.threads), |t| {
            // Shared out as it comes (`queued`): zeroing the buffer takes a while on the
            // calling thread, and the workers step games meanwhile. Pieces of 8 rows: a
            // learner step plays several decisions a game.
            let pieces = pieces(n, t, 8);
            let ends = piece_ends(n, pieces);
            let masks = rows_of(&mut *mask, &ends, NUM_ACTIONS);
            let obs = rows_of(&mut *observation, &ends, setup.row_bytes);
            let step_piece = |piece: usize| -> Result<Vec<(Game, Row)>, Error> {
                let masks = take_held(&masks, piece).ok_or(Error::Lost)?;
                let obs = take_held(&obs, piece).ok_or(Error::Lost)?;
                let a = if piece == 0 { 0 } else { ends[piece - 1] };
                let mut rows = try_with_capacity(ends[piece] - a)?;
                let outs = masks
                    .chunks_exact_mut(NUM_ACTIONS)
                    .zip(obs.chunks_exact_mut(setup.row_bytes.max(1)));
                for (i, (row_mask, row_obs)) in (a..ends[piece]).zip(outs) {
                    let mut game = self.games[i].clone();
                    let row = step_game(&setup, i, &mut game, arrays, [row_mask, row_obs])?;
                    rows.push((game, row));
                }
                Ok(rows)
            };
            let (buffer, games) =
                queued(host, t, pieces, setup.at[5], &step_piece, |buf, take| {
                    let mut games = try_with_capacity(n)?;
                    let mut ended = Vec::new();
                    let mut rest = Rows::of(buf, n, &setup);
                    for piece in 0..pieces {
                        let rows = take(piece).ok_or(Error::Lost)??;
                        let (mut part, tail) = rest.split(rows.len(), p);
                        rest = tail;
                        for (j, (game, row)) in rows.into_iter().enumerate() {
                            part.write(j, p, &row, &game);
                            games.push(game);
                            if let Some(last) = row.last {
                                ended.try_reserve(1)?;
                                ended.push(last);
                            }
                        }
                    }
                    Ok((games, ended))
                })?;
            Ok((buffer, games, t))
        })?;
        // Stepped by whichever thread came: freed on the pool on two threads or more.
        let (games, ended) = games.map_err(|e| host.error(e))?;
        let made = |games| self.with(Games::made(vec![(games, t > 1)]));
        Ok((made(games), buffer, made(ended)))
    }

    /// [`Batch::learner_step`] on this batch's own games, each stepped where it is (no
    /// game copied into a new batch, no old batch freed): for a batch its caller hands
    /// over (`pacru.gymnasium_vector.PacruVectorEnv`'s state, which it alone holds). The
    /// same games, buffer, mask, observation and ended games; this batch is now the new one.
    /// Every action is checked first: an illegal one ([`Error::Illegal`], naming the first
    /// such game), arguments of the wrong length or no room for the buffer leave the batch
    /// unchanged. After an error while the games step ([`Error::Restarts`], memory, a bug)
    /// the batch holds no game.
    #[allow(clippy::too_many_arguments)]
    pub fn learner_step_in_place<H: Host>(
        &mut self,
        host: &H,
        actions: &[u8],
        restart: &[u8],
        steps: &[u8],
        episodes: &[u8],
        [mask, observation]: [&mut [u8]; 2],
        o: &Options<'_>,
    ) -> Result<(H::Bytes, Batch), H::Error> {
        let n = self.games.len();
        let arrays = [actions, restart, steps, episodes];
        let (layout, start) = (&self.layout, &self.start);
        let outs = [mask.len(), observation.len()];
        let setup = setup(layout, start, n, arrays, outs, o).map_err(|e| host.error(e))?;
        check_actions(&self.games, actions, restart).map_err(|e| host.error(e))?;
        let games = &mut self.games;
        let made = LEARNER_IN_PLACE.run(n, threads_for(n, o.threads), |t| {
            let outs = [&mut *mask, &mut *observation];
            let (buffer, ended) = step_in_place(host, games, &setup, arrays, outs, t)?;
            Ok::<_, H::Error>((buffer, ended, t))
        });
        let (buffer, ended, t) = made?;
        match ended {
            // Made by whichever thread came: freed on the pool on two threads or more.
            Ok(ended) => Ok((buffer, self.with(Games::made(vec![(ended, t > 1)])))),
            Err(e) => {
                // Some games may have stepped and others not: no batch of the two halves.
                self.games = Games::new(Vec::new());
                Err(host.error(e))
            }
        }
    }
}

/// [`Error::Illegal`] for the first game (row order) whose learner's action is not legal,
/// the rows that restart aside (their action is ignored): a step in place must refuse
/// before any game steps. On the calling thread alone: a few instructions a game.
fn check_actions(games: &Games, actions: &[u8], restart: &[u8]) -> Result<(), Error> {
    let n = games.len();
    let actions = actions
        .chunks_exact(8)
        .map(|b| b.try_into().map_or(-1, i64::from_ne_bytes));
    for (row, (game, action)) in games.range(0, n).zip(actions).enumerate() {
        let legal = u16::try_from(action).is_ok_and(|a| game.legal.contains(a));
        if !legal && restart.get(row).is_none_or(|&r| r == 0) {
            return Err(Error::Illegal(row, action));
        }
    }
    Ok(())
}

/// A learner step in place's buffer and the games of the ends it met, or the error of a
/// game's step.
type Stepped<B> = (B, Result<Vec<Game>, Error>);

/// The games of a learner step in place (see [`Batch::learner_step_in_place`]) on `t`
/// threads, as [`Batch::learner_step`] shares them out: the buffer and the games of the
/// ends met, or the error of a game's step.
fn step_in_place<H: Host>(
    host: &H,
    games: &mut Games,
    setup: &Setup<'_>,
    arrays: [&[u8]; 4],
    [mask, observation]: [&mut [u8]; 2],
    t: usize,
) -> Result<Stepped<H::Bytes>, H::Error> {
    let n = games.len();
    let p = usize::from(setup.turn.layout.players);
    let pieces = pieces(n, t, 8);
    let ends = piece_ends(n, pieces);
    // Each piece's games and observation rows, taken once by the thread that steps it;
    // the games are handed back with its rows to the caller, which writes the rest.
    let held: Vec<Mutex<Option<Vec<&mut [Game]>>>> = games
        .pieces_mut(&ends)
        .into_iter()
        .map(|piece| Mutex::new(Some(piece)))
        .collect();
    let masks = rows_of(mask, &ends, NUM_ACTIONS);
    let obs = rows_of(observation, &ends, setup.row_bytes);
    type Piece<'g> = Result<(Vec<Row>, Vec<&'g mut [Game]>), Error>;
    let step_piece = |piece: usize| -> Piece<'_> {
        let mut slices = take_held(&held, piece).ok_or(Error::Lost)?;
        let masks = take_held(&masks, piece).ok_or(Error::Lost)?;
        let obs = take_held(&obs, piece).ok_or(Error::Lost)?;
        let a = if piece == 0 { 0 } else { ends[piece - 1] };
        let mut rows = try_with_capacity(ends[piece] - a)?;
        let games = slices.iter_mut().flat_map(|slice| slice.iter_mut());
        let outs = masks
            .chunks_exact_mut(NUM_ACTIONS)
            .zip(obs.chunks_exact_mut(setup.row_bytes.max(1)));
        for ((i, game), (row_mask, row_obs)) in (a..).zip(games).zip(outs) {
            rows.push(step_game(setup, i, game, arrays, [row_mask, row_obs])?);
        }
        Ok((rows, slices))
    };
    queued(host, t, pieces, setup.at[5], &step_piece, |buf, take| {
        let mut ended = Vec::new();
        let mut rest = Rows::of(buf, n, setup);
        for piece in 0..pieces {
            let (rows, slices) = take(piece).ok_or(Error::Lost)??;
            let (mut part, tail) = rest.split(rows.len(), p);
            rest = tail;
            let games = slices.iter().flat_map(|slice| slice.iter());
            for (j, (row, game)) in rows.into_iter().zip(games).enumerate() {
                part.write(j, p, &row, game);
                if let Some(last) = row.last {
                    ended.try_reserve(1)?;
                    ended.push(last);
                }
            }
        }
        Ok(ended)
    })
}

/// A new buffer of `total` bytes of `host` and `fill`'s result, the work of a step shared
/// out as it comes: `step(piece)` runs on `pieces` pieces of the rows, on the `threads - 1`
/// workers from the start and on the caller once it has the buffer (zeroed, with the
/// host's lock held: the workers need not wait for it); the caller then runs `fill` on it
/// without the lock, which takes each piece's result with `take(piece)` (the piece is
/// stepped there if no thread has taken it yet, else waited for; None for a piece whose
/// thread panicked). The caller writes the rows, the workers step them: writing a row is
/// mostly waiting for memory, stepping a game mostly computing, so the two overlap.
fn queued<H: Host, S: Send, T: Send>(
    host: &H,
    threads: usize,
    pieces: usize,
    total: usize,
    step: &(dyn Fn(usize) -> S + Sync),
    fill: impl FnOnce(&mut [u8], &(dyn Fn(usize) -> Option<S> + Sync)) -> T + Send,
) -> Result<(H::Bytes, T), H::Error> {
    let queue = Queue::new(pieces).map_err(|e| host.error(e.into()))?;
    // The workers from the first piece too: the caller takes the pieces in order, and
    // finds those the workers stepped while it zeroed the buffer (from the back, the
    // caller would step the first half itself: 593 against 500 us a learner step of 256
    // games, in alternation).
    let drain = || queue.drain(step);
    beside(threads.saturating_sub(1), &drain, || {
        host.zeroed(total, |buf| fill(buf, &|piece| queue.take(piece, step)))
    })
}

/// The error of game `row`'s failed step.
fn game_error(row: usize, e: TurnError, max_steps: Option<u32>) -> Error {
    match e {
        TurnError::Illegal(action) => Error::Illegal(row, action),
        TurnError::Decision(e) => Error::Decision(e),
        TurnError::Bot => Error::Bot,
        TurnError::Restarts => Error::Restarts(max_steps),
    }
}
