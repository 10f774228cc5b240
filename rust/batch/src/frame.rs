//! The frame of a step of a `pacru.vector` batch: the arrays of its rows in one buffer
//! (a writable bytearray numpy reads in place: no copy, no Python object a row), each
//! array at an offset of [`offsets`]: mask (bool, rows x actions), player (int32), rewards
//! (float32, rows x players), terminated and truncated (bool); the counters of
//! [`counter_offsets`] after them in the frame of `Batch.advance`. The observation is not
//! among them: `Batch.observation` writes it when it is read. Nor is the mask in the frame
//! of `Batch.advance` ([`bare_offsets`]): `Batch.legal_action_mask` writes it when it is
//! read (it is 425 of the 440 bytes a game of a frame, and zeroing it held the caller of a
//! step alone for longer than the worker's wake-up).
//!
//! A buffer comes zeroed (the only way safe code gets a bytearray), so a row writes only
//! what is not zero. The chevron games' and LSD's frames are laid out alike
//! ([`frame_offsets`]).

use crate::decision::{Cell, Game, NUM_ACTIONS};
use crate::host::{argument, Error};
use crate::par::{each, threads_for};
use crate::returns_of;
use crate::tune::Tuner;

/// Where each array of a frame starts: a multiple of this many bytes.
pub const ALIGN: usize = 8;

/// The byte offsets of a frame of `k` rows of `p` players: mask, player, rewards,
/// terminated, truncated and the end (each array starts at a multiple of 8 bytes).
pub fn offsets(k: usize, p: usize) -> Option<[usize; 6]> {
    frame_offsets(k, NUM_ACTIONS, p)
}

/// The byte offsets of a frame of `k` rows of `p` players without its mask (an empty
/// array at 0), as [`offsets`] gives the others.
pub fn bare_offsets(k: usize, p: usize) -> Option<[usize; 6]> {
    frame_offsets(k, 0, p)
}

/// The byte offsets of a frame of `k` rows, `a` actions and `p` players (the chevron
/// games' and LSD's frames are laid out alike): mask, player, rewards, terminated,
/// truncated and the end, each array at a multiple of [`ALIGN`] bytes; None past what an
/// allocation can hold.
pub fn frame_offsets(k: usize, a: usize, p: usize) -> Option<[usize; 6]> {
    let up = |x: usize| x.checked_next_multiple_of(ALIGN);
    let player = up(k.checked_mul(a)?)?;
    let rewards = up(player.checked_add(k.checked_mul(4)?)?)?;
    let terminated = up(rewards.checked_add(k.checked_mul(4 * p)?)?)?;
    let truncated = terminated.checked_add(k)?;
    let end = truncated.checked_add(k)?;
    (end <= isize::MAX as usize).then_some([0, player, rewards, terminated, truncated, end])
}

/// The counters of a frame of `k` rows after a step: each game's decisions (int32) at
/// the first offset, its episode (int64) at the second, and the end; None past what an
/// allocation can hold.
pub fn counter_offsets(k: usize, p: usize) -> Option<[usize; 3]> {
    let up = |x: usize| x.checked_next_multiple_of(ALIGN);
    let steps = up(bare_offsets(k, p)?[5])?;
    let episodes = up(steps.checked_add(k.checked_mul(4)?)?)?;
    let end = episodes.checked_add(k.checked_mul(8)?)?;
    (end <= isize::MAX as usize).then_some([steps, episodes, end])
}

/// The observation's cell of a dtype name: "float32", "uint8" or "bool" (an argument
/// error for another).
pub fn cell_of(dtype: &str) -> Result<Cell, Error> {
    match dtype {
        "float32" => Ok(Cell::F32),
        "uint8" => Ok(Cell::U8),
        "bool" => Ok(Cell::Bool),
        _ => Err(argument(format!(
            "no observation dtype {dtype:?}: 'float32', 'uint8' or 'bool'"
        ))),
    }
}

/// The `i`-th native-endian value of `N` bytes in `bytes`.
pub fn word<const N: usize>(bytes: &[u8], i: usize) -> [u8; N] {
    let mut w = [0u8; N];
    w.copy_from_slice(&bytes[N * i..N * (i + 1)]);
    w
}

/// The arrays of a frame (or of some of its rows), borrowed from its buffer, with the
/// counters after them where the frame has them (`Batch.advance`'s; else empty).
pub struct Out<'a> {
    pub(crate) mask: &'a mut [u8],
    pub(crate) player: &'a mut [u8],
    pub(crate) rewards: &'a mut [u8],
    pub(crate) terminated: &'a mut [u8],
    pub(crate) truncated: &'a mut [u8],
    pub(crate) steps: &'a mut [u8],
    pub(crate) episodes: &'a mut [u8],
}

impl<'a> Out<'a> {
    /// The arrays of a frame of `k` rows of `p` players in `buf` (zeroed, of the length
    /// [`offsets`] gives).
    pub fn of(buf: &'a mut [u8], k: usize, p: usize) -> Out<'a> {
        Out::at(buf, offsets(k, p).unwrap_or_default())
    }

    /// The arrays of a frame in `buf` (zeroed) at the offsets `at` ([`offsets`], or
    /// [`bare_offsets`]: an empty mask, which [`Out::write`] leaves out).
    pub fn at(buf: &'a mut [u8], at: [usize; 6]) -> Out<'a> {
        let (mask, rest) = buf.split_at_mut(at[1]);
        let (player, rest) = rest.split_at_mut(at[2] - at[1]);
        let (rewards, rest) = rest.split_at_mut(at[3] - at[2]);
        let (terminated, rest) = rest.split_at_mut(at[4] - at[3]);
        let (truncated, _) = rest.split_at_mut(at[5] - at[4]);
        Out {
            mask,
            player,
            rewards,
            terminated,
            truncated,
            steps: &mut [],
            episodes: &mut [],
        }
    }

    /// These arrays with the counters `steps` (int32) and `episodes` (int64) of their rows.
    pub fn counting(self, steps: &'a mut [u8], episodes: &'a mut [u8]) -> Out<'a> {
        Out {
            steps,
            episodes,
            ..self
        }
    }

    /// The first `rows` rows, and the others.
    pub fn split(self, rows: usize, p: usize) -> (Out<'a>, Out<'a>) {
        let (m0, m1) = self
            .mask
            .split_at_mut((rows * NUM_ACTIONS).min(self.mask.len()));
        let (s0, s1) = self.player.split_at_mut(rows * 4);
        let (r0, r1) = self.rewards.split_at_mut(rows * 4 * p);
        let (t0, t1) = self.terminated.split_at_mut(rows);
        let (c0, c1) = self.truncated.split_at_mut(rows);
        let (d0, d1) = self.steps.split_at_mut((rows * 4).min(self.steps.len()));
        let (e0, e1) = self
            .episodes
            .split_at_mut((rows * 8).min(self.episodes.len()));
        (
            Out {
                mask: m0,
                player: s0,
                rewards: r0,
                terminated: t0,
                truncated: c0,
                steps: d0,
                episodes: e0,
            },
            Out {
                mask: m1,
                player: s1,
                rewards: r1,
                terminated: t1,
                truncated: c1,
                steps: d1,
                episodes: e1,
            },
        )
    }

    /// Row `j`: the decision of `shown` (an all-True mask and player -1 once it is over),
    /// and the end of `ended` (a game that ended and was restarted as `shown`) or of
    /// `shown` itself: its returns and flags.
    pub fn write(&mut self, j: usize, p: usize, shown: &Game, ended: Option<&Game>) {
        if let Some(mask) = self.mask.get_mut(j * NUM_ACTIONS..(j + 1) * NUM_ACTIONS) {
            write_mask(mask, shown, false);
        }
        let seat = if shown.is_over() {
            -1
        } else {
            i32::from(shown.pos().to_move)
        };
        self.player[4 * j..4 * j + 4].copy_from_slice(&seat.to_ne_bytes());
        let end = ended.unwrap_or(shown);
        if end.is_over() {
            let returns = returns_of(end.pos());
            let rewards = &mut self.rewards[4 * p * j..4 * p * (j + 1)];
            for (r, cell) in returns[..p].iter().zip(rewards.chunks_exact_mut(4)) {
                cell.copy_from_slice(&r.to_ne_bytes());
            }
            let cut = end.truncated();
            self.terminated[j] = u8::from(!cut);
            self.truncated[j] = u8::from(cut);
        }
    }
}

/// The mask of `game`'s decision into `mask` (zeroed, a byte an action): 1 at its legal
/// actions, or at every action once it is over or where `shown` (its row shows an end or
/// a cut, as pgx's do: any action is taken there, and ignored).
pub fn write_mask(mask: &mut [u8], game: &Game, shown: bool) {
    if shown || game.is_over() {
        mask.fill(1);
    } else {
        for a in game.legal.iter() {
            if let Some(cell) = mask.get_mut(usize::from(a)) {
                *cell = 1;
            }
        }
    }
}

/// `f(start, end, out)` on contiguous chunks of `0..rows` and their rows of `out`, on up
/// to `threads` threads (as many as `tuner` finds pay): the chunks' results, first chunk
/// first. Four chunks a thread, taken as the threads come (`par::each`): a worker that
/// does not come leaves the caller small ones.
pub fn par_rows<'a, T, F>(
    tuner: &Tuner,
    rows: usize,
    threads: usize,
    p: usize,
    out: Out<'a>,
    f: F,
) -> Vec<T>
where
    T: Send,
    F: Fn(usize, usize, Out<'_>) -> T + Sync,
{
    tuner.run(rows, threads_for(rows, threads), |t| {
        if t <= 1 {
            return vec![f(0, rows, out)];
        }
        let pieces = (4 * t).min(rows);
        each(split_rows(rows, pieces, p, out), t, |(a, b, part)| {
            f(a, b, part)
        })
    })
}

/// `out` cut into `pieces` contiguous pieces of its `rows` rows, alike: each piece's
/// first row, end and arrays.
pub fn split_rows(
    rows: usize,
    pieces: usize,
    p: usize,
    out: Out<'_>,
) -> Vec<(usize, usize, Out<'_>)> {
    let ends = (1..=pieces).map(|i| rows * i / pieces);
    split_at(ends, p, out)
}

/// `out` cut at the row ends `ends` (ascending, the last its number of rows): each
/// piece's first row, end and arrays.
pub fn split_at(
    ends: impl Iterator<Item = usize>,
    p: usize,
    out: Out<'_>,
) -> Vec<(usize, usize, Out<'_>)> {
    let mut parts = Vec::new();
    let mut rest = out;
    let mut start = 0;
    for end in ends {
        let (part, tail) = rest.split(end - start, p);
        parts.push((start, end, part));
        rest = tail;
        start = end;
    }
    parts
}

/// The counters before a step, and what changes them (see `Batch.advance`): the actions
/// (int64), restarts (a byte a game, or none), renewal, decisions (int32) and episodes
/// (int64) of the games, native-endian.
pub struct Before<'a> {
    pub actions: &'a [u8],
    pub restart: &'a [u8],
    pub renew: bool,
    pub steps: &'a [u8],
    pub episodes: &'a [u8],
}

/// The decisions and episode after a step of the games of `out`'s rows, the first of them
/// row `first` of the batch, into its counters (int32 and int64): from `before`'s, 0 and
/// the next episode for a game restarted, or renewed (it ended: its flag set in
/// `out`), else one more decision. Wrapping, as numpy's integers do. Each piece of a
/// step counts its own rows, once it has written their ends.
pub fn count(out: &mut Out<'_>, first: usize, before: &Before<'_>) {
    let (terminated, truncated) = (&*out.terminated, &*out.truncated);
    let new = out
        .steps
        .chunks_exact_mut(4)
        .zip(out.episodes.chunks_exact_mut(8));
    for (j, (s_out, e_out)) in new.enumerate() {
        let row = first + j;
        let (terminated, truncated) = (terminated.get(j), truncated.get(j));
        let mut s = i32::from_ne_bytes(word(before.steps, row)).wrapping_add(1);
        let mut e = i64::from_ne_bytes(word(before.episodes, row));
        let restarted = before.restart.get(row).is_some_and(|&r| r != 0);
        let ended = terminated.is_some_and(|&f| f != 0) || truncated.is_some_and(|&f| f != 0);
        if restarted {
            (s, e) = (0, e.wrapping_add(1));
        }
        if before.renew && ended {
            (s, e) = (0, e.wrapping_add(1));
        }
        s_out.copy_from_slice(&s.to_ne_bytes());
        e_out.copy_from_slice(&e.to_ne_bytes());
    }
}

/// How many pieces a step shared out as it comes (`pacru_batch::par::each_shared`,
/// the learner step's queue) cuts `rows` rows into for `threads` threads: one for one
/// thread; else about 16 a thread, of `min_rows` rows at least (a piece costs a lock and
/// an allocation; at 16 a thread, the last piece is short beside a thread's share).
pub fn pieces(rows: usize, threads: usize, min_rows: usize) -> usize {
    if threads <= 1 {
        1
    } else {
        (rows / min_rows.max(1)).clamp(threads, 16 * threads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_start_at_multiples_of_eight() {
        // 3 rows of 2 players: a mask of 1,245 bytes, then player, rewards and the flags.
        assert_eq!(offsets(3, 2), Some([0, 1248, 1264, 1288, 1291, 1294]));
        assert_eq!(bare_offsets(3, 2), Some([0, 0, 16, 40, 43, 46]));
        assert_eq!(counter_offsets(3, 2), Some([48, 64, 88]));
        assert_eq!(frame_offsets(0, 7, 4), Some([0; 6]));
        assert_eq!(offsets(usize::MAX / 8, 2), None);
        assert_eq!(counter_offsets(usize::MAX / 16, 4), None);
    }

    #[test]
    fn a_split_frame_keeps_each_rows_arrays() {
        let at = offsets(3, 2).unwrap();
        let mut buf = vec![0u8; at[5]];
        let parts = split_rows(3, 2, 2, Out::of(&mut buf, 3, 2));
        let bounds: Vec<_> = parts.iter().map(|&(a, b, _)| (a, b)).collect();
        assert_eq!(bounds, vec![(0, 1), (1, 3)]);
        let lens: Vec<_> = parts
            .iter()
            .map(|(_, _, o)| {
                (
                    o.mask.len(),
                    o.player.len(),
                    o.rewards.len(),
                    o.truncated.len(),
                )
            })
            .collect();
        assert_eq!(lens, vec![(415, 4, 8, 1), (830, 8, 16, 2)]);
    }

    #[test]
    fn counters_restart_renew_and_wrap() {
        let at = bare_offsets(3, 2).unwrap();
        let ends = counter_offsets(3, 2).unwrap();
        let mut buf = vec![0u8; ends[2]];
        let steps: Vec<u8> = [i32::MAX, 4, 9]
            .iter()
            .flat_map(|s| s.to_ne_bytes())
            .collect();
        let episodes: Vec<u8> = [1i64, 2, i64::MAX]
            .iter()
            .flat_map(|e| e.to_ne_bytes())
            .collect();
        let before = Before {
            actions: &[],
            restart: &[0, 1, 0],
            renew: true,
            steps: &steps,
            episodes: &episodes,
        };
        let (frame, counters) = buf.split_at_mut(ends[0]);
        let (s, e) = counters.split_at_mut(ends[1] - ends[0]);
        let mut out = Out::at(frame, at).counting(s, e);
        out.truncated[2] = 1;
        count(&mut out, 0, &before);
        let steps: Vec<i32> = (0..3)
            .map(|i| i32::from_ne_bytes(word(&buf[ends[0]..], i)))
            .collect();
        let episodes: Vec<i64> = (0..3)
            .map(|i| i64::from_ne_bytes(word(&buf[ends[1]..], i)))
            .collect();
        assert_eq!(steps, vec![i32::MIN, 0, 0]);
        assert_eq!(episodes, vec![1, 3, i64::MIN]);
    }

    #[test]
    fn dtypes_and_pieces() {
        assert_eq!(cell_of("uint8").unwrap(), Cell::U8);
        assert_eq!(
            cell_of("int8").unwrap_err().to_string(),
            "no observation dtype \"int8\": 'float32', 'uint8' or 'bool'"
        );
        assert_eq!(pieces(1000, 1, 8), 1);
        assert_eq!(pieces(1000, 2, 8), 32);
        assert_eq!(pieces(10, 4, 8), 4);
    }
}
