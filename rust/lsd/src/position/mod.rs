//! An LSD position and its rules: placement, capture, rows, skipping {LSD 2.2-2.4}; the
//! port of `pacru.lsd.engine` and `pacru.lsd.state`'s move making.
//!
//! The field and the frontier are vectors of `(cell, value)` sorted by cell code, so the
//! legal moves come out in `LsdState.legal_moves()` order (by cell, x then y, then kind,
//! then orientation) without sorting, and a copy of a position is a few flat copies.
//! The frontier holds the empty cells that face at least one open half dot, each with its
//! constraint `need | forbid << 4` (`need`: sides facing a half dot, `forbid`: sides facing
//! an empty side); only those cells can take a tile (2.2.3).
//!
//! By meaning: `errors` holds why a move or a position is refused, `cells` the field's
//! cells and their neighbours (constraints, captures, rows), `legal` the legal moves and
//! their checks, `play` a move's making.

use crate::rules::{decode_cell, Rules, FACE_BITS, MAX_COORD, OWNER_SHIFT, STEP};

mod cells;
mod errors;
mod legal;
mod play;

pub use errors::{Illegal, PartsError};

/// A placement: the tile as it lies (6-bit face) on a cell code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Dots N 1, E 2, S 4, W 8; 16 for an `x` icon; 32 for a white icon.
    pub face: u8,
    /// The cell code (`pacru.lsd.tiles.encode_cell`).
    pub cell: i32,
}

/// How a game ended (LSD 2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// A row of `row_length` own tiles (1.7, RULING 18).
    Row,
    /// Nobody can place: a draw (RULING 19).
    Blocked,
}

/// The end of a game: how, and the winners as a bit set of seats (none for a draw).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub termination: Termination,
    pub winners: u8,
}

/// An LSD position: field, frontier, supplies, captured tiles, turn and outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    field: Vec<(i32, u8)>,
    frontier: Vec<(i32, u8)>,
    /// Every seat's supply by kind (`Rules::offset`), then every seat's captured tiles by
    /// kind (from `Rules::flat_len`): one vector, one allocation when a position is copied.
    counts: Vec<u16>,
    turn: i8,
    outcome: Option<Outcome>,
    last: Option<Move>,
}

impl Position {
    /// The start of a game: an empty field, full supplies, seat 0 to move (RULING 20).
    pub fn new(rules: &Rules) -> Position {
        let mut counts = Vec::with_capacity(2 * rules.flat_len());
        for seat in 0..rules.players() {
            counts.extend_from_slice(rules.initial(seat));
        }
        counts.resize(2 * rules.flat_len(), 0);
        Position {
            field: Vec::new(),
            frontier: Vec::new(),
            counts,
            turn: 0,
            outcome: None,
            last: None,
        }
    }

    /// A position from the parts an `LsdState` holds: cell code -> `face | seat << 6`,
    /// per-seat supplies and captured counts by kind, the seat to move (-1 once over), the
    /// outcome and the move that led here. The frontier is derived from the field.
    ///
    /// # Errors
    /// A cell beyond `±MAX_COORD` or given twice, a tile no kind of its owner shows, counts
    /// not matching the kinds, a turn outside the seats, or a turn that does not agree with
    /// the outcome. The parts are otherwise taken as the Python engine validated them.
    pub fn from_parts(
        rules: &Rules,
        field: &[(i32, u8)],
        supplies: &[Vec<u16>],
        captured: &[Vec<u16>],
        turn: i8,
        outcome: Option<Outcome>,
        last: Option<Move>,
    ) -> Result<Position, PartsError> {
        let players = rules.players();
        if supplies.len() != players || captured.len() != players {
            return Err(PartsError::Seats);
        }
        let mut counts = Vec::with_capacity(2 * rules.flat_len());
        for seat in 0..players {
            let kinds = rules.kinds(seat).len();
            if supplies[seat].len() != kinds || captured[seat].len() != kinds {
                return Err(PartsError::Kinds { seat, kinds });
            }
            counts.extend_from_slice(&supplies[seat]);
        }
        for lost in captured {
            counts.extend_from_slice(lost);
        }
        let mut cells: Vec<(i32, u8)> = Vec::with_capacity(field.len());
        for &(cell, tile) in field {
            let (x, y) = decode_cell(cell);
            let seat = usize::from(tile >> OWNER_SHIFT);
            if x.abs() > MAX_COORD || y.abs() > MAX_COORD || cell < 0 {
                return Err(PartsError::Cell(cell));
            }
            if seat >= players || rules.kind_of(seat, tile & FACE_BITS).is_none() {
                return Err(PartsError::Tile(tile));
            }
            cells.push((cell, tile));
        }
        cells.sort_unstable();
        if cells.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(PartsError::TwoTiles);
        }
        let over = outcome.is_some();
        let beyond = usize::try_from(turn).is_ok_and(|seat| seat >= players);
        if (turn == -1) != over || turn < -1 || beyond {
            return Err(PartsError::Turn(turn));
        }
        let mut position = Position {
            field: cells,
            frontier: Vec::new(),
            counts,
            turn,
            outcome,
            last,
        };
        let around: Vec<i32> = position
            .field
            .iter()
            .flat_map(|&(c, _)| STEP.map(|s| c + s))
            .collect();
        position.refresh(&around);
        Ok(position)
    }

    /// Cell code -> `face | seat << 6`, by cell.
    pub fn field(&self) -> &[(i32, u8)] {
        &self.field
    }

    /// Empty cell code -> `need | forbid << 4` for the cells facing an open half dot, by cell.
    pub fn frontier(&self) -> &[(i32, u8)] {
        &self.frontier
    }

    /// Seat `seat`'s tiles left, by kind (`Rules::kinds` order).
    pub fn supply<'a>(&'a self, rules: &Rules, seat: usize) -> &'a [u16] {
        let start = rules.offset(seat);
        &self.counts[start..start + rules.kinds(seat).len()]
    }

    /// Seat `seat`'s captured tiles, by kind.
    pub fn captured<'a>(&'a self, rules: &Rules, seat: usize) -> &'a [u16] {
        let start = self.counts.len() / 2 + rules.offset(seat);
        &self.counts[start..start + rules.kinds(seat).len()]
    }

    /// The seat to move, or -1 once the game is over.
    pub fn turn(&self) -> i8 {
        self.turn
    }

    /// The end of the game, if it has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The move that led here (None at the start or for a position made from parts without one).
    pub fn last(&self) -> Option<Move> {
        self.last
    }

    /// Each seat's payoff: +1 a winner, -1 the others; 0 for all in a draw or while the
    /// game runs (`GameState.returns`).
    pub fn returns(&self, out: &mut [f32]) {
        out.fill(0.0);
        if let Some(outcome) = self.outcome {
            let all = u32::try_from(out.len())
                .ok()
                .and_then(|n| 1u32.checked_shl(n))
                .map_or(u32::MAX, |b| b - 1);
            if outcome.winners != 0 && u32::from(outcome.winners) != all {
                for (seat, value) in out.iter_mut().enumerate() {
                    *value = if outcome.winners >> seat & 1 == 1 {
                        1.0
                    } else {
                        -1.0
                    };
                }
            }
        }
    }

    /// Tiles placed since the start: those on the field plus those captured.
    pub fn ply(&self) -> u32 {
        let lost = &self.counts[self.counts.len() / 2..];
        u32::try_from(self.field.len()).unwrap_or(u32::MAX)
            + lost.iter().map(|&c| u32::from(c)).sum::<u32>()
    }
}
