//! Nodes per second of the search from a start position, with a fixed node budget, so
//! that the CPU time of the process (`time`) measures it on a loaded machine as well.
//!
//! `cargo run --release --example nps -p pacru_search -- pacru 2 [nodes]`

use pacru_engine::{Game, Position, Rules};
use pacru_search::{search, Budget, Settings, DEFAULT_WEIGHTS};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = Game::parse(args.get(1).map_or("pacru", String::as_str)).expect("a chevron game");
    let players: u8 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let nodes: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(500_000);
    let rules = Rules::new(game);
    let pos = Position::start(players).expect("2..=4 players");
    let settings = Settings {
        budget: Budget {
            nodes: Some(nodes),
            time: None,
            depth: None,
        },
        seed: 1,
        weights: DEFAULT_WEIGHTS,
        network: None,
    };
    let t = Instant::now();
    let r = search(&rules, &pos, &settings).expect("a start position has moves");
    let s = t.elapsed().as_secs_f64();
    println!(
        "{} {players}p: {} nodes, {s:.2} s wall ({:.0} nodes/s wall), depth {}, best {}",
        game.name(),
        r.nodes,
        r.nodes as f64 / s,
        r.depth,
        r.best,
    );
}
