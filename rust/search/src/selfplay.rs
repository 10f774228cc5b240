//! Self-play games for fitting the evaluation: positions' features and the results.

use crate::features::{relative_features, seat_features, FEATURES};
use crate::network::active_inputs;
use crate::{candidates, search, Settings};
use pacru_engine::rng::{splitmix, unit};
use pacru_engine::{legal_moves, Position, Rules};

/// The training samples of one self-play game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlay {
    /// Per sampled position and seat in play: the seat's relative features.
    pub features: Vec<[f32; FEATURES]>,
    /// Aligned with `features`: the network's sparse inputs that are on, from the seat's
    /// view ([`crate::network::active_inputs`]).
    pub boards: Vec<Vec<u16>>,
    /// Aligned with `features`: the seat's share of the win (1 a sole win, 1/k shared by
    /// k, 0 a loss or a game without winner).
    pub results: Vec<f32>,
    /// Plies played.
    pub plies: u32,
    /// The termination value (`"supply-exhausted"`, ...), or `"max-plies"`.
    pub termination: &'static str,
}

/// Plays one game from `start`: each move is a uniform random candidate with
/// probability `epsilon`, else the search's with `settings` (its budget and evaluation;
/// the seed is drawn per move from `seed`); the positions of every `every`-th ply are
/// sampled for every seat in play. The game stops after `max_plies` plies (then no
/// sample is kept).
pub fn selfplay(
    rules: &Rules,
    start: &Position,
    seed: u64,
    settings: &Settings,
    epsilon: f64,
    every: u32,
    max_plies: u32,
) -> SelfPlay {
    let mut pos = start.clone();
    let mut state = splitmix(seed);
    let mut settings = settings.clone();
    let mut sampled: Vec<(usize, [f32; FEATURES], Vec<u16>)> = Vec::new();
    let mut plies = 0u32;
    while pos.outcome.is_none() && plies < max_plies {
        if plies.is_multiple_of(every.max(1)) {
            let rows = seat_features(rules, &pos);
            for seat in 0..usize::from(pos.players) {
                if pos.out >> seat & 1 == 0 {
                    let board = active_inputs(rules, &pos, seat);
                    sampled.push((seat, relative_features(&pos, &rows, seat), board));
                }
            }
        }
        state = splitmix(state);
        let explore = unit(state) < epsilon;
        let list = legal_moves(rules, &pos);
        let m = if explore {
            let moves = candidates(&list);
            state = splitmix(state);
            match moves.len() {
                0 => None,
                n => usize::try_from(state % n as u64)
                    .ok()
                    .and_then(|i| moves.get(i))
                    .copied(),
            }
        } else {
            settings.seed = state;
            search(rules, &pos, &settings).map(|r| r.best)
        };
        let Some(next) = m.and_then(|m| list.apply_listed(&m)) else {
            break;
        };
        pos = next;
        plies += 1;
    }
    let mut out = SelfPlay {
        plies,
        termination: "max-plies",
        ..SelfPlay::default()
    };
    let Some(outcome) = pos.outcome else {
        return out;
    };
    out.termination = outcome.termination.value();
    // At most 8 winners (a bit per seat of a `u8`).
    let winners = u8::try_from(outcome.winners.count_ones()).unwrap_or(1);
    let share = 1.0 / f32::from(winners.max(1));
    for (seat, f, board) in sampled {
        out.features.push(f);
        out.boards.push(board);
        out.results.push(if outcome.winners >> seat & 1 != 0 {
            share
        } else {
            0.0
        });
    }
    out
}
