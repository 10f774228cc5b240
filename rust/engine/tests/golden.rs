//! The differential check against the Python engine: replays the seeded random games of
//! the golden files (written by `tests/gen_golden.py`, format in its docstring) and checks
//! every ply: the same number of legal moves, the same moves in the same order (a hash
//! of their notation), the same next position, the same outcome.
//!
//! `PACRU_GOLDEN_DIR=/some/dir cargo test --release --test golden` checks another
//! directory of such files (the big local run).

mod common;

use common::{outcome_key, parse_position, position_key};
use pacru_engine::{legal_moves, Game, MeetingRule, Move, Rules};
use std::fs;
use std::path::PathBuf;

const FULL_LIMIT: u64 = 3000;

fn fnv(text: &str, mut h: u64) -> u64 {
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x100000001B3);
    }
    h
}

const FNV_START: u64 = 0xCBF29CE484222325;

fn sample(n: u64) -> Vec<u64> {
    let mut out: Vec<u64> = (0..1000).collect();
    out.extend(n - 500..n);
    out.extend((0..500).map(|i| i * n / 500));
    out
}

fn list_hash(moves: &pacru_engine::MoveList) -> String {
    let mut h = FNV_START;
    let n = moves.len();
    if n <= FULL_LIMIT {
        let mut count = 0;
        for m in moves.iter() {
            h = fnv(&format!("{m}\n"), h);
            count += 1;
        }
        assert_eq!(count, n, "iter() yields len() moves");
    } else {
        for i in sample(n) {
            let m = moves.get(i).expect("sampled index in range");
            h = fnv(&format!("{i}={m}\n"), h);
        }
    }
    format!("{:012x}", h & 0xFFFF_FFFF_FFFF)
}

fn rules_of(header: &[&str]) -> Rules {
    let game = Game::parse(header[1]).unwrap();
    let meeting = if header[3] == "original" {
        MeetingRule::Original
    } else {
        MeetingRule::Y2011
    };
    let cap = (header[4] != "-").then(|| header[4].parse().unwrap());
    Rules::with_options(game, meeting, cap, header[5].parse().unwrap()).unwrap()
}

/// How many chosen moves of each kind the games played: pass, twist, capture (pincer),
/// connection, crossing marker, meeting, reorientation.
#[derive(Default, Debug)]
struct Kinds {
    pass: u64,
    twist: u64,
    capture: u64,
    connection: u64,
    marker: u64,
    meeting: u64,
    reorientation: u64,
}

impl Kinds {
    fn count(&mut self, m: &Move) {
        self.pass += u64::from(m.origin().is_none());
        self.twist += u64::from(m.twist() != 0);
        self.capture += u64::from(m.capture());
        self.connection += u64::from(m.connection());
        self.marker += u64::from(m.marker().is_some());
        self.meeting += u64::from(m.meeting().is_some());
        self.reorientation += u64::from(m.turn() != 0);
    }
}

/// Replays every game of one file; returns (games, plies).
fn check_file(path: &PathBuf, kinds: &mut Kinds) -> (u64, u64) {
    let text = fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let (mut games, mut plies) = (0, 0);
    while let Some(header) = lines.next() {
        let header: Vec<&str> = header.split(' ').collect();
        assert_eq!(header[0], "game");
        let rules = rules_of(&header);
        let start = lines.next().unwrap();
        let mut pos = parse_position(start.strip_prefix("start ").unwrap());
        let where_ = format!("{} seed {}", path.display(), header[6]);
        for line in lines.by_ref() {
            if let Some(end) = line.strip_prefix("end ") {
                assert_eq!(outcome_key(&pos.outcome), end, "{where_}: outcome");
                assert_eq!(
                    legal_moves(&rules, &pos).len(),
                    0,
                    "{where_}: no moves once over"
                );
                break;
            }
            let f: Vec<&str> = line.split(' ').collect();
            let (n, i): (u64, u64) = (f[0].parse().unwrap(), f[1].parse().unwrap());
            let moves = legal_moves(&rules, &pos);
            let ply = pos.ply;
            assert_eq!(moves.len(), n, "{where_} ply {ply}: number of moves");
            assert_eq!(list_hash(&moves), f[2], "{where_} ply {ply}: the move list");
            let m = moves.get(i).unwrap();
            kinds.count(&m);
            assert_eq!(
                moves.index_of(&m),
                Some(i),
                "{where_} ply {ply}: index_of {m}"
            );
            let next = pacru_engine::apply(&rules, &pos, &m).unwrap();
            assert_eq!(moves.apply_index(i).as_ref(), Some(&next));
            let key = position_key(&next);
            let h = format!("{:012x}", fnv(&key, FNV_START) & 0xFFFF_FFFF_FFFF);
            assert_eq!(h, f[3], "{where_} ply {ply}: position after {m}: {key}");
            pos = next;
            plies += 1;
        }
        games += 1;
    }
    (games, plies)
}

#[test]
fn golden_games() {
    let dir = std::env::var_os("PACRU_GOLDEN_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden"));
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 12, "one file per game and player count");
    let (mut games, mut plies) = (0, 0);
    let mut kinds = Kinds::default();
    for path in &files {
        let (g, p) = check_file(path, &mut kinds);
        games += g;
        plies += p;
    }
    eprintln!("golden: {games} games, {plies} plies checked; moves played: {kinds:?}");
    assert!(games >= 12);
    // The games reach every kind of move, so every rule behind them was compared.
    for (kind, n) in [
        ("pass", kinds.pass),
        ("twist", kinds.twist),
        ("pincer", kinds.capture),
        ("connection", kinds.connection),
        ("crossing marker", kinds.marker),
        ("meeting", kinds.meeting),
        ("reorientation", kinds.reorientation),
    ] {
        assert!(n > 0, "no {kind} was played");
    }
}
