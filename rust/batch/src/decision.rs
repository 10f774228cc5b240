//! The chevron encoding of `pacru.encoding.chevron`, decision by decision, natively: the
//! legal actions of each decision, the move an action sequence builds, the observation
//! planes. It follows the Python module step for step (its docstring gives the layout);
//! the Python encoding is the oracle and the two must agree bit for bit.

use std::sync::Arc;

use pacru_engine::{legal_moves, MoveList, Position, Rules, Termination};

use crate::rollout::{runs_of, shape, Shape};

pub const PASS: u16 = 0;
pub const ORIGIN: u16 = 1;
pub const TARGET: u16 = 82;
pub const TURN: u16 = 163;
pub const TWIST: u16 = 167;
pub const BENEFIT_NONE: u16 = 170;
pub const BENEFIT_CONNECTION: u16 = 171;
pub const MARKER: u16 = 172;
pub const MEETING: u16 = 253;
pub const RELINQUISH: u16 = 334;
pub const NUM_ACTIONS: usize = 415;
const TURNS: [i8; 4] = [-2, -1, 1, 2];

/// Stages of a move being chosen, as `_ORIGIN` .. `_DONE` of the Python module.
const S_ORIGIN: u8 = 0;
const S_TARGET: u8 = 1;
const S_TWIST: u8 = 2;
const S_BENEFIT: u8 = 3;
const S_MEETING: u8 = 4;
const S_RELINQUISH: u8 = 5;

/// The fixed parts of an encoding: the game and its scales.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub rules: Rules,
    pub players: u8,
    /// 0..3: Lilacru, Shacru, Azacru, Pacru (the "game" planes).
    pub game_index: u8,
    pub ply_scale: f64,
    pub idle_scale: f64,
    /// The Pacru supply of each player {R1} (0 for the other games).
    pub supply: u32,
}

impl Layout {
    /// The observation planes: 13 per player and 25.
    pub fn planes(&self) -> usize {
        13 * usize::from(self.players) + 25
    }
}

/// One choice of a step family: twist, connection change, marker field (-1: none) and
/// meeting fields (a bitboard, 0: no meeting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Opt {
    twist: i8,
    conn: bool,
    marker: i16,
    meet: u128,
}

impl Opt {
    fn benefit(&self) -> u16 {
        if self.conn {
            BENEFIT_CONNECTION
        } else if self.marker < 0 {
            BENEFIT_NONE
        } else {
            MARKER + self.marker as u16
        }
    }
}

#[derive(Clone, Debug)]
enum Fam {
    Step {
        start: u64,
        size: u64,
        target: u8,
        options: Vec<Opt>,
    },
    Reo {
        start: u64,
        turn_index: u8,
        fields: Vec<u8>,
        cost: usize,
    },
}

/// One game of a batch: its position, and the decision under way (none once it is over).
#[derive(Clone, Debug)]
pub struct Game {
    pub pos: Position,
    list: Arc<MoveList>,
    shape: Shape,
    stage: u8,
    origin: i16,
    fam: Option<Arc<Fam>>,
    cands: Vec<u8>,
    twist: i8,
    benefit: i16,
    chosen: Vec<u8>,
    /// The legal actions of the decision, ascending (empty once the game is over).
    pub legal: Vec<u16>,
    /// The actions already chosen in the move under way.
    pub prefix: Vec<u16>,
}

fn bits(mut board: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if board == 0 {
            return None;
        }
        let f = board.trailing_zeros() as u8;
        board &= board - 1;
        Some(f)
    })
}

fn comb(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

impl Game {
    /// The first decision of `pos` (or its end).
    pub fn start(layout: &Layout, pos: Position) -> Game {
        let list = Arc::new(legal_moves(&layout.rules, &pos));
        let mut game = Game {
            pos,
            list,
            shape: Shape::default(),
            stage: S_ORIGIN,
            origin: -1,
            fam: None,
            cands: Vec::new(),
            twist: -2,
            benefit: -1,
            chosen: Vec::new(),
            legal: Vec::new(),
            prefix: Vec::new(),
        };
        if game.pos.outcome.is_some() {
            return game;
        }
        if game.list.is_pass() {
            game.legal.push(PASS);
        } else {
            game.shape = shape(&layout.rules, &game.pos, &game.list);
            let origins = if game.shape.turns > 0 {
                // Every own chevron may reorient {R14}; the steps' origins are among them.
                game.pos.chevrons[usize::from(game.pos.to_move)].fields()
            } else {
                let list = &*game.list;
                let mut runs = Vec::new();
                let key = |i: u64| list.get(i).and_then(|m| m.origin);
                runs_of(0, game.shape.step_moves, key, None, &mut runs);
                runs.iter()
                    .filter_map(|&(start, _)| key(start))
                    .fold(0u128, |acc, o| acc | 1u128 << o)
            };
            game.legal = bits(origins).map(|f| ORIGIN + u16::from(f)).collect();
        }
        game
    }

    pub fn is_over(&self) -> bool {
        self.legal.is_empty()
    }

    /// The game after the legal `action`.
    pub fn choose(&self, layout: &Layout, action: u16) -> Game {
        let mut prefix = Vec::with_capacity(self.prefix.len() + 1);
        prefix.extend_from_slice(&self.prefix);
        prefix.push(action);
        // Every part but the legal actions, which the next decision sets.
        let mut g = Game {
            pos: self.pos.clone(),
            list: self.list.clone(),
            shape: self.shape,
            stage: self.stage,
            origin: self.origin,
            fam: self.fam.clone(),
            cands: self.cands.clone(),
            twist: self.twist,
            benefit: self.benefit,
            chosen: self.chosen.clone(),
            legal: Vec::new(),
            prefix,
        };
        match self.stage {
            S_ORIGIN => {
                if action == PASS {
                    return g.finish(layout, 0);
                }
                g.origin = (action - ORIGIN) as i16;
                g.target_stage(layout)
            }
            S_TARGET => {
                let fam = g
                    .families_of_origin()
                    .into_iter()
                    .find(|f| match f {
                        Fam::Step { target, .. } => TARGET + u16::from(*target) == action,
                        Fam::Reo { turn_index, .. } => TURN + u16::from(*turn_index) == action,
                    })
                    .expect("a legal target or turn has its family");
                g.enter(layout, fam)
            }
            S_RELINQUISH => {
                if let Some(Fam::Reo { fields, .. }) = g.fam.as_deref() {
                    let f = (action - RELINQUISH) as u8;
                    let at = fields.iter().position(|&x| x == f).unwrap_or(0);
                    g.chosen.push(at as u8);
                }
                g.relinquish_stage(layout)
            }
            S_TWIST => {
                let twist = action as i16 - TWIST as i16 - 1;
                let fam = g.family();
                let options = step_options_of(&fam);
                g.cands
                    .retain(|&i| i16::from(options[i as usize].twist) == twist);
                g.twist = twist as i8;
                g.option_stage(layout)
            }
            S_BENEFIT => {
                let fam = g.family();
                let options = step_options_of(&fam);
                g.cands.retain(|&i| options[i as usize].benefit() == action);
                g.benefit = action as i16;
                g.option_stage(layout)
            }
            _ => {
                // S_MEETING
                let meeting = u32::from(action - MEETING);
                g.finish_step(layout, Some(meeting))
            }
        }
    }

    /// The family under way (shared, so that its options are read while `self` changes).
    fn family(&self) -> Option<Arc<Fam>> {
        self.fam.clone()
    }

    /// The families of the chosen origin, in list order (steps, then reorientations); the
    /// steps' options are read when one is entered.
    fn families_of_origin(&self) -> Vec<Fam> {
        let origin = self.origin as u8;
        let (pos, list, shape) = (&self.pos, &*self.list, self.shape);
        let origin_of = |i: u64| list.get(i).and_then(|m| m.origin);
        // Steps come by chevron, ascending field: bisect for this chevron's.
        let bound = |strict: bool| {
            let (mut lo, mut hi) = (0u64, shape.step_moves);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                let o = origin_of(mid);
                let before = if strict {
                    o < Some(origin)
                } else {
                    o <= Some(origin)
                };
                if before {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        let (lo, hi) = (bound(true), bound(false));
        let mut runs = Vec::new();
        runs_of(
            lo,
            hi,
            |i| list.get(i).and_then(|m| m.target),
            None,
            &mut runs,
        );
        let mut out: Vec<Fam> = runs
            .iter()
            .map(|&(start, size)| Fam::Step {
                start,
                size,
                target: list.get(start).and_then(|m| m.target).unwrap_or(0),
                options: Vec::new(),
            })
            .collect();
        if shape.turns > 0 {
            let seat = usize::from(pos.to_move);
            let own = pos.chevrons[seat].fields();
            let k = u64::from((own & ((1u128 << origin) - 1)).count_ones());
            let free: Vec<u8> = bits(pos.markers[seat] & !pos.occupied()).collect();
            let turns: &[i8] = if shape.turns == 4 { &TURNS } else { &[-1, 1] };
            let mut start = shape.step_moves + k * shape.per_chevron;
            for (t, &turn) in turns.iter().enumerate() {
                out.push(Fam::Reo {
                    start,
                    turn_index: TURNS.iter().position(|&x| x == turn).unwrap_or(0) as u8,
                    fields: free.clone(),
                    cost: 2 * turn.unsigned_abs() as usize,
                });
                start += shape.sizes[t];
            }
        }
        out
    }

    /// The options of the step family of `size` moves from `start`, in order.
    fn step_options(&self, start: u64, size: u64) -> Vec<Opt> {
        let mut options: Vec<Opt> = Vec::new();
        for i in start..start + size {
            let Some(m) = self.list.get(i) else { break };
            let opt = Opt {
                twist: m.twist,
                conn: m.connection,
                marker: m.marker.map_or(-1, i16::from),
                meet: m.meeting.map_or(0, |x| 1u128 << x),
            };
            // The moves of one option differ only by their meeting field, ascending.
            match options.last_mut() {
                Some(last)
                    if m.meeting.is_some()
                        && last.meet != 0
                        && (last.twist, last.conn, last.marker)
                            == (opt.twist, opt.conn, opt.marker)
                        && last.meet < opt.meet =>
                {
                    last.meet |= opt.meet
                }
                _ => options.push(opt),
            }
        }
        options
    }

    fn ask(mut self, stage: u8, legal: Vec<u16>) -> Game {
        self.stage = stage;
        self.legal = legal;
        self
    }

    fn target_stage(mut self, layout: &Layout) -> Game {
        let mut fams = self.families_of_origin();
        if fams.len() > 1 {
            let mut acts: Vec<u16> = fams
                .iter()
                .map(|f| match f {
                    Fam::Step { target, .. } => TARGET + u16::from(*target),
                    Fam::Reo { turn_index, .. } => TURN + u16::from(*turn_index),
                })
                .collect();
            acts.sort_unstable();
            return self.ask(S_TARGET, acts);
        }
        let only = fams.pop().expect("a legal origin has a family");
        self.fam = None;
        self.enter(layout, only)
    }

    fn enter(mut self, layout: &Layout, mut fam: Fam) -> Game {
        let is_step = matches!(fam, Fam::Step { .. });
        if let Fam::Step {
            start,
            size,
            options,
            ..
        } = &mut fam
        {
            *options = self.step_options(*start, *size);
            self.cands = (0..options.len() as u8).collect();
        }
        self.fam = Some(Arc::new(fam));
        if is_step {
            self.option_stage(layout)
        } else {
            self.relinquish_stage(layout)
        }
    }

    fn option_stage(mut self, layout: &Layout) -> Game {
        let fam = self.family();
        let options = step_options_of(&fam);
        let meet;
        if self.cands.len() == 1 {
            // As the Python cursor: the only option gives the twist and benefit shown.
            let o = options[self.cands[0] as usize];
            self.twist = o.twist;
            self.benefit = o.benefit() as i16;
            meet = o.meet;
        } else {
            if self.twist == -2 {
                let mut acts: Vec<u16> = self
                    .cands
                    .iter()
                    .map(|&i| (TWIST as i16 + 1 + i16::from(options[i as usize].twist)) as u16)
                    .collect();
                acts.sort_unstable();
                acts.dedup();
                if acts.len() > 1 {
                    return self.ask(S_TWIST, acts);
                }
                self.twist = (acts[0] as i16 - TWIST as i16 - 1) as i8;
            }
            let mut acts: Vec<u16> = self
                .cands
                .iter()
                .map(|&i| options[i as usize].benefit())
                .collect();
            acts.sort_unstable();
            acts.dedup();
            if acts.len() > 1 {
                return self.ask(S_BENEFIT, acts);
            }
            self.benefit = acts[0] as i16;
            meet = options[self.cands[0] as usize].meet;
        }
        if meet & meet.wrapping_sub(1) != 0 {
            let acts = bits(meet).map(|f| MEETING + u16::from(f)).collect();
            return self.ask(S_MEETING, acts);
        }
        let meeting = (meet != 0).then(|| meet.trailing_zeros());
        self.finish_step(layout, meeting)
    }

    fn finish_step(self, layout: &Layout, meeting: Option<u32>) -> Game {
        let fam = self.family();
        let options = step_options_of(&fam);
        let Some(Fam::Step { start, .. }) = self.fam.as_deref() else {
            return self;
        };
        let oi = self.cands[0] as usize;
        let mut index: u64 = options[..oi]
            .iter()
            .map(|o| u64::from(o.meet.count_ones().max(1)))
            .sum();
        let meet = options[oi].meet;
        if let (Some(m), true) = (meeting, meet != 0) {
            index += u64::from((meet & ((1u128 << m) - 1)).count_ones());
        }
        let at = *start + index;
        self.finish(layout, at)
    }

    fn relinquish_stage(mut self, layout: &Layout) -> Game {
        let Some(Fam::Reo {
            start,
            fields,
            cost,
            ..
        }) = self.fam.as_deref().cloned()
        else {
            return self;
        };
        let n = fields.len();
        loop {
            let need = cost - self.chosen.len();
            if need == 0 {
                let rank = combination_rank(n as u64, cost as u64, &self.chosen);
                return self.finish(layout, start + rank);
            }
            let first = self.chosen.last().map_or(0, |&c| usize::from(c) + 1);
            let last = n - need;
            if last > first {
                let acts = (first..=last)
                    .map(|i| RELINQUISH + u16::from(fields[i]))
                    .collect();
                return self.ask(S_RELINQUISH, acts);
            }
            self.chosen.push(first as u8);
        }
    }

    /// The move of index `at` is played: the next position's first decision.
    fn finish(self, layout: &Layout, at: u64) -> Game {
        let next = self
            .list
            .apply_index(at)
            .expect("the chosen move is in the list");
        Game::start(layout, next)
    }

    /// Whether the game ended by a limit (the move cap D32, idle rounds D33), not a rule.
    pub fn truncated(&self) -> bool {
        matches!(
            self.pos.outcome.map(|o| o.termination),
            Some(Termination::MoveCap | Termination::IdleLimit)
        )
    }

    /// The observation planes of the decision seen by the player deciding, into `out`:
    /// `layout.planes() * 81` float32 values as native-endian bytes, zeroed by the caller.
    pub fn observation(&self, layout: &Layout, out: &mut [u8]) {
        let pos = &self.pos;
        let p = usize::from(layout.players);
        let player = usize::from(pos.to_move);
        let rot = |seat: usize| (seat + p - player) % p;
        let one = 1.0f32.to_ne_bytes();
        let mut set = |plane: usize, field: u8| {
            let at = 4 * (plane * 81 + usize::from(field));
            out[at..at + 4].copy_from_slice(&one);
        };
        for seat in 0..p {
            let r = rot(seat);
            for f in bits(pos.markers[seat]) {
                set(r, f);
            }
            for code in pos.chevrons[seat].iter() {
                set(p + 8 * r + usize::from(code & 7), (code >> 3) as u8);
            }
        }
        let d0 = 9 * p;
        if self.origin >= 0 {
            set(d0, self.origin as u8);
        }
        let mut full = Vec::new();
        match self.fam.as_deref() {
            Some(Fam::Step { target, .. }) => {
                set(d0 + 1, *target);
                if self.twist > -2 {
                    full.push((d0 as i64 + 16 + i64::from(self.twist)) as usize);
                }
                let b = self.benefit;
                if b >= MARKER as i16 {
                    set(d0 + 2, (b - MARKER as i16) as u8);
                } else if b == BENEFIT_CONNECTION as i16 {
                    full.push(d0 + 18);
                }
            }
            Some(Fam::Reo {
                turn_index, fields, ..
            }) => {
                full.push(d0 + 11 + usize::from(*turn_index));
                for &c in &self.chosen {
                    set(d0 + 4, fields[usize::from(c)]);
                }
            }
            None => {}
        }
        full.push(d0 + 5 + usize::from(self.stage));
        full.push(d0 + 19 + usize::from(layout.game_index));
        let b0 = d0 + 23;
        full.push(b0 + rot(usize::from(pos.to_move)));
        for seat in 0..p {
            if pos.out >> seat & 1 != 0 {
                full.push(b0 + p + rot(seat));
            }
        }
        if pos.trigger >= 0 {
            full.push(b0 + 2 * p + rot(pos.trigger as usize));
        }
        let nbin = b0 + 3 * p;
        let mut fill = |plane: usize, value: f32| {
            let bytes = value.to_ne_bytes();
            for cell in out[4 * 81 * plane..4 * 81 * (plane + 1)].chunks_exact_mut(4) {
                cell.copy_from_slice(&bytes);
            }
        };
        for plane in full {
            fill(plane, 1.0);
        }
        if layout.supply > 0 {
            let supply = f64::from(layout.supply);
            for seat in 0..p {
                let left = supply - f64::from(pos.markers[seat].count_ones());
                fill(nbin + rot(seat), (left / supply) as f32);
            }
        }
        fill(nbin + p, (f64::from(pos.idle) / layout.idle_scale) as f32);
        fill(
            nbin + p + 1,
            (f64::from(pos.ply) / layout.ply_scale).min(1.0) as f32,
        );
    }
}

/// The options of a step family (none for a reorientation or no family).
fn step_options_of(fam: &Option<Arc<Fam>>) -> &[Opt] {
    match fam.as_deref() {
        Some(Fam::Step { options, .. }) => options,
        _ => &[],
    }
}

/// The lexicographic rank of the `k`-subset `chosen` (ascending positions) of `n`.
fn combination_rank(n: u64, k: u64, chosen: &[u8]) -> u64 {
    let (mut rank, mut start) = (0u64, 0u64);
    for (j, &pos) in chosen.iter().enumerate() {
        for i in start..u64::from(pos) {
            rank += comb(n - i - 1, k - j as u64 - 1);
        }
        start = u64::from(pos) + 1;
    }
    rank
}
