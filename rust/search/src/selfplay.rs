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
    /// Aligned with `features`: the search's value of the position for the seat, in
    /// logits (the mover's [`crate::Report::value`], its negation for the other seat;
    /// a forced win is `WIN / 1000` less the plies); None with more than two players (the
    /// paranoid search's value is not the seat's chance) or where no search found a move.
    pub values: Vec<Option<f32>>,
    /// Plies played.
    pub plies: u32,
    /// The termination value (`"supply-exhausted"`, ...), or `"max-plies"`.
    pub termination: &'static str,
}

/// A sampled position seen by one seat, kept until the game's result is known.
struct Sample {
    seat: usize,
    features: [f32; FEATURES],
    board: Vec<u16>,
    value: Option<f32>,
}

/// Plays one game from `start`: each move is a uniform random candidate with
/// probability `epsilon`, else the search's with `settings` (its budget and evaluation;
/// the seed is drawn per move from `seed`); the positions of every `every`-th ply from
/// ply `offset % every` on (plies 0, 1, ... counted from `start`) are sampled for every
/// seat in play, each with the search's value of the position (the
/// search runs on a sampled ply even when the move played is a random one, with the
/// seed it would have had, so the game does not depend on the values being taken).
/// The game stops after `max_plies` plies (then no sample is kept).
///
/// The offset matters where `every` and the player count share a factor: with two
/// players and `every` 2, offset 0 samples only positions with seat 0 to move, offset 1
/// only those with seat 1 to move.
#[allow(clippy::too_many_arguments)]
pub fn selfplay(
    rules: &Rules,
    start: &Position,
    seed: u64,
    settings: &Settings,
    epsilon: f64,
    every: u32,
    offset: u32,
    max_plies: u32,
) -> SelfPlay {
    let every = every.max(1);
    let mut pos = start.clone();
    let mut state = splitmix(seed);
    let mut settings = settings.clone();
    let mut sampled: Vec<Sample> = Vec::new();
    let mut plies = 0u32;
    while pos.outcome.is_none() && plies < max_plies {
        let sampling = plies % every == offset % every;
        state = splitmix(state);
        let explore = unit(state) < epsilon;
        // The search of a sampled ply, run before the random choice: its seed is the one
        // the search would have had, so the game is the same as without it.
        let searched = if sampling {
            settings.seed = state;
            search(rules, &pos, &settings)
        } else {
            None
        };
        if sampling {
            let rows = seat_features(rules, &pos);
            let mover = usize::from(pos.to_move);
            for seat in 0..usize::from(pos.players) {
                if pos.out >> seat & 1 == 0 {
                    let board = active_inputs(rules, &pos, seat);
                    let value = seat_value(searched.as_ref(), pos.players, seat == mover);
                    sampled.push(Sample {
                        seat,
                        features: relative_features(&pos, &rows, seat),
                        board,
                        value,
                    });
                }
            }
        }
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
        } else if sampling {
            searched.map(|r| r.best)
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
    for Sample {
        seat,
        features,
        board,
        value,
    } in sampled
    {
        out.features.push(features);
        out.boards.push(board);
        out.values.push(value);
        out.results.push(if outcome.winners >> seat & 1 != 0 {
            share
        } else {
            0.0
        });
    }
    out
}

/// The search's value for a seat in logits: the mover's, negated for the other of two
/// seats; None with more players or without a search result.
fn seat_value(report: Option<&crate::Report>, players: u8, mover: bool) -> Option<f32> {
    match report {
        // Thousandths of a logit, at most `WIN` (a million): exact in f64.
        #[allow(clippy::cast_possible_truncation)]
        Some(r) if players == 2 => {
            let logits = f64::from(r.value) / 1000.0;
            Some((if mover { logits } else { -logits }) as f32)
        }
        _ => None,
    }
}
