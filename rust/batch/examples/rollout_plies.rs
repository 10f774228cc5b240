//! A fixed batch of seeded random rollouts from a game's standard start, as
//! `pacru.bots.random_rollouts` plays them, for instruction counts under callgrind:
//! `cargo run --release -p pacru_batch --example rollout_plies -- [game] [players] [games]
//! [moves|families] [seed]` (defaults: pacru 2 100 moves 1). Prints the plies played and a
//! checksum of the returns and lengths; per-ply cost = (instructions at N games - at 0
//! games) / plies. Pacru and Azacru games are capped at 1000 plies (D32).

use pacru_batch::{random_rollouts, Sampling};
use pacru_engine::{Game, Position, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = Game::parse(args.get(1).map_or("pacru", |s| s.as_str())).unwrap_or(Game::Pacru);
    let players: u8 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let games: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(100);
    let sampling = match args.get(4).map(String::as_str) {
        Some("families") => Sampling::Families,
        _ => Sampling::Moves,
    };
    let seed: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rules = Rules::new(game);
    if matches!(game, Game::Pacru | Game::Azacru) {
        rules.move_cap = Some(1000);
    }
    let start = Position::start(players).expect("2, 3 or 4 players");
    let out =
        random_rollouts(&rules, &start, games, seed, None, sampling, true, 1).expect("memory");
    let plies: i64 = out.plies.iter().map(|&p| i64::from(p)).sum();
    let mut checksum = 0u64;
    for (i, m) in out.moves.iter().flatten().enumerate() {
        checksum = checksum.wrapping_mul(31).wrapping_add(m ^ i as u64);
    }
    for r in &out.returns {
        checksum = checksum
            .wrapping_mul(31)
            .wrapping_add(u64::from(r.to_bits()));
    }
    println!(
        "{} {players}p {sampling:?}: {games} games, {plies} plies, checksum {checksum:016x}",
        game.name()
    );
}
