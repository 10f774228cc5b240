//! Why a move is illegal, as data: [`Illegal`], the rule a refused move breaks with the
//! fields, seats and counts involved (`pacru.chevron.legality`, whose codes and words it
//! gives). [`crate::diagnose`] works it out; the binding raises it as
//! `pacru.errors.IllegalMoveError(message, rule=, reason=, move=)` (`GameOverError` for
//! [`Illegal::GameOver`]).
//!
//! The engine knows seats, not colour names: [`Illegal::named`] writes the message with
//! the players' names, word for word the Python engine's (the differential tests compare
//! them); `Display` writes a seat as `seat N`.

pub use crate::illegal_text::Named;
use crate::moves::Move;
use crate::types::Game;
use crate::units::{Facing, Field, Seat};

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
            Illegal::BeyondOne { game, .. } | Illegal::BeyondPower { game, .. } => power_rule(game),
            Illegal::Occupied { game, .. }
            | Illegal::JumpNotConnection { game, .. }
            | Illegal::OpponentField { game, .. } => forbid_rule(game),
            Illegal::NoVictim { .. } | Illegal::SingleAttacker { .. } => "R11",
            Illegal::AttackThroughJump { .. } => "D18",
            Illegal::NoTwist { game } | Illegal::TwistWithoutCrossing { game } => twist_rule(game),
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
        Named::new(self, players)
    }
}
