//! Uniform random games from one position, inside the engine.

use pacru_engine::{legal_moves, MoveList, Position, Rules};

use std::collections::TryReserveError;

use crate::par::{chunks, try_with_capacity};
use crate::rng::SplitMix64;

/// How a random move is drawn from a move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// Uniformly over every complete legal move (`moves[randrange(len(moves))]`).
    Moves,
    /// A move family first, uniformly among the step families then the reorientation
    /// families, then a move uniformly within it: `pacru.bots.sample_move`'s default, so
    /// that Pacru's thousands of reorientations {R14} do not crowd out the steps. Without
    /// families (the pass) it is `Moves`.
    Families,
}

/// The returns and lengths of a batch of games (row-major returns, `players` per game),
/// and, when asked, the index in its move list of every move played, game after game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rollouts {
    pub returns: Vec<f32>,
    pub plies: Vec<i32>,
    pub moves: Option<Vec<u64>>,
}

impl Rollouts {
    /// Empty arrays with room for the returns and plies of `games` games of `players`
    /// seats (the moves, when `record`, grow as they are played), or the error of the
    /// allocation that failed.
    fn with_room(games: usize, players: usize, record: bool) -> Result<Rollouts, TryReserveError> {
        Ok(Rollouts {
            returns: try_with_capacity(games.saturating_mul(players))?,
            plies: try_with_capacity(games)?,
            moves: record.then(Vec::new),
        })
    }
}

/// `GameState.returns()` of `pos`, one value per seat: 0 for everybody while the game
/// goes on, when nobody won (the move cap, D32) and when every player shares the win;
/// else +1 for each winner, -1 for every other seat (eliminated seats lose).
pub fn returns_of(pos: &Position) -> [f32; 4] {
    let mut out = [0.0f32; 4];
    let players = usize::from(pos.players);
    let Some(outcome) = pos.outcome else {
        return out;
    };
    let everybody = (1u16 << players) - 1;
    let winners = u16::from(outcome.winners) & everybody;
    if winners == 0 || winners == everybody {
        return out;
    }
    for (seat, value) in out.iter_mut().enumerate().take(players) {
        *value = if winners >> seat & 1 != 0 { 1.0 } else { -1.0 };
    }
    out
}

/// The number of reorientation families of `list` and the moves of each {R14}: every own
/// chevron turns by -2, -1, +1, +2 (4 own unoccupied fields or more) or by -1, +1 (2 or 3),
/// giving up 4 or 2 of those fields, when the player has a step (D25, D26).
fn reorientations(rules: &Rules, pos: &Position, list: &MoveList) -> ([u64; 4], usize) {
    let seat = usize::from(pos.to_move);
    if !rules.pacru() || list.step_count() == 0 || seat >= usize::from(pos.players) {
        return ([0; 4], 0);
    }
    let n = u64::from((pos.markers[seat] & !pos.occupied()).count_ones());
    let c2 = n * n.saturating_sub(1) / 2;
    let c4 = c2 * n.saturating_sub(2) * n.saturating_sub(3) / 12;
    let chevrons = pos.chevrons[seat].len();
    if n >= 4 {
        ([c4, c2, c2, c4], 4 * chevrons)
    } else if n >= 2 {
        ([c2, c2, 0, 0], 2 * chevrons)
    } else {
        ([0; 4], 0)
    }
}

/// The number of families of `list` ([`Sampling::Families`]): its steps, then its
/// reorientations.
pub fn family_count(rules: &Rules, pos: &Position, list: &MoveList) -> usize {
    list.step_count() + reorientations(rules, pos, list).1
}

/// Where the `family`-th family of `list` starts (a move index) and how many moves it
/// has (`family < family_count`).
pub fn family_range(list: &MoveList, family: usize) -> (u64, u64) {
    let steps = list.step_count();
    if family < steps {
        return step_family(list, family);
    }
    let Shape {
        step_moves,
        sizes,
        per_chevron,
        ..
    } = shape(list);
    // Reorientation families come by chevron, then turn; their moves after the steps.
    let k = family - steps;
    let turns = if sizes[2] == 0 { 2 } else { 4 };
    let (chevron, turn) = (k / turns, k % turns);
    let before: u64 = sizes[..turn].iter().sum();
    (
        step_moves + chevron as u64 * per_chevron + before,
        sizes[turn],
    )
}

/// The index in `list` of a random move drawn as `sampling` says (`list` not empty).
pub fn sample_index(
    rules: &Rules,
    pos: &Position,
    list: &MoveList,
    sampling: Sampling,
    rng: &mut SplitMix64,
) -> u64 {
    let families = family_count(rules, pos, list);
    if sampling == Sampling::Moves || families == 0 {
        return rng.below(list.len());
    }
    let family = rng.below_index(families);
    let (start, size) = family_range(list, family);
    start + rng.below(size)
}

/// Where the `family`-th step family of `list` starts and how many moves it has.
fn step_family(list: &MoveList, family: usize) -> (u64, u64) {
    list.step_range(family).unwrap_or((0, 0))
}

/// The (start, size) of the step families of `list` in order, up to the `stop`-th: the
/// moves of one step share their chevron and target, and the steps come one after the
/// other, so the families are the list's steps ([`MoveList::step_range`]).
fn step_runs(list: &MoveList, _step_moves: u64, stop: Option<usize>, runs: &mut Vec<(u64, u64)>) {
    let steps = stop.map_or(list.step_count(), |s| list.step_count().min(s + 1));
    runs.extend((0..steps).filter_map(|i| list.step_range(i)));
}

/// How the moves of `list` are laid out: the step moves first, then per chevron the
/// reorientation families' sizes (by turn, zero where a turn is missing).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Shape {
    pub step_moves: u64,
    pub sizes: [u64; 4],
    /// 4 (turns -2, -1, +1, +2), 2 (-1, +1) or 0 (no reorientation).
    pub turns: usize,
    pub per_chevron: u64,
}

pub(crate) fn shape(list: &MoveList) -> Shape {
    let (step_moves, sizes, turns, per_chevron) = list.reorientation_layout();
    Shape {
        step_moves,
        sizes,
        turns,
        per_chevron,
    }
}

/// How many chevrons the player to move has (each has its reorientation families).
fn chevrons_to_move(pos: &Position) -> usize {
    pos.chevrons[usize::from(pos.to_move) % 4].len()
}

/// The (start, size) of every family of `list`, in order: the step families, then the
/// reorientation families by chevron and turn {R14} (see [`family_range`]), in one pass.
pub fn family_ranges(pos: &Position, list: &MoveList) -> Vec<(u64, u64)> {
    let shape = shape(list);
    let chevrons = chevrons_to_move(pos);
    let mut runs = Vec::with_capacity(list.step_count() + shape.turns * chevrons);
    if list.step_count() > 0 {
        step_runs(list, shape.step_moves, None, &mut runs);
    }
    let mut at = shape.step_moves;
    for _ in 0..chevrons {
        for &size in shape.sizes.iter().filter(|&&s| s > 0) {
            runs.push((at, size));
            at += size;
        }
    }
    runs
}

/// One random game from `pos`: its last position and its plies (at most `cap`). The
/// index of every move played is pushed on `record` when given.
///
/// # Errors
/// `record` could not grow (the game is left where it was).
pub fn playout(
    rules: &Rules,
    pos: &Position,
    cap: Option<u32>,
    sampling: Sampling,
    rng: &mut SplitMix64,
    mut record: Option<&mut Vec<u64>>,
) -> Result<(Position, u32), TryReserveError> {
    let mut pos = pos.clone();
    let mut plies = 0u32;
    while pos.outcome.is_none() && cap.is_none_or(|c| plies < c) {
        let list = legal_moves(rules, &pos);
        if list.is_empty() {
            // Only a blocked Pacru player to move {R15}, which play never leaves.
            break;
        }
        let index = sample_index(rules, &pos, &list, sampling, rng);
        let Some(next) = list.apply_index(index) else {
            break;
        };
        if let Some(r) = record.as_deref_mut() {
            // The games' lengths are the caller's: a record that outgrows memory is an
            // error, not an abort.
            r.try_reserve(1)?;
            r.push(index);
        }
        pos = next;
        plies += 1;
    }
    Ok((pos, plies))
}

/// `n` random games from `pos` (see the crate docs for the seeding): their returns
/// (`returns_of` of each last position, `pos.players` values per game), their plies, and
/// the move indices when `record`. Played on up to `threads` threads; each game draws
/// from its own stream, so the result does not depend on `threads`.
///
/// # Errors
/// The arrays of `n` games could not be allocated (instead of aborting the process).
#[allow(clippy::too_many_arguments)]
pub fn random_rollouts(
    rules: &Rules,
    pos: &Position,
    n: usize,
    seed: u64,
    cap: Option<u32>,
    sampling: Sampling,
    record: bool,
    threads: usize,
) -> Result<Rollouts, TryReserveError> {
    let players = usize::from(pos.players);
    let mut out = Rollouts::with_room(n, players, record)?;
    let parts = chunks(
        n,
        threads,
        |start, end| -> Result<Rollouts, TryReserveError> {
            let mut part = Rollouts::with_room(end - start, players, record)?;
            for game in start..end {
                let mut rng = SplitMix64::for_game(seed, game as u64);
                let (last, plies) =
                    playout(rules, pos, cap, sampling, &mut rng, part.moves.as_mut())?;
                part.returns
                    .extend_from_slice(&returns_of(&last)[..players]);
                part.plies.push(i32::try_from(plies).unwrap_or(i32::MAX));
            }
            Ok(part)
        },
    );
    for part in parts {
        let part = part?;
        out.returns.extend_from_slice(&part.returns);
        out.plies.extend_from_slice(&part.plies);
        if let (Some(all), Some(some)) = (out.moves.as_mut(), part.moves) {
            all.try_reserve(some.len())?;
            all.extend_from_slice(&some);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_past_the_address_space_are_an_error_not_an_abort() {
        assert!(Rollouts::with_room(usize::MAX / 2, 2, false).is_err());
        assert!(Rollouts::with_room(1 << 61, 1, true).is_err());
        let room = Rollouts::with_room(5, 3, true).unwrap();
        assert!(room.returns.capacity() >= 15 && room.plies.capacity() >= 5);
        assert_eq!(room.moves, Some(Vec::new()));
    }

    #[test]
    fn a_recorded_playout_records_each_ply() {
        let rules = Rules::new(pacru_engine::Game::Pacru);
        let start = Position::start(2).unwrap();
        let mut record = Vec::new();
        let mut rng = SplitMix64::for_game(3, 0);
        let played = playout(
            &rules,
            &start,
            Some(12),
            Sampling::Families,
            &mut rng,
            Some(&mut record),
        );
        let (_, plies) = played.unwrap();
        assert_eq!((plies, record.len()), (12, 12));
    }
}
