//! Perft from the standard starting positions (rules reference B.5, E.3), the numbers of
//! the Python engine (`tests/chevron/test_perft.py`, docs/games/pacru-perft.rst): every
//! choice (crossing field, meeting field, twist, relinquished set) is its own move.

use pacru_engine::{perft, Game, Position, Rules};

/// (game, players) -> perft at depths 1, 2, 3, 4.
const PERFT: [(Game, u8, [u64; 4]); 12] = [
    (Game::Pacru, 2, [28, 734, 16168, 345579]),
    (Game::Pacru, 3, [23, 533, 11343, 191349]),
    (Game::Pacru, 4, [23, 510, 10379, 202471]),
    (Game::Shacru, 2, [16, 254, 3932, 60532]),
    (Game::Shacru, 3, [13, 162, 2015, 23181]),
    (Game::Shacru, 4, [13, 162, 2015, 23927]),
    (Game::Azacru, 2, [16, 254, 3932, 60532]),
    (Game::Azacru, 3, [13, 162, 2015, 23181]),
    (Game::Azacru, 4, [13, 162, 2015, 23927]),
    (Game::Lilacru, 2, [12, 142, 1650, 18958]),
    (Game::Lilacru, 3, [9, 78, 675, 5587]),
    (Game::Lilacru, 4, [9, 78, 675, 5607]),
];

/// Depth 5 (the Python suite's PACRU_DEEP_PERFT numbers).
const PERFT_5: [(Game, u8, u64); 12] = [
    (Game::Pacru, 2, 8081176),
    (Game::Pacru, 3, 3161070),
    (Game::Pacru, 4, 3176125),
    (Game::Shacru, 2, 957723),
    (Game::Shacru, 3, 270801),
    (Game::Shacru, 4, 274185),
    (Game::Azacru, 2, 1012794),
    (Game::Azacru, 3, 270801),
    (Game::Azacru, 4, 274185),
    (Game::Lilacru, 2, 214527),
    (Game::Lilacru, 3, 46919),
    (Game::Lilacru, 4, 46293),
];

#[test]
fn perft_depth_1_to_4() {
    for (game, players, expected) in PERFT {
        let rules = Rules::new(game);
        let pos = Position::start(players).unwrap();
        let got: Vec<u64> = (1..=4).map(|d| perft(&rules, &pos, d)).collect();
        assert_eq!(got, expected, "{game:?} {players}p");
    }
}

/// Depth 5: two seconds in a release build (`cargo test --release`), minutes in a debug
/// build, where it is ignored.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn perft_depth_5() {
    for (game, players, expected) in PERFT_5 {
        let rules = Rules::new(game);
        let pos = Position::start(players).unwrap();
        assert_eq!(perft(&rules, &pos, 5), expected, "{game:?} {players}p");
    }
}
