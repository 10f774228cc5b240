//! The network evaluation: a small multilayer perceptron over the board and the features.
//!
//! The design follows Stockfish's NNUE in its first layer: the board enters as sparse
//! binary inputs, so the first layer is the sum of the weight columns of the inputs that
//! are on (about a hundred of some three thousand), then a few small dense layers, in
//! `f32` on the CPU. It values the leaves of the same alpha-beta search in its units, a
//! logit of the evaluated seat's share of the win: the logistic model's logit
//! ([`crate::features::evaluate`], with the search's weights) plus the network's
//! correction. A network whose output is 0 is the logistic model; training starts there.
//!
//! Inputs, from the evaluated seat's view (seat `r` below is relative: 0 the seat
//! itself, 1 the next in turn order, ...):
//!
//! - [`MARKER_INPUTS`]: a marker of seat `r` on field `f`: `r * 81 + f`;
//! - [`CHEVRON_INPUTS`]: a chevron of seat `r` on field `f` facing `d`:
//!   `324 + (r * 81 + f) * 8 + d`;
//! - the seat to move, relative: `2916 + r`;
//! - the game and player count: `2920 + game * 3 + players - 2` (Lilacru, Shacru,
//!   Azacru, Pacru);
//! - dense: the [`FEATURES`] relative features of [`crate::features`], standardised by
//!   the network's own means and scales.
//!
//! Layers: `h1 = relu(b1 + W1 x)` ([`Network::hidden`] units), `h2 = relu(b2 + W2 h1)`,
//! `correction = b3 + w3 . h2`.

use crate::features::{relative_features, seat_features, FEATURES};
use pacru_engine::{Game, Position, Rules};
use std::fmt;

/// Marker inputs: 4 relative seats x 81 fields.
pub const MARKER_INPUTS: usize = 4 * 81;
/// Chevron inputs: 4 relative seats x 81 fields x 8 facings.
pub const CHEVRON_INPUTS: usize = 4 * 81 * 8;
/// The first input of the seat to move (4 of them).
const TO_MOVE_INPUT: usize = MARKER_INPUTS + CHEVRON_INPUTS;
/// The first input of the game and player count (4 games x 3 counts).
const GAME_INPUT: usize = TO_MOVE_INPUT + 4;
/// Sparse inputs in all.
pub const SPARSE_INPUTS: usize = GAME_INPUT + 12;
/// The file's first bytes (format version 1).
pub const MAGIC: &[u8; 8] = b"PACRUNN1";
/// The largest layer a file may declare.
const MAX_HIDDEN: u32 = 1024;

/// Why bytes are not a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetworkError {
    /// The bytes do not start with [`MAGIC`].
    Magic,
    /// The header's input counts are not this build's ([`SPARSE_INPUTS`], [`FEATURES`]).
    Inputs,
    /// A layer of 0 units or more than 1,024.
    LayerSize,
    /// The bytes end before the weights do (or go on after them).
    Length,
    /// A weight that is not finite.
    NotFinite,
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NetworkError::Magic => "not a pacru network (the file must start with PACRUNN1)",
            NetworkError::Inputs => "the network's inputs are not this version's",
            NetworkError::LayerSize => "a layer of the network has 0 or more than 1024 units",
            NetworkError::Length => "the network's size does not match its header",
            NetworkError::NotFinite => "a weight of the network is not finite",
        })
    }
}

impl std::error::Error for NetworkError {}

/// A network's weights (read-only once made; shared by searches on many threads).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    hidden: usize,
    hidden2: usize,
    /// Per dense feature: its mean and the inverse of its scale.
    mean: Vec<f32>,
    inverse_scale: Vec<f32>,
    /// `SPARSE_INPUTS` columns of `hidden` weights each.
    sparse: Vec<f32>,
    /// `FEATURES` columns of `hidden` weights each.
    dense: Vec<f32>,
    b1: Vec<f32>,
    /// `hidden2` rows of `hidden` weights each.
    w2: Vec<f32>,
    b2: Vec<f32>,
    w3: Vec<f32>,
    b3: f32,
}

/// Little-endian reader of the file's numbers.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], NetworkError> {
        let (head, rest) = self
            .bytes
            .split_first_chunk::<N>()
            .ok_or(NetworkError::Length)?;
        self.bytes = rest;
        Ok(*head)
    }

    fn count(&mut self) -> Result<u32, NetworkError> {
        self.take::<4>().map(u32::from_le_bytes)
    }

    fn floats(&mut self, n: usize) -> Result<Vec<f32>, NetworkError> {
        let mut out = Vec::new();
        out.try_reserve_exact(n).map_err(|_| NetworkError::Length)?;
        for _ in 0..n {
            let x = f32::from_le_bytes(self.take::<4>()?);
            if !x.is_finite() {
                return Err(NetworkError::NotFinite);
            }
            out.push(x);
        }
        Ok(out)
    }
}

impl Network {
    /// The network written in `bytes`: [`MAGIC`], then little-endian `u32` sparse
    /// inputs, dense inputs, `hidden`, `hidden2`, then `f32`: the dense means, their
    /// scales, the sparse columns, the dense columns, `b1`, `W2` by rows, `b2`, `w3`,
    /// `b3`.
    ///
    /// # Errors
    /// [`NetworkError`]: another format, other inputs, a bad layer size, a length that
    /// does not match, a weight that is not finite (or a scale of 0).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut r = Reader { bytes };
        if &r.take::<8>()? != MAGIC {
            return Err(NetworkError::Magic);
        }
        let (sparse, dense) = (r.count()?, r.count()?);
        if usize::try_from(sparse) != Ok(SPARSE_INPUTS) || usize::try_from(dense) != Ok(FEATURES) {
            return Err(NetworkError::Inputs);
        }
        let (h1, h2) = (r.count()?, r.count()?);
        if !(1..=MAX_HIDDEN).contains(&h1) || !(1..=MAX_HIDDEN).contains(&h2) {
            return Err(NetworkError::LayerSize);
        }
        let (hidden, hidden2) = (h1 as usize, h2 as usize);
        let mean = r.floats(FEATURES)?;
        let scale = r.floats(FEATURES)?;
        if scale.contains(&0.0) {
            return Err(NetworkError::NotFinite);
        }
        let net = Network {
            hidden,
            hidden2,
            mean,
            inverse_scale: scale.iter().map(|s| 1.0 / s).collect(),
            sparse: r.floats(SPARSE_INPUTS * hidden)?,
            dense: r.floats(FEATURES * hidden)?,
            b1: r.floats(hidden)?,
            w2: r.floats(hidden * hidden2)?,
            b2: r.floats(hidden2)?,
            w3: r.floats(hidden2)?,
            b3: r.floats(1)?[0],
        };
        if !r.bytes.is_empty() {
            return Err(NetworkError::Length);
        }
        Ok(net)
    }

    /// The units of the first hidden layer.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The units of the second hidden layer.
    pub fn hidden2(&self) -> usize {
        self.hidden2
    }

    /// The network's correction for the inputs (`active`: the sparse inputs that are on;
    /// `features`: the relative features), in logits.
    pub fn forward(&self, active: &[u16], features: &[f32; FEATURES]) -> f32 {
        let h = self.hidden;
        let mut h1 = self.b1.clone();
        for &i in active {
            let column = &self.sparse[usize::from(i) * h..][..h];
            h1.iter_mut().zip(column).for_each(|(a, w)| *a += w);
        }
        for (k, &x) in features.iter().enumerate() {
            let x = (x - self.mean[k]) * self.inverse_scale[k];
            let column = &self.dense[k * h..][..h];
            h1.iter_mut().zip(column).for_each(|(a, w)| *a += w * x);
        }
        h1.iter_mut().for_each(|a| *a = a.max(0.0));
        let mut value = self.b3;
        for (j, row) in self.w2.chunks_exact(h).enumerate() {
            let pre: f32 = self.b2[j] + row.iter().zip(&h1).map(|(w, a)| w * a).sum::<f32>();
            value += self.w3[j] * pre.max(0.0);
        }
        value
    }

    /// The evaluation of `pos` for `seat`: a logit, positive when `seat` is ahead: the
    /// logistic model's with `weights`, plus the network's correction.
    pub fn evaluate(
        &self,
        rules: &Rules,
        pos: &Position,
        seat: usize,
        weights: &[f32; FEATURES],
    ) -> f32 {
        let (active, features) = inputs(rules, pos, seat);
        let prior: f32 = features.iter().zip(weights).map(|(x, w)| x * w).sum();
        prior + self.forward(&active, &features)
    }
}

/// The inputs of `pos` from `seat`'s view: the sparse inputs that are on, ascending
/// (module documentation), and the relative features.
pub fn inputs(rules: &Rules, pos: &Position, seat: usize) -> (Vec<u16>, [f32; FEATURES]) {
    let rows = seat_features(rules, pos);
    (
        active_inputs(rules, pos, seat),
        relative_features(pos, &rows, seat),
    )
}

/// The sparse inputs of `pos` that are on, from `seat`'s view, ascending.
pub fn active_inputs(rules: &Rules, pos: &Position, seat: usize) -> Vec<u16> {
    let players = usize::from(pos.players.clamp(2, 4));
    let relative = |s: usize| (s + players - seat % players) % players;
    let mut active = Vec::with_capacity(128);
    // Every index below is under SPARSE_INPUTS (2932), so it fits a u16.
    let index = |i: usize| u16::try_from(i).unwrap_or(u16::MAX);
    for s in 0..players {
        let r = relative(s);
        let mut board = pos.markers[s];
        while board != 0 {
            active.push(index(r * 81 + board.trailing_zeros() as usize));
            board &= board - 1;
        }
    }
    for s in 0..players {
        let r = relative(s);
        for code in pos.chevrons[s].iter() {
            let (field, facing) = (usize::from(code / 8), usize::from(code % 8));
            active.push(index(MARKER_INPUTS + (r * 81 + field) * 8 + facing));
        }
    }
    active.push(index(TO_MOVE_INPUT + relative(usize::from(pos.to_move))));
    let game = match rules.game {
        Game::Lilacru => 0,
        Game::Shacru => 1,
        Game::Azacru => 2,
        Game::Pacru => 3,
    };
    active.push(index(GAME_INPUT + game * 3 + players - 2));
    active.sort_unstable();
    active
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(h1: u32, h2: u32, fill: f32) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in [SPARSE_INPUTS as u32, FEATURES as u32, h1, h2] {
            out.extend(n.to_le_bytes());
        }
        let (h1, h2) = (h1 as usize, h2 as usize);
        let floats =
            FEATURES + FEATURES + SPARSE_INPUTS * h1 + FEATURES * h1 + h1 + h1 * h2 + h2 + h2 + 1;
        for _ in 0..floats {
            out.extend(fill.to_le_bytes());
        }
        out
    }

    #[test]
    fn a_file_is_read_and_evaluates() {
        let net = Network::from_bytes(&bytes(4, 2, 0.5)).unwrap();
        assert_eq!((net.hidden(), net.hidden2()), (4, 2));
        // Two active inputs, features all 0.5 (standardised to 0): h1 = 0.5 + 1.0 = 1.5
        // per unit, h2 = 0.5 + 4 * 0.5 * 1.5 = 3.5, value = 0.5 + 2 * 0.5 * 3.5 = 4.
        let value = net.forward(&[0, 7], &[0.5; FEATURES]);
        assert!((value - 4.0).abs() < 1e-6, "{value}");
    }

    #[test]
    fn malformed_files_are_refused_by_kind() {
        assert_eq!(Network::from_bytes(b"nope"), Err(NetworkError::Length));
        let mut other = bytes(4, 2, 0.5);
        other[0] = b'Q';
        assert_eq!(Network::from_bytes(&other), Err(NetworkError::Magic));
        let mut short = bytes(4, 2, 0.5);
        short.pop();
        assert_eq!(Network::from_bytes(&short), Err(NetworkError::Length));
        let mut long = bytes(4, 2, 0.5);
        long.push(0);
        assert_eq!(Network::from_bytes(&long), Err(NetworkError::Length));
        assert_eq!(
            Network::from_bytes(&bytes(0, 2, 0.5)),
            Err(NetworkError::LayerSize)
        );
        assert_eq!(
            Network::from_bytes(&bytes(4, 2, f32::NAN)),
            Err(NetworkError::NotFinite)
        );
        let mut inputs = bytes(4, 2, 0.5);
        inputs[8] ^= 1;
        assert_eq!(Network::from_bytes(&inputs), Err(NetworkError::Inputs));
    }

    #[test]
    fn inputs_are_seen_from_the_seat() {
        let rules = Rules::new(Game::Pacru);
        let pos = Position::start(2).unwrap();
        let mine = active_inputs(&rules, &pos, 0);
        let theirs = active_inputs(&rules, &pos, 1);
        assert_eq!(mine.len(), theirs.len());
        assert!(mine.windows(2).all(|w| w[0] < w[1]));
        assert!(mine.iter().all(|&i| usize::from(i) < SPARSE_INPUTS));
        // Seat 0 is to move: relative seat 0 for seat 0, relative seat 1 for seat 1.
        assert!(mine.contains(&(TO_MOVE_INPUT as u16)));
        assert!(theirs.contains(&(TO_MOVE_INPUT as u16 + 1)));
        // Pacru with two players.
        assert!(mine.contains(&((GAME_INPUT + 9) as u16)));
    }
}
