//! The native chevron decisions reach every legal move exactly once.

mod common;

use std::collections::HashMap;

use common::layout;
use pacru_batch::decision::{DecisionError, Game, Layout, Next, NUM_ACTIONS};
use pacru_batch::SplitMix64;
use pacru_engine::{legal_moves, Game as Kind, Position};

/// The positions after every action sequence of the move under way, with their counts.
fn leaves(layout: &Layout, game: &Game, out: &mut HashMap<Position, u32>) {
    for a in game.legal.iter() {
        assert!(usize::from(a) < NUM_ACTIONS);
        if let Ok(Next::Done(done, at)) = game.advance(a) {
            // The finished decision names the move the list holds at its index.
            assert_eq!(done.chosen_move(), game.list().get(at));
            assert!(done.is_done() && done.legal.is_empty());
        }
        let next = game.choose(layout, a).unwrap();
        if next.prefix().is_empty() {
            *out.entry(next.pos().clone()).or_default() += 1;
        } else {
            assert!(
                next.legal.len() > 1,
                "a forced decision is taken, not asked"
            );
            leaves(layout, &next, out);
        }
    }
}

#[test]
fn every_legal_move_is_one_action_sequence() {
    let mut checked = 0;
    for kind in [Kind::Lilacru, Kind::Shacru, Kind::Azacru, Kind::Pacru] {
        for players in 2..=4u8 {
            let layout = layout(kind, players);
            let mut rng = SplitMix64::new(u64::from(players));
            let mut pos = Position::start(players).unwrap();
            for _ in 0..40 {
                let list = legal_moves(&layout.rules, &pos);
                if list.is_empty() || list.len() > 20_000 {
                    break;
                }
                let mut expected: HashMap<Position, u32> = HashMap::new();
                for i in 0..list.len() {
                    *expected.entry(list.apply_index(i).unwrap()).or_default() += 1;
                }
                let mut got = HashMap::new();
                leaves(&layout, &Game::start(&layout, pos.clone()), &mut got);
                assert_eq!(got, expected, "{kind:?} {players} players, ply {}", pos.ply);
                checked += 1;
                pos = list.apply_index(rng.below(list.len())).unwrap();
            }
        }
    }
    assert!(checked > 200);
}

/// Every action that is not legal (any number up to `u16::MAX`, and any action once the
/// move is complete) is an error, never a panic, and changes nothing.
#[test]
fn an_action_not_legal_is_an_error() {
    for kind in [Kind::Lilacru, Kind::Shacru, Kind::Azacru, Kind::Pacru] {
        let layout = layout(kind, 2);
        let mut game = Game::start(&layout, Position::start(2).unwrap());
        // Down to the finished decision of the first move, then the next position's first.
        loop {
            for action in 0..=u16::MAX {
                if !game.legal.contains(action) {
                    let error = game.advance(action).err();
                    assert_eq!(error, Some(DecisionError::IllegalAction(action)));
                    assert_eq!(
                        game.choose(&layout, action).err(),
                        Some(DecisionError::IllegalAction(action))
                    );
                }
            }
            let Some(first) = game.legal.iter().next() else {
                break;
            };
            match game.advance(first).unwrap() {
                Next::Ask(next) => game = next,
                Next::Done(done, _) => {
                    assert!(done.is_done());
                    game = done;
                }
            }
        }
        assert!(game.is_done() && game.legal.is_empty());
        assert_eq!(game.advance(0).err(), Some(DecisionError::IllegalAction(0)));
    }
}

#[test]
fn a_retired_games_move_list_holds_the_next_positions_moves() {
    // A retired game's list, when no other game shares it, is reused by the next game
    // this thread starts: it must hold exactly the moves of a list made afresh.
    let mut reused = 0;
    for kind in [Kind::Lilacru, Kind::Shacru, Kind::Azacru, Kind::Pacru] {
        for players in 2..=4u8 {
            let layout = layout(kind, players);
            let mut rng = SplitMix64::new(7 + u64::from(players));
            let mut pos = Position::start(players).unwrap();
            let mut game = Game::start(&layout, pos.clone());
            for ply in 0..30u32 {
                let list = legal_moves(&layout.rules, &pos);
                if list.is_empty() {
                    break;
                }
                pos = list.apply_index(rng.below(list.len())).unwrap();
                let old = std::ptr::from_ref(game.list());
                // Every third game is shared with a copy: its list is not reused.
                let copy = (ply % 3 == 0).then(|| game.clone());
                game.retire();
                let next = Game::start(&layout, pos.clone());
                let same = std::ptr::eq(std::ptr::from_ref(next.list()), old);
                assert_eq!(
                    same,
                    copy.is_none(),
                    "{kind:?} {players} players, ply {ply}"
                );
                reused += usize::from(same);
                let fresh = legal_moves(&layout.rules, &pos);
                assert_eq!(next.list().len(), fresh.len());
                assert!(next.list().iter().eq(fresh.iter()));
                assert_eq!(next.list().position(), fresh.position());
                let made = Game::of_list(std::sync::Arc::new(legal_moves(&layout.rules, &pos)));
                assert_eq!(next.legal, made.legal);
                game = next;
            }
        }
    }
    assert!(reused > 100);
}
