//! The observation planes of a decision, as float32, uint8 or bool values.

use pacru_engine::geometry::{bits, code_field, nth_field};

use super::family::Fam;
use super::game::Game;
use super::{Layout, Stage, BENEFIT_CONNECTION};

impl Game {
    /// The observation planes of the decision seen by the player deciding, into `out`:
    /// `layout.planes() * 81` float32 values as native-endian bytes, zeroed by the caller.
    pub fn observation(&self, layout: &Layout, out: &mut [u8]) {
        self.observation_as(layout, Cell::F32, out)
    }

    /// As [`Game::observation`], each value written as `cell` says (`cell.size()` bytes a
    /// value: float32, or uint8 and bool as `pacru.vector`'s observation dtypes).
    pub fn observation_as(&self, layout: &Layout, cell: Cell, out: &mut [u8]) {
        let player = usize::from(self.list.position().to_move);
        self.planes_of(layout, player, cell, out)
    }

    /// The observation planes of the decision seen by seat `player` (`< layout.players`),
    /// its seat first, into `out` as [`Game::observation`].
    pub fn observation_of(&self, layout: &Layout, player: usize, out: &mut [u8]) {
        self.planes_of(layout, player, Cell::F32, out)
    }

    fn planes_of(&self, layout: &Layout, player: usize, cell: Cell, out: &mut [u8]) {
        let pos = self.list.position();
        let p = usize::from(layout.players);
        let rot = |seat: usize| (seat + p - player) % p;
        let size = cell.size();
        let (one, one_len) = cell.encode(1.0);
        let mut set = |plane: usize, field: u8| {
            let at = size * (plane * 81 + usize::from(field));
            out[at..at + size].copy_from_slice(&one[..one_len]);
        };
        for seat in 0..p {
            let r = rot(seat);
            for f in bits(pos.markers[seat]) {
                set(r, f);
            }
            for code in pos.chevrons[seat].iter() {
                set(p + 8 * r + usize::from(code & 7), code_field(code));
            }
        }
        let d0 = 9 * p;
        if let Some(origin) = self.origin {
            set(d0, origin.get());
        }
        // The planes set to 1 everywhere: at most twist, benefit or turn, stage, game,
        // player to move, and one per eliminated seat and for the trigger.
        let mut full = [0usize; 16];
        let mut count = 0;
        let mut push = |plane: usize| {
            full[count] = plane;
            count += 1;
        };
        match self.fam {
            Some(Fam::Step { target, .. }) => {
                set(d0 + 1, target);
                if let Some(twist) = self.twist {
                    push((d0 + 16).wrapping_add_signed(isize::from(twist)));
                }
                if let Some(marker) = self.marker() {
                    set(d0 + 2, marker.get());
                } else if self.benefit == Some(BENEFIT_CONNECTION) {
                    push(d0 + 18);
                }
                if let Some(meeting) = self.meeting {
                    set(d0 + 3, meeting.get());
                }
            }
            Some(Fam::Reo { turn_index, .. }) => {
                push(d0 + 11 + usize::from(turn_index));
                let free = self.free();
                for &c in self.chosen.as_slice() {
                    if let Some(f) = nth_field(free, u32::from(c)) {
                        set(d0 + 4, f);
                    }
                }
            }
            None => {}
        }
        if self.stage < Stage::Done {
            push(d0 + 5 + usize::from(self.stage as u8));
        }
        push(d0 + 19 + usize::from(layout.game_index));
        let b0 = d0 + 23;
        push(b0 + rot(usize::from(pos.to_move)));
        for seat in 0..p {
            if pos.out >> seat & 1 != 0 {
                push(b0 + p + rot(seat));
            }
        }
        if let Ok(trigger) = usize::try_from(pos.trigger) {
            push(b0 + 2 * p + rot(trigger));
        }
        let nbin = b0 + 3 * p;
        let mut fill = |plane: usize, value: f32| {
            cell.fill(&mut out[size * 81 * plane..size * 81 * (plane + 1)], value);
        };
        for &plane in &full[..count] {
            fill(plane, 1.0);
        }
        if layout.supply > 0 {
            let supply = f64::from(layout.supply);
            for seat in 0..p {
                let left = supply - f64::from(pos.markers[seat].count_ones());
                fill(nbin + rot(seat), (left / supply) as f32);
            }
        }
        fill(nbin + p, (pos.idle as f64 / layout.idle_scale) as f32);
        fill(
            nbin + p + 1,
            (pos.ply as f64 / layout.ply_scale).min(1.0) as f32,
        );
    }
}

/// A float32 plane of ones (81 native-endian values): the planes set everywhere.
const ONES: [u8; 4 * 81] = {
    let one = 1.0f32.to_ne_bytes();
    let mut plane = [0u8; 4 * 81];
    let mut i = 0;
    while i < plane.len() {
        plane[i] = one[i % 4];
        i += 1;
    }
    plane
};

/// How an observation value is written: float32 (native-endian), uint8 (the value times
/// 255, rounded half to even, as numpy's `rint`) or bool (1 where the value is not 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    F32,
    U8,
    Bool,
}

impl Cell {
    /// Bytes a value.
    pub fn size(self) -> usize {
        match self {
            Cell::F32 => 4,
            Cell::U8 | Cell::Bool => 1,
        }
    }

    /// The bytes of `value`, and how many of them are used.
    pub fn encode(self, value: f32) -> ([u8; 4], usize) {
        match self {
            Cell::F32 => (value.to_ne_bytes(), 4),
            // Values lie in 0..1: the float32 product and its rounding are numpy's.
            Cell::U8 => ([(value * 255.0).round_ties_even() as u8, 0, 0, 0], 1),
            Cell::Bool => ([u8::from(value != 0.0), 0, 0, 0], 1),
        }
    }

    /// Every value of `out` set to `value`.
    fn fill(self, out: &mut [u8], value: f32) {
        let (bytes, len) = self.encode(value);
        if len == 1 {
            out.fill(bytes[0]);
        } else if value == 1.0 && out.len() == ONES.len() {
            out.copy_from_slice(&ONES);
        } else if let Some(first) = out.get_mut(..4) {
            // The value once, then the filled part copied after itself, doubling.
            first.copy_from_slice(&bytes);
            let mut done = 4;
            while done < out.len() {
                let more = done.min(out.len() - done);
                out.copy_within(..more, done);
                done += more;
            }
        }
    }
}
