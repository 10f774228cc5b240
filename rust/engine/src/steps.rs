//! The chevron steps of one position before their choices (`Step`), kept in a list that
//! lives inline up to a size random play never passes (`Steps`): listing the moves
//! allocates nothing in practice.

/// A chevron step before its choices; `end` is where its moves end in a move list (set by
/// the list: the number of moves of every step up to this one), and `bare` says that its
/// only choice is the step itself (set by a Pacru list, so that decoding needs no choices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Step {
    pub f: u8,
    pub t: u8,
    pub d: u8,
    pub k: u8,
    pub jumped: bool,
    pub capture: bool,
    pub bare: bool,
    pub end: u32,
}

/// The steps of one position: inline up to a size random play never passes (at most 30
/// steps in 2.4 million random plies of every game), on the heap beyond, so that listing
/// the moves allocates nothing in practice.
#[derive(Clone, Debug)]
pub(crate) struct Steps {
    len: usize,
    inline: [Step; Steps::INLINE],
    /// Every step once they outgrow `inline` (`spilled`).
    heap: Vec<Step>,
    spilled: bool,
}

impl Steps {
    const INLINE: usize = 40;
    /// A free slot (all zero, so that a new list's slots are set at once).
    const NONE: Step = Step {
        f: 0,
        t: 0,
        d: 0,
        k: 0,
        jumped: false,
        capture: false,
        bare: false,
        end: 0,
    };

    /// No steps.
    pub fn new() -> Steps {
        Steps {
            len: 0,
            inline: [Steps::NONE; Steps::INLINE],
            heap: Vec::new(),
            spilled: false,
        }
    }

    /// Appends a step.
    // Always inlined, with the rare heap path out of line: a push is a few instructions,
    // once per step listed, and a call around it (the walk's visit) cost as much again.
    #[inline(always)]
    pub fn push(&mut self, s: Step) {
        match self.inline.get_mut(self.len) {
            Some(slot) if !self.spilled => {
                *slot = s;
                self.len += 1;
            }
            _ => self.push_heap(s),
        }
    }

    /// [`Steps::push`] once the steps are, or are about to be, on the heap.
    #[cold]
    #[inline(never)]
    fn push_heap(&mut self, s: Step) {
        if !self.spilled {
            self.heap = Vec::with_capacity(2 * Steps::INLINE);
            self.heap.extend_from_slice(&self.inline);
            self.spilled = true;
        }
        self.heap.push(s);
    }

    /// No steps, inline again.
    pub fn clear(&mut self) {
        self.len = 0;
        self.heap = Vec::new();
        self.spilled = false;
    }

    /// Keeps the first `keep` steps.
    pub fn truncate(&mut self, keep: usize) {
        if self.spilled {
            self.heap.truncate(keep);
        } else {
            self.len = keep.min(self.len);
        }
    }

    /// The steps, in order.
    #[inline]
    pub fn as_slice(&self) -> &[Step] {
        if self.spilled {
            &self.heap
        } else {
            &self.inline[..self.len]
        }
    }

    /// The steps, in order, to change in place.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Step] {
        if self.spilled {
            &mut self.heap
        } else {
            &mut self.inline[..self.len]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(i: usize) -> Step {
        Step {
            f: u8::try_from(i % 81).unwrap_or(0),
            end: u32::try_from(i).unwrap_or(0),
            ..Step::default()
        }
    }

    /// Past the inline slots the steps go to the heap, in order; truncate and clear keep
    /// the order and the inline storage.
    #[test]
    fn spill_keeps_order() {
        let mut steps = Steps::new();
        let count = 2 * Steps::INLINE + 3;
        for i in 0..count {
            steps.push(step(i));
        }
        let all: Vec<Step> = (0..count).map(step).collect();
        assert_eq!(steps.as_slice(), all.as_slice());
        steps.truncate(Steps::INLINE + 1);
        assert_eq!(steps.as_slice(), &all[..=Steps::INLINE]);
        steps.as_mut_slice()[0].bare = true;
        assert!(steps.as_slice()[0].bare);
        steps.clear();
        assert!(steps.as_slice().is_empty());
        steps.push(step(7));
        steps.truncate(5);
        assert_eq!(steps.as_slice(), &[step(7)]);
    }
}
