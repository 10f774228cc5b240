//! Random rollouts: determinism, lengths, replays, families.

use pacru_batch::{
    family_count, family_range, family_ranges, playout, random_rollouts, returns_of, Sampling,
    SplitMix64,
};
use pacru_engine::{apply, legal_moves, Game, Position, Rules};

const GAMES: [Game; 4] = [Game::Lilacru, Game::Shacru, Game::Azacru, Game::Pacru];

fn rules(game: Game) -> Rules {
    Rules::new(game)
}

#[test]
fn the_same_seed_gives_the_same_games() {
    for game in GAMES {
        let r = rules(game);
        let start = Position::start(2).unwrap();
        let a = random_rollouts(&r, &start, 6, 42, Some(300), Sampling::Families, true, 1).unwrap();
        let b = random_rollouts(&r, &start, 6, 42, Some(300), Sampling::Families, true, 1).unwrap();
        let c = random_rollouts(&r, &start, 6, 43, Some(300), Sampling::Families, true, 1).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.moves, c.moves);
        assert_eq!(a.returns.len(), 12);
        assert_eq!(a.plies.len(), 6);
    }
}

#[test]
fn a_game_does_not_depend_on_the_games_before_it() {
    let r = rules(Game::Shacru);
    let start = Position::start(3).unwrap();
    let all = random_rollouts(&r, &start, 4, 5, None, Sampling::Moves, false, 1).unwrap();
    let mut rng = SplitMix64::for_game(5, 3);
    let (last, plies) = playout(&r, &start, None, Sampling::Moves, &mut rng, None).unwrap();
    assert_eq!(all.plies[3], plies as i32);
    assert_eq!(&all.returns[9..12], &returns_of(&last)[..3]);
}

/// Replays the recorded moves with `apply` (which checks legality): every game ends by a
/// rule or at the cap, with the returns and plies reported.
#[test]
fn recorded_games_replay_to_their_returns() {
    for game in GAMES {
        for players in 2..=4u8 {
            for sampling in [Sampling::Families, Sampling::Moves] {
                let r = rules(game);
                let start = Position::start(players).unwrap();
                let cap = 120;
                let out = random_rollouts(&r, &start, 5, 7, Some(cap), sampling, true, 1).unwrap();
                let moves = out.moves.as_ref().unwrap();
                let mut at = 0usize;
                for g in 0..5 {
                    let mut pos = start.clone();
                    for _ in 0..out.plies[g] {
                        let m = legal_moves(&r, &pos).get(moves[at]).unwrap();
                        pos = apply(&r, &pos, &m).unwrap();
                        at += 1;
                    }
                    assert!(pos.outcome.is_some() || out.plies[g] == cap as i32);
                    let p = usize::from(players);
                    assert_eq!(&out.returns[g * p..(g + 1) * p], &returns_of(&pos)[..p]);
                    if pos.outcome.is_none() {
                        assert!(out.returns[g * p..(g + 1) * p].iter().all(|&x| x == 0.0));
                    }
                }
                assert_eq!(at, moves.len());
            }
        }
    }
}

#[test]
fn two_player_returns_sum_to_zero_and_are_signs() {
    let r = rules(Game::Lilacru);
    let out = random_rollouts(
        &r,
        &Position::start(2).unwrap(),
        20,
        1,
        None,
        Sampling::Families,
        false,
        1,
    )
    .unwrap();
    for row in out.returns.chunks(2) {
        assert_eq!(row[0] + row[1], 0.0);
        assert!(row.iter().all(|x| [-1.0, 0.0, 1.0].contains(x)));
    }
    assert!(out.plies.iter().all(|&p| p > 0));
}

/// The families partition the list in order: steps grouped by chevron and target, then
/// reorientations by chevron and turn, as `pacru.chevron.movelist` lists them; `family_ranges`
/// gives them all at once.
#[test]
fn families_partition_the_move_list() {
    let mut checked_reorientations = 0;
    for game in GAMES {
        let r = rules(game);
        let mut rng = SplitMix64::new(11);
        let mut pos = Position::start(2).unwrap();
        for _ in 0..60 {
            let list = legal_moves(&r, &pos);
            if list.is_empty() {
                break;
            }
            let count = family_count(&r, &pos, &list);
            let mut next = 0u64;
            for f in 0..count {
                let (start, size) = family_range(&list, f);
                assert_eq!(start, next, "{game:?} family {f}");
                assert!(size > 0);
                let first = list.get(start).unwrap();
                let last = list.get(start + size - 1).unwrap();
                assert_eq!(
                    (first.origin(), first.target(), first.turn()),
                    (last.origin(), last.target(), last.turn())
                );
                if f >= list.step_count() {
                    assert_ne!(first.turn(), 0);
                    checked_reorientations += 1;
                } else if start + size < list.len() {
                    let after = list.get(start + size).unwrap();
                    assert_ne!(
                        (first.origin(), first.target(), first.turn()),
                        (after.origin(), after.target(), after.turn())
                    );
                }
                next = start + size;
            }
            assert_eq!(next, if count == 0 { 0 } else { list.len() });
            let ranges: Vec<(u64, u64)> = (0..count).map(|f| family_range(&list, f)).collect();
            assert_eq!(family_ranges(&pos, &list), ranges, "{game:?}");
            let index = rng.below(list.len());
            pos = list.apply_index(index).unwrap();
        }
    }
    assert!(checked_reorientations > 0);
}

#[test]
fn a_finished_position_gives_its_returns_and_no_ply() {
    let r = rules(Game::Pacru);
    let start = Position::start(2).unwrap();
    let mut rng = SplitMix64::new(3);
    let (last, plies) = playout(&r, &start, None, Sampling::Families, &mut rng, None).unwrap();
    assert!(last.outcome.is_some() && plies > 0);
    let out = random_rollouts(&r, &last, 3, 9, None, Sampling::Families, false, 1).unwrap();
    assert_eq!(out.plies, [0, 0, 0]);
    assert_eq!(out.returns, [&returns_of(&last)[..2]; 3].concat());
    let capped = random_rollouts(&r, &start, 2, 9, Some(0), Sampling::Families, false, 1).unwrap();
    assert_eq!(capped.plies, [0, 0]);
    assert_eq!(capped.returns, [0.0; 4]);
}

#[test]
fn threads_give_the_games_of_one_thread() {
    let r = rules(Game::Pacru);
    let start = Position::start(2).unwrap();
    let one = random_rollouts(&r, &start, 100, 3, Some(40), Sampling::Families, true, 1).unwrap();
    for threads in [2, 3, 7] {
        let many = random_rollouts(
            &r,
            &start,
            100,
            3,
            Some(40),
            Sampling::Families,
            true,
            threads,
        )
        .unwrap();
        assert_eq!(many, one);
    }
}

#[test]
fn too_many_games_are_an_allocation_error() {
    let r = rules(Game::Pacru);
    let start = Position::start(2).unwrap();
    let out = random_rollouts(&r, &start, 1 << 60, 1, Some(1), Sampling::Moves, false, 2);
    assert!(out.is_err());
}
