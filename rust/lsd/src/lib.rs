//! `pacru_lsd`: the rules of LSD (Linearity, Simplicity, Duality), ported from the Python
//! reference engine `pacru.lsd`, and its decision encoding for batched play.
//!
//! * [`rules`]: the tables of one set of options (`pacru.lsd.rules.LsdRules`);
//! * [`position`]: a position, its legal moves in the Python engine's order, placement,
//!   capture, rows and skipping, and the reasons a move is illegal;
//! * [`game`]: a game decision by decision, as `pacru.encoding.lsd` encodes it (the
//!   window, the cell and tile decisions, the observation planes).
//!
//! Both engines cite the same rule IDs (LSD sections, RULING n); the differential suite
//! (`tests/native/test_lsd_differential.py`) keeps them equal move for move. Safe code
//! only, and no code path panics on any input the API accepts.

#![forbid(unsafe_code)]

pub mod game;
pub mod position;
pub mod rules;

pub use game::{Game, GameError, Layout};
pub use position::{Illegal, Move, Outcome, PartsError, Position, Termination};
pub use rules::{Rules, RulesError};
