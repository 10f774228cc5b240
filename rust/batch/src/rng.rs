//! SplitMix64, the seeded generator of the rollouts.

/// The golden-ratio increment of SplitMix64.
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64: a 64-bit state advanced by a constant and mixed on output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

/// The output function of SplitMix64 (a bijection of `u64`).
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The uniform in [0, 1) of row `row` of a batch's random draw, `first = mix(base)` for
/// the draw's hash base: `(z >> 11) * 2**-53`, `z = mix(mix(first ^ row * GAMMA) ^
/// GAMMA)` (`pacru._vector_random.uniforms` computes the same with numpy).
pub fn uniform(first: u64, row: usize) -> f64 {
    let z = mix(mix(first ^ (row as u64).wrapping_mul(GAMMA)) ^ GAMMA);
    (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The index `floor(u * count)` drawn by a uniform `u` in [0, 1) among `count > 0`
/// choices (at most `count - 1`, whatever the rounding).
pub fn pick(u: f64, count: usize) -> usize {
    ((u * count as f64) as usize).min(count.saturating_sub(1))
}

impl SplitMix64 {
    /// A generator whose first output is `mix(seed + GAMMA)`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The generator of game `game` of a batch seeded with `seed`: seeded with the
    /// `game`-th output (from 0) of `SplitMix64::new(seed)`, worked out directly.
    pub fn for_game(seed: u64, game: u64) -> SplitMix64 {
        SplitMix64::new(mix(
            seed.wrapping_add(GAMMA.wrapping_mul(game.wrapping_add(1)))
        ))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// A uniform integer in `0..n` (`n > 0`; 0 for `n == 0`), without modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Lemire: the high half of x * n is uniform once the low half clears the threshold.
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(n);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_outputs() {
        // The published SplitMix64 outputs for seed 1234567 (Vigna's splitmix64.c).
        let mut rng = SplitMix64::new(1_234_567);
        let got: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            got,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
    }

    #[test]
    fn game_streams_are_the_batch_outputs() {
        let mut batch = SplitMix64::new(99);
        for game in 0..5 {
            assert_eq!(
                SplitMix64::for_game(99, game),
                SplitMix64::new(batch.next_u64())
            );
        }
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let x = rng.below(7);
            assert!(x < 7);
            seen[x as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
        assert_eq!(rng.below(1), 0);
        assert_eq!(rng.below(0), 0);
    }
}
