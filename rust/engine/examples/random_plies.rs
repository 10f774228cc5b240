//! A fixed number of uniform random plies from a game's standard start (a new game at each
//! end), for instruction counts under callgrind and for checking that an engine change
//! plays the same games: it prints a checksum of every move list length, move played and
//! position reached.
//!
//! `cargo run --release --example random_plies -- [game] [players] [plies] [seed] [mode]`
//! (defaults: pacru 2 20000 1 sum). Modes: `fast` sums the list lengths only (for
//! instruction counts: no hashing); `sum` hashes every list length, move played and
//! position; `check` also every move of every list (`get` of each index, `index_of` of
//! each move): slower, for bit-exactness only.
//! Per-ply cost under callgrind: (instructions at N plies - at 0 plies) / N.

use pacru_engine::{legal_moves, Game, Position, Rules};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// Hashes what a position means (not how the engine stores it), so that checksums of two
/// engine versions compare.
fn hash_position(pos: &Position, hasher: &mut DefaultHasher) {
    pos.players.hash(hasher);
    pos.markers.hash(hasher);
    for chevrons in &pos.chevrons {
        chevrons.to_vec().hash(hasher);
    }
    (pos.to_move, pos.out, pos.trigger, pos.idle, pos.ply).hash(hasher);
    pos.outcome.hash(hasher);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = Game::parse(args.get(1).map_or("pacru", |s| s.as_str())).unwrap_or(Game::Pacru);
    let players: u8 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let plies: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mode = args.get(5).map_or("sum", |s| s.as_str());
    let (hash, check) = (mode != "fast", mode == "check");
    // Pacru and Azacru random games may circle for ever: cap them as the benchmarks do (D32).
    let mut rules = Rules::new(game);
    if matches!(game, Game::Pacru | Game::Azacru) {
        rules.move_cap = Some(1000);
    }
    let start = Position::start(players).expect("2, 3 or 4 players");
    let mut state: u64 = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next_random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut hasher = DefaultHasher::new();
    let (mut done, mut games, mut lengths, mut most) = (0u64, 0u64, 0u64, 0usize);
    let mut pos = start.clone();
    while done < plies {
        let moves = legal_moves(&rules, &pos);
        if moves.is_empty() {
            if hash {
                hash_position(&pos, &mut hasher);
            }
            pos = start.clone();
            games += 1;
            continue;
        }
        lengths = lengths.wrapping_add(moves.len());
        most = most.max(moves.step_count());
        if hash {
            moves.len().hash(&mut hasher);
        }
        if check {
            for (i, m) in moves.iter().enumerate() {
                m.hash(&mut hasher);
                assert_eq!(moves.index_of(&m), Some(i as u64), "{m}");
            }
        }
        let index = next_random() % moves.len();
        pos = moves.apply_index(index).unwrap_or_else(|| start.clone());
        if hash {
            moves.get(index).hash(&mut hasher);
            hash_position(&pos, &mut hasher);
        }
        done += 1;
    }
    println!(
        "{} {players}p: {done} plies, {games} games, {lengths} moves listed, at most {most} steps, checksum {:016x}",
        game.name(),
        hasher.finish()
    );
}
