//! The field's cells: sorted `(cell, value)` vectors, the constraint of an empty cell,
//! the captures a placement makes and the rows through a cell.

use crate::rules::{CELL_STRIDE, ICON_BITS, OWNER_SHIFT, SHADE_BIT, SHAPE_BIT, STEP};

pub(super) fn get(cells: &[(i32, u8)], cell: i32) -> Option<u8> {
    cells
        .binary_search_by_key(&cell, |e| e.0)
        .ok()
        .map(|i| cells[i].1)
}

pub(super) fn set(cells: &mut Vec<(i32, u8)>, cell: i32, value: u8) {
    match cells.binary_search_by_key(&cell, |e| e.0) {
        Ok(i) => cells[i].1 = value,
        Err(i) => cells.insert(i, (cell, value)),
    }
}

pub(super) fn remove(cells: &mut Vec<(i32, u8)>, cell: i32) -> Option<u8> {
    let i = cells.binary_search_by_key(&cell, |e| e.0).ok()?;
    Some(cells.remove(i).1)
}

/// For each diagonal: the offset of the corner partner and the two cells orthogonally
/// adjacent to both tiles, the possible victims {LSD 2.3, RULING 10}.
const DIAGONALS: [(i32, i32, i32); 4] = [
    (STEP[0] + STEP[1], STEP[0], STEP[1]),
    (STEP[2] + STEP[1], STEP[2], STEP[1]),
    (STEP[2] + STEP[3], STEP[2], STEP[3]),
    (STEP[0] + STEP[3], STEP[0], STEP[3]),
];

/// `need | forbid << 4` of an empty cell (see the module docs).
pub(super) fn constraint(field: &[(i32, u8)], cell: i32) -> u8 {
    let mut need = 0u8;
    let mut forbid = 0u8;
    for (side, step) in STEP.iter().enumerate() {
        // Wrapping: a cell given from outside may lie anywhere; no tile lies beyond the range.
        if let Some(tile) = get(field, cell.wrapping_add(*step)) {
            // The neighbour's side facing back is the opposite one.
            if tile >> ((side + 2) % 4) & 1 == 1 {
                need |= 1 << side;
            } else {
                forbid |= 1 << side;
            }
        }
    }
    need | forbid << 4
}

/// The cells captured by placing `face` on `cell` {LSD 1.6, 2.3}: only the placed tile is
/// a captor (RULING 8); the partner matches its shape and shade (RULING 12) and may be
/// anyone's (RULING 14); a victim is any tile of the other shade (RULING 13); all are
/// found before any is removed (RULING 9). `+`: exactly distance 2 (RULING 11); `x`: each
/// diagonal partner takes both cells next to the two of them, each on its own (RULING 10).
pub(super) fn captures(field: &[(i32, u8)], cell: i32, face: u8) -> ([i32; 4], usize) {
    let icon = face & ICON_BITS;
    let shade = face & SHADE_BIT;
    let mut victims = [0i32; 4];
    let mut n = 0;
    if face & SHAPE_BIT != 0 {
        for (diagonal, first, second) in DIAGONALS {
            match get(field, cell + diagonal) {
                Some(partner) if partner & ICON_BITS == icon => {}
                _ => continue,
            }
            for offset in [first, second] {
                let victim = cell + offset;
                if let Some(tile) = get(field, victim) {
                    if tile & SHADE_BIT != shade && !victims[..n].contains(&victim) && n < 4 {
                        victims[n] = victim;
                        n += 1;
                    }
                }
            }
        }
    } else {
        for offset in STEP {
            let victim = cell + offset;
            if let Some(tile) = get(field, victim) {
                if tile & SHADE_BIT != shade {
                    if let Some(partner) = get(field, victim + offset) {
                        if partner & ICON_BITS == icon && n < 4 {
                            victims[n] = victim;
                            n += 1;
                        }
                    }
                }
            }
        }
    }
    (victims, n)
}

pub(super) fn run(field: &[(i32, u8)], mut cell: i32, seat: u8, step: i32) -> u32 {
    let mut length = 0;
    cell += step;
    while let Some(tile) = get(field, cell) {
        if tile >> OWNER_SHIFT != seat {
            break;
        }
        length += 1;
        cell += step;
    }
    length
}

/// Whether the tile on `cell` is in a horizontal or vertical line of at least `length`
/// tiles of `seat` {LSD 1.7, 2.4.1, RULING 15, 16}.
pub(super) fn has_row(field: &[(i32, u8)], cell: i32, seat: u8, length: u32) -> bool {
    [1, CELL_STRIDE]
        .iter()
        .any(|&step| 1 + run(field, cell, seat, step) + run(field, cell, seat, -step) >= length)
}
