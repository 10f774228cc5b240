//! Properties on random input: random bitboard positions and random legal play through
//! `Position::new`, `legal_moves`, `get`, `index_of`, `apply` never panic, and
//! `index_of(get(i)) == Some(i)`.

use pacru_engine::{
    apply, legal_moves, legal_moves_into, perft, Game, MeetingRule, Move, Position, Rules,
};
use proptest::prelude::*;

const GAMES: [Game; 4] = [Game::Lilacru, Game::Shacru, Game::Azacru, Game::Pacru];

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        0usize..4,
        any::<bool>(),
        prop::option::of(1u32..200),
        0u32..100,
    )
        .prop_map(|(g, original, move_cap, idle_rounds)| Rules {
            game: GAMES[g],
            meeting_rule: if original {
                MeetingRule::Original
            } else {
                MeetingRule::Y2011
            },
            move_cap,
            idle_rounds,
        })
}

/// A random position: each field neutral or one seat's, maybe a chevron of any seat.
fn position_strategy() -> impl Strategy<Value = Position> {
    (
        2u8..=4,
        prop::collection::vec((0u8..8, 0u8..24, 0u8..8), 81),
        any::<u8>(),
        any::<u8>(),
        -1i8..4,
        0u32..400,
        0u32..400,
    )
        .prop_filter_map(
            "a valid shape",
            |(players, fields, to_move, out, trigger, idle, ply)| {
                let n = players as usize;
                let mut markers = vec![0u128; n];
                let mut chevrons: Vec<Vec<u16>> = vec![Vec::new(); n];
                for (f, &(mark, chev, facing)) in fields.iter().enumerate() {
                    if (mark as usize) < n {
                        markers[mark as usize] |= 1 << f;
                    }
                    if (chev as usize) < n {
                        chevrons[chev as usize].push(f as u16 * 8 + u16::from(facing));
                    }
                }
                let refs: Vec<&[u16]> = chevrons.iter().map(|c| c.as_slice()).collect();
                let seats = (1u8 << n) - 1;
                Position::new(
                    players,
                    &markers,
                    &refs,
                    to_move % players,
                    out & seats & !(1 << (to_move % players)),
                    trigger.min(players as i8 - 1),
                    idle,
                    ply,
                    None,
                )
                .ok()
            },
        )
}

fn check_list(rules: &Rules, pos: &Position, picks: &[u64]) {
    let moves = legal_moves(rules, pos);
    let n = moves.len();
    assert_eq!(moves.get(n), None);
    if n == 0 {
        return;
    }
    for &p in picks {
        let i = p % n;
        let m = moves.get(i).expect("in range");
        assert_eq!(moves.index_of(&m), Some(i), "{m}");
        let next = apply(rules, pos, &m).expect("a listed move is legal");
        assert_eq!(moves.apply_index(i), Some(next.clone()));
        // Into a position that held another one: the same position.
        let mut into = Position::start(4).expect("a start position");
        assert!(moves.apply_listed_into(&m, &mut into));
        assert_eq!(into, next);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_positions(rules in rules_strategy(), pos in position_strategy(),
                        picks in prop::collection::vec(any::<u64>(), 8)) {
        check_list(&rules, &pos, &picks);
    }

    /// A list refilled with another position's moves (`legal_moves_into`, which reuses a
    /// freed list) is that position's list.
    #[test]
    fn refilled_list(rules in rules_strategy(), first in position_strategy(),
                     pos in position_strategy(),
                     picks in prop::collection::vec(any::<u64>(), 8)) {
        let fresh = legal_moves(&rules, &pos);
        let mut list = legal_moves(&rules, &first);
        legal_moves_into(&rules, &pos, &mut list);
        prop_assert_eq!(list.len(), fresh.len());
        prop_assert_eq!(list.is_pass(), fresh.is_pass());
        prop_assert_eq!(list.step_count(), fresh.step_count());
        for i in 0..=fresh.step_count() {
            prop_assert_eq!(list.step_range(i), fresh.step_range(i));
        }
        prop_assert!(list.iter().take(64).eq(fresh.iter().take(64)));
        for &p in &picks {
            let i = p % (fresh.len() + 1);
            prop_assert_eq!(list.get(i), fresh.get(i));
            prop_assert_eq!(list.apply_index(i), fresh.apply_index(i));
        }
    }

    #[test]
    fn random_moves_never_panic(rules in rules_strategy(), pos in position_strategy(),
                                origin in prop::option::of(0u8..100),
                                target in prop::option::of(0u8..100),
                                capture in any::<bool>(), twist in -2i8..3, turn in -3i8..4,
                                connection in any::<bool>(),
                                marker in prop::option::of(0u8..100),
                                meeting in prop::option::of(0u8..100),
                                relinquished in any::<u128>()) {
        let m = Move { origin, target, capture, twist, turn, connection, marker, meeting,
                       relinquished };
        let moves = legal_moves(&rules, &pos);
        match moves.index_of(&m) {
            Some(i) => prop_assert_eq!(moves.get(i), Some(m)),
            None => prop_assert!(apply(&rules, &pos, &m).is_err()),
        }
    }

    /// The fields are public: a shape `Position::new` refuses still never panics.
    #[test]
    fn public_fields_never_panic(rules in rules_strategy(), pos in position_strategy(),
                                 players in any::<u8>(), to_move in any::<u8>(),
                                 out in any::<u8>(), trigger in any::<i8>()) {
        let pos = Position { players, to_move, out, trigger, ..pos };
        let moves = legal_moves(&rules, &pos);
        for i in 0..moves.len().min(4) {
            let m = moves.get(i).unwrap();
            prop_assert_eq!(moves.index_of(&m), Some(i));
            let _ = apply(&rules, &pos, &m);
        }
        let _ = pacru_engine::lookahead_outcome(&rules, &pos);
        let _ = pacru_engine::can_acquire(&rules, &pos);
        let _ = pacru_engine::top_scorers(&pos);
        let _ = apply(&rules, &pos, &Move::PASS);
        let _ = perft(&rules, &pos, 2);
    }

    #[test]
    fn random_play(rules in rules_strategy(), players in 2u8..=4,
                   picks in prop::collection::vec(any::<u64>(), 1..150)) {
        let mut pos = Position::start(players).unwrap();
        for &p in &picks {
            let moves = legal_moves(&rules, &pos);
            if moves.is_empty() {
                prop_assert!(pos.outcome.is_some() || rules.game == Game::Pacru);
                break;
            }
            check_list(&rules, &pos, &[p, p / 3]);
            pos = moves.apply_index(p % moves.len()).unwrap();
        }
        let _ = perft(&rules, &pos, 1);
    }
}
