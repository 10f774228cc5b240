//! A step of every game of a [`Batch`] in place ([`Batch::advance_in_place`]): the step
//! of [`Batch::advance`] for a batch its caller hands over (`pacru.vector`'s
//! `VectorEnv.step(state, actions, donate=True)`, as pgx and JAX donate buffers and
//! EnvPool steps in place). No game is copied into a new batch and no old batch is freed:
//! at batch 4,096 the copy was 12% of a step's instructions and the freeing the largest
//! part of what the calling thread did alone. [`Batch::play_bots_in_place`] does the same
//! for the built-in bots' moves (`pacru.vector.play.native_bots`), and
//! `crate::fused`'s `Batch::learner_step_in_place` for a learner step.

use crate::decision::{DecisionError, Game, Layout};
use crate::frame::{count, split_at, word, Before, Out};
use crate::games::Games;
use crate::host::{argument, Error, Host};
use crate::learner::{game_seed, mix};
use crate::opponent::play_bots_in;
use crate::par::{each_weighted, guided_ends, on_worker, threads_for};
use crate::tune::Tuner;
use crate::vector::{bot_of, check_before, new_counted_frame, new_frame, Batch};

// The thread count of a step in place, chosen by measure (see `crate::tune`): its rows
// cost less than a copying step's.
static IN_PLACE: Tuner = Tuner::new();
/// The same for the bots' moves in place.
static BOTS_IN_PLACE: Tuner = Tuner::new();

/// What a piece of a step in place gives back: the games its rows renewed as they ended
/// (in row order) and whether a worker of the pool stepped it; None for a piece whose
/// thread panicked.
type Parts = Vec<Option<Result<(Vec<Game>, bool), Error>>>;

impl Batch {
    /// [`Batch::advance`] on this batch's own games: the same games, frame and counters,
    /// and the games renewed as they ended (a batch of their own), but each game steps
    /// where it is. Every action is checked first: an illegal one ([`Error::Illegal`],
    /// naming the first such game), arguments of the wrong length or no room for the
    /// frame leave the batch unchanged. After an error while the games step (memory, a
    /// bug) the batch holds no game.
    pub fn advance_in_place<H: Host>(
        &mut self,
        host: &H,
        before: &Before<'_>,
        threads: usize,
    ) -> Result<(H::Bytes, Batch), H::Error> {
        let n = self.games.len();
        check_before(n, before).map_err(|e| host.error(e))?;
        self.check_actions(before).map_err(|e| host.error(e))?;
        let p = usize::from(self.layout.players);
        let (layout, start) = (&self.layout, &self.start);
        let games = &mut self.games;
        let made = IN_PLACE.run(n, threads_for(n, threads), |t| {
            new_counted_frame(host, n, p, |out| {
                step_rows(layout, start, games, t, out, before)
            })
        });
        // No frame: no game has stepped.
        let (frame, parts) = made?;
        let parts = parts
            .into_iter()
            .map(|part| part.unwrap_or(Err(Error::Lost)))
            .collect::<Result<Vec<_>, _>>();
        match parts {
            Ok(ended) => Ok((frame, self.with(Games::made(ended)))),
            Err(e) => {
                // Some pieces may have stepped and others not: no batch of the two halves.
                self.games = Games::new(Vec::new());
                Err(host.error(e))
            }
        }
    }

    /// [`Batch::play_bots`] on this batch's own games, each played where it is (no game
    /// copied into a new batch, no old batch freed): for a batch its caller hands over.
    /// The same games, frame and decisions taken (uint32 bytes, one a game); this batch
    /// is now the new one. Arguments of the wrong length or an unknown bot leave it
    /// unchanged; after an error while the games play (memory, a bug) it holds no game.
    #[allow(clippy::too_many_arguments)]
    pub fn play_bots_in_place<H: Host>(
        &mut self,
        host: &H,
        seats: &[u8],
        bot: &str,
        base: u64,
        episodes: &[u8],
        budgets: &[u8],
        threads: usize,
    ) -> Result<(H::Bytes, Vec<u8>), H::Error> {
        let n = self.games.len();
        if seats.len() != 4 * n || episodes.len() != 8 * n || budgets.len() != 4 * n {
            return Err(host.error(argument(
                "seats, episodes and budgets must have one entry per game",
            )));
        }
        let bot = bot_of(bot).map_err(|e| host.error(e))?;
        let (layout, first) = (&self.layout, mix(base));
        let p = usize::from(layout.players);
        let games = &mut self.games;
        let made = BOTS_IN_PLACE.run(n, threads_for(n, threads), |t| {
            new_frame(host, n, p, |out| {
                // Pieces alike, four a thread (a bot's moves cost about the same a game).
                let k = if t > 1 { (4 * t).min(n) } else { 1 };
                let ends: Vec<usize> = (1..=k).map(|i| n * i / k).collect();
                let pieces = games.pieces_mut(&ends);
                let parts: Vec<_> = split_at(ends.into_iter(), p, out)
                    .into_iter()
                    .zip(pieces)
                    .collect();
                let rows = |((a, b, _), _): &((usize, usize, Out<'_>), _)| b - a;
                each_weighted(parts, t, rows, |((a, b, mut out), piece)| {
                    let mut taken: Vec<u8> = crate::par::try_with_capacity(4 * (b - a))?;
                    let rows = piece.into_iter().flat_map(|slice| slice.iter_mut());
                    for (j, game) in rows.enumerate() {
                        let i = a + j;
                        let seed = game_seed(first, i, i64::from_ne_bytes(word(episodes, i)));
                        let seat = i32::from_ne_bytes(word(seats, i));
                        let budget = u32::from_ne_bytes(word(budgets, i));
                        let t = play_bots_in(layout, game, seat, bot, seed, budget)
                            .ok_or(Error::Bot)?;
                        out.write(j, p, game, None);
                        taken.extend_from_slice(&t.to_ne_bytes());
                    }
                    Ok::<_, Error>(taken)
                })
            })
        });
        let (frame, parts) = made?;
        let taken = parts
            .into_iter()
            .map(|part| part.unwrap_or(Err(Error::Lost)))
            .collect::<Result<Vec<_>, _>>()
            .map(|parts| parts.concat());
        match taken {
            Ok(taken) => Ok((frame, taken)),
            Err(e) => {
                // Some games may have played and others not: no batch of the two halves.
                self.games = Games::new(Vec::new());
                Err(host.error(e))
            }
        }
    }

    /// [`Error::Illegal`] for the first game (row order) whose action is not legal,
    /// restarted games aside: a step in place must refuse before any game steps. This
    /// runs on the calling thread alone, so it is kept to a few instructions a game.
    fn check_actions(&self, before: &Before<'_>) -> Result<(), Error> {
        let n = self.games.len();
        let actions = before.actions.chunks_exact(8).map(int64);
        for (row, (game, action)) in self.games.range(0, n).zip(actions).enumerate() {
            let legal = u16::try_from(action).is_ok_and(|a| game.legal.contains(a));
            if !legal && before.restart.get(row).is_none_or(|&r| r == 0) {
                return Err(Error::Illegal(row, action));
            }
        }
        Ok(())
    }
}

/// The native-endian int64 of 8 bytes (-1, never legal, for another length).
fn int64(bytes: &[u8]) -> i64 {
    bytes.try_into().map_or(-1, i64::from_ne_bytes)
}

/// The rows of a step in place (see [`Batch::advance_in_place`]) written into `out`, on up
/// to `threads` threads taking pieces of rows as they come (those of [`Batch::advance`]).
fn step_rows(
    layout: &Layout,
    start: &Game,
    games: &mut Games,
    threads: usize,
    out: Out<'_>,
    before: &Before<'_>,
) -> Parts {
    let n = games.len();
    let p = usize::from(layout.players);
    let ends = guided_ends(n, threads, 8);
    let pieces = games.pieces_mut(&ends);
    let parts: Vec<_> = split_at(ends.into_iter(), p, out)
        .into_iter()
        .zip(pieces)
        .collect();
    let rows = |((a, b, _), _): &((usize, usize, Out<'_>), _)| b - a;
    each_weighted(parts, threads, rows, |((a, _, mut out), piece)| {
        let mut ended = Vec::new();
        let rows = piece.into_iter().flat_map(|slice| slice.iter_mut());
        for (j, game) in rows.enumerate() {
            step_row(layout, start, game, a + j, before)?;
            if before.renew && game.is_over() {
                out.write(j, p, start, Some(game));
                // Kept as it ended: the caller reads its last position (`final_obs`).
                ended.try_reserve(1).map_err(Error::Memory)?;
                ended.push(std::mem::replace(game, start.clone()));
            } else {
                out.write(j, p, game, None);
            }
        }
        count(&mut out, a, before);
        Ok((ended, on_worker()))
    })
}

/// Game `row` after its decision: restarted from `start` where `before` restarts it (its
/// old moves kept for the thread's next positions), else after its action (checked legal).
fn step_row(
    layout: &Layout,
    start: &Game,
    game: &mut Game,
    row: usize,
    before: &Before<'_>,
) -> Result<(), Error> {
    if before.restart.get(row).is_some_and(|&r| r != 0) {
        std::mem::replace(game, start.clone()).retire();
        return Ok(());
    }
    let action = before.actions.get(8 * row..8 * row + 8).map_or(-1, int64);
    let a = u16::try_from(action).unwrap_or(u16::MAX);
    game.choose_keeping(layout, a).map_err(|e| match e {
        DecisionError::IllegalAction(_) => Error::Illegal(row, action),
        e => Error::Decision(e),
    })
}
