//! The legal moves of a position, kept compact as families (`pacru.chevron.movelist`).
//!
//! A Pacru position can have hundreds of thousands of complete moves: every
//! reorientation with every set of relinquished fields is its own move {R14}, and every
//! meeting field multiplies a move {R12}. The list keeps one family per chevron step
//! (with its move count; its choices are worked out again when asked for) and per
//! reorientation turn; `len` is a sum, `get` decodes one move (a binary search over the
//! steps' move counts, then the step's choices or the unranking of the relinquished set)
//! and `index_of` ranks one. The order is Python's:
//!
//! 1. steps and pincers, by chevron (ascending field), then direction of travel (left,
//!    straight, right of the facing), then distance; within a step, the choices in
//!    order (twist 0, -1, +1; connection before crossing fields; fields ascending),
//!    then meeting fields ascending;
//! 2. reorientations, by chevron, then turn (-2, -1, +1, +2), then relinquished sets in
//!    lexicographic order;
//! 3. or the single pass.

use crate::geometry::{bits, count_few, nth_field};
use crate::movegen::{raw_steps, Opt, Opts, PacruCtx, PlainCtx, Step, Steps};
use crate::moves::{Move, StepMove};
use crate::types::{Position, Rules};
use crate::units::Field;

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
///
/// Only the steps and their move counts are kept: the choices of a step (its twists, or
/// its Pacru benefits and meetings) are worked out again when one of its moves is asked
/// for, and the relinquished sets of a reorientation are unranked on demand.
#[derive(Clone, Debug)]
pub struct MoveList {
    passes: bool,
    /// The steps, each with the end of its moves (`Step::end`).
    steps: Steps,
    /// The moves of every step, before the reorientations.
    step_moves: u64,
    /// The fields of the chevrons that may reorient {R14}.
    reorienting: u128,
    /// The own unoccupied fields they may give up (D25).
    free: u128,
    turns: &'static [i8],
    sizes: [u64; 4],
    per_chevron: u64,
    total: u64,
    pub(crate) rules: Rules,
    pub(crate) position: Position,
}

/// One choice of a step family ([`MoveList::step_choices`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepChoice {
    /// The borderland twist after a border crossing, -1, 0 or +1 {S-R4, A-R6}.
    pub twist: i8,
    /// The Pacru connection change {R8}.
    pub connection: bool,
    /// The field of the border-crossing marker {R4, R6, R10}.
    pub marker: Option<Field>,
    /// The fields the meeting may change, a bitboard; 0 without a meeting {R12}.
    pub meetings: u128,
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
    let mut list = MoveList::empty(*rules, pos.clone());
    fill(&mut list);
    list
}

/// [`legal_moves`] of `pos` into `list`, whatever it held before: the same list, built in
/// the storage of one no longer needed (nothing allocated, nothing large copied).
pub fn legal_moves_into(rules: &Rules, pos: &Position, list: &mut MoveList) {
    list.passes = false;
    list.steps.clear();
    list.step_moves = 0;
    list.reorienting = 0;
    list.free = 0;
    list.turns = &[];
    list.sizes = [0; 4];
    list.per_chevron = 0;
    list.total = 0;
    list.rules = *rules;
    list.position.clone_from(pos);
    fill(list);
}

/// The moves of `list.position` into `list`, which holds no moves yet.
fn fill(list: &mut MoveList) {
    let (rules, pos) = (&list.rules, &list.position);
    if pos.outcome.is_some() || !pos.shape_ok() {
        return;
    }
    let seat = pos.to_move as usize;
    raw_steps(rules, pos, seat, &mut list.steps);
    if list.steps.as_slice().is_empty() {
        list.passes = !rules.pacru();
        list.total = u64::from(list.passes);
        return;
    }
    let mut total = 0u64;
    if rules.pacru() {
        let ctx = PacruCtx::new(rules, pos);
        for s in list.steps.as_mut_slice() {
            let (moves, bare) = ctx.count(s);
            total += moves;
            s.end = step_end(total);
            s.bare = bare;
        }
        list.step_moves = total;
        list.free = pos.markers[seat] & !ctx.occupied;
        list.reorienting = pos.chevrons[seat].fields();
        let n = list.free.count_ones() as usize;
        if n >= 4 {
            list.turns = &TURNS;
            list.sizes = [comb(n, 4), comb(n, 2), comb(n, 2), comb(n, 4)];
        } else if n >= 2 {
            list.turns = &TURNS_FEW;
            list.sizes = [comb(n, 2), comb(n, 2), 0, 0];
        }
        list.per_chevron = list.sizes.iter().sum();
        total += list.per_chevron * u64::from(count_few(list.reorienting));
    } else {
        let ctx = PlainCtx::new(rules, pos);
        for s in list.steps.as_mut_slice() {
            total += ctx.twists(s).len() as u64;
            s.end = step_end(total);
        }
        list.step_moves = total;
    }
    list.total = total;
}

/// The `index`-th `cost`-subset of the fields of `free` in lexicographic order (cost <= 4),
/// a bitboard.
fn unrank(free: u128, cost: usize, mut index: u64) -> u128 {
    let n = free.count_ones() as usize;
    let (mut k, mut chosen) = (cost, 0u128);
    for (i, field) in bits(free).enumerate() {
        if k == 0 {
            break;
        }
        let count = comb(n - i - 1, k - 1);
        if index < count {
            chosen |= 1u128 << field;
            k -= 1;
        } else {
            index -= count;
        }
    }
    chosen
}

/// The lexicographic rank of the subset `chosen` of the fields of `free` (inverse of
/// [`unrank`]).
fn rank(free: u128, chosen: u128) -> u64 {
    let n = free.count_ones() as usize;
    let mut k = chosen.count_ones() as usize;
    let mut index = 0u64;
    for (i, field) in bits(free).enumerate() {
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
        self.steps.as_slice().len()
    }

    /// Where the moves of the `i`-th step family start (a move index) and how many there
    /// are: every move of one chevron step or pincer, its twists {S-R4, A-R6} or its
    /// benefits and meetings {R4-R12}; None from `i == step_count()` on.
    pub fn step_range(&self, i: usize) -> Option<(u64, u64)> {
        let end = u64::from(self.steps.as_slice().get(i)?.end);
        let begin = self.step_begin(i);
        Some((begin, end - begin))
    }

    /// The chevron's field and the target field of the `i`-th step family, and whether it
    /// is a pincer (whose target holds its victim {R11}); None from `i == step_count()` on.
    pub fn step_fields(&self, i: usize) -> Option<(u8, u8, bool)> {
        self.steps.as_slice().get(i).map(|s| (s.f, s.t, s.capture))
    }

    /// The indices of the step families of the chevron on `origin`: the steps come by
    /// chevron, ascending field, so they are one run (empty when it has none).
    pub fn steps_from(&self, origin: u8) -> std::ops::Range<usize> {
        let steps = self.steps.as_slice();
        let lo = steps.partition_point(|s| s.f < origin);
        let hi = lo + steps[lo..].partition_point(|s| s.f == origin);
        lo..hi
    }

    /// A list of no move of `position` under `rules`, to be filled.
    #[inline]
    fn empty(rules: Rules, position: Position) -> MoveList {
        MoveList {
            passes: false,
            steps: Steps::new(),
            step_moves: 0,
            reorienting: 0,
            free: 0,
            turns: &[],
            sizes: [0; 4],
            per_chevron: 0,
            total: 0,
            rules,
            position,
        }
    }

    /// The moves of the chevron on `origin` alone, a list of their own in the same order
    /// (`LegalMoves.from_field`): its step and pincer families, then its reorientation
    /// families {R14}, each with the moves it has here. Empty when no chevron of the
    /// player to move with a move stands there, and for a pass list (a pass is no
    /// chevron's move {S-R2, A-R10}).
    pub fn of_chevron(&self, origin: u8) -> MoveList {
        let mut out = MoveList::empty(self.rules, self.position.clone());
        if self.passes {
            return out;
        }
        let range = self.steps_from(origin);
        // The step ends are running move counts: counted again from this chevron's first.
        let before = self.step_begin(range.start);
        for s in self.steps.as_slice().get(range).unwrap_or(&[]) {
            let end = u64::from(s.end) - before;
            out.steps.push(Step {
                end: step_end(end),
                ..*s
            });
            out.step_moves = end;
        }
        out.total = out.step_moves;
        let bit = Field::new(origin).map_or(0, Field::bit);
        if self.reorienting & bit != 0 {
            out.reorienting = bit;
            out.free = self.free;
            out.turns = self.turns;
            out.sizes = self.sizes;
            out.per_chevron = self.per_chevron;
            out.total += self.per_chevron;
        }
        out
    }

    /// The choices of the `i`-th step family, in list order: its twists {S-R4, A-R6}, or
    /// its Pacru benefits, each with its meeting fields {R4-R12, D13-D23, D29}. The moves
    /// of one choice follow each other in the list, one per meeting field ascending (one
    /// move when it has none). Empty from `i == step_count()` on.
    pub fn step_choices(&self, i: usize) -> Vec<StepChoice> {
        let mut out = Vec::with_capacity(4);
        self.each_step_choice(i, |c| out.push(c));
        out
    }

    /// Gives each of [`MoveList::step_choices`] to `visit`, in order, without a vector.
    pub fn each_step_choice(&self, i: usize, mut visit: impl FnMut(StepChoice)) {
        let Some(s) = self.steps.as_slice().get(i) else {
            return;
        };
        let mut give = |o: &Opt| {
            visit(StepChoice {
                twist: o.twist,
                connection: o.conn,
                marker: opt_marker(o),
                meetings: o.meet,
            })
        };
        if self.rules.pacru() {
            // Each as it is made: gathered into `Opts`, the ten of them were copied back.
            PacruCtx::new(&self.rules, &self.position).each_option(s, |o| {
                give(&o);
                true
            });
        } else {
            self.choices(s).as_slice().iter().for_each(give);
        }
    }

    /// How the moves are laid out: the number of step moves (they come first), then per
    /// reorienting chevron the sizes of its reorientation families by turn (-2, -1, +1,
    /// +2; zero where a turn is missing), how many turns there are (4, 2 or 0) and the
    /// moves per chevron {R14}.
    pub fn reorientation_layout(&self) -> (u64, [u64; 4], usize, u64) {
        (
            self.step_moves,
            self.sizes,
            self.turns.len(),
            self.per_chevron,
        )
    }

    /// The reorientations' fields {R14}: the bitboard of the chevrons that may reorient,
    /// and that of the own unoccupied fields they may give up (D25); both 0 without.
    pub fn reorientation_fields(&self) -> (u128, u128) {
        (self.reorienting, self.free)
    }

    /// The position the moves are legal in.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules the moves follow.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The `index`-th move in the Python order; None out of range.
    pub fn get(&self, index: u64) -> Option<Move> {
        if index >= self.total {
            return None;
        }
        if self.passes {
            return Some(Move::Pass);
        }
        if index < self.step_moves {
            let steps = self.steps.as_slice();
            let i = steps.partition_point(|s| u64::from(s.end) <= index);
            let s = steps.get(i)?;
            let rest = index - self.step_begin(i);
            if !self.rules.pacru() {
                // One move per twist: no choice list needed.
                let twist = *PlainCtx::new(&self.rules, &self.position)
                    .twists(s)
                    .get(usize::try_from(rest).ok()?)?;
                return Some(with_step(
                    s,
                    StepMove {
                        twist,
                        ..step_base(s)
                    },
                ));
            }
            if s.bare {
                return Some(with_step(s, step_base(s)));
            }
            let (mut rest, mut found) = (rest, None);
            PacruCtx::new(&self.rules, &self.position).each_option(s, |o| {
                let size = o.size();
                if rest < size {
                    found = choice_move(s, &o, rest);
                    return false;
                }
                rest -= size;
                true
            });
            return found;
        }
        let rest = index - self.step_moves;
        if self.per_chevron == 0 {
            return None;
        }
        let chevron = u32::try_from(rest / self.per_chevron).ok()?;
        let mut rest = rest % self.per_chevron;
        for (i, &turn) in self.turns.iter().enumerate() {
            let size = self.sizes[i];
            if rest < size {
                let cost = 2 * turn.unsigned_abs() as usize;
                return Some(Move::Reorientation {
                    origin: Field::of(nth_field(self.reorienting, chevron)?),
                    turn,
                    relinquished: unrank(self.free, cost, rest),
                });
            }
            rest -= size;
        }
        None
    }

    /// Where the moves of the `i`-th step start.
    fn step_begin(&self, i: usize) -> u64 {
        match i.checked_sub(1) {
            Some(j) => self.steps.as_slice().get(j).map_or(0, |s| u64::from(s.end)),
            None => 0,
        }
    }

    /// The choices of step `s` of this list, in order: its twists, or its Pacru benefits
    /// with their meetings.
    fn choices(&self, s: &Step) -> Opts {
        if self.rules.pacru() {
            PacruCtx::new(&self.rules, &self.position).options(s)
        } else {
            Opts::twists(PlainCtx::new(&self.rules, &self.position).twists(s))
        }
    }

    /// The position of `m` in the list (the Python `in`), or None if it is not legal here.
    pub fn index_of(&self, m: &Move) -> Option<u64> {
        if !m.is_well_formed() || self.total == 0 {
            return None;
        }
        let Some(origin) = m.origin() else {
            return self.passes.then_some(0);
        };
        if self.passes {
            return None;
        }
        let Some(target) = m.target() else {
            return self.reorientation_index(origin, m);
        };
        let i =
            self.steps.as_slice().iter().position(|s| {
                s.t == target.get() && s.f == origin.get() && s.capture == m.capture()
            })?;
        let s = self.steps.as_slice()[i];
        // A field beyond `i8` (no field: a malformed move) matches no marker.
        let marker = m
            .marker()
            .map_or(-1, |f| i8::try_from(f.get()).unwrap_or(i8::MAX));
        let mut index = self.step_begin(i);
        for o in self.choices(&s).as_slice() {
            if o.twist == m.twist() && o.conn == m.connection() && o.marker == marker {
                if o.meet == 0 {
                    return m.meeting().is_none().then_some(index);
                }
                let f = m.meeting()?;
                if o.meet & f.bit() == 0 {
                    return None;
                }
                return Some(index + u64::from((o.meet & (f.bit() - 1)).count_ones()));
            }
            index += o.size();
        }
        None
    }

    fn reorientation_index(&self, origin: Field, m: &Move) -> Option<u64> {
        let t = self.turns.iter().position(|&t| t == m.turn())?;
        if self.reorienting & origin.bit() == 0 {
            return None;
        }
        let chevron = (self.reorienting & (origin.bit() - 1)).count_ones();
        let cost = 2 * u32::from(m.turn().unsigned_abs());
        if m.relinquished().count_ones() != cost || m.relinquished() & !self.free != 0 {
            return None;
        }
        let base = self.step_moves + u64::from(chevron) * self.per_chevron;
        let before: u64 = self.sizes[..t].iter().sum();
        Some(base + before + rank(self.free, m.relinquished()))
    }

    /// Every move, in order (the choices of each step worked out once).
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        let steps = self.steps.as_slice().iter().flat_map(move |s| {
            let choices = self.choices(s);
            (0..choices.as_slice().len()).flat_map(move |j| {
                let o = choices.as_slice()[j];
                (0..o.size()).filter_map(move |rest| choice_move(s, &o, rest))
            })
        });
        let start = if self.passes { 0 } else { self.step_moves };
        steps.chain((start..self.total).filter_map(move |i| self.get(i)))
    }
}

/// The fields of step `s`, without choices.
fn step_base(s: &Step) -> StepMove {
    StepMove::new(Field::of(s.f), Field::of(s.t))
}

/// The move of step `s` with the choices of `step`: a pincer when `s` captures {R11}.
fn with_step(s: &Step, step: StepMove) -> Move {
    if s.capture {
        Move::Pincer(step)
    } else {
        Move::Step(step)
    }
}

/// The marker field of choice `o` (its -1: none).
fn opt_marker(o: &Opt) -> Option<Field> {
    u8::try_from(o.marker).ok().map(Field::of)
}

/// A running move count as a step's `end` (a `u32`: no position has 2**32 moves).
fn step_end(total: u64) -> u32 {
    u32::try_from(total).unwrap_or(u32::MAX)
}

/// The `rest`-th move of the choice `o` of step `s` (its meeting field, if any).
fn choice_move(s: &Step, o: &Opt, rest: u64) -> Option<Move> {
    let meeting = if o.meet != 0 {
        Some(Field::of(nth_field(o.meet, u32::try_from(rest).ok()?)?))
    } else {
        None
    };
    let step = StepMove {
        twist: o.twist,
        connection: o.conn,
        marker: opt_marker(o),
        meeting,
        ..step_base(s)
    };
    Some(with_step(s, step))
}
