"""
Write your own bot
==================

Write your own bot and play it against the reference bots.

``CornerShy`` is a Shacru bot with one idea: take a neutral field when it can
(a chevron arriving on a neutral field marks it, {S-R3}), prefer moves that
keep its chevron away from the board edge (a chevron facing off the board
cannot move: :ref:`worked example 13 <example-13>`), and otherwise move at
random. A bot is any object
with a ``name`` and ``choose_move(state)`` (the :class:`pacru.bots.Bot`
protocol); everything it needs comes from the state.

The script plays it against :class:`~pacru.bots.RandomBot` and
:class:`~pacru.bots.GreedyBot`, seats alternating, and prints the results.

Run from the repository root (with pacru installed, or ``PYTHONPATH=src``)::

    python examples/custom_bot.py
"""

from __future__ import annotations

import random
from typing import Any

import pacru
from pacru.bots import Bot, GreedyBot, RandomBot, play_game
from pacru.geometry import NEIGHBOUR


class CornerShy:
    """Take neutral fields, stay off the edge; a bot for the chevron games."""

    name = "corner-shy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_move(self, state: pacru.GameState[Any]) -> Any:
        assert isinstance(state, pacru.ChevronState), "CornerShy plays the chevron games"
        moves = list(state.legal_moves())
        best = max(self._value(state, m) for m in moves)
        return self._rng.choice([m for m in moves if self._value(state, m) == best])

    @staticmethod
    def _value(state: pacru.ChevronState, move: pacru.Move) -> int:
        if move.target is None:  # a pass or a reorientation
            return 0
        gains = 2 if state.marker_at(move.target) is None else 0
        # Fewer on-board neighbours means nearer the edge: 8 in the middle, 3 in a corner.
        room = sum(1 for n in NEIGHBOUR[move.target] if n >= 0)
        return gains + (1 if room == 8 else 0)


def score(bot: Bot, opponent: Bot, games: int) -> tuple[int, int, int]:
    """(wins, shared wins, losses) of ``bot`` over ``games`` Shacru games, seats alternating."""
    wins = shared = losses = 0
    for i in range(games):
        seats = [bot, opponent] if i % 2 == 0 else [opponent, bot]
        final = play_game(pacru.new_game("shacru", players=2), seats)
        me = final.players[seats.index(bot)]
        if me in final.winners:
            if len(final.winners) == 1:
                wins += 1
            else:
                shared += 1
        else:
            losses += 1
    return wins, shared, losses


def main() -> None:
    games = 10
    for opponent in (RandomBot(seed=1), GreedyBot(seed=2)):
        wins, shared, losses = score(CornerShy(seed=3), opponent, games)
        print(
            f"corner-shy vs {opponent.name}: {wins} won, {shared} shared, {losses} lost of {games}"
        )


if __name__ == "__main__":
    main()
