//! Why a move is illegal, as data: [`Illegal`], the rule a refused move breaks with the
//! fields, seats and counts involved (`pacru.chevron.legality`, whose codes and words it
//! gives). [`crate::diagnose`] works it out; the binding raises it as
//! `pacru.errors.IllegalMoveError(message, rule=, reason=, move=)` (`GameOverError` for
//! [`Illegal::GameOver`]).
//!
//! The engine knows seats, not colour names: [`Illegal::named`] writes the message with
//! the players' names, word for word the Python engine's (the differential tests compare
//! them); `Display` writes a seat as `seat N`.

use crate::geometry::forward;
use crate::moves::Move;
use crate::types::Game;
use crate::units::{Facing, Field, Seat};
use std::fmt;

/// The rule a refused move breaks, with what it needs for its message. Each variant's
/// doc gives its rule (per game where the games word it differently: Lilacru, Shacru,
/// Azacru, Pacru) and its `reason` code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// The game is over (`end`, `game-over`): no move is legal; `winners` is the bitmask
    /// of the winning seats (none: a draw).
    GameOver { winners: u8 },
    /// A pass in Pacru (R2, `pass-not-allowed`): Pacru has no passing.
    PacruPass,
    /// A pass while a chevron can move (L3, S-R2, A-R10; `pass-not-allowed`; D34, D37).
    PassNotAllowed { game: Game, seat: Seat },
    /// A move while the player can only pass (L3, S-R2, A-R10; `must-pass`).
    MustPass { game: Game, seat: Seat },
    /// No chevron on the origin (L4, S-R3, A-R5, R3; `no-chevron`).
    NoChevron { game: Game, origin: Field },
    /// Another player's chevron on the origin (L4, S-R3, A-R5, R3; `not-your-chevron`).
    NotYourChevron {
        game: Game,
        origin: Field,
        owner: Seat,
        seat: Seat,
    },
    /// A reorientation outside Pacru (L4, S-R3, A-R5; `no-reorientation`; R14).
    NoReorientation { game: Game },
    /// A reorientation while no chevron can move (R14, `no-movable-chevron`; D26).
    NoMovableChevron { seat: Seat },
    /// Fewer own unoccupied fields than the turn gives up (D25, `too-few-fields`; R14).
    TooFewFields { seat: Seat, free: u32, turn: i8 },
    /// A number of fields given up other than the turn's cost (R14, `wrong-payment`; D25).
    WrongPayment { turn: i8, given: u32 },
    /// A field given up that is not the player's (D25, `relinquish-not-own`).
    RelinquishNotOwn { field: Field },
    /// A field given up that holds a chevron (D25, `relinquish-occupied`; R7).
    RelinquishOccupied { field: Field },
    /// A reorientation refused for no other reason (R14, `illegal`).
    Reorientation,
    /// Origin and target not on one line (L4, S-R3, A-R5, R3; `not-straight`).
    NotStraight {
        game: Game,
        origin: Field,
        target: Field,
    },
    /// A move in a direction the chevron does not face forward (L4, S-R3, A-R3 for one
    /// field and A-R5 for more, R3; `not-forward`; G4).
    NotForward {
        game: Game,
        origin: Field,
        facing: Facing,
        direction: Facing,
        distance: u8,
    },
    /// More than one field without power of movement (L4, S-R3; `beyond-power`).
    BeyondOne {
        game: Game,
        origin: Field,
        target: Field,
        distance: u8,
    },
    /// Farther than the power of movement (A-R4, R5; `beyond-power`; D39).
    BeyondPower {
        game: Game,
        origin: Field,
        power: u32,
        land: u8,
        distance: u8,
    },
    /// A target that holds a chevron (L6, S-R5, A-R9, R7; `occupied`); `pincer_hint`:
    /// Pacru and another player's chevron, so a pincer is named (R11).
    Occupied {
        game: Game,
        origin: Field,
        target: Field,
        owner: Seat,
        pincer_hint: bool,
    },
    /// A jump that is no connection jump (L6, S-R5, A-R9, R7; `jump-not-connection`; A-R8,
    /// R9): `between` is the bitboard of the chevrons jumped.
    JumpNotConnection { game: Game, between: u128 },
    /// A target of another colour (L6, S-R5, A-R9, R7; `opponent-field`).
    OpponentField {
        game: Game,
        target: Field,
        owner: Seat,
    },
    /// A pincer outside Pacru (L4, S-R3, A-R5; `no-pincer`; R11).
    NoPincer { game: Game },
    /// A pincer with no opposing chevron on its target (R11, `no-victim`).
    NoVictim { target: Field },
    /// A pincer through a jump (D18, `no-victim`): `between` holds the chevrons between.
    AttackThroughJump { between: u128 },
    /// A pincer with one attacker (R11, `single-attacker`; D18, D19).
    SingleAttacker { target: Field },
    /// A move refused for no rule more precise (L4, S-R3, A-R5, R3; `illegal`).
    NotLegal { game: Game, refused: Move },
    /// A twist outside Shacru and Azacru (L4, R3; `no-twist`).
    NoTwist { game: Game },
    /// A twist without a border crossing (S-R4, A-R6; `twist-without-crossing`; D3).
    TwistWithoutCrossing { game: Game },
    /// A twist once the Azacru end is triggered (D5, `twist-after-trigger`).
    TwistAfterTrigger,
    /// A twist of a chevron its own connection change removes (D5, `twist-removed`; A-R7).
    TwistRemoved,
    /// A Pacru choice in another game (L4, S-R3, A-R5; `pacru-only`).
    PacruOnly { game: Game },
    /// A choice after a pincer that placed the last marker (D29, `supply-exhausted`; R16b).
    PincerExhausts,
    /// Both the connection change and the crossing marker (R8, `connection-and-crossing`;
    /// D13).
    ConnectionAndCrossing,
    /// `*` on a move that is no connection change (R8, `not-connection`; D9).
    NotConnection,
    /// A crossing marker without a crossing benefit (R4, `marker-without-crossing`; D14):
    /// `crossing` says whether the move crosses a border at all.
    MarkerWithoutCrossing { crossing: bool },
    /// A crossing marker on a field it may not go on (R6, or R10 for a transformation;
    /// `bad-marker-field`; D15, D16): `fields` are those it may go on.
    BadMarkerField {
        transformation: bool,
        fields: u128,
        marker: Field,
    },
    /// A compulsory connection change left out (R8, `connection-required`; D10).
    ConnectionRequired,
    /// A compulsory crossing benefit left out (R4, `marker-required`; R6, D15):
    /// `connection` says whether the connection change is offered too.
    MarkerRequired { connection: bool, fields: u128 },
    /// A meeting after a benefit that placed the last marker (D29, `supply-exhausted`;
    /// R16b): `connection` says which benefit.
    BenefitExhausts { connection: bool },
    /// A meeting where none is made (R12, `no-meeting`; D21, and D22 under the 2011 rule).
    NoMeeting { y2011: bool },
    /// A compulsory meeting left out (D23, `meeting-required`; R12).
    MeetingRequired,
    /// A meeting on a field it may not change (D23, `bad-meeting-field`).
    BadMeetingField { field: Field },
}

/// A rule ID per game, in the order of [`Game::ALL`].
fn per_game(game: Game, ids: [&'static str; 4]) -> &'static str {
    match game {
        Game::Lilacru => ids[0],
        Game::Shacru => ids[1],
        Game::Azacru => ids[2],
        Game::Pacru => ids[3],
    }
}

/// The pass rule {L3, S-R2, A-R10, R2}.
fn pass_rule(game: Game) -> &'static str {
    per_game(game, ["L3", "S-R2", "A-R10", "R2"])
}

/// The movement rule {L4, S-R3, A-R5, R3}.
fn move_rule(game: Game) -> &'static str {
    per_game(game, ["L4", "S-R3", "A-R5", "R3"])
}

/// What a chevron may not move onto or over {L6, S-R5, A-R9, R7}.
fn forbid_rule(game: Game) -> &'static str {
    per_game(game, ["L6", "S-R5", "A-R9", "R7"])
}

/// How far a chevron moves {L4, S-R3, A-R4, R5}.
fn power_rule(game: Game) -> &'static str {
    per_game(game, ["L4", "S-R3", "A-R4", "R5"])
}

/// The borderland twist {L4, S-R4, A-R6, R3}.
fn twist_rule(game: Game) -> &'static str {
    per_game(game, ["L4", "S-R4", "A-R6", "R3"])
}

/// The borderland names by index (`pacru.geometry.BORDERLAND_NAMES`).
const LAND_NAMES: [&str; 9] = ["b2", "e2", "h2", "b5", "e5", "h5", "b8", "e8", "h8"];

impl Illegal {
    /// The rule that forbids the move: `"S-R5"`, `"R11"`, a ruling such as `"D25"`, or
    /// `"end"` for a finished game.
    pub fn rule(&self) -> &'static str {
        match *self {
            Illegal::GameOver { .. } => "end",
            Illegal::PacruPass => "R2",
            Illegal::PassNotAllowed { game, .. } | Illegal::MustPass { game, .. } => {
                pass_rule(game)
            }
            Illegal::NoChevron { game, .. }
            | Illegal::NotYourChevron { game, .. }
            | Illegal::NoReorientation { game }
            | Illegal::NotStraight { game, .. }
            | Illegal::NoPincer { game }
            | Illegal::NotLegal { game, .. }
            | Illegal::PacruOnly { game } => move_rule(game),
            Illegal::NoMovableChevron { .. }
            | Illegal::WrongPayment { .. }
            | Illegal::Reorientation => "R14",
            Illegal::TooFewFields { .. }
            | Illegal::RelinquishNotOwn { .. }
            | Illegal::RelinquishOccupied { .. } => "D25",
            Illegal::NotForward { game, distance, .. } => {
                if game == Game::Azacru && distance == 1 {
                    "A-R3"
                } else {
                    move_rule(game)
                }
            }
            Illegal::BeyondOne { game, .. } | Illegal::BeyondPower { game, .. } => {
                power_rule(game)
            }
            Illegal::Occupied { game, .. }
            | Illegal::JumpNotConnection { game, .. }
            | Illegal::OpponentField { game, .. } => forbid_rule(game),
            Illegal::NoVictim { .. } | Illegal::SingleAttacker { .. } => "R11",
            Illegal::AttackThroughJump { .. } => "D18",
            Illegal::NoTwist { game } | Illegal::TwistWithoutCrossing { game } => {
                twist_rule(game)
            }
            Illegal::TwistAfterTrigger | Illegal::TwistRemoved => "D5",
            Illegal::PincerExhausts | Illegal::BenefitExhausts { .. } => "D29",
            Illegal::ConnectionAndCrossing
            | Illegal::NotConnection
            | Illegal::ConnectionRequired => "R8",
            Illegal::MarkerWithoutCrossing { .. } | Illegal::MarkerRequired { .. } => "R4",
            Illegal::BadMarkerField { transformation, .. } => {
                if transformation {
                    "R10"
                } else {
                    "R6"
                }
            }
            Illegal::NoMeeting { .. } => "R12",
            Illegal::MeetingRequired | Illegal::BadMeetingField { .. } => "D23",
        }
    }

    /// The machine-readable reason code (`pacru.chevron.legality`'s list): `"occupied"`,
    /// `"not-forward"`, `"game-over"`, ...
    pub fn reason(&self) -> &'static str {
        match self {
            Illegal::GameOver { .. } => "game-over",
            Illegal::PacruPass | Illegal::PassNotAllowed { .. } => "pass-not-allowed",
            Illegal::MustPass { .. } => "must-pass",
            Illegal::NoChevron { .. } => "no-chevron",
            Illegal::NotYourChevron { .. } => "not-your-chevron",
            Illegal::NoReorientation { .. } => "no-reorientation",
            Illegal::NoMovableChevron { .. } => "no-movable-chevron",
            Illegal::TooFewFields { .. } => "too-few-fields",
            Illegal::WrongPayment { .. } => "wrong-payment",
            Illegal::RelinquishNotOwn { .. } => "relinquish-not-own",
            Illegal::RelinquishOccupied { .. } => "relinquish-occupied",
            Illegal::Reorientation | Illegal::NotLegal { .. } => "illegal",
            Illegal::NotStraight { .. } => "not-straight",
            Illegal::NotForward { .. } => "not-forward",
            Illegal::BeyondOne { .. } | Illegal::BeyondPower { .. } => "beyond-power",
            Illegal::Occupied { .. } => "occupied",
            Illegal::JumpNotConnection { .. } => "jump-not-connection",
            Illegal::OpponentField { .. } => "opponent-field",
            Illegal::NoPincer { .. } => "no-pincer",
            Illegal::NoVictim { .. } | Illegal::AttackThroughJump { .. } => "no-victim",
            Illegal::SingleAttacker { .. } => "single-attacker",
            Illegal::NoTwist { .. } => "no-twist",
            Illegal::TwistWithoutCrossing { .. } => "twist-without-crossing",
            Illegal::TwistAfterTrigger => "twist-after-trigger",
            Illegal::TwistRemoved => "twist-removed",
            Illegal::PacruOnly { .. } => "pacru-only",
            Illegal::PincerExhausts | Illegal::BenefitExhausts { .. } => "supply-exhausted",
            Illegal::ConnectionAndCrossing => "connection-and-crossing",
            Illegal::NotConnection => "not-connection",
            Illegal::MarkerWithoutCrossing { .. } => "marker-without-crossing",
            Illegal::BadMarkerField { .. } => "bad-marker-field",
            Illegal::ConnectionRequired => "connection-required",
            Illegal::MarkerRequired { .. } => "marker-required",
            Illegal::NoMeeting { .. } => "no-meeting",
            Illegal::MeetingRequired => "meeting-required",
            Illegal::BadMeetingField { .. } => "bad-meeting-field",
        }
    }

    /// Whether this is the end of the game (`GameOverError`), not a rule of play.
    pub fn is_game_over(&self) -> bool {
        matches!(self, Illegal::GameOver { .. })
    }

    /// The message with the players' colour names (`players[seat]`; a seat beyond them is
    /// written `seat N`): the Python engine's message, word for word.
    pub fn named<'a>(&'a self, players: &'a [&'a str]) -> Named<'a> {
        Named {
            illegal: self,
            players,
        }
    }
}

/// An [`Illegal`] with the players' names, whose `Display` is the message
/// ([`Illegal::named`]).
#[derive(Clone, Copy, Debug)]
pub struct Named<'a> {
    illegal: &'a Illegal,
    players: &'a [&'a str],
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
            Illegal::MustPass { seat, .. } => write!(
                f,
                "no chevron of {0} can move; {0} must pass",
                who(seat)
            ),
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
                let [left, straight, right] = forward(facing.get()).map(|d| {
                    Facing::ALL[usize::from(d & 7)].name()
                });
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
            Illegal::PacruOnly { .. } => f.write_str("'*', '+field' and '@field' are Pacru choices"),
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
