//! Batched play of the chevron games on [`pacru_engine`]: many seeded uniform random games
//! from one position, played inside the engine ([`random_rollouts`]); and the batches of
//! `pacru.vector` ([`Batch`], [`lsd::LsdBatch`] for LSD on [`pacru_lsd`]): their steps,
//! the frames they write ([`frame`]) and the learner step against a bot ([`fused`]), for a
//! [`Host`] that hands out buffers (`pacru._native`: bytearrays, the GIL released).
//!
//! Randomness is [`SplitMix64`] (Steele, Lea and Flood's generator, as in Java's
//! `SplittableRandom`): game `i` of a batch draws from its own stream, seeded by the
//! `i`-th output of a SplitMix64 seeded with the batch seed, so a game does not depend on
//! how many games come before it, and the same seed always gives the same games.
//! Indices are drawn without bias (Lemire's multiply-and-reject).
//!
//! Batches run on a rayon thread pool kept between calls ([`par`]): rayon is the one
//! dependency besides the engine, a widely used, well-kept library whose scopes let the
//! pool's threads borrow a batch's games and arrays in safe code (a pool of our own would
//! need `unsafe` to hand borrowed work to long-lived threads); whether a call uses one
//! thread or all it is allowed is measured call by call ([`tune`]).

#![forbid(unsafe_code)]

pub mod decision;
pub mod drops;
pub mod frame;
pub mod fused;
mod games;
pub mod host;
pub mod in_place;
pub mod learner;
pub mod lsd;
mod observe;
pub mod opponent;
pub mod par;
pub mod rng;
mod rollout;
pub mod tune;
pub mod vector;

pub use host::{Error, Host, Plain};
pub use rng::SplitMix64;
pub use rollout::{
    family_count, family_range, family_ranges, playout, random_rollouts, returns_of, sample_index,
    Rollouts, Sampling,
};
pub use vector::Batch;
