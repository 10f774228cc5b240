//! The moves the search considers: every step and pincer with all its choices, and one
//! reorientation per family (chevron and turn) instead of every relinquished set {R14}.
//!
//! A Pacru reorientation by one turn comes with every set of own unoccupied fields the
//! player may give up: C(n, 2) or C(n, 4) moves for `n` such fields, tens of thousands in
//! some positions. The fields given up differ only in which markers stay, so the search
//! takes one member per family, picked by a cheap rule: give up the fields that lie in
//! the borderland of the fewest own chevrons (the power of movement they carry, {R5}),
//! ties to the lower field index. Steps are few (a few dozen families, each with a
//! handful of benefit and meeting choices) and are all searched.

use crate::features::relinquish_cost;
use pacru_engine::geometry::bits;
use pacru_engine::{Field, Move, MoveList};

/// The candidate moves of `list`, in list order: every step move, then one
/// reorientation per (chevron, turn) family; just the pass when that is the only move;
/// empty when there is none.
pub fn candidates(list: &MoveList) -> Vec<Move> {
    if list.is_empty() {
        return Vec::new();
    }
    if list.is_pass() {
        return vec![Move::Pass];
    }
    let (step_moves, sizes, turns, per_chevron) = list.reorientation_layout();
    let mut out: Vec<Move> = list
        .iter()
        .take(usize::try_from(step_moves).unwrap_or(usize::MAX))
        .collect();
    if per_chevron == 0 {
        return out;
    }
    let pos = list.position();
    let seat = usize::from(pos.to_move) % 4;
    let chevrons = pos.chevrons[seat].fields();
    let free = pos.markers[seat] & !pos.occupied();
    let mut ranked: Vec<(u32, u8)> = bits(free)
        .map(|f| (relinquish_cost(chevrons, f), f))
        .collect();
    ranked.sort_unstable();
    let turn_values: &[i8] = if turns == 4 {
        &[-2, -1, 1, 2]
    } else {
        &[-1, 1]
    };
    for origin in bits(chevrons) {
        for (i, &turn) in turn_values.iter().enumerate() {
            if sizes[i] == 0 {
                continue;
            }
            let cost = 2 * usize::from(turn.unsigned_abs());
            let relinquished = ranked
                .iter()
                .take(cost)
                .fold(0u128, |acc, &(_, f)| acc | 1u128 << f);
            let Some(origin) = Field::new(origin) else {
                continue; // a set bit of the board: never
            };
            let m = Move::Reorientation {
                origin,
                turn,
                relinquished,
            };
            if list.index_of(&m).is_some() {
                out.push(m);
            }
        }
    }
    out
}
