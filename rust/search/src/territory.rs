//! Lilacru and Shacru territory: which neutral fields each player reaches first.
//!
//! A chevron moves one field forward or 45 degrees aside and then faces the way it moved
//! {S-R3, L4}; it may enter neutral fields and its own colour, never another player's
//! colour or a field with a chevron {S-R5, L6}; a Shacru border crossing may end with a
//! 45-degree twist {S-R4}. So where a chevron can go is a breadth-first search over
//! (field, facing) states, one bitboard per facing, all chevrons of a player at once.
//! [`territory`] runs the players' searches in lockstep, one step per layer: a neutral
//! field reached first by one player is counted as that player's and closed to the
//! others (it will carry that player's marker); one reached by several players in the
//! same layer is contested and counted for nobody. The same layers give each player's
//! distance to the nearest neutral field it can reach.

use pacru_engine::geometry::FULL;
use pacru_engine::{Position, Rules};

/// The layers searched at most (the longest useful path on 81 fields is far shorter).
const MAX_LAYERS: u32 = 48;

const fn build_masks() -> ([u128; 8], [u128; 8]) {
    const DX: [i32; 8] = [0, 1, 1, 1, 0, -1, -1, -1];
    const DY: [i32; 8] = [1, 1, 0, -1, -1, -1, 0, 1];
    let mut src = [0u128; 8];
    let mut cross = [0u128; 8];
    let mut d = 0;
    while d < 8 {
        let mut f: i32 = 0;
        while f < 81 {
            let (x, y) = (f % 9, f / 9);
            let (nx, ny) = (x + DX[d], y + DY[d]);
            if nx >= 0 && nx < 9 && ny >= 0 && ny < 9 {
                src[d] |= 1 << f;
                if nx / 3 != x / 3 || ny / 3 != y / 3 {
                    cross[d] |= 1 << f;
                }
            }
            f += 1;
        }
        d += 1;
    }
    (src, cross)
}

/// Per direction (N, NE, ... clockwise): the fields with a neighbour that way, and those
/// whose step that way crosses a border {G6}.
const MASKS: ([u128; 8], [u128; 8]) = build_masks();

/// `board` (fields with a neighbour in `direction`) moved one field that way.
#[inline]
fn shift(board: u128, direction: usize) -> u128 {
    match direction {
        0 => board << 9,
        1 => board << 10,
        2 => board << 1,
        3 => board >> 8,
        4 => board >> 9,
        5 => board >> 10,
        6 => board >> 1,
        _ => board << 8,
    }
}

/// One layer of a player's search: the states one step on from `frontier` (per facing)
/// onto `open` fields, less those already `seen`; marks them seen.
fn expand(frontier: &[u128; 8], open: u128, twist: bool, seen: &mut [u128; 8]) -> [u128; 8] {
    let (src, cross) = &MASKS;
    let mut next = [0u128; 8];
    for d in 0..8 {
        // The chevrons facing d or 45 degrees either side may step in direction d {G4}.
        let from = frontier[(d + 7) & 7] | frontier[d] | frontier[(d + 1) & 7];
        if from == 0 {
            continue;
        }
        next[d] |= shift(from & src[d], d) & open;
        if twist {
            let turned = shift(from & cross[d], d) & open;
            next[(d + 1) & 7] |= turned;
            next[(d + 7) & 7] |= turned;
        }
    }
    for (n, s) in next.iter_mut().zip(seen.iter_mut()) {
        *n &= !*s;
        *s |= *n;
    }
    next
}

/// Per seat: (neutral fields it reaches strictly first, the steps to the nearest neutral
/// field it reaches at all or None). Zero for Pacru and Azacru, and for a seat without
/// chevrons.
pub fn territory(rules: &Rules, pos: &Position) -> [(u32, Option<u32>); 4] {
    let mut out = [(0u32, None); 4];
    if !rules.lookahead_end() {
        return out;
    }
    let n = usize::from(pos.players.clamp(2, 4));
    let twist = rules.twist();
    let occupied = pos.occupied();
    let mut neutral = FULL & !pos.marked() & !occupied;
    let mut open = [0u128; 4];
    let mut frontier = [[0u128; 8]; 4];
    let mut seen = [[0u128; 8]; 4];
    for seat in 0..n {
        open[seat] = (pos.markers[seat] & !occupied) | neutral;
        for code in pos.chevrons[seat].iter() {
            frontier[seat][usize::from(code & 7)] |= 1u128 << (code >> 3);
        }
        seen[seat] = frontier[seat];
    }
    for layer in 1..=MAX_LAYERS {
        let mut gained = [0u128; 4];
        let mut moving = false;
        for seat in 0..n {
            frontier[seat] = expand(&frontier[seat], open[seat], twist, &mut seen[seat]);
            let reached = frontier[seat].iter().fold(0u128, |a, &b| a | b);
            moving |= reached != 0;
            gained[seat] = reached & neutral;
            if gained[seat] != 0 && out[seat].1.is_none() {
                out[seat].1 = Some(layer);
            }
        }
        if !moving {
            break;
        }
        for seat in 0..n {
            let others = (0..n)
                .filter(|&o| o != seat)
                .fold(0u128, |a, o| a | gained[o]);
            let mine = gained[seat] & !others;
            out[seat].0 += mine.count_ones();
            for (o, field) in open.iter_mut().enumerate().take(n) {
                if o != seat {
                    *field &= !mine;
                }
            }
            neutral &= !gained[seat];
        }
        if neutral == 0 {
            break;
        }
    }
    out
}
