//! SplitMix64, the seeded generator of the rollouts, and the batch's draws from it.
//!
//! The generator and its output function are `pacru_engine::rng`'s (one SplitMix64 for
//! every crate), re-exported here.

pub use pacru_engine::rng::{mix, unit, SplitMix64, GAMMA};

/// The uniform in [0, 1) of row `row` of a batch's random draw, `first = mix(base)` for
/// the draw's hash base: `(z >> 11) * 2**-53`, `z = mix(mix(first ^ row * GAMMA) ^
/// GAMMA)` (`pacru.vector.draws.uniforms` computes the same with numpy).
pub fn uniform(first: u64, row: usize) -> f64 {
    let z = mix(mix(first ^ (row as u64).wrapping_mul(GAMMA)) ^ GAMMA);
    unit(z)
}

/// The index `floor(u * count)` drawn by a uniform `u` in [0, 1) among `count > 0`
/// choices (at most `count - 1`, whatever the rounding).
pub fn pick(u: f64, count: usize) -> usize {
    ((u * count as f64) as usize).min(count.saturating_sub(1))
}
