//! The batch of `pacru.vector` ([`Batch`]) on a host of plain vectors: its frames, its
//! checks, and the same games on every thread count.

mod common;

use common::layout;
use pacru_batch::decision::NUM_ACTIONS;
use pacru_batch::frame::{bare_offsets, counter_offsets, offsets, word, Before};
use pacru_batch::fused::{learner_offsets, Options};
use pacru_batch::{Batch, Error, Plain};
use pacru_engine::{Game as Kind, Position, Rules};

fn batch(n: usize) -> (Batch, Vec<u8>) {
    let layout = layout(Kind::Pacru, 2);
    Batch::create(&Plain, layout, Position::start(2).unwrap(), n, 2).unwrap()
}

/// Each game's first legal action, as int64 bytes.
fn first_actions(batch: &Batch) -> Vec<u8> {
    (0..batch.len())
        .flat_map(|i| {
            let a = batch.get(i).unwrap().legal.iter().next().unwrap();
            i64::from(a).to_ne_bytes()
        })
        .collect()
}

fn int32s(n: usize, value: i32) -> Vec<u8> {
    (0..n).flat_map(|_| value.to_ne_bytes()).collect()
}

fn int64s(n: usize, value: i64) -> Vec<u8> {
    (0..n).flat_map(|_| value.to_ne_bytes()).collect()
}

#[test]
fn a_new_batch_shows_every_games_first_decision() {
    let (batch, frame) = batch(5);
    let at = offsets(5, 2).unwrap();
    assert_eq!((batch.len(), frame.len()), (5, at[5]));
    let game = batch.get(4).unwrap();
    let mask = &frame[4 * NUM_ACTIONS..5 * NUM_ACTIONS];
    let legal: Vec<usize> = game.legal.iter().map(usize::from).collect();
    let set: Vec<usize> = (0..NUM_ACTIONS).filter(|&a| mask[a] == 1).collect();
    assert_eq!(set, legal);
    assert_eq!(i32::from_ne_bytes(word(&frame[at[1]..], 4)), 0);
    assert!(frame[at[2]..].iter().all(|&b| b == 0), "no end yet");
    assert!(batch.get(5).is_none());
}

#[test]
fn advance_counts_and_refuses_an_illegal_action() {
    let (batch, _) = batch(4);
    let actions = first_actions(&batch);
    let (steps, episodes) = (int32s(4, 6), int64s(4, 2));
    let before = Before {
        actions: &actions,
        restart: &[0, 1, 0, 0],
        renew: true,
        steps: &steps,
        episodes: &episodes,
    };
    let (next, frame, ended) = batch.advance(&Plain, &before, 1).unwrap();
    assert!(ended.is_empty(), "no game ended");
    let ends = counter_offsets(4, 2).unwrap();
    assert_eq!(frame.len(), ends[2]);
    let counts: Vec<(i32, i64)> = (0..4)
        .map(|i| {
            let s = i32::from_ne_bytes(word(&frame[ends[0]..], i));
            (s, i64::from_ne_bytes(word(&frame[ends[1]..], i)))
        })
        .collect();
    assert_eq!(counts, vec![(7, 2), (0, 3), (7, 2), (7, 2)]);
    assert_eq!(next.get(1).unwrap().pos(), batch.get(1).unwrap().pos());
    let (old, new) = (batch.get(0).unwrap(), next.get(0).unwrap());
    assert_ne!((old.pos(), old.prefix()), (new.pos(), new.prefix()));
    // The same games and frame on two threads.
    let (two, frame2, _) = batch.advance(&Plain, &before, 2).unwrap();
    assert_eq!(frame2, frame);
    assert_eq!(two.get(3).unwrap().prefix(), next.get(3).unwrap().prefix());

    let mut bad = actions.clone();
    bad[16..24].copy_from_slice(&999i64.to_ne_bytes());
    let before = Before {
        actions: &bad,
        ..before
    };
    let err = batch.advance(&Plain, &before, 1).err().unwrap();
    assert_eq!(
        err.to_string(),
        "game 2: action 999 is not legal in its decision"
    );
    let short = Before {
        steps: &steps[..4],
        ..before
    };
    assert!(matches!(
        batch.advance(&Plain, &short, 1),
        Err(Error::Argument(_))
    ));
    assert_eq!(ends[0], bare_offsets(4, 2).unwrap()[5].next_multiple_of(8));
}

#[test]
fn step_checks_rows_starts_and_actions() {
    let (batch, _) = batch(3);
    let a = batch.get(0).unwrap().legal.iter().next().unwrap();
    let start = Position::start(2).unwrap();
    let rules = Rules::new(Kind::Pacru);
    let (next, frame) = batch
        .step(
            &Plain,
            &[2, 0],
            &[a, 0],
            &[false, true],
            &[None, Some((&rules, &start))],
            2,
        )
        .unwrap();
    assert_eq!(frame.len(), offsets(2, 2).unwrap()[5]);
    assert_eq!(next.get(0).unwrap().pos(), &start);
    assert_ne!(
        next.get(2).unwrap().prefix(),
        batch.get(2).unwrap().prefix()
    );
    let err = batch
        .step(&Plain, &[3], &[a], &[false], &[None], 1)
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "no game 3 in the batch");
    let other = Rules::new(Kind::Lilacru);
    let err = batch
        .step(&Plain, &[1], &[a], &[true], &[Some((&other, &start))], 1)
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "game 1: the restart position is not of the batch's game"
    );
    let err = batch
        .step(&Plain, &[1], &[414], &[false], &[None], 1)
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "game 1: action 414 is not legal in its decision"
    );
    let err = batch
        .step(&Plain, &[1], &[], &[false], &[None], 1)
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "rows, actions, restart and starts differ in length"
    );
}

#[test]
fn draws_masks_and_observations_do_not_depend_on_threads() {
    let (batch, _) = batch(600);
    let shown: Vec<u8> = (0..600).map(|i| u8::from(i % 7 == 0)).collect();
    let one = batch.random_actions(&Plain, 11, &shown, 1).unwrap();
    assert_eq!(batch.random_actions(&Plain, 11, &shown, 3).unwrap(), one);
    for (i, &s) in shown.iter().enumerate() {
        let a = u16::try_from(i64::from_ne_bytes(word(&one, i))).unwrap();
        assert!(s == 1 || batch.get(i).unwrap().legal.contains(a));
    }
    let mask = batch.legal_action_mask(&Plain, &shown, 1).unwrap();
    assert_eq!(batch.legal_action_mask(&Plain, &shown, 3).unwrap(), mask);
    assert!(
        mask[..NUM_ACTIONS].iter().all(|&m| m == 1),
        "row 0 shows an end"
    );
    let obs = batch.observation(&Plain, 1, "uint8").unwrap();
    assert_eq!(obs.len(), 600 * batch.layout().planes() * 81);
    assert_eq!(batch.observation(&Plain, 3, "uint8").unwrap(), obs);
    let err = batch
        .random_actions(&Plain, 11, &shown[1..], 1)
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "shown must hold one byte a game");
    assert!(matches!(
        batch.observation(&Plain, 1, "f16"),
        Err(Error::Argument(_))
    ));
}

#[test]
fn bots_play_until_the_seat_decides() {
    let (batch, _) = batch(3);
    let seats = int32s(3, 1);
    let budgets: Vec<u8> = (0..3).flat_map(|_| 100u32.to_ne_bytes()).collect();
    let episodes = int64s(3, 0);
    let (next, _, taken) = batch
        .play_bots(&Plain, &seats, "random", 5, &episodes, &budgets, 1)
        .unwrap();
    for i in 0..3 {
        assert_eq!(next.get(i).unwrap().pos().to_move, 1);
        assert!(u32::from_ne_bytes(word(&taken, i)) >= 1);
    }
    let err = batch
        .play_bots(&Plain, &seats, "clever", 5, &episodes, &budgets, 1)
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "no native bot \"clever\": 'random' or 'greedy'"
    );
}

#[test]
fn a_learner_step_is_the_same_on_every_thread_count() {
    let (batch, _) = batch(40);
    let actions = first_actions(&batch);
    let (steps, episodes) = (int32s(40, 0), int64s(40, 0));
    let mut options = Options {
        same_step: true,
        max_steps: None,
        seat: 0,
        seat_base: 3,
        bot: "greedy",
        bot_base: 9,
        dtype: "float32",
        threads: 1,
    };
    let row_bytes = batch.layout().planes() * 81 * 4;
    let (mut mask, mut obs) = (vec![0; 40 * NUM_ACTIONS], vec![0; 40 * row_bytes]);
    let (one, buf, ended) = batch
        .learner_step(
            &Plain,
            &actions,
            &[],
            &steps,
            &episodes,
            [&mut mask, &mut obs],
            &options,
        )
        .unwrap();
    assert_eq!(buf.len(), learner_offsets(40, 2).unwrap()[5]);
    assert_eq!(mask.len(), 40 * NUM_ACTIONS);
    assert!(ended.is_empty(), "no game ended in its first decision");
    options.threads = 3;
    let mut obs3 = vec![0; 40 * row_bytes];
    let mut mask3 = vec![0; 40 * NUM_ACTIONS];
    let (three, buf3, _) = batch
        .learner_step(
            &Plain,
            &actions,
            &[],
            &steps,
            &episodes,
            [&mut mask3, &mut obs3],
            &options,
        )
        .unwrap();
    assert_eq!((buf3, mask3, obs3), (buf, mask.clone(), obs.clone()));
    for i in 0..40 {
        let (a, b) = (one.get(i).unwrap(), three.get(i).unwrap());
        assert_eq!((a.pos(), a.prefix()), (b.pos(), b.prefix()));
    }
    options.seat = 2;
    let err = batch
        .learner_step(
            &Plain,
            &actions,
            &[],
            &steps,
            &episodes,
            [&mut mask, &mut obs],
            &options,
        )
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "no seat 2 in the game");
    options.seat = 0;
    let err = batch
        .learner_step(
            &Plain,
            &actions,
            &[],
            &steps,
            &episodes,
            [&mut mask, &mut obs[1..]],
            &options,
        )
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!("the observation must hold {row_bytes} bytes a game of float32")
    );
    let err = batch
        .learner_step(
            &Plain,
            &actions,
            &[],
            &steps,
            &episodes,
            [&mut mask[1..], &mut obs],
            &options,
        )
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "the mask must hold 415 bytes a game");
}

/// The rows of a frame (laid out by `at`) that show an end: terminated or truncated.
fn ended_rows(frame: &[u8], at: [usize; 6], n: usize) -> Vec<usize> {
    (0..n)
        .filter(|&i| frame[at[3] + i] != 0 || frame[at[4] + i] != 0)
        .collect()
}

#[test]
fn advance_hands_back_the_games_it_renewed_as_they_ended() {
    let (mut batch, _) = batch(16);
    let at = bare_offsets(16, 2).unwrap();
    let (steps, episodes) = (int32s(16, 0), int64s(16, 0));
    let shown = vec![0; 16];
    for base in 0..5000 {
        let actions = batch.random_actions(&Plain, base, &shown, 1).unwrap();
        let before = Before {
            actions: &actions,
            restart: &[],
            renew: true,
            steps: &steps,
            episodes: &episodes,
        };
        let (next, frame, ended) = batch.advance(&Plain, &before, 2).unwrap();
        let rows = ended_rows(&frame, at, 16);
        assert_eq!(ended.len(), rows.len());
        for (j, &row) in rows.iter().enumerate() {
            // Game `j` is the `j`-th ended row's game as its last action left it.
            let action = i64::from_ne_bytes(word(&actions, row));
            let old = batch.get(row).unwrap();
            let last = old.choose(batch.layout(), action as u16).unwrap();
            let game = ended.get(j).unwrap();
            assert!(game.is_over());
            assert_eq!((game.pos(), game.prefix()), (last.pos(), last.prefix()));
            assert_eq!(next.get(row).unwrap().pos().ply, 0, "renewed");
        }
        // Without renew, the game shows its own end: nothing is handed back.
        let keep = Before {
            renew: false,
            ..before
        };
        assert!(batch.advance(&Plain, &keep, 1).unwrap().2.is_empty());
        batch = next;
        if !rows.is_empty() {
            return;
        }
    }
    panic!("no game ended in 5,000 random decisions");
}

#[test]
fn a_step_in_place_gives_the_copying_steps_games_frame_and_ends() {
    // 200 games: two threads share the rows (64 a thread at least), in pieces that cut
    // across the parts the batch was made in.
    let n = 200;
    let (mut copied, _) = batch(n);
    let (mut stepped, _) = batch(n);
    let (steps, episodes) = (int32s(n, 3), int64s(n, 1));
    let shown = vec![0; n];
    let restart: Vec<u8> = (0..n).map(|i| u8::from(i % 7 == 0)).collect();
    let mut ends = 0;
    for base in 0..300 {
        let actions = copied.random_actions(&Plain, base, &shown, 2).unwrap();
        let before = Before {
            actions: &actions,
            restart: if base % 5 == 0 { &restart } else { &[] },
            renew: true,
            steps: &steps,
            episodes: &episodes,
        };
        let (next, frame, ended) = copied.advance(&Plain, &before, 2).unwrap();
        let (frame2, ended2) = stepped.advance_in_place(&Plain, &before, 2).unwrap();
        assert_eq!(frame2, frame);
        assert_eq!(ended2.len(), ended.len());
        ends += ended.len();
        for i in 0..n {
            let (a, b) = (next.get(i).unwrap(), stepped.get(i).unwrap());
            assert_eq!(
                (a.pos(), a.prefix(), a.legal),
                (b.pos(), b.prefix(), b.legal)
            );
        }
        for j in 0..ended.len() {
            let (a, b) = (ended.get(j).unwrap(), ended2.get(j).unwrap());
            assert_eq!((a.pos(), a.prefix()), (b.pos(), b.prefix()));
        }
        copied = next;
    }
    assert!(ends > 0, "no game ended");
}

/// Game `i`'s position and the actions of its move under way.
fn game_at(batch: &Batch, i: usize) -> (Position, Vec<u16>) {
    let game = batch.get(i).unwrap();
    (game.pos().clone(), game.prefix().to_vec())
}

#[test]
fn a_step_in_place_refuses_before_any_game_steps() {
    let (mut batch, _) = batch(200);
    let positions: Vec<_> = (0..200).map(|i| game_at(&batch, i)).collect();
    let (steps, episodes) = (int32s(200, 0), int64s(200, 0));
    let mut actions = first_actions(&batch);
    actions[8 * 199..].copy_from_slice(&999i64.to_ne_bytes());
    let before = Before {
        actions: &actions,
        restart: &[],
        renew: true,
        steps: &steps,
        episodes: &episodes,
    };
    let err = batch.advance_in_place(&Plain, &before, 2).err().unwrap();
    assert_eq!(
        err.to_string(),
        "game 199: action 999 is not legal in its decision"
    );
    let after: Vec<_> = (0..200).map(|i| game_at(&batch, i)).collect();
    assert_eq!(after, positions, "no game stepped");
    let short = Before {
        steps: &steps[..4],
        ..before
    };
    assert!(matches!(
        batch.advance_in_place(&Plain, &short, 2),
        Err(Error::Argument(_))
    ));
    assert_eq!(batch.len(), 200);
}

#[test]
fn a_same_step_learner_step_hands_back_the_games_it_cut() {
    let (batch, _) = batch(6);
    let actions = first_actions(&batch);
    let (steps, episodes) = (int32s(6, 0), int64s(6, 0));
    let mut options = Options {
        same_step: true,
        max_steps: Some(1),
        seat: 0,
        seat_base: 3,
        bot: "random",
        bot_base: 9,
        dtype: "float32",
        threads: 2,
    };
    // Every learner's first decision reaches max_steps=1: cut, and restarted at once.
    let mut obs = vec![0; 6 * batch.layout().planes() * 81 * 4];
    let mut mask = vec![0; 6 * NUM_ACTIONS];
    let (next, buf, ended) = batch
        .learner_step(
            &Plain,
            &actions,
            &[],
            &steps,
            &episodes,
            [&mut mask, &mut obs],
            &options,
        )
        .unwrap();
    let at = bare_offsets(6, 2).unwrap();
    assert_eq!(ended_rows(&buf, at, 6), (0..6).collect::<Vec<_>>());
    assert_eq!(ended.len(), 6);
    for row in 0..6 {
        let action = i64::from_ne_bytes(word(&actions, row)) as u16;
        let cut = batch
            .get(row)
            .unwrap()
            .choose(batch.layout(), action)
            .unwrap();
        let game = ended.get(row).unwrap();
        assert_eq!((game.pos(), game.prefix()), (cut.pos(), cut.prefix()));
        assert_eq!(next.get(row).unwrap().pos().ply, 0, "restarted");
    }
    // Next-step mode shows the cut in the game itself: nothing is handed back.
    options.same_step = false;
    obs.fill(0);
    mask.fill(0);
    let (_, _, ended) = batch
        .learner_step(
            &Plain,
            &actions,
            &[],
            &steps,
            &episodes,
            [&mut mask, &mut obs],
            &options,
        )
        .unwrap();
    assert!(ended.is_empty());
}
