//! The legal moves of a position, in `LsdState.legal_moves()` order, and the check of one
//! move with the reason it is refused.

use super::cells::{constraint, get};
use super::{Illegal, Move, Position};
use crate::rules::{Rules, DOT_BITS, FACE_BITS, ORIGIN};

impl Position {
    /// Whether `seat` has at least one legal placement {LSD 2.2, 2.4.2}.
    pub fn can_place(&self, rules: &Rules, seat: usize) -> bool {
        let reach = self
            .supply(rules, seat)
            .iter()
            .zip(rules.reach(seat))
            .filter(|(&count, _)| count > 0)
            .fold(0u16, |r, (_, &k)| r | k);
        if reach == 0 {
            return false;
        }
        if self.field.is_empty() {
            return true;
        }
        self.frontier
            .iter()
            .any(|&(_, code)| rules.fit(code) & reach != 0)
    }

    /// The next seat clockwise after `mover` that can place, or -1 if none can: seats without
    /// a placement are skipped (RULING 19), the mover comes last {LSD 2.4.2}.
    pub(super) fn next_seat(&self, rules: &Rules, mover: usize) -> i8 {
        let players = rules.players();
        (1..=players)
            .map(|step| (mover + step) % players)
            .find(|&seat| self.can_place(rules, seat))
            .map_or(-1, |seat| i8::try_from(seat).unwrap_or(-1)) // a seat: below 4
    }

    /// The seat to move with the kinds left in its supply as a bit set (kinds are distinct
    /// 6-bit faces: at most 64), and the cells a tile may go to with the dot masks that fit
    /// each (a 16-bit set): the first tile fits any way on (0, 0) (RULING 20); after it,
    /// the frontier in cell order. None once the game is over.
    pub(super) fn placements<'a>(
        &'a self,
        rules: &'a Rules,
    ) -> Option<(usize, u64, impl Iterator<Item = (i32, u16)> + 'a)> {
        let seat = usize::try_from(self.turn).ok()?;
        let left = self
            .supply(rules, seat)
            .iter()
            .enumerate()
            .filter(|&(kind, &count)| count > 0 && kind < 64)
            .fold(0u64, |bits, (kind, _)| bits | 1 << kind);
        let first = self.field.is_empty().then_some((ORIGIN, 0xFFFF));
        let rest = self
            .frontier
            .iter()
            .filter(move |_| first.is_none())
            .map(|&(cell, code)| (cell, rules.fit(code)));
        Some((seat, left, first.into_iter().chain(rest)))
    }

    /// Calls `f` with each legal placement {LSD 2.2} in `LsdState.legal_moves()` order: by
    /// cell (x then y), then kind, then orientation (dot masks ascending); none once the
    /// game is over.
    pub fn for_each_legal(&self, rules: &Rules, mut f: impl FnMut(Move)) {
        let Some((seat, left, cells)) = self.placements(rules) else {
            return;
        };
        let reach = rules.reach(seat);
        for (cell, allowed) in cells {
            let mut bits = left;
            while bits != 0 {
                let kind = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if reach.get(kind).is_some_and(|&r| allowed & r != 0) {
                    for &(mask, face) in rules.orients(seat, kind) {
                        if allowed >> mask & 1 == 1 {
                            f(Move { face, cell });
                        }
                    }
                }
            }
        }
    }

    /// The number of legal placements, counted without making them: a kind's orientations
    /// have distinct dot masks, so those that fit a cell are the bits of `allowed & reach`.
    pub fn count_legal(&self, rules: &Rules) -> usize {
        let Some((seat, left, cells)) = self.placements(rules) else {
            return 0;
        };
        let reach = rules.reach(seat);
        let mut n = 0;
        for (_, allowed) in cells {
            let mut bits = left;
            while bits != 0 {
                let kind = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                n += reach
                    .get(kind)
                    .map_or(0, |&r| (allowed & r).count_ones() as usize);
            }
        }
        n
    }

    /// The `index`-th legal placement in [`Position::for_each_legal`]'s order, made alone.
    pub fn nth_legal(&self, rules: &Rules, index: usize) -> Option<Move> {
        let (seat, left, cells) = self.placements(rules)?;
        let reach = rules.reach(seat);
        let mut i = index;
        for (cell, allowed) in cells {
            let mut bits = left;
            while bits != 0 {
                let kind = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let n = reach
                    .get(kind)
                    .map_or(0, |&r| (allowed & r).count_ones() as usize);
                if i < n {
                    return rules
                        .orients(seat, kind)
                        .iter()
                        .filter(|&&(mask, _)| allowed >> mask & 1 == 1)
                        .nth(i)
                        .map(|&(_, face)| Move { face, cell });
                }
                i -= n;
            }
        }
        None
    }

    /// The legal placements in `LsdState.legal_moves()` order (see
    /// [`Position::for_each_legal`]), into `out` (cleared first).
    pub fn legal_moves_into(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        self.for_each_legal(rules, |m| out.push(m));
    }

    /// The legal placements, as [`Position::legal_moves_into`].
    pub fn legal_moves(&self, rules: &Rules) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(rules, &mut out);
        out
    }

    /// `Ok` if the mover may play `mv`, else why not (the checks of `LsdState._check` and
    /// `explain_illegal`, in their order).
    ///
    /// # Errors
    /// The [`Illegal`] reason.
    pub fn check(&self, rules: &Rules, mv: Move) -> Result<(), Illegal> {
        let Ok(seat) = usize::try_from(self.turn) else {
            return Err(Illegal::GameOver);
        };
        let face = mv.face & FACE_BITS;
        let supply = self.supply(rules, seat);
        let kind = if mv.face == face {
            rules.kind_of(seat, face)
        } else {
            None
        };
        let has = |k: usize| supply.get(k).is_some_and(|&c| c > 0);
        match kind {
            Some(k) if has(k) => {}
            _ => {
                if kind.is_none() && rules.rotation_of(seat, face).is_some_and(has) {
                    return Err(Illegal::RotationNotAllowed);
                }
                return Err(Illegal::NotInSupply);
            }
        }
        if self.field.is_empty() {
            return if mv.cell == ORIGIN {
                Ok(())
            } else {
                Err(Illegal::FirstTileNotOrigin)
            };
        }
        if get(&self.field, mv.cell).is_some() {
            return Err(Illegal::Occupied);
        }
        let code = constraint(&self.field, mv.cell);
        let need = code & DOT_BITS;
        let forbid = code >> 4;
        let dots = face & DOT_BITS;
        let highest = |bits: u8| {
            bits.checked_ilog2()
                .map_or(0, |b| u8::try_from(b).unwrap_or(0))
        };
        if need & !dots != 0 {
            return Err(Illegal::ObstructsDot(highest(need & !dots)));
        }
        if rules.strict_dot_matching() && forbid & dots != 0 {
            return Err(Illegal::DotAgainstEmpty(highest(forbid & dots)));
        }
        if rules.fit(code) >> dots & 1 == 0 {
            return Err(Illegal::NoWholeDot);
        }
        Ok(())
    }
}
