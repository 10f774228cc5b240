//! Each stage's choice: the legal actions it asks for, or the stage after it when only
//! one is open, until the move is complete and its index in the list known.

use std::sync::Arc;

use pacru_engine::geometry::bits;
use pacru_engine::Field;

use super::family::{bits64, Fam, Opt};
use super::game::Game;
use super::{
    action_twist, twist_action, Actions, DecisionError, Stage, MARKER, MEETING, RELINQUISH,
};

impl Game {
    pub(super) fn ask(
        &mut self,
        stage: Stage,
        legal: Actions,
    ) -> Result<Option<u64>, DecisionError> {
        self.stage = stage;
        self.legal = legal;
        Ok(None)
    }

    pub(super) fn target_stage(&mut self) -> Result<Option<u64>, DecisionError> {
        let (mut acts, mut count, mut only) = (Actions::default(), 0, None);
        self.each_family(|fam| {
            acts.insert(fam.action());
            count += 1;
            only = Some(fam);
            true
        });
        if count > 1 {
            return self.ask(Stage::Target, acts);
        }
        let only = only.ok_or(DecisionError::NoFamily)?;
        self.fam = None;
        self.enter(only)
    }

    pub(super) fn enter(&mut self, fam: Fam) -> Result<Option<u64>, DecisionError> {
        self.fam = Some(fam);
        match fam {
            Fam::Step { step, .. } => {
                let mut buf = [Opt::default(); 10];
                let n = self.read_options(step, &mut buf);
                let options = buf.get(..n).unwrap_or_default();
                self.cands = (1u64 << n) - 1;
                self.options = None;
                let done = self.option_stage(options)?;
                if done.is_none() {
                    // Kept for the decisions still to come: most families are done at once
                    // (one option), and need no allocation.
                    self.options = Some(Arc::from(options));
                }
                Ok(done)
            }
            Fam::Reo { .. } => self.relinquish_stage(),
        }
    }

    /// The next decision of the step family entered, whose options are `options`.
    pub(super) fn option_stage(&mut self, options: &[Opt]) -> Result<Option<u64>, DecisionError> {
        let option = |i: usize| options.get(i).copied().ok_or(DecisionError::NoFamily);
        let first = bits64(self.cands).next().ok_or(DecisionError::NoFamily)?;
        let meet;
        if self.cands.count_ones() == 1 {
            // As the Python cursor: the only option gives the twist and benefit shown.
            let o = option(first)?;
            self.twist = Some(o.twist);
            self.benefit = Some(o.benefit());
            meet = o.meet;
        } else {
            if self.twist.is_none() {
                let acts: Actions = bits64(self.cands)
                    .filter_map(|i| options.get(i))
                    .map(|o| twist_action(o.twist))
                    .collect();
                if acts.len() > 1 {
                    return self.ask(Stage::Twist, acts);
                }
                self.twist = Some(acts.first().and_then(action_twist).unwrap_or(0));
            }
            let acts: Actions = bits64(self.cands)
                .filter_map(|i| options.get(i))
                .map(Opt::benefit)
                .collect();
            if acts.len() > 1 {
                return self.ask(Stage::Benefit, acts);
            }
            self.benefit = acts.first();
            meet = option(first)?.meet;
        }
        if meet & meet.wrapping_sub(1) != 0 {
            let acts = bits(meet).map(|f| MEETING + u16::from(f)).collect();
            return self.ask(Stage::Meeting, acts);
        }
        let meeting = Field::lowest(meet);
        self.finish_step(options, meeting)
    }

    /// The move of the step family entered, whose options are `options`, with `meeting`.
    pub(super) fn finish_step(
        &mut self,
        options: &[Opt],
        meeting: Option<Field>,
    ) -> Result<Option<u64>, DecisionError> {
        let Some(Fam::Step { start, .. }) = self.fam else {
            return Err(DecisionError::NoFamily); // a meeting is chosen in a step
        };
        let oi = self.cands.trailing_zeros() as usize;
        let (before, Some(option)) = (options.get(..oi), options.get(oi)) else {
            return Err(DecisionError::NoFamily);
        };
        let mut index: u64 = before
            .unwrap_or_default()
            .iter()
            .map(|o| u64::from(o.meet.count_ones().max(1)))
            .sum();
        let meet = option.meet;
        if let (Some(m), true) = (meeting, meet != 0) {
            index += u64::from((meet & (m.bit() - 1)).count_ones());
        }
        self.meeting = meeting;
        Ok(self.finish(start + index))
    }

    pub(super) fn relinquish_stage(&mut self) -> Result<Option<u64>, DecisionError> {
        let Some(Fam::Reo { start, cost, .. }) = self.fam else {
            return Err(DecisionError::NoFamily); // fields are given up in a reorientation
        };
        let free = self.free();
        let n = free.count_ones() as usize;
        loop {
            let chosen = self.chosen.as_slice();
            // The list holds a reorientation only where `cost <= n` free fields (D25).
            let need = cost.checked_sub(chosen.len());
            let need = need.ok_or(DecisionError::NoFamily)?;
            if need == 0 {
                let rank = combination_rank(n as u64, cost as u64, chosen);
                return Ok(self.finish(start + rank));
            }
            let first = chosen.last().map_or(0, |&c| usize::from(c) + 1);
            let last = n.checked_sub(need).ok_or(DecisionError::NoFamily)?;
            if last > first {
                let acts = bits(free)
                    .skip(first)
                    .take(last - first + 1)
                    .map(|f| RELINQUISH + u16::from(f))
                    .collect();
                return self.ask(Stage::Relinquish, acts);
            }
            let first = u8::try_from(first).map_err(|_| DecisionError::NoFamily)?;
            self.chosen.push(first)?;
        }
    }

    /// The marker field of the benefit chosen, if it is a marker's.
    pub(super) fn marker(&self) -> Option<Field> {
        let field = self.benefit?.checked_sub(MARKER)?;
        Field::try_from(field).ok()
    }

    /// The move of index `at` is chosen: the finished decision.
    pub(super) fn finish(&mut self, at: u64) -> Option<u64> {
        self.stage = Stage::Done;
        self.legal = Actions::default();
        Some(at)
    }
}

fn comb(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// The lexicographic rank of the `k`-subset `chosen` (ascending positions) of `n`.
fn combination_rank(n: u64, k: u64, chosen: &[u8]) -> u64 {
    let (mut rank, mut start) = (0u64, 0u64);
    for (j, &pos) in chosen.iter().enumerate() {
        for i in start..u64::from(pos) {
            rank += comb(n - i - 1, k - j as u64 - 1);
        }
        start = u64::from(pos) + 1;
    }
    rank
}
