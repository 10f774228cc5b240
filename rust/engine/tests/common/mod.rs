//! Shared by the integration tests: the position key of tests/gen_golden.py.

#![allow(dead_code)]

use pacru_engine::{Outcome, Position, Termination};

pub fn outcome_key(o: &Option<Outcome>) -> String {
    match o {
        None => "-".to_string(),
        Some(o) => format!("{}:{}", o.termination.value(), o.winners),
    }
}

pub fn position_key(p: &Position) -> String {
    let n = p.players as usize;
    let markers: Vec<String> = p.markers[..n].iter().map(|m| format!("{m:x}")).collect();
    let chevrons: Vec<String> = p.chevrons[..n]
        .iter()
        .map(|c| {
            c.iter()
                .map(|code| code.to_string())
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect();
    format!(
        "{} {} {} {} {} {} {} {} {}",
        p.players,
        p.to_move,
        p.out,
        p.trigger,
        p.idle,
        p.ply,
        outcome_key(&p.outcome),
        markers.join(","),
        chevrons.join("/")
    )
}

pub fn parse_outcome(text: &str) -> Option<Outcome> {
    let (value, mask) = text.split_once(':')?;
    Some(Outcome {
        termination: Termination::parse(value)?,
        winners: mask.parse().ok()?,
    })
}

pub fn parse_position(key: &str) -> Position {
    let parts: Vec<&str> = key.split(' ').collect();
    assert_eq!(parts.len(), 9, "position key {key}");
    let players: u8 = parts[0].parse().unwrap();
    let markers: Vec<u128> = parts[7]
        .split(',')
        .map(|m| u128::from_str_radix(m, 16).unwrap())
        .collect();
    let chevrons: Vec<Vec<u16>> = parts[8]
        .split('/')
        .map(|s| {
            s.split('.')
                .filter(|c| !c.is_empty())
                .map(|c| c.parse().unwrap())
                .collect()
        })
        .collect();
    let refs: Vec<&[u16]> = chevrons.iter().map(|c| c.as_slice()).collect();
    let pos = Position::new(
        players,
        &markers,
        &refs,
        parts[1].parse().unwrap(),
        parts[2].parse().unwrap(),
        parts[3].parse().unwrap(),
        parts[4].parse().unwrap(),
        parts[5].parse().unwrap(),
        if parts[6] == "-" {
            None
        } else {
            Some(parse_outcome(parts[6]).unwrap())
        },
    )
    .unwrap();
    assert_eq!(position_key(&pos), key, "the key reads back");
    pos
}
