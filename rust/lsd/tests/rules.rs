//! The LSD rules on small positions: the first tile, the reasons a move is refused, the
//! captures of LSD 2.3, the row win and skipping (RULING 18, 19), and random games keeping
//! every tile accounted for.

use pacru_lsd::position::Termination;
use pacru_lsd::rules::{encode_cell, ORIGIN};
use pacru_lsd::{Game, Illegal, Layout, Move, Outcome, Position, Rules};

/// The default tile set of LSD 3.1 (RULING 1): per seat `+` and `x` in N, NE, NS, NES,
/// NESW, two of each, black for seat 0 and white for seat 1.
fn default_rules(players: usize, rotation: bool) -> Rules {
    let black: Vec<u8> = vec![1, 3, 5, 7, 15, 17, 19, 21, 23, 31];
    let kinds: Vec<Vec<u8>> = (0..players)
        .map(|s| {
            black
                .iter()
                .map(|&f| f | if s % 2 == 1 { 32 } else { 0 })
                .collect()
        })
        .collect();
    let row = if players == 4 { 3 } else { 4 };
    Rules::new(kinds, vec![vec![2; 10]; players], rotation, true, row).unwrap()
}

fn mv(face: u8, x: i32, y: i32) -> Move {
    Move {
        face,
        cell: encode_cell(x, y),
    }
}

#[test]
fn the_first_tile_goes_to_the_origin_in_any_orientation() {
    let rules = default_rules(2, true);
    let start = Position::new(&rules);
    let moves = start.legal_moves(&rules);
    // By kind, then orientation (dot mask ascending), all on (0, 0) (RULING 20).
    let faces: Vec<u8> = moves.iter().map(|m| m.face).collect();
    assert_eq!(
        faces,
        vec![
            1, 2, 4, 8, 3, 6, 9, 12, 5, 10, 7, 11, 13, 14, 15, 17, 18, 20, 24, 19, 22, 25, 28, 21,
            26, 23, 27, 29, 30, 31
        ]
    );
    assert!(moves.iter().all(|m| m.cell == ORIGIN));
    assert_eq!(
        start.check(&rules, mv(1, 1, 0)),
        Err(Illegal::FirstTileNotOrigin)
    );
    assert_eq!(start.check(&rules, mv(33, 0, 0)), Err(Illegal::NotInSupply));
    let fixed = default_rules(2, false);
    assert_eq!(
        Position::new(&fixed).check(&fixed, mv(2, 0, 0)),
        Err(Illegal::RotationNotAllowed)
    );
    assert_eq!(Position::new(&fixed).legal_moves(&fixed).len(), 10);
}

#[test]
fn placements_must_make_a_whole_dot_and_obstruct_none() {
    let rules = default_rules(2, true);
    // Black + with one dot facing east at the origin; white to move.
    let pos = Position::new(&rules).play(&rules, mv(2, 0, 0)).unwrap();
    assert_eq!(pos.turn(), 1);
    assert_eq!(pos.frontier(), &[(encode_cell(1, 0), 0b1000)]);
    // (1, 0) needs W; its other sides face empty cells.
    assert_eq!(pos.check(&rules, mv(32 | 8, 1, 0)), Ok(()));
    assert_eq!(
        pos.check(&rules, mv(32 | 2, 1, 0)),
        Err(Illegal::ObstructsDot(3))
    );
    assert_eq!(pos.check(&rules, mv(32 | 8, 0, 0)), Err(Illegal::Occupied));
    // North of the origin faces its empty north side: a dot there is refused (RULING 5).
    assert_eq!(
        pos.check(&rules, mv(32 | 4, 0, 1)),
        Err(Illegal::DotAgainstEmpty(2))
    );
    assert_eq!(
        pos.check(&rules, mv(32 | 1, 0, 1)),
        Err(Illegal::NoWholeDot)
    );
    assert_eq!(pos.check(&rules, mv(8, 1, 0)), Err(Illegal::NotInSupply));
    let moves = pos.legal_moves(&rules);
    assert!(moves
        .iter()
        .all(|m| m.cell == encode_cell(1, 0) && m.face & 8 == 8));
    // W, then W+NS turned (WE..): the white kinds showing a west dot, by kind then mask.
    let faces: Vec<u8> = moves.iter().map(|m| m.face).collect();
    assert_eq!(
        faces,
        vec![40, 41, 44, 42, 43, 45, 46, 47, 56, 57, 60, 58, 59, 61, 62, 63]
    );
}

#[test]
fn a_plus_captures_the_other_shade_between_it_and_a_partner() {
    // LSD 2.3's '+' diagram: B+ (0,0), W (1,0), B+ placed on (2,0) takes the white tile.
    let rules = default_rules(2, true);
    let field = [
        (encode_cell(0, 0), 2u8),
        (encode_cell(1, 0), 1 << 6 | 32 | 10),
    ];
    let supplies = vec![
        vec![1, 2, 2, 2, 2, 2, 2, 2, 2, 2],
        vec![2, 2, 1, 2, 2, 2, 2, 2, 2, 2],
    ];
    let zero = vec![vec![0; 10]; 2];
    let pos = Position::from_parts(&rules, &field, &supplies, &zero, 0, None, None).unwrap();
    let after = pos.play(&rules, mv(8, 2, 0)).unwrap();
    assert_eq!(
        after.field(),
        &[(encode_cell(0, 0), 2), (encode_cell(2, 0), 8)]
    );
    assert_eq!(after.captured(&rules, 1), &[0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(after.ply(), 3);
    // The vacated cell faces both black dots again.
    assert_eq!(after.frontier(), &[(encode_cell(1, 0), 0b1010)]);
    // An 'x' partner is not a '+' partner (RULING 12): nothing is taken.
    let field = [
        (encode_cell(0, 0), 16 | 2),
        (encode_cell(1, 0), 1 << 6 | 32 | 10),
    ];
    let pos = Position::from_parts(&rules, &field, &supplies, &zero, 0, None, None).unwrap();
    assert_eq!(pos.play(&rules, mv(8, 2, 0)).unwrap().field().len(), 3);
}

#[test]
fn a_row_of_the_movers_tiles_wins_and_a_full_block_is_a_draw() {
    let rules = default_rules(2, true);
    // Black E-W tiles on (0..3, 0) and white above: black places the fourth.
    let field: Vec<(i32, u8)> = (0..3).map(|x| (encode_cell(x, 0), 10u8)).collect();
    let supplies = vec![vec![2, 2, 0, 2, 2, 2, 2, 2, 2, 2], vec![2; 10]];
    let zero = vec![vec![0; 10]; 2];
    let pos = Position::from_parts(&rules, &field, &supplies, &zero, 0, None, None).unwrap();
    assert_eq!(
        pos.frontier(),
        &[(encode_cell(-1, 0), 0b0010), (encode_cell(3, 0), 0b1000)]
    );
    let won = pos.play(&rules, mv(8, 3, 0)).unwrap();
    assert_eq!(won.turn(), -1);
    assert_eq!(
        won.outcome(),
        Some(Outcome {
            termination: Termination::Row,
            winners: 1
        })
    );
    let mut returns = [0.0; 2];
    won.returns(&mut returns);
    assert_eq!(returns, [1.0, -1.0]);
    assert_eq!(won.check(&rules, mv(2, -1, 0)), Err(Illegal::GameOver));
}

#[test]
fn random_games_keep_every_tile_and_play_only_checked_moves() {
    for players in 2..=4 {
        let rules = default_rules(players, true);
        let layout = Layout::new(rules.clone());
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..40 {
            let mut game = Game::start(&layout, Position::new(&rules)).unwrap();
            while !game.is_over() {
                let pos = game.position().clone();
                for m in game.moves() {
                    assert_eq!(pos.check(&rules, *m), Ok(()));
                }
                let mut mask = vec![0u8; layout.num_actions()];
                game.write_mask(&layout, &mut mask);
                let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a] == 1).collect();
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let action = legal[(state % legal.len() as u64) as usize] as i64;
                assert!(game.choose(&layout, -1).is_err());
                game.choose(&layout, action).unwrap();
                let after = game.position();
                for seat in 0..players {
                    let on_field = after
                        .field()
                        .iter()
                        .filter(|&&(_, t)| usize::from(t >> 6) == seat)
                        .count() as u32;
                    let left: u32 = after
                        .supply(&rules, seat)
                        .iter()
                        .map(|&c| u32::from(c))
                        .sum();
                    let lost: u32 = after
                        .captured(&rules, seat)
                        .iter()
                        .map(|&c| u32::from(c))
                        .sum();
                    assert_eq!(on_field + left + lost, 20);
                }
            }
            let outcome = game.position().outcome().unwrap();
            assert_eq!(
                outcome.winners == 0,
                outcome.termination == Termination::Blocked
            );
            assert_eq!(game.player(), -1);
        }
    }
}

#[test]
fn inputs_far_outside_the_field_are_refused_without_a_panic() {
    let rules = default_rules(2, true);
    let layout = Layout::new(rules.clone());
    let pos = Position::new(&rules).play(&rules, mv(2, 0, 0)).unwrap();
    for cell in [i32::MAX, i32::MIN, -1, 0] {
        assert_eq!(
            pos.check(&rules, Move { face: 40, cell }),
            Err(Illegal::NoWholeDot)
        );
    }
    assert_eq!(
        pos.check(
            &rules,
            Move {
                face: 200,
                cell: encode_cell(1, 0)
            }
        ),
        Err(Illegal::NotInSupply)
    );
    let mut game = Game::start(&layout, pos).unwrap();
    for action in [i64::MIN, i64::MAX, -1, layout.num_actions() as i64] {
        assert!(game.choose(&layout, action).is_err());
    }
    let mut returns = [0.0f32; 40];
    game.position().returns(&mut returns);
    assert!(returns.iter().all(|&r| r == 0.0));
}

#[test]
fn counted_and_indexed_moves_are_the_listed_ones() {
    // count_legal and nth_legal (what a random player reads) against the whole list, on
    // random games with and without rotation, to the end (no moves then).
    for (players, rotation) in [(2, true), (3, false), (4, true)] {
        let rules = default_rules(players, rotation);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20 {
            let mut pos = Position::new(&rules);
            loop {
                let moves = pos.legal_moves(&rules);
                assert_eq!(pos.count_legal(&rules), moves.len());
                for (i, m) in moves.iter().enumerate() {
                    assert_eq!(pos.nth_legal(&rules, i), Some(*m));
                }
                assert_eq!(pos.nth_legal(&rules, moves.len()), None);
                if moves.is_empty() {
                    assert!(pos.outcome().is_some());
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let m = moves[(state % moves.len() as u64) as usize];
                pos = pos.play(&rules, m).unwrap();
            }
        }
    }
}
