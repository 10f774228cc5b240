//! One learner step of `pacru.gymnasium_vector.PacruVectorEnv` against a built-in bot, a
//! game at a time: the learner's decision, the restart of a game that ends, and the bots'
//! moves until the learner's seat decides again ([`Turn::step`]). The Python path
//! (`VectorEnv.step`, then `VectorEnv.play_opponents` or `native_bots`) gives the same
//! games, ends and counts; `tests/vector` compares the two.
//!
//! Every draw is a SplitMix64 hash of a seed, the game's row and its episode
//! ([`game_seed`], `pacru.vector.draws.game_seeds`): the bots' moves (salt 0) and, for
//! `seat=None`, the learner's seat per episode (salt 1).

use crate::decision::{DecisionError, Game, Layout};
use crate::opponent::{play_bots_in, Bot};
use crate::rollout::returns_of;

pub use crate::rng::mix;
use crate::rng::GAMMA;

/// The seed of game `row` in its episode `episode`: `mix(mix(first ^ row * GAMMA) ^
/// (episode + 1) * GAMMA)`, `first = mix(base)` for `pacru.vector.draws.hash_base`'s
/// `base` (`game_seeds`, wrapping arithmetic).
pub fn game_seed(first: u64, row: usize, episode: i64) -> u64 {
    let z = mix(first ^ (row as u64).wrapping_mul(GAMMA));
    // The episode's two's-complement bits, as numpy's uint64 view of an int64 reads them.
    mix(z ^ episode
        .cast_unsigned()
        .wrapping_mul(GAMMA)
        .wrapping_add(GAMMA))
}

/// The learner's seat: the same in every game, or drawn per game and episode.
#[derive(Clone, Copy, Debug)]
pub enum Seats {
    Fixed(u8),
    /// `game_seed(first, row, episode) % players` (`pacru.vector.play.draw_seats`).
    Drawn {
        first: u64,
        players: u8,
    },
}

impl Seats {
    pub fn of(&self, row: usize, episode: i64) -> u8 {
        match *self {
            Seats::Fixed(seat) => seat,
            Seats::Drawn { first, players } => {
                let seat = game_seed(first, row, episode) % u64::from(players.max(1));
                // Below `players`: it fits.
                u8::try_from(seat).unwrap_or(0)
            }
        }
    }
}

/// What a learner step of every game shares.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    pub layout: &'a Layout,
    /// The first decision of every new game.
    pub start: &'a Game,
    /// `"same-step"` reset: a game that ends restarts in the step (the bots play on in
    /// the new game); else `"next-step"`: its end is shown, and it restarts at the next.
    pub same_step: bool,
    /// Decisions after which a game is cut (truncated, zero rewards).
    pub max_steps: Option<u32>,
    pub bot: Bot,
    /// `mix(base)` of the bots' seed.
    pub bot_first: u64,
    pub seats: Seats,
}

/// The end of a game met in a step: each seat's returns and how it ended.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct End {
    pub rewards: [f32; 4],
    /// Ended by the rules (else truncated: the move cap, the idle rounds, `max_steps`).
    pub terminated: bool,
}

/// What a learner step did to one game (the game itself, at a decision of the learner's
/// seat, or over, or cut (`shown`), is stepped in place: [`Turn::step_in`]).
#[derive(Clone, Debug)]
pub struct Row {
    /// The row shows an end (next-step): player -1, all actions allowed, zero observation.
    pub shown: bool,
    /// The last end met in the step, if any (its rewards and flags are the row's).
    pub end: Option<End>,
    /// Same-step: the game of that end as it ended (over, or cut by `max_steps`), which
    /// the step restarted (`pacru.vector.final` reads its last position).
    pub last: Option<Game>,
    pub steps: i32,
    pub episode: i64,
    /// The reward of the learner's seat of the episode it decided in.
    pub reward: f32,
    /// The learner's seat in the game's episode now.
    pub seat: u8,
}

/// Why a game's step failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The learner's action is not legal in its decision.
    Illegal(i64),
    /// The engine refused a decision (a bug).
    Decision(DecisionError),
    /// A bot's move could not be played through the encoding (a bug).
    Bot,
    /// The game restarted twice in the bots' moves: `max_steps` cuts every game before
    /// its learner decides.
    Restarts,
}

impl Turn<'_> {
    /// The end of `game` after `steps` decisions: its returns once over, or a cut.
    fn end_of(&self, game: &Game, steps: i32) -> Option<End> {
        if game.is_over() {
            return Some(End {
                rewards: returns_of(game.pos()),
                terminated: !game.truncated(),
            });
        }
        let cut = self
            .max_steps
            .is_some_and(|m| i64::from(steps) >= i64::from(m));
        cut.then(End::default)
    }

    /// The bots' moves in `game` until `seat` decides, in place: the decisions taken.
    fn bots(
        &self,
        row: usize,
        game: &mut Game,
        seat: u8,
        steps: i32,
        episode: i64,
    ) -> Result<i32, TurnError> {
        let budget = match self.max_steps {
            Some(m) => u32::try_from((i64::from(m) - i64::from(steps)).max(0)).unwrap_or(u32::MAX),
            None => u32::MAX,
        };
        let seed = game_seed(self.bot_first, row, episode);
        let taken = play_bots_in(self.layout, game, i32::from(seat), self.bot, seed, budget)
            .ok_or(TurnError::Bot)?;
        Ok(i32::try_from(taken).unwrap_or(i32::MAX))
    }

    /// Game `row`'s learner step on a copy of `game`: the game after it, and the row.
    pub fn step(
        &self,
        row: usize,
        game: &Game,
        restart: bool,
        action: i64,
        steps: i32,
        episode: i64,
    ) -> Result<(Game, Row), TurnError> {
        let mut g = if restart {
            self.start.clone() // restarted anyway: no copy of the old game
        } else {
            game.clone()
        };
        let row = self.step_in(row, &mut g, restart, action, steps, episode)?;
        Ok((g, row))
    }

    /// Game `row`'s learner step, in place: `action` in `game` (at `steps` decisions of
    /// episode `episode`), or its restart where `restart` (next-step: the row showed an
    /// end, and the action is ignored); then the bots' moves, as the docs of the module
    /// say. An illegal action ([`TurnError::Illegal`]) leaves `game` unchanged; after any
    /// other error it is meaningless. The old positions' move lists are kept for this
    /// thread's next positions where no other game shares them.
    pub fn step_in(
        &self,
        row: usize,
        game: &mut Game,
        restart: bool,
        action: i64,
        steps: i32,
        episode: i64,
    ) -> Result<Row, TurnError> {
        let learner = self.seats.of(row, episode);
        let (mut steps, mut episode) = if restart {
            std::mem::replace(game, self.start.clone()).retire();
            (0, episode + 1)
        } else {
            let a = u16::try_from(action).map_err(|_| TurnError::Illegal(action))?;
            match game.choose_keeping(self.layout, a) {
                Ok(()) => {}
                Err(DecisionError::IllegalAction(_)) => return Err(TurnError::Illegal(action)),
                Err(e) => return Err(TurnError::Decision(e)),
            }
            (steps.saturating_add(1), episode)
        };
        let mut end = None;
        let mut last = None;
        let mut shown = false;
        if self.same_step {
            if let Some(e) = self.end_of(game, steps) {
                end = Some(e);
                last = Some(std::mem::replace(game, self.start.clone()));
                (steps, episode) = (0, episode + 1);
            }
            // The seat is drawn again after a restart: the new episode's learner decides.
            let mut restarts = 0;
            loop {
                let seat = self.seats.of(row, episode);
                if !self.bots_decide(game, seat) {
                    break;
                }
                let taken = self.bots(row, game, seat, steps, episode)?;
                steps = steps.saturating_add(taken);
                if let Some(e) = self.end_of(game, steps) {
                    restarts += 1;
                    if restarts > 1 {
                        return Err(TurnError::Restarts);
                    }
                    end = Some(e);
                    last = Some(std::mem::replace(game, self.start.clone()));
                    (steps, episode) = (0, episode + 1);
                } else if taken == 0 {
                    break; // nothing was played (no budget left): never loop
                }
            }
        } else if let Some(e) = self.end_of(game, steps) {
            (end, shown) = (Some(e), true);
        } else {
            let seat = self.seats.of(row, episode);
            if self.bots_decide(game, seat) {
                let taken = self.bots(row, game, seat, steps, episode)?;
                steps = steps.saturating_add(taken);
                if let Some(e) = self.end_of(game, steps) {
                    (end, shown) = (Some(e), true);
                }
            }
        }
        let reward = end.map_or(0.0, |e| e.rewards[usize::from(learner)]);
        Ok(Row {
            shown,
            end,
            last,
            steps,
            episode,
            reward,
            seat: self.seats.of(row, episode),
        })
    }

    /// Whether a bot starts a move in `game`: it goes on, a seat other than `seat` is to
    /// move, and no move is under way.
    fn bots_decide(&self, game: &Game, seat: u8) -> bool {
        !game.is_over() && game.prefix().is_empty() && game.pos().to_move != seat
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pacru_engine::{Position, Rules};

    fn layout() -> Layout {
        Layout {
            rules: Rules::new(pacru_engine::Game::Pacru),
            players: 2,
            game_index: 3,
            ply_scale: 1000.0,
            idle_scale: 100.0,
            supply: 31,
        }
    }

    fn turn<'a>(
        layout: &'a Layout,
        start: &'a Game,
        same_step: bool,
        max_steps: Option<u32>,
    ) -> Turn<'a> {
        Turn {
            layout,
            start,
            same_step,
            max_steps,
            bot: Bot::Random,
            bot_first: mix(7),
            seats: Seats::Fixed(1),
        }
    }

    #[test]
    fn seeds_and_seats_are_those_of_the_python_hashes() {
        // pacru.vector.draws.game_seeds(3, episodes, salt=1) and draw_seats(3, ..., 3).
        let first = mix(8_057_464_973_209_016_152); // hash_base(3, 1)
        assert_eq!(game_seed(first, 2, 5), 14_795_265_064_965_453_108);
        let seats = Seats::Drawn { first, players: 3 };
        let drawn: Vec<u8> = [0, 0, 5, 7]
            .iter()
            .enumerate()
            .map(|(i, &e)| seats.of(i, e))
            .collect();
        assert_eq!(drawn, vec![1, 1, 0, 2]);
    }

    #[test]
    fn an_illegal_action_is_refused_and_a_shown_end_restarts() {
        let layout = layout();
        let start = Game::start(&layout, Position::start(2).unwrap());
        let t = turn(&layout, &start, false, None);
        assert_eq!(
            t.step(0, &start, false, 999, 0, 0).unwrap_err(),
            TurnError::Illegal(999)
        );
        assert_eq!(
            t.step(0, &start, false, -1, 0, 0).unwrap_err(),
            TurnError::Illegal(-1)
        );
        // A row showing an end restarts (episode + 1); the bots open for seat 1.
        let (game, row) = t.step(0, &start, true, 999, 40, 3).unwrap();
        assert_eq!(
            (row.episode, row.shown, row.end, row.seat),
            (4, false, None, 1)
        );
        assert_eq!(game.pos().to_move, 1);
        assert!(game.prefix().is_empty());
        assert!(row.steps >= 1, "the bot's move took its decisions");
    }

    #[test]
    fn max_steps_cuts_shown_next_step_and_refused_when_the_bots_are_cut_twice() {
        let layout = layout();
        let start = Game::start(&layout, Position::start(2).unwrap());
        let action = start.legal.iter().next().unwrap();
        // Next-step: the learner's first decision reaches max_steps=1: the end is shown.
        let (_, row) = turn(&layout, &start, false, Some(1))
            .step(0, &start, false, i64::from(action), 0, 0)
            .unwrap();
        assert!(row.shown);
        assert_eq!(row.end, Some(End::default()));
        assert!(
            row.last.is_none(),
            "next-step: the game itself shows its end"
        );
        assert_eq!((row.steps, row.episode, row.reward), (1, 0, 0.0));
        // Same-step: the cut restarts the game, whose bot's moves (seat 0) are cut twice.
        let err = turn(&layout, &start, true, Some(1))
            .step(0, &start, false, i64::from(action), 0, 0)
            .unwrap_err();
        assert_eq!(err, TurnError::Restarts);
    }

    #[test]
    fn a_same_step_restart_hands_back_the_game_as_it_ended() {
        let layout = layout();
        let start = Game::start(&layout, Position::start(2).unwrap());
        let action = start.legal.iter().next().unwrap();
        let t = Turn {
            seats: Seats::Fixed(0),
            ..turn(&layout, &start, true, Some(1))
        };
        // The learner's first decision reaches max_steps=1: cut, and restarted at once.
        let (game, row) = t.step(0, &start, false, i64::from(action), 0, 0).unwrap();
        assert_eq!(row.end, Some(End::default()));
        assert_eq!((row.steps, row.episode, row.shown), (0, 1, false));
        let last = row.last.expect("the cut game is handed back");
        let cut = start.choose(&layout, action).unwrap();
        assert_eq!(last.prefix(), cut.prefix());
        assert_eq!(last.pos().ply, cut.pos().ply);
        assert_eq!(game.prefix(), start.prefix());
        // A step that ends nothing hands nothing back.
        let on = turn(&layout, &start, true, None);
        let (_, row) = on.step(0, &start, false, i64::from(action), 0, 0).unwrap();
        assert!(row.end.is_none() && row.last.is_none());
    }
}
