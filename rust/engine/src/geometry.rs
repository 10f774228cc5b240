//! Board geometry shared by the four chevron games {G1..G6}.
//!
//! A field is an index 0..80 (`a1 = 0`, row-major from rank 1); a direction (and a
//! chevron's facing) is 0..7, N, NE, E, SE, S, SW, W, NW, clockwise {G3}; a borderland is
//! 0..8, `(rank0 / 3) * 3 + file0 / 3` {G2}; a bitboard is a `u128` whose bit `f` stands
//! for field `f`. Every table is built at compile time (`const fn`): move generation only
//! indexes them {G5}.

/// Bitboard with all 81 bits set.
pub const FULL: u128 = (1u128 << 81) - 1;

// The conversions of the compile-time table builders below (`TryFrom` is not `const`): a
// value out of range stops the build, as every table is evaluated by the compiler.

/// `v` (below 256) as a `u8`.
#[allow(clippy::cast_possible_truncation)] // the assert bounds it
const fn byte(v: usize) -> u8 {
    assert!(v < 256);
    v as u8
}

/// `v` (below 128) as an `i8`.
#[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)] // the assert bounds it
const fn signed(v: usize) -> i8 {
    assert!(v < 128);
    v as i8
}

/// `v` (not negative) as an index.
#[allow(clippy::cast_sign_loss)] // the assert bounds it
const fn index(v: i8) -> usize {
    assert!(v >= 0);
    v as usize
}

/// Per direction, the column and row steps plus one (0, 1 or 2): unsigned arithmetic.
const DX1: [usize; 8] = [1, 2, 2, 2, 1, 0, 0, 0];
const DY1: [usize; 8] = [2, 2, 1, 0, 0, 0, 1, 2];

const fn step(field: usize, direction: usize) -> i8 {
    // The neighbour's column and row plus one: 1..=9 on the board, 0 or 10 off it.
    let x = field % 9 + DX1[direction];
    let y = field / 9 + DY1[direction];
    if x >= 1 && x <= 9 && y >= 1 && y <= 9 {
        signed((y - 1) * 9 + (x - 1))
    } else {
        -1
    }
}

const fn build_neighbour() -> [[i8; 8]; 81] {
    let mut out = [[-1i8; 8]; 81];
    let mut f = 0;
    while f < 81 {
        let mut d = 0;
        while d < 8 {
            out[f][d] = step(f, d);
            d += 1;
        }
        f += 1;
    }
    out
}

/// `NEIGHBOUR[field][direction]`: the adjacent field that way, or -1 off the board {G5}.
pub static NEIGHBOUR: [[i8; 8]; 81] = build_neighbour();

const fn build_rays() -> ([[[u8; 8]; 8]; 81], [[u8; 8]; 81]) {
    let nb = build_neighbour();
    let mut rays = [[[0u8; 8]; 8]; 81];
    let mut lens = [[0u8; 8]; 81];
    let mut f = 0;
    while f < 81 {
        let mut d = 0;
        while d < 8 {
            let mut k = 0;
            let mut t = nb[f][d];
            while t >= 0 {
                rays[f][d][k] = byte(index(t));
                k += 1;
                t = nb[index(t)][d];
            }
            lens[f][d] = byte(k);
            d += 1;
        }
        f += 1;
    }
    (rays, lens)
}

const RAYS_AND_LENS: ([[[u8; 8]; 8]; 81], [[u8; 8]; 81]) = build_rays();
/// `RAY[field][direction][k]`: the fields from `field` to the edge, nearest first {G5};
/// `RAY_LEN[field][direction]` of them.
pub static RAY: [[[u8; 8]; 8]; 81] = RAYS_AND_LENS.0;
/// The number of fields of each [`RAY`].
pub static RAY_LEN: [[u8; 8]; 81] = RAYS_AND_LENS.1;

/// The borderland (0..8) of a field {G2}.
pub const fn borderland(field: usize) -> usize {
    (field / 27) * 3 + (field % 9) / 3
}

const fn build_borderland() -> [u8; 81] {
    let mut out = [0u8; 81];
    let mut f = 0;
    while f < 81 {
        out[f] = byte(borderland(f));
        f += 1;
    }
    out
}

/// `BORDERLAND[field]`: its borderland 0..8 {G2}.
pub static BORDERLAND: [u8; 81] = build_borderland();

/// [`BORDERLAND`] over every byte (9, no borderland, from 81 on): indexed by a `u8`
/// field it needs no bounds check, twice per step listed.
static LAND_BYTE: [u8; 256] = {
    let mut out = [9u8; 256];
    let mut f = 0;
    while f < 81 {
        out[f] = BORDERLAND[f];
        f += 1;
    }
    out
};

/// The borderland (0..8) of `field`, 9 for a number beyond the board {G2}.
#[inline(always)]
pub fn land_of(field: u8) -> u8 {
    LAND_BYTE[usize::from(field)]
}

const fn build_land_mask() -> [u128; 9] {
    let mut out = [0u128; 9];
    let mut f = 0;
    while f < 81 {
        out[borderland(f)] |= 1u128 << f;
        f += 1;
    }
    out
}

/// `LAND_MASK[borderland]`: the bitboard of its nine fields {G2}.
pub static LAND_MASK: [u128; 9] = build_land_mask();

const fn build_land_of() -> [u128; 81] {
    let masks = build_land_mask();
    let mut out = [0u128; 81];
    let mut f = 0;
    while f < 81 {
        out[f] = masks[borderland(f)];
        f += 1;
    }
    out
}

/// `LAND_OF[field]`: the bitboard of the field's own borderland {G2}.
pub static LAND_OF: [u128; 81] = build_land_of();

const fn build_lines() -> ([[u8; 81]; 81], [[u128; 81]; 81]) {
    let (rays, lens) = build_rays();
    let mut line = [[0u8; 81]; 81];
    let mut between = [[0u128; 81]; 81];
    let mut f = 0;
    while f < 81 {
        let mut d = 0;
        while d < 8 {
            let mut mask = 0u128;
            let mut k = 0;
            while k < lens[f][d] as usize {
                let t = rays[f][d][k] as usize;
                line[f][t] = (byte(d) << 4) | byte(k + 1);
                between[f][t] = mask;
                mask |= 1u128 << t;
                k += 1;
            }
            d += 1;
        }
        f += 1;
    }
    (line, between)
}

const LINES: ([[u8; 81]; 81], [[u128; 81]; 81]) = build_lines();
/// `LINE[origin][target]`: `direction << 4 | distance` when the two fields lie on one
/// straight line, 0 otherwise.
static LINE: [[u8; 81]; 81] = LINES.0;
/// `BETWEEN[origin][target]`: the bitboard of the fields strictly between them on their
/// line (0 off a line).
pub static BETWEEN: [[u128; 81]; 81] = LINES.1;

/// (direction, distance) from `origin` to `target` when they lie on one straight line.
pub fn line(origin: u8, target: u8) -> Option<(u8, u8)> {
    let v = *LINE.get(origin as usize)?.get(target as usize)?;
    (v != 0).then_some((v >> 4, v & 15))
}

const fn build_forward_mask() -> [u128; 648] {
    let nb = build_neighbour();
    let mut out = [0u128; 648];
    let mut code = 0;
    while code < 648 {
        let f = code >> 3;
        let facing = code & 7;
        let mut j = 0;
        while j < 3 {
            let d = (facing + 7 + j) % 8;
            let t = nb[f][d];
            if t >= 0 {
                out[code] |= 1u128 << t;
            }
            j += 1;
        }
        code += 1;
    }
    out
}

/// `FORWARD_MASK[field * 8 + facing]`: the bitboard of the chevron's forward neighbours on
/// the board (left 45 degrees, straight, right 45 degrees) {G4}; the masks of the D33
/// end test.
pub static FORWARD_MASK: [u128; 648] = build_forward_mask();

/// The three forward directions of a facing, in list order: left, straight, right {G4}.
#[inline]
pub fn forward(facing: u8) -> [u8; 3] {
    let f = facing & 7;
    [(f + 7) & 7, f, (f + 1) & 7]
}

/// A board as its low and high 64 bits.
#[inline(always)]
pub fn halves(board: u128) -> [u64; 2] {
    // Both conversions always succeed (the mask and the shift leave 64 bits): no branch.
    [
        u64::try_from(board & u128::from(u64::MAX)).unwrap_or(0),
        u64::try_from(board >> 64).unwrap_or(0),
    ]
}

/// A bit index (at most 128: a `trailing_zeros`) as a field number; no field is 128.
#[inline(always)]
fn bit_field(index: u32) -> u8 {
    u8::try_from(index).unwrap_or(u8::MAX)
}

/// The lowest set field of `board` (128, off the board, when it is empty).
#[inline]
pub fn lowest_field(board: u128) -> u8 {
    bit_field(board.trailing_zeros())
}

/// The field of the chevron code `field * 8 + facing` (off the board, at least 81, for
/// a code of 648 or more).
#[inline]
pub fn code_field(code: u16) -> u8 {
    u8::try_from(code >> 3).unwrap_or(u8::MAX)
}

/// The number of fields of `board` (at most 128), as the signed supply arithmetic of
/// Pacru counts them {R16b}.
#[inline]
pub fn field_count(board: u128) -> i32 {
    i32::try_from(board.count_ones()).unwrap_or(i32::MAX)
}

/// The set fields of a bitboard, ascending.
#[inline]
pub fn bits(board: u128) -> Bits {
    let [low, high] = halves(board);
    Bits { low, high }
}

/// Iterator over the set bits of a bitboard, ascending: its low 64 bits, then its high
/// ones (a step on a 64-bit word is half the operations of one on 128 bits).
#[derive(Clone, Copy, Debug)]
pub struct Bits {
    low: u64,
    high: u64,
}

impl Iterator for Bits {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.low != 0 {
            let f = bit_field(self.low.trailing_zeros());
            self.low &= self.low - 1;
            return Some(f);
        }
        if self.high != 0 {
            let f = bit_field(self.high.trailing_zeros()) + 64;
            self.high &= self.high - 1;
            return Some(f);
        }
        None
    }
}

/// The number of fields of a board known to hold few (a borderland's at most): one step
/// per field. Cheaper than `count_ones`, which the baseline x86-64 target (no `popcnt`)
/// computes with a dozen operations per 64-bit half whatever the count. Half by half: a
/// step on a 64-bit word is half the operations of one on 128 bits.
#[inline]
pub fn count_few(board: u128) -> u32 {
    let [mut low, mut high] = halves(board);
    let mut n = 0;
    while low != 0 {
        low &= low - 1;
        n += 1;
    }
    while high != 0 {
        high &= high - 1;
        n += 1;
    }
    n
}

/// The `n`-th set bit of `mask` (from 0, ascending), if it has that many.
#[inline]
pub fn nth_field(mut mask: u128, n: u32) -> Option<u8> {
    for _ in 0..n {
        if mask == 0 {
            return None;
        }
        mask &= mask - 1;
    }
    (mask != 0).then(|| lowest_field(mask))
}

/// Field names `a1` .. `i9`, indexed by field.
pub fn field_name(field: u8) -> String {
    let f = field % 81;
    format!("{}{}", (b'a' + f % 9) as char, f / 9 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// {G2}, {G5}: e5 is field 40, in the middle borderland; its north ray reaches e9.
    #[test]
    fn tables() {
        assert_eq!(borderland(40), 4);
        assert_eq!(BORDERLAND[80], 8);
        assert!((0..81u8).all(|f| usize::from(land_of(f)) == borderland(usize::from(f))));
        assert_eq!(land_of(81), 9);
        assert_eq!(land_of(255), 9);
        assert_eq!(LAND_MASK.iter().map(|m| m.count_ones()).sum::<u32>(), 81);
        assert_eq!(NEIGHBOUR[0][5], -1);
        assert_eq!(NEIGHBOUR[0][1], 10);
        assert_eq!(RAY_LEN[40][0], 4);
        assert_eq!(&RAY[40][0][..4], &[49, 58, 67, 76]);
        assert_eq!(line(40, 76), Some((0, 4)));
        assert_eq!(line(40, 77), None);
        assert_eq!(BETWEEN[40][76], (1 << 49) | (1 << 58) | (1 << 67));
        assert_eq!(FORWARD_MASK[4 * 8], (1 << 12) | (1 << 13) | (1 << 14));
        assert_eq!(field_name(40), "e5");
        assert_eq!(nth_field(0b1010_0000, 1), Some(7));
        assert_eq!(nth_field(0b1010_0000, 2), None);
        assert_eq!(count_few(0), 0);
        assert_eq!(count_few(LAND_MASK[4] | 1 << 80), 10);
    }
}
