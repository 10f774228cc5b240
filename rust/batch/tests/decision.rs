//! The native chevron decisions reach every legal move exactly once.

use std::collections::HashMap;

use pacru_batch::decision::{Game, Layout, Next, NUM_ACTIONS};
use pacru_batch::SplitMix64;
use pacru_engine::{legal_moves, Game as Kind, Position, Rules};

fn layout(kind: Kind, players: u8) -> Layout {
    Layout {
        rules: Rules::new(kind),
        players,
        game_index: kind as u8,
        ply_scale: 1000.0,
        idle_scale: 81.0 * f64::from(players),
        supply: 0,
    }
}

/// The positions after every action sequence of the move under way, with their counts.
fn leaves(layout: &Layout, game: &Game, out: &mut HashMap<Position, u32>) {
    for a in game.legal.iter() {
        assert!(usize::from(a) < NUM_ACTIONS);
        if let Next::Done(done, at) = game.advance(a) {
            // The finished decision names the move the list holds at its index.
            assert_eq!(done.chosen_move(), game.list().get(at));
            assert!(done.is_done() && done.legal.is_empty());
        }
        let next = game.choose(layout, a);
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
