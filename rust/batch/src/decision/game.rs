//! One game of a batch and the decision under way in it.

use std::sync::Arc;

use pacru_engine::geometry::{bits, nth_field};
use pacru_engine::{Field, Move, MoveList, Position, StepMove, Termination};

use super::family::{Fam, Opt};
use super::lists::{keep, new_list};
use super::{
    action_twist, Actions, DecisionError, Layout, Next, Stage, BENEFIT_CONNECTION, MEETING, ORIGIN,
    PASS, RELINQUISH, TURNS,
};
use crate::rollout::shape;

/// A short list kept inline, so that copying a game allocates nothing: the actions chosen
/// in a move under way (at most five: origin, target, twist, benefit, meeting; or origin,
/// turn and three fields given up) or the fields given up (at most four).
#[derive(Clone, Copy, Debug)]
pub(super) struct Inline<T, const N: usize> {
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
    pub(super) fn push(&mut self, item: T) -> Result<(), DecisionError> {
        let slot = self
            .items
            .get_mut(usize::from(self.len))
            .ok_or(DecisionError::NoFamily)?;
        *slot = item;
        self.len += 1;
        Ok(())
    }

    pub(super) fn as_slice(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
}

/// One game of a batch: its position, and the decision under way (none once it is over).
/// Cheap to clone: what a move's decisions share is behind `Arc`s.
#[derive(Clone, Debug)]
pub struct Game {
    /// The legal moves, with the position they are legal in (and how they are laid out:
    /// read from it where needed, not copied here, as every decision copies a game).
    pub(super) list: Arc<MoveList>,
    pub(super) stage: Stage,
    /// The chosen chevron's field (None before it is chosen).
    pub(super) origin: Option<Field>,
    pub(super) fam: Option<Fam>,
    /// The options of the step family entered, and the candidates still open among them
    /// (a bit per option: a Pacru step has at most a connection, nine crossing fields and
    /// no field; a Shacru or Azacru step three twists).
    pub(super) options: Option<Arc<[Opt]>>,
    pub(super) cands: u64,
    /// The twist (-1..=1) and the benefit action of the step under way, once known.
    pub(super) twist: Option<i8>,
    pub(super) benefit: Option<u16>,
    /// The meeting field of a finished step (None: none, or not chosen yet).
    pub(super) meeting: Option<Field>,
    /// Positions, among the free fields, of the fields given up so far.
    pub(super) chosen: Inline<u8, 4>,
    /// The legal actions of the decision (empty once the game is over or the move done).
    pub legal: Actions,
    pub(super) prefix: Inline<u16, 8>,
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
        let mut legal = Actions::default();
        let pos = list.position();
        if pos.outcome.is_none() {
            if list.is_pass() {
                legal.insert(PASS);
            } else {
                let origins = if shape(&list).turns > 0 {
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
            stage: Stage::Origin,
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
        self.stage == Stage::Done
    }

    /// The stage of the move under way ([`Stage::Done`] once it is complete).
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// How many fields given up by a reorientation are chosen so far {R14}.
    pub fn relinquished_count(&self) -> usize {
        self.chosen.as_slice().len()
    }

    /// The move a finished decision ([`Next::Done`]) chose, as the list's `get` gives it;
    /// None before the move is complete.
    pub fn chosen_move(&self) -> Option<Move> {
        if self.stage != Stage::Done {
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
        self.step_keeping(layout, action).map(drop)
    }

    /// As [`Game::choose_keeping`]: the index in the old position's list of the move that
    /// `action` completed, if it completed one (a bot's move checks it is the one meant).
    pub fn step_keeping(
        &mut self,
        layout: &Layout,
        action: u16,
    ) -> Result<Option<u64>, DecisionError> {
        let done = self.step(action)?;
        if let Some(at) = done {
            let next = self.list.apply_index(at).ok_or(DecisionError::NotListed)?;
            // A second reference, not a move of the whole game out of its place.
            let old = Arc::clone(&self.list);
            *self = Game::start(layout, next);
            keep(old);
        }
        Ok(done)
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
            Stage::Origin => {
                if action == PASS {
                    return Ok(g.finish(0));
                }
                let origin = Field::try_from(action - ORIGIN);
                g.origin = Some(origin.map_err(|_| DecisionError::NoFamily)?);
                g.target_stage()
            }
            Stage::Target => {
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
            Stage::Relinquish => {
                if let Some(Fam::Reo { .. }) = g.fam {
                    let f = action - RELINQUISH;
                    let below = g.free() & ((1u128 << f) - 1);
                    let below = u8::try_from(below.count_ones());
                    g.chosen.push(below.map_err(|_| DecisionError::NoFamily)?)?;
                }
                g.relinquish_stage()
            }
            Stage::Twist => {
                let twist = action_twist(action).ok_or(DecisionError::NoFamily)?;
                g.keep(|o| o.twist == twist);
                g.twist = Some(twist);
                g.with_options(Game::option_stage)
            }
            Stage::Benefit => {
                g.keep(|o| o.benefit() == action);
                g.benefit = Some(action);
                g.with_options(Game::option_stage)
            }
            _ => {
                // Stage::Meeting
                let meeting = Field::try_from(action - MEETING);
                let meeting = meeting.map_err(|_| DecisionError::NoFamily)?;
                g.with_options(|g, options| g.finish_step(options, Some(meeting)))
            }
        }
    }

    /// `stage(self, options)` with the options of the step family entered, lent out of the
    /// game and put back (not shared: an atomic count less each way per decision).
    fn with_options<R>(&mut self, stage: impl FnOnce(&mut Game, &[Opt]) -> R) -> R {
        let options = self.options.take();
        let result = stage(self, options.as_deref().unwrap_or(&[]));
        self.options = options;
        result
    }

    /// Whether the game ended by a limit (the move cap D32, idle rounds D33), not a rule.
    pub fn truncated(&self) -> bool {
        matches!(
            self.list.position().outcome.map(|o| o.termination),
            Some(Termination::MoveCap | Termination::IdleLimit)
        )
    }
}
