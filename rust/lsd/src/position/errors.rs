//! Why a move (`Illegal`) or a position's parts (`PartsError`) are refused.

use std::fmt;

use crate::rules::MAX_COORD;

/// Why a move is illegal: the `reason` and `rule` of `pacru.errors.IllegalMoveError`, in the
/// order `pacru.lsd.legality.explain_illegal` tests them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The game has ended.
    GameOver,
    /// The tile would have to be turned and rotation is off (RULING 4).
    RotationNotAllowed,
    /// The mover has no such tile left (LSD 1.5).
    NotInSupply,
    /// The first tile goes to (0, 0) (RULING 20).
    FirstTileNotOrigin,
    /// The cell holds a tile (LSD 2.2).
    Occupied,
    /// The empty side on this side (0..4 = N, E, S, W) would face a half dot (LSD 2.2).
    ObstructsDot(u8),
    /// The half dot on this side would face an empty side (RULING 5).
    DotAgainstEmpty(u8),
    /// No half dot would be made whole (LSD 2.2).
    NoWholeDot,
}

impl Illegal {
    /// The `reason` code of the Python engine's error.
    pub fn reason(self) -> &'static str {
        match self {
            Illegal::GameOver => "game-over",
            Illegal::RotationNotAllowed => "rotation-not-allowed",
            Illegal::NotInSupply => "not-in-supply",
            Illegal::FirstTileNotOrigin => "first-tile-not-origin",
            Illegal::Occupied => "occupied",
            Illegal::ObstructsDot(_) => "obstructs-dot",
            Illegal::DotAgainstEmpty(_) => "dot-against-empty",
            Illegal::NoWholeDot => "no-whole-dot",
        }
    }

    /// The `rule` of the Python engine's error (`"LSD-<section>"` or `"LSD-R<n>"`).
    pub fn rule(self) -> &'static str {
        match self {
            Illegal::GameOver => "end",
            Illegal::RotationNotAllowed => "LSD-R4",
            Illegal::NotInSupply => "LSD-1.5",
            Illegal::FirstTileNotOrigin => "LSD-R20",
            Illegal::Occupied | Illegal::ObstructsDot(_) | Illegal::NoWholeDot => "LSD-2.2",
            Illegal::DotAgainstEmpty(_) => "LSD-R5",
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason(), self.rule())
    }
}

impl std::error::Error for Illegal {}

/// Why [`Position::from_parts`] refuses its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartsError {
    /// Not one supply and one captured list per seat.
    Seats,
    /// A seat's lists do not have one count per kind of the seat (its kinds).
    Kinds { seat: usize, kinds: usize },
    /// A cell beyond `±MAX_COORD`.
    Cell(i32),
    /// A tile whose owner has no kind that shows it.
    Tile(u8),
    /// A cell given twice.
    TwoTiles,
    /// A turn outside the seats, or one that does not agree with the outcome.
    Turn(i8),
}

impl fmt::Display for PartsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartsError::Seats => f.write_str("one supply and one captured list per seat"),
            PartsError::Kinds { seat, kinds } => write!(f, "seat {seat} has {kinds} kinds"),
            PartsError::Cell(cell) => write!(f, "cell {cell} is beyond ±{MAX_COORD}"),
            PartsError::Tile(tile) => write!(f, "no seat's kind shows tile {tile}"),
            PartsError::TwoTiles => f.write_str("a cell holds two tiles"),
            PartsError::Turn(turn) => write!(f, "turn {turn} does not fit the outcome"),
        }
    }
}

impl std::error::Error for PartsError {}
