//! Random-playout speed: plies per second of uniform random play (`legal_moves`, a random
//! index, `apply_index`), a new game at each end, from the standard start.
//!
//! `cargo run --release --example playouts -- [game] [players] [seconds]`
//! (defaults: pacru 2 3). A measurement, not a test: its figure depends on the machine.

use pacru_engine::{legal_moves, Game, Position, Rules};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = Game::parse(args.get(1).map_or("pacru", |s| s.as_str())).unwrap_or(Game::Pacru);
    let players: u8 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let seconds: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    // Pacru and Azacru random games may circle for ever: cap them as the benchmarks do (D32).
    let mut rules = Rules::new(game);
    if matches!(game, Game::Pacru | Game::Azacru) {
        rules.move_cap = Some(1000);
    }
    let start = Position::start(players).expect("2, 3 or 4 players");
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next_random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut plies, mut games) = (0u64, 0u64);
    let mut pos = start.clone();
    let clock = Instant::now();
    while clock.elapsed().as_secs_f64() < seconds {
        for _ in 0..1000 {
            let moves = legal_moves(&rules, &pos);
            if moves.is_empty() {
                pos = start.clone();
                games += 1;
                continue;
            }
            pos = moves
                .apply_index(next_random() % moves.len())
                .unwrap_or_else(|| start.clone());
            plies += 1;
        }
    }
    let elapsed = clock.elapsed().as_secs_f64();
    println!(
        "{} {players}p: {plies} plies, {games} games in {elapsed:.2} s: {:.0} plies/s",
        game.name(),
        plies as f64 / elapsed
    );
}
