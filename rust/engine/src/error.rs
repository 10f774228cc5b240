//! The errors of the engine, by kind: each carries the data of what is wrong (the counts,
//! seats, field numbers, codes or move it refused), never a message. The message is written
//! in one place, the `Display` impls below, in the words of the Python engine
//! (`pacru.chevron.pystate`, `pacru.chevron.rules`, `pacru.chevron.resolve`): the
//! differential tests (tests/native) compare the two engines' messages.

use crate::illegal::Illegal;
use crate::moves::Move;
use crate::types::{Game, COUNTER_MAX};
use crate::units::Field;
use std::fmt;

/// An error for input the engine refuses, by kind; the binding maps each kind to one
/// `pacru` exception (`rust/python/src/errors.rs`), and `Display` says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EngineError {
    /// A game name the engine does not know (`ValueError`). The name is the caller's
    /// text, which the caller holds: it writes the message with it (the binding echoes
    /// it, as the Python engine does); no error of the engine carries a `String`.
    UnknownGame,
    /// A rule option the game does not have, or a value out of range (`ValueError`;
    /// D32, D33, D48).
    InvalidOption(OptionError),
    /// Values that make no position: a bad shape, marker, chevron code or seat
    /// (`InvalidPositionError`).
    InvalidPosition(PositionError),
    /// A move that is not one of the position's legal moves (`IllegalMoveError`), and
    /// where it was refused: with the rule it breaks ([`Refusal::Rule`]) when the caller
    /// asked why ([`crate::check`]).
    IllegalMove(Move, Refusal),
    /// A move asked of a finished game (`GameOverError`).
    GameOver(Move),
    /// A counter would pass [`COUNTER_MAX`] (`InvalidPositionError`).
    CounterLimit(Counter),
}

/// A rule option that [`crate::Rules::with_options`] refuses, with the game asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionError {
    /// The original meeting rule asked of a game other than Pacru (D48).
    MeetingRuleNotPacru(Game),
    /// A move cap asked of Lilacru or Shacru (D32).
    MoveCapGame(Game),
    /// A move cap of 0 plies (D32).
    MoveCapZero,
    /// An idle limit of 0 rounds (D33).
    IdleRoundsZero,
    /// An idle limit other than 81 asked of Azacru or Pacru (D33).
    IdleRoundsGame(Game),
}

/// Why values make no position ([`crate::Position::new`] and the binding's readers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionError {
    /// A player count outside 2..=4.
    PlayerCount(u8),
    /// Lists of markers and of chevrons that do not both have one entry per player.
    SeatLists {
        /// The number of players.
        players: u8,
        /// The number of marker bitboards given.
        markers: usize,
        /// The number of chevron lists given.
        chevrons: usize,
    },
    /// A marker bitboard with a bit above field 80.
    MarkerOffBoard,
    /// The field that holds markers of two colours.
    MarkersOfTwoColours(Field),
    /// A chevron code not below 648 (`field * 8 + facing`).
    ChevronCode(u16),
    /// The field that holds two chevrons.
    TwoChevrons(Field),
    /// A seat to move that is not one of the players.
    ToMove {
        /// The seat given.
        to_move: u8,
        /// The number of players.
        players: u8,
    },
    /// An eliminated seat beyond the players.
    OutBeyondPlayers,
    /// An Azacru trigger that is neither -1 nor a seat.
    Trigger(i8),
    /// A winner beyond the players.
    WinnersBeyondPlayers,
    /// Public fields changed to a shape the engine cannot index (resolution is defensive).
    Shape,
    /// A count or seat outside what the engine holds (the binding's readers).
    OutOfRange,
    /// Players and marker lists of different lengths (the binding's readers).
    PlayersDiffer,
}

/// Where a move that is not legal was refused (each place has its own words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// By [`crate::apply`]: not in the position's legal move list.
    NotLegal,
    /// By resolution, defensively: a move the list handed out that cannot be resolved.
    Unresolvable,
    /// By the binding, for a move [`crate::check`] finds no rule against (defensive).
    NotListed,
    /// By [`crate::check`]: the rule it breaks, as data (its message names seats as
    /// `seat N`; [`Illegal::named`] gives the players' names).
    Rule(Illegal),
}

/// A counter of a position that the engine holds up to [`COUNTER_MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counter {
    /// Plies since the start of the game.
    Ply,
    /// Lilacru/Shacru: plies since a field was last acquired (D33).
    Idle,
}

impl Counter {
    /// The counter's name as `pacru` spells it: `"ply"`, `"idle"`.
    pub fn name(self) -> &'static str {
        match self {
            Counter::Ply => "ply",
            Counter::Idle => "idle",
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownGame => {
                f.write_str("unknown chevron game; valid: lilacru, shacru, azacru, pacru")
            }
            EngineError::InvalidOption(error) => error.fmt(f),
            EngineError::InvalidPosition(error) => error.fmt(f),
            EngineError::IllegalMove(m, Refusal::NotLegal) => {
                write!(f, "{m} is not a legal move here")
            }
            EngineError::IllegalMove(m, Refusal::Unresolvable) => {
                write!(f, "{m} is not a move of this position")
            }
            EngineError::IllegalMove(m, Refusal::NotListed) => write!(f, "{m} is not legal here"),
            EngineError::IllegalMove(_, Refusal::Rule(illegal)) => illegal.fmt(f),
            EngineError::GameOver(m) => write!(f, "the game is over; {m} was not played"),
            EngineError::CounterLimit(counter) => {
                write!(f, "{} cannot count past {COUNTER_MAX}", counter.name())
            }
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OptionError::MeetingRuleNotPacru(_) => "meeting_rule applies to Pacru only",
            OptionError::MoveCapGame(_) => "move_cap applies to Pacru and Azacru only (ruling D32)",
            OptionError::MoveCapZero => "move_cap must be a positive number of plies",
            OptionError::IdleRoundsZero => "idle_rounds must be a positive whole number",
            OptionError::IdleRoundsGame(_) => {
                "idle_rounds applies to Lilacru and Shacru only (ruling D33)"
            }
        })
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::PlayerCount(players) => write!(
                f,
                "a chevron game is played by 2, 3 or 4 players, not {players}"
            ),
            PositionError::SeatLists {
                players,
                markers,
                chevrons,
            } => write!(
                f,
                "markers and chevrons must list {players} seats, not {markers} and {chevrons}"
            ),
            PositionError::MarkerOffBoard => {
                f.write_str("a marker bitboard has bits above field 80")
            }
            PositionError::MarkersOfTwoColours(field) => {
                write!(f, "{field} holds markers of two colours")
            }
            PositionError::ChevronCode(code) => write!(
                f,
                "chevron code must be field * 8 + facing below 648, not {code}"
            ),
            PositionError::TwoChevrons(field) => write!(f, "two chevrons on {field}"),
            PositionError::ToMove { to_move, players } => write!(
                f,
                "to_move must be a seat 0..{}, not {to_move}",
                i16::from(players) - 1
            ),
            PositionError::OutBeyondPlayers => f.write_str("out names a seat beyond the players"),
            PositionError::Trigger(trigger) => {
                write!(f, "trigger must be -1 or a seat, not {trigger}")
            }
            PositionError::WinnersBeyondPlayers => {
                f.write_str("the winners name a seat beyond the players")
            }
            PositionError::Shape => {
                f.write_str("a position needs 2..=4 players and a seat to move among them")
            }
            PositionError::OutOfRange => write!(
                f,
                "a count or seat of this position is out of range (counters: 0..{COUNTER_MAX})"
            ),
            PositionError::PlayersDiffer => {
                f.write_str("the players and the markers differ in number")
            }
        }
    }
}

impl std::error::Error for EngineError {}

impl std::error::Error for OptionError {}

impl std::error::Error for PositionError {}

impl From<OptionError> for EngineError {
    fn from(error: OptionError) -> EngineError {
        EngineError::InvalidOption(error)
    }
}

impl From<PositionError> for EngineError {
    fn from(error: PositionError) -> EngineError {
        EngineError::InvalidPosition(error)
    }
}
