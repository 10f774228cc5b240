"""
Play a random game
==================

Play one seeded random game of Shacru with the library API and print it.

Run from the repository root (with pacru installed, or ``PYTHONPATH=src``)::

    python examples/play_random_game.py [GAME] [PLAYERS] [SEED]

The random player is :class:`pacru.bots.RandomBot`, the one ``pacru play``
uses: for the chevron games it picks a move family (a chevron step, or a
chevron's reorientation by one turn) first and a move within it second.
"""

from __future__ import annotations

import sys
from typing import Any

import pacru
from pacru.bots import RandomBot


def main(game: str = "shacru", players: int = 2, seed: int = 1) -> None:
    line: pacru.Game[Any] = pacru.Game.new(game, players)  # the line of play: start state and moves
    state = line.state
    bot = RandomBot(seed=seed)
    print(f"{game} for {players}: {', '.join(state.players)}")
    while state.outcome is None:
        player = state.current_player
        move = bot.choose_move(state)
        state = line.push(move)  # states are immutable: a new one each ply
        print(f"{state.ply:3}. {player:<7} {move}")
    print(state)
    assert state.outcome is not None
    print("scores:", ", ".join(f"{p} {n}" for p, n in state.scores.items()))
    print("result:", state.outcome.result(), f"({state.outcome.termination.value})")
    print("moves:", " ".join(str(m) for m in line.moves))


if __name__ == "__main__":
    args = sys.argv[1:]
    main(
        args[0] if args else "shacru",
        int(args[1]) if len(args) > 1 else 2,
        int(args[2]) if len(args) > 2 else 1,
    )
