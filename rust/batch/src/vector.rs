//! The games of a `pacru.vector` batch ([`Batch`]), stepped decision by decision with the
//! chevron encoding of [`crate::decision`]: each call makes a new batch and writes the
//! frame of its rows ([`crate::frame`]) into a buffer of its [`Host`], on up to the
//! threads it is allowed (as many as its [`Tuner`] finds pay). `pacru._native.Batch`
//! holds one for `pacru.vector.native`.

use std::collections::TryReserveError;

use pacru_engine::{Position, Rules};

use crate::decision::{DecisionError, Game, Layout, NUM_ACTIONS};
use crate::frame::{
    bare_offsets, count, counter_offsets, offsets, par_rows, pieces, split_at, word, write_mask,
    Before, Out,
};
use crate::games::Games;
use crate::host::{argument, Error, Host};
use crate::learner::game_seed;
use crate::opponent::{play_bots, Bot};
use crate::par::{
    chunks, each, each_weighted, guided_ends, on_worker, threads_for, threads_with, try_filled,
    try_with_capacity,
};
use crate::rng::{mix, pick, uniform};
use crate::tune::Tuner;

// The thread count of each kind of call, chosen by measure (see `crate::tune`).
static CREATE: Tuner = Tuner::new();
static STEP: Tuner = Tuner::new();
static BOTS: Tuner = Tuner::new();
static ADVANCE: Tuner = Tuner::new();
static DRAWS: Tuner = Tuner::new();
static MASK: Tuner = Tuner::new();

/// The fewest games a thread of [`Batch::random_actions`] draws for: a draw takes about 50
/// nanoseconds, handing a piece to a worker kept warm by the step before about a
/// microsecond (several when it has to be woken).
const DRAWS_PER_THREAD: usize = 256;

/// The fewest games of a piece of [`Batch::random_actions`]' draws.
const DRAWS_PER_PIECE: usize = 128;

/// The games of a batch: an immutable value; each step returns a new one. A game is cheap
/// to copy (what the decisions of a move share is behind `Arc`s), so a new batch copies
/// the games it does not step.
pub struct Batch {
    /// First, so that its parts are freed before the start (as they were when the binding
    /// held them): fields drop in declaration order.
    pub(crate) games: Games,
    pub(crate) layout: Layout,
    pub(crate) start: Game,
}

/// The built-in bot named `name`: "random" or "greedy" (an argument error for another).
pub fn bot_of(name: &str) -> Result<Bot, Error> {
    match name {
        "random" => Ok(Bot::Random),
        "greedy" => Ok(Bot::Greedy),
        _ => Err(argument(format!(
            "no native bot {name:?}: 'random' or 'greedy'"
        ))),
    }
}

/// A new buffer of `host` holding a frame of `k` rows of `p` players, written by `write`
/// without the host's lock; `write`'s result comes back with it.
pub(crate) fn new_frame<H: Host, T: Send>(
    host: &H,
    k: usize,
    p: usize,
    write: impl FnOnce(Out<'_>) -> T + Send,
) -> Result<(H::Bytes, T), H::Error> {
    let total = offsets(k, p).ok_or_else(|| host.error(too_large()))?[5];
    host.zeroed(total, |buf| write(Out::of(buf, k, p)))
}

/// A new buffer of `host` holding a frame of `k` rows without its mask ([`bare_offsets`])
/// and its counters ([`counter_offsets`]), written by `write` without the host's lock (the
/// counters with [`count`], once the rows' ends are written); `write`'s result comes back
/// with it.
pub(crate) fn new_counted_frame<H: Host, T: Send>(
    host: &H,
    k: usize,
    p: usize,
    write: impl FnOnce(Out<'_>) -> T + Send,
) -> Result<(H::Bytes, T), H::Error> {
    let (Some(at), Some(ends)) = (bare_offsets(k, p), counter_offsets(k, p)) else {
        return Err(host.error(too_large()));
    };
    host.zeroed(ends[2], |buf| {
        let (frame, counters) = buf.split_at_mut(ends[0]);
        let (steps, episodes) = counters.split_at_mut(ends[1] - ends[0]);
        write(Out::at(frame, at).counting(steps, episodes))
    })
}

/// `before` checked against a batch of `n` games (see [`Batch::advance`]).
pub(crate) fn check_before(n: usize, before: &Before<'_>) -> Result<(), Error> {
    let ok = before.actions.len() == 8 * n
        && (before.restart.is_empty() || before.restart.len() == n)
        && before.steps.len() == 4 * n
        && before.episodes.len() == 8 * n;
    if ok {
        Ok(())
    } else {
        Err(argument(
            "actions and episodes must hold one int64 a game, steps one int32, restart \
             one byte a game or none",
        ))
    }
}

/// The error of a frame past what an allocation can hold.
pub(crate) fn too_large() -> Error {
    Error::TooLarge("the batch's arrays are too large to hold")
}

/// A new buffer of one random action a game (native-endian int64) for the `n` games of a
/// batch, `games(a, b)` those of rows `a..b` in order: `draw(game, u, shown, scratch)` is
/// game `row`'s, drawn with its uniform `u` of the hash base `base` ([`uniform`]),
/// `shown` when `shown[row]` is set (its row shows an end or a cut: an all-True mask),
/// `scratch` a vector the draws of a thread share. Drawn without the host's lock, in
/// pieces shared out on up to `threads` threads, each walking its rows' games in order
/// (not looking each row up among the parts of a batch made on several threads: a binary
/// search over their starts). An argument error when `shown` does not hold a byte a game.
#[allow(clippy::too_many_arguments)]
pub fn random_draws<'g, H: Host, G: 'g, I: Iterator<Item = &'g G>>(
    tuner: &Tuner,
    host: &H,
    base: u64,
    shown: &[u8],
    n: usize,
    threads: usize,
    games: impl Fn(usize, usize) -> I + Sync,
    draw: impl Fn(&G, f64, bool, &mut Vec<usize>) -> usize + Sync,
) -> Result<H::Bytes, H::Error> {
    if shown.len() != n {
        return Err(host.error(argument("shown must hold one byte a game")));
    }
    let first = mix(base);
    let (bytes, ()) = host.zeroed(8 * n, |buf| {
        tuner.run(n, threads, |threads| {
            let per = n.div_ceil(pieces(n, threads, DRAWS_PER_PIECE)).max(1);
            let parts = buf.chunks_mut(8 * per).enumerate().collect();
            let rows = |(_, out): &(usize, &mut [u8])| out.len() / 8;
            each_weighted(parts, threads, rows, |(i, out): (usize, &mut [u8])| {
                let mut scratch = Vec::new();
                let (a, b) = (i * per, i * per + out.len() / 8);
                let cells = out.chunks_exact_mut(8);
                for ((row, cell), game) in (a..).zip(cells).zip(games(a, b)) {
                    let action = draw(game, uniform(first, row), shown[row] != 0, &mut scratch);
                    cell.copy_from_slice(&(action as i64).to_ne_bytes());
                }
            });
        })
    })?;
    Ok(bytes)
}

/// The games a piece of a step made, whether a worker of the pool made them, and the
/// games its rows renewed as they ended (in row order); None for a piece whose thread
/// panicked.
type Parts = Vec<Option<Result<(Vec<Game>, bool, Vec<Game>), Error>>>;

impl Batch {
    /// The encoding of the batch's games.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the batch has no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Game `row`, or None past the last.
    pub fn get(&self, row: usize) -> Option<&Game> {
        self.games.get(row)
    }

    /// Game `row`, or [`Error::NoRow`].
    fn row(&self, row: usize) -> Result<&Game, Error> {
        self.games.get(row).ok_or(Error::NoRow(row))
    }

    /// A batch of these games, of the same encoding and start.
    pub(crate) fn with(&self, games: Games) -> Batch {
        Batch {
            layout: self.layout,
            start: self.start.clone(),
            games,
        }
    }

    /// `n` games at the first decision of `start` under `layout`, and the frame of every
    /// row, built on up to `threads` threads. [`Error::Memory`] when the batch cannot be
    /// held.
    pub fn create<H: Host>(
        host: &H,
        layout: Layout,
        start: Position,
        n: usize,
        threads: usize,
    ) -> Result<(Batch, H::Bytes), H::Error> {
        let first = Game::start(&layout, start);
        let p = usize::from(layout.players);
        let games = host
            .detach(|| try_filled(n, first.clone()))
            .map_err(|e| host.error(e.into()))?;
        let (frame, ()) = new_frame(host, n, p, |out| {
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
        Ok((batch, frame))
    }

    /// The batch after one decision in every game (`pacru._native.Batch.advance`): a
    /// restart where `before.restart[i]` is set, else the action `before.actions[i]`,
    /// which must be legal ([`Error::Illegal`] otherwise); with `before.renew`, a game
    /// that ends restarts from the batch's start in the same call. The frame has no mask
    /// and has the counters ([`count`]). Last, the games renewed, as they ended: a batch
    /// of its own whose game `j` is that of the `j`-th row (ascending) whose frame shows
    /// an end (none without `renew`), for their last positions (`pacru.vector.final`).
    /// Played without the host's lock on up to `threads` threads, each taking pieces of
    /// contiguous rows as it comes free; the same games for every count.
    pub fn advance<H: Host>(
        &self,
        host: &H,
        before: &Before<'_>,
        threads: usize,
    ) -> Result<(Batch, H::Bytes, Batch), H::Error> {
        let n = self.games.len();
        check_before(n, before).map_err(|e| host.error(e))?;
        let p = usize::from(self.layout.players);
        let most = threads_for(n, threads);
        let (frame, parts) = ADVANCE.run(n, most, |t| {
            new_counted_frame(host, n, p, |out| self.advance_rows(t, out, before))
        })?;
        let parts = parts
            .into_iter()
            .map(|part| part.unwrap_or(Err(Error::Lost)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| host.error(e))?;
        let (games, ended) = parts
            .into_iter()
            .map(|(games, pool, last)| ((games, pool), (last, pool)))
            .unzip();
        Ok((
            self.with(Games::made(games)),
            frame,
            self.with(Games::made(ended)),
        ))
    }

    /// The rows of a step (see [`Batch::advance`]), written into `out`, on up to
    /// `threads` threads taking pieces of rows as they come: each piece's games, whether
    /// a worker of the pool made them, and the games its rows renewed as they ended.
    fn advance_rows(&self, threads: usize, out: Out<'_>, before: &Before<'_>) -> Parts {
        let n = self.games.len();
        let p = usize::from(self.layout.players);
        let (layout, restart, actions, renew) =
            (&self.layout, before.restart, before.actions, before.renew);
        let parts = split_at(guided_ends(n, threads, 8).into_iter(), p, out);
        let rows = |(a, b, _): &(usize, usize, Out<'_>)| b - a;
        each_weighted(parts, threads, rows, |(a, b, mut out)| {
            let mut games = try_with_capacity(b - a).map_err(Error::Memory)?;
            let mut ended = Vec::new();
            for (j, (row, old)) in (a..b).zip(self.games.range(a, b)).enumerate() {
                // Each game is copied once, into its place in the new batch, and
                // stepped there.
                let mut game = if restart.get(row).is_some_and(|&r| r != 0) {
                    self.start.clone()
                } else {
                    let action = i64::from_ne_bytes(word(actions, row));
                    let mut game = old.clone();
                    let a = u16::try_from(action).unwrap_or(u16::MAX);
                    match game.choose_in_place(layout, a) {
                        Ok(()) => game,
                        Err(DecisionError::IllegalAction(_)) => {
                            return Err(Error::Illegal(row, action))
                        }
                        Err(e) => return Err(Error::Decision(e)),
                    }
                };
                if renew && game.is_over() {
                    out.write(j, p, &self.start, Some(&game));
                    // Kept as it ended: the caller reads its last position (`final_obs`).
                    ended.try_reserve(1).map_err(Error::Memory)?;
                    ended.push(std::mem::replace(&mut game, self.start.clone()));
                } else {
                    out.write(j, p, &game, None);
                }
                games.push(game);
            }
            count(&mut out, a, before);
            Ok((games, on_worker(), ended))
        })
    }

    /// The batch after one decision in each game of `rows`: a restart where `restart` is
    /// set (from `starts[j]`, a position under its rules, which must be the batch's rules
    /// and seats, or the batch's start when None), else `actions[j]`, which must be legal
    /// (both checked: an argument error; a row out of the batch: [`Error::NoRow`]). Returns
    /// the new batch and the frame of `rows` (one row per entry of `rows`). The games are
    /// played without the host's lock, on up to `threads` threads (the same games for
    /// every count).
    pub fn step<H: Host>(
        &self,
        host: &H,
        rows: &[usize],
        actions: &[u16],
        restart: &[bool],
        starts: &[Option<(&Rules, &Position)>],
        threads: usize,
    ) -> Result<(Batch, H::Bytes), H::Error> {
        let positions = self
            .check_step(rows, actions, restart, starts)
            .map_err(|e| host.error(e))?;
        let games = host
            .detach(|| {
                // Which entry of `rows` steps each game, if any.
                let mut slot = try_filled(self.games.len(), usize::MAX)?;
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
                    .map_err(Error::Decision)?;
                Ok(Games::new(parts))
            })
            .map_err(|e| host.error(e))?;
        let p = usize::from(self.layout.players);
        let k = rows.len();
        let (frame, ()) = new_frame(host, k, p, |out| {
            par_rows(&STEP, k, threads, p, out, |a, b, mut out| {
                for (j, &row) in rows[a..b].iter().enumerate() {
                    out.write(j, p, &games[row], None);
                }
            });
        })?;
        Ok((self.with(games), frame))
    }

    /// The arguments of [`Batch::step`] checked, and the restart position of each entry.
    fn check_step(
        &self,
        rows: &[usize],
        actions: &[u16],
        restart: &[bool],
        starts: &[Option<(&Rules, &Position)>],
    ) -> Result<Vec<Option<Position>>, Error> {
        let k = rows.len();
        if actions.len() != k || restart.len() != k || starts.len() != k {
            return Err(argument(
                "rows, actions, restart and starts differ in length",
            ));
        }
        let mut positions: Vec<Option<Position>> = try_with_capacity(k)?;
        for (j, start) in starts.iter().enumerate() {
            let row = rows[j];
            self.row(row)?;
            positions.push(match start {
                Some((rules, pos)) => {
                    // The batch steps and observes every game under its own rules and
                    // seats: another start would be played and encoded wrongly.
                    if **rules != self.layout.rules || pos.players != self.layout.players {
                        return Err(argument(format!(
                            "game {row}: the restart position is not of the batch's game"
                        )));
                    }
                    Some((*pos).clone())
                }
                None => None,
            });
        }
        for j in 0..k {
            let game = &self.games[rows[j]];
            if !restart[j] && !game.legal.contains(actions[j]) {
                return Err(Error::Illegal(rows[j], i64::from(actions[j])));
            }
        }
        Ok(positions)
    }

    /// The built-in bot `bot` ([`bot_of`]) plays in every game whose decision starts a
    /// move of a seat other than `seats[i]` (-1: every seat is a bot's), until that seat
    /// decides, the game ends or `budgets[i]` decisions are taken; the move at ply `p` of
    /// game `i` draws from `SplitMix64::for_game(seed_i, p)`, `seed_i` [`game_seed`] of
    /// `mix(base)`, `i` and `episodes[i]`. `seats` holds int32, `episodes` int64 and
    /// `budgets` uint32 values, one a game, as native-endian bytes. Returns the new batch,
    /// the frame of every row and the decisions taken in each game (uint32 bytes). Played
    /// without the host's lock on up to `threads` threads (the same games for every
    /// count).
    #[allow(clippy::too_many_arguments)]
    pub fn play_bots<H: Host>(
        &self,
        host: &H,
        seats: &[u8],
        bot: &str,
        base: u64,
        episodes: &[u8],
        budgets: &[u8],
        threads: usize,
    ) -> Result<(Batch, H::Bytes, Vec<u8>), H::Error> {
        let n = self.games.len();
        if seats.len() != 4 * n || episodes.len() != 8 * n || budgets.len() != 4 * n {
            return Err(host.error(argument(
                "seats, episodes and budgets must have one entry per game",
            )));
        }
        let bot = bot_of(bot).map_err(|e| host.error(e))?;
        let layout = self.layout;
        let p = usize::from(layout.players);
        let first = mix(base);
        let (frame, parts) = new_frame(host, n, p, |out| {
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
        let played = host.detach(|| {
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
        match played {
            Err(e) => Err(host.error(Error::Memory(e))),
            Ok(None) => Err(host.error(Error::Bot)),
            Ok(Some((games, taken))) => Ok((self.with(Games::new(games)), frame, taken)),
        }
    }

    /// A uniformly random action of every game, as the native-endian int64 bytes of one
    /// action a game: game `i` takes the `floor(u * count)`-th (ascending) of its legal
    /// actions, or of all 415 where `shown[i]` is set (a row showing an end, whose mask
    /// is all True) or its game is over, `u` the [`uniform`] of `mix(base)` and `i`.
    /// `shown` holds a byte per game. Drawn without the host's lock on up to `threads`
    /// threads. An argument error when `shown` has another length.
    pub fn random_actions<H: Host>(
        &self,
        host: &H,
        base: u64,
        shown: &[u8],
        threads: usize,
    ) -> Result<H::Bytes, H::Error> {
        let n = self.games.len();
        let t = threads_with(n, threads, DRAWS_PER_THREAD);
        let games = |a, b| self.games.range(a, b);
        random_draws(
            &DRAWS,
            host,
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
    /// set (one byte a game: its row shows an end or a cut). Written without the host's
    /// lock, on up to `threads` threads. An argument error when `shown` does not hold a
    /// byte a game.
    pub fn legal_action_mask<H: Host>(
        &self,
        host: &H,
        shown: &[u8],
        threads: usize,
    ) -> Result<H::Bytes, H::Error> {
        let n = self.games.len();
        if shown.len() != n {
            return Err(host.error(argument("shown must hold one byte a game")));
        }
        let total = n
            .checked_mul(NUM_ACTIONS)
            .filter(|&t| t <= isize::MAX as usize)
            .ok_or_else(|| host.error(Error::TooLarge("the mask is too large to hold")))?;
        let games = &self.games;
        let (bytes, ()) = host.zeroed(total, |buf| {
            MASK.run(n, threads_for(n, threads), |t| {
                // Four pieces a thread, taken as the threads come.
                let per = n.div_ceil(if t > 1 { 4 * t } else { 1 }).max(1);
                let parts = buf.chunks_mut(NUM_ACTIONS * per).enumerate().collect();
                each(parts, t, |(i, rows): (usize, &mut [u8])| {
                    let first = i * per;
                    let masks = rows.chunks_exact_mut(NUM_ACTIONS);
                    for ((mask, game), &s) in masks.zip(games.range(first, n)).zip(&shown[first..])
                    {
                        write_mask(mask, game, s != 0);
                    }
                });
            })
        })?;
        Ok(bytes)
    }
}
