//! The move families of a chosen origin (its step families and reorientations) and the
//! options of a step family, read from the position's move list.

use super::game::Game;
use super::{BENEFIT_CONNECTION, BENEFIT_NONE, MARKER, TARGET, TURN};
use crate::rollout::shape;
use pacru_engine::Field;

/// One choice of a step family: twist, connection change, marker field and meeting
/// fields (a bitboard, 0: no meeting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Opt {
    pub(super) twist: i8,
    pub(super) conn: bool,
    pub(super) marker: Option<Field>,
    pub(super) meet: u128,
}

impl Opt {
    pub(super) fn benefit(&self) -> u16 {
        match (self.conn, self.marker) {
            (true, _) => BENEFIT_CONNECTION,
            (false, None) => BENEFIT_NONE,
            (false, Some(m)) => MARKER + u16::from(m),
        }
    }
}

/// A family of moves of the chosen origin: the `step`-th step family of the list (its
/// options read when it is entered), or a reorientation by a turn, giving up `cost` of the
/// free fields.
#[derive(Clone, Copy, Debug)]
pub(super) enum Fam {
    Step {
        step: usize,
        start: u64,
        target: u8,
        capture: bool,
    },
    Reo {
        start: u64,
        turn_index: u8,
        cost: usize,
    },
}

impl Fam {
    /// The action that picks this family at the target stage.
    pub(super) fn action(&self) -> u16 {
        match *self {
            Fam::Step { target, .. } => TARGET + u16::from(target),
            Fam::Reo { turn_index, .. } => TURN + u16::from(turn_index),
        }
    }
}

pub(super) fn bits64(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if word == 0 {
            return None;
        }
        let i = word.trailing_zeros() as usize;
        word &= word - 1;
        Some(i)
    })
}

impl Game {
    /// The options of the step family entered (none before, or for a reorientation).
    pub(super) fn step_options(&self) -> &[Opt] {
        self.options.as_deref().unwrap_or(&[])
    }

    /// Keeps the candidate options that pass `test`.
    pub(super) fn keep(&mut self, test: impl Fn(&Opt) -> bool) {
        let options = self.step_options();
        let kept = bits64(self.cands)
            .filter(|&i| options.get(i).is_some_and(&test))
            .fold(0u64, |acc, i| acc | 1 << i);
        self.cands = kept;
    }

    /// The own unoccupied fields of the player to move: those a reorientation gives up (D25).
    pub(super) fn free(&self) -> u128 {
        let pos = self.list.position();
        pos.markers[usize::from(pos.to_move)] & !pos.occupied()
    }

    /// Gives each family of the chosen origin to `visit`, in list order (steps, then
    /// reorientations), until it returns false; the steps' options are read when one is
    /// entered. Kept nowhere: the target decision's families are found again when one is
    /// chosen.
    pub(super) fn each_family(&self, mut visit: impl FnMut(Fam) -> bool) {
        let Some(origin) = self.origin else {
            return; // no family before the origin is chosen
        };
        let (pos, list) = (self.list.position(), &*self.list);
        for step in list.steps_from(origin.get()) {
            if let (Some((_, target, capture)), Some((start, _))) =
                (list.step_fields(step), list.step_range(step))
            {
                let fam = Fam::Step {
                    step,
                    start,
                    target,
                    capture,
                };
                if !visit(fam) {
                    return;
                }
            }
        }
        let shape = shape(list);
        if shape.turns > 0 {
            let seat = usize::from(pos.to_move);
            let own = pos.chevrons[seat].fields();
            let k = u64::from((own & (origin.bit() - 1)).count_ones());
            // The turns (by their index in `TURNS`) and the fields each gives up {R14}.
            const ALL: [(u8, usize); 4] = [(0, 4), (1, 2), (2, 2), (3, 4)];
            const QUARTER: [(u8, usize); 2] = [(1, 2), (2, 2)];
            let turns: &[(u8, usize)] = if shape.turns == 4 { &ALL } else { &QUARTER };
            let mut start = shape.step_moves + k * shape.per_chevron;
            for (t, &(turn_index, cost)) in turns.iter().enumerate() {
                let fam = Fam::Reo {
                    start,
                    turn_index,
                    cost,
                };
                if !visit(fam) {
                    return;
                }
                start += shape.sizes[t];
            }
        }
    }

    /// Writes the options of the `step`-th step family, in order, to the start of
    /// `options` (filled in place: returned, the array would be copied), and gives how
    /// many there are: at most a connection and the nine fields of a borderland {R8, R10}.
    pub(super) fn read_options(&self, step: usize, options: &mut [Opt; 10]) -> usize {
        let mut n = 0;
        self.list.each_step_choice(step, |c| {
            if let Some(slot) = options.get_mut(n) {
                *slot = Opt {
                    twist: c.twist,
                    conn: c.connection,
                    marker: c.marker,
                    meet: c.meetings,
                };
                n += 1;
            }
        });
        n
    }
}
