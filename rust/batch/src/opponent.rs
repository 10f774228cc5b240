//! The built-in bots of `pacru.gymnasium_vector`, batched: `random` and `greedy` choose a
//! whole move natively and play it decision by decision through the encoding
//! ([`play_move`]), so a game's decision count is the same as when a Python bot plays.
//!
//! `Random` draws as `pacru.bots.RandomBot` (a move family first, [`Sampling::Families`]).
//! `Greedy` is `pacru.bots.GreedyBot`'s default rule: every step move and
//! [`REORIENTATION_SAMPLES`] reorientations drawn family first are tried, and the one whose
//! position afterwards is worth most to the mover is played (a sole win best, a loss
//! worst, a shared win in between, else `pacru.bots.evaluate`'s value, ported here
//! operation for operation so its values are the same floats). Ties are broken uniformly
//! by the game's SplitMix64 stream, not by Python's `random.Random`: the two bots pick
//! among the same best moves, not always the same one.

use pacru_engine::geometry::{bits, code_field, forward, LAND_OF, RAY, RAY_LEN};
use pacru_engine::{Move, MoveList, Position, Rules};

use crate::decision::{
    twist_action, Game, Layout, Next, Stage, BENEFIT_CONNECTION, BENEFIT_NONE, MARKER, MEETING,
    ORIGIN, PASS, RELINQUISH, TARGET, TURN, TURNS,
};
use crate::rng::SplitMix64;
use crate::rollout::{family_count, family_range, returns_of, sample_index, Sampling};

/// A built-in bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bot {
    Random,
    Greedy,
}

/// Reorientations `Greedy` tries per decision, as `GreedyBot(reorientation_samples=16)`.
pub const REORIENTATION_SAMPLES: usize = 16;

/// The action of decision `g` that leads towards move `m` (None: `m` is not reachable).
pub fn action_for(g: &Game, m: &Move) -> Option<u16> {
    let action = match g.stage() {
        Stage::Origin => m.origin().map_or(PASS, |o| ORIGIN + u16::from(o)),
        Stage::Target => match m.target() {
            Some(t) => TARGET + u16::from(t),
            None => TURN + (0u16..).zip(TURNS).find(|&(_, t)| t == m.turn())?.0,
        },
        Stage::Twist => twist_action(m.twist()),
        Stage::Benefit => match (m.connection(), m.marker()) {
            (true, _) => BENEFIT_CONNECTION,
            (false, Some(f)) => MARKER + u16::from(f),
            (false, None) => BENEFIT_NONE,
        },
        Stage::Meeting => MEETING + u16::from(m.meeting()?),
        // The fields given up are chosen lowest first: the lowest one still open.
        Stage::Relinquish => bits(m.relinquished())
            .map(|f| RELINQUISH + u16::from(f))
            .find(|&a| g.legal.contains(a))?,
        Stage::Done => return None,
    };
    g.legal.contains(action).then_some(action)
}

/// Move `index` of `game`'s list played decision by decision, at most `budget` decisions:
/// the game after them and how many were taken (fewer than the move needs only when the
/// budget ran out). None when the move is not in the list or its actions are not legal.
pub fn play_move(layout: &Layout, game: &Game, index: u64, budget: u32) -> Option<(Game, u32)> {
    let m = game.list().get(index)?;
    let mut g = game.clone();
    let mut taken = 0;
    while taken < budget {
        let action = action_for(&g, &m)?;
        taken += 1;
        match g.advance_into(action).ok()? {
            Next::Ask(next) => g = next,
            Next::Done(done, at) => {
                if at != index {
                    return None;
                }
                let next = done.list().apply_index(at)?;
                return Some((Game::start(layout, next), taken));
            }
        }
    }
    Some((g, taken))
}

/// The index of the move `bot` plays in `list` (not empty), drawing from `rng`.
pub fn choose(bot: Bot, rules: &Rules, list: &MoveList, rng: &mut SplitMix64) -> u64 {
    let pos = list.position();
    match bot {
        Bot::Random => sample_index(rules, pos, list, Sampling::Families, rng),
        Bot::Greedy => greedy(rules, list, rng),
    }
}

/// `GreedyBot`'s candidates: every step move, then the drawn reorientations (each once).
fn candidates(rules: &Rules, list: &MoveList, rng: &mut SplitMix64) -> Vec<u64> {
    let pos = list.position();
    let steps = list.step_count();
    let step_moves = (0..steps)
        .filter_map(|i| list.step_range(i))
        .map(|(start, size)| start + size)
        .max()
        .unwrap_or(0);
    let mut out: Vec<u64> = (0..step_moves).collect();
    let steps_end = out.len();
    let families = family_count(rules, pos, list);
    if families > steps {
        for _ in 0..REORIENTATION_SAMPLES {
            let family = steps + rng.below_index(families - steps);
            let (start, size) = family_range(list, family);
            let index = start + rng.below(size);
            if !out[steps_end..].contains(&index) {
                out.push(index);
            }
        }
    }
    out
}

fn greedy(rules: &Rules, list: &MoveList, rng: &mut SplitMix64) -> u64 {
    if list.len() <= 1 {
        return 0;
    }
    let seat = usize::from(list.position().to_move);
    let mut best = f64::NEG_INFINITY;
    let mut best_moves = Vec::new();
    for index in candidates(rules, list, rng) {
        let Some(after) = list.apply_index(index) else {
            continue;
        };
        let v = value(rules, &after, seat);
        if v > best {
            best = v;
            best_moves.clear();
            best_moves.push(index);
        } else if v == best {
            best_moves.push(index);
        }
    }
    match best_moves.len() {
        0 => 0,
        1 => best_moves[0],
        n => best_moves[rng.below_index(n)],
    }
}

/// `GreedyBot.value`: the worth of `after` to `seat` (a sole win 1e9, a shared win 1e9
/// over the winners, a loss -1e9, else [`evaluate`]).
pub fn value(rules: &Rules, after: &Position, seat: usize) -> f64 {
    if let Some(o) = after.outcome {
        let seats = u8::MAX.checked_shl(u32::from(after.players)).unwrap_or(0);
        let winners = o.winners & !seats;
        if winners != 0 {
            if winners >> seat & 1 == 0 {
                return -1e9;
            }
            return 1e9 / f64::from(winners.count_ones());
        }
    }
    evaluate(rules, after)[seat]
}

/// `pacru.bots.evaluate`: each seat's value of `pos` (unused seats 0).
pub fn evaluate(rules: &Rules, pos: &Position) -> [f64; 4] {
    let n = usize::from(pos.players);
    let mut out = [0.0; 4];
    if pos.outcome.is_some() {
        for (o, r) in out.iter_mut().zip(returns_of(pos)) {
            *o = f64::from(r);
        }
        return out;
    }
    let power = strengths(rules, pos);
    if n == 2 {
        let lead = ((power[0] - power[1]) / SCALE).tanh();
        out[0] = lead;
        out[1] = 0.0 - lead;
        return out;
    }
    for i in 0..n {
        let best = (0..n)
            .filter(|&j| j != i)
            .map(|j| power[j])
            .fold(f64::NEG_INFINITY, f64::max);
        out[i] = ((power[i] - best) / SCALE).tanh();
    }
    out
}

const SCALE: f64 = 12.0;
const CHEVRON: f64 = 6.0;
const MOBILE: f64 = 2.0;
const POWER: f64 = 0.25;
const THREAT_NOW: f64 = 5.0;
const THREAT_LATER: f64 = 1.5;
const OUT: f64 = -1000.0;
const REACH: f64 = 0.1;
const MOVABLE: f64 = 1.0;
const DEPTH: usize = 2;

/// `pacru.bots.evaluation.strengths`.
pub fn strengths(rules: &Rules, pos: &Position) -> [f64; 4] {
    if rules.pacru() {
        pacru_strengths(pos)
    } else {
        field_strengths(rules, pos)
    }
}

fn others(pos: &Position, seat: usize) -> u128 {
    (0..usize::from(pos.players))
        .filter(|&i| i != seat)
        .fold(0, |acc, i| acc | pos.markers[i])
}

fn ray(field: u8, d: u8) -> &'static [u8] {
    let f = usize::from(field);
    &RAY[f][usize::from(d)][..usize::from(RAY_LEN[f][usize::from(d)])]
}

/// The codes a chevron `code` of `seat` can step to (`_moves` of the Python module).
fn steps_of(
    rules: &Rules,
    pos: &Position,
    seat: usize,
    code: u16,
    others: u128,
    out: &mut Vec<u16>,
) {
    let field = code_field(code);
    let reach = if rules.power() {
        (pos.markers[seat] & LAND_OF[usize::from(field)])
            .count_ones()
            .max(1) as usize
    } else {
        1
    };
    let occupied = pos.occupied();
    let land = LAND_OF[usize::from(field)];
    for d in forward((code & 7) as u8) {
        for &t in ray(field, d).iter().take(reach) {
            if occupied >> t & 1 != 0 {
                break;
            }
            if others >> t & 1 != 0 {
                continue;
            }
            let t16 = u16::from(t);
            let d16 = u16::from(d);
            if rules.twist() && land >> t & 1 == 0 {
                out.extend([
                    t16 * 8 + (d16 + 7) % 8,
                    t16 * 8 + d16,
                    t16 * 8 + (d16 + 1) % 8,
                ]);
            } else {
                out.push(t16 * 8 + d16);
            }
        }
    }
}

/// Lilacru, Shacru, Azacru: markers, neutral fields within reach, chevrons that can move.
fn field_strengths(rules: &Rules, pos: &Position) -> [f64; 4] {
    let marked = pos.marked();
    let mut out = [0.0; 4];
    let mut next = Vec::new();
    for (seat, slot) in out.iter_mut().enumerate().take(usize::from(pos.players)) {
        let others = others(pos, seat);
        let mut reached = 0u128;
        let mut movable = 0u32;
        for code in pos.chevrons[seat].iter() {
            let mut frontier = vec![code];
            let mut seen = vec![code];
            for depth in 0..DEPTH {
                let mut found = Vec::new();
                for &c in &frontier {
                    next.clear();
                    steps_of(rules, pos, seat, c, others, &mut next);
                    for &s in &next {
                        if !seen.contains(&s) {
                            seen.push(s);
                            found.push(s);
                            reached |= 1u128 << (s >> 3);
                        }
                    }
                }
                if depth == 0 {
                    movable += u32::from(!found.is_empty());
                }
                frontier = found;
            }
        }
        let neutral = (reached & !marked).count_ones();
        *slot = f64::from(pos.markers[seat].count_ones())
            + REACH * f64::from(neutral)
            + MOVABLE * f64::from(movable);
    }
    out
}

/// Pacru: markers, chevrons, mobility, power of movement, pincers {R5, R11, R15, R16}.
fn pacru_strengths(pos: &Position) -> [f64; 4] {
    let n = usize::from(pos.players);
    let target = f64::from(pacru_engine::SUPPLY[n]);
    let mover = usize::from(pos.to_move);
    let occupied = pos.occupied();
    let mut power = [0.0f64; 4];
    // In the order the Python dict meets them: the float sums below follow it.
    let mut attacked: Vec<(u8, [u32; 4])> = Vec::new();
    for seat in 0..n {
        if pos.out >> seat & 1 != 0 || pos.chevrons[seat].is_empty() {
            power[seat] = OUT;
            continue;
        }
        let others = others(pos, seat);
        let own = pos.chevrons[seat].fields();
        let mine = pos.markers[seat];
        let markers = f64::from(mine.count_ones());
        let mut value = markers + 4.0 * (markers / target).powf(4.0);
        for code in pos.chevrons[seat].iter() {
            let field = code_field(code);
            let reach = (mine & LAND_OF[usize::from(field)]).count_ones().max(1);
            value += CHEVRON + POWER * f64::from(reach);
            let mut mobile = false;
            let mut hits = 0u128;
            for d in forward((code & 7) as u8) {
                for &t in ray(field, d).iter().take(reach as usize) {
                    if occupied >> t & 1 != 0 {
                        if own >> t & 1 == 0 {
                            hits |= 1u128 << t;
                        }
                        break;
                    }
                    if others >> t & 1 == 0 {
                        mobile = true;
                    }
                }
            }
            if mobile {
                value += MOBILE;
            }
            for f in bits(hits) {
                match attacked.iter_mut().find(|(g, _)| *g == f) {
                    Some((_, counts)) => counts[seat] += 1,
                    None => {
                        let mut counts = [0; 4];
                        counts[seat] = 1;
                        attacked.push((f, counts));
                    }
                }
            }
        }
        power[seat] = value;
    }
    for (field, counts) in attacked {
        let victim = (0..n)
            .find(|&s| pos.chevrons[s].fields() >> field & 1 != 0)
            .unwrap_or(0);
        for seat in 0..n {
            if counts[seat] < 2 || power[seat] == OUT {
                continue;
            }
            let weight = if seat == mover {
                THREAT_NOW
            } else {
                THREAT_LATER
            };
            power[seat] += weight;
            if power[victim] != OUT {
                power[victim] -= weight;
            }
        }
    }
    power
}

/// The bots' moves in `game` until seat `seat` decides, the game ends or `budget`
/// decisions are taken: the game then, and the decisions taken. A move is chosen only at
/// a decision's start (a bot never takes over a move under way); the draws of the move
/// at ply `p` come from `SplitMix64::for_game(seed, p)`.
pub fn play_bots(
    layout: &Layout,
    game: &Game,
    seat: i32,
    bot: Bot,
    seed: u64,
    budget: u32,
) -> Option<(Game, u32)> {
    let mut g = game.clone();
    let taken = play_bots_in(layout, &mut g, seat, bot, seed, budget)?;
    Some((g, taken))
}

/// [`play_bots`] in place: `game` becomes the game after the bots' moves (no copy of the
/// game per move, and the old positions' move lists kept for this thread's next ones
/// where no other game shares them). The decisions taken; None as [`play_bots`] (the
/// game is then meaningless: a bug of the engine).
pub fn play_bots_in(
    layout: &Layout,
    g: &mut Game,
    seat: i32,
    bot: Bot,
    seed: u64,
    budget: u32,
) -> Option<u32> {
    let mut taken = 0;
    while !g.is_over()
        && g.prefix().is_empty()
        && i32::from(g.pos().to_move) != seat
        && taken < budget
    {
        let mut rng = SplitMix64::for_game(seed, g.pos().ply);
        let index = choose(bot, &layout.rules, g.list(), &mut rng);
        taken += play_move_in(layout, g, index, budget - taken)?;
    }
    Some(taken)
}

/// [`play_move`] in place: the decisions taken (None as [`play_move`], the game then
/// meaningless).
fn play_move_in(layout: &Layout, g: &mut Game, index: u64, budget: u32) -> Option<u32> {
    let m = g.list().get(index)?;
    let mut taken = 0;
    while taken < budget {
        let action = action_for(g, &m)?;
        taken += 1;
        if let Some(at) = g.step_keeping(layout, action).ok()? {
            return (at == index).then_some(taken);
        }
    }
    Some(taken)
}
