//! The games of a `pacru.vector` LSD batch ([`LsdBatch`]), stepped decision by decision
//! with the encoding of [`pacru_lsd::game`]; its frames are laid out as the chevron
//! games' ([`frame_offsets`]). `pacru._native.LsdBatch` holds one.

use std::sync::Arc;

use pacru_lsd::game::Planes;
use pacru_lsd::{Game, GameError, Layout, Position};

use crate::decision::Cell;
use crate::frame::{cell_of, frame_offsets};
use crate::host::{argument, Error, Host};
use crate::par::{chunks, each, threads_for, threads_with};
use crate::rng::pick;
use crate::tune::Tuner;
use crate::vector::{random_draws, too_large};

/// The fewest games an LSD thread steps: an LSD step copies a position and its vectors,
/// and on the project's 2-core machine the allocator's locks shared by two threads cost
/// more than the second thread saves below thousands of games (256 games: 0.79x; 2,048:
/// 0.85x-1.14x, 2026-11-28). The random draws follow the steps (a thread woken for a
/// draw alone costs more than the draw). The observation, a bulk write that allocates
/// nothing a game, shares out from 64 games a thread as the chevron games' does.
const ROWS_PER_THREAD: usize = 4096;

/// The thread count of LSD's random draws, chosen by measure (see `crate::tune`).
static LSD_DRAWS: Tuner = Tuner::new();

/// The threads worth using for `rows` LSD games when `threads` are allowed.
fn lsd_threads(rows: usize, threads: usize) -> usize {
    threads_with(rows, threads, ROWS_PER_THREAD)
}

/// The games a chunk of a step made, or the first row it could not step and why.
type Stepped = Result<Vec<Arc<Game>>, (usize, GameError)>;

/// The games of an LSD batch: an immutable value; `step` returns a new one (the games it
/// does not step are shared).
pub struct LsdBatch {
    layout: Arc<Layout>,
    start: Arc<Game>,
    games: Vec<Arc<Game>>,
}

impl LsdBatch {
    /// `n` games at the first decision of `start` under `layout`, and the frame of every
    /// row. An argument error for a start the engine refuses.
    pub fn create<H: Host>(
        host: &H,
        layout: Layout,
        start: Position,
        n: usize,
    ) -> Result<(LsdBatch, H::Bytes), H::Error> {
        let layout = Arc::new(layout);
        let game = Game::start(&layout, start).map_err(|e| host.error(argument(e.to_string())))?;
        let game = Arc::new(game);
        let games = vec![game.clone(); n];
        let frame = frame(host, &layout, &games)?;
        let batch = LsdBatch {
            layout,
            start: game,
            games,
        };
        Ok((batch, frame))
    }

    /// The encoding of the batch's games.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Game `row`, or None past the last.
    pub fn get(&self, row: usize) -> Option<&Game> {
        self.games.get(row).map(|g| &**g)
    }

    /// The arguments of a step of `rows` checked: as many actions, restarts and starts
    /// (an argument error), every row in the batch ([`Error::NoRow`] for the first
    /// that is not).
    pub fn check_rows(
        &self,
        rows: &[usize],
        actions: usize,
        restart: usize,
        starts: usize,
    ) -> Result<(), Error> {
        let k = rows.len();
        if actions != k || restart != k || starts != k {
            return Err(argument(
                "rows, actions, restart and starts must be of one length",
            ));
        }
        match rows.iter().find(|&&r| r >= self.games.len()) {
            Some(&bad) => Err(Error::NoRow(bad)),
            None => Ok(()),
        }
    }

    /// The batch after one decision in the games of `rows` (checked by
    /// [`LsdBatch::check_rows`]): a restart where `restart[j]` is set (from `fresh[j]`, or
    /// the batch's start where that is None), else the action `actions[j]`, which must be
    /// legal (an argument error naming the game otherwise; nothing changes). Returns the
    /// new batch and the frame of `rows`. The games are stepped without the host's lock
    /// on up to `threads` threads, each on a contiguous chunk of rows.
    pub fn step<H: Host>(
        &self,
        host: &H,
        rows: &[usize],
        actions: &[i64],
        restart: &[bool],
        fresh: &[Option<Position>],
        threads: usize,
    ) -> Result<(LsdBatch, H::Bytes), H::Error> {
        self.check_rows(rows, actions.len(), restart.len(), fresh.len())
            .map_err(|e| host.error(e))?;
        let k = rows.len();
        let layout = &*self.layout;
        let stepped: Vec<Stepped> = host.detach(|| {
            chunks(k, lsd_threads(k, threads), |a, b| {
                let mut out = Vec::with_capacity(b - a);
                for j in a..b {
                    let game = if restart[j] {
                        match fresh[j].clone() {
                            Some(position) => {
                                Arc::new(Game::start(layout, position).map_err(|e| (j, e))?)
                            }
                            None => self.start.clone(),
                        }
                    } else {
                        let mut game = (*self.games[rows[j]]).clone();
                        game.choose(layout, actions[j]).map_err(|e| (j, e))?;
                        Arc::new(game)
                    };
                    out.push(game);
                }
                Ok(out)
            })
        });
        let mut games = self.games.clone();
        let mut shown = Vec::with_capacity(k);
        for part in stepped {
            let part =
                part.map_err(|(j, e)| host.error(argument(format!("game {}: {e}", rows[j]))))?;
            shown.extend(part);
        }
        for (&row, game) in rows.iter().zip(&shown) {
            games[row] = game.clone();
        }
        let frame = frame(host, layout, &shown)?;
        let batch = LsdBatch {
            layout: self.layout.clone(),
            start: self.start.clone(),
            games,
        };
        Ok((batch, frame))
    }

    /// A uniformly random action of every game, as `Batch::random_actions` draws one (the
    /// native-endian int64 bytes of one action a game), of all `num_actions` where
    /// `shown[i]` is set or its game is over. Drawn without the host's lock on up to
    /// `threads` threads. An argument error when `shown` has another length.
    pub fn random_actions<H: Host>(
        &self,
        host: &H,
        base: u64,
        shown: &[u8],
        threads: usize,
    ) -> Result<H::Bytes, H::Error> {
        let n = self.games.len();
        let layout = &*self.layout;
        let all = layout.num_actions();
        let t = lsd_threads(n, threads);
        let games = |a: usize, b: usize| self.games[a..b].iter();
        random_draws(
            &LSD_DRAWS,
            host,
            base,
            shown,
            n,
            t,
            games,
            |game: &Arc<Game>, u, shown, legal| {
                game.legal_actions(layout, legal);
                if shown || legal.is_empty() {
                    pick(u, all)
                } else {
                    legal[pick(u, legal.len())]
                }
            },
        )
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the batch holds no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The observation of every game, `(n, planes, W, W)` of `dtype` ([`cell_of`]), zeros
    /// for a game that is over, written without the host's lock on up to `threads`
    /// threads.
    pub fn observation<H: Host>(
        &self,
        host: &H,
        threads: usize,
        dtype: &str,
    ) -> Result<H::Bytes, H::Error> {
        let total = self.observation_len(dtype).map_err(|e| host.error(e))?;
        let (bytes, written) =
            host.zeroed(total, |buf| self.observation_into(buf, threads, dtype))?;
        written.map_err(|e| host.error(e))?;
        Ok(bytes)
    }

    /// The bytes of [`LsdBatch::observation`] for `dtype` (an argument error for another
    /// dtype, [`Error::TooLarge`] past what memory can address).
    pub fn observation_len(&self, dtype: &str) -> Result<usize, Error> {
        let row = self.layout.observation_len() * cell_of(dtype)?.size();
        row.checked_mul(self.games.len())
            .filter(|&b| b <= isize::MAX as usize)
            .ok_or(Error::TooLarge("the observation is too large to hold"))
    }

    /// [`LsdBatch::observation`] written into `buf` (any contents: each row is zeroed as it is written; of
    /// [`LsdBatch::observation_len`] bytes: an argument error otherwise; `pacru.vector`
    /// hands in `numpy.zeros`, whose pages the threads that write the rows touch first),
    /// on up to `threads` threads.
    pub fn observation_into(
        &self,
        buf: &mut [u8],
        threads: usize,
        dtype: &str,
    ) -> Result<(), Error> {
        let cell = cell_of(dtype)?;
        let total = self.observation_len(dtype)?;
        if buf.len() != total {
            return Err(argument(format!(
                "the observation must hold {total} bytes of {dtype}"
            )));
        }
        let layout = &*self.layout;
        let row = layout.observation_len() * cell.size();
        let n = self.games.len();
        let t = threads_for(n, threads);
        let mut parts = Vec::with_capacity(t);
        let mut rest = buf;
        let mut start = 0;
        for i in 0..t {
            let end = n * (i + 1) / t;
            let (part, tail) = rest.split_at_mut((end - start) * row);
            parts.push((start, part));
            rest = tail;
            start = end;
        }
        each(parts, t, |(first, part): (usize, &mut [u8])| {
            for (j, chunk) in part.chunks_mut(row).enumerate() {
                chunk.fill(0); // the caller's array may hold anything: its rows are zeroed here
                let mut out = Bytes { buf: chunk, cell };
                self.games[first + j].observe(layout, &mut out);
            }
        });
        Ok(())
    }
}

/// A frame of `games` (one buffer of `host`, see [`frame_offsets`]), written without the
/// host's lock.
fn frame<H: Host>(host: &H, layout: &Layout, games: &[Arc<Game>]) -> Result<H::Bytes, H::Error> {
    let (k, a, p) = (games.len(), layout.num_actions(), layout.rules().players());
    let at = frame_offsets(k, a, p).ok_or_else(|| host.error(too_large()))?;
    let (bytes, ()) = host.zeroed(at[5], |buf| {
        let mut rewards = vec![0f32; p];
        for (j, game) in games.iter().enumerate() {
            game.write_mask(layout, &mut buf[j * a..(j + 1) * a]);
            let player = at[1] + 4 * j;
            buf[player..player + 4].copy_from_slice(&game.player().to_ne_bytes());
            game.returns(&mut rewards);
            for (s, r) in rewards.iter().enumerate() {
                let o = at[2] + 4 * (j * p + s);
                buf[o..o + 4].copy_from_slice(&r.to_ne_bytes());
            }
            // LSD has no limit that truncates a game: every end is a termination.
            buf[at[3] + j] = u8::from(game.is_over());
        }
    })?;
    Ok(bytes)
}

/// An observation row in the bytes of its dtype, zeros before: float32 native endian,
/// uint8 as numpy's `rint(x * 255).astype(uint8)` of the float32 value, bool 0 or 1.
struct Bytes<'a> {
    buf: &'a mut [u8],
    cell: Cell,
}

impl Planes for Bytes<'_> {
    fn len(&self) -> usize {
        self.buf.len() / self.cell.size()
    }
    fn set(&mut self, index: usize, value: f32) {
        let (code, size) = self.cell.encode(value);
        if let Some(slot) = self.buf.get_mut(index * size..(index + 1) * size) {
            slot.copy_from_slice(&code[..size]);
        }
    }
    fn fill(&mut self, start: usize, count: usize, value: f32) {
        let (code, size) = self.cell.encode(value);
        if let Some(run) = self.buf.get_mut(start * size..(start + count) * size) {
            if size == 1 {
                run.fill(code[0]);
            } else {
                for slot in run.chunks_exact_mut(size) {
                    slot.copy_from_slice(&code[..size]);
                }
            }
        }
    }
}
