//! The units of the board as types: a [`Field`] (0..=80), a [`Seat`] (0..=3) and a
//! [`Facing`] (N..NW). Each is one byte (`#[repr(transparent)]` or `#[repr(u8)]`), is built
//! from a number by `TryFrom` (a number out of range is a [`UnitError`], never a panic) and
//! gives its number back by `From`, so the bitboards stay `u128` and the hot loops index
//! tables as before.

use crate::geometry::{field_name, FULL};
use std::fmt;

/// A number out of the range of the unit it was to become; it carries the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitError {
    /// A field number not below 81.
    Field(usize),
    /// A seat number not below 4.
    Seat(usize),
    /// A facing (a direction) not below 8.
    Facing(usize),
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UnitError::Field(n) => write!(f, "field must be 0..80, not {n}"),
            UnitError::Seat(n) => write!(f, "seat must be 0..3, not {n}"),
            UnitError::Facing(n) => write!(f, "facing must be 0..7, not {n}"),
        }
    }
}

impl std::error::Error for UnitError {}

/// A field of the board, `a1 = 0` row-major from rank 1 to `i9 = 80` {G1}.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Field(u8);

impl Field {
    /// The number of fields.
    pub const COUNT: usize = 81;

    /// Field `n`, None for 81 or more.
    pub const fn new(n: u8) -> Option<Field> {
        if n < 81 {
            Some(Field(n))
        } else {
            None
        }
    }

    /// A field number the engine produced itself (a set bit of an on-board bitboard, a
    /// table entry): in range by construction, which debug builds check.
    #[inline(always)]
    pub(crate) const fn of(n: u8) -> Field {
        debug_assert!(n < 81);
        Field(n)
    }

    /// The field's number, 0..=80.
    #[inline(always)]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The field's number as an index.
    #[inline(always)]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The bitboard of this field alone.
    #[inline(always)]
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// The lowest field of `board`, None when it has no field on the board.
    #[inline]
    pub fn lowest(board: u128) -> Option<Field> {
        let board = board & FULL;
        (board != 0).then(|| Field(crate::geometry::lowest_field(board)))
    }

    /// Every field of `board`, ascending (bits above 80 are ignored).
    pub fn all_of(board: u128) -> impl Iterator<Item = Field> {
        crate::geometry::bits(board & FULL).map(Field)
    }
}

/// The field's name as pacru writes it: `a1` .. `i9`.
impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&field_name(self.0))
    }
}

/// A seat, in turn order: 0 moves first {L2, R1}.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Seat(u8);

impl Seat {
    /// The most seats of a game.
    pub const COUNT: usize = 4;

    /// Seat `n`, None for 4 or more.
    pub const fn new(n: u8) -> Option<Seat> {
        if n < 4 {
            Some(Seat(n))
        } else {
            None
        }
    }

    /// The seat's number, 0..=3.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The seat's number as an index (of `Position::markers`, `Position::chevrons`).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The seat's bit in a seat set (`Position::out`, `Outcome::winners`).
    pub const fn bit(self) -> u8 {
        1 << self.0
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A chevron's facing, a direction 45 degrees apart, clockwise from north {G3}.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Facing {
    N = 0,
    NE = 1,
    E = 2,
    SE = 3,
    S = 4,
    SW = 5,
    W = 6,
    NW = 7,
}

impl Facing {
    /// The eight facings, clockwise from north (index = number).
    pub const ALL: [Facing; 8] = [
        Facing::N,
        Facing::NE,
        Facing::E,
        Facing::SE,
        Facing::S,
        Facing::SW,
        Facing::W,
        Facing::NW,
    ];

    /// The facing of number `n & 7` (a chevron code's low three bits).
    #[inline]
    pub fn of_code(code: u16) -> Facing {
        Facing::ALL[usize::from(code & 7)]
    }

    /// The facing's number, 0..=7.
    pub const fn get(self) -> u8 {
        self as u8
    }

    /// The facing after `steps` 45-degree turns, clockwise positive {R14}.
    pub fn turned(self, steps: i8) -> Facing {
        let turned = (i16::from(self.get()) + i16::from(steps)).rem_euclid(8);
        Facing::ALL[usize::try_from(turned).unwrap_or(0)]
    }

    /// The facing's name: `N`, `NE`, ..., `NW`.
    pub const fn name(self) -> &'static str {
        match self {
            Facing::N => "N",
            Facing::NE => "NE",
            Facing::E => "E",
            Facing::SE => "SE",
            Facing::S => "S",
            Facing::SW => "SW",
            Facing::W => "W",
            Facing::NW => "NW",
        }
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `TryFrom<u8>`, `TryFrom<u16>` and `TryFrom<usize>` (out of range: the unit's
/// [`UnitError`]) and `From` the unit to `u8`, `u16`, `u32`, `u64`, `usize`, `i16`, `i32`
/// and `i64`.
macro_rules! conversions {
    ($unit:ident, $make:expr) => {
        impl TryFrom<usize> for $unit {
            type Error = UnitError;
            fn try_from(n: usize) -> Result<$unit, UnitError> {
                u8::try_from(n)
                    .ok()
                    .and_then($make)
                    .ok_or(UnitError::$unit(n))
            }
        }

        impl TryFrom<u8> for $unit {
            type Error = UnitError;
            fn try_from(n: u8) -> Result<$unit, UnitError> {
                $unit::try_from(usize::from(n))
            }
        }

        impl TryFrom<u16> for $unit {
            type Error = UnitError;
            fn try_from(n: u16) -> Result<$unit, UnitError> {
                $unit::try_from(usize::from(n))
            }
        }

        impl From<$unit> for u8 {
            fn from(unit: $unit) -> u8 {
                unit.get()
            }
        }

        conversions!(@widen $unit, u16, u32, u64, usize, i16, i32, i64);
    };
    (@widen $unit:ident, $($int:ty),*) => {
        $(impl From<$unit> for $int {
            fn from(unit: $unit) -> $int {
                <$int>::from(u8::from(unit))
            }
        })*
    };
}

conversions!(Field, Field::new);
conversions!(Seat, Seat::new);
conversions!(Facing, |n: u8| Facing::ALL.get(usize::from(n)).copied());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_range_round_trip_and_the_rest_are_errors() {
        for n in 0..=255u8 {
            assert_eq!(
                Field::try_from(n).map(u8::from),
                Field::new(n)
                    .map(Field::get)
                    .ok_or(UnitError::Field(n.into()))
            );
            assert_eq!(Field::try_from(n).is_ok(), n < 81);
            assert_eq!(Seat::try_from(n).is_ok(), n < 4);
            assert_eq!(Facing::try_from(n).map(u8::from).ok(), (n < 8).then_some(n));
        }
        assert_eq!(Field::try_from(300usize), Err(UnitError::Field(300)));
        assert_eq!(Seat::try_from(4u16), Err(UnitError::Seat(4)));
        assert_eq!(Facing::try_from(8u8), Err(UnitError::Facing(8)));
    }

    #[test]
    fn fields_are_named_as_pacru_names_them() {
        let name = |n: u8| Field::new(n).map(|f| f.to_string());
        assert_eq!(name(0).as_deref(), Some("a1"));
        assert_eq!(name(40).as_deref(), Some("e5"));
        assert_eq!(name(80).as_deref(), Some("i9"));
        assert_eq!(name(81), None);
    }

    #[test]
    fn facings_turn_clockwise_and_wrap() {
        assert_eq!(Facing::N.turned(1), Facing::NE);
        assert_eq!(Facing::N.turned(-1), Facing::NW);
        assert_eq!(Facing::SW.turned(2), Facing::NW);
        assert_eq!(Facing::of_code(4 * 8 + 6), Facing::W);
        assert_eq!(Facing::E.to_string(), "E");
    }

    #[test]
    fn bitboards_of_fields() {
        assert_eq!(Field::lowest(0), None);
        assert_eq!(Field::lowest(1 << 81), None);
        assert_eq!(Field::lowest(0b1100).map(Field::get), Some(2));
        let all: Vec<u8> = Field::all_of(0b1010 | 1 << 100).map(Field::get).collect();
        assert_eq!(all, [1, 3]);
        assert_eq!(Field::of(5).bit(), 32);
    }
}
