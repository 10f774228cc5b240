//! Learner steps and bots' moves in place ([`Batch::learner_step_in_place`],
//! [`Batch::play_bots_in_place`]) against their copying calls, and observations written
//! into a buffer handed in with any contents ([`Batch::observation_into`]), on a host of
//! plain vectors.

mod common;

use common::layout;
use pacru_batch::decision::NUM_ACTIONS;
use pacru_batch::frame::bare_offsets;
use pacru_batch::fused::{learner_offsets, Options};
use pacru_batch::{Batch, Error, Plain};
use pacru_engine::{Game as Kind, Position};

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

/// Game `i`'s position and the actions of its move under way.
fn game_at(batch: &Batch, i: usize) -> (Position, Vec<u16>) {
    let game = batch.get(i).unwrap();
    (game.pos().clone(), game.prefix().to_vec())
}

/// The rows of a frame (laid out by `at`) that show an end: terminated or truncated.
fn ended_rows(frame: &[u8], at: [usize; 6], n: usize) -> Vec<usize> {
    (0..n)
        .filter(|&i| frame[at[3] + i] != 0 || frame[at[4] + i] != 0)
        .collect()
}

#[test]
fn a_learner_step_in_place_gives_the_copying_steps_games_and_buffer() {
    // 200 games on two threads, greedy bots, both reset rules, a max_steps cut.
    let n = 200;
    for same_step in [true, false] {
        let (mut copied, _) = batch(n);
        let (mut stepped, _) = batch(n);
        let options = Options {
            same_step,
            max_steps: Some(60),
            seat: -1,
            seat_base: 3,
            bot: "greedy",
            bot_base: 9,
            dtype: "uint8",
            threads: 2,
        };
        let (mut steps, mut episodes) = (int32s(n, 0), int64s(n, 0));
        let mut shown = vec![0u8; n];
        let mut ends = 0;
        for base in 0..40 {
            let actions = copied.random_actions(&Plain, base, &shown, 2).unwrap();
            let restart: &[u8] = if same_step { &[] } else { &shown };
            let row_bytes = stepped.layout().planes() * 81;
            // The in-place step's arrays hold stale bytes: each row is zeroed as it is written.
            let (mut obs, mut obs2) = (vec![0; n * row_bytes], vec![0xA5; n * row_bytes]);
            let (mut mask, mut mask2) = (vec![0; n * NUM_ACTIONS], vec![7; n * NUM_ACTIONS]);
            let (next, buf, ended) = copied
                .learner_step(
                    &Plain,
                    &actions,
                    restart,
                    &steps,
                    &episodes,
                    [&mut mask, &mut obs],
                    &options,
                )
                .unwrap();
            let (buf2, ended2) = stepped
                .learner_step_in_place(
                    &Plain,
                    &actions,
                    restart,
                    &steps,
                    &episodes,
                    [&mut mask2, &mut obs2],
                    &options,
                )
                .unwrap();
            assert_eq!((buf2, mask2, obs2), (buf.clone(), mask, obs));
            assert_eq!(ended2.len(), ended.len());
            for i in 0..n {
                assert_eq!(game_at(&next, i), game_at(&stepped, i));
            }
            for j in 0..ended.len() {
                assert_eq!(game_at(&ended, j), game_at(&ended2, j));
            }
            let at = learner_offsets(n, 2).unwrap();
            steps = buf[at[1]..at[1] + 4 * n].to_vec();
            episodes = buf[at[2]..at[2] + 8 * n].to_vec();
            let rows = ended_rows(&buf, bare_offsets(n, 2).unwrap(), n);
            ends += rows.len();
            // Next-step: a row that shows an end takes any action, and restarts.
            shown = vec![0u8; n];
            for i in rows.into_iter().filter(|_| !same_step) {
                shown[i] = 1;
            }
            copied = next;
        }
        assert!(ends > 0, "no game ended");
    }
}

#[test]
fn a_learner_step_in_place_refuses_before_any_game_steps() {
    let (mut batch, _) = batch(100);
    let mut actions = first_actions(&batch);
    actions[8 * 70..8 * 71].copy_from_slice(&999i64.to_ne_bytes());
    let (steps, episodes) = (int32s(100, 0), int64s(100, 0));
    let options = Options {
        same_step: true,
        max_steps: None,
        seat: 0,
        seat_base: 3,
        bot: "random",
        bot_base: 9,
        dtype: "float32",
        threads: 2,
    };
    let before: Vec<_> = (0..100).map(|i| game_at(&batch, i)).collect();
    let mut obs = vec![0; 100 * batch.layout().planes() * 81 * 4];
    let mut mask = vec![0; 100 * NUM_ACTIONS];
    let err = batch
        .learner_step_in_place(
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
    assert!(matches!(err, Error::Illegal(70, 999)), "{err}");
    let after: Vec<_> = (0..100).map(|i| game_at(&batch, i)).collect();
    assert_eq!(after, before);
}

#[test]
fn bots_in_place_play_the_copying_bots_games() {
    let n = 150;
    let (batch_a, _) = batch(n);
    let (mut batch_b, _) = batch(n);
    let seats: Vec<u8> = (0..n).flat_map(|i| (i as i32 % 2).to_ne_bytes()).collect();
    let budgets: Vec<u8> = (0..n).flat_map(|i| (i as u32 % 9).to_ne_bytes()).collect();
    let episodes = int64s(n, 2);
    let (next, frame, taken) = batch_a
        .play_bots(&Plain, &seats, "greedy", 5, &episodes, &budgets, 2)
        .unwrap();
    let (frame2, taken2) = batch_b
        .play_bots_in_place(&Plain, &seats, "greedy", 5, &episodes, &budgets, 2)
        .unwrap();
    assert_eq!((frame2, taken2), (frame, taken));
    for i in 0..n {
        assert_eq!(game_at(&next, i), game_at(&batch_b, i));
    }
    assert!(batch_b
        .play_bots_in_place(&Plain, &seats, "clever", 5, &episodes, &budgets, 2)
        .is_err());
    assert_eq!(batch_b.len(), n, "an unknown bot leaves the batch as it is");
}

#[test]
fn an_observation_written_into_any_buffer_is_the_hosts() {
    let (batch, _) = batch(130);
    for (dtype, threads) in [("float32", 1), ("uint8", 3), ("bool", 2)] {
        let made = batch.observation(&Plain, threads, dtype).unwrap();
        // Stale bytes: each row is zeroed as it is written.
        let mut into = vec![0xA5; batch.observation_len(dtype).unwrap()];
        batch.observation_into(&mut into, threads, dtype).unwrap();
        assert_eq!(into, made);
        let err = batch.observation_into(&mut into[1..], threads, dtype);
        assert!(matches!(err, Err(Error::Argument(_))), "{err:?}");
    }
    assert!(batch.observation_len("f16").is_err());
}
