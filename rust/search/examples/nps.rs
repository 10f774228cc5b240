//! Nodes per second of the search from each start position, and one self-play game.
//! `cargo run --release --example nps -p pacru_search`

use pacru_engine::{Game, Position, Rules};
use pacru_search::{search, selfplay, Budget, Settings, DEFAULT_WEIGHTS};
use std::time::{Duration, Instant};

fn main() {
    for (game, players) in [
        (Game::Pacru, 2),
        (Game::Shacru, 2),
        (Game::Pacru, 3),
        (Game::Pacru, 4),
    ] {
        let rules = Rules::new(game);
        let pos = Position::start(players).expect("2..=4 players");
        let settings = Settings {
            budget: Budget {
                nodes: None,
                time: Some(Duration::from_millis(500)),
                depth: None,
            },
            seed: 1,
            weights: DEFAULT_WEIGHTS,
        };
        let t = Instant::now();
        let r = search(&rules, &pos, &settings).expect("a start position has moves");
        let s = t.elapsed().as_secs_f64();
        println!(
            "{} {players}p: {} nodes in {s:.2} s = {:.0} nodes/s, depth {}, best {} value {}",
            game.name(),
            r.nodes,
            r.nodes as f64 / s,
            r.depth,
            r.best,
            r.value
        );
        let t = Instant::now();
        let g = selfplay(&rules, &pos, 7, 300, 0.05, &DEFAULT_WEIGHTS, 4, 1000);
        println!(
            "  self-play (300 nodes a move): {} plies, {}, {} samples, {:.1} s",
            g.plies,
            g.termination,
            g.features.len(),
            t.elapsed().as_secs_f64()
        );
    }
}
