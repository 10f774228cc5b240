"""Computer players for every pacru game.

=================  ==========================================================
protocol           :class:`Bot`: ``name``, ``choose_move(state) -> move``;
                   built with a ``seed`` (and an optional ``time_limit``);
                   the built-in bots subclass it, so a list of them is a
                   ``list[Bot]``; any object with the two members is a bot
games              Lilacru, Shacru, Azacru, Pacru, LSD; 2 to 4 players
reference bots     :class:`RandomBot` (uniform, by move family first),
                   :class:`GreedyBot` (one ply, best evaluation),
                   :class:`MCTSBot` (UCT for N players, max^n selection,
                   leaves valued by the evaluation; PUCT with an
                   ``evaluator``, or batches of encoded leaves with a
                   ``batch_evaluator``; :meth:`MCTSBot.search` gives a
                   :class:`SearchResult` for training),
                   :class:`SearchBot` (native alpha-beta, learned
                   evaluation; chevron games; :mod:`.search`),
                   :class:`NetworkBot` (the same search, leaves valued by a
                   network trained by self-play; :mod:`.network`)
other programs     ``engine:COMMAND`` plays a program speaking the engine
                   protocol (:mod:`.engine`); ``pacru engine`` serves one
evaluation         :func:`evaluate`: each player's value of a position from
                   the rules' goals (:mod:`.evaluation`)
random games       :func:`random_rollouts`: returns and lengths of ``n``
                   uniform random games from a position (numpy)
by name            :func:`make_bot` reads ``"mcts:iterations=400"`` (:mod:`.spec`)
playing            :func:`play_game`; many games: :func:`.arena.run_match`
                   and ``pacru match`` (your own bots too); a round robin
                   with Elo ratings: :func:`.ladder.run_ladder`
=================  ==========================================================

>>> import pacru
>>> from pacru.bots import GreedyBot, RandomBot, play_game
>>> final = play_game(pacru.new_game("shacru"), [GreedyBot(seed=1), RandomBot(seed=2)])
>>> final.is_terminal
True

Seeded bots are deterministic: the same seeds replay the same game (as long
as no ``time_limit`` is set). See the documentation page "Bots" for how the
bots compare.
"""

from pacru.bots.base import (
    Bot,
    Uniform,
    outcome_rewards,
    play_game,
    sample_move,
    sample_reorientations,
    score_rewards,
)
from pacru.bots.evaluation import evaluate
from pacru.bots.mcts import BatchEvaluator, Evaluator, MCTSBot, SearchResult
from pacru.bots.network import NetworkBot
from pacru.bots.rollouts import random_rollouts
from pacru.bots.search import SearchBot, SearchUnavailableError
from pacru.bots.simple import GreedyBot, Objective, RandomBot
from pacru.bots.spec import BOTS, make_bot, parse_spec

__all__ = [
    "BOTS",
    "BatchEvaluator",
    "Bot",
    "Evaluator",
    "GreedyBot",
    "MCTSBot",
    "NetworkBot",
    "Objective",
    "RandomBot",
    "SearchBot",
    "SearchResult",
    "SearchUnavailableError",
    "Uniform",
    "evaluate",
    "make_bot",
    "outcome_rewards",
    "parse_spec",
    "play_game",
    "random_rollouts",
    "sample_move",
    "sample_reorientations",
    "score_rewards",
]
