//! The options of an LSD game as lookup tables {LSD 2.5, 3.1, 3.2}, as `pacru.lsd.rules`
//! builds them: per seat the tile kinds, their starting counts, the orientations each kind
//! may be placed in, and which dot masks fit which neighbourhood.
//!
//! The tile set itself (its text, its normalisation) stays in Python: a [`Rules`] is made
//! from the kinds and counts `LsdRules` derived, so both engines index the same kinds in
//! the same order.

use std::fmt;

/// Dots on N, E, S, W: bits 0-3 of a face.
pub const DOT_BITS: u8 = 0x0F;
/// Set for an `x` icon.
pub const SHAPE_BIT: u8 = 0x10;
/// Set for a white icon.
pub const SHADE_BIT: u8 = 0x20;
/// The bits two captors must agree on (RULING 12).
pub const ICON_BITS: u8 = SHAPE_BIT | SHADE_BIT;
/// The 6 bits of a face.
pub const FACE_BITS: u8 = 0x3F;
/// A field entry is `face | seat << OWNER_SHIFT`.
pub const OWNER_SHIFT: u8 = 6;
/// Cells are `(x + CELL_OFFSET) * CELL_STRIDE + (y + CELL_OFFSET)`, as in `pacru.lsd.tiles`.
pub const CELL_STRIDE: i32 = 1 << 12;
/// See [`CELL_STRIDE`].
pub const CELL_OFFSET: i32 = CELL_STRIDE / 2;
/// The largest coordinate a cell may have (either sign).
pub const MAX_COORD: i32 = CELL_OFFSET - 1;
/// The cell of `(0, 0)`, where the first tile goes (RULING 20).
pub const ORIGIN: i32 = CELL_OFFSET * CELL_STRIDE + CELL_OFFSET;
/// Cell-code offset of the neighbour across side N, E, S, W {LSD 2.1}.
pub const STEP: [i32; 4] = [1, CELL_STRIDE, -1, -CELL_STRIDE];
/// At most this many tiles in play (all tile sets together), as `pacru.lsd.tiles.MAX_TILES`.
pub const MAX_TILES: u32 = 2000;

/// The code of cell `(x, y)` (coordinates within `±MAX_COORD`).
pub fn encode_cell(x: i32, y: i32) -> i32 {
    (x + CELL_OFFSET) * CELL_STRIDE + y + CELL_OFFSET
}

/// The `(x, y)` of a cell code.
pub fn decode_cell(cell: i32) -> (i32, i32) {
    (
        cell.div_euclid(CELL_STRIDE) - CELL_OFFSET,
        cell.rem_euclid(CELL_STRIDE) - CELL_OFFSET,
    )
}

/// The dot mask `mask` turned `k` quarter turns clockwise (N's dot goes to E, RULING 4).
pub fn rotate(k: u32, mask: u8) -> u8 {
    let m = mask & DOT_BITS;
    let k = k % 4;
    ((m << k) | (m >> ((4 - k) % 4))) & DOT_BITS
}

/// The order of LSD 3.1's listing: the `(N, E, S, W)` booleans read as a number.
fn display_key(mask: u8) -> u8 {
    (0..4)
        .filter(|s| mask >> s & 1 == 1)
        .map(|s| 8u8 >> s)
        .sum()
}

/// The rotation of `mask` printed first in LSD 3.1 (`N`, `NE`, `NS`, `NES`, `NESW`).
pub fn canonical(mask: u8) -> u8 {
    (0..4)
        .map(|k| rotate(k, mask))
        .max_by_key(|&m| display_key(m))
        .unwrap_or(mask)
}

/// `fit[need | forbid << 4]`: the 16-bit set of dot masks a new tile may show.
///
/// `need` marks sides facing a neighbour's half dot, `forbid` sides facing a neighbour's
/// empty side {LSD 2.2}. A mask fits when it covers `need` (no empty side against a dot),
/// shares nothing with `forbid` when strict (RULING 5), and `need` is not empty (at least
/// one whole dot). An empty side may face an empty side (RULING 6) and a half dot an empty
/// cell (RULING 7).
fn fit_table(strict: bool) -> [u16; 256] {
    let mut table = [0u16; 256];
    for (code, slot) in (0u16..).zip(table.iter_mut()) {
        let need = code & 0x0F;
        let forbid = code >> 4;
        if need != 0 && need & forbid == 0 {
            for mask in 0..16u16 {
                if mask & need == need && !(strict && mask & forbid != 0) {
                    *slot |= 1 << mask;
                }
            }
        }
    }
    table
}

/// Why a set of tables is refused by [`Rules::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesError {
    /// Not 2, 3 or 4 players (LSD 1.3), or not one count list per player.
    Players(usize),
    /// A row length below 2.
    RowLength(u32),
    /// A seat without kinds, or a kind without its count.
    Kinds,
    /// Kinds that are not distinct 6-bit faces in ascending order.
    KindOrder,
    /// A kind counted zero times.
    ZeroCount,
    /// More than [`MAX_TILES`] tiles in play.
    TooManyTiles,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Players(n) => {
                write!(f, "LSD is played by 2, 3 or 4 players (LSD 1.3), not {n}")
            }
            RulesError::RowLength(n) => write!(f, "row_length is at least 2, not {n}"),
            RulesError::Kinds => f.write_str("each seat has kinds, each with a count"),
            RulesError::KindOrder => f.write_str("kinds are distinct 6-bit faces, ascending"),
            RulesError::ZeroCount => f.write_str("a kind's count is at least 1"),
            RulesError::TooManyTiles => write!(f, "at most {MAX_TILES} tiles in play"),
        }
    }
}

impl std::error::Error for RulesError {}

/// One validated set of LSD options and the tables the engine indexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    players: usize,
    kinds: Vec<Vec<u8>>,
    initial: Vec<Vec<u16>>,
    allow_rotation: bool,
    strict: bool,
    row_length: u32,
    /// Per seat and kind: the distinct `(dot mask, face)` orientations, masks ascending.
    orients: Vec<Vec<Vec<(u8, u8)>>>,
    /// Per seat and kind: the 16-bit set of its orientations' dot masks.
    reach: Vec<Vec<u16>>,
    /// Per seat: face -> kind index, or -1 for a face no kind can show.
    kind_of: Vec<[i16; 64]>,
    fit: [u16; 256],
    /// Per seat: where its kinds start in a flat supply (see `Position`).
    offsets: Vec<usize>,
}

impl Rules {
    /// The tables of `LsdRules` with these per-seat kinds (faces ascending, as
    /// `LsdRules.kinds`) and starting counts (`LsdRules.initial`).
    ///
    /// # Errors
    /// A player count outside 2-4 (LSD 1.3), kinds that are not ascending distinct faces,
    /// counts not matching the kinds or zero, more than [`MAX_TILES`] tiles in all, or a
    /// row length below 2.
    pub fn new(
        kinds: Vec<Vec<u8>>,
        initial: Vec<Vec<u16>>,
        allow_rotation: bool,
        strict: bool,
        row_length: u32,
    ) -> Result<Rules, RulesError> {
        let players = kinds.len();
        if !(2..=4).contains(&players) || initial.len() != players {
            return Err(RulesError::Players(players));
        }
        if row_length < 2 {
            return Err(RulesError::RowLength(row_length));
        }
        let mut total = 0u32;
        for (faces, counts) in kinds.iter().zip(&initial) {
            if faces.is_empty() || faces.len() != counts.len() {
                return Err(RulesError::Kinds);
            }
            if faces.windows(2).any(|w| w[0] >= w[1]) || faces.iter().any(|&f| f > FACE_BITS) {
                return Err(RulesError::KindOrder);
            }
            if counts.contains(&0) {
                return Err(RulesError::ZeroCount);
            }
            total += counts.iter().map(|&c| u32::from(c)).sum::<u32>();
        }
        if total > MAX_TILES {
            return Err(RulesError::TooManyTiles);
        }
        let mut orients = Vec::with_capacity(players);
        let mut reach = Vec::with_capacity(players);
        let mut kind_of = Vec::with_capacity(players);
        let mut offsets = Vec::with_capacity(players);
        let mut offset = 0;
        for faces in &kinds {
            let mut seat_orients = Vec::with_capacity(faces.len());
            let mut seat_reach = Vec::with_capacity(faces.len());
            let mut seat_kind_of = [-1i16; 64];
            for (index, &face) in (0i16..).zip(faces.iter()) {
                let turns = if allow_rotation { 4 } else { 1 };
                let mut masks: Vec<u8> = (0..turns).map(|k| rotate(k, face)).collect();
                masks.sort_unstable();
                masks.dedup();
                let kind: Vec<(u8, u8)> =
                    masks.iter().map(|&m| (m, face & ICON_BITS | m)).collect();
                for &(_, f) in &kind {
                    seat_kind_of[usize::from(f)] = index;
                }
                seat_reach.push(masks.iter().fold(0u16, |r, &m| r | 1 << m));
                seat_orients.push(kind);
            }
            orients.push(seat_orients);
            reach.push(seat_reach);
            kind_of.push(seat_kind_of);
            offsets.push(offset);
            offset += faces.len();
        }
        Ok(Rules {
            players,
            kinds,
            initial,
            allow_rotation,
            strict,
            row_length,
            orients,
            reach,
            kind_of,
            fit: fit_table(strict),
            offsets,
        })
    }

    /// The number of players (seats 0..players).
    pub fn players(&self) -> usize {
        self.players
    }

    /// Seat `seat`'s kinds: faces in their supply orientation, ascending.
    pub fn kinds(&self, seat: usize) -> &[u8] {
        &self.kinds[seat]
    }

    /// Seat `seat`'s starting count of each kind.
    pub fn initial(&self, seat: usize) -> &[u16] {
        &self.initial[seat]
    }

    /// Whether tiles may be turned before placing (RULING 4).
    pub fn allow_rotation(&self) -> bool {
        self.allow_rotation
    }

    /// Whether a new half dot may not face an old empty side (RULING 5).
    pub fn strict_dot_matching(&self) -> bool {
        self.strict
    }

    /// Own tiles in a straight line that win (LSD 1.7, RULING 16).
    pub fn row_length(&self) -> u32 {
        self.row_length
    }

    /// The kind of `seat` that shows `face` on the field, if any.
    pub fn kind_of(&self, seat: usize, face: u8) -> Option<usize> {
        let kind = *self.kind_of[seat].get(usize::from(face))?;
        usize::try_from(kind).ok()
    }

    /// The kind of `seat` that `face` is a rotation of, even if rotation is off.
    pub fn rotation_of(&self, seat: usize, face: u8) -> Option<usize> {
        let want = face & ICON_BITS | canonical(face & DOT_BITS);
        self.kinds[seat]
            .iter()
            .position(|&k| k & ICON_BITS | canonical(k & DOT_BITS) == want)
    }

    /// The dot masks that fit a cell with constraint `code` (`need | forbid << 4`).
    pub fn fit(&self, code: u8) -> u16 {
        self.fit[usize::from(code)]
    }

    pub(crate) fn reach(&self, seat: usize) -> &[u16] {
        &self.reach[seat]
    }

    pub(crate) fn orients(&self, seat: usize, kind: usize) -> &[(u8, u8)] {
        &self.orients[seat][kind]
    }

    /// Where seat `seat`'s kinds start in a flat per-kind count vector.
    pub fn offset(&self, seat: usize) -> usize {
        self.offsets[seat]
    }

    /// The length of a flat per-kind count vector (every seat's kinds).
    pub fn flat_len(&self) -> usize {
        self.kinds.iter().map(Vec::len).sum()
    }

    /// Tiles of every tile set together.
    pub fn total_tiles(&self) -> u32 {
        self.initial.iter().flatten().map(|&c| u32::from(c)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_rotations_follow_the_listing_of_lsd_3_1() {
        // N=1, E=2, S=4, W=8: "NE" is the first of the adjacent pairs, "NES" of the triples.
        assert_eq!(canonical(0b0100), 0b0001);
        assert_eq!(canonical(0b1100), 0b0011);
        assert_eq!(canonical(0b1010), 0b0101);
        assert_eq!(canonical(0b1101), 0b0111);
        assert_eq!(rotate(1, 0b0001), 0b0010);
        assert_eq!(rotate(3, 0b0001), 0b1000);
    }

    #[test]
    fn fit_needs_a_whole_dot_and_refuses_dots_against_empty_sides_when_strict() {
        let strict = fit_table(true);
        let loose = fit_table(false);
        // Need N, forbid E: masks with N and without E (strict, RULING 5).
        let code = 0b0001 | 0b0010 << 4;
        assert_eq!(
            strict[code],
            (1 << 0b0001) | (1 << 0b0101) | (1 << 0b1001) | (1 << 0b1101)
        );
        assert_eq!(loose[code].count_ones(), 8);
        // Nothing needed: no placement makes a whole dot (LSD 2.2.3).
        assert_eq!(strict[0b0010 << 4], 0);
    }

    #[test]
    fn rules_refuse_bad_tables() {
        let kinds = vec![vec![1u8, 3], vec![33, 35]];
        let counts = vec![vec![2u16, 2], vec![2, 2]];
        assert!(Rules::new(kinds.clone(), counts.clone(), true, true, 4).is_ok());
        assert!(Rules::new(vec![vec![1]], vec![vec![2]], true, true, 4).is_err());
        assert!(Rules::new(
            vec![vec![3, 1], vec![1]],
            vec![vec![1, 1], vec![1]],
            true,
            true,
            4
        )
        .is_err());
        assert!(Rules::new(kinds.clone(), counts.clone(), true, true, 1).is_err());
        assert!(Rules::new(kinds, vec![vec![2, 0], vec![2, 2]], true, true, 4).is_err());
    }
}
