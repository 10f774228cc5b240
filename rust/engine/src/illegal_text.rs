//! The words of an [`Illegal`]: its message as the Python engine writes it
//! (`pacru.chevron.legality`), with the players' colour names ([`Illegal::named`]) or,
//! without them, seats written `seat N` (`Display`).

use crate::geometry::forward;
use crate::illegal::Illegal;
use crate::types::Game;
use crate::units::{Facing, Field, Seat};
use std::fmt;

/// The borderland names by index (`pacru.geometry.BORDERLAND_NAMES`).
const LAND_NAMES: [&str; 9] = ["b2", "e2", "h2", "b5", "e5", "h5", "b8", "e8", "h8"];

/// An [`Illegal`] with the players' names, whose `Display` is the message
/// ([`Illegal::named`]).
#[derive(Clone, Copy, Debug)]
pub struct Named<'a> {
    illegal: &'a Illegal,
    players: &'a [&'a str],
}

impl<'a> Named<'a> {
    /// `illegal` with `players`, the colour names in seat order.
    pub(crate) fn new(illegal: &'a Illegal, players: &'a [&'a str]) -> Named<'a> {
        Named { illegal, players }
    }
}

/// The message, seats written `seat N` (the engine has no colour names; see
/// [`Illegal::named`]).
impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.named(&[]).fmt(f)
    }
}

/// A seat's name: its colour, or `seat N` beyond the names given.
struct Player<'a>(&'a [&'a str], Seat);

impl fmt::Display for Player<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.get(self.1.index()) {
            Some(name) => f.write_str(name),
            None => write!(f, "seat {}", self.1),
        }
    }
}

/// The names of a bitboard's fields, ascending, comma separated; `none` for none.
struct Names(u128);

impl fmt::Display for Names {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("none");
        }
        for (i, field) in Field::all_of(self.0).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{field}")?;
        }
        Ok(())
    }
}

/// The winners as `Outcome.result()` words them: `draw`, `red wins`, `red, green share
/// the win`.
struct Winners<'a>(&'a [&'a str], u8);

impl fmt::Display for Winners<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seats: Vec<Seat> = (0..4u8)
            .filter(|i| self.1 >> i & 1 == 1)
            .filter_map(Seat::new)
            .collect();
        match seats.as_slice() {
            [] => f.write_str("draw"),
            [one] => write!(f, "{} wins", Player(self.0, *one)),
            many => {
                for (i, seat) in many.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", Player(self.0, *seat))?;
                }
                f.write_str(" share the win")
            }
        }
    }
}

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = |seat| Player(self.players, seat);
        match *self.illegal {
            Illegal::GameOver { winners } => {
                write!(f, "the game is over ({})", Winners(self.players, winners))
            }
            Illegal::PacruPass => f.write_str("Pacru has no passing; move or reorient"),
            Illegal::PassNotAllowed { seat, .. } => write!(
                f,
                "{} may pass only when none of their chevrons can move (D34, D37)",
                who(seat)
            ),
            Illegal::MustPass { seat, .. } => {
                write!(f, "no chevron of {0} can move; {0} must pass", who(seat))
            }
            Illegal::NoChevron { origin, .. } => write!(f, "there is no chevron on {origin}"),
            Illegal::NotYourChevron {
                origin,
                owner,
                seat,
                ..
            } => write!(
                f,
                "the chevron on {origin} belongs to {}, and {} is to move",
                who(owner),
                who(seat)
            ),
            Illegal::NoReorientation { game } => write!(
                f,
                "{} has no reorientation; only Pacru does (R14)",
                game.name()
            ),
            Illegal::NoMovableChevron { seat } => write!(
                f,
                "{} may reorient only if one of their chevrons can move this turn, and none \
                 can (D26)",
                who(seat)
            ),
            Illegal::TooFewFields { seat, free, turn } => write!(
                f,
                "{} has {free} unoccupied field{} of their own, and a {}-degree turn gives \
                 up {} (R14)",
                who(seat),
                if free == 1 { "" } else { "s" },
                45 * turn.unsigned_abs(),
                2 * turn.unsigned_abs()
            ),
            Illegal::WrongPayment { turn, given } => write!(
                f,
                "a {}-degree turn costs exactly {} of your fields, not {given} (D25)",
                45 * turn.unsigned_abs(),
                2 * turn.unsigned_abs()
            ),
            Illegal::RelinquishNotOwn { field } => write!(f, "{field} is not a field of yours"),
            Illegal::RelinquishOccupied { field } => write!(
                f,
                "{field} has a chevron on it; only unoccupied fields can be given up (R7)"
            ),
            Illegal::Reorientation => f.write_str("this reorientation is not legal here"),
            Illegal::NotStraight { origin, target, .. } => {
                write!(f, "{origin} to {target} is not a straight line")
            }
            Illegal::NotForward {
                origin,
                facing,
                direction,
                ..
            } => {
                let [left, straight, right] =
                    forward(facing.get()).map(|d| Facing::ALL[usize::from(d & 7)].name());
                write!(
                    f,
                    "the chevron on {origin} faces {} and moves only {left}, {straight}, \
                     {right}, not {}",
                    facing.name(),
                    direction.name()
                )
            }
            Illegal::BeyondOne {
                origin,
                target,
                distance,
                ..
            } => write!(
                f,
                "a chevron moves one field; {origin} to {target} is {distance}"
            ),
            Illegal::BeyondPower {
                origin,
                power,
                land,
                distance,
                ..
            } => write!(
                f,
                "the power of movement on {origin} is {power} (own fields in the {} \
                 borderland), so it cannot move {distance} fields (D39)",
                LAND_NAMES[usize::from(land) % 9]
            ),
            Illegal::Occupied {
                origin,
                target,
                owner,
                pincer_hint,
                ..
            } => {
                write!(f, "{target} holds {}'s chevron", who(owner))?;
                if pincer_hint {
                    write!(
                        f,
                        "; take it with a pincer ({origin}x{target}) if two of your \
                         chevrons attack it"
                    )?;
                }
                Ok(())
            }
            Illegal::JumpNotConnection { game, between } => write!(
                f,
                "may not jump over the chevron on {} unless the move is a connection jump \
                 (from and to own fields; {})",
                Names(between),
                if game == Game::Azacru { "A-R8" } else { "R9" }
            ),
            Illegal::OpponentField { target, owner, .. } => {
                write!(f, "{target} belongs to {}", who(owner))
            }
            Illegal::NoPincer { game } => {
                write!(f, "{} has no pincer; only Pacru (R11)", game.name())
            }
            Illegal::NoVictim { target } => {
                write!(f, "{target} holds no opposing chevron to take")
            }
            Illegal::AttackThroughJump { between } => write!(
                f,
                "the chevron on {} stands between; there is no attack through a jump",
                Names(between)
            ),
            Illegal::SingleAttacker { target } => write!(
                f,
                "a pincer needs two or more of your chevrons attacking {target} at the start \
                 of your turn (R11, D18, D19)"
            ),
            Illegal::NotLegal { refused, .. } => write!(f, "{refused} is not a legal move here"),
            Illegal::NoTwist { game } => write!(f, "{} has no borderland twist", game.name()),
            Illegal::TwistWithoutCrossing { .. } => {
                f.write_str("the twist is allowed only after crossing a border (D3)")
            }
            Illegal::TwistAfterTrigger => {
                f.write_str("once the Azacru end is triggered no twist is offered (D5)")
            }
            Illegal::TwistRemoved => f.write_str(
                "the chevron is removed by its own connection change, so there is nothing to \
                 twist (A-R7, D5)",
            ),
            Illegal::PacruOnly { .. } => {
                f.write_str("'*', '+field' and '@field' are Pacru choices")
            }
            Illegal::PincerExhausts => f.write_str(
                "the pincer places the last marker of the supply, which wins at once (R16b): \
                 no '*', '+field' or '@field' follows (D29)",
            ),
            Illegal::ConnectionAndCrossing => f.write_str(
                "a connection that crosses a border takes either the connection change or the \
                 crossing benefit, not both (D13)",
            ),
            Illegal::NotConnection => f.write_str(
                "not a connection change: that needs a move of 2 or more fields from an own \
                 field to an own field with no chevron jumped (D9)",
            ),
            Illegal::MarkerWithoutCrossing { crossing } => write!(
                f,
                "this move {}",
                if crossing {
                    "gets no crossing benefit: every neutral field there holds a chevron (D14)"
                } else {
                    "does not cross a border"
                }
            ),
            Illegal::BadMarkerField { fields, marker, .. } => write!(
                f,
                "the crossing marker may go on {}, not {marker} (D15, D16)",
                Names(fields)
            ),
            Illegal::ConnectionRequired => {
                f.write_str("this connection change is compulsory: write '*' (D10)")
            }
            Illegal::MarkerRequired { connection, fields } => write!(
                f,
                "the border crossing must place a marker: choose {}'+field' with a field \
                 among {} (R6, D15)",
                if connection {
                    "'*' for the connection change or "
                } else {
                    ""
                },
                Names(fields)
            ),
            Illegal::BenefitExhausts { connection } => write!(
                f,
                "the {} places the last marker of the supply, which wins at once (R16b): no \
                 meeting follows (D29)",
                if connection {
                    "connection change"
                } else {
                    "crossing marker"
                }
            ),
            Illegal::NoMeeting { y2011 } => write!(
                f,
                "this move makes no meeting benefit: that needs two of your chevrons on your \
                 fields, adjacent and facing each other (D21){}",
                if y2011 {
                    ", and an opponent with at least 9 markers (D22)"
                } else {
                    ""
                }
            ),
            Illegal::MeetingRequired => f.write_str(
                "this move makes a meeting: choose '@field', an unoccupied field that is not \
                 yours (R12)",
            ),
            Illegal::BadMeetingField { field } => write!(
                f,
                "the meeting may change only an unoccupied field that is not yours, not {field}"
            ),
        }
    }
}
