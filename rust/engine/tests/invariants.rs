//! The engine's invariants on random legal playouts from every start (game, options,
//! player count): every listed move applies, markers and chevrons are conserved as the
//! rules say, and a reached position survives its round trips (its values through
//! `Position::new`, its text through the golden key of tests/gen_golden.py).
//!
//! The engine keeps no incremental hash (the search hashes a position afresh), so there is
//! no incremental hash to check against a recomputed one here.

mod common;

use common::{parse_position, position_key};
use pacru_engine::{
    apply, legal_moves, Field, Game, MeetingRule, Move, Position, Rules, Termination, SUPPLY,
};
use proptest::prelude::*;

const GAMES: [Game; 4] = [Game::Lilacru, Game::Shacru, Game::Azacru, Game::Pacru];

/// Rules that `Rules::with_options` accepts: each game with the options it has.
fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        0usize..4,
        any::<bool>(),
        prop::option::of(1u64..120),
        1u64..6,
    )
        .prop_map(|(g, original, cap, idle)| {
            let game = GAMES[g];
            let meeting = if original && game == Game::Pacru {
                MeetingRule::Original
            } else {
                MeetingRule::Y2011
            };
            let cap = cap.filter(|_| matches!(game, Game::Pacru | Game::Azacru));
            let idle = if matches!(game, Game::Lilacru | Game::Shacru) {
                idle
            } else {
                81
            };
            Rules::with_options(game, meeting, cap, idle).expect("options the game has")
        })
}

/// The number of chevrons of seat `seat`.
fn chevrons(pos: &Position, seat: usize) -> usize {
    pos.chevrons[seat].len()
}

/// Markers are conserved as the rules move them {L5, A-R7, R4..R14, D29, D38}: a field
/// changes colour only to the mover's (an opponent never gains a marker, nor loses one to
/// a neutral field); the mover loses exactly the fields a reorientation gives up, which
/// become neutral; Lilacru and Shacru colour at most the arrival field; Pacru's supply
/// never runs below zero, and the move that empties it wins (R16b).
fn check_markers(rules: &Rules, before: &Position, m: &Move, after: &Position) {
    let n = usize::from(before.players);
    let mover = usize::from(before.to_move);
    let mut gained = 0u128;
    for seat in (0..n).filter(|&s| s != mover) {
        let lost = before.markers[seat] & !after.markers[seat];
        assert_eq!(
            after.markers[seat] & !before.markers[seat],
            0,
            "{m}: seat {seat} gained"
        );
        assert_eq!(
            lost & !after.markers[mover],
            0,
            "{m}: seat {seat} lost to no one"
        );
        gained |= lost;
    }
    let mover_lost = before.markers[mover] & !after.markers[mover];
    assert_eq!(
        mover_lost,
        m.relinquished(),
        "{m}: the mover lost other fields"
    );
    assert_eq!(
        after.marked() & m.relinquished(),
        0,
        "{m}: a given-up field kept a marker"
    );
    let new_own = after.markers[mover] & !before.markers[mover];
    assert_eq!(gained & !new_own, 0);
    if rules.lookahead_end() {
        let arrival = m.target().map_or(0, Field::bit);
        assert_eq!(
            new_own & !arrival,
            0,
            "{m}: more than the arrival field coloured"
        );
    }
    if rules.pacru() {
        let own = after.markers[mover].count_ones();
        let target = u32::try_from(SUPPLY[n]).expect("a positive supply");
        assert!(own <= target, "{m}: the supply ran below zero");
        if own == target {
            let outcome = after.outcome.expect("an empty supply ends the game");
            assert_eq!(outcome.termination, Termination::SupplyExhausted);
            assert_eq!(outcome.winners, 1 << mover);
        }
    }
}

/// No chevron appears; only Pacru takes chevrons away (pincers {R11}, blocked players
/// {R15}) and Azacru removes the chevron of a costly connection {A-R7}: the mover's only.
fn check_chevrons(rules: &Rules, before: &Position, m: &Move, after: &Position) {
    let n = usize::from(before.players);
    let mover = usize::from(before.to_move);
    assert_eq!(
        after.occupied() & !before.occupied() & !m.target().map_or(0, Field::bit),
        0
    );
    for seat in 0..n {
        let (was, is) = (chevrons(before, seat), chevrons(after, seat));
        assert!(is <= was, "{m}: seat {seat} has more chevrons");
        let may_lose = rules.pacru() || (rules.azacru() && seat == mover);
        if !may_lose {
            assert_eq!(is, was, "{m}: seat {seat} lost a chevron");
        }
    }
}

/// The position rebuilt from its values by `Position::new`, and from its golden key text.
fn check_round_trips(pos: &Position) {
    let n = usize::from(pos.players);
    let codes: Vec<Vec<u16>> = pos.chevrons[..n].iter().map(|c| c.to_vec()).collect();
    let refs: Vec<&[u16]> = codes.iter().map(Vec::as_slice).collect();
    let rebuilt = Position::new(
        pos.players,
        &pos.markers[..n],
        &refs,
        pos.to_move,
        pos.out,
        pos.trigger,
        pos.idle,
        pos.ply,
        pos.outcome,
    );
    assert_eq!(rebuilt.as_ref(), Ok(pos));
    assert_eq!(&parse_position(&position_key(pos)), pos);
}

/// Every move of `pos`'s list (at most `limit`, spread over the list) applies, to the
/// position the list itself resolves, and keeps the invariants.
fn check_moves(rules: &Rules, pos: &Position, limit: u64) {
    let moves = legal_moves(rules, pos);
    let len = moves.len();
    let stride = (len / limit.max(1)).max(1);
    for i in (0..len).step_by(usize::try_from(stride).expect("a small stride")) {
        let m = moves.get(i).expect("an index below the length");
        let after = apply(rules, pos, &m).unwrap_or_else(|e| panic!("{m} is listed: {e}"));
        assert_eq!(moves.apply_index(i).as_ref(), Some(&after), "{m}");
        assert_eq!(moves.resolve_listed_boxed(&m).as_deref(), Ok(&after), "{m}");
        assert_eq!(after.ply, pos.ply + 1);
        check_markers(rules, pos, &m, &after);
        check_chevrons(rules, pos, &m, &after);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_the_invariants(
        rules in rules_strategy(),
        players in 2u8..=4,
        picks in prop::collection::vec(any::<u64>(), 1..300),
    ) {
        let mut pos = Position::start(players).expect("2..=4 players");
        check_round_trips(&pos);
        for &pick in &picks {
            if pos.outcome.is_some() {
                break;
            }
            check_moves(&rules, &pos, 6);
            let moves = legal_moves(&rules, &pos);
            prop_assert!(!moves.is_empty(), "a game in play has a move (a pass at least)");
            pos = moves.apply_index(pick % moves.len()).expect("a listed move");
            check_round_trips(&pos);
        }
    }
}
