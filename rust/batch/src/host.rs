//! What a batch asks of the program it runs in ([`Host`]): zeroed buffers for its frames
//! and a way to work without the program's lock (for `pacru._native`, bytearrays and the
//! GIL), and the errors of a batch's calls ([`Error`]), which the host turns into its own.

use std::collections::TryReserveError;
use std::fmt;

use crate::decision::DecisionError;

/// The program a batch runs in.
pub trait Host {
    /// A buffer the host hands back to its caller (a bytearray).
    type Bytes;
    /// The host's error.
    type Error;

    /// A new zeroed buffer of `len` bytes, written by `write` without the host's lock (no
    /// other thread can reach the buffer yet); `write`'s result comes back with it.
    fn zeroed<T: Send>(
        &self,
        len: usize,
        write: impl FnOnce(&mut [u8]) -> T + Send,
    ) -> Result<(Self::Bytes, T), Self::Error>;

    /// `work()` run without the host's lock.
    fn detach<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T;

    /// The host's error for a batch's.
    fn error(&self, e: Error) -> Self::Error;
}

/// A host of plain vectors and no lock (for tests and Rust callers).
pub struct Plain;

impl Host for Plain {
    type Bytes = Vec<u8>;
    type Error = Error;

    fn zeroed<T: Send>(
        &self,
        len: usize,
        write: impl FnOnce(&mut [u8]) -> T + Send,
    ) -> Result<(Vec<u8>, T), Error> {
        let mut buf = crate::par::try_filled(len, 0u8)?;
        let result = write(&mut buf);
        Ok((buf, result))
    }

    fn detach<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        work()
    }

    fn error(&self, e: Error) -> Error {
        e
    }
}

/// Why a call on a batch failed.
#[derive(Debug)]
pub enum Error {
    /// Arrays past what an allocation can hold (the message says which).
    TooLarge(&'static str),
    /// Memory the machine cannot give.
    Memory(TryReserveError),
    /// An argument the call refuses (the message says which and why).
    Argument(String),
    /// No game at this row.
    NoRow(usize),
    /// The action given to a game (its row, the action) is not legal there.
    Illegal(usize, i64),
    /// A decision the engine refused (a bug: the actions were checked before).
    Decision(DecisionError),
    /// A bot's move could not be played through the encoding (a bug).
    Bot,
    /// `max_steps` (this many) cuts a game twice in the bots' moves of a learner step.
    Restarts(Option<u32>),
    /// A piece of the games was lost: its thread panicked (a bug).
    Lost,
}

impl From<TryReserveError> for Error {
    fn from(e: TryReserveError) -> Error {
        Error::Memory(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TooLarge(message) => f.write_str(message),
            Error::Memory(e) => write!(f, "the batch is too large to hold ({e})"),
            Error::Argument(message) => f.write_str(message),
            Error::NoRow(row) => write!(f, "no game {row} in the batch"),
            Error::Illegal(row, action) => {
                write!(
                    f,
                    "game {row}: action {action} is not legal in its decision"
                )
            }
            Error::Decision(e) => e.fmt(f),
            Error::Bot => f.write_str("a bot's move could not be played through the encoding"),
            Error::Restarts(max_steps) => write!(
                f,
                "max_steps={} cuts the games before the learner decides: the opponents' moves \
                 take more decisions than that",
                max_steps.map_or_else(|| "None".to_owned(), |m| m.to_string())
            ),
            Error::Lost => f.write_str("a thread of the step failed"),
        }
    }
}

impl std::error::Error for Error {}

/// `Error::Argument` of `message`.
pub(crate) fn argument(message: impl Into<String>) -> Error {
    Error::Argument(message.into())
}
