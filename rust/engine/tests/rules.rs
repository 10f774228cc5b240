//! Rule-by-rule checks on the positions of the Python suite (tests/chevron), their legal
//! moves and results as the Python engine gives them.

mod common;

use common::{parse_position, position_key};
use pacru_engine::{
    apply, can_acquire, legal_moves, lookahead_outcome, Counter, EngineError, Field, Game,
    MeetingRule, Move, OptionError, Outcome, Position, PositionError, Refusal, Rules, StepMove,
    Termination,
};

/// Field `n` (a test's literal, on the board).
fn field(n: u8) -> Field {
    Field::new(n).expect("a field on the board")
}

fn moves_text(rules: &Rules, pos: &Position) -> Vec<String> {
    legal_moves(rules, pos)
        .iter()
        .map(|m| m.to_string())
        .collect()
}

fn find(rules: &Rules, pos: &Position, text: &str) -> Move {
    legal_moves(rules, pos)
        .iter()
        .find(|m| m.to_string() == text)
        .unwrap_or_else(|| panic!("{text} is not legal"))
}

/// {L2, S-R1, A-R1, R1}, rules reference E.3: the number of moves from each start.
#[test]
fn start_move_counts() {
    let expected = [
        (Game::Lilacru, [12, 9, 9]),
        (Game::Shacru, [16, 13, 13]),
        (Game::Azacru, [16, 13, 13]),
        (Game::Pacru, [28, 23, 23]),
    ];
    for (game, counts) in expected {
        for (players, count) in (2..=4).zip(counts) {
            let pos = Position::start(players).unwrap();
            assert_eq!(
                legal_moves(&Rules::new(game), &pos).len(),
                count,
                "{game:?} {players}"
            );
        }
    }
}

/// {R11}, D17, E.1-11: two attackers may each take e7; g9xe7 also crosses into e8's
/// borderland, judged after the capture; the victim goes and its field turns red.
#[test]
fn pincer() {
    let rules = Rules::new(Game::Pacru);
    let pos = parse_position("2 0 0 -1 0 0 - 108840000000000000000,0 612.628/0.464");
    let pincers: Vec<String> = moves_text(&rules, &pos)
        .into_iter()
        .filter(|m| m.contains('x'))
        .collect();
    assert_eq!(
        pincers,
        ["e9xe7", "g9xe7+d7", "g9xe7+f7", "g9xe7+e8", "g9xe7+f8", "g9xe7+f9"]
    );
    let after = apply(&rules, &pos, &find(&rules, &pos, "g9xe7+f8")).unwrap();
    assert_eq!(
        position_key(&after),
        "2 1 0 -1 0 1 - 108940400000000000000,0 469.612/0"
    );
}

/// {R12}, D22, D23, E.1-13: g9-g8 meets g7 facing back on red fields; with nine yellow
/// markers every unoccupied non-red field may change (77); with eight, none (2011 rule);
/// the original rule has no threshold (D48).
#[test]
fn meeting() {
    let rules = Rules::new(Game::Pacru);
    let key = "2 0 0 -1 0 0 - 40201000000000000000,70381c0000000 480.628/0";
    let pos = parse_position(key);
    let moves = moves_text(&rules, &pos);
    assert_eq!(moves.len(), 194);
    let meetings = moves.iter().filter(|m| m.starts_with("g9-g8@")).count();
    assert_eq!(meetings, 77);
    let after = apply(&rules, &pos, &find(&rules, &pos, "g9-g8@e5")).unwrap();
    assert_eq!(
        position_key(&after),
        "2 1 0 -1 0 1 - 40201000010000000000,70281c0000000 480.556/0"
    );
    let plain = Move::Step(StepMove::new(field(62), field(71)));
    assert!(
        apply(&rules, &pos, &plain).is_err(),
        "D23: the meeting is compulsory"
    );
    // Eight yellow markers: no meeting in 2011, 77 fields with the original rule.
    let eight = parse_position("2 0 0 -1 0 0 - 40201000000000000000,30381c0000000 480.628/0");
    let count = |rules: &Rules| {
        moves_text(rules, &eight)
            .iter()
            .filter(|m| m.starts_with("g9-g8"))
            .count()
    };
    assert_eq!(count(&rules), 1);
    let original = Rules::with_options(Game::Pacru, MeetingRule::Original, None, 81).unwrap();
    assert_eq!(count(&original), 77);
}

/// {R14}, D25, D26, E.1-15: each chevron turns 45 degrees for 2 of the 3 own unoccupied
/// fields, in lexicographic order; the fields given up become neutral.
#[test]
fn reorientation() {
    let rules = Rules::new(Game::Pacru);
    let pos = parse_position("2 0 0 -1 0 0 - 200804000000000,0 5.320/644");
    assert_eq!(
        moves_text(&rules, &pos),
        [
            "e5-d6",
            "e5-e6",
            "e5-f6",
            "a1<(c5,c6)",
            "a1<(c5,d7)",
            "a1<(c6,d7)",
            "a1>(c5,c6)",
            "a1>(c5,d7)",
            "a1>(c6,d7)",
            "e5<(c5,c6)",
            "e5<(c5,d7)",
            "e5<(c6,d7)",
            "e5>(c5,c6)",
            "e5>(c5,d7)",
            "e5>(c6,d7)"
        ]
    );
    let after = apply(&rules, &pos, &find(&rules, &pos, "a1<(c5,c6)")).unwrap();
    assert_eq!(
        position_key(&after),
        "2 1 0 -1 0 1 - 200000000000000,0 4.320/644"
    );
}

/// {R14}: 4 chevrons x (2 C(n, 2) + 2 C(n, 4)) reorientations with n unoccupied own
/// fields, counted without listing them, and get/index_of agree on every one.
#[test]
fn reorientation_count_and_unranking() {
    let rules = Rules::new(Game::Pacru);
    let start = Position::start(2).unwrap();
    let steps = legal_moves(&rules, &start).len();
    for n in [0u64, 1, 2, 3, 4, 5, 6, 9, 30] {
        let mut pos = start.clone();
        // n own fields, none occupied, away from the chevrons.
        let free: Vec<u8> = (27..81).filter(|f| pos.occupied() >> f & 1 == 0).collect();
        for &f in free.iter().take(n as usize) {
            pos.markers[0] |= 1 << f;
        }
        let moves = legal_moves(&rules, &pos);
        let c = |k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
        let (c2, c4) = if n >= 2 {
            (c(2), if n >= 4 { c(4) } else { 0 })
        } else {
            (0, 0)
        };
        let reorientations = 4 * (2 * c2 + 2 * c4);
        assert_eq!(
            moves.len() - moves.step_count() as u64 - extra(&moves),
            reorientations
        );
        let total = moves.len();
        for i in (0..total).step_by((total / 997).max(1) as usize) {
            let m = moves.get(i).unwrap();
            assert_eq!(moves.index_of(&m), Some(i), "{m}");
        }
        assert_eq!(moves.get(total), None);
        let _ = steps;
    }
}

/// Moves of the step families beyond one per step (crossing fields, meetings).
fn extra(moves: &pacru_engine::MoveList) -> u64 {
    let mut n = 0;
    let mut last = None;
    for m in moves.iter().filter(|m| m.target().is_some()) {
        if last == Some((m.origin(), m.target(), m.capture())) {
            n += 1;
        }
        last = Some((m.origin(), m.target(), m.capture()));
    }
    n
}

/// {A-R7}, D5, D12, E.1-4: a connection over an opponent's field changes it, removes the
/// chevron, and has no twist variants.
#[test]
fn azacru_connection_removal() {
    let rules = Rules::new(Game::Azacru);
    let pos = parse_position("2 0 0 -1 0 0 - 4000001c0000000,2000000000000 248/578");
    assert_eq!(
        moves_text(&rules, &pos).join(" "),
        "e4-d5 e4-c6 e4-c6< e4-c6> e4-b7 e4-b7< e4-b7> e4-e5 e4-e7 e4-f5 e4-g6 e4-g6< \
         e4-g6> e4-h7 e4-h7< e4-h7>"
    );
    let after = apply(&rules, &pos, &find(&rules, &pos, "e4-e7")).unwrap();
    assert_eq!(
        position_key(&after),
        "2 1 0 -1 0 1 - 4020101c0000000,0 /578"
    );
}

/// {S-R6b}, D33: a statically stuck chevron is a wall, so nobody can acquire a field; the
/// twist at a crossing keeps a Shacru game going where Lilacru ends.
#[test]
fn d33_end() {
    let wall = parse_position("2 0 0 -1 0 0 - e00000000000100,5000000020000 58.320/392");
    let shacru = Rules::new(Game::Shacru);
    assert!(!can_acquire(&shacru, &wall));
    assert_eq!(
        lookahead_outcome(&shacru, &wall),
        Some(Outcome {
            termination: Termination::NoAcquisition,
            winners: 1
        })
    );
    let twist = parse_position("2 0 0 -1 0 0 - 8,2010 19/640");
    let lilacru = Rules::new(Game::Lilacru);
    assert_eq!(
        lookahead_outcome(&lilacru, &twist),
        Some(Outcome {
            termination: Termination::NoAcquisition,
            winners: 2
        })
    );
    assert_eq!(lookahead_outcome(&shacru, &twist), None);
    assert_eq!(moves_text(&shacru, &twist), ["c1-d1", "c1-d1<", "c1-d1>"]);
}

/// D33: the idle-rounds valve ends a Lilacru game after that many full rounds without an
/// acquisition; S-R2: a player who cannot move passes.
#[test]
fn idle_rounds_and_pass() {
    let rules = Rules::with_options(Game::Lilacru, MeetingRule::Y2011, None, 1).unwrap();
    let mut pos = Position::start(2).unwrap();
    pos.idle = 1;
    pos.markers[0] = 1 << 12; // d2, where e1 may go
    let after = apply(&rules, &pos, &find(&rules, &pos, "e1-d2")).unwrap();
    assert_eq!(
        after.outcome,
        Some(Outcome {
            termination: Termination::IdleLimit,
            winners: 1
        })
    );
    // A lone chevron facing the edge can only pass (S-R2, D50).
    let stuck =
        Position::new(2, &[0, 0], &[&[4 * 8 + 4], &[80 * 8]], 0, 0, -1, 0, 0, None).unwrap();
    let moves = legal_moves(&rules, &stuck);
    assert!(moves.is_pass());
    assert_eq!(moves.get(0), Some(Move::Pass));
    assert_eq!(moves.index_of(&Move::Pass), Some(0));
}

/// Each step family's range holds exactly the moves of one chevron step, one family after
/// the other: the pincer g9xe7 has five (a marker on each neutral field of e8's borderland,
/// {R4, R11, D17}); a Shacru step has one move per twist {S-R4}; no range past the steps.
#[test]
fn step_ranges() {
    let pacru = Rules::new(Game::Pacru);
    let pincer = parse_position("2 0 0 -1 0 0 - 108840000000000000000,0 612.628/0.464");
    let shacru = Rules::new(Game::Shacru);
    let start = Position::start(2).unwrap();
    for (rules, pos) in [(&pacru, &pincer), (&shacru, &start)] {
        let moves = legal_moves(rules, pos);
        let mut next = 0;
        for i in 0..moves.step_count() {
            let (first, size) = moves.step_range(i).unwrap();
            assert_eq!(first, next);
            assert!(size >= 1);
            let step = moves.get(first).unwrap();
            for j in first..first + size {
                let m = moves.get(j).unwrap();
                assert_eq!(
                    (m.origin(), m.target(), m.capture()),
                    (step.origin(), step.target(), step.capture())
                );
            }
            next = first + size;
            if let Some(m) = moves.get(next) {
                assert_ne!((m.origin(), m.target()), (step.origin(), step.target()));
            }
        }
        assert_eq!(moves.step_range(moves.step_count()), None);
        if rules.game == Game::Shacru {
            assert_eq!(next, moves.len());
        }
    }
    let moves = legal_moves(&pacru, &pincer);
    let g9xe7 = (0..moves.step_count())
        .map(|i| moves.step_range(i).unwrap())
        .find(|&(first, _)| moves.get(first).unwrap().to_string().starts_with("g9xe7"));
    let (first, size) = g9xe7.unwrap();
    assert_eq!(size, 5);
    assert_eq!(moves.get(first + 4).unwrap().to_string(), "g9xe7+f9");
    let sizes: Vec<u64> = (0..legal_moves(&shacru, &start).step_count())
        .map(|i| legal_moves(&shacru, &start).step_range(i).unwrap().1)
        .collect();
    assert_eq!(sizes.iter().sum::<u64>(), 16);
    assert!(sizes.contains(&3));
}

/// A position with more steps than a move list keeps inline (75: 27 chevrons facing N on
/// ranks 1, 4 and 7, each onto its forward neighbours {L4}): the list is complete, in
/// order (ascending field, then left, straight, right), and ranks each of its moves.
#[test]
fn many_steps() {
    let rules = Rules::new(Game::Lilacru);
    let codes: Vec<u16> = [0u16, 27, 54]
        .iter()
        .flat_map(|&rank| (rank..rank + 9).map(|f| f * 8))
        .collect();
    let pos = Position::new(2, &[0, 0], &[&codes, &[80 * 8 + 4]], 0, 0, -1, 0, 0, None).unwrap();
    let moves = legal_moves(&rules, &pos);
    assert_eq!(moves.len(), 75);
    assert_eq!(moves.step_count(), 75);
    let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(texts[..5], ["a1-a2", "a1-b2", "b1-a2", "b1-b2", "b1-c2"]);
    assert_eq!(texts[73..], ["i7-h8", "i7-i8"]);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(moves.get(i as u64), Some(m));
        assert_eq!(moves.index_of(&m), Some(i as u64));
        assert_eq!(moves.step_range(i), Some((i as u64, 1)));
    }
}

/// Bad input is an error of its kind, with the offending values, never a panic.
#[test]
fn errors() {
    let new = |players, markers: &[u128], chevrons: &[&[u16]], to_move, trigger| {
        Position::new(players, markers, chevrons, to_move, 0, trigger, 0, 0, None).map(|_| ())
    };
    let invalid = |e: PositionError| Err(EngineError::InvalidPosition(e));
    assert_eq!(
        new(5, &[], &[], 0, -1),
        invalid(PositionError::PlayerCount(5))
    );
    let lists = PositionError::SeatLists {
        players: 3,
        markers: 2,
        chevrons: 3,
    };
    assert_eq!(new(3, &[0, 0], &[&[], &[], &[]], 0, -1), invalid(lists));
    let twice = invalid(PositionError::MarkersOfTwoColours(field(0)));
    assert_eq!(new(2, &[1, 1], &[&[], &[]], 0, -1), twice);
    assert_eq!(
        new(2, &[0, 0], &[&[8], &[9]], 0, -1),
        invalid(PositionError::TwoChevrons(field(1)))
    );
    assert_eq!(
        new(2, &[0, 0], &[&[8, 9], &[]], 0, -1),
        invalid(PositionError::TwoChevrons(field(1)))
    );
    assert_eq!(
        new(2, &[0, 0], &[&[648], &[]], 0, -1),
        invalid(PositionError::ChevronCode(648))
    );
    assert_eq!(
        new(2, &[1 << 81, 0], &[&[], &[]], 0, -1),
        invalid(PositionError::MarkerOffBoard)
    );
    let seat = PositionError::ToMove {
        to_move: 2,
        players: 2,
    };
    assert_eq!(new(2, &[0, 0], &[&[], &[]], 2, -1), invalid(seat));
    assert_eq!(
        new(2, &[0, 0], &[&[], &[]], 0, 2),
        invalid(PositionError::Trigger(2))
    );
    assert_eq!(
        Rules::with_options(Game::Shacru, MeetingRule::Y2011, Some(5), 81),
        Err(EngineError::InvalidOption(OptionError::MoveCapGame(
            Game::Shacru
        )))
    );
    assert_eq!(Game::parse("chess"), Err(EngineError::UnknownGame));
    let rules = Rules::new(Game::Pacru);
    let pos = Position::start(2).unwrap();
    let refused = Err(EngineError::IllegalMove(Move::Pass, Refusal::NotLegal));
    assert_eq!(apply(&rules, &pos, &Move::Pass), refused);
    // A field off the board cannot be written (`Field` holds 0..=80); fields on no line
    // make no move.
    let bogus = Move::Step(StepMove::new(field(80), field(3)));
    assert!(apply(&rules, &pos, &bogus).is_err());
}

/// Each kind of error has the message of the Python engine (`pacru.chevron.pystate`,
/// `pacru.chevron.rules`, `pacru.chevron.resolve`), which the binding raises.
#[test]
fn error_messages() {
    let step = Move::Step(StepMove::new(field(4), field(13)));
    let cases: [(EngineError, &str); 24] = [
        (
            EngineError::UnknownGame,
            "unknown chevron game; valid: lilacru, shacru, azacru, pacru",
        ),
        (
            OptionError::MeetingRuleNotPacru(Game::Azacru).into(),
            "meeting_rule applies to Pacru only",
        ),
        (
            OptionError::MoveCapGame(Game::Lilacru).into(),
            "move_cap applies to Pacru and Azacru only (ruling D32)",
        ),
        (
            OptionError::MoveCapZero.into(),
            "move_cap must be a positive number of plies",
        ),
        (
            OptionError::IdleRoundsZero.into(),
            "idle_rounds must be a positive whole number",
        ),
        (
            OptionError::IdleRoundsGame(Game::Pacru).into(),
            "idle_rounds applies to Lilacru and Shacru only (ruling D33)",
        ),
        (
            PositionError::PlayerCount(5).into(),
            "a chevron game is played by 2, 3 or 4 players, not 5",
        ),
        (
            PositionError::SeatLists {
                players: 3,
                markers: 2,
                chevrons: 3,
            }
            .into(),
            "markers and chevrons must list 3 seats, not 2 and 3",
        ),
        (
            PositionError::MarkerOffBoard.into(),
            "a marker bitboard has bits above field 80",
        ),
        (
            PositionError::MarkersOfTwoColours(field(10)).into(),
            "b2 holds markers of two colours",
        ),
        (
            PositionError::ChevronCode(700).into(),
            "chevron code must be field * 8 + facing below 648, not 700",
        ),
        (
            PositionError::TwoChevrons(field(80)).into(),
            "two chevrons on i9",
        ),
        (
            PositionError::ToMove {
                to_move: 4,
                players: 3,
            }
            .into(),
            "to_move must be a seat 0..2, not 4",
        ),
        (
            PositionError::OutBeyondPlayers.into(),
            "out names a seat beyond the players",
        ),
        (
            PositionError::Trigger(-2).into(),
            "trigger must be -1 or a seat, not -2",
        ),
        (
            PositionError::WinnersBeyondPlayers.into(),
            "the winners name a seat beyond the players",
        ),
        (
            PositionError::Shape.into(),
            "a position needs 2..=4 players and a seat to move among them",
        ),
        (
            PositionError::OutOfRange.into(),
            "a count or seat of this position is out of range \
             (counters: 0..18446744073709551615)",
        ),
        (
            PositionError::PlayersDiffer.into(),
            "the players and the markers differ in number",
        ),
        (
            EngineError::IllegalMove(step, Refusal::NotLegal),
            "e1-e2 is not a legal move here",
        ),
        (
            EngineError::IllegalMove(step, Refusal::Unresolvable),
            "e1-e2 is not a move of this position",
        ),
        (
            EngineError::IllegalMove(Move::Pass, Refusal::NotListed),
            "pass is not legal here",
        ),
        (
            EngineError::GameOver(step),
            "the game is over; e1-e2 was not played",
        ),
        (
            EngineError::CounterLimit(Counter::Idle),
            "idle cannot count past 18446744073709551615",
        ),
    ];
    for (error, message) in cases {
        assert_eq!(error.to_string(), message, "{error:?}");
    }
}
