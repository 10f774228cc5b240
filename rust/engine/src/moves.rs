//! A move of a chevron game, by kind: a pass, a step, a pincer or a reorientation. Each
//! kind holds only what it has, so no move carries a field that means nothing for it
//! (`pacru.Move` holds every part, `None` or 0 where a kind has none: [`Move::from_parts`]
//! and the accessors translate).

use crate::geometry::{bits, field_name, line, FULL};
use crate::units::Field;
use std::fmt;

/// What a step or a pincer moves and chooses: the chevron's field and its destination
/// (a pincer's: the victim's field), and the choices of the move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct StepMove {
    /// The chevron's field.
    pub origin: Field,
    /// The destination.
    pub target: Field,
    /// The borderland twist {S-R4, A-R6}: -1 anticlockwise, +1 clockwise, 0 none.
    pub twist: i8,
    /// The Pacru connection change is taken {R8}.
    pub connection: bool,
    /// The Pacru border-crossing marker's field {R4, R6, R10}.
    pub marker: Option<Field>,
    /// The field changed by a Pacru meeting {R12}.
    pub meeting: Option<Field>,
}

impl StepMove {
    /// The plain step from `origin` to `target`, without choices.
    pub fn new(origin: Field, target: Field) -> StepMove {
        StepMove {
            origin,
            target,
            twist: 0,
            connection: false,
            marker: None,
            meeting: None,
        }
    }
}

/// One complete move of a chevron game, by kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Move {
    /// The pass {S-R2, A-R2, A-R10, D34, D37}.
    #[default]
    Pass,
    /// A chevron's move along a line {L4, S-R3, A-R4, R3}.
    Step(StepMove),
    /// A Pacru pincer {R11}: the chevron moves onto the victim's field.
    Pincer(StepMove),
    /// A Pacru reorientation {R14}: the chevron on `origin` turns by `turn` 45-degree
    /// steps (clockwise positive: -2, -1, 1 or 2), giving up the own fields of
    /// `relinquished` (a bitboard).
    Reorientation {
        origin: Field,
        turn: i8,
        relinquished: u128,
    },
}

impl Move {
    /// The move `pacru.Move` holds as these parts, when they make one: a pass has no other
    /// part, a reorientation no target and a turn of -2, -1, 1 or 2, a step or pincer a
    /// target other than its origin and no turn; twist -1..1, fields given up on the
    /// board. None for parts that make no move (no list holds such a move).
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        origin: Option<Field>,
        target: Option<Field>,
        capture: bool,
        twist: i8,
        turn: i8,
        connection: bool,
        marker: Option<Field>,
        meeting: Option<Field>,
        relinquished: u128,
    ) -> Option<Move> {
        let extras = capture || twist != 0 || connection || marker.is_some() || meeting.is_some();
        if !(-1..=1).contains(&twist) || !(-2..=2).contains(&turn) || relinquished & !FULL != 0 {
            return None;
        }
        match (origin, target) {
            (None, None) => (!extras && turn == 0 && relinquished == 0).then_some(Move::Pass),
            (None, Some(_)) => None,
            (Some(origin), None) => (turn != 0 && !extras).then_some(Move::Reorientation {
                origin,
                turn,
                relinquished,
            }),
            (Some(origin), Some(target)) => {
                if origin == target || turn != 0 || relinquished != 0 {
                    return None;
                }
                let step = StepMove {
                    origin,
                    target,
                    twist,
                    connection,
                    marker,
                    meeting,
                };
                Some(if capture {
                    Move::Pincer(step)
                } else {
                    Move::Step(step)
                })
            }
        }
    }

    /// The step or pincer, if this is one.
    #[inline]
    pub fn step(&self) -> Option<&StepMove> {
        match self {
            Move::Step(s) | Move::Pincer(s) => Some(s),
            Move::Pass | Move::Reorientation { .. } => None,
        }
    }

    /// Whether this is the pass.
    pub fn is_pass(&self) -> bool {
        matches!(self, Move::Pass)
    }

    /// The chevron's field; None only for a pass.
    #[inline]
    pub fn origin(&self) -> Option<Field> {
        match *self {
            Move::Pass => None,
            Move::Step(s) | Move::Pincer(s) => Some(s.origin),
            Move::Reorientation { origin, .. } => Some(origin),
        }
    }

    /// The destination of a step or pincer.
    #[inline]
    pub fn target(&self) -> Option<Field> {
        self.step().map(|s| s.target)
    }

    /// Whether this is a pincer {R11}.
    pub fn capture(&self) -> bool {
        matches!(self, Move::Pincer(_))
    }

    /// The twist of a step or pincer; 0 for the others.
    pub fn twist(&self) -> i8 {
        self.step().map_or(0, |s| s.twist)
    }

    /// The turn of a reorientation; 0 for the others.
    pub fn turn(&self) -> i8 {
        match *self {
            Move::Reorientation { turn, .. } => turn,
            _ => 0,
        }
    }

    /// Whether a step or pincer takes the connection change.
    pub fn connection(&self) -> bool {
        self.step().is_some_and(|s| s.connection)
    }

    /// The crossing marker's field of a step or pincer.
    pub fn marker(&self) -> Option<Field> {
        self.step().and_then(|s| s.marker)
    }

    /// The meeting's field of a step or pincer.
    pub fn meeting(&self) -> Option<Field> {
        self.step().and_then(|s| s.meeting)
    }

    /// The fields a reorientation gives up, a bitboard; 0 for the others.
    pub fn relinquished(&self) -> u128 {
        match *self {
            Move::Reorientation { relinquished, .. } => relinquished,
            _ => 0,
        }
    }

    /// Whether the values are those `pacru.Move` accepts: twist -1..1, a turn of -2, -1,
    /// 1 or 2, fields given up on the board, a step's target other than its origin.
    pub fn is_well_formed(&self) -> bool {
        match *self {
            Move::Pass => true,
            Move::Step(s) | Move::Pincer(s) => s.origin != s.target && (-1..=1).contains(&s.twist),
            Move::Reorientation {
                turn, relinquished, ..
            } => matches!(turn, -2 | -1 | 1 | 2) && relinquished & !FULL == 0,
        }
    }

    /// (direction, distance) of a step or pincer, when its fields lie on one line.
    pub fn line(&self) -> Option<(u8, u8)> {
        let s = self.step()?;
        line(s.origin.get(), s.target.get())
    }
}

/// The move in pacru's notation (`e4-e6`, `a3-b4>`, `g9-e7*`, `e3xe4+e6@i9`,
/// `d9>>(c4,b5,a7,b7)`, `pass`): what `str(move)` gives in Python.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, sep) = match *self {
            Move::Pass => return f.write_str("pass"),
            Move::Reorientation {
                origin,
                turn,
                relinquished,
            } => {
                let turn = match turn {
                    -2 => "<<",
                    -1 => "<",
                    1 => ">",
                    2 => ">>",
                    _ => "?",
                };
                let fields: Vec<String> = bits(relinquished).map(field_name).collect();
                return write!(f, "{origin}{turn}({})", fields.join(","));
            }
            Move::Step(s) => (s, "-"),
            Move::Pincer(s) => (s, "x"),
        };
        write!(f, "{}{sep}{}", s.origin, s.target)?;
        if s.twist != 0 {
            f.write_str(if s.twist < 0 { "<" } else { ">" })?;
        }
        if s.connection {
            f.write_str("*")?;
        }
        if let Some(m) = s.marker {
            write!(f, "+{m}")?;
        }
        if let Some(m) = s.meeting {
            write!(f, "@{m}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: u8) -> Field {
        Field::new(n).expect("on the board")
    }

    #[test]
    fn a_move_is_as_compact_as_the_struct_it_replaced() {
        assert_eq!(std::mem::size_of::<Move>(), 32);
        assert_eq!(std::mem::size_of::<StepMove>(), 8);
    }

    #[test]
    fn parts_make_the_move_of_their_kind_or_none() {
        let (e4, e6) = (Some(field(31)), Some(field(49)));
        let parts = |o, t, capture, twist, turn, rel| {
            Move::from_parts(o, t, capture, twist, turn, false, None, None, rel)
        };
        assert_eq!(parts(None, None, false, 0, 0, 0), Some(Move::Pass));
        let step = StepMove::new(field(31), field(49));
        assert_eq!(parts(e4, e6, false, 0, 0, 0), Some(Move::Step(step)));
        assert_eq!(parts(e4, e6, true, 0, 0, 0), Some(Move::Pincer(step)));
        let reo = parts(e4, None, false, 0, 2, 0b11);
        assert_eq!(reo.map(|m| m.to_string()).as_deref(), Some("e4>>(a1,b1)"));
        // A pass with a part, a target without origin, a step with a turn, a bad twist.
        assert_eq!(parts(None, None, true, 0, 0, 0), None);
        assert_eq!(parts(None, e6, false, 0, 0, 0), None);
        assert_eq!(parts(e4, e6, false, 0, 1, 0), None);
        assert_eq!(parts(e4, e6, false, 2, 0, 0), None);
        assert_eq!(parts(e4, e4, false, 0, 0, 0), None);
        assert_eq!(parts(e4, None, false, 0, 0, 0), None);
        assert_eq!(parts(e4, None, false, 0, 1, 1 << 81), None);
    }
}
