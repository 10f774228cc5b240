//! Times the parts of a random Pacru playout (move list, draw, apply) in the release build:
//! `cargo run --release -p pacru_batch --example profile`. Wall-clock figures, for development.
use pacru_batch::{sample_index, Sampling, SplitMix64};
use pacru_engine::{legal_moves, Game, Position, Rules};
use std::time::Instant;

fn main() {
    let rules = Rules::new(Game::Pacru);
    let start = Position::start(2).unwrap();
    for sampling in [Sampling::Moves, Sampling::Families] {
        let mut rng = SplitMix64::new(1);
        let (mut t_gen, mut t_sample, mut t_apply, mut plies) = (0u128, 0u128, 0u128, 0u64);
        let mut pos = start.clone();
        let total = Instant::now();
        while plies < 300_000 {
            if pos.outcome.is_some() {
                pos = start.clone();
            }
            let a = Instant::now();
            let list = legal_moves(&rules, &pos);
            let b = Instant::now();
            let i = sample_index(&rules, &pos, &list, sampling, &mut rng);
            let c = Instant::now();
            pos = list.apply_index(i).unwrap();
            let d = Instant::now();
            t_gen += (b - a).as_nanos();
            t_sample += (c - b).as_nanos();
            t_apply += (d - c).as_nanos();
            plies += 1;
        }
        let el = total.elapsed().as_secs_f64();
        println!(
            "{sampling:?}: {:.0} plies/s; ns/ply gen {} sample {} apply {}",
            plies as f64 / el,
            t_gen / plies as u128,
            t_sample / plies as u128,
            t_apply / plies as u128
        );
    }
}
