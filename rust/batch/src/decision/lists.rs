//! Move lists reused by the thread that retired them.

use std::cell::RefCell;
use std::sync::Arc;

use pacru_engine::{legal_moves, legal_moves_into, MoveList, Position, Rules};

/// The most move lists a thread keeps for its next games (a kilobyte each).
const SPARE_LISTS: usize = 2048;

thread_local! {
    /// Move lists of games this thread retired ([`Game::retire`]), no longer shared,
    /// each reused for a new position's moves ([`Game::start`]): a batch step starts
    /// hundreds of new positions, and allocating, moving in and freeing a kilobyte for
    /// each cost more than their moves.
    static SPARE: RefCell<Vec<Arc<MoveList>>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `list` for a later game of this thread ([`Game::start`]) when no other game
/// shares it and the thread keeps fewer than `SPARE_LISTS`; else drops it.
pub(super) fn keep(mut list: Arc<MoveList>) {
    if Arc::get_mut(&mut list).is_none() {
        return;
    }
    SPARE.with(|s| {
        if let Ok(mut spare) = s.try_borrow_mut() {
            if spare.len() < SPARE_LISTS && spare.try_reserve(1).is_ok() {
                spare.push(list);
            }
        }
    });
}

/// The legal moves of `pos`, in a spare list of this thread if it has one.
pub(super) fn new_list(rules: &Rules, pos: &Position) -> Arc<MoveList> {
    let spare = SPARE.with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()));
    if let Some(mut list) = spare {
        if let Some(moves) = Arc::get_mut(&mut list) {
            legal_moves_into(rules, pos, moves);
            return list;
        }
    }
    Arc::new(legal_moves(rules, pos))
}
