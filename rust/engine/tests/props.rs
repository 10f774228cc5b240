//! Properties on random input: random bitboard positions and random legal play through
//! `Position::new`, `legal_moves`, `get`, `index_of`, `apply` never panic, and
//! `index_of(get(i)) == Some(i)`.

use pacru_engine::{
    apply, legal_moves, legal_moves_into, perft, Counter, EngineError, Field, Game, MeetingRule,
    Move, MoveList, Position, Rules, COUNTER_MAX,
};
use proptest::prelude::*;

const GAMES: [Game; 4] = [Game::Lilacru, Game::Shacru, Game::Azacru, Game::Pacru];

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        0usize..4,
        any::<bool>(),
        prop::option::of(prop_oneof![1u64..200, (u64::MAX - 3)..=u64::MAX]),
        prop_oneof![0u64..100, (u64::MAX - 3)..=u64::MAX],
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

/// A counter (`ply`, `idle`): small, or at the end of what the engine holds.
fn counter() -> impl Strategy<Value = u64> {
    prop_oneof![0u64..400, (COUNTER_MAX - 3)..=COUNTER_MAX]
}

/// A random position: each field neutral or one seat's, maybe a chevron of any seat.
fn position_strategy() -> impl Strategy<Value = Position> {
    (
        2u8..=4,
        prop::collection::vec((0u8..8, 0u8..24, 0u8..8), 81),
        any::<u8>(),
        any::<u8>(),
        -1i8..4,
        counter(),
        counter(),
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
        let next = match apply(rules, pos, &m) {
            Ok(next) => next,
            Err(EngineError::CounterLimit(_)) => {
                // A counter at its end: refused alike by every way of applying a move.
                assert!(pos.ply == COUNTER_MAX || pos.idle == COUNTER_MAX);
                assert_eq!(moves.apply_index(i), None);
                continue;
            }
            Err(other) => panic!("a listed move is legal: {other:?}"),
        };
        assert_eq!(moves.apply_index(i), Some(next.clone()));
        // Into a position that held another one: the same position.
        let mut into = Position::start(4).expect("a start position");
        assert!(moves.apply_listed_into(&m, &mut into));
        assert_eq!(into, next);
    }
}

/// The indices in `full` of the moves of the chevron on `origin`, in order: its one run
/// of step families, then its reorientations {R14} (none for a pass list).
fn chevron_indices(full: &MoveList, origin: u8) -> Vec<std::ops::Range<u64>> {
    if full.is_pass() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let steps = full.steps_from(origin);
    if let (Some(first), Some(last)) = (
        full.step_range(steps.start),
        steps.end.checked_sub(1).and_then(|i| full.step_range(i)),
    ) {
        if !steps.is_empty() {
            out.push(first.0..last.0 + last.1);
        }
    }
    let (step_moves, _, _, per_chevron) = full.reorientation_layout();
    let reorienting = full.reorientation_fields().0;
    if let Some(bit) = Field::new(origin).map(Field::bit) {
        if reorienting & bit != 0 {
            let before = u64::from((reorienting & (bit - 1)).count_ones());
            let start = step_moves + before * per_chevron;
            out.push(start..start + per_chevron);
        }
    }
    out
}

/// `of_chevron(origin)` is the moves of `full` whose origin is `origin`, in order, as a
/// list of its own: its length, `get`, `index_of` and iteration.
fn check_chevron_list(full: &MoveList, origin: u8, picks: &[u64]) {
    let sub = full.of_chevron(origin);
    let indices: Vec<u64> = chevron_indices(full, origin)
        .into_iter()
        .flatten()
        .collect();
    let n = sub.len();
    assert_eq!(n, indices.len() as u64, "origin {origin}");
    assert!(!sub.is_pass());
    assert_eq!(sub.get(n), None);
    assert_eq!(sub.step_count(), full.steps_from(origin).len());
    for &p in picks {
        if n == 0 {
            break;
        }
        let i = p % n;
        let m = sub.get(i).expect("in range");
        assert_eq!(full.get(indices[i as usize]), Some(m));
        assert_eq!(m.origin().map(Field::get), Some(origin));
        assert_eq!(sub.index_of(&m), Some(i), "{m}");
    }
    assert!(sub
        .iter()
        .take(64)
        .eq(indices.iter().take(64).filter_map(|&i| full.get(i))));
    // A move of another chevron is not in it.
    if let Some(other) = full
        .iter()
        .take(64)
        .find(|m| m.origin().map(Field::get) != Some(origin))
    {
        assert_eq!(sub.index_of(&other), None, "{other}");
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
        // A number off the board makes no `Field`: that part of the move is left out.
        let field = |n: Option<u8>| n.and_then(Field::new);
        let (origin, target) = (field(origin), field(target));
        let (marker, meeting) = (field(marker), field(meeting));
        let parts = Move::from_parts(origin, target, capture, twist, turn, connection, marker,
                                     meeting, relinquished);
        // Parts that make no move have no `Move` (`pacru.Move` refuses them too).
        let Some(m) = parts else {
            return Ok(());
        };
        // A move made of parts gives them back.
        prop_assert_eq!((m.origin(), m.target(), m.capture(), m.twist(), m.turn()),
                        (origin, target, capture, twist, turn));
        prop_assert_eq!((m.connection(), m.marker(), m.meeting(), m.relinquished()),
                        (connection, marker, meeting, relinquished));
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
        let _ = apply(&rules, &pos, &Move::Pass);
        let _ = perft(&rules, &pos, 2);
    }

    /// A chevron's own list (`of_chevron`, `LegalMoves.from_field`) in random positions.
    #[test]
    fn chevron_lists_of_random_positions(rules in rules_strategy(), pos in position_strategy(),
                                         origin in 0u8..90,
                                         picks in prop::collection::vec(any::<u64>(), 8)) {
        check_chevron_list(&legal_moves(&rules, &pos), origin, &picks);
    }

    /// A chevron's own list in random play: every field of the positions reached.
    #[test]
    fn chevron_lists_in_play(rules in rules_strategy(), players in 2u8..=4,
                             picks in prop::collection::vec(any::<u64>(), 1..20)) {
        let mut pos = Position::start(players).unwrap();
        for &p in &picks {
            let moves = legal_moves(&rules, &pos);
            if moves.is_empty() {
                break;
            }
            for origin in 0..81 {
                check_chevron_list(&moves, origin, &[p, p / 7]);
            }
            pos = moves.apply_index(p % moves.len()).unwrap();
        }
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

    /// The counters are held exactly up to COUNTER_MAX: a move adds one ply (and one idle
    /// ply or none), never wraps or saturates, and past the end is `CounterLimit`.
    #[test]
    fn counters_exact_or_refused(rules in rules_strategy(), pos in position_strategy(),
                                 pick in any::<u64>()) {
        let moves = legal_moves(&rules, &pos);
        if !moves.is_empty() {
            let m = moves.get(pick % moves.len()).unwrap();
            match apply(&rules, &pos, &m) {
                Ok(next) => {
                    prop_assert_eq!(next.ply, pos.ply + 1);
                    prop_assert!(next.idle == 0 || next.idle == pos.idle + 1);
                    if let Some(cap) = rules.move_cap {
                        if next.ply >= cap && (rules.game == Game::Azacru) {
                            prop_assert!(next.outcome.is_some());
                        }
                    }
                }
                Err(EngineError::CounterLimit(counter)) => {
                    prop_assert!(
                        (counter == Counter::Ply && pos.ply == COUNTER_MAX)
                            || (counter == Counter::Idle && pos.idle == COUNTER_MAX)
                    );
                }
                Err(other) => prop_assert!(false, "unexpected {:?}", other),
            }
        }
    }
}
