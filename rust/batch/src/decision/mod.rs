//! The chevron encoding of `pacru.encoding.chevron`, decision by decision, natively: the
//! legal actions of each decision, the move an action sequence builds, the observation
//! planes. It follows the Python module step for step (its docstring gives the layout);
//! the Python encoding is the oracle and the two must agree bit for bit.
//!
//! By meaning: [`actions`] holds the set of a decision's legal actions; `game` the decision
//! under way and the steps that lead from one decision to the next, `family` the move
//! families and options of a chosen origin, `stages` the choice of each stage, `lists` the
//! move lists a thread reuses, and `planes` the observation planes.

use pacru_engine::Rules;

mod actions;
mod family;
mod game;
mod lists;
mod planes;
mod stages;

pub use actions::{Actions, ActionsIter};
pub use game::Game;
pub use planes::Cell;

pub const PASS: u16 = 0;
pub const ORIGIN: u16 = 1;
pub const TARGET: u16 = 82;
pub const TURN: u16 = 163;
pub const TWIST: u16 = 167;
pub const BENEFIT_NONE: u16 = 170;
pub const BENEFIT_CONNECTION: u16 = 171;
pub const MARKER: u16 = 172;
pub const MEETING: u16 = 253;
pub const RELINQUISH: u16 = 334;
pub const NUM_ACTIONS: usize = 415;
/// The turns of a reorientation, by the index its action gives (`TURN + index`).
pub(crate) const TURNS: [i8; 4] = [-2, -1, 1, 2];

/// The action of twist `twist` (-1..=1) at the twist stage: `TWIST + 1 + twist`.
pub(crate) fn twist_action(twist: i8) -> u16 {
    (TWIST + 1).wrapping_add_signed(i16::from(twist))
}

/// The twist (-1..=1) a twist-stage action picks; None for any other action.
fn action_twist(action: u16) -> Option<i8> {
    match action.checked_sub(TWIST)? {
        0 => Some(-1),
        1 => Some(0),
        2 => Some(1),
        _ => None,
    }
}

/// The action of bit `bit` (the trailing zeros of a nonzero word: below 64) of word
/// `word` of an [`Actions`] set.
fn action_of(word: u16, bit: u32) -> u16 {
    64 * word + u16::try_from(bit).unwrap_or(0)
}

/// The stage of a move being chosen, as `_ORIGIN` .. `_DONE` of the Python module (the
/// discriminants are its numbers, which the observation's stage planes follow).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Stage {
    /// The chevron that moves (or the pass).
    Origin = 0,
    /// The target field of a step, or the turn of a reorientation.
    Target = 1,
    /// The twist of a Shacru or Azacru step.
    Twist = 2,
    /// The benefit: none, a connection change, or a marker's field.
    Benefit = 3,
    /// The meeting field.
    Meeting = 4,
    /// A field given up by a reorientation.
    Relinquish = 5,
    /// The move is complete.
    Done = 6,
}

/// Why a decision was not taken. Only [`DecisionError::IllegalAction`] comes from the
/// caller; the others mean a move list that does not hold what its own bounds promise
/// (a bug of the engine), reported instead of a panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionError {
    /// The action is not one of the decision's legal actions (none is, once the move is
    /// complete or the game over).
    IllegalAction(u16),
    /// A legal origin, target or turn has no move family in the list, or a step family
    /// no option.
    NoFamily,
    /// The move chosen is not in the list.
    NotListed,
}

impl std::fmt::Display for DecisionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecisionError::IllegalAction(action) => {
                write!(f, "action {action} is not legal in this decision")
            }
            DecisionError::NoFamily => f.write_str("a legal action has no move family"),
            DecisionError::NotListed => f.write_str("the move chosen is not in the list"),
        }
    }
}

impl std::error::Error for DecisionError {}

/// The fixed parts of an encoding: the game and its scales.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub rules: Rules,
    pub players: u8,
    /// 0..3: Lilacru, Shacru, Azacru, Pacru (the "game" planes).
    pub game_index: u8,
    pub ply_scale: f64,
    pub idle_scale: f64,
    /// The Pacru supply of each player {R1} (0 for the other games).
    pub supply: u32,
}

impl Layout {
    /// The observation planes: 13 per player and 25.
    pub fn planes(&self) -> usize {
        13 * usize::from(self.players) + 25
    }
}

/// What an action leads to: the next decision of the move, or the move complete.
#[derive(Clone, Debug)]
pub enum Next {
    /// The next decision (it has at least two legal actions).
    Ask(Game),
    /// The move is complete: the finished decision (no legal action, [`Game::is_done`])
    /// and the index of the move in the position's list.
    Done(Game, u64),
}
