//! The batched bots play whole moves through the encoding's decisions.

use pacru_batch::decision::Game;
use pacru_batch::opponent::{play_bots, play_move, Bot};
use pacru_batch::SplitMix64;
use pacru_engine::{legal_moves, Game as Kind, Position};

mod common;
use common::layout;

#[test]
fn every_move_is_played_by_its_actions() {
    let mut checked = 0u32;
    for kind in [Kind::Lilacru, Kind::Shacru, Kind::Azacru, Kind::Pacru] {
        for players in 2..=4u8 {
            let layout = layout(kind, players);
            let mut rng = SplitMix64::new(u64::from(players) + 10);
            let mut pos = Position::start(players).unwrap();
            for _ in 0..30 {
                let list = legal_moves(&layout.rules, &pos);
                if list.is_empty() || pos.outcome.is_some() {
                    break;
                }
                let game = Game::start(&layout, pos.clone());
                // Every move of small lists; a sample of Pacru's thousands.
                let picks: Vec<u64> = if list.len() <= 300 {
                    (0..list.len()).collect()
                } else {
                    (0..300).map(|_| rng.below(list.len())).collect()
                };
                for index in picks {
                    let (after, taken) = play_move(&layout, &game, index, u32::MAX).unwrap();
                    assert_eq!(after.pos(), &list.apply_index(index).unwrap());
                    assert!(after.prefix().is_empty() && taken >= 1);
                    checked += 1;
                }
                pos = list.apply_index(rng.below(list.len())).unwrap();
            }
        }
    }
    assert!(checked > 3000, "{checked}");
}

#[test]
fn a_budget_stops_a_move_under_way() {
    let layout = layout(Kind::Pacru, 2);
    let game = Game::start(&layout, Position::start(2).unwrap());
    let (full, taken) = play_move(&layout, &game, 0, u32::MAX).unwrap();
    assert!(taken > 1 && full.prefix().is_empty());
    let (cut, one) = play_move(&layout, &game, 0, 1).unwrap();
    assert_eq!((one, cut.prefix().len()), (1, 1));
}

#[test]
fn bots_play_until_the_seat_decides() {
    for bot in [Bot::Random, Bot::Greedy] {
        let layout = layout(Kind::Pacru, 3);
        let game = Game::start(&layout, Position::start(3).unwrap());
        let (after, taken) = play_bots(&layout, &game, 2, bot, 5, u32::MAX).unwrap();
        assert_eq!(after.pos().to_move, 2);
        assert_eq!(after.pos().ply, 2);
        assert!(taken >= 2);
        let again = play_bots(&layout, &game, 2, bot, 5, u32::MAX).unwrap();
        assert_eq!(again.0.pos(), after.pos());
    }
}
