//! A step of every game of a [`Batch`] in place ([`Batch::advance_in_place`]): the step
//! of [`Batch::advance`] for a batch its caller hands over (`pacru.vector`'s
//! `VectorEnv.step(state, actions, donate=True)`, as pgx and JAX donate buffers and
//! EnvPool steps in place). No game is copied into a new batch and no old batch is freed:
//! at batch 4,096 the copy was 12% of a step's instructions and the freeing the largest
//! part of what the calling thread did alone.

use crate::decision::{DecisionError, Game, Layout};
use crate::frame::{count, split_at, Before, Out};
use crate::games::Games;
use crate::host::{Error, Host};
use crate::par::{each_weighted, guided_ends, on_worker, threads_for};
use crate::tune::Tuner;
use crate::vector::{check_before, new_counted_frame, Batch};

// The thread count of a step in place, chosen by measure (see `crate::tune`): its rows
// cost less than a copying step's.
static IN_PLACE: Tuner = Tuner::new();

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
