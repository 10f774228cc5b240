//! The search: legal answers, a win in one found, determinism and the node budget.

use pacru_engine::{legal_moves, Counter, EngineError, Game, Position, Rules};
use pacru_search::{
    candidates, search, search_until, selfplay, Budget, Settings, DEFAULT_WEIGHTS, WIN,
};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn nodes(n: u64, seed: u64) -> Settings {
    Settings {
        budget: Budget {
            nodes: Some(n),
            time: None,
            depth: None,
        },
        seed,
        weights: DEFAULT_WEIGHTS,
        network: None,
    }
}

const GAMES: [(Game, u8); 6] = [
    (Game::Lilacru, 2),
    (Game::Shacru, 2),
    (Game::Azacru, 2),
    (Game::Pacru, 2),
    (Game::Pacru, 3),
    (Game::Pacru, 4),
];

/// Positions of seeded, nearly random games (every `every`-th ply), for each game.
fn positions(rules: &Rules, players: u8, seed: u64, every: u32) -> Vec<Position> {
    let mut pos = Position::start(players).unwrap();
    let mut out = vec![pos.clone()];
    let mut ply = 0u64;
    while pos.outcome.is_none() && ply < 400 {
        let list = legal_moves(rules, &pos);
        let moves = candidates(&list);
        if moves.is_empty() {
            break;
        }
        let pick =
            (seed.wrapping_mul(0x9E37_79B9) ^ ply.wrapping_mul(2_654_435_761)) % moves.len() as u64;
        pos = list.apply_listed(&moves[pick as usize]).unwrap();
        ply += 1;
        if ply.is_multiple_of(u64::from(every)) {
            out.push(pos.clone());
        }
    }
    out
}

#[test]
fn every_answer_is_legal_and_within_the_node_budget() {
    for (game, players) in GAMES {
        let rules = Rules::new(game);
        for pos in positions(&rules, players, 3, 25) {
            let Some(r) = search(&rules, &pos, &nodes(500, 1)) else {
                assert!(pos.outcome.is_some() || legal_moves(&rules, &pos).is_empty());
                continue;
            };
            assert!(
                legal_moves(&rules, &pos).index_of(&r.best).is_some(),
                "{game:?} {}",
                r.best
            );
            assert!(r.nodes <= 500, "{} nodes", r.nodes);
        }
    }
}

#[test]
fn same_seed_and_nodes_same_move() {
    for (game, players) in GAMES {
        let rules = Rules::new(game);
        for pos in positions(&rules, players, 5, 40) {
            let a = search(&rules, &pos, &nodes(2000, 9));
            let b = search(&rules, &pos, &nodes(2000, 9));
            assert_eq!(a, b);
        }
    }
}

#[test]
fn a_win_in_one_is_found_and_played() {
    // Positions where some candidate ends the game with the mover as sole winner and
    // another does not: the search must play a winning one and value it as a win.
    let mut found = 0;
    for (game, players) in GAMES {
        let rules = Rules::new(game);
        for seed in 0..30 {
            for pos in positions(&rules, players, seed, 1) {
                let list = legal_moves(&rules, &pos);
                let me = 1u8 << pos.to_move;
                let wins = |m: &pacru_engine::Move| {
                    list.apply_listed(m)
                        .and_then(|p| p.outcome)
                        .is_some_and(|o| o.winners == me)
                };
                let moves = candidates(&list);
                if !moves.iter().any(wins) || moves.iter().all(wins) {
                    continue;
                }
                found += 1;
                let r = search(&rules, &pos, &nodes(5000, 1)).unwrap();
                assert!(
                    wins(&r.best),
                    "{game:?} {players}p: {} does not win",
                    r.best
                );
                assert_eq!(r.value, WIN - 1);
            }
        }
    }
    assert!(found >= 5, "only {found} positions with a win in one");
}

#[test]
fn a_depth_budget_completes_that_depth() {
    let rules = Rules::new(Game::Shacru);
    let pos = Position::start(2).unwrap();
    let mut s = nodes(u64::MAX, 1);
    s.budget.nodes = None;
    s.budget.depth = Some(3);
    let r = search(&rules, &pos, &s).unwrap();
    assert_eq!(r.depth, 3);
}

#[test]
fn at_the_last_ply_no_move_is_answered_and_the_refusal_is_the_counters() {
    let rules = Rules::new(Game::Pacru);
    let mut pos = Position::start(2).unwrap();
    pos.ply = u64::MAX;
    assert!(search(&rules, &pos, &nodes(1000, 1)).is_none());
    let stop = AtomicBool::new(false);
    let found = search_until(&rules, &pos, &nodes(1000, 1), &stop);
    assert_eq!(found, Err(EngineError::CounterLimit(Counter::Ply)));
}

#[test]
fn near_the_last_ply_values_are_evaluations_and_the_move_can_be_played() {
    for game in [Game::Shacru, Game::Pacru] {
        let rules = Rules::new(game);
        for before_end in 1..=4u64 {
            let mut pos = Position::start(2).unwrap();
            pos.ply = u64::MAX - before_end;
            let r = search(&rules, &pos, &nodes(3000, 1)).unwrap();
            assert!(r.depth >= 1, "{game:?} {before_end}: no depth completed");
            assert!(
                r.value.abs() <= 100_000 + 1000,
                "{game:?} {before_end} plies before the end: value {}",
                r.value
            );
            assert!(legal_moves(&rules, &pos).apply_listed(&r.best).is_some());
        }
    }
}

#[test]
fn a_raised_stop_flag_ends_a_search_within_256_nodes() {
    let rules = Rules::new(Game::Pacru);
    let pos = Position::start(2).unwrap();
    let mut s = nodes(u64::MAX, 1);
    s.budget.nodes = None;
    s.budget.time = Some(Duration::from_secs(1_000_000));
    let started = Instant::now();
    let r = search_until(&rules, &pos, &s, &AtomicBool::new(true))
        .unwrap()
        .unwrap();
    assert!(r.nodes <= 256, "{} nodes", r.nodes);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(legal_moves(&rules, &pos).apply_listed(&r.best).is_some());
}

#[test]
fn selfplay_labels_every_sample_with_the_result() {
    let rules = Rules::new(Game::Shacru);
    let pos = Position::start(2).unwrap();
    let g = selfplay(&rules, &pos, 1, &nodes(200, 0), 0.1, 5, 0, 1000);
    assert_ne!(g.termination, "max-plies");
    assert_eq!(g.features.len(), g.results.len());
    assert_eq!(g.boards.len(), g.results.len());
    assert!(!g.features.is_empty());
    // Two players: the samples come in pairs whose shares sum to 1 (or 0 without winner).
    for pair in g.results.chunks(2) {
        assert!(pair[0] + pair[1] == 1.0 || pair[0] + pair[1] == 0.0);
    }
    // The search's values: the mover's and its negation, a pair per sampled position.
    assert_eq!(g.values.len(), g.results.len());
    for pair in g.values.chunks(2) {
        let (Some(a), Some(b)) = (pair[0], pair[1]) else {
            panic!("a two-player sample without a value: {pair:?}");
        };
        assert!(a.is_finite() && a == -b, "{pair:?}");
    }
    assert!(g.values.iter().any(|v| *v != Some(0.0)));
    assert_eq!(
        g,
        selfplay(&rules, &pos, 1, &nodes(200, 0), 0.1, 5, 0, 1000)
    );
}

#[test]
fn selfplay_takes_no_search_value_with_more_than_two_players() {
    let rules = Rules::new(Game::Pacru);
    let pos = Position::start(3).unwrap();
    let g = selfplay(&rules, &pos, 2, &nodes(60, 0), 0.1, 7, 0, 1000);
    assert_eq!(g.values.len(), g.results.len());
    assert!(!g.values.is_empty());
    assert!(g.values.iter().all(Option::is_none));
    // Without NaN values a game equals itself, as at two players.
    assert_eq!(g, selfplay(&rules, &pos, 2, &nodes(60, 0), 0.1, 7, 0, 1000));
}

#[test]
fn selfplay_games_do_not_depend_on_the_sampling() {
    // The search of a sampled ply uses the seed it would have had: sampling every ply or
    // every 5th plays the same game.
    let rules = Rules::new(Game::Pacru);
    let pos = Position::start(2).unwrap();
    let every = selfplay(&rules, &pos, 4, &nodes(80, 0), 0.3, 1, 0, 1000);
    let fifth = selfplay(&rules, &pos, 4, &nodes(80, 0), 0.3, 5, 0, 1000);
    assert_eq!(
        (every.plies, every.termination),
        (fifth.plies, fifth.termination)
    );
    assert_eq!(every.features.len(), 2 * every.plies as usize);
    // Two samples per sampled ply: fifth's k-th pair is every's (5k)-th.
    for (k, pair) in fifth.features.chunks(2).enumerate() {
        assert_eq!(pair, &every.features[10 * k..10 * k + 2]);
        assert_eq!(fifth.values[2 * k], every.values[10 * k]);
    }
}

#[test]
fn selfplay_offset_samples_the_other_plies() {
    // Every 2nd ply from ply 1: the odd plies of the same game, seat 1 to move at each.
    // The first "player to move" input: after the 4 x 81 marker and 4 x 81 x 8 chevron inputs.
    const TO_MOVE: u16 = 4 * 81 + 4 * 81 * 8;
    let rules = Rules::new(Game::Pacru);
    let pos = Position::start(2).unwrap();
    let every = selfplay(&rules, &pos, 4, &nodes(80, 0), 0.3, 1, 0, 1000);
    let odd = selfplay(&rules, &pos, 4, &nodes(80, 0), 0.3, 2, 1, 1000);
    assert_eq!(
        (every.plies, every.termination),
        (odd.plies, odd.termination)
    );
    assert_eq!(odd.features.len(), 2 * (every.plies as usize / 2));
    for (k, pair) in odd.boards.chunks(2).enumerate() {
        assert_eq!(pair, &every.boards[4 * k + 2..4 * k + 4]);
        assert_eq!(odd.values[2 * k], every.values[4 * k + 2]);
        // Seat 0's view: the player to move is the next one (relative 1).
        assert!(pair[0].contains(&(TO_MOVE + 1)), "{pair:?}");
    }
    // An offset is taken modulo `every`.
    assert_eq!(
        odd,
        selfplay(&rules, &pos, 4, &nodes(80, 0), 0.3, 2, 3, 1000)
    );
}

#[test]
fn the_approach_counts_the_distance_to_neutral_fields() {
    use pacru_search::features::seat_features;
    // Shacru start: every chevron stands next to a neutral field (distance 1: 7/8 each).
    let rules = Rules::new(Game::Shacru);
    let pos = Position::start(2).unwrap();
    let rows = seat_features(&rules, &pos);
    assert_eq!(rows[0][10], 4.0 * 7.0 / 8.0);
    // Every field but e5 marked by seat 1: seat 0's chevron on a1 is 4 king moves away.
    let e5 = 4 * 9 + 4;
    let markers = [0u128, pacru_engine::geometry::FULL & !(1u128 << e5) & !1];
    let p = Position::new(2, &markers, &[&[0], &[80 * 8]], 0, 0, -1, 0, 0, None).unwrap();
    assert_eq!(seat_features(&rules, &p)[0][10], 4.0 / 8.0);
    // Pacru: no arrival marking, no approach.
    assert_eq!(seat_features(&Rules::new(Game::Pacru), &pos)[0][10], 0.0);
}

#[test]
fn territory_is_what_a_player_reaches_first() {
    use pacru_engine::geometry::FULL;
    use pacru_search::territory::territory;
    // File a neutral, every other field seat 1's colour. Seat 0's chevron on a1 faces N
    // (facing 0) and reaches a2..a8 in 1..7 steps; seat 1's on i9 faces S (facing 4) and
    // needs 8 steps to file a (h8, g8, ..., b8, then a9): a9 is reached by both in the
    // same layer, contested, nobody's.
    let file_a = (0..9).fold(0u128, |m, r| m | 1u128 << (9 * r));
    let markers = [0u128, FULL & !file_a];
    let p = Position::new(2, &markers, &[&[0], &[80 * 8 + 4]], 0, 0, -1, 0, 0, None).unwrap();
    for game in [Game::Shacru, Game::Lilacru] {
        let t = territory(&Rules::new(game), &p);
        assert_eq!(t[0], (7, Some(1)), "{game:?}");
        assert_eq!(t[1], (0, Some(8)), "{game:?}");
    }
    // Facing matters: facing S on a9 the chevron walks down file a (a8..a2; a1 is
    // contested, seat 1 reaching it from b2 in 8 steps too); facing E on a1 its forward
    // fields are b2 and b1, seat 1's colour, or off the board: it reaches nothing.
    let p = Position::new(
        2,
        &markers,
        &[&[72 * 8 + 4], &[80 * 8 + 4]],
        0,
        0,
        -1,
        0,
        0,
        None,
    );
    let t = territory(&Rules::new(Game::Shacru), &p.unwrap());
    assert_eq!(t[0], (7, Some(1)));
    let p = Position::new(2, &markers, &[&[2], &[80 * 8 + 4]], 0, 0, -1, 0, 0, None);
    let t = territory(&Rules::new(Game::Shacru), &p.unwrap());
    assert_eq!(t[0], (0, None));
    assert_eq!(t[1], (8, Some(8))); // a2..a9 (a1 holds a chevron)
                                    // Pacru and Azacru: no territory.
    assert_eq!(
        territory(&Rules::new(Game::Pacru), &Position::start(2).unwrap()),
        [(0, None); 4]
    );
}

#[test]
fn the_idle_limit_is_won_by_the_player_ahead() {
    // Shacru, one ply before the idle limit (81 rounds, 162 plies, D33): seat 0, ahead
    // in markers, wins at once by not acquiring (a1-a2 onto its own field) and would
    // reset the counter by acquiring b2; the search takes the win.
    let rules = Rules::new(Game::Shacru);
    let own = (1u128 << 9) | (1 << 18) | (0b1111_1100); // a2, a3, c1..h1
    let markers = [own, (1u128 << 80) | (1 << 79)]; // seat 1: i9, h9
    let pos = Position::new(
        2,
        &markers,
        &[&[0], &[80 * 8 + 4]],
        0,
        0,
        -1,
        161,
        200,
        None,
    );
    let r = search(&rules, &pos.unwrap(), &nodes(20_000, 1)).unwrap();
    assert_eq!(r.best.target().map(u8::from), Some(9));
    assert_eq!(r.value, WIN - 1);
}

#[test]
fn a_two_player_tie_is_a_draw_not_half_a_win() {
    // Shacru; seat 0's chevron on a1 faces N. a1-a2 takes the last field it can ever
    // reach and ends the game tied 40-40 (D35: a draw with two players); a1-b2 onto its
    // own field keeps a2 for later, its territory. Valued by territory alone at depth 1,
    // the search must prefer the position it calls won to the draw.
    let rules = Rules::new(Game::Shacru);
    let (a2, e5) = (9u8, 40u8);
    let mut seat1: u128 = [1u8, 30, 31, 32, 39, 41, 48, 49, 50]
        .iter()
        .fold(0, |m, &f| m | 1u128 << f);
    let mut f = 80u8;
    while seat1.count_ones() < 40 {
        if f != e5 {
            seat1 |= 1u128 << f;
        }
        f -= 1;
    }
    let seat0 = pacru_engine::geometry::FULL & !seat1 & !(1u128 << a2) & !(1u128 << e5);
    assert_eq!((seat0.count_ones(), seat0 & 1, seat0 >> 10 & 1), (39, 1, 1));
    let pos = Position::new(2, &[seat0, seat1], &[&[0], &[80 * 8]], 0, 0, -1, 0, 0, None);
    let pos = pos.unwrap();
    let list = legal_moves(&rules, &pos);
    let tie = list
        .iter()
        .find(|m| m.target().map(u8::from) == Some(a2))
        .unwrap();
    let end = list.apply_listed(&tie).unwrap().outcome.unwrap();
    assert_eq!(end.winners, 0b11);
    let mut weights = [0.0; pacru_search::FEATURES];
    weights[13] = 1.0; // territory
    let mut s = nodes(u64::MAX, 1);
    s.budget = Budget {
        nodes: None,
        time: None,
        depth: Some(1),
    };
    s.weights = weights;
    let r = search(&rules, &pos, &s).unwrap();
    assert_eq!(r.best.target().map(u8::from), Some(10));
    assert!(r.value > 900, "{}", r.value);
}
