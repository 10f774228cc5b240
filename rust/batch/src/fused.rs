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

use crate::decision::{Cell, NUM_ACTIONS};
use crate::frame::{cell_of, offsets, pieces, word, Out, ALIGN};
use crate::games::Games;
use crate::host::{argument, Error, Host};
use crate::learner::{mix, Row, Seats, Turn, TurnError};
use crate::par::{beside, threads_for, try_with_capacity, Queue};
use crate::tune::Tuner;
use crate::vector::{bot_of, too_large, Batch};

/// The thread count of learner steps, chosen by measure (see `crate::tune`).
static LEARNER: Tuner = Tuner::new();

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
        let ok = actions.len() == 8 * n
            && (restart.is_empty() || restart.len() == n)
            && steps.len() == 4 * n
            && episodes.len() == 8 * n;
        if !ok {
            return Err(host.error(argument(
                "actions and episodes must hold an int64 a game, steps an int32, restart a byte or none",
            )));
        }
        let layout = &self.layout;
        let p = usize::from(layout.players);
        let seats = match u8::try_from(o.seat) {
            Ok(seat) if usize::from(seat) < p => Seats::Fixed(seat),
            _ if o.seat == -1 => Seats::Drawn {
                first: mix(o.seat_base),
                players: layout.players,
            },
            _ => return Err(host.error(argument(format!("no seat {} in the game", o.seat)))),
        };
        let bot = bot_of(o.bot).map_err(|e| host.error(e))?;
        let cell = cell_of(o.dtype).map_err(|e| host.error(e))?;
        let turn = Turn {
            layout,
            start: &self.start,
            same_step: o.same_step,
            max_steps: o.max_steps,
            bot,
            bot_first: mix(o.bot_base),
            seats,
        };
        let row_bytes = layout.planes() * 81 * cell.size();
        let at = learner_offsets(n, p, row_bytes).ok_or_else(|| host.error(too_large()))?;
        let (buffer, games, t) = LEARNER.run(n, threads_for(n, o.threads), |t| {
            // Shared out as it comes (`queued`): zeroing the buffer alone takes a third of
            // a step on one thread at 256 games (4 MB of float32 observation), and the
            // workers step games meanwhile. Pieces of 8 rows: a learner step plays several
            // decisions a game.
            let pieces = pieces(n, t, 8);
            let bound = |piece: usize| n * piece / pieces;
            let step_piece = |piece: usize| -> Result<Vec<Row>, Error> {
                let (a, b) = (bound(piece), bound(piece + 1));
                let mut rows = try_with_capacity(b - a)?;
                for i in a..b {
                    let row = turn
                        .step(
                            i,
                            &self.games[i],
                            restart.get(i).is_some_and(|&r| r != 0),
                            i64::from_ne_bytes(word(actions, i)),
                            i32::from_ne_bytes(word(steps, i)),
                            i64::from_ne_bytes(word(episodes, i)),
                        )
                        .map_err(|e| game_error(i, e, o.max_steps))?;
                    rows.push(row);
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
            Ok((buffer, games, t))
        })?;
        // Stepped by whichever thread came: freed on the pool on two threads or more.
        let (games, ended) = games.map_err(|e| host.error(e))?;
        let made = |games| self.with(Games::made(vec![(games, t > 1)]));
        Ok((made(games), buffer, made(ended)))
    }
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
