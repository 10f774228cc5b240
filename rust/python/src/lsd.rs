//! `LsdBatch`: the games of a `pacru.vector` LSD batch held natively, stepped decision by
//! decision with the encoding of `pacru_lsd::game` (the native seam of `pacru.vector.native`).
//!
//! A position crosses the boundary as the parts an `LsdState` holds (`Parts`): the field
//! as `(cell code, face | seat << 6)` pairs, each seat's supply and captured tiles by kind,
//! the seat to move (-1 once over), the end (0 none, 1 a row, 2 blocked) with its winners
//! as a bit set of seats, and the last move as `(face, cell code)` or None.

use std::sync::Arc;

use pacru_batch::decision::Cell;
use pacru_batch::par::{chunks, each};
use pacru_batch::rng::pick;
use pacru_lsd::{
    Game, GameError, Layout, Move, Outcome, PartsError, Position, Rules, RulesError, Termination,
};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::vector::{frame_offsets, observation_cell, random_draws};

/// The parts of a position (see the module docs).
pub(crate) type Parts = (
    Vec<(i32, u8)>,
    Vec<Vec<u16>>,
    Vec<Vec<u16>>,
    i8,
    u8,
    u8,
    Option<(u8, i32)>,
);

/// What `position` returns: the parts, with the frontier (`(cell, need | forbid << 4)`)
/// after the field.
type PartsOut = (
    Vec<(i32, u8)>,
    Vec<(i32, u8)>,
    Vec<Vec<u16>>,
    Vec<Vec<u16>>,
    i8,
    u8,
    u8,
    Option<(u8, i32)>,
);

pub(crate) fn position_of(py: Python<'_>, rules: &Rules, parts: Parts) -> PyResult<Position> {
    let (field, supplies, captured, turn, end, winners, last) = parts;
    let outcome = match end {
        0 => None,
        1 => Some(Outcome {
            termination: Termination::Row,
            winners,
        }),
        2 => Some(Outcome {
            termination: Termination::Blocked,
            winners,
        }),
        _ => return Err(PyValueError::new_err(format!("no LSD end has code {end}"))),
    };
    let last = last.map(|(face, cell)| Move { face, cell });
    Position::from_parts(rules, &field, &supplies, &captured, turn, outcome, last)
        .map_err(|e| parts_error(py, e))
}

/// The `pacru.errors.InvalidPositionError` of parts the engine refuses (the LSD side's one
/// conversion of `PartsError`; its message is the error's `Display`).
fn parts_error(py: Python<'_>, err: PartsError) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let class = py.import("pacru.errors")?.getattr("InvalidPositionError")?;
        Ok(PyErr::from_value(class.call1((err.to_string(),))?))
    })();
    made.unwrap_or_else(|e| e)
}

/// The `ValueError` of tables the engine refuses (the LSD side's one conversion of
/// `RulesError`, as `pacru.lsd.rules` refuses options: `ValueError`).
pub(crate) fn rules_error(err: RulesError) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// The games a chunk of a step made, or the first row it could not step and why.
type Stepped = Result<Vec<Arc<Game>>, (usize, GameError)>;

/// The fewest games an LSD thread steps: an LSD step copies a position and its vectors,
/// and on the project's 2-core machine the allocator's locks shared by two threads cost
/// more than the second thread saves below thousands of games (256 games: 0.79x; 2,048:
/// 0.85x-1.14x, 2026-11-28). The random draws follow the steps (a thread woken for a
/// draw alone costs more than the draw). The observation, a bulk write that allocates
/// nothing a game, shares out from 64 games a thread as the chevron games' does.
const ROWS_PER_THREAD: usize = 4096;

/// The thread count of LSD's random draws, chosen by measure (see `pacru_batch::tune`).
static LSD_DRAWS: pacru_batch::tune::Tuner = pacru_batch::tune::Tuner::new();

/// The threads worth using for `rows` LSD games when `threads` are allowed.
fn lsd_threads(rows: usize, threads: usize) -> usize {
    pacru_batch::par::threads_with(rows, threads, ROWS_PER_THREAD)
}

fn game_error(e: GameError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The games of an LSD batch: an immutable value; `step` returns a new one (the games it
/// does not step are shared).
#[pyclass(frozen, module = "pacru._native")]
pub(crate) struct LsdBatch {
    layout: Arc<Layout>,
    start: Arc<Game>,
    games: Vec<Arc<Game>>,
}

impl LsdBatch {
    fn row(&self, row: usize) -> PyResult<&Game> {
        self.games
            .get(row)
            .map(|g| &**g)
            .ok_or_else(|| PyIndexError::new_err(format!("no game {row} in the batch")))
    }

    /// A frame of `games` (one bytearray, see `step`), written without the GIL.
    fn frame<'py>(
        py: Python<'py>,
        layout: &Layout,
        games: &[Arc<Game>],
    ) -> PyResult<Bound<'py, PyByteArray>> {
        let (k, a, p) = (games.len(), layout.num_actions(), layout.rules().players());
        let at = frame_offsets(k, a, p)
            .ok_or_else(|| PyMemoryError::new_err("the batch's arrays are too large to hold"))?;
        PyByteArray::new_with(py, at[5], |buf| {
            py.detach(|| {
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
            });
            Ok(())
        })
    }
}

#[pymethods]
impl LsdBatch {
    /// `n` games at the first decision of `start` (its `Parts`) under the rules of these
    /// per-seat kinds and counts (`LsdRules.kinds`, `LsdRules.initial`), and the frame of
    /// every row. `ValueError` for tables or parts the engine refuses.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (kinds, initial, allow_rotation, strict, row_length, start, n))]
    fn create<'py>(
        py: Python<'py>,
        kinds: Vec<Vec<u8>>,
        initial: Vec<Vec<u16>>,
        allow_rotation: bool,
        strict: bool,
        row_length: u32,
        start: Parts,
        n: usize,
    ) -> PyResult<(Py<LsdBatch>, Bound<'py, PyByteArray>)> {
        let rules =
            Rules::new(kinds, initial, allow_rotation, strict, row_length).map_err(rules_error)?;
        let first = position_of(py, &rules, start)?;
        let layout = Arc::new(Layout::new(rules));
        let game = Arc::new(Game::start(&layout, first).map_err(game_error)?);
        let games = vec![game.clone(); n];
        let frame = Self::frame(py, &layout, &games)?;
        let batch = LsdBatch {
            layout,
            start: game,
            games,
        };
        Ok((Py::new(py, batch)?, frame))
    }

    /// The batch after one decision in the games of `rows`: a restart where `restart[j]`
    /// is set (from `starts[j]`'s parts, or the batch's start where that is None), else the
    /// action `actions[j]`, which must be legal (`ValueError` naming the game otherwise;
    /// nothing changes). Returns the new batch and the frame of `rows`, one bytearray: at
    /// the byte offsets 0, `a`, `b`, `c` and `c + k` (`a = ceil8(k * num_actions)`,
    /// `b = ceil8(a + 4k)`, `c = ceil8(b + 4k * players)`) the mask (bool, k x
    /// num_actions), the player deciding (int32, -1 at an end), the rewards (float32, k x
    /// players), terminated and truncated (bool). The games are stepped without the GIL on
    /// up to `threads` threads, each on a contiguous chunk of rows.
    #[pyo3(signature = (rows, actions, restart, starts, threads=1))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        rows: Vec<usize>,
        actions: Vec<i64>,
        restart: Vec<bool>,
        starts: Vec<Option<Parts>>,
        threads: usize,
    ) -> PyResult<(Py<LsdBatch>, Bound<'py, PyByteArray>)> {
        let k = rows.len();
        if actions.len() != k || restart.len() != k || starts.len() != k {
            return Err(PyValueError::new_err(
                "rows, actions, restart and starts must be of one length",
            ));
        }
        if let Some(&bad) = rows.iter().find(|&&r| r >= self.games.len()) {
            return Err(PyIndexError::new_err(format!("no game {bad} in the batch")));
        }
        let rules = self.layout.rules();
        let mut fresh: Vec<Option<Position>> = Vec::with_capacity(k);
        for (start, &again) in starts.into_iter().zip(&restart) {
            fresh.push(match start {
                Some(parts) if again => Some(position_of(py, rules, parts)?),
                _ => None,
            });
        }
        let layout = &*self.layout;
        let stepped: Vec<Stepped> = py.detach(|| {
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
                part.map_err(|(j, e)| PyValueError::new_err(format!("game {}: {e}", rows[j])))?;
            shown.extend(part);
        }
        for (&row, game) in rows.iter().zip(&shown) {
            games[row] = game.clone();
        }
        let frame = Self::frame(py, layout, &shown)?;
        let batch = LsdBatch {
            layout: self.layout.clone(),
            start: self.start.clone(),
            games,
        };
        Ok((Py::new(py, batch)?, frame))
    }

    /// A uniformly random action of every game, as `Batch.random_actions` draws one (the
    /// native-endian int64 bytes of one action a game): game `i` takes the
    /// `floor(u * count)`-th (ascending) of its legal actions, or of all `num_actions`
    /// where `shown[i]` is set (a row showing an end or a cut, whose mask is all True) or
    /// its game is over; `u` is `pacru.vector.draws.uniforms`' for the hash base
    /// `base`. `shown` holds a byte per game. Drawn without the GIL on up to `threads`
    /// threads. `ValueError` when `shown` has another length.
    #[pyo3(signature = (base, shown, threads=1))]
    fn random_actions<'py>(
        &self,
        py: Python<'py>,
        base: u64,
        shown: &[u8],
        threads: usize,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        let n = self.games.len();
        let layout = &*self.layout;
        let all = layout.num_actions();
        let t = lsd_threads(n, threads);
        let games = |a: usize, b: usize| self.games[a..b].iter();
        random_draws(
            &LSD_DRAWS,
            py,
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

    /// The observation of every game, `(n, planes, W, W)` of `dtype` ("float32": native
    /// endian; "uint8": each value times 255, rounded half to even; "bool": value != 0),
    /// zeros for a game that is over, written without the GIL on up to `threads` threads.
    #[pyo3(signature = (threads=1, dtype="float32"))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        threads: usize,
        dtype: &str,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        let cell = observation_cell(dtype)?;
        let layout = &*self.layout;
        let len = layout.observation_len();
        let row = len * cell.size();
        let bytes = row
            .checked_mul(self.games.len())
            .filter(|&b| b <= isize::MAX as usize)
            .ok_or_else(|| PyMemoryError::new_err("the observation is too large to hold"))?;
        PyByteArray::new_with(py, bytes, |buf| {
            py.detach(|| {
                let n = self.games.len();
                let t = pacru_batch::par::threads_for(n, threads);
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
                        let mut out = Bytes { buf: chunk, cell };
                        self.games[first + j].observe(layout, &mut out);
                    }
                });
            });
            Ok(())
        })
    }

    /// The parts of game `row`'s position (the final one once it has ended), with its
    /// frontier after the field (see the module docs).
    fn position(&self, row: usize) -> PyResult<PartsOut> {
        let game = self.row(row)?;
        let rules = self.layout.rules();
        let pos = game.position();
        let per_seat = |f: &dyn Fn(usize) -> Vec<u16>| (0..rules.players()).map(f).collect();
        let (end, winners) = match pos.outcome() {
            None => (0, 0),
            Some(o) => (
                if o.termination == Termination::Row {
                    1
                } else {
                    2
                },
                o.winners,
            ),
        };
        Ok((
            pos.field().to_vec(),
            pos.frontier().to_vec(),
            per_seat(&|s| pos.supply(rules, s).to_vec()),
            per_seat(&|s| pos.captured(rules, s).to_vec()),
            pos.turn(),
            end,
            winners,
            pos.last().map(|m| (m.face, m.cell)),
        ))
    }

    /// The actions already chosen in the move under way in game `row`.
    fn prefix(&self, row: usize) -> PyResult<Vec<i64>> {
        Ok(self.row(row)?.prefix().to_vec())
    }

    /// Game `row`'s legal moves as `(face, cell code)`, in `LsdState.legal_moves()` order.
    fn moves(&self, row: usize) -> PyResult<Vec<(u8, i32)>> {
        Ok(self
            .row(row)?
            .moves()
            .iter()
            .map(|m| (m.face, m.cell))
            .collect())
    }

    /// Why the mover of game `row` may not place `face` on `cell`: `(reason, rule, side)`
    /// as `pacru.lsd`'s `IllegalMoveError` has them (side 0..3 for N E S W, or -1), or None
    /// for a legal move.
    fn illegal(
        &self,
        row: usize,
        face: u8,
        cell: i32,
    ) -> PyResult<Option<(&'static str, &'static str, i8)>> {
        let game = self.row(row)?;
        Ok(game
            .position()
            .check(self.layout.rules(), Move { face, cell })
            .err()
            .map(|e| {
                let side = match e {
                    pacru_lsd::Illegal::ObstructsDot(s)
                    | pacru_lsd::Illegal::DotAgainstEmpty(s) => i8::try_from(s).unwrap_or(-1),
                    _ => -1,
                };
                (e.reason(), e.rule(), side)
            }))
    }

    /// The number of actions: `W * W + 64`.
    #[getter]
    fn num_actions(&self) -> usize {
        self.layout.num_actions()
    }

    /// The observation's shape: `(planes, W, W)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        (
            self.layout.planes(),
            self.layout.width(),
            self.layout.width(),
        )
    }
}

/// An observation row in the bytes of its dtype, zeros before: float32 native endian,
/// uint8 as numpy's `rint(x * 255).astype(uint8)` of the float32 value, bool 0 or 1.
struct Bytes<'a> {
    buf: &'a mut [u8],
    cell: Cell,
}

impl pacru_lsd::game::Planes for Bytes<'_> {
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
