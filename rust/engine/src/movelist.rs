//! The legal moves of a position, kept compact as families (`pacru.chevron.movelist`).
//!
//! A Pacru position can have hundreds of thousands of complete moves: every
//! reorientation with every set of relinquished fields is its own move {R14}, and every
//! meeting field multiplies a move {R12}. The list keeps one family per chevron step
//! (its choices) and per reorientation turn; `len` is a sum, `get` decodes one move
//! (a binary search over the step offsets, then unranking of the relinquished set) and
//! `index_of` ranks one. The order is Python's:
//!
//! 1. steps and pincers, by chevron (ascending field), then direction of travel (left,
//!    straight, right of the facing), then distance; within a step, the choices in
//!    order (twist 0, -1, +1; connection before crossing fields; fields ascending),
//!    then meeting fields ascending;
//! 2. reorientations, by chevron, then turn (-2, -1, +1, +2), then relinquished sets in
//!    lexicographic order;
//! 3. or the single pass.

use crate::geometry::{bits, nth_field};
use crate::movegen::{plain_twists, raw_steps, Opt, PacruCtx, Step};
use crate::types::{Move, Position, Rules};

/// `COMB[n][k]`: C(n, k) for the sizes a reorientation needs (n <= 81, k <= 4).
const fn build_comb() -> [[u64; 5]; 82] {
    let mut out = [[0u64; 5]; 82];
    let mut n = 0;
    while n < 82 {
        out[n][0] = 1;
        let mut k = 1;
        while k < 5 {
            out[n][k] = if n == 0 {
                0
            } else {
                out[n - 1][k - 1] + out[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    out
}

static COMB: [[u64; 5]; 82] = build_comb();

#[inline]
fn comb(n: usize, k: usize) -> u64 {
    if n < 82 && k < 5 {
        COMB[n][k]
    } else {
        0
    }
}

/// The legal moves of one position, in the Python order.
#[derive(Clone, Debug)]
pub struct MoveList {
    passes: bool,
    steps: Vec<Step>,
    /// `opt_start[i]..opt_start[i + 1]`: the choices of `steps[i]` in `opts`.
    opt_start: Vec<u32>,
    opts: Vec<Opt>,
    /// Where each step's moves start, from 0, and where the last one ends.
    offsets: Vec<u64>,
    /// The fields of the chevrons that may reorient {R14}, ascending.
    reorienting: Vec<u8>,
    /// The own unoccupied fields they may give up (D25), ascending, and their bitboard.
    free_fields: Vec<u8>,
    free: u128,
    turns: &'static [i8],
    sizes: [u64; 4],
    per_chevron: u64,
    total: u64,
    pub(crate) rules: Rules,
    pub(crate) position: Position,
}

const TURNS_FEW: [i8; 2] = [-1, 1];
const TURNS: [i8; 4] = [-2, -1, 1, 2];

/// Every complete legal move of the player to move, in the documented order.
///
/// Empty once the game is over, and for a blocked Pacru player {R15} (whom play
/// eliminates at the start of their turn); only the pass for a Lilacru, Shacru or Azacru
/// player who cannot move {L3, S-R2, A-R10, D34, D37}, also without chevrons (D50). A
/// Shacru/Azacru crossing step comes in three twist variants {S-R4, A-R6, D3, D4}, one
/// only once the Azacru end is triggered or when the chevron is removed by its own
/// connection (D5). Pacru steps carry their benefits and meetings
/// {R4-R12, D13-D23, D29}; every own chevron may reorient, giving up own unoccupied
/// fields, when the player has a step {R14, D25, D26}.
pub fn legal_moves(rules: &Rules, pos: &Position) -> MoveList {
    let mut list = MoveList {
        passes: false,
        steps: Vec::with_capacity(64),
        opt_start: Vec::new(),
        opts: Vec::new(),
        offsets: Vec::new(),
        reorienting: Vec::new(),
        free_fields: Vec::new(),
        free: 0,
        turns: &[],
        sizes: [0; 4],
        per_chevron: 0,
        total: 0,
        rules: *rules,
        position: pos.clone(),
    };
    if pos.outcome.is_some() || !pos.shape_ok() {
        return list;
    }
    let seat = pos.to_move as usize;
    raw_steps(rules, pos, seat, &mut list.steps);
    if list.steps.is_empty() {
        list.passes = !rules.pacru();
        list.total = u64::from(list.passes);
        return list;
    }
    // Sized once: growing these vectors step by step cost a third of a playout ply.
    let steps = list.steps.len();
    list.opt_start = Vec::with_capacity(steps + 1);
    list.opt_start.push(0);
    list.offsets = Vec::with_capacity(steps + 1);
    list.offsets.push(0);
    list.opts = Vec::with_capacity(steps * if rules.pacru() { 4 } else { 3 });
    let mut total = 0u64;
    if rules.pacru() {
        let ctx = PacruCtx::new(rules, pos);
        for s in &list.steps {
            ctx.options(s, &mut list.opts);
            total += close_step(&mut list.opt_start, &list.opts);
            list.offsets.push(total);
        }
        let free = pos.markers[seat] & !pos.occupied();
        list.free = free;
        list.free_fields = bits(free).collect();
        list.reorienting = bits(pos.chevrons[seat].fields()).collect();
        let n = list.free_fields.len();
        if n >= 4 {
            list.turns = &TURNS;
            list.sizes = [comb(n, 4), comb(n, 2), comb(n, 2), comb(n, 4)];
        } else if n >= 2 {
            list.turns = &TURNS_FEW;
            list.sizes = [comb(n, 2), comb(n, 2), 0, 0];
        }
        list.per_chevron = list.sizes.iter().sum();
        total += list.per_chevron * list.reorienting.len() as u64;
    } else {
        let triggered = pos.trigger >= 0;
        for s in &list.steps {
            for &twist in plain_twists(rules, pos, s, triggered) {
                list.opts.push(Opt {
                    twist,
                    conn: false,
                    marker: -1,
                    meet: 0,
                });
            }
            total += close_step(&mut list.opt_start, &list.opts);
            list.offsets.push(total);
        }
    }
    list.total = total;
    list
}

/// Ends the choices of one step: records where they stop and returns their move count.
fn close_step(opt_start: &mut Vec<u32>, opts: &[Opt]) -> u64 {
    let begin = opt_start.last().copied().unwrap_or(0) as usize;
    opt_start.push(opts.len() as u32);
    opts[begin..].iter().map(Opt::size).sum()
}

/// The `index`-th `cost`-subset of `fields` in lexicographic order (cost <= 4), a bitboard.
fn unrank(fields: &[u8], cost: usize, mut index: u64) -> u128 {
    let n = fields.len();
    let (mut k, mut start, mut chosen) = (cost, 0usize, 0u128);
    while k > 0 {
        let mut found = false;
        for (i, &field) in fields.iter().enumerate().skip(start) {
            let count = comb(n - i - 1, k - 1);
            if index < count {
                chosen |= 1u128 << field;
                start = i + 1;
                k -= 1;
                found = true;
                break;
            }
            index -= count;
        }
        if !found {
            break;
        }
    }
    chosen
}

/// The lexicographic rank of the subset `chosen` of `fields` (inverse of [`unrank`]).
fn rank(fields: &[u8], chosen: u128) -> u64 {
    let n = fields.len();
    let mut k = chosen.count_ones() as usize;
    let mut index = 0u64;
    for (i, &field) in fields.iter().enumerate() {
        if k == 0 {
            break;
        }
        if chosen >> field & 1 != 0 {
            k -= 1;
        } else {
            index += comb(n - i - 1, k - 1);
        }
    }
    index
}

impl MoveList {
    /// The exact number of moves, counted without listing them.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether there is no legal move (a finished game, a blocked Pacru player).
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// True when the only legal move is the pass {S-R2, A-R10}.
    pub fn is_pass(&self) -> bool {
        self.passes
    }

    /// The number of step and pincer families.
    pub fn step_count(&self) -> usize {
        self.steps.len()
    }

    /// The `index`-th move in the Python order; None out of range.
    pub fn get(&self, index: u64) -> Option<Move> {
        if index >= self.total {
            return None;
        }
        if self.passes {
            return Some(Move::PASS);
        }
        let step_moves = *self.offsets.last()?;
        if index < step_moves {
            let i = self.offsets.partition_point(|&o| o <= index) - 1;
            let s = self.steps.get(i)?;
            let mut rest = index - self.offsets[i];
            let opts = &self.opts[self.opt_start[i] as usize..self.opt_start[i + 1] as usize];
            for o in opts {
                let size = o.size();
                if rest < size {
                    let meeting = if o.meet != 0 {
                        Some(nth_field(o.meet, rest as u32)?)
                    } else {
                        None
                    };
                    return Some(Move {
                        origin: Some(s.f),
                        target: Some(s.t),
                        capture: s.capture,
                        twist: o.twist,
                        turn: 0,
                        connection: o.conn,
                        marker: (o.marker >= 0).then_some(o.marker as u8),
                        meeting,
                        relinquished: 0,
                    });
                }
                rest -= size;
            }
            return None;
        }
        let rest = index - step_moves;
        if self.per_chevron == 0 {
            return None;
        }
        let chevron = (rest / self.per_chevron) as usize;
        let mut rest = rest % self.per_chevron;
        for (i, &turn) in self.turns.iter().enumerate() {
            let size = self.sizes[i];
            if rest < size {
                let cost = 2 * turn.unsigned_abs() as usize;
                return Some(Move {
                    origin: Some(*self.reorienting.get(chevron)?),
                    turn,
                    relinquished: unrank(&self.free_fields, cost, rest),
                    ..Move::PASS
                });
            }
            rest -= size;
        }
        None
    }

    /// The position of `m` in the list (the Python `in`), or None if it is not legal here.
    pub fn index_of(&self, m: &Move) -> Option<u64> {
        if !m.is_well_formed() || self.total == 0 {
            return None;
        }
        let Some(origin) = m.origin else {
            return self.passes.then_some(0);
        };
        if self.passes {
            return None;
        }
        let Some(target) = m.target else {
            return self.reorientation_index(origin, m);
        };
        let i = self
            .steps
            .iter()
            .position(|s| s.t == target && s.f == origin && s.capture == m.capture)?;
        let marker = m.marker.map_or(-1, |f| f as i8);
        let mut index = self.offsets[i];
        let opts = &self.opts[self.opt_start[i] as usize..self.opt_start[i + 1] as usize];
        for o in opts {
            if o.twist == m.twist && o.conn == m.connection && o.marker == marker {
                if o.meet == 0 {
                    return m.meeting.is_none().then_some(index);
                }
                let f = m.meeting?;
                if o.meet >> f & 1 == 0 {
                    return None;
                }
                return Some(index + u64::from((o.meet & ((1u128 << f) - 1)).count_ones()));
            }
            index += o.size();
        }
        None
    }

    fn reorientation_index(&self, origin: u8, m: &Move) -> Option<u64> {
        let t = self.turns.iter().position(|&t| t == m.turn)?;
        let chevron = self.reorienting.iter().position(|&f| f == origin)?;
        let cost = 2 * m.turn.unsigned_abs() as u32;
        if m.relinquished.count_ones() != cost || m.relinquished & !self.free != 0 {
            return None;
        }
        let base = *self.offsets.last()? + chevron as u64 * self.per_chevron;
        let before: u64 = self.sizes[..t].iter().sum();
        Some(base + before + rank(&self.free_fields, m.relinquished))
    }

    /// Every move, in order.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        (0..self.total).filter_map(move |i| self.get(i))
    }
}
