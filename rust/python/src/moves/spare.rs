//! The engine's list of a dropped `NativeLegalMoves` that nothing else holds, kept for the
//! thread's next list to be filled again in place (`engine::legal_moves_into`): a list is
//! some 1,100 bytes, and one made anew is zeroed, built and copied to the heap, once a ply.

use std::cell::Cell;
use std::sync::Arc;

use pacru_engine as engine;

thread_local! {
    /// The engine's list of a dropped `Moves` that shared it with nobody, for the next
    /// `Moves::of` of this thread to fill again in place: a list is some 1,100 bytes, and
    /// one made anew is zeroed, built and then copied to the heap, once a ply.
    static SPARE: Cell<Option<Arc<engine::MoveList>>> = const { Cell::new(None) };
    /// A list of this thread's first `Moves`, shared: what a dropped `Moves` holds in
    /// place of the list it gives up to `SPARE` (a field cannot be left empty).
    static STAND_IN: Cell<Option<Arc<engine::MoveList>>> = const { Cell::new(None) };
}

/// The legal moves of `pos` under `rules`, in this thread's spare list when there is one.
pub(super) fn list_of(rules: &engine::Rules, pos: &engine::Position) -> Arc<engine::MoveList> {
    let spare = SPARE.try_with(Cell::take).ok().flatten();
    match spare {
        Some(mut list) => match Arc::get_mut(&mut list) {
            Some(unshared) => {
                engine::legal_moves_into(rules, pos, unshared);
                list
            }
            None => Arc::new(engine::legal_moves(rules, pos)),
        },
        None => {
            let list = Arc::new(engine::legal_moves(rules, pos));
            let _ = STAND_IN.try_with(|cell| {
                let kept = cell.take().unwrap_or_else(|| Arc::clone(&list));
                cell.set(Some(kept));
            });
            list
        }
    }
}

/// Gives `list` (of a `Moves` being dropped) to this thread's spare when nothing else
/// holds it (the decisions of `pacru.encoding` may share it), leaving the stand-in there.
pub(super) fn give_up(list: &mut Arc<engine::MoveList>) {
    if Arc::get_mut(list).is_none() {
        return;
    }
    let Some(stand_in) = STAND_IN
        .try_with(|cell| {
            let kept = cell.take();
            cell.set(kept.clone());
            kept
        })
        .ok()
        .flatten()
    else {
        return;
    };
    let list = std::mem::replace(list, stand_in);
    // Err: the thread is ending (its spare is gone); the list is then dropped here.
    let _ = SPARE.try_with(|cell| {
        let before = cell.replace(Some(list));
        drop(before);
    });
}
