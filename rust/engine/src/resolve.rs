//! Applying a legal move, and how the games end (`pacru.chevron.resolve`,
//! `pacru.chevron.ending`).
//!
//! Pacru follows the resolution order of ruling D30: a. a pincer removes the victim and
//! changes its field {R11}; b. the chevron moves and faces its direction of travel {R3};
//! c./d./e. the chosen crossing benefit {R4, R6, R10} or connection change {R8}; f. the
//! meeting field {R12}; g. after each marker placed, an empty supply wins at once
//! {R16b, D29, D31}.
//!
//! Lilacru, Shacru and Azacru mark the arrival field {L5, S-R3, A-R3} (an own field gains
//! nothing, D6; the field left stays as it was, D7), apply the Azacru connection change
//! and removal {A-R7, D9-D12} (a connection jump changes nothing, A-R8), and the twist
//! {S-R4, A-R6, D3, D4}. A pass {S-R2, A-R10, D34, D37} changes no field; the first
//! Azacru pass sets the end trigger and the game ends when the turn comes back to that
//! player {A-R10, D36}; Lilacru and Shacru run the end test after every move
//! {L7, S-R6, D33}.

use crate::error::{Counter, EngineError, PositionError, Refusal};
use crate::geometry::{
    field_count, forward, line, BETWEEN, BORDERLAND, FORWARD_MASK, FULL, NEIGHBOUR, RAY,
};
use crate::movegen::{faces_any, has_step, SUPPLY};
use crate::movelist::legal_moves;
use crate::moves::Move;
use crate::types::{ChevronList, Outcome, Position, Rules, Termination};
use crate::units::Field;

/// The position after the legal move `m`.
///
/// Every side effect and every end test of the game: see the module documentation.
///
/// # Errors
/// The game is over, or `m` is not one of the position's legal moves.
pub fn apply(rules: &Rules, pos: &Position, m: &Move) -> Result<Position, EngineError> {
    if pos.outcome.is_some() {
        return Err(EngineError::GameOver(*m));
    }
    let moves = legal_moves(rules, pos);
    if moves.index_of(m).is_none() {
        return Err(EngineError::IllegalMove(*m, Refusal::NotLegal));
    }
    resolve(rules, pos, m)
}

/// The position after a move known to be legal (taken from the position's legal move
/// list). Defensive all the same: an impossible move is an error, never a panic.
pub(crate) fn resolve(rules: &Rules, pos: &Position, m: &Move) -> Result<Position, EngineError> {
    let mut next = pos.clone();
    resolve_into(rules, pos, m, &mut next)?;
    Ok(next)
}

/// [`resolve`] into `next`, a copy of `pos` on entry (left half-changed on an error): the
/// position is copied once, not again on its way out.
pub(crate) fn resolve_into(
    rules: &Rules,
    pos: &Position,
    m: &Move,
    next: &mut Position,
) -> Result<(), EngineError> {
    if !pos.shape_ok() {
        return Err(PositionError::Shape.into());
    }
    let resolution = Resolution(
        rules,
        pos,
        m,
        pos.to_move as usize % 4,
        pos.players as usize,
    );
    if rules.pacru() {
        resolve_pacru(resolution, next)
    } else {
        resolve_plain(resolution, next)
    }
}

/// What both families of resolution read: the rules, the position, the legal move
/// being resolved, the seat to move and the player count (the last two as indices).
#[derive(Clone, Copy)]
struct Resolution<'a>(&'a Rules, &'a Position, &'a Move, usize, usize);

/// The ply after `pos`'s: an error, never a wrap or a saturation, past
/// [`crate::COUNTER_MAX`].
fn next_ply(pos: &Position) -> Result<u64, EngineError> {
    pos.ply
        .checked_add(1)
        .ok_or(EngineError::CounterLimit(Counter::Ply))
}

fn bad(m: &Move) -> EngineError {
    EngineError::IllegalMove(*m, Refusal::Unresolvable)
}

/// Lilacru, Shacru, Azacru: mark {L5, S-R3, A-R3, D6, D7}, connect and remove
/// {A-R7, A-R8, D9-D12}, twist {S-R4, A-R6, D3, D4}, then the end test
/// {L7, S-R6, A-R10, D32, D33, D36}.
fn resolve_plain(resolution: Resolution<'_>, next: &mut Position) -> Result<(), EngineError> {
    let Resolution(rules, pos, m, seat, n) = resolution;
    let mut acquired = false;
    match m.origin() {
        None => {
            if rules.azacru() && next.trigger < 0 {
                next.trigger = i8::try_from(seat).unwrap_or(-1);
            }
        }
        Some(f) => {
            let (f, t) = (f.get(), m.target().ok_or_else(|| bad(m))?.get());
            let (d, k) = line(f, t).ok_or_else(|| bad(m))?;
            let occupied = pos.occupied();
            let mut own = next.markers[seat];
            let tbit = 1u128 << t;
            let mut removed = false;
            if rules.azacru() && k >= 2 && own >> f & 1 != 0 && own & tbit != 0 {
                let between = BETWEEN[f as usize][t as usize];
                if between & occupied == 0 {
                    // A connection change, not a jump {A-R7, A-R8, D11}.
                    for (i, mk) in next.markers[..n].iter_mut().enumerate() {
                        if i != seat && *mk & between != 0 {
                            *mk &= !between;
                            removed = true; // an opponent's field was changed (D12)
                        }
                    }
                    acquired = between & !own != 0;
                    own |= between;
                }
            }
            if own & tbit == 0 && rules.marks_arrival() {
                own |= tbit;
                acquired = true;
            }
            next.markers[seat] = own;
            next.chevrons[seat].remove(f);
            if !removed {
                let facing = (i16::from(d) + i16::from(m.twist())).rem_euclid(8) as u16;
                next.chevrons[seat].insert(u16::from(t) * 8 + facing);
            }
        }
    }
    next.to_move = seat_u8((seat + 1) % n.max(1));
    // The idle count feeds only the Lilacru/Shacru safety valve (D33); Azacru keeps 0.
    next.idle = if acquired || !rules.lookahead_end() {
        0
    } else {
        pos.idle
            .checked_add(1)
            .ok_or(EngineError::CounterLimit(Counter::Idle))?
    };
    next.ply = next_ply(pos)?;
    next.outcome = if rules.azacru() {
        if u8::try_from(next.trigger) == Ok(next.to_move) {
            Some(Outcome {
                termination: Termination::EndTriggered,
                winners: top_scorers(next),
            })
        } else if rules.move_cap.is_some_and(|cap| next.ply >= cap) {
            Some(Outcome {
                termination: Termination::MoveCap,
                winners: 0,
            })
        } else {
            None
        }
    } else {
        lookahead_outcome(rules, next)
    };
    Ok(())
}

/// The seats with the most markers on the board; several share the win (D35). A player
/// without chevrons still scores their markers (D50).
pub fn top_scorers(pos: &Position) -> u8 {
    let n = (pos.players as usize).min(4);
    let counts: Vec<u32> = pos.markers[..n].iter().map(|m| m.count_ones()).collect();
    let best = counts.iter().copied().max().unwrap_or(0);
    counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c == best)
        .fold(0u8, |acc, (i, _)| acc | 1 << i)
}

/// The Lilacru/Shacru end test {S-R6, L7, D33}, or None while the game goes on: nobody
/// can move (NO_MOVES), no player with chevrons can ever acquire a field
/// (NO_ACQUISITION, [`can_acquire`]), or `idle_rounds` full rounds passed without an
/// acquisition (IDLE_LIMIT, the non-official valve of D33).
///
/// Almost always some chevron faces an empty neutral field: its player can move there
/// and acquire it, which answers the first two tests at once (one mask per chevron).
pub fn lookahead_outcome(rules: &Rules, pos: &Position) -> Option<Outcome> {
    let n = (pos.players as usize).min(4);
    let empty = FULL & !pos.marked() & !pos.occupied();
    let termination = if pos.chevrons[..n].iter().any(|c| faces_any(c, empty)) {
        None
    } else if !(0..n).any(|s| has_step(rules, pos, s)) {
        Some(Termination::NoMoves)
    } else if !can_acquire(rules, pos) {
        Some(Termination::NoAcquisition)
    } else {
        None
    };
    let termination = termination.or_else(|| {
        (u128::from(pos.idle) >= u128::from(rules.idle_rounds) * n as u128)
            .then_some(Termination::IdleLimit)
    })?;
    Some(Outcome {
        termination,
        winners: top_scorers(pos),
    })
}

/// Whether some player with chevrons could still ever acquire a field (ruling D33).
///
/// Colours are frozen. Chevrons that are statically stuck (every forward field off the
/// board or another player's colour) are walls; every other chevron is ignored, being
/// able to move away. The quick tests first: almost always some chevron faces an empty
/// neutral field, or can step onto a neutral field that is not a wall at once (one mask
/// per chevron, [`FORWARD_MASK`]). Else a breadth-first search over (field, facing) per
/// chevron, stepping only onto own fields (the start field counts even if neutral) and
/// adding the +-45 degree twists at border crossings in Shacru, looks for a forward step
/// onto a neutral field that is not a wall.
pub fn can_acquire(rules: &Rules, pos: &Position) -> bool {
    let n = (pos.players as usize).min(4);
    let marked = pos.marked();
    // An empty neutral field is no wall (walls are chevrons).
    let empty = FULL & !marked & !pos.occupied();
    if pos.chevrons[..n].iter().any(|c| faces_any(c, empty)) {
        return true;
    }
    let mut walls = 0u128;
    for seat in 0..n {
        let passable = !(marked & !pos.markers[seat]);
        for code in pos.chevrons[seat].iter() {
            if FORWARD_MASK[code as usize] & passable == 0 {
                walls |= 1u128 << (code >> 3);
            }
        }
    }
    let neutral = FULL & !marked & !walls;
    if pos.chevrons[..n].iter().any(|c| faces_any(c, neutral)) {
        return true;
    }
    for seat in 0..n {
        let own = pos.markers[seat] & !walls;
        for code in pos.chevrons[seat].iter() {
            if walls >> (code >> 3) & 1 == 0 && search(code, own, neutral, rules.twist()) {
                return true;
            }
        }
    }
    false
}

/// The breadth-first search of [`can_acquire`] from one chevron (ruling D33).
fn search(start: u16, own: u128, neutral: u128, twist: bool) -> bool {
    let mut seen = [0u64; 11]; // 648 (field, facing) codes
    let mut queue = [0u16; 648];
    let (mut head, mut tail) = (0usize, 0usize);
    let visit = |code: u16, seen: &mut [u64; 11], queue: &mut [u16; 648], tail: &mut usize| {
        let (w, b) = ((code >> 6) as usize, code & 63);
        if seen[w] >> b & 1 == 0 && *tail < queue.len() {
            seen[w] |= 1 << b;
            queue[*tail] = code;
            *tail += 1;
        }
    };
    visit(start, &mut seen, &mut queue, &mut tail);
    while head < tail {
        let code = queue[head];
        head += 1;
        let f = (code >> 3) as usize;
        for d in forward((code & 7) as u8) {
            let Ok(t) = u8::try_from(NEIGHBOUR[f][d as usize]) else {
                continue; // off the board
            };
            if neutral >> t & 1 != 0 {
                return true;
            }
            if own >> t & 1 == 0 {
                continue;
            }
            let t = u16::from(t);
            visit(t * 8 + u16::from(d), &mut seen, &mut queue, &mut tail);
            if twist && BORDERLAND[f] != BORDERLAND[t as usize] {
                visit(
                    t * 8 + u16::from((d + 7) & 7),
                    &mut seen,
                    &mut queue,
                    &mut tail,
                );
                visit(
                    t * 8 + u16::from((d + 1) & 7),
                    &mut seen,
                    &mut queue,
                    &mut tail,
                );
            }
        }
    }
    false
}

/// Puts a marker of `seat` on `field`, taking away any other colour's (at most one).
fn place(markers: &mut [u128; 4], seat: usize, field: u8) {
    let bit = 1u128 << (field % 81);
    for m in markers.iter_mut() {
        *m &= !bit;
    }
    markers[seat] |= bit;
}

/// Pacru: the resolution order of ruling D30 (see the module documentation), a
/// reorientation giving up its fields {R14, D25}, the supply win {R16b, D29, D31}, then
/// the next player's start of turn {R15, R16a, D27, D28} and the move cap (D32).
fn resolve_pacru(resolution: Resolution<'_>, next: &mut Position) -> Result<(), EngineError> {
    let Resolution(rules, pos, m, seat, n) = resolution;
    let mut supply = SUPPLY[n.min(4)] - field_count(pos.markers[seat]);
    let f = m.origin().ok_or_else(|| bad(m))?.get();
    match m.target().map(Field::get) {
        None => {
            // Reorientation {R14}.
            next.markers[seat] &= !m.relinquished();
            let facing = pos.chevrons[seat].facing_at(f).ok_or_else(|| bad(m))?;
            let turned = (i16::from(facing) + i16::from(m.turn())).rem_euclid(8) as u16;
            next.chevrons[seat].insert(u16::from(f) * 8 + turned);
        }
        Some(t) => {
            let (d, k) = line(f, t).ok_or_else(|| bad(m))?;
            if pos.chevrons[seat].facing_at(f).is_none() {
                return Err(bad(m));
            }
            if m.capture() {
                // a. pincer {R11}
                for (i, c) in next.chevrons[..n].iter_mut().enumerate() {
                    if i != seat {
                        c.remove(t);
                    }
                }
                if next.markers[seat] >> t & 1 == 0 {
                    place(&mut next.markers, seat, t);
                    supply -= 1;
                }
            }
            // b. the move itself {R3}
            next.chevrons[seat].remove(f);
            next.chevrons[seat].insert(u16::from(t) * 8 + u16::from(d));
            // c.-e. the chosen benefit {R4, R6, R8, R10}
            if supply > 0 && m.connection() {
                let ray = &RAY[f as usize][d as usize];
                for &field in &ray[..(k as usize).saturating_sub(1).min(8)] {
                    if next.markers[seat] >> field & 1 == 0 {
                        place(&mut next.markers, seat, field);
                        supply -= 1;
                        if supply == 0 {
                            break;
                        }
                    }
                }
            }
            if let Some(marker) = m.marker() {
                if supply > 0 {
                    place(&mut next.markers, seat, marker.get());
                    supply -= 1;
                }
            }
            // f. meeting {R12}
            if let Some(meeting) = m.meeting() {
                if supply > 0 {
                    place(&mut next.markers, seat, meeting.get());
                    supply -= 1;
                }
            }
        }
    }
    next.ply = next_ply(pos)?;
    next.idle = 0;
    if supply <= 0 {
        // g. {R16b, D29, D31}: a pincer that also took an opponent's last chevron puts
        // them out as well (D28, D31).
        next.to_move = seat_u8(seat);
        next.out = without_chevrons(&next.chevrons, n, next.out);
        next.outcome = Some(Outcome {
            termination: Termination::SupplyExhausted,
            winners: 1 << seat,
        });
        return Ok(());
    }
    start_turn(rules, next, (seat + 1) % n.max(1));
    if next.outcome.is_none() && rules.move_cap.is_some_and(|cap| next.ply >= cap) {
        next.outcome = Some(Outcome {
            termination: Termination::MoveCap,
            winners: 0,
        });
    }
    Ok(())
}

/// A seat index (below the player count, at most 4) as a position holds it.
fn seat_u8(seat: usize) -> u8 {
    u8::try_from(seat).unwrap_or(0)
}

/// `out` with every seat that has no chevron left marked out {R15, D28}.
fn without_chevrons(chevrons: &[ChevronList; 4], n: usize, mut out: u8) -> u8 {
    for (s, c) in chevrons[..n].iter().enumerate() {
        if c.is_empty() {
            out |= 1 << s;
        }
    }
    out
}

/// Pacru start of turn {R15, R16a, D27, D28}, from `seat` onwards: players without
/// chevrons are out; a player whose chevrons cannot step is blocked, loses them and is
/// out; the last player with chevrons wins (and is the seat to move).
pub(crate) fn start_turn(rules: &Rules, pos: &mut Position, mut seat: usize) {
    let n = pos.players as usize;
    pos.out = without_chevrons(&pos.chevrons, n, pos.out);
    let everyone = u8::try_from((1u16 << n) - 1).unwrap_or(u8::MAX);
    for _ in 0..=n {
        let left = everyone & !pos.out;
        if left & left.wrapping_sub(1) == 0 {
            pos.to_move = if left != 0 {
                u8::try_from(left.trailing_zeros()).unwrap_or(0)
            } else {
                seat_u8(seat)
            };
            pos.outcome = Some(Outcome {
                termination: Termination::LastPlayer,
                winners: left,
            });
            return;
        }
        while pos.out >> seat & 1 != 0 {
            seat = (seat + 1) % n;
        }
        if has_step(rules, pos, seat) {
            pos.to_move = seat_u8(seat);
            return;
        }
        pos.chevrons[seat] = ChevronList::EMPTY;
        pos.out |= 1 << seat;
    }
}

/// The number of leaf positions `depth` plies below `pos` (every complete move counted:
/// each choice, meeting field and relinquished set); `perft(pos, 1)` is the number of
/// legal moves, 0 for depth 0 counts the position itself as 1.
pub fn perft(rules: &Rules, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(rules, pos);
    if depth == 1 {
        return moves.len();
    }
    moves
        .iter()
        .filter_map(|m| resolve(rules, pos, &m).ok())
        .map(|next| perft(rules, &next, depth - 1))
        .sum()
}
