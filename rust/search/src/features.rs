//! The features of a position and the learned evaluation built on them.
//!
//! Each seat gets [`FEATURES`] raw counts ([`seat_features`]); the evaluation of a seat
//! is the dot product of the weights with its counts minus the mean counts of the
//! other seats still in play ([`relative_features`]), a logit: the model is fitted by
//! logistic regression of the game's result on these differences
//! (`scripts/train_eval.py`), so `sigmoid(value)` estimates the seat's chance to win.

use crate::territory::territory;
use pacru_engine::geometry::{bits, code_field, FULL, LAND_OF};
use pacru_engine::{legal_moves, power_of_movement, Game, MoveList, Position, Rules, SUPPLY};

/// The number of features of one seat.
pub const FEATURES: usize = 15;

/// The steps beyond which a neutral field counts as out of reach in `nearest`.
const NEAR: u32 = 16;

/// The names of the features, in order (the keys of the shipped weights file).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "markers",
    "chevrons",
    "mobile_chevrons",
    "steps",
    "pincers",
    "attacked",
    "power",
    "gains",
    "to_move",
    "target_race",
    "approach",
    "pincers_on_move",
    "attacked_off_move",
    "territory",
    "nearest",
];

/// Hand-set weights (logit units) used before any training and by the Rust tests: the
/// bootstrap policy of the self-play that fits the shipped weights.
pub const DEFAULT_WEIGHTS: [f32; FEATURES] = [
    0.15, 1.0, 0.3, 0.01, 0.2, -0.2, 0.02, 0.05, 0.1, 0.5, 0.1, 0.5, -0.6, 0.15, 0.1,
];

/// The counts of every seat of `pos` (rows of unused seats are zero).
///
/// Per seat: markers on the board {R1, L5}; chevrons on the board {R15}; chevrons with
/// at least one step and step families (mobility, R15's blocked player); pincers it can
/// make {R11}; its chevrons some other seat can capture by a pincer; the power of
/// movement of its chevrons {A-R4, R5}; step families that gain a field (an unowned
/// arrival field in Lilacru/Shacru/Azacru, a marker or meeting choice in Pacru
/// {R4, R6, R10, R12}); 1 for the seat to move; and the race to the marker target,
/// `(markers / target)^2 * 10` with the Pacru supply {R16b} or all 81 fields as target;
/// and the approach to the fields still to acquire: per chevron, `(8 - d) / 8` where `d`
/// is the king-move distance (at most 8) to the nearest field nobody has marked and no
/// chevron stands on {L5, S-R3, A-R3}; 0 in Pacru, where arrival marks nothing (D40);
/// the pincers again when the seat is to move (it can make one now), and its
/// attacked chevrons again when it is not (the attacker moves first); last, in Lilacru
/// and Shacru only ([`territory`]): the neutral fields the seat reaches before every
/// other seat (its territory, the markers it can still expect {S-R6, L7}), and
/// `(16 - d) / 16` for the `d` steps (at most 16) its nearest chevron needs to a
/// neutral field it can reach, 0 when none: what it can still acquire before the idle
/// limit (D33).
pub fn seat_features(rules: &Rules, pos: &Position) -> [[f32; FEATURES]; 4] {
    let n = usize::from(pos.players.clamp(2, 4));
    let mut out = [[0f32; FEATURES]; 4];
    let mut probe = pos.clone();
    probe.outcome = None;
    let mut captured = [0u128; 4];
    let target = if rules.game == Game::Pacru {
        f32_of(SUPPLY[n])
    } else {
        81.0
    };
    for (seat, row) in out.iter_mut().enumerate().take(n) {
        let own = pos.markers[seat];
        let chevrons = pos.chevrons[seat];
        let markers = f32_of(own.count_ones());
        row[0] = markers;
        row[1] = f32_of(chevrons.len());
        row[8] = f32::from(u8::from(usize::from(pos.to_move) == seat));
        row[9] = (markers / target).powi(2) * 10.0;
        if pos.out >> seat & 1 != 0 || chevrons.is_empty() {
            continue;
        }
        row[6] = chevrons
            .iter()
            .map(|c| f32_of(power_of_movement(rules, own, code_field(c))))
            .sum::<f32>();
        if rules.marks_arrival() {
            row[10] = approach(chevrons.fields(), !(pos.marked() | pos.occupied()) & FULL);
        }
        probe.to_move = u8::try_from(seat).unwrap_or(0);
        let list = legal_moves(rules, &probe);
        let (mobile, steps, pincers, gains, victims) = step_counts(rules, &list);
        row[2] = f32_of(mobile);
        row[3] = f32_of(steps);
        row[4] = f32_of(pincers);
        row[7] = f32_of(gains);
        for (other, seen) in captured.iter_mut().enumerate().take(n) {
            if other != seat {
                *seen |= victims & pos.chevrons[other].fields();
            }
        }
    }
    let land = territory(rules, pos);
    for (seat, row) in out.iter_mut().enumerate().take(n) {
        row[13] = f32_of(land[seat].0);
        row[14] = land[seat]
            .1
            .map_or(0.0, |d| f32_of(NEAR - d.min(NEAR)) / f32_of(NEAR));
        row[5] = f32_of(captured[seat].count_ones());
        if usize::from(pos.to_move) == seat {
            row[11] = row[4];
        } else {
            row[12] = row[5];
        }
    }
    out
}

/// (chevrons with a step, step families, pincers, gaining families, victims' fields).
fn step_counts(rules: &Rules, list: &MoveList) -> (u32, u32, u32, u32, u128) {
    let own = list.position().markers[usize::from(list.position().to_move) % 4];
    let (mut origins, mut pincers, mut gains, mut victims) = (0u128, 0, 0, 0u128);
    let count = list.step_count();
    for i in 0..count {
        let Some((f, t, capture)) = list.step_fields(i) else {
            break;
        };
        origins |= 1u128 << f;
        if capture {
            pincers += 1;
            victims |= 1u128 << t;
        }
        let gain = if rules.game == Game::Pacru {
            // A step with more than one move has a benefit or a meeting to choose.
            list.step_range(i).is_some_and(|(_, size)| size > 1)
        } else {
            own >> t & 1 == 0
        };
        gains += u32::from(gain);
    }
    let steps = u32::try_from(count).unwrap_or(u32::MAX);
    (origins.count_ones(), steps, pincers, gains, victims)
}

/// Seat `seat`'s counts minus the mean counts of the other seats not eliminated {R15}.
pub fn relative_features(
    pos: &Position,
    rows: &[[f32; FEATURES]; 4],
    seat: usize,
) -> [f32; FEATURES] {
    let n = usize::from(pos.players.clamp(2, 4));
    let mut out = rows[seat % 4];
    let others: Vec<usize> = (0..n)
        .filter(|&o| o != seat && pos.out >> o & 1 == 0)
        .collect();
    if others.is_empty() {
        return out;
    }
    let share = 1.0 / f32_of(others.len());
    for o in others {
        for (x, y) in out.iter_mut().zip(rows[o]) {
            *x -= y * share;
        }
    }
    out
}

/// The evaluation of `pos` for `seat`: a logit, positive when `seat` is ahead.
pub fn evaluate(rules: &Rules, pos: &Position, seat: usize, weights: &[f32; FEATURES]) -> f32 {
    let rows = seat_features(rules, pos);
    let rel = relative_features(pos, &rows, seat);
    rel.iter().zip(weights).map(|(x, w)| x * w).sum()
}

/// How much giving up `field` costs the player with chevrons on `chevron_fields`: the chevrons whose borderland holds it (their power of movement
/// drops, {R5}); used to pick a reorientation's relinquished fields {R14}.
pub fn relinquish_cost(chevron_fields: u128, field: u8) -> u32 {
    let count = bits(chevron_fields)
        .filter(|&c| LAND_OF[usize::from(c)] >> field & 1 != 0)
        .count();
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// The fields of files b..i (a chevron there has a western neighbour) and a..h.
const NOT_FILE_A: u128 = {
    let mut m = 0u128;
    let mut f = 0;
    while f < 81 {
        if f % 9 != 0 {
            m |= 1 << f;
        }
        f += 1;
    }
    m
};
const NOT_FILE_I: u128 = {
    let mut m = 0u128;
    let mut f = 0;
    while f < 81 {
        if f % 9 != 8 {
            m |= 1 << f;
        }
        f += 1;
    }
    m
};

/// `board` grown by one king move in every direction.
fn dilate(board: u128) -> u128 {
    let row = board | (board & NOT_FILE_I) << 1 | (board & NOT_FILE_A) >> 1;
    (row | row << 9 | row >> 9) & FULL
}

/// A count of fields, chevrons, moves or plies (far below 2**16: exact in an `f32`) as a
/// feature value; a count that is not (never reached) saturates.
fn f32_of(count: impl TryInto<u16>) -> f32 {
    count.try_into().map_or(f32::from(u16::MAX), f32::from)
}

/// The sum over the chevrons on `chevrons` of `(8 - d) / 8`, `d` the king-move distance
/// to the nearest field of `targets` (8 when there is none within 7).
fn approach(chevrons: u128, targets: u128) -> f32 {
    let mut reach = targets;
    let mut left = chevrons;
    let mut total = 0f32;
    for d in 0..8 {
        let here = left & reach;
        total += f32_of(here.count_ones()) * f32_of(8 - d) / 8.0;
        left &= !here;
        if left == 0 || reach == FULL {
            break;
        }
        reach = dilate(reach);
    }
    total
}
