//! A reference bot for the chevron games: alpha-beta search with a learned evaluation.
//!
//! [`search`] runs iterative deepening alpha-beta from the view of the seat to move at
//! the root: with two players that is minimax, with three or four it is the *paranoid*
//! search (every other seat is assumed to play against the root seat), so alpha-beta
//! pruning applies to every player count. Move ordering: the transposition table's move,
//! pincers {R11}, moves that gain a field or a marker, two killer moves per ply, then
//! the history counts. The transposition table is keyed by a zobrist hash of the
//! position (chevrons, markers, seat to move, eliminated seats, Azacru trigger).
//! Reorientations are searched by family ([`candidates`]).
//!
//! Leaves are valued by [`features::evaluate`], a logistic model of the chance to win
//! fitted by self-play (`scripts/train_eval.py`), or by a [`Network`] trained by
//! `pacru train` ([`network`]), plus a tiny seeded noise (at most
//! [`NOISE`] thousandths of a logit) so that seeded bots vary their play between games.
//! In Lilacru and Shacru the idle limit (D33) ends the game like any other rule, the
//! most markers winning, and a leaf moves [`IDLE_PRESSURE`] per ply since a field was
//! last acquired toward the seat ahead in markers: the seat ahead may let the counter
//! run, the seat behind must acquire before the limit.
//! The budget is a node count, a time, or both; with a node count only, the same seed
//! gives the same move. [`search_until`] also stops when a flag another thread sets
//! turns true (the Python binding's Ctrl-C).
//!
//! A move that a position lists but cannot play because a counter is at its end
//! ([`EngineError::CounterLimit`]: the ply at `u64::MAX`) is never searched nor
//! answered; a node none of whose moves can be played is valued as a leaf.

#![forbid(unsafe_code)]

mod candidates;
pub mod features;
pub mod network;
mod selfplay;
mod table;
pub mod territory;

pub use candidates::candidates;
pub use features::{DEFAULT_WEIGHTS, FEATURES, FEATURE_NAMES};
pub use network::{Network, NetworkError};
pub use selfplay::{selfplay, SelfPlay};

use features::evaluate;
use pacru_engine::{legal_moves, EngineError, Field, Move, MoveList, Position, Rules};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use table::{zobrist, Bound, Table};

/// The value of a won game (less the plies to reach it), in thousandths of a logit.
pub const WIN: i32 = 1_000_000;
/// The largest evaluation of a game going on (a logit of 100).
const EVAL_CAP: i32 = 100_000;
/// The amplitude of the seeded evaluation noise, in thousandths of a logit.
pub const NOISE: i32 = 4;
/// Lilacru and Shacru: per ply without a field acquired (D33), in thousandths of a
/// logit, the value gained by the seat ahead in markers (lost by one behind): at the
/// idle limit the most markers win.
pub const IDLE_PRESSURE: i32 = 4;
const MAX_DEPTH: u32 = 64;
const INF: i32 = i32::MAX / 2;

/// What a search may spend: nodes (positions visited), time, and a depth cap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this long (checked every 256 nodes, as the stop flag of
    /// [`search_until`] is).
    pub time: Option<Duration>,
    /// Stop after completing this depth (plies; at most 64).
    pub depth: Option<u32>,
}

/// The settings of one search.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The budget.
    pub budget: Budget,
    /// The seed of the evaluation noise.
    pub seed: u64,
    /// The evaluation weights ([`FEATURE_NAMES`] order), in logits per unit.
    pub weights: [f32; FEATURES],
    /// A network that corrects the weights' values of the leaves ([`network`]).
    pub network: Option<Arc<Network>>,
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    /// The move to play.
    pub best: Move,
    /// Its value for the seat to move, in thousandths of a logit (`WIN - plies` for a
    /// forced win).
    pub value: i32,
    /// The deepest completed iteration (plies; 0 when none completed).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
}

struct Searcher<'a> {
    rules: &'a Rules,
    settings: &'a Settings,
    stop: &'a AtomicBool,
    root: usize,
    nodes: u64,
    start: Instant,
    stopped: bool,
    table: Table,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
}

/// Searches `pos` for the seat to move; None when it has no move it can play (the game
/// is over, a blocked Pacru player {R15}, or a counter at its end: see
/// [`search_until`], which tells the last apart). Always returns a move of `pos` that can
/// be played when there is one, even when the budget runs out before the first
/// iteration completes.
pub fn search(rules: &Rules, pos: &Position, settings: &Settings) -> Option<Report> {
    search_until(rules, pos, settings, &AtomicBool::new(false))
        .ok()
        .flatten()
}

/// [`search`], also stopping soon (within 256 nodes) after `stop` turns true; the
/// report is then that of an exhausted budget.
///
/// # Errors
/// The seat to move has legal moves but none can be played: the refusal of the first
/// ([`EngineError::CounterLimit`] for a ply at its end), as applying it would give.
pub fn search_until(
    rules: &Rules,
    pos: &Position,
    settings: &Settings,
    stop: &AtomicBool,
) -> Result<Option<Report>, EngineError> {
    let list = legal_moves(rules, pos);
    let moves = playable(&list)?;
    let Some(&first) = moves.first() else {
        return Ok(None);
    };
    let mut s = Searcher {
        rules,
        settings,
        stop,
        root: usize::from(pos.to_move),
        nodes: 0,
        start: Instant::now(),
        stopped: false,
        table: Table::new(1 << 17),
        killers: vec![[None; 2]; MAX_DEPTH as usize + 2],
        history: vec![0; 81 * 82],
    };
    let mut report = Report {
        best: first,
        value: 0,
        depth: 0,
        nodes: 0,
    };
    if moves.len() == 1 {
        return Ok(Some(report));
    }
    let max_depth = settings
        .budget
        .depth
        .unwrap_or(MAX_DEPTH)
        .clamp(1, MAX_DEPTH);
    let mut order = moves;
    for depth in 1..=max_depth {
        let (value, best, complete) = s.root_search(&list, &mut order, depth);
        if let Some(best) = best {
            if complete || best != report.best {
                report.best = best;
                report.value = value;
            }
        }
        if !complete {
            break;
        }
        report.depth = depth;
        if value.unsigned_abs() >= WIN.unsigned_abs() - MAX_DEPTH * 2 {
            break;
        }
    }
    report.nodes = s.nodes;
    Ok(Some(report))
}

/// The candidates of `list` that can be played; the refusal of the first candidate
/// when none can (a counter at its end), empty when there is no candidate.
fn playable(list: &MoveList) -> Result<Vec<Move>, EngineError> {
    let moves = candidates(list);
    let mut next = list.position().clone();
    let mut refusal = None;
    let kept: Vec<Move> = moves
        .into_iter()
        .filter(|m| match list.resolve_listed_into(m, &mut next) {
            Ok(()) => true,
            Err(err) => {
                refusal.get_or_insert(err);
                false
            }
        })
        .collect();
    match refusal {
        Some(err) if kept.is_empty() => Err(err),
        _ => Ok(kept),
    }
}

impl Searcher<'_> {
    /// One iteration at the root: (value, best move, completed), the best move moved to
    /// the front of `order` for the next iteration. An interrupted iteration returns the
    /// best move found among the moves it searched completely, if it searched the
    /// previous best first.
    fn root_search(
        &mut self,
        list: &MoveList,
        order: &mut [Move],
        depth: u32,
    ) -> (i32, Option<Move>, bool) {
        let (mut alpha, beta) = (-INF, INF);
        let mut best: Option<(usize, i32)> = None;
        let mut next = list.position().clone();
        for (i, m) in order.iter().enumerate() {
            if !list.apply_listed_into(m, &mut next) {
                continue;
            }
            let v = self.alphabeta(&next, depth - 1, 1, alpha, beta);
            if self.stopped {
                break;
            }
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((i, v));
                alpha = alpha.max(v);
            }
        }
        let Some((i, v)) = best else {
            return (0, None, false);
        };
        order[..=i].rotate_right(1);
        let complete = !self.stopped;
        // An interrupted iteration counts only when its first move (last best) was done.
        if !complete && i != 0 {
            return (v, Some(order[0]), false);
        }
        (v, Some(order[0]), complete)
    }

    fn out_of_budget(&mut self) -> bool {
        let b = &self.settings.budget;
        let nodes_spent = b.nodes.is_some_and(|n| self.nodes >= n);
        let now = self.nodes.is_multiple_of(256);
        let time_spent = now && b.time.is_some_and(|t| self.start.elapsed() >= t);
        let told = now && self.stop.load(Ordering::Relaxed);
        self.stopped |= nodes_spent || time_spent || told;
        self.stopped
    }

    /// The value of `pos` for the root seat (paranoid minimax), between `alpha` and `beta`.
    fn alphabeta(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if let Some(o) = pos.outcome {
            let me = 1u8 << self.root;
            let plies = i32::try_from(ply).unwrap_or(i32::MAX);
            return if o.winners == me {
                WIN - plies
            } else if o.winners & me != 0 && pos.players == 2 {
                // A shared win of two players is a draw (D35): worth less than a
                // position the evaluation calls won, more than one it calls lost.
                0
            } else if o.winners & me != 0 {
                // A shared win of three or four (D35): better than nothing, worse
                // than a sole win.
                WIN / 2 - plies
            } else if o.winners == 0 {
                0
            } else {
                plies - WIN
            };
        }
        if depth == 0 {
            return self.leaf(pos);
        }
        let key = zobrist(pos);
        let mut tt_move = None;
        if let Some(e) = self.table.probe(key) {
            tt_move = Some(e.best);
            if u32::from(e.depth) >= depth {
                match e.bound {
                    Bound::Exact => return e.value,
                    Bound::Lower => alpha = alpha.max(e.value),
                    Bound::Upper => beta = beta.min(e.value),
                }
                if alpha >= beta {
                    return e.value;
                }
            }
        }
        let list = legal_moves(self.rules, pos);
        let mut moves = candidates(&list);
        if moves.is_empty() {
            return self.leaf(pos);
        }
        self.order(pos, &mut moves, tt_move, ply);
        let maximizing = usize::from(pos.to_move) == self.root;
        let (alpha0, beta0) = (alpha, beta);
        let mut best_value = if maximizing { -INF } else { INF };
        let mut best_index = 0u16;
        let mut searched = false;
        let mut next = pos.clone();
        for (i, m) in moves.iter().enumerate() {
            if !list.apply_listed_into(m, &mut next) {
                continue;
            }
            searched = true;
            let v = self.alphabeta(&next, depth - 1, ply + 1, alpha, beta);
            if self.stopped {
                return 0;
            }
            let better = if maximizing {
                v > best_value
            } else {
                v < best_value
            };
            if better {
                best_value = v;
                best_index = u16::try_from(i).unwrap_or(u16::MAX);
            }
            if maximizing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.reward(m, ply, depth);
                break;
            }
        }
        if !searched {
            // No move can be played (the ply at its end): nothing follows, so the position
            // is valued as a leaf, not as the +-INF of an empty minimax.
            return self.leaf(pos);
        }
        let bound = if best_value <= alpha0 {
            Bound::Upper
        } else if best_value >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // A minimizing node's bounds are the same inequalities on the root's value.
        self.table.store(
            key,
            best_value,
            depth.min(255) as u8,
            bound,
            moves[best_index as usize],
        );
        best_value
    }

    /// The evaluation for the root seat with its seeded noise, in thousandths of a logit.
    fn leaf(&self, pos: &Position) -> i32 {
        let value = match &self.settings.network {
            Some(network) => network.evaluate(self.rules, pos, self.root, &self.settings.weights),
            None => evaluate(self.rules, pos, self.root, &self.settings.weights),
        };
        let cap = f64::from(EVAL_CAP);
        // Clamped to the cap first: the truncation toward zero fits an `i32`.
        #[allow(clippy::cast_possible_truncation)]
        let scaled = f64::from(value * 1000.0).clamp(-cap, cap) as i32;
        let span = u64::from(2 * NOISE.unsigned_abs() + 1);
        let draw = pacru_engine::rng::splitmix(zobrist(pos) ^ self.settings.seed) % span;
        let noise = i32::try_from(draw).unwrap_or(0);
        scaled + noise - NOISE + self.idle_pressure(pos)
    }

    /// Lilacru and Shacru: [`IDLE_PRESSURE`] per idle ply for the root seat when it
    /// has more markers than every other seat, against it when some seat has more.
    fn idle_pressure(&self, pos: &Position) -> i32 {
        if !self.rules.lookahead_end() || pos.idle == 0 {
            return 0;
        }
        let count = |seat: usize| pos.markers[seat].count_ones();
        let mine = count(self.root);
        let best_other = (0..usize::from(pos.players.clamp(2, 4)))
            .filter(|&s| s != self.root)
            .map(count)
            .max()
            .unwrap_or(0);
        let sign = match mine.cmp(&best_other) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Less => -1,
        };
        sign * IDLE_PRESSURE * pos.idle.min(10_000) as i32
    }

    fn order(&self, pos: &Position, moves: &mut [Move], tt_move: Option<Move>, ply: u32) {
        let own = pos.markers[usize::from(pos.to_move) % 4];
        let killers = self.killers.get(ply as usize).copied().unwrap_or([None; 2]);
        let key = |m: &Move| -> i64 {
            if Some(*m) == tt_move {
                return i64::MAX;
            }
            let mut score = 0i64;
            if m.target().is_none() {
                return -1_000_000_000 + i64::from(m.turn().unsigned_abs());
            }
            if m.capture() {
                score += 100_000_000;
            }
            if m.marker().is_some() || m.meeting().is_some() {
                score += 10_000_000;
            }
            if m.target().is_some_and(|t| own & t.bit() == 0) && !m.capture() {
                score += 1_000_000;
            }
            if killers[0] == Some(*m) {
                score += 500_000;
            } else if killers[1] == Some(*m) {
                score += 400_000;
            }
            score + i64::from(self.history[history_index(m)])
        };
        // A stable sort keeps the list order among equals: deterministic.
        moves.sort_by_cached_key(|m| std::cmp::Reverse(key(m)));
    }

    fn reward(&mut self, m: &Move, ply: u32, depth: u32) {
        if m.capture() {
            return;
        }
        if let Some(k) = self.killers.get_mut(ply as usize) {
            if k[0] != Some(*m) {
                k[1] = k[0];
                k[0] = Some(*m);
            }
        }
        let h = &mut self.history[history_index(m)];
        let bonus = i32::try_from(depth * depth).unwrap_or(i32::MAX);
        *h = h.saturating_add(bonus).min(300_000);
    }
}

fn history_index(m: &Move) -> usize {
    let o = m.origin().map_or(0, Field::index);
    let t = m.target().map_or(81, Field::index);
    o * 82 + t
}
