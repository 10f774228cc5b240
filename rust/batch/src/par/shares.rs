//! What a calling thread saw of the calls it shared out, for [`crate::tune::Tuner`].

use std::cell::Cell;

/// What the calling thread saw of the calls it shared out ([`each_weighted`]) since its
/// last [`take_shares`], in nanoseconds: a [`crate::tune::Tuner`] tells from it what a
/// call of several threads would have taken on one, under the same load.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Shares {
    /// The calls noted.
    pub calls: u32,
    /// The time the caller spent stepping pieces, from handing the workers their jobs
    /// until it found no piece left.
    pub own: f64,
    /// The time it then waited for the workers' jobs to end (their last pieces, or a
    /// worker that the system had not run yet and that found no piece left).
    pub wait: f64,
    /// What the caller would have taken for every piece on its own: `own`, and the
    /// workers' pieces at the pace of its typical piece.
    pub solo: f64,
    /// Whether the caller of some call stepped no piece (its rate unknown).
    pub unknown: bool,
}

impl Shares {
    /// These shares and `other`'s.
    pub fn plus(self, other: Shares) -> Shares {
        Shares {
            calls: self.calls.saturating_add(other.calls),
            own: self.own + other.own,
            wait: self.wait + other.wait,
            solo: self.solo + other.solo,
            unknown: self.unknown || other.unknown,
        }
    }

    /// What a call that took `took` nanoseconds, these its shares, would have taken on
    /// its calling thread alone: its time outside the shared pieces (`took - own -
    /// wait`) and `solo`. None when no call was shared out or a caller stepped no piece.
    pub fn one_thread(&self, took: f64) -> Option<f64> {
        if self.calls == 0 || self.unknown {
            return None;
        }
        Some((took - self.own - self.wait).max(0.0) + self.solo)
    }
}

thread_local! {
    static SHARES: Cell<Shares> = const {
        Cell::new(Shares { calls: 0, own: 0.0, wait: 0.0, solo: 0.0, unknown: false })
    };
}

/// The calling thread's [`Shares`] since the last take, now cleared.
pub fn take_shares() -> Shares {
    SHARES.with(Cell::take)
}

/// Puts `shares` back as the calling thread's (a tuner's call within another's: the
/// outer call's shares include the inner's).
pub fn put_shares(shares: Shares) {
    SHARES.with(|cell| cell.set(shares));
}

/// Notes a shared call on the calling thread: the caller stepped pieces of weight `mine`
/// of `all` in `own` nanoseconds, a unit of its typical piece in `pace` (the median: a
/// piece that the system stopped counts for no more than another), then waited `wait`.
/// On its own the caller would have taken its own time and the workers' pieces at that
/// pace. (Not its own time scaled to all the pieces: a caller stopped for a time slice
/// while a worker stepped most pieces would then count the time slice several times
/// over, and on a busy machine find the threads faster than they were.)
pub(super) fn note(own: f64, wait: f64, mine: usize, all: usize, pace: f64) {
    let call = Shares {
        calls: 1,
        own,
        wait,
        solo: own + all.saturating_sub(mine) as f64 * pace,
        unknown: mine == 0 && all > 0,
    };
    SHARES.with(|cell| cell.set(cell.get().plus(call)));
}

/// The median of `values` (0 when empty), sorting them.
pub(super) fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}
