//! What the integration tests share.

use pacru_batch::decision::Layout;
use pacru_engine::{Game as Kind, Rules};

/// The encoding layout of `kind` for `players` seats (no Pacru supply planes needed).
pub fn layout(kind: Kind, players: u8) -> Layout {
    Layout {
        rules: Rules::new(kind),
        players,
        game_index: kind as u8,
        ply_scale: 1000.0,
        idle_scale: 81.0 * f64::from(players),
        supply: 0,
    }
}
