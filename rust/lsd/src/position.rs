//! An LSD position and its rules: placement, capture, rows, skipping {LSD 2.2-2.4}; the
//! port of `pacru.lsd.engine` and `pacru.lsd.state`'s move making.
//!
//! The field and the frontier are vectors of `(cell, value)` sorted by cell code, so the
//! legal moves come out in `LsdState.legal_moves()` order (by cell, x then y, then kind,
//! then orientation) without sorting, and a copy of a position is a few flat copies.
//! The frontier holds the empty cells that face at least one open half dot, each with its
//! constraint `need | forbid << 4` (`need`: sides facing a half dot, `forbid`: sides facing
//! an empty side); only those cells can take a tile (2.2.3).

use std::fmt;

use crate::rules::{
    decode_cell, Rules, CELL_STRIDE, DOT_BITS, FACE_BITS, ICON_BITS, MAX_COORD, ORIGIN,
    OWNER_SHIFT, SHADE_BIT, SHAPE_BIT, STEP,
};

/// A placement: the tile as it lies (6-bit face) on a cell code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Dots N 1, E 2, S 4, W 8; 16 for an `x` icon; 32 for a white icon.
    pub face: u8,
    /// The cell code (`pacru.lsd.tiles.encode_cell`).
    pub cell: i32,
}

/// How a game ended (LSD 2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// A row of `row_length` own tiles (1.7, RULING 18).
    Row,
    /// Nobody can place: a draw (RULING 19).
    Blocked,
}

/// The end of a game: how, and the winners as a bit set of seats (none for a draw).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub termination: Termination,
    pub winners: u8,
}

/// Why a move is illegal: the `reason` and `rule` of `pacru.errors.IllegalMoveError`, in the
/// order `pacru.lsd.legality.explain_illegal` tests them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The game has ended.
    GameOver,
    /// The tile would have to be turned and rotation is off (RULING 4).
    RotationNotAllowed,
    /// The mover has no such tile left (LSD 1.5).
    NotInSupply,
    /// The first tile goes to (0, 0) (RULING 20).
    FirstTileNotOrigin,
    /// The cell holds a tile (LSD 2.2).
    Occupied,
    /// The empty side on this side (0..4 = N, E, S, W) would face a half dot (LSD 2.2).
    ObstructsDot(u8),
    /// The half dot on this side would face an empty side (RULING 5).
    DotAgainstEmpty(u8),
    /// No half dot would be made whole (LSD 2.2).
    NoWholeDot,
}

impl Illegal {
    /// The `reason` code of the Python engine's error.
    pub fn reason(self) -> &'static str {
        match self {
            Illegal::GameOver => "game-over",
            Illegal::RotationNotAllowed => "rotation-not-allowed",
            Illegal::NotInSupply => "not-in-supply",
            Illegal::FirstTileNotOrigin => "first-tile-not-origin",
            Illegal::Occupied => "occupied",
            Illegal::ObstructsDot(_) => "obstructs-dot",
            Illegal::DotAgainstEmpty(_) => "dot-against-empty",
            Illegal::NoWholeDot => "no-whole-dot",
        }
    }

    /// The `rule` of the Python engine's error (`"LSD-<section>"` or `"LSD-R<n>"`).
    pub fn rule(self) -> &'static str {
        match self {
            Illegal::GameOver => "end",
            Illegal::RotationNotAllowed => "LSD-R4",
            Illegal::NotInSupply => "LSD-1.5",
            Illegal::FirstTileNotOrigin => "LSD-R20",
            Illegal::Occupied | Illegal::ObstructsDot(_) | Illegal::NoWholeDot => "LSD-2.2",
            Illegal::DotAgainstEmpty(_) => "LSD-R5",
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason(), self.rule())
    }
}

impl std::error::Error for Illegal {}

/// Why [`Position::from_parts`] refuses its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartsError {
    /// Not one supply and one captured list per seat.
    Seats,
    /// A seat's lists do not have one count per kind of the seat (its kinds).
    Kinds { seat: usize, kinds: usize },
    /// A cell beyond `±MAX_COORD`.
    Cell(i32),
    /// A tile whose owner has no kind that shows it.
    Tile(u8),
    /// A cell given twice.
    TwoTiles,
    /// A turn outside the seats, or one that does not agree with the outcome.
    Turn(i8),
}

impl fmt::Display for PartsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartsError::Seats => f.write_str("one supply and one captured list per seat"),
            PartsError::Kinds { seat, kinds } => write!(f, "seat {seat} has {kinds} kinds"),
            PartsError::Cell(cell) => write!(f, "cell {cell} is beyond ±{MAX_COORD}"),
            PartsError::Tile(tile) => write!(f, "no seat's kind shows tile {tile}"),
            PartsError::TwoTiles => f.write_str("a cell holds two tiles"),
            PartsError::Turn(turn) => write!(f, "turn {turn} does not fit the outcome"),
        }
    }
}

impl std::error::Error for PartsError {}

/// An LSD position: field, frontier, supplies, captured tiles, turn and outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    field: Vec<(i32, u8)>,
    frontier: Vec<(i32, u8)>,
    /// Every seat's supply by kind (`Rules::offset`), then every seat's captured tiles by
    /// kind (from `Rules::flat_len`): one vector, one allocation when a position is copied.
    counts: Vec<u16>,
    turn: i8,
    outcome: Option<Outcome>,
    last: Option<Move>,
}

fn get(cells: &[(i32, u8)], cell: i32) -> Option<u8> {
    cells
        .binary_search_by_key(&cell, |e| e.0)
        .ok()
        .map(|i| cells[i].1)
}

fn set(cells: &mut Vec<(i32, u8)>, cell: i32, value: u8) {
    match cells.binary_search_by_key(&cell, |e| e.0) {
        Ok(i) => cells[i].1 = value,
        Err(i) => cells.insert(i, (cell, value)),
    }
}

fn remove(cells: &mut Vec<(i32, u8)>, cell: i32) -> Option<u8> {
    let i = cells.binary_search_by_key(&cell, |e| e.0).ok()?;
    Some(cells.remove(i).1)
}

/// For each diagonal: the offset of the corner partner and the two cells orthogonally
/// adjacent to both tiles, the possible victims {LSD 2.3, RULING 10}.
const DIAGONALS: [(i32, i32, i32); 4] = [
    (STEP[0] + STEP[1], STEP[0], STEP[1]),
    (STEP[2] + STEP[1], STEP[2], STEP[1]),
    (STEP[2] + STEP[3], STEP[2], STEP[3]),
    (STEP[0] + STEP[3], STEP[0], STEP[3]),
];

/// `need | forbid << 4` of an empty cell (see the module docs).
fn constraint(field: &[(i32, u8)], cell: i32) -> u8 {
    let mut need = 0u8;
    let mut forbid = 0u8;
    for (side, step) in STEP.iter().enumerate() {
        // Wrapping: a cell given from outside may lie anywhere; no tile lies beyond the range.
        if let Some(tile) = get(field, cell.wrapping_add(*step)) {
            // The neighbour's side facing back is the opposite one.
            if tile >> ((side + 2) % 4) & 1 == 1 {
                need |= 1 << side;
            } else {
                forbid |= 1 << side;
            }
        }
    }
    need | forbid << 4
}

/// The cells captured by placing `face` on `cell` {LSD 1.6, 2.3}: only the placed tile is
/// a captor (RULING 8); the partner matches its shape and shade (RULING 12) and may be
/// anyone's (RULING 14); a victim is any tile of the other shade (RULING 13); all are
/// found before any is removed (RULING 9). `+`: exactly distance 2 (RULING 11); `x`: each
/// diagonal partner takes both cells next to the two of them, each on its own (RULING 10).
fn captures(field: &[(i32, u8)], cell: i32, face: u8) -> ([i32; 4], usize) {
    let icon = face & ICON_BITS;
    let shade = face & SHADE_BIT;
    let mut victims = [0i32; 4];
    let mut n = 0;
    if face & SHAPE_BIT != 0 {
        for (diagonal, first, second) in DIAGONALS {
            match get(field, cell + diagonal) {
                Some(partner) if partner & ICON_BITS == icon => {}
                _ => continue,
            }
            for offset in [first, second] {
                let victim = cell + offset;
                if let Some(tile) = get(field, victim) {
                    if tile & SHADE_BIT != shade && !victims[..n].contains(&victim) && n < 4 {
                        victims[n] = victim;
                        n += 1;
                    }
                }
            }
        }
    } else {
        for offset in STEP {
            let victim = cell + offset;
            if let Some(tile) = get(field, victim) {
                if tile & SHADE_BIT != shade {
                    if let Some(partner) = get(field, victim + offset) {
                        if partner & ICON_BITS == icon && n < 4 {
                            victims[n] = victim;
                            n += 1;
                        }
                    }
                }
            }
        }
    }
    (victims, n)
}

fn run(field: &[(i32, u8)], mut cell: i32, seat: u8, step: i32) -> u32 {
    let mut length = 0;
    cell += step;
    while let Some(tile) = get(field, cell) {
        if tile >> OWNER_SHIFT != seat {
            break;
        }
        length += 1;
        cell += step;
    }
    length
}

/// Whether the tile on `cell` is in a horizontal or vertical line of at least `length`
/// tiles of `seat` {LSD 1.7, 2.4.1, RULING 15, 16}.
fn has_row(field: &[(i32, u8)], cell: i32, seat: u8, length: u32) -> bool {
    [1, CELL_STRIDE]
        .iter()
        .any(|&step| 1 + run(field, cell, seat, step) + run(field, cell, seat, -step) >= length)
}

impl Position {
    /// The start of a game: an empty field, full supplies, seat 0 to move (RULING 20).
    pub fn new(rules: &Rules) -> Position {
        let mut counts = Vec::with_capacity(2 * rules.flat_len());
        for seat in 0..rules.players() {
            counts.extend_from_slice(rules.initial(seat));
        }
        counts.resize(2 * rules.flat_len(), 0);
        Position {
            field: Vec::new(),
            frontier: Vec::new(),
            counts,
            turn: 0,
            outcome: None,
            last: None,
        }
    }

    /// A position from the parts an `LsdState` holds: cell code -> `face | seat << 6`,
    /// per-seat supplies and captured counts by kind, the seat to move (-1 once over), the
    /// outcome and the move that led here. The frontier is derived from the field.
    ///
    /// # Errors
    /// A cell beyond `±MAX_COORD` or given twice, a tile no kind of its owner shows, counts
    /// not matching the kinds, a turn outside the seats, or a turn that does not agree with
    /// the outcome. The parts are otherwise taken as the Python engine validated them.
    pub fn from_parts(
        rules: &Rules,
        field: &[(i32, u8)],
        supplies: &[Vec<u16>],
        captured: &[Vec<u16>],
        turn: i8,
        outcome: Option<Outcome>,
        last: Option<Move>,
    ) -> Result<Position, PartsError> {
        let players = rules.players();
        if supplies.len() != players || captured.len() != players {
            return Err(PartsError::Seats);
        }
        let mut counts = Vec::with_capacity(2 * rules.flat_len());
        for seat in 0..players {
            let kinds = rules.kinds(seat).len();
            if supplies[seat].len() != kinds || captured[seat].len() != kinds {
                return Err(PartsError::Kinds { seat, kinds });
            }
            counts.extend_from_slice(&supplies[seat]);
        }
        for lost in captured {
            counts.extend_from_slice(lost);
        }
        let mut cells: Vec<(i32, u8)> = Vec::with_capacity(field.len());
        for &(cell, tile) in field {
            let (x, y) = decode_cell(cell);
            let seat = usize::from(tile >> OWNER_SHIFT);
            if x.abs() > MAX_COORD || y.abs() > MAX_COORD || cell < 0 {
                return Err(PartsError::Cell(cell));
            }
            if seat >= players || rules.kind_of(seat, tile & FACE_BITS).is_none() {
                return Err(PartsError::Tile(tile));
            }
            cells.push((cell, tile));
        }
        cells.sort_unstable();
        if cells.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(PartsError::TwoTiles);
        }
        let over = outcome.is_some();
        let beyond = usize::try_from(turn).is_ok_and(|seat| seat >= players);
        if (turn == -1) != over || turn < -1 || beyond {
            return Err(PartsError::Turn(turn));
        }
        let mut position = Position {
            field: cells,
            frontier: Vec::new(),
            counts,
            turn,
            outcome,
            last,
        };
        let around: Vec<i32> = position
            .field
            .iter()
            .flat_map(|&(c, _)| STEP.map(|s| c + s))
            .collect();
        position.refresh(&around);
        Ok(position)
    }

    /// Cell code -> `face | seat << 6`, by cell.
    pub fn field(&self) -> &[(i32, u8)] {
        &self.field
    }

    /// Empty cell code -> `need | forbid << 4` for the cells facing an open half dot, by cell.
    pub fn frontier(&self) -> &[(i32, u8)] {
        &self.frontier
    }

    /// Seat `seat`'s tiles left, by kind (`Rules::kinds` order).
    pub fn supply<'a>(&'a self, rules: &Rules, seat: usize) -> &'a [u16] {
        let start = rules.offset(seat);
        &self.counts[start..start + rules.kinds(seat).len()]
    }

    /// Seat `seat`'s captured tiles, by kind.
    pub fn captured<'a>(&'a self, rules: &Rules, seat: usize) -> &'a [u16] {
        let start = self.counts.len() / 2 + rules.offset(seat);
        &self.counts[start..start + rules.kinds(seat).len()]
    }

    /// The seat to move, or -1 once the game is over.
    pub fn turn(&self) -> i8 {
        self.turn
    }

    /// The end of the game, if it has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The move that led here (None at the start or for a position made from parts without one).
    pub fn last(&self) -> Option<Move> {
        self.last
    }

    /// Each seat's payoff: +1 a winner, -1 the others; 0 for all in a draw or while the
    /// game runs (`GameState.returns`).
    pub fn returns(&self, out: &mut [f32]) {
        out.fill(0.0);
        if let Some(outcome) = self.outcome {
            let all = u32::try_from(out.len())
                .ok()
                .and_then(|n| 1u32.checked_shl(n))
                .map_or(u32::MAX, |b| b - 1);
            if outcome.winners != 0 && u32::from(outcome.winners) != all {
                for (seat, value) in out.iter_mut().enumerate() {
                    *value = if outcome.winners >> seat & 1 == 1 {
                        1.0
                    } else {
                        -1.0
                    };
                }
            }
        }
    }

    fn refresh(&mut self, cells: &[i32]) {
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
    fn next_seat(&self, rules: &Rules, mover: usize) -> i8 {
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
    fn placements<'a>(
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

    fn apply_legal(&mut self, rules: &Rules, mv: Move) {
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

    /// Tiles placed since the start: those on the field plus those captured.
    pub fn ply(&self) -> u32 {
        let lost = &self.counts[self.counts.len() / 2..];
        u32::try_from(self.field.len()).unwrap_or(u32::MAX)
            + lost.iter().map(|&c| u32::from(c)).sum::<u32>()
    }
}
