//! The rules engine of the chevron games — Lilacru, Shacru, Azacru and Pacru — in Rust: a
//! port of the Python engine `pacru.chevron`, move for move.
//!
//! Positions are bitboards (`u128`, bit `f` for field `f`, `a1 = 0` row-major from rank
//! 1); chevrons are codes `field * 8 + facing` (facing 0..7 = N, NE, E, SE, S, SW, W, NW).
//! [`legal_moves`] lists the complete legal moves in the Python order, kept compact as
//! families (exact [`MoveList::len`], [`MoveList::get`] by unranking, [`MoveList::index_of`]);
//! [`apply`] plays one with every side effect and end test; [`perft`] counts leaves.
//! Nothing here panics on input reachable through this API: bad input is an
//! [`EngineError`], an index out of range is `None`.

#![forbid(unsafe_code)]

mod error;
pub mod geometry;
mod illegal;
mod illegal_text;
mod legality;
mod movegen;
mod movelist;
mod moves;
mod notation;
mod resolve;
pub mod rng;
mod steps;
mod types;
mod units;

pub use error::{Counter, EngineError, OptionError, PositionError, Refusal};
pub use illegal::{Illegal, Named};
pub use legality::check;
pub use movegen::{benefit_fields, crossing_options, power_of_movement, SUPPLY};
pub use movelist::{legal_moves, legal_moves_into, MoveList, StepChoice};
pub use moves::{Move, StepMove};
pub use notation::{field_from_name, is_python_space, Expected, MoveTextError, MAX_MOVE_TEXT};
pub use resolve::{apply, can_acquire, lookahead_outcome, perft, top_scorers};
pub use types::{
    ChevronList, Game, MeetingRule, Outcome, Position, Rules, Termination, COUNTER_MAX,
};
pub use units::{Facing, Field, Seat, UnitError};

impl MoveList {
    /// The position after the `index`-th move of this list (no legality check needed: the
    /// list knows its position); None out of range.
    pub fn apply_index(&self, index: u64) -> Option<Position> {
        self.apply_listed(&self.get(index)?)
    }

    /// The position after `m`, a move [`MoveList::get`] of this list handed out (it is
    /// not decoded nor checked again; a move from elsewhere is resolved defensively, an
    /// impossible one is None, never a panic).
    pub fn apply_listed(&self, m: &Move) -> Option<Position> {
        let mut next = self.position.clone();
        resolve::resolve_into(&self.rules, &self.position, m, &mut next).ok()?;
        Some(next)
    }

    /// [`MoveList::apply_listed`] into `next`, whatever it held before (a position no
    /// longer needed, its storage reused); false when `m` is impossible, and then `next`
    /// holds no meaningful position.
    pub fn apply_listed_into(&self, m: &Move, next: &mut Position) -> bool {
        self.resolve_listed_into(m, next).is_ok()
    }

    /// [`MoveList::apply_listed`] with the reason of a refusal: an impossible move
    /// ([`EngineError::IllegalMove`]) or a counter at its end
    /// ([`EngineError::CounterLimit`]).
    ///
    /// # Errors
    /// As said.
    pub fn resolve_listed(&self, m: &Move) -> Result<Position, EngineError> {
        let mut next = self.position.clone();
        resolve::resolve_into(&self.rules, &self.position, m, &mut next)?;
        Ok(next)
    }

    /// [`MoveList::resolve_listed`] written in a new box: the position is copied once, to
    /// the heap, where a caller that keeps positions boxed (the Python extension's state)
    /// would copy the returned one again.
    ///
    /// # Errors
    /// As [`MoveList::resolve_listed`].
    pub fn resolve_listed_boxed(&self, m: &Move) -> Result<Box<Position>, EngineError> {
        let mut next = Box::new(self.position.clone());
        resolve::resolve_into(&self.rules, &self.position, m, &mut next)?;
        Ok(next)
    }

    /// [`MoveList::apply_listed_into`] with the reason of a refusal: an impossible move
    /// ([`EngineError::IllegalMove`]) or a counter at its end
    /// ([`EngineError::CounterLimit`]).
    ///
    /// # Errors
    /// As said; `next` is then meaningless.
    pub fn resolve_listed_into(&self, m: &Move, next: &mut Position) -> Result<(), EngineError> {
        next.clone_from(&self.position);
        resolve::resolve_into(&self.rules, &self.position, m, next)
    }
}
