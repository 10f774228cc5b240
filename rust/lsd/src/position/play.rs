//! A move's making: placement, captures, the mover's row and the next seat.

use super::cells::{captures, constraint, get, has_row, remove, set};
use super::{Illegal, Move, Position};
use super::{Outcome, Termination};
use crate::rules::{Rules, DOT_BITS, FACE_BITS, OWNER_SHIFT, STEP};

impl Position {
    pub(super) fn refresh(&mut self, cells: &[i32]) {
        for &cell in cells {
            if get(&self.field, cell).is_some() {
                remove(&mut self.frontier, cell);
                continue;
            }
            let code = constraint(&self.field, cell);
            if code & DOT_BITS != 0 {
                set(&mut self.frontier, cell, code);
            } else {
                remove(&mut self.frontier, cell);
            }
        }
    }

    /// The position after the mover plays `mv` {LSD 1.5, 2.2-2.4}; `self` is unchanged.
    ///
    /// # Errors
    /// The [`Illegal`] reason; nothing changes.
    pub fn play(&self, rules: &Rules, mv: Move) -> Result<Position, Illegal> {
        self.check(rules, mv)?;
        let mut next = self.clone();
        next.apply_legal(rules, mv);
        Ok(next)
    }

    /// Play `mv` here, known to be legal (one of [`Position::legal_moves`]): place it, take
    /// the captures (2.3), check the mover's row (RULING 18), and pass the turn clockwise,
    /// skipping who cannot place (RULING 19); nobody can: a draw.
    ///
    /// # Errors
    /// [`Position::check`]'s reason when `mv` is not legal; nothing changes then.
    pub fn apply(&mut self, rules: &Rules, mv: Move) -> Result<(), Illegal> {
        self.check(rules, mv)?;
        self.apply_legal(rules, mv);
        Ok(())
    }

    pub(super) fn apply_legal(&mut self, rules: &Rules, mv: Move) {
        let Ok(owner) = u8::try_from(self.turn) else {
            return;
        };
        let seat = usize::from(owner);
        let first = self.field.is_empty();
        let Some(kind) = rules.kind_of(seat, mv.face) else {
            return;
        };
        set(&mut self.field, mv.cell, mv.face | owner << OWNER_SHIFT);
        self.counts[rules.offset(seat) + kind] -= 1;
        let (victims, n) = if first {
            ([0; 4], 0)
        } else {
            captures(&self.field, mv.cell, mv.face)
        };
        let half = self.counts.len() / 2;
        for &victim in &victims[..n] {
            if let Some(code) = remove(&mut self.field, victim) {
                let owner = usize::from(code >> OWNER_SHIFT);
                if let Some(k) = rules.kind_of(owner, code & FACE_BITS) {
                    let slot = &mut self.counts[half + rules.offset(owner) + k];
                    *slot = slot.saturating_add(1);
                }
            }
        }
        // The placed cell and at most four victims, each with its four neighbours.
        let mut affected = [0i32; 25];
        let mut m = 0;
        for &c in std::iter::once(&mv.cell).chain(&victims[..n]) {
            affected[m..m + 5].copy_from_slice(&[
                c,
                c + STEP[0],
                c + STEP[1],
                c + STEP[2],
                c + STEP[3],
            ]);
            m += 5;
        }
        self.refresh(&affected[..m]);
        self.last = Some(mv);
        if !first && has_row(&self.field, mv.cell, owner, rules.row_length()) {
            self.outcome = Some(Outcome {
                termination: Termination::Row,
                winners: 1 << seat,
            });
            self.turn = -1;
        } else {
            self.turn = self.next_seat(rules, seat);
            if self.turn < 0 {
                self.outcome = Some(Outcome {
                    termination: Termination::Blocked,
                    winners: 0,
                });
            }
        }
    }
}
