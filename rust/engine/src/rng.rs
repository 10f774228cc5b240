//! SplitMix64 (Steele, Lea and Flood; Vigna's `splitmix64.c`), the one generator of the
//! Rust crates: the batch's seeded rollouts and draws (`pacru_batch::rng`) and the search's
//! zobrist keys, evaluation noise and self-play draws (`pacru_search`). The Python engine's
//! whole-array mirror is `pacru.vector.draws`; the three are pinned to the same published
//! outputs (`tests/splitmix64.txt` of this crate, read by the tests of both languages).

/// The golden-ratio increment of SplitMix64.
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The output function of SplitMix64 (a bijection of `u64`).
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The output of SplitMix64 after state `state`, `mix(state + GAMMA)`: the first output of
/// `SplitMix64::new(state)`, and each next one when fed its own state back.
pub fn splitmix(state: u64) -> u64 {
    mix(state.wrapping_add(GAMMA))
}

/// The uniform in [0, 1) of the 64 random bits `z`: its top 53 bits times `2**-53`, exactly
/// (every such value is an `f64`; `pacru.vector.draws.uniforms` computes the same).
pub fn unit(z: u64) -> f64 {
    const SCALE: f64 = 1.0 / 9_007_199_254_740_992.0; // 2**-53
                                                      // Below 2**53: the conversion is exact.
                                                      // 53 bits: below 2**53, exactly a float (`f64::from` takes at most 32 bits).
    #[allow(clippy::cast_precision_loss)]
    let top = (z >> 11) as f64;
    top * SCALE
}

/// SplitMix64: a 64-bit state advanced by [`GAMMA`] and mixed on output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
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

    /// A uniform index in `0..n` (`n > 0`; 0 for `n == 0`): [`SplitMix64::below`] for a
    /// count of things in memory (the draw is below `n`, so it fits a `usize`).
    pub fn below_index(&mut self, n: usize) -> usize {
        let draw = self.below(u64::try_from(n).unwrap_or(u64::MAX));
        usize::try_from(draw).unwrap_or(0)
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
            let [low, high] = crate::geometry::halves(product);
            if low >= threshold {
                return high;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published outputs: `seed` then its first outputs, one line per seed.
    fn published() -> Vec<(u64, Vec<u64>)> {
        include_str!("../tests/splitmix64.txt")
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| {
                let mut numbers = line.split_whitespace().map(|n| n.parse::<u64>().unwrap());
                let seed = numbers.next().unwrap();
                (seed, numbers.collect())
            })
            .collect()
    }

    #[test]
    fn reference_outputs() {
        let vectors = published();
        assert!(!vectors.is_empty());
        for (seed, outputs) in vectors {
            let mut rng = SplitMix64::new(seed);
            let got: Vec<u64> = outputs.iter().map(|_| rng.next_u64()).collect();
            assert_eq!(got, outputs, "seed {seed}");
            // `splitmix` fed its own state gives the same stream.
            let mut state = seed;
            for &out in &outputs {
                assert_eq!(splitmix(state), out);
                state = state.wrapping_add(GAMMA);
            }
        }
    }

    #[test]
    fn unit_is_the_top_53_bits_scaled() {
        assert_eq!(unit(0), 0.0);
        assert_eq!(unit(u64::MAX), 1.0 - 2f64.powi(-53));
        assert_eq!(unit(1 << 63), 0.5);
        assert_eq!(unit(2047), 0.0);
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
            seen[usize::try_from(x).unwrap()] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
        assert_eq!(rng.below(1), 0);
        assert_eq!(rng.below(0), 0);
    }
}
