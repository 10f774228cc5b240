//! The observation planes of a [`Batch`]'s games ([`Batch::observation`]), written into a
//! buffer of the host's or into one its caller hands in zeroed
//! ([`Batch::observation_into`]: `pacru.vector` passes `numpy.zeros`, whose pages a large
//! array maps lazily, so that they are first touched by the threads that write the rows;
//! the host's zeroed buffer is allocated and zeroed on the calling thread alone, 68 MB
//! at 4,096 games of float32).

use crate::frame::cell_of;
use crate::host::{Error, Host};
use crate::par::{each, threads_for};
use crate::tune::Tuner;
use crate::vector::Batch;

/// The thread count of observations, chosen by measure (see `crate::tune`).
static OBSERVATION: Tuner = Tuner::new();

impl Batch {
    /// The observation planes of every game, row after row: `planes * 81` values each,
    /// zeros for a game that is over, as `dtype` says ([`cell_of`]), written directly in
    /// that type. Written without the host's lock, on up to `threads` threads.
    pub fn observation<H: Host>(
        &self,
        host: &H,
        threads: usize,
        dtype: &str,
    ) -> Result<H::Bytes, H::Error> {
        let total = self.observation_len(dtype).map_err(|e| host.error(e))?;
        let (bytes, written) =
            host.zeroed(total, |buf| self.observation_into(buf, threads, dtype))?;
        written.map_err(|e| host.error(e))?;
        Ok(bytes)
    }

    /// The bytes of [`Batch::observation`] for `dtype` (an argument error for another
    /// dtype, [`Error::TooLarge`] past what memory can address).
    pub fn observation_len(&self, dtype: &str) -> Result<usize, Error> {
        let row_bytes = self.layout().planes() * 81 * cell_of(dtype)?.size();
        self.len()
            .checked_mul(row_bytes)
            .filter(|&t| t <= isize::MAX as usize)
            .ok_or(Error::TooLarge("the observation is too large to hold"))
    }

    /// [`Batch::observation`] written into `buf` (any contents: each row is zeroed as it is written; of [`Batch::observation_len`]
    /// bytes: an argument error otherwise), on up to `threads` threads.
    pub fn observation_into(
        &self,
        buf: &mut [u8],
        threads: usize,
        dtype: &str,
    ) -> Result<(), Error> {
        let cell = cell_of(dtype)?;
        if buf.len() != self.observation_len(dtype)? {
            return Err(crate::host::argument(format!(
                "the observation must hold {} bytes of {dtype}",
                self.observation_len(dtype)?
            )));
        }
        let layout = self.layout();
        let row_bytes = layout.planes() * 81 * cell.size();
        let games = &self.games;
        let write = |a: usize, out: &mut [u8]| {
            let rows = out.len() / row_bytes;
            for (g, o) in games
                .range(a, a + rows)
                .zip(out.chunks_exact_mut(row_bytes))
            {
                o.fill(0); // the caller's array may hold anything: its rows are zeroed here
                if !g.is_over() {
                    g.observation_as(layout, cell, o);
                }
            }
        };
        let n = games.len();
        OBSERVATION.run(n, threads_for(n, threads), |t| {
            // Four pieces a thread, taken as the threads come.
            let per = n.div_ceil(if t > 1 { 4 * t } else { 1 }).max(1);
            let parts = buf.chunks_mut(per * row_bytes.max(1)).enumerate();
            each(parts.collect(), t, |(i, out)| write(i * per, out));
        });
        Ok(())
    }
}
