//! The LSD batch of `pacru.vector` ([`LsdBatch`]) on a host of plain vectors: its frames,
//! its checks, and the same draws on every thread count.

use pacru_batch::frame::{frame_offsets, word};
use pacru_batch::lsd::LsdBatch;
use pacru_batch::{Error, Plain};
use pacru_lsd::{Layout, Position, Rules};

/// Two seats of `+` and `x` tiles (two of each kind), rows of 4.
fn rules() -> Rules {
    let black: Vec<u8> = vec![1, 3, 5, 7, 15, 17, 19, 21, 23, 31];
    let white = black.iter().map(|&f| f | 32).collect();
    Rules::new(vec![black, white], vec![vec![2; 10]; 2], true, true, 4).unwrap()
}

fn batch(n: usize) -> (LsdBatch, Vec<u8>) {
    let rules = rules();
    let start = Position::new(&rules);
    LsdBatch::create(&Plain, Layout::new(rules), start, n).unwrap()
}

#[test]
fn a_new_batch_shows_every_games_first_decision() {
    let (batch, frame) = batch(3);
    let a = batch.layout().num_actions();
    let at = frame_offsets(3, a, 2).unwrap();
    assert_eq!(frame.len(), at[5]);
    let mut mask = vec![0u8; a];
    batch.get(2).unwrap().write_mask(batch.layout(), &mut mask);
    assert_eq!(&frame[2 * a..3 * a], &mask[..]);
    assert_eq!(i32::from_ne_bytes(word(&frame[at[1]..], 2)), 0);
    assert!(frame[at[3]..].iter().all(|&f| f == 0), "no end yet");
}

#[test]
fn a_step_takes_legal_actions_and_refuses_others() {
    let (batch, _) = batch(3);
    let mut legal = Vec::new();
    batch
        .get(1)
        .unwrap()
        .legal_actions(batch.layout(), &mut legal);
    let action = i64::try_from(legal[0]).unwrap();
    let (next, frame) = batch
        .step(&Plain, &[1], &[action], &[false], &[None], 1)
        .unwrap();
    let a = batch.layout().num_actions();
    assert_eq!(frame.len(), frame_offsets(1, a, 2).unwrap()[5]);
    assert_eq!(next.get(1).unwrap().prefix(), &[action]);
    assert!(next.get(0).unwrap().prefix().is_empty());
    let err = batch
        .step(&Plain, &[3], &[0], &[false], &[None], 1)
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "no game 3 in the batch");
    let err = batch
        .step(&Plain, &[0], &[], &[false], &[None], 1)
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "rows, actions, restart and starts must be of one length"
    );
    let err = batch
        .step(&Plain, &[2], &[-5], &[false], &[None], 1)
        .err()
        .unwrap();
    assert!(matches!(err, Error::Argument(m) if m.starts_with("game 2: ")));
}

#[test]
fn draws_and_observations_do_not_depend_on_threads() {
    let (batch, _) = batch(300);
    let shown: Vec<u8> = (0..300).map(|i| u8::from(i % 5 == 0)).collect();
    let one = batch.random_actions(&Plain, 4, &shown, 1).unwrap();
    assert_eq!(batch.random_actions(&Plain, 4, &shown, 2).unwrap(), one);
    let obs = batch.observation(&Plain, 1, "bool").unwrap();
    assert_eq!(obs.len(), 300 * batch.layout().observation_len());
    assert_eq!(batch.observation(&Plain, 2, "bool").unwrap(), obs);
    let err = batch
        .random_actions(&Plain, 4, &shown[1..], 1)
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "shown must hold one byte a game");
}
