"""
Self-play under OpenSpiel
=========================

MCTS plays a whole pacru game under OpenSpiel and collects training examples.

Each decision of the game records what an AlphaZero-style learner trains on:
the observation tensor, the search's visit shares (the policy target) and the
player who decided; at the end every example gets that player's return (the
value target). The search is OpenSpiel's own ``MCTSBot`` with random rollouts
and a small budget, so the script runs in seconds.

Needs the ``openspiel`` extra. Run from the repository root (with pacru
installed, or ``PYTHONPATH=src``)::

    python examples/openspiel_selfplay.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
from open_spiel.python.algorithms import mcts  # type: ignore[import-not-found,import-untyped,unused-ignore]

import pacru.openspiel


def self_play(game: Any, simulations: int, seed: int) -> tuple[list[tuple[Any, ...]], Any]:
    """One game of MCTS against itself: (observation, policy, value) examples and the end."""
    rng = np.random.RandomState(seed)
    rollouts = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=20)
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=simulations, evaluator=rollouts,
        random_state=rng, solve=False,
    )  # fmt: skip
    state = game.new_initial_state()
    pending = []
    while not state.is_terminal():
        root = bot.mcts_search(state)
        policy = np.zeros(game.num_distinct_actions(), np.float32)
        for child in root.children:
            policy[child.action] = child.explore_count
        policy /= policy.sum()
        pending.append((np.asarray(state.observation_tensor()), policy, state.current_player()))
        state.apply_action(root.best_child().action)
    returns = state.returns()
    return [(obs, pi, returns[player]) for obs, pi, player in pending], state


def main() -> None:
    pacru.openspiel.register()
    game = pyspiel.load_game("pacru_lilacru(players=2)")
    examples, final = self_play(game, simulations=8, seed=1)
    board = final.pacru_state
    name = f"{game.get_type().short_name}, {game.num_players()} players"
    print(f"{name}: {len(final.history())} decisions, {board.ply} moves")
    print(f"result: {board.outcome.result()}; returns {final.returns()}")
    sums = {round(float(pi.sum()), 6) for _, pi, _ in examples}
    print(
        f"training examples: {len(examples)}, observation size {examples[0][0].size}, "
        f"policies sum to {sums.pop()}, values {sorted({v for _, _, v in examples})}"
    )


if __name__ == "__main__":
    main()
