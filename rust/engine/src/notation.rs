//! Reading a move's text: the grammar of `pacru.Move.parse` (`pacru.chevron.move`), so
//! that the binding answers `"e4-e5" in moves` without a call into Python.
//!
//! ```text
//! move          = step | reorientation | "pass"
//! step          = field ("-" | "x") field [twist] ["*"] ["+" field] ["@" field]
//! twist         = "<" | ">"
//! reorientation = field turn "(" field {"," field} ")"
//! turn          = "<" | "<<" | ">" | ">>"
//! ```
//!
//! Fields are `a1` .. `i9`. Input is case-insensitive and may be surrounded by white
//! space (what Python's `str.strip` removes); text longer than [`MAX_MOVE_TEXT`]
//! characters is refused before it is read. A step must leave its field; a reorientation
//! names each field it gives up once, in any order (the move holds them as a bitboard).
//! The text says only what the player chose: whether the move is legal is the list's
//! question.

use crate::moves::{Move, StepMove};
use crate::units::Field;
use std::fmt;
use std::str::FromStr;

/// The longest move text read, in characters (`pacru.chevron.move.MAX_MOVE_TEXT`).
pub const MAX_MOVE_TEXT: usize = 64;

/// What the grammar allows where a text leaves it ([`MoveTextError::Unexpected`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expected {
    /// At the start: the field of the chevron that moves (`pass` is read whole before).
    Origin,
    /// After the origin: `-` or `x` (a step or a pincer), or a reorientation's turn.
    Separator,
    /// A field: a step's target, its marker's or meeting's field, a field given up.
    Field,
    /// After a step's target: the end, or what may still follow in the grammar's order.
    StepEnd,
    /// After a reorientation's turn: the bracket before the fields given up.
    OpenBracket,
    /// After a field given up: `,` and another, or the closing bracket.
    CommaOrClose,
    /// After a reorientation's closing bracket: nothing.
    End,
}

impl Expected {
    /// The words of `pacru.Move.parse`'s `NotationError` for what comes here.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            Expected::Origin => "a field (a1 to i9)",
            Expected::Separator => "'-', 'x' or a turn ('<', '<<', '>', '>>')",
            Expected::Field => "a field (a1 to i9)",
            Expected::StepEnd => {
                "the end, or a twist ('<', '>'), '*', '+' and a field, '@' and a field, \
                 each at most once and in this order"
            }
            Expected::OpenBracket => "'(' and the fields given up",
            Expected::CommaOrClose => "',' and a field, or ')'",
            Expected::End => "the end",
        }
    }
}

/// Why a text is no move, by kind (`pacru.errors.NotationError` in Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveTextError {
    /// More than [`MAX_MOVE_TEXT`] characters (counted before white space is stripped).
    TooLong(usize),
    /// A character outside ASCII once white space is stripped: no part of the grammar.
    NotAscii,
    /// The stripped, lower-cased text leaves the grammar at byte `at`, where `expected`
    /// would come.
    Unexpected { at: usize, expected: Expected },
    /// A step whose target is its origin: a move must leave its field.
    SameField(Field),
    /// A reorientation that names a field it gives up twice.
    RelinquishedTwice(Field),
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveTextError::TooLong(n) => {
                write!(f, "move text longer than {MAX_MOVE_TEXT} characters ({n})")
            }
            MoveTextError::NotAscii => f.write_str("not a move: a character outside ASCII"),
            MoveTextError::Unexpected { at, expected } => write!(
                f,
                "not a move: {} expected at character {at}",
                expected.words()
            ),
            MoveTextError::SameField(field) => {
                write!(f, "{field}-{field}: a move must leave its field")
            }
            MoveTextError::RelinquishedTwice(field) => {
                write!(f, "a relinquished field is named twice: {field}")
            }
        }
    }
}

impl std::error::Error for MoveTextError {}

/// Whether Python's `str.isspace` holds for `c`: what `str.strip` removes. Rust's
/// `char::is_whitespace` differs (it leaves out U+001C..U+001F, which Python strips).
pub fn is_python_space(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | '\u{1c}'..='\u{20}'
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// The field of the lower-case name `file rank` (`a1` .. `i9`), else None.
fn field_of(file: u8, rank: u8) -> Option<Field> {
    match (file, rank) {
        (b'a'..=b'i', b'1'..=b'9') => Field::new((rank - b'1') * 9 + (file - b'a')),
        _ => None,
    }
}

/// The field a name writes (`pacru.geometry.parse_field`): `a1` .. `i9`, case-insensitive,
/// with the white space `str.strip` removes around it; None for any other text.
pub fn field_from_name(text: &str) -> Option<Field> {
    match text.trim_matches(is_python_space).as_bytes() {
        &[file, rank] => field_of(file.to_ascii_lowercase(), rank),
        _ => None,
    }
}

/// A cursor over the lower-cased ASCII bytes of a move's text.
struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// Take `byte` when it comes next.
    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        self.at += usize::from(found);
        found
    }

    /// The text leaves the grammar here, where `expected` would come.
    fn unexpected(&self, expected: Expected) -> MoveTextError {
        MoveTextError::Unexpected {
            at: self.at,
            expected,
        }
    }

    /// A field name `a1` .. `i9`; `expected` names what the text lacks when none is here.
    fn field_or(&mut self, expected: Expected) -> Result<Field, MoveTextError> {
        let field = match self.text.get(self.at..self.at + 2) {
            Some(&[file, rank]) => field_of(file, rank),
            _ => None,
        };
        let field = field.ok_or_else(|| self.unexpected(expected))?;
        self.at += 2;
        Ok(field)
    }

    /// A field name `a1` .. `i9` inside the move.
    fn field(&mut self) -> Result<Field, MoveTextError> {
        self.field_or(Expected::Field)
    }

    /// `Ok` when the text ends here, else what should have come instead.
    fn end(&self, expected: Expected) -> Result<(), MoveTextError> {
        if self.at == self.text.len() {
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    /// The rest of a step after its origin and separator.
    fn step(&mut self, origin: Field, capture: bool) -> Result<Move, MoveTextError> {
        let target = self.field()?;
        let twist = if self.eat(b'<') {
            -1
        } else if self.eat(b'>') {
            1
        } else {
            0
        };
        let connection = self.eat(b'*');
        let marker = if self.eat(b'+') {
            Some(self.field()?)
        } else {
            None
        };
        let meeting = if self.eat(b'@') {
            Some(self.field()?)
        } else {
            None
        };
        self.end(Expected::StepEnd)?;
        if origin == target {
            return Err(MoveTextError::SameField(origin));
        }
        let step = StepMove {
            origin,
            target,
            twist,
            connection,
            marker,
            meeting,
        };
        Ok(if capture {
            Move::Pincer(step)
        } else {
            Move::Step(step)
        })
    }

    /// The rest of a reorientation after its origin: the turn, then the fields given up.
    fn reorientation(&mut self, origin: Field) -> Result<Move, MoveTextError> {
        let turn = match (self.peek(), self.text.get(self.at + 1)) {
            (Some(b'<'), Some(b'<')) => -2,
            (Some(b'<'), _) => -1,
            (Some(b'>'), Some(b'>')) => 2,
            (Some(b'>'), _) => 1,
            _ => return Err(self.unexpected(Expected::Separator)),
        };
        self.at += if turn == 2 || turn == -2 { 2 } else { 1 };
        if !self.eat(b'(') {
            return Err(self.unexpected(Expected::OpenBracket));
        }
        let mut relinquished = 0u128;
        let mut twice = None;
        loop {
            let field = self.field()?;
            if relinquished & field.bit() != 0 {
                twice = twice.or(Some(field));
            }
            relinquished |= field.bit();
            if !self.eat(b',') {
                break;
            }
        }
        if !self.eat(b')') {
            return Err(self.unexpected(Expected::CommaOrClose));
        }
        self.end(Expected::End)?;
        match twice {
            Some(field) => Err(MoveTextError::RelinquishedTwice(field)),
            None => Ok(Move::Reorientation {
                origin,
                turn,
                relinquished,
            }),
        }
    }
}

impl Move {
    /// The move `text` writes, as `pacru.Move.parse` reads it (see the module's grammar).
    /// This reads syntax only: whether the move is legal is the move list's question.
    ///
    /// # Errors
    /// [`MoveTextError::TooLong`] for more than [`MAX_MOVE_TEXT`] characters,
    /// [`MoveTextError::SameField`] for a step that does not leave its field,
    /// [`MoveTextError::RelinquishedTwice`] for a field given up twice,
    /// [`MoveTextError::NotAscii`] for a character outside ASCII, and
    /// [`MoveTextError::Unexpected`] for any other text outside the grammar.
    pub fn from_text(text: &str) -> Result<Move, MoveTextError> {
        let chars = text.chars().count();
        if chars > MAX_MOVE_TEXT {
            return Err(MoveTextError::TooLong(chars));
        }
        let trimmed = text.trim_matches(is_python_space);
        // Python lower-cases before matching; no character outside ASCII lower-cases into
        // the grammar's letters (U+212A, the Kelvin sign, becomes 'k'), so text with one is
        // no move.
        if !trimmed.is_ascii() {
            return Err(MoveTextError::NotAscii);
        }
        let lower = trimmed.to_ascii_lowercase();
        if lower == "pass" {
            return Ok(Move::Pass);
        }
        let mut reader = Reader {
            text: lower.as_bytes(),
            at: 0,
        };
        let origin = reader.field_or(Expected::Origin)?;
        if reader.eat(b'-') {
            reader.step(origin, false)
        } else if reader.eat(b'x') {
            reader.step(origin, true)
        } else {
            reader.reorientation(origin)
        }
    }
}

impl FromStr for Move {
    type Err = MoveTextError;

    fn from_str(text: &str) -> Result<Move, MoveTextError> {
        Move::from_text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Move, MoveTextError> {
        text.parse()
    }

    fn field(name: &str) -> Field {
        let mut reader = Reader {
            text: name.as_bytes(),
            at: 0,
        };
        reader.field().expect("a field name")
    }

    #[test]
    fn every_example_of_the_grammar_reads_back_as_written() {
        for text in [
            "e4-e5",
            "a3-b4>",
            "a3-b4<",
            "g9-e7*",
            "g9-e7+d9",
            "e3xe4+e6@i9",
            "e3-e4>*+e6@i9",
            "e3-e4@a1",
            "d9>>(c4,b5,a7,b7)",
            "e5<(a1,a2)",
            "e5<<(a1,a2,a3,a4)",
            "e5>(i9)",
            "pass",
        ] {
            let m = parse(text).expect(text);
            assert_eq!(m.to_string(), text);
        }
    }

    #[test]
    fn the_parts_are_those_the_text_names() {
        let m = parse("e3xe4+e6@i9").unwrap();
        assert!(m.capture());
        assert_eq!(m.origin(), Some(field("e3")));
        assert_eq!(m.target(), Some(field("e4")));
        assert_eq!(m.marker(), Some(field("e6")));
        assert_eq!(m.meeting(), Some(field("i9")));
        assert_eq!(m.origin().map(Field::get), Some(22));
        let m = parse("a3-b4>*").unwrap();
        assert_eq!((m.twist(), m.connection(), m.capture()), (1, true, false));
        let m = parse("d9<<(c4,b5,a7,b7)").unwrap();
        assert_eq!(m.turn(), -2);
        assert_eq!(
            m.relinquished(),
            field("c4").bit() | field("b5").bit() | field("a7").bit() | field("b7").bit()
        );
    }

    #[test]
    fn case_white_space_and_field_order_do_not_matter() {
        assert_eq!(parse("  E4-E5\n"), parse("e4-e5"));
        assert_eq!(parse("\u{1c}PASS\u{3000}"), Ok(Move::Pass));
        assert_eq!(parse("\u{a0}e3XE4+E6@I9\t"), parse("e3xe4+e6@i9"));
        assert_eq!(parse("d9>>(b7,a7,b5,c4)"), parse("d9>>(c4,b5,a7,b7)"));
        // Python strips U+001C..U+001F; U+200B (no white space to Python) is no move.
    }

    #[test]
    fn text_outside_the_grammar_says_where_it_leaves_it() {
        use Expected::{CommaOrClose, End, Field, OpenBracket, Origin, Separator, StepEnd};
        for (text, at, expected) in [
            ("", 0, Origin),
            (" ", 0, Origin),
            ("pas", 0, Origin),
            ("passs", 0, Origin),
            ("p ass", 0, Origin),
            ("e4", 2, Separator),
            ("e4-", 3, Field),
            ("e4-e", 3, Field),
            ("e4-e0", 3, Field),
            ("j4-e5", 0, Origin),
            ("e4 - e5", 2, Separator),
            ("e4-e5 >", 5, StepEnd),
            ("e4-e5><", 6, StepEnd),
            ("e4-e5**", 6, StepEnd),
            ("e4-e5@a1+a2", 8, StepEnd),
            ("e4-e5+", 6, Field),
            ("e4-e5@", 6, Field),
            ("e4+e5", 2, Separator),
            ("e4xx5", 3, Field),
            ("e5>>>(a1,a2)", 4, OpenBracket),
            ("e5><(a1,a2)", 3, OpenBracket),
            ("e5>()", 4, Field),
            ("e5>(a1,)", 7, Field),
            ("e5>(a1", 6, CommaOrClose),
            ("e5>a1", 3, OpenBracket),
            ("e5(a1)", 2, Separator),
            ("e5>(a1,a2))", 10, End),
            ("e5>(a1;a2)", 6, CommaOrClose),
            ("e5-e6(a1)", 5, StepEnd),
            ("e4-e5\u{0}", 5, StepEnd),
        ] {
            assert_eq!(
                parse(text),
                Err(MoveTextError::Unexpected { at, expected }),
                "{text:?}"
            );
        }
        for text in ["\u{212a}", "é4-e5", "\u{200b}pass"] {
            assert_eq!(parse(text), Err(MoveTextError::NotAscii), "{text:?}");
        }
    }

    #[test]
    fn a_move_must_leave_its_field_and_name_a_field_given_up_once() {
        assert_eq!(parse("e4-e4"), Err(MoveTextError::SameField(field("e4"))));
        assert_eq!(parse("E4xe4*"), Err(MoveTextError::SameField(field("e4"))));
        assert_eq!(
            parse("e5>(a1,b1,a1)"),
            Err(MoveTextError::RelinquishedTwice(field("a1")))
        );
        // A marker or meeting on the move's own fields is the list's question, not the text's.
        assert!(parse("e4-e5+e4@e5").is_ok());
    }

    #[test]
    fn longer_text_than_the_limit_is_refused_by_its_characters() {
        let padded = format!("e4-e5{}", " ".repeat(MAX_MOVE_TEXT - 5));
        assert!(parse(&padded).is_ok());
        let long = format!("{padded} ");
        assert_eq!(parse(&long), Err(MoveTextError::TooLong(MAX_MOVE_TEXT + 1)));
        // Characters, not bytes: 64 two-byte spaces are still 64 characters.
        let wide = format!("pass{}", "\u{a0}".repeat(MAX_MOVE_TEXT - 4));
        assert_eq!(parse(&wide), Ok(Move::Pass));
        assert!(MoveTextError::TooLong(65).to_string().contains("64"));
    }

    #[test]
    fn a_field_name_reads_as_python_reads_it() {
        assert_eq!(field_from_name(" E4\u{1c}").map(Field::get), Some(31));
        assert_eq!(field_from_name("i9").map(Field::get), Some(80));
        for text in ["e10", "j1", "e0", "e4-", "", "\u{212a}4"] {
            assert_eq!(field_from_name(text), None, "{text:?}");
        }
    }

    #[test]
    fn every_field_name_reads_as_its_field() {
        for n in 0..81u8 {
            let f = Field::new(n).unwrap();
            let other = Field::new((n + 1) % 81).unwrap();
            let text = format!("{f}-{other}");
            assert_eq!(parse(&text).unwrap().origin(), Some(f));
        }
    }
}
