//! The set of a decision's legal actions, a bit per action.

use super::action_of;
#[cfg(test)]
use super::NUM_ACTIONS;

/// A set of actions (`0..NUM_ACTIONS`), iterated ascending.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Actions([u64; 7]);

impl Actions {
    pub(super) fn insert(&mut self, action: u16) {
        self.0[usize::from(action >> 6)] |= 1 << (action & 63);
    }

    /// Whether `action` is in the set (false for any number past the actions).
    pub fn contains(&self, action: u16) -> bool {
        self.0
            .get(usize::from(action >> 6))
            .is_some_and(|w| w >> (action & 63) & 1 != 0)
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The actions, ascending.
    pub fn iter(&self) -> ActionsIter {
        ActionsIter {
            words: self.0,
            word: 0,
            left: self.len(),
        }
    }

    pub(super) fn first(&self) -> Option<u16> {
        self.iter().next()
    }

    /// The `k`-th action (from 0, ascending), as `iter().nth(k)` but skipping whole words
    /// by their counts (a uniformly random legal action is drawn this way).
    pub fn nth(&self, mut k: usize) -> Option<u16> {
        for (i, &w) in (0u16..).zip(self.0.iter()) {
            let count = w.count_ones() as usize;
            if k < count {
                let mut w = w;
                for _ in 0..k {
                    w &= w - 1;
                }
                return Some(action_of(i, w.trailing_zeros()));
            }
            k -= count;
        }
        None
    }
}

/// The actions of an [`Actions`] set, ascending; it knows how many are left.
#[derive(Clone, Debug)]
pub struct ActionsIter {
    words: [u64; 7],
    /// The word being read; the bits already read are cleared.
    word: u16,
    left: usize,
}

impl Iterator for ActionsIter {
    type Item = u16;

    fn next(&mut self) -> Option<u16> {
        while let Some(w) = self.words.get_mut(usize::from(self.word)) {
            if *w != 0 {
                let bit = w.trailing_zeros();
                *w &= *w - 1;
                self.left -= 1;
                return Some(action_of(self.word, bit));
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for ActionsIter {}

impl FromIterator<u16> for Actions {
    fn from_iter<I: IntoIterator<Item = u16>>(iter: I) -> Actions {
        let mut set = Actions::default();
        for a in iter {
            set.insert(a);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_is_the_kth_action_ascending() {
        let sets: [&[u16]; 4] = [&[], &[0], &[5, 63, 64, 127, 128, 300, 414], &[1, 2, 3, 200]];
        for set in sets {
            let actions: Actions = set.iter().copied().collect();
            for k in 0..set.len() + 2 {
                assert_eq!(actions.nth(k), set.get(k).copied());
                assert_eq!(actions.nth(k), actions.iter().nth(k));
            }
        }
        let all: Actions = (0..NUM_ACTIONS as u16).collect();
        assert!((0..NUM_ACTIONS).all(|k| all.nth(k) == Some(k as u16)));
        assert_eq!(all.nth(NUM_ACTIONS), None);
    }
}
