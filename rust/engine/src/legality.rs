//! Why a move is not legal: [`check`] walks the rules in the order a player would and
//! names the first one the move breaks, an [`Illegal`] (a port of
//! `pacru.chevron.legality.diagnose`, case by case and in its order, so that both engines
//! give the same rule, reason code and message).

use crate::geometry::{forward, line, BETWEEN, BORDERLAND};
use crate::illegal::Illegal;
use crate::movegen::{benefit_fields, crossing_options, power_of_movement, SUPPLY};
use crate::movelist::{MoveList, StepChoice};
use crate::moves::{Move, StepMove};
use crate::types::{MeetingRule, Position, Rules};
use crate::units::{Facing, Field, Seat};

/// Whether `m` is legal in the position of `list` (its legal moves): `Ok` when it is one
/// of them, else the first rule it breaks, [`Illegal::GameOver`] once the game is over.
///
/// # Errors
/// The [`Illegal`] that names the rule, as said.
pub fn check(list: &MoveList, m: &Move) -> Result<(), Illegal> {
    let pos = list.position();
    if let Some(outcome) = pos.outcome {
        return Err(Illegal::GameOver {
            winners: outcome.winners,
        });
    }
    if list.index_of(m).is_some() {
        return Ok(());
    }
    Err(diagnose(list, m))
}

/// What a refused move's diagnosis reads of the position.
struct Ctx<'a> {
    list: &'a MoveList,
    rules: Rules,
    pos: &'a Position,
    seat: Seat,
    own: u128,
    occupied: u128,
}

/// The first rule `m`, not among the moves of `list`, breaks {L3, S-R2, A-R10, R2, L4,
/// S-R3, A-R5, R3}: a pass, then the chevron on the origin, then the reorientation or the
/// step.
fn diagnose(list: &MoveList, m: &Move) -> Illegal {
    let rules = list.rules();
    let pos = list.position();
    let game = rules.game;
    let Some(seat) = Seat::new(pos.to_move) else {
        // No position has such a seat (Position::new checks it).
        return Illegal::NotLegal { game, refused: *m };
    };
    let Some(origin) = m.origin() else {
        if rules.pacru() {
            return Illegal::PacruPass;
        }
        return Illegal::PassNotAllowed { game, seat };
    };
    if list.is_pass() {
        return Illegal::MustPass { game, seat };
    }
    let Some((owner, facing)) = chevron_at(pos, origin) else {
        return Illegal::NoChevron { game, origin };
    };
    if owner != seat {
        return Illegal::NotYourChevron {
            game,
            origin,
            owner,
            seat,
        };
    }
    let ctx = Ctx {
        list,
        rules,
        pos,
        seat,
        own: pos.markers[seat.index()],
        occupied: pos.occupied(),
    };
    match *m {
        Move::Step(s) => ctx.step(m, &s, facing, false),
        Move::Pincer(s) => ctx.step(m, &s, facing, true),
        Move::Reorientation {
            turn, relinquished, ..
        } => ctx.reorientation(turn, relinquished),
        Move::Pass => Illegal::NotLegal { game, refused: *m },
    }
}

/// The owner and facing of the chevron on `field`.
fn chevron_at(pos: &Position, field: Field) -> Option<(Seat, Facing)> {
    let n = usize::from(pos.players).min(Seat::COUNT);
    pos.chevrons[..n]
        .iter()
        .zip(0u8..)
        .find_map(|(list, seat)| {
            let facing = list.facing_of(field)?;
            Some((Seat::new(seat)?, facing))
        })
}

/// The seat whose marker is on `field`.
fn marker_at(pos: &Position, field: Field) -> Option<Seat> {
    let n = usize::from(pos.players).min(Seat::COUNT);
    let seat = pos.markers[..n].iter().position(|m| m & field.bit() != 0)?;
    Seat::new(u8::try_from(seat).ok()?)
}

impl Ctx<'_> {
    /// A Pacru reorientation's refusal {R14, D25, D26}: the game, a chevron that can move,
    /// enough own unoccupied fields, exactly the cost, each given up field own and empty.
    fn reorientation(&self, turn: i8, relinquished: u128) -> Illegal {
        if !self.rules.pacru() {
            return Illegal::NoReorientation {
                game: self.rules.game,
            };
        }
        let cost = 2 * u32::from(turn.unsigned_abs());
        if self.list.step_count() == 0 {
            return Illegal::NoMovableChevron { seat: self.seat };
        }
        let free = (self.own & !self.occupied).count_ones();
        if free < cost {
            return Illegal::TooFewFields {
                seat: self.seat,
                free,
                turn,
            };
        }
        let given = relinquished.count_ones();
        if given != cost {
            return Illegal::WrongPayment { turn, given };
        }
        for field in Field::all_of(relinquished) {
            if self.own & field.bit() == 0 {
                return Illegal::RelinquishNotOwn { field };
            }
            if self.occupied & field.bit() != 0 {
                return Illegal::RelinquishOccupied { field };
            }
        }
        Illegal::Reorientation
    }

    /// A step's or pincer's refusal: a straight line {L4, S-R3, A-R5, R3}, forwards
    /// {G4, A-R3}, within the power of movement {A-R4, R5, D39}, then the pincer, the
    /// target's chevron or colour and the jump {L6, S-R5, A-R9, R7, A-R8, R9}, then the
    /// choices.
    fn step(&self, m: &Move, s: &StepMove, facing: Facing, capture: bool) -> Illegal {
        let game = self.rules.game;
        let (origin, target) = (s.origin, s.target);
        let Some((d, k)) = line(origin.get(), target.get()) else {
            return Illegal::NotStraight {
                game,
                origin,
                target,
            };
        };
        if !forward(facing.get()).contains(&d) {
            return Illegal::NotForward {
                game,
                origin,
                facing,
                direction: Facing::ALL[usize::from(d & 7)],
                distance: k,
            };
        }
        let power = power_of_movement(&self.rules, self.own, origin.get());
        if u32::from(k) > power {
            if !self.rules.power() {
                return Illegal::BeyondOne {
                    game,
                    origin,
                    target,
                    distance: k,
                };
            }
            return Illegal::BeyondPower {
                game,
                origin,
                power,
                land: BORDERLAND[origin.index()],
                distance: k,
            };
        }
        let between = BETWEEN[origin.index()][target.index()] & self.occupied;
        let occupant = chevron_at(self.pos, target).map(|(owner, _)| owner);
        if capture {
            if self.family(s, true).is_some() {
                // A legal pincer with bad choices: explain the choices {R13, D20}.
                return self.choices(m, s, true);
            }
            return self.pincer(s, occupant, between);
        }
        if let Some(owner) = occupant {
            return Illegal::Occupied {
                game,
                origin,
                target,
                owner,
                pincer_hint: self.rules.pacru() && owner != self.seat,
            };
        }
        let connection_jump =
            self.rules.power() && self.own & origin.bit() != 0 && self.own & target.bit() != 0;
        if between != 0 && !connection_jump {
            return Illegal::JumpNotConnection { game, between };
        }
        if let Some(owner) = marker_at(self.pos, target) {
            if owner != self.seat {
                return Illegal::OpponentField {
                    game,
                    target,
                    owner,
                };
            }
        }
        self.choices(m, s, false)
    }

    /// A pincer that is none {R11, D18, D19}: Pacru only, an opposing chevron on the
    /// target, no chevron between, two attackers.
    fn pincer(&self, s: &StepMove, occupant: Option<Seat>, between: u128) -> Illegal {
        if !self.rules.pacru() {
            return Illegal::NoPincer {
                game: self.rules.game,
            };
        }
        if occupant.is_none_or(|owner| owner == self.seat) {
            return Illegal::NoVictim { target: s.target };
        }
        if between != 0 {
            return Illegal::AttackThroughJump { between };
        }
        Illegal::SingleAttacker { target: s.target }
    }

    /// The index of the list's step family of `s` (same fields, pincer or not), if any.
    fn family(&self, s: &StepMove, capture: bool) -> Option<usize> {
        let wanted = (s.origin.get(), s.target.get(), capture);
        self.list
            .steps_from(s.origin.get())
            .find(|&i| self.list.step_fields(i) == Some(wanted))
    }

    /// A legal step with choices it does not offer: the twist {S-R4, A-R6, D3, D5}, the
    /// Pacru choices {R4, R6, R8, R10, R12, D9-D16, D21-D23, D29}.
    fn choices(&self, m: &Move, s: &StepMove, capture: bool) -> Illegal {
        let (rules, game) = (self.rules, self.rules.game);
        let not_legal = Illegal::NotLegal { game, refused: *m };
        let Some(i) = self.family(s, capture) else {
            return not_legal;
        };
        let crossing = BORDERLAND[s.origin.index()] != BORDERLAND[s.target.index()];
        if s.twist != 0 {
            if !rules.twist() {
                return Illegal::NoTwist { game };
            }
            if !crossing {
                return Illegal::TwistWithoutCrossing { game };
            }
            if self.pos.trigger >= 0 {
                return Illegal::TwistAfterTrigger;
            }
            return Illegal::TwistRemoved;
        }
        let chose = s.connection || s.marker.is_some() || s.meeting.is_some();
        if !rules.pacru() {
            return if chose {
                Illegal::PacruOnly { game }
            } else {
                not_legal
            };
        }
        // D29 first: once the supply is empty the move ends, so no other rule is the reason.
        let (left, own_a) = self.supply_after_capture(s, capture);
        if capture && left <= 0 && chose {
            return Illegal::PincerExhausts;
        }
        let options = self.list.step_choices(i);
        let connection_ok = options.iter().any(|o| o.connection);
        let fields = options
            .iter()
            .filter_map(|o| o.marker)
            .fold(0u128, |a, f| a | f.bit());
        if s.connection && s.marker.is_some() {
            return Illegal::ConnectionAndCrossing;
        }
        if s.connection && !connection_ok {
            return Illegal::NotConnection;
        }
        if let Some(marker) = s.marker {
            if fields == 0 {
                return Illegal::MarkerWithoutCrossing { crossing };
            }
            if fields & marker.bit() == 0 {
                return Illegal::BadMarkerField {
                    transformation: self.is_transformation(s, own_a),
                    fields,
                    marker,
                };
            }
        }
        if !s.connection && s.marker.is_none() && (connection_ok || fields != 0) {
            if connection_ok && fields == 0 {
                return Illegal::ConnectionRequired;
            }
            return Illegal::MarkerRequired {
                connection: connection_ok,
                fields,
            };
        }
        let Some(chosen) = options
            .iter()
            .find(|o| o.connection == s.connection && o.marker == s.marker)
        else {
            return not_legal;
        };
        self.meeting(s, chosen, left, own_a).unwrap_or(not_legal)
    }

    /// The meeting of a chosen benefit {R12, D21-D23, D29}, or None when it is not why.
    fn meeting(
        &self,
        s: &StepMove,
        chosen: &StepChoice,
        left: i32,
        own_a: u128,
    ) -> Option<Illegal> {
        let meets = chosen.meetings != 0;
        match s.meeting {
            Some(_) if !meets => {
                let marker = s.marker.map_or(-1, |f| i8::try_from(f.get()).unwrap_or(-1));
                let changed =
                    benefit_fields(own_a, s.origin.get(), s.target.get(), s.connection, marker);
                if left - changed.count_ones() as i32 <= 0 {
                    return Some(Illegal::BenefitExhausts {
                        connection: s.connection,
                    });
                }
                Some(Illegal::NoMeeting {
                    y2011: self.rules.meeting_rule == MeetingRule::Y2011,
                })
            }
            Some(field) => Some(Illegal::BadMeetingField { field }),
            None if meets => Some(Illegal::MeetingRequired),
            None => None,
        }
    }

    /// The markers left in the mover's supply after a pincer's marker, and the mover's
    /// fields then {R11, D29}.
    fn supply_after_capture(&self, s: &StepMove, capture: bool) -> (i32, u128) {
        let own_a = if capture {
            self.own | s.target.bit()
        } else {
            self.own
        };
        let n = usize::from(self.pos.players).min(4);
        (SUPPLY[n] - own_a.count_ones() as i32, own_a)
    }

    /// Whether the crossing benefit is a transformation {R10}, judged after a capture (D17).
    fn is_transformation(&self, s: &StepMove, own_a: u128) -> bool {
        let n = usize::from(self.pos.players).min(4);
        let marked = self.pos.markers[..n].iter().fold(own_a, |a, m| a | m);
        // After a pincer the victim's field is the mover's: marked all the same.
        let occupied = (self.occupied & !s.origin.bit()) | s.target.bit();
        let land = usize::from(BORDERLAND[s.target.index()]);
        crossing_options(land, marked, own_a, occupied, s.target.get()).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movelist::legal_moves;
    use crate::types::{Game, Outcome, Termination};

    const NAMES: [&str; 2] = ["green", "yellow"];

    /// The refusal of `text` in `pos` under `game`: (rule, reason, message).
    fn refusal(game: Game, pos: &Position, text: &str) -> (&'static str, &'static str, String) {
        let list = legal_moves(&Rules::new(game), pos);
        let m = Move::from_text(text).expect("a move of the grammar");
        let illegal = check(&list, &m).expect_err("an illegal move");
        (
            illegal.rule(),
            illegal.reason(),
            illegal.named(&NAMES).to_string(),
        )
    }

    fn start() -> Position {
        Position::start(2).expect("two players")
    }

    /// Green's chevron on e4 facing N, yellow's on e5 facing S; no markers.
    fn facing_pair() -> Position {
        Position::new(
            2,
            &[0, 0],
            &[&[31 * 8], &[40 * 8 + 4]],
            0,
            0,
            -1,
            0,
            0,
            None,
        )
        .expect("a position")
    }

    /// `expected` is `rule|reason|message`.
    fn owned(expected: &str) -> (&str, &str, String) {
        let mut parts = expected.splitn(3, '|');
        let mut next = || parts.next().unwrap_or_default();
        (next(), next(), next().to_owned())
    }

    /// {S-R2, S-R3, D34, D37}: the Python engine's words (pacru.chevron.legality).
    #[test]
    fn passes_and_chevrons_of_another_player() {
        assert_eq!(
            refusal(Game::Shacru, &start(), "a1-i9"),
            owned(
                "S-R3|not-your-chevron|the chevron on a1 belongs to yellow, and green is to move"
            )
        );
        assert_eq!(
            refusal(Game::Shacru, &start(), "pass"),
            owned(
                "S-R2|pass-not-allowed|green may pass only when none of their chevrons can \
                 move (D34, D37)"
            )
        );
        assert_eq!(
            refusal(Game::Pacru, &start(), "pass"),
            owned("R2|pass-not-allowed|Pacru has no passing; move or reorient")
        );
    }

    /// {G4, R3, R14, D25}.
    #[test]
    fn directions_and_reorientations() {
        assert_eq!(
            refusal(Game::Pacru, &start(), "e1-f1"),
            owned("R3|not-forward|the chevron on e1 faces N and moves only NW, N, NE, not E")
        );
        assert_eq!(
            refusal(Game::Pacru, &start(), "e1>(a1,b1)"),
            owned(
                "D25|too-few-fields|green has 0 unoccupied fields of their own, and a \
                 45-degree turn gives up 2 (R14)"
            )
        );
    }

    /// {R5, A-R4, R7, R11, D18, D19, D39}.
    #[test]
    fn power_pincers_and_occupied_fields() {
        let pos = facing_pair();
        assert_eq!(
            refusal(Game::Pacru, &pos, "e4xe5"),
            owned(
                "R11|single-attacker|a pincer needs two or more of your chevrons attacking e5 \
                 at the start of your turn (R11, D18, D19)"
            )
        );
        assert_eq!(
            refusal(Game::Pacru, &pos, "e4-e5"),
            owned(
                "R7|occupied|e5 holds yellow's chevron; take it with a pincer (e4xe5) if two \
                 of your chevrons attack it"
            )
        );
        assert_eq!(
            refusal(Game::Azacru, &pos, "e4-e5").0,
            "A-R9",
            "no pincer hint outside Pacru"
        );
        assert_eq!(
            refusal(Game::Azacru, &pos, "e4-e6"),
            owned(
                "A-R4|beyond-power|the power of movement on e4 is 1 (own fields in the e5 \
                 borderland), so it cannot move 2 fields (D39)"
            )
        );
        assert_eq!(refusal(Game::Shacru, &pos, "e4xe5").1, "no-pincer");
    }

    /// {R11, R16b, D29}: red holds 41 of 42 markers; the pincer e6xe7 (d6 attacks e7 too)
    /// places the last, so no choice follows it (tests/chevron/test_d29_diagnosis.py).
    #[test]
    fn a_choice_after_the_last_marker_cites_d29() {
        let red = ((1u128 << 36) - 1) | [36, 37, 38, 42, 43].iter().fold(0, |a, f| a | 1 << f);
        let pos = Position::new(
            2,
            &[red, 0],
            &[&[49 * 8, 48 * 8 + 1], &[58 * 8 + 4, 72 * 8 + 2]],
            0,
            0,
            -1,
            0,
            0,
            None,
        )
        .expect("a position");
        let list = legal_moves(&Rules::new(Game::Pacru), &pos);
        assert_eq!(
            check(&list, &Move::from_text("e6xe7").expect("a move")),
            Ok(())
        );
        for text in ["e6xe7+e8", "e6xe7*", "e6xe7@a9"] {
            assert_eq!(
                refusal(Game::Pacru, &pos, text),
                owned(
                    "D29|supply-exhausted|the pincer places the last marker of the supply, \
                     which wins at once (R16b): no '*', '+field' or '@field' follows (D29)"
                )
            );
        }
    }

    /// A finished game refuses every move, legal or not, with its result (`end`).
    #[test]
    fn a_finished_game_names_its_result() {
        let mut pos = start();
        let list = legal_moves(&Rules::new(Game::Pacru), &pos);
        let legal = list.get(0).expect("a move");
        assert_eq!(check(&list, &legal), Ok(()));
        for (winners, result) in [
            (0b01, "green wins"),
            (0b11, "green, yellow share the win"),
            (0, "draw"),
        ] {
            pos.outcome = Some(Outcome {
                termination: Termination::NoMoves,
                winners,
            });
            let list = legal_moves(&Rules::new(Game::Pacru), &pos);
            let illegal = check(&list, &legal).expect_err("over");
            assert!(illegal.is_game_over());
            assert_eq!((illegal.rule(), illegal.reason()), ("end", "game-over"));
            assert_eq!(
                illegal.named(&NAMES).to_string(),
                format!("the game is over ({result})")
            );
        }
        // Without names the seats are numbered.
        assert_eq!(
            Illegal::GameOver { winners: 0b10 }.to_string(),
            "the game is over (seat 1 wins)"
        );
    }
}
