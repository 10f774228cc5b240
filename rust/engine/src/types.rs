//! The values of the engine: rules, positions, moves, outcomes and errors.

use crate::error::{EngineError, OptionError, PositionError};
use crate::geometry::{bits, code_field, lowest_field, FULL};
use crate::units::{Facing, Field, Seat};

/// The largest value of a counter (`ply`, `idle`, `move_cap`, `idle_rounds`): the engine
/// holds them as `u64`, and `pacru` refuses a larger one on both engines.
pub const COUNTER_MAX: u64 = u64::MAX;

/// The four chevron games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// Lilacru: mark on arrival, one field a move, no twist {L1..L7}.
    Lilacru,
    /// Shacru: Lilacru with the borderland twist {S-R1..S-R6}.
    Shacru,
    /// Azacru: power of movement, connections, the one-more-turn end {A-R1..A-R10}.
    Azacru,
    /// Pacru: power of movement and the special actions {R1..R16}.
    Pacru,
}

impl Game {
    /// The game's name as pacru spells it: `"lilacru"`, `"shacru"`, `"azacru"`, `"pacru"`.
    pub fn name(self) -> &'static str {
        match self {
            Game::Lilacru => "lilacru",
            Game::Shacru => "shacru",
            Game::Azacru => "azacru",
            Game::Pacru => "pacru",
        }
    }

    /// The four games, in the order of their names in messages.
    pub const ALL: [Game; 4] = [Game::Lilacru, Game::Shacru, Game::Azacru, Game::Pacru];

    /// The game named `name`.
    ///
    /// # Errors
    /// [`EngineError::UnknownGame`] for an unknown name (the caller holds the name for its
    /// message).
    pub fn parse(name: &str) -> Result<Game, EngineError> {
        match name {
            "lilacru" => Ok(Game::Lilacru),
            "shacru" => Ok(Game::Shacru),
            "azacru" => Ok(Game::Azacru),
            "pacru" => Ok(Game::Pacru),
            _ => Err(EngineError::UnknownGame),
        }
    }
}

/// The Pacru meeting rule variants {R12, D22, D48}.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MeetingRule {
    /// The 2011 rule: a meeting needs an opponent with at least 9 markers (D22); the default.
    #[default]
    Y2011,
    /// The original rule: no threshold (D48).
    Original,
}

/// The rule switches of one chevron game, with its options (`pacru.chevron.rules.Rules`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The game.
    pub game: Game,
    /// Pacru's meeting rule {R12, D22, D48}; ignored by the other games.
    pub meeting_rule: MeetingRule,
    /// Non-official: Pacru and Azacru end without a winner after this many plies (D32);
    /// ignored by Lilacru and Shacru.
    pub move_cap: Option<u64>,
    /// Non-official safety valve of Lilacru/Shacru: end after this many full rounds
    /// without a field acquired (D33); 81 by default.
    pub idle_rounds: u64,
}

impl Rules {
    /// The game with its default options (meeting rule 2011, no move cap, 81 idle rounds).
    pub fn new(game: Game) -> Rules {
        Rules {
            game,
            meeting_rule: MeetingRule::Y2011,
            move_cap: None,
            idle_rounds: 81,
        }
    }

    /// The game with options, checked as `pacru.chevron.rules.rules_for` checks them.
    ///
    /// # Errors
    /// An option the game does not have, or a value out of range (D32, D33, D48).
    pub fn with_options(
        game: Game,
        meeting_rule: MeetingRule,
        move_cap: Option<u64>,
        idle_rounds: u64,
    ) -> Result<Rules, EngineError> {
        let rules = Rules {
            game,
            meeting_rule,
            move_cap,
            idle_rounds,
        };
        if meeting_rule != MeetingRule::Y2011 && game != Game::Pacru {
            return Err(OptionError::MeetingRuleNotPacru(game).into());
        }
        if let Some(cap) = move_cap {
            if !(rules.pacru() || rules.azacru()) {
                return Err(OptionError::MoveCapGame(game).into());
            }
            if cap < 1 {
                return Err(OptionError::MoveCapZero.into());
            }
        }
        if idle_rounds < 1 {
            return Err(OptionError::IdleRoundsZero.into());
        }
        if idle_rounds != 81 && !rules.lookahead_end() {
            return Err(OptionError::IdleRoundsGame(game).into());
        }
        Ok(rules)
    }

    /// The field a chevron arrives on becomes its colour {L5, S-R3, A-R3}; Pacru places
    /// markers only by special actions (D40).
    pub fn marks_arrival(&self) -> bool {
        self.game != Game::Pacru
    }

    /// Border crossings allow a 45-degree twist {S-R4, A-R6, D3-D5}.
    pub fn twist(&self) -> bool {
        matches!(self.game, Game::Shacru | Game::Azacru)
    }

    /// Power of movement allows long moves {A-R4, R5, D39}.
    pub fn power(&self) -> bool {
        matches!(self.game, Game::Azacru | Game::Pacru)
    }

    /// The Pacru special actions, reorientation, supply and elimination {R4..R16}.
    pub fn pacru(&self) -> bool {
        self.game == Game::Pacru
    }

    /// Azacru connections (with removal, A-R7) and the one-more-turn end {A-R10}.
    pub fn azacru(&self) -> bool {
        self.game == Game::Azacru
    }

    /// Whether the game ends when nobody can acquire a field {S-R6b, L7, D33}.
    pub fn lookahead_end(&self) -> bool {
        matches!(self.game, Game::Lilacru | Game::Shacru)
    }
}

/// Why a game ended: `pacru.base.Termination`, its members in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// Nobody can move {S-R6a, L7}.
    NoMoves,
    /// No player with chevrons can ever acquire another field {S-R6b, L7, ruling D33}.
    NoAcquisition,
    /// Non-official safety valve: N full rounds without a field acquired (D33).
    IdleLimit,
    /// The Azacru end: the triggering player's turn came round again {A-R10, D36}.
    EndTriggered,
    /// Pacru: last player with chevrons on the board {R16a}.
    LastPlayer,
    /// Pacru: the mover placed the last marker of their supply {R16b, D29}.
    SupplyExhausted,
    /// Non-official engine move cap reached (D32); no winner.
    MoveCap,
    /// LSD only: a row of own tiles (never produced by this engine).
    Row,
    /// LSD only: no player can place a tile (never produced by this engine).
    Blocked,
}

impl Termination {
    /// The value of the Python enum member (`"no-moves"`, ...).
    pub fn value(self) -> &'static str {
        match self {
            Termination::NoMoves => "no-moves",
            Termination::NoAcquisition => "no-acquisition",
            Termination::IdleLimit => "idle-limit",
            Termination::EndTriggered => "end-triggered",
            Termination::LastPlayer => "last-player",
            Termination::SupplyExhausted => "supply-exhausted",
            Termination::MoveCap => "move-cap",
            Termination::Row => "row",
            Termination::Blocked => "blocked",
        }
    }

    /// The member whose value is `value`.
    pub fn parse(value: &str) -> Option<Termination> {
        [
            Termination::NoMoves,
            Termination::NoAcquisition,
            Termination::IdleLimit,
            Termination::EndTriggered,
            Termination::LastPlayer,
            Termination::SupplyExhausted,
            Termination::MoveCap,
            Termination::Row,
            Termination::Blocked,
        ]
        .into_iter()
        .find(|t| t.value() == value)
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The rule that ended it.
    pub termination: Termination,
    /// The winning seats, bit `i` for seat `i`: several share the win (D35), none is a
    /// draw without winner (D32).
    pub winners: u8,
}

/// The chevrons of one player: a set of codes `field * 8 + facing`, at most one per
/// field, kept as a field bitboard (so iteration is by ascending field, the order of the
/// Python tuples) and a nibble per field holding its chevron's facing (0 where there is
/// none, so equal lists have equal values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ChevronList {
    fields: u128,
    /// Field `f`'s facing in bits `4 * (f % 16)..` of word `f / 16`.
    facings: [u64; 6],
}

/// The facing nibble of `field` (below 81) in `facings`.
#[inline]
fn nibble(facings: &[u64; 6], field: u8) -> u8 {
    // `get`, not `% 6`: a bounds check is cheaper than a division by 6.
    facings
        .get(usize::from(field / 16))
        .map_or(0, |word| (word >> (4 * (field % 16)) & 7) as u8)
}

impl ChevronList {
    /// No chevrons.
    pub const EMPTY: ChevronList = ChevronList {
        fields: 0,
        facings: [0; 6],
    };

    /// The list of these codes, in any order.
    ///
    /// # Errors
    /// A code outside 0..647, or two chevrons on one field.
    pub fn from_codes(codes: &[u16]) -> Result<ChevronList, EngineError> {
        let mut list = ChevronList::EMPTY;
        for &code in codes {
            if code >= 81 * 8 {
                return Err(PositionError::ChevronCode(code).into());
            }
            if list.fields >> (code >> 3) & 1 != 0 {
                // Below 648: the field is on the board.
                return Err(PositionError::TwoChevrons(Field::of(code_field(code))).into());
            }
            list.insert(code);
        }
        Ok(list)
    }

    /// The number of chevrons.
    pub fn len(&self) -> usize {
        self.fields.count_ones() as usize
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.fields == 0
    }

    /// The bitboard of their fields.
    pub fn fields(&self) -> u128 {
        self.fields
    }

    /// The facing of the chevron on `field`, if there is one.
    #[inline]
    pub fn facing_at(&self, field: u8) -> Option<u8> {
        if field >= 81 || self.fields >> field & 1 == 0 {
            return None;
        }
        Some(nibble(&self.facings, field))
    }

    /// The facing of the chevron on `field`, if there is one ([`ChevronList::facing_at`]
    /// typed).
    pub fn facing_of(&self, field: Field) -> Option<Facing> {
        self.facing_at(field.get())
            .map(|n| Facing::of_code(u16::from(n)))
    }

    /// The fields of the chevrons, ascending.
    pub fn field_iter(&self) -> impl Iterator<Item = Field> {
        Field::all_of(self.fields)
    }

    /// Whether the chevron with this code is in the list.
    #[inline]
    pub fn contains_code(&self, code: u16) -> bool {
        code < 648 && self.facing_at(code_field(code)) == Some((code & 7) as u8)
    }

    /// Puts the chevron `code` on the board (replacing any of this list on its field).
    pub(crate) fn insert(&mut self, code: u16) {
        if code >= 648 {
            return;
        }
        let field = code >> 3;
        self.fields |= 1u128 << field;
        let (word, shift) = (field as usize / 16, 4 * (field % 16));
        self.facings[word] = self.facings[word] & !(15 << shift) | u64::from(code & 7) << shift;
    }

    /// Takes away the chevron on `field` (nothing if there is none).
    pub(crate) fn remove(&mut self, field: u8) {
        if field < 81 {
            self.fields &= !(1u128 << field);
            self.facings[field as usize / 16] &= !(15 << (4 * (field % 16)));
        }
    }

    /// The codes, ascending.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        bits(self.fields).map(move |f| u16::from(f) * 8 + u16::from(nibble(&self.facings, f)))
    }

    /// The codes, ascending, in a vector.
    pub fn to_vec(&self) -> Vec<u16> {
        self.iter().collect()
    }
}

/// A position of a chevron game: the values a `pacru.ChevronState` holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The number of players, 2..=4.
    pub players: u8,
    /// Per seat (turn order), the bitboard of the fields with its marker; unused seats 0.
    pub markers: [u128; 4],
    /// Per seat, its chevrons.
    pub chevrons: [ChevronList; 4],
    /// The seat to move (of the winner or last mover once the game is over).
    pub to_move: u8,
    /// Pacru: bit `i` set when seat `i` is eliminated {R15}.
    pub out: u8,
    /// Azacru: the seat whose pass triggered the end, -1 before {A-R10}.
    pub trigger: i8,
    /// Lilacru/Shacru: plies since a field was last acquired (D33).
    pub idle: u64,
    /// Plies played since the start of the game.
    pub ply: u64,
    /// How the game ended, or None.
    pub outcome: Option<Outcome>,
}

impl Position {
    /// A position from the values `ChevronState` holds, its shape checked.
    ///
    /// `chevrons[i]` lists seat `i`'s codes `field * 8 + facing` (in any order).
    ///
    /// # Errors
    /// A player count outside 2..=4, a list of the wrong length, a marker outside the
    /// board or on two colours, a bad chevron code, two chevrons on one field, or a seat
    /// number (`to_move`, `out`, `trigger`, winners) outside the players.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        players: u8,
        markers: &[u128],
        chevrons: &[&[u16]],
        to_move: u8,
        out: u8,
        trigger: i8,
        idle: u64,
        ply: u64,
        outcome: Option<Outcome>,
    ) -> Result<Position, EngineError> {
        if !(2..=4).contains(&players) {
            return Err(PositionError::PlayerCount(players).into());
        }
        let n = players as usize;
        if markers.len() != n || chevrons.len() != n {
            return Err(PositionError::SeatLists {
                players,
                markers: markers.len(),
                chevrons: chevrons.len(),
            }
            .into());
        }
        let mut pos = Position {
            players,
            markers: [0; 4],
            chevrons: [ChevronList::EMPTY; 4],
            to_move,
            out,
            trigger,
            idle,
            ply,
            outcome,
        };
        let mut marked = 0u128;
        for (i, &m) in markers.iter().enumerate() {
            if m & !FULL != 0 {
                return Err(PositionError::MarkerOffBoard.into());
            }
            if m & marked != 0 {
                let field = Field::of(lowest_field(m & marked)); // within FULL, checked above
                return Err(PositionError::MarkersOfTwoColours(field).into());
            }
            marked |= m;
            pos.markers[i] = m;
        }
        let mut occupied = 0u128;
        for (i, codes) in chevrons.iter().enumerate() {
            let list = ChevronList::from_codes(codes)?;
            if list.fields() & occupied != 0 {
                let field = Field::of(lowest_field(list.fields() & occupied));
                return Err(PositionError::TwoChevrons(field).into());
            }
            occupied |= list.fields();
            pos.chevrons[i] = list;
        }
        let seats = (1u8 << n) - 1;
        if to_move >= players {
            return Err(PositionError::ToMove { to_move, players }.into());
        }
        if out & !seats != 0 {
            return Err(PositionError::OutBeyondPlayers.into());
        }
        if trigger < -1 || i16::from(trigger) >= i16::from(players) {
            return Err(PositionError::Trigger(trigger).into());
        }
        if let Some(o) = outcome {
            if o.winners & !seats != 0 {
                return Err(PositionError::WinnersBeyondPlayers.into());
            }
        }
        Ok(pos)
    }

    /// The starting position of `players` players in the standard layout
    /// (`pacru.new_game(game, players)`): 2 players S (+ i9 SW, first) and
    /// N (+ a1 NE); 3 players N, E, W; 4 players S, W, N, E {L2, S-R1, A-R1, R1}.
    ///
    /// # Errors
    /// A player count outside 2..=4.
    pub fn start(players: u8) -> Result<Position, EngineError> {
        // (field, facing) of each seat's chevrons: S, W, N, E.
        const S: [u16; 3] = [4 * 8, 18 * 8 + 2, 26 * 8 + 6];
        const W: [u16; 3] = [36 * 8 + 2, 2 * 8, 74 * 8 + 4];
        const N: [u16; 3] = [76 * 8 + 4, 54 * 8 + 2, 62 * 8 + 6];
        const E: [u16; 3] = [44 * 8 + 6, 6 * 8, 78 * 8 + 4];
        let (seats, corners): (Vec<&[u16]>, [u16; 2]) = match players {
            2 => (vec![&S, &N], [80 * 8 + 5, 1]),
            3 => (vec![&N, &E, &W], [255, 255]),
            4 => (vec![&S, &W, &N, &E], [255, 255]),
            _ => return Err(PositionError::PlayerCount(players).into()),
        };
        let mut lists: Vec<Vec<u16>> = seats.iter().map(|s| s.to_vec()).collect();
        for (list, corner) in lists.iter_mut().zip(corners) {
            if corner != 255 {
                list.push(corner);
            }
        }
        let refs: Vec<&[u16]> = lists.iter().map(|v| v.as_slice()).collect();
        let markers = vec![0u128; players as usize];
        Position::new(players, &markers, &refs, 0, 0, -1, 0, 0, None)
    }

    /// The seat to move, None when the public field `to_move` was set beyond 0..=3.
    pub fn seat_to_move(&self) -> Option<Seat> {
        Seat::new(self.to_move)
    }

    /// Whether the public fields still have the shape [`Position::new`] checks, as far as
    /// the engine needs it to index safely: 2..=4 players and a seat to move among them.
    pub(crate) fn shape_ok(&self) -> bool {
        (2..=4).contains(&self.players) && self.to_move < self.players
    }

    /// The bitboard of the fields with a chevron.
    pub fn occupied(&self) -> u128 {
        self.chevrons.iter().fold(0, |acc, c| acc | c.fields())
    }

    /// The bitboard of every marked field.
    pub fn marked(&self) -> u128 {
        self.markers.iter().fold(0, |acc, m| acc | m)
    }
}
