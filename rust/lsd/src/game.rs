//! A game of LSD played decision by decision: the encoding of `pacru.encoding.lsd`
//! (window, cell and tile decisions, observation planes), for `pacru.vector`.
//!
//! Actions and observations use a square window of `W x W` cells (`W = 2R + 1`,
//! `R = ceil(T / 2)` for `T` the tiles of all tile sets) centred on the tiles in play: its
//! south-west corner is `(floor((min_x + max_x) / 2) - R, floor((min_y + max_y) / 2) - R)`,
//! `(-R, -R)` on the empty field. A move takes two decisions: the cell
//! (`(y - y0) * W + (x - x0)`), then the tile as placed (`W*W + face`), the second skipped
//! when a single tile fits the chosen cell.

use std::fmt;

use crate::position::{Move, Position};
use crate::rules::{decode_cell, Rules, DOT_BITS, OWNER_SHIFT, SHADE_BIT, SHAPE_BIT};

/// Actions of the tile decision: the 64 faces.
pub const FACES: usize = 64;

/// The action and observation layout of a set of rules (`LsdEncoding`).
#[derive(Debug, Clone)]
pub struct Layout {
    rules: Rules,
    radius: i32,
    width: i32,
    kinds: usize,
    totals: Vec<u32>,
}

/// Why a decision cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameError {
    /// The action is not legal in the decision (or the game is over).
    IllegalAction(i64),
    /// The tiles outgrow the window: a diagram play cannot reach.
    OutgrowsWindow,
    /// The player to move has no legal move: a diagram play cannot reach.
    NoLegalMove,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::IllegalAction(a) => write!(f, "action {a} is not legal here"),
            GameError::OutgrowsWindow => f.write_str("the tiles outgrow the LSD window"),
            GameError::NoLegalMove => f.write_str("the player to move has no legal move"),
        }
    }
}

impl std::error::Error for GameError {}

impl Layout {
    /// The layout of `rules`.
    pub fn new(rules: Rules) -> Layout {
        // Rules hold at most a few hundred tiles; the cap only keeps `2 * radius + 1` finite.
        let radius = i32::try_from(rules.total_tiles().div_ceil(2).max(1)).unwrap_or(1 << 20);
        let kinds = (0..rules.players())
            .map(|s| rules.kinds(s).len())
            .max()
            .unwrap_or(0);
        let totals = (0..rules.players())
            .map(|s| {
                rules
                    .initial(s)
                    .iter()
                    .map(|&c| u32::from(c))
                    .sum::<u32>()
                    .max(1)
            })
            .collect();
        Layout {
            rules,
            radius,
            width: 2 * radius + 1,
            kinds,
            totals,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// `W`, the window's width.
    pub fn width(&self) -> usize {
        usize::try_from(self.width).unwrap_or(0) // positive: 2 * radius + 1
    }

    /// `W * W`: the actions of the cell decision.
    pub fn cells(&self) -> usize {
        self.width() * self.width()
    }

    /// `W * W + 64`.
    pub fn num_actions(&self) -> usize {
        self.cells() + FACES
    }

    /// `P * (K + 3) + 10` planes for `P` players and `K` kinds at most per seat.
    pub fn planes(&self) -> usize {
        self.rules.players() * (self.kinds + 3) + 10
    }

    /// The length of one observation: planes x W x W.
    pub fn observation_len(&self) -> usize {
        self.planes() * self.cells()
    }

    /// The window's south-west corner for `position`.
    fn window(&self, position: &Position) -> Result<(i32, i32), GameError> {
        let r = self.radius;
        let mut cells = position.field().iter().map(|&(c, _)| decode_cell(c));
        let Some((x, y)) = cells.next() else {
            return Ok((-r, -r));
        };
        let (mut min_x, mut max_x, mut min_y, mut max_y) = (x, x, y, y);
        for (x, y) in cells {
            min_x = min_x.min(x);
            max_x = max_x.max(x);
            min_y = min_y.min(y);
            max_y = max_y.max(y);
        }
        let x0 = (min_x + max_x).div_euclid(2) - r;
        let y0 = (min_y + max_y).div_euclid(2) - r;
        if min_x - 1 < x0 || min_y - 1 < y0 || max_x + 1 > x0 + 2 * r || max_y + 1 > y0 + 2 * r {
            return Err(GameError::OutgrowsWindow);
        }
        Ok((x0, y0))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Cell,
    Tile,
    Over,
}

/// One game at a decision (or at its end); a value: [`Game::choose`] changes it in place,
/// so a batch keeps the games it must not change behind `Arc`s and copies the stepped ones.
#[derive(Debug, Clone)]
pub struct Game {
    position: Position,
    stage: Stage,
    x0: i32,
    y0: i32,
    moves: Vec<Move>,
    /// The cell action chosen, if any; with the run of `moves` on that cell.
    chosen: Option<usize>,
    run: (usize, usize),
    prefix: Vec<i64>,
}

impl Game {
    /// The game at the first decision of `position` (or at its end if it is over).
    ///
    /// # Errors
    /// A position whose tiles outgrow the window, or whose mover cannot place.
    pub fn start(layout: &Layout, position: Position) -> Result<Game, GameError> {
        let mut game = Game {
            position,
            stage: Stage::Over,
            x0: 0,
            y0: 0,
            moves: Vec::new(),
            chosen: None,
            run: (0, 0),
            prefix: Vec::new(),
        };
        game.begin(layout)?;
        Ok(game)
    }

    fn begin(&mut self, layout: &Layout) -> Result<(), GameError> {
        self.chosen = None;
        self.run = (0, 0);
        self.prefix.clear();
        if self.position.outcome().is_some() {
            self.stage = Stage::Over;
            self.moves.clear();
            return Ok(());
        }
        (self.x0, self.y0) = layout.window(&self.position)?;
        self.position
            .legal_moves_into(layout.rules(), &mut self.moves);
        if self.moves.is_empty() {
            return Err(GameError::NoLegalMove);
        }
        self.stage = Stage::Cell;
        Ok(())
    }

    /// The position: the one being moved in, or the final one.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The actions already chosen in the move under way.
    pub fn prefix(&self) -> &[i64] {
        &self.prefix
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    /// The seat deciding, or -1 at the end.
    pub fn player(&self) -> i32 {
        if self.is_over() {
            -1
        } else {
            i32::from(self.position.turn())
        }
    }

    /// The legal moves of the position, in `legal_moves()` order (none at the end).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The cell action of `cell` (`usize::MAX`, no action, for a cell left of or below
    /// the window: never one of the moves, as the window holds them).
    fn cell_action(&self, layout: &Layout, cell: i32) -> usize {
        let (x, y) = decode_cell(cell);
        usize::try_from((y - self.y0) * layout.width + (x - self.x0)).unwrap_or(usize::MAX)
    }

    /// The legal actions of the decision into `out` (cleared first), ascending, each once:
    /// those [`Game::write_mask`] sets to 1; none at the end (where `write_mask` allows
    /// every action, each accepted and ignored).
    pub fn legal_actions(&self, layout: &Layout, out: &mut Vec<usize>) {
        out.clear();
        match self.stage {
            Stage::Over => {}
            Stage::Cell => {
                out.extend(
                    self.moves
                        .iter()
                        .map(|mv| self.cell_action(layout, mv.cell)),
                );
            }
            Stage::Tile => {
                let cells = layout.cells();
                let run = &self.moves[self.run.0..self.run.1];
                out.extend(run.iter().map(|mv| cells + usize::from(mv.face)));
            }
        }
        let actions = layout.num_actions();
        out.retain(|&a| a < actions);
        out.sort_unstable();
        out.dedup();
    }

    /// Set the legal actions of the decision to 1 in `mask` (`num_actions` bytes, zeros
    /// before: numpy's bool); all 1 at the end, as pgx (any action is accepted and ignored
    /// there).
    pub fn write_mask(&self, layout: &Layout, mask: &mut [u8]) {
        match self.stage {
            Stage::Over => mask.fill(1),
            Stage::Cell => {
                for mv in &self.moves {
                    if let Some(slot) = mask.get_mut(self.cell_action(layout, mv.cell)) {
                        *slot = 1;
                    }
                }
            }
            Stage::Tile => {
                let cells = layout.cells();
                for mv in &self.moves[self.run.0..self.run.1] {
                    if let Some(slot) = mask.get_mut(cells + usize::from(mv.face)) {
                        *slot = 1;
                    }
                }
            }
        }
    }

    /// Take `action` in the decision under way: the cell, then (if several tiles fit it)
    /// the tile; a complete move is played and the next decision begins.
    ///
    /// # Errors
    /// An action not legal in the decision (nothing changes), or a next position the
    /// encoding cannot hold (never in play).
    pub fn choose(&mut self, layout: &Layout, action: i64) -> Result<(), GameError> {
        let illegal = Err(GameError::IllegalAction(action));
        let w = layout.width;
        let mv = match self.stage {
            Stage::Over => return illegal,
            Stage::Cell => {
                let Some(cell) = i32::try_from(action)
                    .ok()
                    .filter(|a| (0..w * w).contains(a))
                else {
                    return illegal;
                };
                let (i, j) = (cell / w, cell % w);
                let (x, y) = (j + self.x0, i + self.y0);
                let cell = crate::rules::encode_cell(x, y);
                let lo = self.moves.partition_point(|m| m.cell < cell);
                let hi = lo + self.moves[lo..].partition_point(|m| m.cell == cell);
                match hi - lo {
                    0 => return illegal,
                    1 => self.moves[lo],
                    _ => {
                        self.stage = Stage::Tile;
                        self.chosen = usize::try_from(action).ok();
                        self.run = (lo, hi);
                        self.prefix.push(action);
                        return Ok(());
                    }
                }
            }
            Stage::Tile => {
                let face = action.wrapping_sub(i64::from(w * w));
                let run = &self.moves[self.run.0..self.run.1];
                match run.iter().find(|m| i64::from(m.face) == face) {
                    Some(&mv) => mv,
                    None => return illegal,
                }
            }
        };
        if self.position.apply(layout.rules(), mv).is_err() {
            return illegal;
        }
        self.begin(layout)
    }

    /// The rewards of the game's end (zeros while it runs), one per seat.
    pub fn returns(&self, out: &mut [f32]) {
        self.position.returns(out);
    }

    /// The observation planes of the decision seen by the seat deciding, `(planes, W, W)`
    /// row-major into `out` (zeros before, [`Layout::observation_len`] values long); left
    /// zero at the end. The planes of `LsdEncoding.plane_names`: tile owners (seats rotated
    /// so the viewer is 0), half dots N E S W, `x` icon, white icon, open cells, the chosen
    /// cell, the decision (cell, tile), the seat to move, each seat's supply of each kind
    /// and its captured tiles as shares of its tile set {LSD 1.5, 2.2, 2.3}.
    pub fn observe<P: Planes + ?Sized>(&self, layout: &Layout, out: &mut P) {
        if self.is_over() || out.len() < layout.observation_len() {
            return;
        }
        let rules = layout.rules();
        let p = rules.players();
        let w = layout.width;
        let area = layout.cells();
        let viewer = usize::try_from(self.position.turn()).unwrap_or(0);
        let (x0, y0) = (self.x0, self.y0);
        let mark = |out: &mut P, plane: usize, x: i32, y: i32| {
            let (i, j) = (y - y0, x - x0);
            if (0..w).contains(&i) && (0..w).contains(&j) {
                if let Ok(at) = usize::try_from(i * w + j) {
                    out.set(plane * area + at, 1.0);
                }
            }
        };
        for &(cell, tile) in self.position.field() {
            let (x, y) = decode_cell(cell);
            let seat = usize::from(tile >> OWNER_SHIFT);
            mark(out, (seat + p - viewer) % p, x, y);
            for side in 0..4 {
                if (tile & DOT_BITS) >> side & 1 == 1 {
                    mark(out, p + side, x, y);
                }
            }
            if tile & SHAPE_BIT != 0 {
                mark(out, p + 4, x, y);
            }
            if tile & SHADE_BIT != 0 {
                mark(out, p + 5, x, y);
            }
        }
        for &(cell, _) in self.position.frontier() {
            let (x, y) = decode_cell(cell);
            mark(out, p + 6, x, y);
        }
        if let Some(chosen) = self.chosen {
            out.set((p + 7) * area + chosen, 1.0);
        }
        let fill = |out: &mut P, plane: usize, value: f32| out.fill(plane * area, area, value);
        fill(out, p + 8 + usize::from(self.stage == Stage::Tile), 1.0);
        fill(out, p + 10, 1.0); // the viewer is the seat to move
        let k = layout.kinds;
        let base = 2 * p + 10;
        for seat in 0..p {
            let r = (seat + p - viewer) % p;
            let total = f64::from(layout.totals[seat]);
            for (kind, &count) in self.position.supply(rules, seat).iter().enumerate() {
                let share = (f64::from(count) / total) as f32;
                if share != 0.0 {
                    fill(out, base + r * k + kind, share);
                }
            }
            let captured: u32 = self
                .position
                .captured(rules, seat)
                .iter()
                .map(|&c| u32::from(c))
                .sum();
            let share = (f64::from(captured) / total) as f32;
            if share != 0.0 {
                fill(out, base + p * k + r, share);
            }
        }
    }
}

/// Where [`Game::observe`] writes: a flat array of values, zeros before.
pub trait Planes {
    /// The number of values.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Set value `index` (below `len`).
    fn set(&mut self, index: usize, value: f32);
    /// Set the `count` values from `start` (within `len`) to `value`.
    fn fill(&mut self, start: usize, count: usize, value: f32);
}

impl Planes for [f32] {
    fn len(&self) -> usize {
        <[f32]>::len(self)
    }
    fn set(&mut self, index: usize, value: f32) {
        if let Some(slot) = self.get_mut(index) {
            *slot = value;
        }
    }
    fn fill(&mut self, start: usize, count: usize, value: f32) {
        if let Some(run) = self.get_mut(start..start + count) {
            run.fill(value);
        }
    }
}
