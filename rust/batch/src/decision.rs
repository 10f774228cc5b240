//! The chevron encoding of `pacru.encoding.chevron`, decision by decision, natively: the
//! legal actions of each decision, the move an action sequence builds, the observation
//! planes. It follows the Python module step for step (its docstring gives the layout);
//! the Python encoding is the oracle and the two must agree bit for bit.

use std::cell::RefCell;
use std::sync::Arc;

use pacru_engine::geometry::{bits, code_field, nth_field};
use pacru_engine::{
    legal_moves, legal_moves_into, Field, Move, MoveList, Position, Rules, StepMove, Termination,
};

use crate::rollout::{shape, Shape};

pub const PASS: u16 = 0;
pub const ORIGIN: u16 = 1;
pub const TARGET: u16 = 82;
pub const TURN: u16 = 163;
pub const TWIST: u16 = 167;
pub const BENEFIT_NONE: u16 = 170;
pub const BENEFIT_CONNECTION: u16 = 171;
pub const MARKER: u16 = 172;
pub const MEETING: u16 = 253;
pub const RELINQUISH: u16 = 334;
pub const NUM_ACTIONS: usize = 415;
const TURNS: [i8; 4] = [-2, -1, 1, 2];

/// The action of twist `twist` (-1..=1) at the twist stage: `TWIST + 1 + twist`.
pub(crate) fn twist_action(twist: i8) -> u16 {
    (TWIST + 1).wrapping_add_signed(i16::from(twist))
}

/// The twist (-1..=1) a twist-stage action picks; None for any other action.
fn action_twist(action: u16) -> Option<i8> {
    match action.checked_sub(TWIST)? {
        0 => Some(-1),
        1 => Some(0),
        2 => Some(1),
        _ => None,
    }
}

/// The action of bit `bit` (the trailing zeros of a nonzero word: below 64) of word
/// `word` of an [`Actions`] set.
fn action_of(word: u16, bit: u32) -> u16 {
    64 * word + u16::try_from(bit).unwrap_or(0)
}

/// Stages of a move being chosen, as `_ORIGIN` .. `_DONE` of the Python module.
const S_ORIGIN: u8 = 0;
const S_TARGET: u8 = 1;
const S_TWIST: u8 = 2;
const S_BENEFIT: u8 = 3;
const S_MEETING: u8 = 4;
const S_RELINQUISH: u8 = 5;
const S_DONE: u8 = 6;

/// Why a decision was not taken. Only [`DecisionError::IllegalAction`] comes from the
/// caller; the others mean a move list that does not hold what its own bounds promise
/// (a bug of the engine), reported instead of a panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionError {
    /// The action is not one of the decision's legal actions (none is, once the move is
    /// complete or the game over).
    IllegalAction(u16),
    /// A legal origin, target or turn has no move family in the list, or a step family
    /// no option.
    NoFamily,
    /// The move chosen is not in the list.
    NotListed,
}

impl std::fmt::Display for DecisionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecisionError::IllegalAction(action) => {
                write!(f, "action {action} is not legal in this decision")
            }
            DecisionError::NoFamily => f.write_str("a legal action has no move family"),
            DecisionError::NotListed => f.write_str("the move chosen is not in the list"),
        }
    }
}

impl std::error::Error for DecisionError {}

/// The fixed parts of an encoding: the game and its scales.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub rules: Rules,
    pub players: u8,
    /// 0..3: Lilacru, Shacru, Azacru, Pacru (the "game" planes).
    pub game_index: u8,
    pub ply_scale: f64,
    pub idle_scale: f64,
    /// The Pacru supply of each player {R1} (0 for the other games).
    pub supply: u32,
}

impl Layout {
    /// The observation planes: 13 per player and 25.
    pub fn planes(&self) -> usize {
        13 * usize::from(self.players) + 25
    }
}

/// One choice of a step family: twist, connection change, marker field and meeting
/// fields (a bitboard, 0: no meeting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Opt {
    twist: i8,
    conn: bool,
    marker: Option<Field>,
    meet: u128,
}

impl Opt {
    fn benefit(&self) -> u16 {
        match (self.conn, self.marker) {
            (true, _) => BENEFIT_CONNECTION,
            (false, None) => BENEFIT_NONE,
            (false, Some(m)) => MARKER + u16::from(m),
        }
    }
}

/// A family of moves of the chosen origin: the `step`-th step family of the list (its
/// options read when it is entered), or a reorientation by a turn, giving up `cost` of the
/// free fields.
#[derive(Clone, Copy, Debug)]
enum Fam {
    Step {
        step: usize,
        start: u64,
        target: u8,
        capture: bool,
    },
    Reo {
        start: u64,
        turn_index: u8,
        cost: usize,
    },
}

impl Fam {
    /// The action that picks this family at the target stage.
    fn action(&self) -> u16 {
        match *self {
            Fam::Step { target, .. } => TARGET + u16::from(target),
            Fam::Reo { turn_index, .. } => TURN + u16::from(turn_index),
        }
    }
}

/// A set of actions (`0..NUM_ACTIONS`), iterated ascending.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Actions([u64; 7]);

impl Actions {
    fn insert(&mut self, action: u16) {
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

    fn first(&self) -> Option<u16> {
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

/// A short list kept inline, so that copying a game allocates nothing: the actions chosen
/// in a move under way (at most five: origin, target, twist, benefit, meeting; or origin,
/// turn and three fields given up) or the fields given up (at most four).
#[derive(Clone, Copy, Debug)]
struct Inline<T, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Default for Inline<T, N> {
    fn default() -> Self {
        Inline {
            len: 0,
            items: [T::default(); N],
        }
    }
}

impl<T: Copy, const N: usize> Inline<T, N> {
    /// Appends `item`; [`DecisionError::NoFamily`] when full (a move has at most `N`:
    /// more would be a family larger than any the rules allow).
    fn push(&mut self, item: T) -> Result<(), DecisionError> {
        let slot = self
            .items
            .get_mut(usize::from(self.len))
            .ok_or(DecisionError::NoFamily)?;
        *slot = item;
        self.len += 1;
        Ok(())
    }

    fn as_slice(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
}

/// One game of a batch: its position, and the decision under way (none once it is over).
/// Cheap to clone: what a move's decisions share is behind `Arc`s.
#[derive(Clone, Debug)]
pub struct Game {
    /// The legal moves, with the position they are legal in.
    list: Arc<MoveList>,
    /// How the moves are laid out.
    shape: Shape,
    stage: u8,
    /// The chosen chevron's field (None before it is chosen).
    origin: Option<Field>,
    fam: Option<Fam>,
    /// The options of the step family entered, and the candidates still open among them
    /// (a bit per option: a Pacru step has at most a connection, nine crossing fields and
    /// no field; a Shacru or Azacru step three twists).
    options: Option<Arc<[Opt]>>,
    cands: u64,
    /// The twist (-1..=1) and the benefit action of the step under way, once known.
    twist: Option<i8>,
    benefit: Option<u16>,
    /// The meeting field of a finished step (None: none, or not chosen yet).
    meeting: Option<Field>,
    /// Positions, among the free fields, of the fields given up so far.
    chosen: Inline<u8, 4>,
    /// The legal actions of the decision (empty once the game is over or the move done).
    pub legal: Actions,
    prefix: Inline<u16, 8>,
}

/// The most move lists a thread keeps for its next games (a kilobyte each).
const SPARE_LISTS: usize = 2048;

thread_local! {
    /// Move lists of games this thread retired ([`Game::retire`]), no longer shared,
    /// each reused for a new position's moves ([`Game::start`]): a batch step starts
    /// hundreds of new positions, and allocating, moving in and freeing a kilobyte for
    /// each cost more than their moves.
    static SPARE: RefCell<Vec<Arc<MoveList>>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `list` for a later game of this thread ([`Game::start`]) when no other game
/// shares it and the thread keeps fewer than `SPARE_LISTS`; else drops it.
fn keep(mut list: Arc<MoveList>) {
    if Arc::get_mut(&mut list).is_none() {
        return;
    }
    SPARE.with(|s| {
        if let Ok(mut spare) = s.try_borrow_mut() {
            if spare.len() < SPARE_LISTS && spare.try_reserve(1).is_ok() {
                spare.push(list);
            }
        }
    });
}

/// The legal moves of `pos`, in a spare list of this thread if it has one.
fn new_list(rules: &Rules, pos: &Position) -> Arc<MoveList> {
    let spare = SPARE.with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()));
    if let Some(mut list) = spare {
        if let Some(moves) = Arc::get_mut(&mut list) {
            legal_moves_into(rules, pos, moves);
            return list;
        }
    }
    Arc::new(legal_moves(rules, pos))
}

/// What an action leads to: the next decision of the move, or the move complete.
#[derive(Clone, Debug)]
pub enum Next {
    /// The next decision (it has at least two legal actions).
    Ask(Game),
    /// The move is complete: the finished decision (no legal action, [`Game::is_done`])
    /// and the index of the move in the position's list.
    Done(Game, u64),
}

fn bits64(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if word == 0 {
            return None;
        }
        let i = word.trailing_zeros() as usize;
        word &= word - 1;
        Some(i)
    })
}

fn comb(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

impl Game {
    /// The first decision of `pos` (or its end).
    pub fn start(layout: &Layout, pos: Position) -> Game {
        Game::of_list(new_list(&layout.rules, &pos))
    }

    /// Drops this game, keeping its move list for a later game of this thread (see
    /// [`Game::start`]) when no other game shares it and the thread keeps fewer than
    /// `SPARE_LISTS`. For a batch's games as it is freed.
    pub fn retire(self) {
        let Game { list, .. } = self;
        keep(list);
    }

    /// The first decision of the position of `list`, its legal moves (`layout.rules`'s).
    pub fn of_list(list: Arc<MoveList>) -> Game {
        let mut layout_of = Shape::default();
        let mut legal = Actions::default();
        let pos = list.position();
        if pos.outcome.is_none() {
            if list.is_pass() {
                legal.insert(PASS);
            } else {
                layout_of = shape(&list);
                let origins = if layout_of.turns > 0 {
                    // Every own chevron may reorient {R14}; the steps' origins are among them.
                    pos.chevrons[usize::from(pos.to_move)].fields()
                } else {
                    (0..list.step_count())
                        .filter_map(|i| list.step_fields(i))
                        .fold(0u128, |acc, (origin, _, _)| acc | 1u128 << origin)
                };
                legal = bits(origins).map(|f| ORIGIN + u16::from(f)).collect();
            }
        }
        Game {
            list,
            shape: layout_of,
            stage: S_ORIGIN,
            origin: None,
            fam: None,
            options: None,
            cands: 0,
            twist: None,
            benefit: None,
            meeting: None,
            chosen: Inline::default(),
            legal,
            prefix: Inline::default(),
        }
    }

    /// The position moved in (the final one once the game is over).
    pub fn pos(&self) -> &Position {
        self.list.position()
    }

    /// The legal moves of [`Game::pos`].
    pub fn list(&self) -> &MoveList {
        &self.list
    }

    /// The actions already chosen in the move under way.
    pub fn prefix(&self) -> &[u16] {
        self.prefix.as_slice()
    }

    pub fn is_over(&self) -> bool {
        self.legal.is_empty()
    }

    /// Whether this is the finished decision of a complete move ([`Next::Done`]).
    pub fn is_done(&self) -> bool {
        self.stage == S_DONE
    }

    /// The stage, 0..6 as the Python cursor's: origin, target, twist, benefit, meeting,
    /// relinquish, done.
    pub fn stage(&self) -> u8 {
        self.stage
    }

    /// How many fields given up by a reorientation are chosen so far {R14}.
    pub fn relinquished_count(&self) -> usize {
        self.chosen.as_slice().len()
    }

    /// The move a finished decision ([`Next::Done`]) chose, as the list's `get` gives it;
    /// None before the move is complete.
    pub fn chosen_move(&self) -> Option<Move> {
        if self.stage != S_DONE {
            return None;
        }
        let Some(fam) = self.fam else {
            return Some(Move::Pass);
        };
        // A family is entered once its origin is chosen.
        let origin = self.origin?;
        Some(match fam {
            Fam::Step {
                target, capture, ..
            } => {
                let step = StepMove {
                    origin,
                    target: Field::new(target)?,
                    twist: self.twist.unwrap_or(0),
                    connection: self.benefit == Some(BENEFIT_CONNECTION),
                    marker: self.marker(),
                    meeting: self.meeting,
                };
                if capture {
                    Move::Pincer(step)
                } else {
                    Move::Step(step)
                }
            }
            Fam::Reo { turn_index, .. } => {
                let free = self.free();
                let relinquished = self
                    .chosen
                    .as_slice()
                    .iter()
                    .filter_map(|&c| nth_field(free, u32::from(c)))
                    .fold(0u128, |acc, f| acc | 1u128 << f);
                Move::Reorientation {
                    origin,
                    turn: TURNS[usize::from(turn_index)],
                    relinquished,
                }
            }
        })
    }

    /// The game after `action`: the next decision, or the next position's first once the
    /// move is complete.
    ///
    /// [`DecisionError::IllegalAction`] when `action` is not one of [`Game::legal`].
    pub fn choose(&self, layout: &Layout, action: u16) -> Result<Game, DecisionError> {
        let mut g = self.clone();
        g.choose_in_place(layout, action)?;
        Ok(g)
    }

    /// As [`Game::choose`], in place: this becomes the game after `action` (a game is
    /// 200 bytes: moving it through `Next` and the results costs more than the decision's
    /// own work in a batch step). [`DecisionError::IllegalAction`] leaves it unchanged;
    /// after any other error it is meaningless (as after [`Game::step`]'s).
    pub fn choose_in_place(&mut self, layout: &Layout, action: u16) -> Result<(), DecisionError> {
        if let Some(at) = self.step(action)? {
            let next = self.list.apply_index(at).ok_or(DecisionError::NotListed)?;
            *self = Game::start(layout, next);
        }
        Ok(())
    }

    /// As [`Game::choose_in_place`], keeping the old position's moves for this thread's
    /// next positions where no other game shares them (a batch stepped in place: see
    /// `crate::in_place`; a copied game shares them with the batch it was copied from).
    pub fn choose_keeping(&mut self, layout: &Layout, action: u16) -> Result<(), DecisionError> {
        if let Some(at) = self.step(action)? {
            let next = self.list.apply_index(at).ok_or(DecisionError::NotListed)?;
            // A second reference, not a move of the whole game out of its place.
            let old = Arc::clone(&self.list);
            *self = Game::start(layout, next);
            keep(old);
        }
        Ok(())
    }

    /// What `action` leads to in the move under way; this decision is unchanged.
    ///
    /// [`DecisionError::IllegalAction`] when `action` is not one of [`Game::legal`].
    pub fn advance(&self, action: u16) -> Result<Next, DecisionError> {
        self.clone().advance_into(action)
    }

    /// As [`Game::advance`], taking this decision instead of copying it.
    pub fn advance_into(self, action: u16) -> Result<Next, DecisionError> {
        let mut g = self;
        Ok(match g.step(action)? {
            None => Next::Ask(g),
            Some(at) => Next::Done(g, at),
        })
    }

    /// Takes `action` in place: this becomes the next decision (None), or the finished
    /// one, with the index of the move chosen (as [`Game::advance`], without a copy).
    ///
    /// [`DecisionError::IllegalAction`] when `action` is not one of [`Game::legal`]: the
    /// game is unchanged. After any other error (a list that does not hold what its
    /// bounds promise) the game is meaningless: drop it.
    pub fn step(&mut self, action: u16) -> Result<Option<u64>, DecisionError> {
        if !self.legal.contains(action) {
            return Err(DecisionError::IllegalAction(action));
        }
        let g = self;
        g.prefix.push(action)?;
        // Every part but the legal actions, which the next decision sets.
        g.legal = Actions::default();
        match g.stage {
            S_ORIGIN => {
                if action == PASS {
                    return Ok(g.finish(0));
                }
                let origin = Field::try_from(action - ORIGIN);
                g.origin = Some(origin.map_err(|_| DecisionError::NoFamily)?);
                g.target_stage()
            }
            S_TARGET => {
                let mut chosen = None;
                g.each_family(|fam| {
                    let found = fam.action() == action;
                    if found {
                        chosen = Some(fam);
                    }
                    !found
                });
                g.enter(chosen.ok_or(DecisionError::NoFamily)?)
            }
            S_RELINQUISH => {
                if let Some(Fam::Reo { .. }) = g.fam {
                    let f = action - RELINQUISH;
                    let below = g.free() & ((1u128 << f) - 1);
                    let below = u8::try_from(below.count_ones());
                    g.chosen.push(below.map_err(|_| DecisionError::NoFamily)?)?;
                }
                g.relinquish_stage()
            }
            S_TWIST => {
                let twist = action_twist(action).ok_or(DecisionError::NoFamily)?;
                g.keep(|o| o.twist == twist);
                g.twist = Some(twist);
                g.option_stage()
            }
            S_BENEFIT => {
                g.keep(|o| o.benefit() == action);
                g.benefit = Some(action);
                g.option_stage()
            }
            _ => {
                // S_MEETING
                let meeting = Field::try_from(action - MEETING);
                g.finish_step(Some(meeting.map_err(|_| DecisionError::NoFamily)?))
            }
        }
    }

    /// The options of the step family entered (none before, or for a reorientation).
    fn step_options(&self) -> &[Opt] {
        self.options.as_deref().unwrap_or(&[])
    }

    /// Keeps the candidate options that pass `test`.
    fn keep(&mut self, test: impl Fn(&Opt) -> bool) {
        let options = self.step_options();
        let kept = bits64(self.cands)
            .filter(|&i| options.get(i).is_some_and(&test))
            .fold(0u64, |acc, i| acc | 1 << i);
        self.cands = kept;
    }

    /// The own unoccupied fields of the player to move: those a reorientation gives up (D25).
    fn free(&self) -> u128 {
        let pos = self.list.position();
        pos.markers[usize::from(pos.to_move)] & !pos.occupied()
    }

    /// Gives each family of the chosen origin to `visit`, in list order (steps, then
    /// reorientations), until it returns false; the steps' options are read when one is
    /// entered. Kept nowhere: the target decision's families are found again when one is
    /// chosen.
    fn each_family(&self, mut visit: impl FnMut(Fam) -> bool) {
        let Some(origin) = self.origin else {
            return; // no family before the origin is chosen
        };
        let (pos, list, shape) = (self.list.position(), &*self.list, self.shape);
        for step in list.steps_from(origin.get()) {
            if let (Some((_, target, capture)), Some((start, _))) =
                (list.step_fields(step), list.step_range(step))
            {
                let fam = Fam::Step {
                    step,
                    start,
                    target,
                    capture,
                };
                if !visit(fam) {
                    return;
                }
            }
        }
        if shape.turns > 0 {
            let seat = usize::from(pos.to_move);
            let own = pos.chevrons[seat].fields();
            let k = u64::from((own & (origin.bit() - 1)).count_ones());
            // The turns (by their index in `TURNS`) and the fields each gives up {R14}.
            const ALL: [(u8, usize); 4] = [(0, 4), (1, 2), (2, 2), (3, 4)];
            const QUARTER: [(u8, usize); 2] = [(1, 2), (2, 2)];
            let turns: &[(u8, usize)] = if shape.turns == 4 { &ALL } else { &QUARTER };
            let mut start = shape.step_moves + k * shape.per_chevron;
            for (t, &(turn_index, cost)) in turns.iter().enumerate() {
                let fam = Fam::Reo {
                    start,
                    turn_index,
                    cost,
                };
                if !visit(fam) {
                    return;
                }
                start += shape.sizes[t];
            }
        }
    }

    /// The options of the `step`-th step family, in order.
    fn read_options(&self, step: usize) -> Arc<[Opt]> {
        // At most a connection and the nine fields of a borderland {R8, R10}.
        let mut options = [Opt::default(); 10];
        let mut n = 0;
        self.list.each_step_choice(step, |c| {
            if let Some(slot) = options.get_mut(n) {
                *slot = Opt {
                    twist: c.twist,
                    conn: c.connection,
                    marker: c.marker,
                    meet: c.meetings,
                };
                n += 1;
            }
        });
        Arc::from(&options[..n])
    }

    fn ask(&mut self, stage: u8, legal: Actions) -> Result<Option<u64>, DecisionError> {
        self.stage = stage;
        self.legal = legal;
        Ok(None)
    }

    fn target_stage(&mut self) -> Result<Option<u64>, DecisionError> {
        let (mut acts, mut count, mut only) = (Actions::default(), 0, None);
        self.each_family(|fam| {
            acts.insert(fam.action());
            count += 1;
            only = Some(fam);
            true
        });
        if count > 1 {
            return self.ask(S_TARGET, acts);
        }
        let only = only.ok_or(DecisionError::NoFamily)?;
        self.fam = None;
        self.enter(only)
    }

    fn enter(&mut self, fam: Fam) -> Result<Option<u64>, DecisionError> {
        self.fam = Some(fam);
        match fam {
            Fam::Step { step, .. } => {
                let options = self.read_options(step);
                self.cands = (1u64 << options.len()) - 1;
                self.options = Some(options);
                self.option_stage()
            }
            Fam::Reo { .. } => self.relinquish_stage(),
        }
    }

    fn option_stage(&mut self) -> Result<Option<u64>, DecisionError> {
        let options = self.options.clone().unwrap_or_default();
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
                    return self.ask(S_TWIST, acts);
                }
                self.twist = Some(acts.first().and_then(action_twist).unwrap_or(0));
            }
            let acts: Actions = bits64(self.cands)
                .filter_map(|i| options.get(i))
                .map(Opt::benefit)
                .collect();
            if acts.len() > 1 {
                return self.ask(S_BENEFIT, acts);
            }
            self.benefit = acts.first();
            meet = option(first)?.meet;
        }
        if meet & meet.wrapping_sub(1) != 0 {
            let acts = bits(meet).map(|f| MEETING + u16::from(f)).collect();
            return self.ask(S_MEETING, acts);
        }
        let meeting = Field::lowest(meet);
        self.finish_step(meeting)
    }

    fn finish_step(&mut self, meeting: Option<Field>) -> Result<Option<u64>, DecisionError> {
        let Some(Fam::Step { start, .. }) = self.fam else {
            return Err(DecisionError::NoFamily); // a meeting is chosen in a step
        };
        let options = self.step_options();
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

    fn relinquish_stage(&mut self) -> Result<Option<u64>, DecisionError> {
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
                return self.ask(S_RELINQUISH, acts);
            }
            let first = u8::try_from(first).map_err(|_| DecisionError::NoFamily)?;
            self.chosen.push(first)?;
        }
    }

    /// The marker field of the benefit chosen, if it is a marker's.
    fn marker(&self) -> Option<Field> {
        let field = self.benefit?.checked_sub(MARKER)?;
        Field::try_from(field).ok()
    }

    /// The move of index `at` is chosen: the finished decision.
    fn finish(&mut self, at: u64) -> Option<u64> {
        self.stage = S_DONE;
        self.legal = Actions::default();
        Some(at)
    }

    /// Whether the game ended by a limit (the move cap D32, idle rounds D33), not a rule.
    pub fn truncated(&self) -> bool {
        matches!(
            self.list.position().outcome.map(|o| o.termination),
            Some(Termination::MoveCap | Termination::IdleLimit)
        )
    }

    /// The observation planes of the decision seen by the player deciding, into `out`:
    /// `layout.planes() * 81` float32 values as native-endian bytes, zeroed by the caller.
    pub fn observation(&self, layout: &Layout, out: &mut [u8]) {
        self.observation_as(layout, Cell::F32, out)
    }

    /// As [`Game::observation`], each value written as `cell` says (`cell.size()` bytes a
    /// value: float32, or uint8 and bool as `pacru.vector`'s observation dtypes).
    pub fn observation_as(&self, layout: &Layout, cell: Cell, out: &mut [u8]) {
        let player = usize::from(self.list.position().to_move);
        self.planes_of(layout, player, cell, out)
    }

    /// The observation planes of the decision seen by seat `player` (`< layout.players`),
    /// its seat first, into `out` as [`Game::observation`].
    pub fn observation_of(&self, layout: &Layout, player: usize, out: &mut [u8]) {
        self.planes_of(layout, player, Cell::F32, out)
    }

    fn planes_of(&self, layout: &Layout, player: usize, cell: Cell, out: &mut [u8]) {
        let pos = self.list.position();
        let p = usize::from(layout.players);
        let rot = |seat: usize| (seat + p - player) % p;
        let size = cell.size();
        let (one, one_len) = cell.encode(1.0);
        let mut set = |plane: usize, field: u8| {
            let at = size * (plane * 81 + usize::from(field));
            out[at..at + size].copy_from_slice(&one[..one_len]);
        };
        for seat in 0..p {
            let r = rot(seat);
            for f in bits(pos.markers[seat]) {
                set(r, f);
            }
            for code in pos.chevrons[seat].iter() {
                set(p + 8 * r + usize::from(code & 7), code_field(code));
            }
        }
        let d0 = 9 * p;
        if let Some(origin) = self.origin {
            set(d0, origin.get());
        }
        // The planes set to 1 everywhere: at most twist, benefit or turn, stage, game,
        // player to move, and one per eliminated seat and for the trigger.
        let mut full = [0usize; 16];
        let mut count = 0;
        let mut push = |plane: usize| {
            full[count] = plane;
            count += 1;
        };
        match self.fam {
            Some(Fam::Step { target, .. }) => {
                set(d0 + 1, target);
                if let Some(twist) = self.twist {
                    push((d0 + 16).wrapping_add_signed(isize::from(twist)));
                }
                if let Some(marker) = self.marker() {
                    set(d0 + 2, marker.get());
                } else if self.benefit == Some(BENEFIT_CONNECTION) {
                    push(d0 + 18);
                }
                if let Some(meeting) = self.meeting {
                    set(d0 + 3, meeting.get());
                }
            }
            Some(Fam::Reo { turn_index, .. }) => {
                push(d0 + 11 + usize::from(turn_index));
                let free = self.free();
                for &c in self.chosen.as_slice() {
                    if let Some(f) = nth_field(free, u32::from(c)) {
                        set(d0 + 4, f);
                    }
                }
            }
            None => {}
        }
        if self.stage < S_DONE {
            push(d0 + 5 + usize::from(self.stage));
        }
        push(d0 + 19 + usize::from(layout.game_index));
        let b0 = d0 + 23;
        push(b0 + rot(usize::from(pos.to_move)));
        for seat in 0..p {
            if pos.out >> seat & 1 != 0 {
                push(b0 + p + rot(seat));
            }
        }
        if let Ok(trigger) = usize::try_from(pos.trigger) {
            push(b0 + 2 * p + rot(trigger));
        }
        let nbin = b0 + 3 * p;
        let mut fill = |plane: usize, value: f32| {
            cell.fill(&mut out[size * 81 * plane..size * 81 * (plane + 1)], value);
        };
        for &plane in &full[..count] {
            fill(plane, 1.0);
        }
        if layout.supply > 0 {
            let supply = f64::from(layout.supply);
            for seat in 0..p {
                let left = supply - f64::from(pos.markers[seat].count_ones());
                fill(nbin + rot(seat), (left / supply) as f32);
            }
        }
        fill(nbin + p, (pos.idle as f64 / layout.idle_scale) as f32);
        fill(
            nbin + p + 1,
            (pos.ply as f64 / layout.ply_scale).min(1.0) as f32,
        );
    }
}

/// A float32 plane of ones (81 native-endian values): the planes set everywhere.
const ONES: [u8; 4 * 81] = {
    let one = 1.0f32.to_ne_bytes();
    let mut plane = [0u8; 4 * 81];
    let mut i = 0;
    while i < plane.len() {
        plane[i] = one[i % 4];
        i += 1;
    }
    plane
};

/// How an observation value is written: float32 (native-endian), uint8 (the value times
/// 255, rounded half to even, as numpy's `rint`) or bool (1 where the value is not 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    F32,
    U8,
    Bool,
}

impl Cell {
    /// Bytes a value.
    pub fn size(self) -> usize {
        match self {
            Cell::F32 => 4,
            Cell::U8 | Cell::Bool => 1,
        }
    }

    /// The bytes of `value`, and how many of them are used.
    pub fn encode(self, value: f32) -> ([u8; 4], usize) {
        match self {
            Cell::F32 => (value.to_ne_bytes(), 4),
            // Values lie in 0..1: the float32 product and its rounding are numpy's.
            Cell::U8 => ([(value * 255.0).round_ties_even() as u8, 0, 0, 0], 1),
            Cell::Bool => ([u8::from(value != 0.0), 0, 0, 0], 1),
        }
    }

    /// Every value of `out` set to `value`.
    fn fill(self, out: &mut [u8], value: f32) {
        let (bytes, len) = self.encode(value);
        if len == 1 {
            out.fill(bytes[0]);
        } else if value == 1.0 && out.len() == ONES.len() {
            out.copy_from_slice(&ONES);
        } else if let Some(first) = out.get_mut(..4) {
            // The value once, then the filled part copied after itself, doubling.
            first.copy_from_slice(&bytes);
            let mut done = 4;
            while done < out.len() {
                let more = done.min(out.len() - done);
                out.copy_within(..more, done);
                done += more;
            }
        }
    }
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
