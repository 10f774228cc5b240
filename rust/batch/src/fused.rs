//! One learner step of `pacru.gymnasium_vector.PacruVectorEnv` against a built-in bot in
//! one call ([`Batch::learner_step`]: the learner's decision, restarts, the bots' moves, the
//! frame, the observation), each game on a thread without the host's lock
//! ([`crate::learner::Turn::step`] plays a game).
//!
//! The result is one buffer: the frame of `Batch.advance` (mask, player, rewards,
//! terminated, truncated) then, each at a multiple of 8 bytes, the step counts (int32),
//! the episodes (int64), the learner's rewards (float32), its seats (int64) and the
//! observation (the dtype's bytes, a row per game): [`learner_offsets`]. The buffer comes zeroed
//! (the only way safe code gets a bytearray), so a row writes only what is not zero.

use std::sync::{Mutex, PoisonError};

use crate::decision::{Cell, Game, Layout, NUM_ACTIONS};
use crate::frame::{cell_of, offsets, pieces, word, Out, ALIGN};
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

/// The byte offsets of a learner step's arrays for `n` games of `p` players and
/// observation rows of `row_bytes`: frame end, steps, episodes, rewards, seats,
/// observation and the end.
pub fn learner_offsets(n: usize, p: usize, row_bytes: usize) -> Option<[usize; 7]> {
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
    /// The arrays of `buf` (zeroed, of the length [`learner_offsets`] gives).
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

    /// Row `j`: `row`'s `game`'s decision (or its end shown), its end's rewards and
    /// flags, its counts, the learner's reward and seat, and its observation (zeros at an
    /// end), as `setup` lays them out.
    fn write(&mut self, j: usize, p: usize, row: &Row, game: &Game, setup: &Setup<'_>) {
        let (turn, cell, row_bytes) = (&setup.turn, setup.cell, setup.row_bytes);
        let out = &mut self.out;
        let mask = &mut out.mask[j * NUM_ACTIONS..(j + 1) * NUM_ACTIONS];
        let player = if row.shown {
            mask.fill(1);
            -1
        } else {
            for a in game.legal.iter() {
                mask[usize::from(a)] = 1;
            }
            let obs = &mut self.observation[j * row_bytes..(j + 1) * row_bytes];
            game.observation_as(turn.layout, cell, obs);
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
    at: [usize; 7],
}

/// The [`Setup`] of a learner step of `n` games of `layout` from `start` (the arguments
/// as [`Batch::learner_step`] takes them), or the argument's error.
fn setup<'b>(
    layout: &'b Layout,
    start: &'b Game,
    n: usize,
    arrays: [&[u8]; 4],
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
    let at = learner_offsets(n, p, row_bytes).ok_or_else(too_large)?;
    Ok(Setup {
        turn,
        cell,
        row_bytes,
        at,
    })
}

/// Game `i`'s learner step in place, its arguments read from the arrays of
/// [`Batch::learner_step`].
fn step_game(
    turn: &Turn<'_>,
    i: usize,
    game: &mut Game,
    arrays: [&[u8]; 4],
    max_steps: Option<u32>,
) -> Result<Row, Error> {
    let [actions, restart, steps, episodes] = arrays;
    turn.step_in(
        i,
        game,
        restart.get(i).is_some_and(|&r| r != 0),
        i64::from_ne_bytes(word(actions, i)),
        i32::from_ne_bytes(word(steps, i)),
        i64::from_ne_bytes(word(episodes, i)),
    )
    .map_err(|e| game_error(i, e, max_steps))
}

impl Batch {
    /// One learner step against the built-in bot `o.bot` in every game, in one call
    /// (`pacru._native.Batch.learner_step`): game `i` takes `actions[i]` (which must be
    /// legal: [`Error::Illegal`]), or restarts where `restart[i]` is set; the bots then
    /// play every game's moves until the learner's seat decides ([`Turn::step`]). `steps`
    /// holds int32 and `episodes` int64 values, one a game, `restart` a byte a game or
    /// nothing, all native-endian. Returns the new batch, the buffer of [`learner_offsets`]
    /// and, with `o.same_step`, the games of the ends the step met as they ended (over, or
    /// cut by `max_steps`): a batch of its own whose game `j` is that of the `j`-th row
    /// (ascending) showing an end (empty in next-step mode). Played without the host's
    /// lock on up to `o.threads` threads; the same games for every count.
    pub fn learner_step<H: Host>(
        &self,
        host: &H,
        actions: &[u8],
        restart: &[u8],
        steps: &[u8],
        episodes: &[u8],
        o: &Options<'_>,
    ) -> Result<(Batch, H::Bytes, Batch), H::Error> {
        let n = self.games.len();
        let arrays = [actions, restart, steps, episodes];
        let setup = setup(&self.layout, &self.start, n, arrays, o).map_err(|e| host.error(e))?;
        let (turn, row_bytes, at) = (&setup.turn, setup.row_bytes, setup.at);
        let p = usize::from(self.layout.players);
        let (buffer, games, t) = LEARNER.run(n, threads_for(n, o.threads), |t| {
            // Shared out as it comes (`queued`): zeroing the buffer alone takes a third of
            // a step on one thread at 256 games (4 MB of float32 observation), and the
            // workers step games meanwhile. Pieces of 8 rows: a learner step plays several
            // decisions a game.
            let pieces = pieces(n, t, 8);
            let bound = |piece: usize| n * piece / pieces;
            let step_piece = |piece: usize| -> Result<Vec<(Game, Row)>, Error> {
                let (a, b) = (bound(piece), bound(piece + 1));
                let mut rows = try_with_capacity(b - a)?;
                for i in a..b {
                    let mut game = self.games[i].clone();
                    let row = step_game(turn, i, &mut game, arrays, o.max_steps)?;
                    rows.push((game, row));
                }
                Ok(rows)
            };
            let (buffer, games) = queued(host, t, pieces, at[6], &step_piece, |buf, take| {
                let mut games = try_with_capacity(n)?;
                let mut ended = Vec::new();
                let mut rest = Rows::of(buf, n, p, at);
                for piece in 0..pieces {
                    let rows = take(piece).ok_or(Error::Lost)??;
                    let (mut part, tail) = rest.split(rows.len(), p, row_bytes);
                    rest = tail;
                    for (j, (game, row)) in rows.into_iter().enumerate() {
                        part.write(j, p, &row, &game, &setup);
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
    /// same games, buffer and ended games; this batch is now the new one. Every action
    /// is checked first: an illegal one ([`Error::Illegal`], naming the first such game),
    /// arguments of the wrong length or no room for the buffer leave the batch unchanged.
    /// After an error while the games step ([`Error::Restarts`], memory, a bug) the batch
    /// holds no game.
    pub fn learner_step_in_place<H: Host>(
        &mut self,
        host: &H,
        actions: &[u8],
        restart: &[u8],
        steps: &[u8],
        episodes: &[u8],
        o: &Options<'_>,
    ) -> Result<(H::Bytes, Batch), H::Error> {
        let n = self.games.len();
        let arrays = [actions, restart, steps, episodes];
        let (layout, start) = (&self.layout, &self.start);
        let setup = setup(layout, start, n, arrays, o).map_err(|e| host.error(e))?;
        check_actions(&self.games, actions, restart).map_err(|e| host.error(e))?;
        let games = &mut self.games;
        let made = LEARNER_IN_PLACE.run(n, threads_for(n, o.threads), |t| {
            let (buffer, ended) = step_in_place(host, games, &setup, arrays, o.max_steps, t)?;
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
    max_steps: Option<u32>,
    t: usize,
) -> Result<Stepped<H::Bytes>, H::Error> {
    let n = games.len();
    let (turn, row_bytes, at) = (&setup.turn, setup.row_bytes, setup.at);
    let p = usize::from(turn.layout.players);
    let pieces = pieces(n, t, 8);
    let ends: Vec<usize> = (1..=pieces).map(|k| n * k / pieces).collect();
    // Each piece's games, taken once by the thread that steps it and handed back with its
    // rows to the caller, which writes them.
    let held: Vec<Mutex<Option<Vec<&mut [Game]>>>> = games
        .pieces_mut(&ends)
        .into_iter()
        .map(|piece| Mutex::new(Some(piece)))
        .collect();
    type Piece<'g> = Result<(Vec<Row>, Vec<&'g mut [Game]>), Error>;
    let step_piece = |piece: usize| -> Piece<'_> {
        let mut slices = held
            .get(piece)
            .and_then(|h| h.lock().unwrap_or_else(PoisonError::into_inner).take())
            .ok_or(Error::Lost)?;
        let a = if piece == 0 { 0 } else { ends[piece - 1] };
        let mut rows = try_with_capacity(ends[piece] - a)?;
        let games = slices.iter_mut().flat_map(|slice| slice.iter_mut());
        for (i, game) in (a..).zip(games) {
            rows.push(step_game(turn, i, game, arrays, max_steps)?);
        }
        Ok((rows, slices))
    };
    queued(host, t, pieces, at[6], &step_piece, |buf, take| {
        let mut ended = Vec::new();
        let mut rest = Rows::of(buf, n, p, at);
        for piece in 0..pieces {
            let (rows, slices) = take(piece).ok_or(Error::Lost)??;
            let (mut part, tail) = rest.split(rows.len(), p, row_bytes);
            rest = tail;
            let games = slices.iter().flat_map(|slice| slice.iter());
            for (j, (row, game)) in rows.into_iter().zip(games).enumerate() {
                part.write(j, p, &row, game, setup);
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
