"""Speed of the decision encoding (:mod:`pacru.encoding`) against plain random playouts.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``)::

    python benchmarks/decisions.py [--games shacru,pacru] [--players 2,3,4]
                                   [--seconds 2] [--seed 0]

For each game and player count it reports:

legal_moves plies/s
    Random games back to back, each ply ``legal_moves()`` on the new state,
    a random move drawn as :class:`pacru.bots.RandomBot` draws it
    (:func:`pacru.bots.sample_move`: a family, then a move in it) and
    ``apply_move()``.
decisions plies/s
    The same games played through decisions: ``start(state)``, then per
    decision ``legal_action_mask()`` and a uniform random legal action passed
    to ``choose``, until the move is done, then ``apply_move(decision.move)``.
ratio
    decisions / legal_moves (the issue asks for at least 0.5).
observation µs
    Median of ``observation(decision, player)`` on the first decision of the
    states met in the playouts.

Games end at their end or after 200 plies. Rates are plies per second of
this process's CPU time, best of five windows, so other load on a shared
machine counts as little as possible. This is a script, not a test: it
asserts nothing and its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import pacru
from pacru.base import GameState
from pacru.bots import sample_move
from pacru.encoding import Encoding

MAX_PLIES = 200


def _legal_moves_ply(state: GameState[Any], enc: Encoding, rng: random.Random) -> Any:
    return sample_move(state, rng)


def _decisions_ply(state: GameState[Any], enc: Encoding, rng: random.Random) -> Any:
    decision = enc.start(state)
    while decision.move is None:
        decision.legal_action_mask()
        actions = decision.legal_actions
        decision = decision.choose(actions[rng.randrange(len(actions))])
    return decision.move


def throughput(
    game: str,
    players: int,
    pick: Callable[[GameState[Any], Encoding, random.Random], Any],
    seconds: float,
    seed: int,
    windows: int = 5,
) -> float:
    """Best plies per CPU second over ``windows`` windows of random games played with ``pick``."""
    rng = random.Random(seed)
    state = pacru.new_game(game, players)
    enc = Encoding.of(state)
    best = 0.0
    ply = 0
    for _ in range(windows):
        plies = 0
        cpu = time.process_time()
        deadline = time.perf_counter() + seconds / windows
        while time.perf_counter() < deadline:
            for _ in range(16):
                if state.outcome is not None or ply >= MAX_PLIES:
                    state = pacru.new_game(game, players)
                    ply = 0
                state = state.apply_move(pick(state, enc, rng))
                plies += 1
                ply += 1
        best = max(best, plies / max(time.process_time() - cpu, 1e-9))
    return best


def observation_median(game: str, players: int, seed: int, samples: int = 300) -> float:
    """Median microseconds of ``observation`` over states of seeded random games."""
    rng = random.Random(seed)
    state = pacru.new_game(game, players)
    enc = Encoding.of(state)
    times = []
    ply = 0
    while len(times) < samples:
        if state.outcome is not None or ply >= MAX_PLIES:
            state = pacru.new_game(game, players)
            ply = 0
        decision = enc.start(state)
        player = rng.randrange(players)
        for _ in range(20):
            t0 = time.perf_counter()
            enc.observation(decision, player)
            times.append(time.perf_counter() - t0)
        state = state.apply_move(sample_move(state, rng))
        ply += 1
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", default=",".join(pacru.GAMES))
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    header = f"{'game':8} {'p':>1} {'legal_moves/s':>13} {'decisions/s':>11} {'ratio':>5} {'obs µs':>7}"
    print(header)
    for game in args.games.split(","):
        for players in (int(p) for p in args.players.split(",")):
            base = throughput(game, players, _legal_moves_ply, args.seconds, args.seed)
            dec = throughput(game, players, _decisions_ply, args.seconds, args.seed)
            obs = observation_median(game, players, args.seed)
            print(
                f"{game:8} {players:>1} {base:13.0f} {dec:11.0f} {dec / base:5.2f} {obs:7.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
