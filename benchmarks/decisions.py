"""Speed of the decision encoding (:mod:`pacru.encoding`) against plain random playouts.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``)::

    python benchmarks/decisions.py [--games shacru,pacru] [--players 2,3,4]
                                   [--seconds 2] [--seed 0] [--mask]

For each game and player count it reports:

public API plies/s
    Random games back to back through the public API, each ply
    ``state.apply_move(rng.choice(state.legal_moves()))``.
decisions plies/s
    The same games played through decisions: ``start(state)``, then per
    decision ``choose`` with an action drawn by ``rng.choice`` from
    ``legal_actions``, until the move is done, then
    ``apply_move(decision.move)``. With ``--mask`` each decision also builds
    its ``legal_action_mask()`` (what a learner reads).
ratio
    decisions / public API (the target is at least 0.55 on both engines).
observation µs
    Median of ``observation(decision, player)`` on the first decision of the
    states met in the playouts.

Games end at their end or after 200 plies. Rates are plies per second of
this process's CPU time, best of five windows each, the windows of the two
ways alternating, so other load on a shared machine counts as little as
possible and alike for both. The engine is the one in use (``pacru.ENGINE``;
``PACRU_ENGINE=python`` for the pure-Python one). This is a script, not a
test: it asserts nothing and its figures depend on the machine.
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
from pacru.encoding import Encoding

MAX_PLIES = 200


def _api_ply(state: GameState[Any], enc: Encoding, rng: random.Random, mask: bool) -> Any:
    return rng.choice(state.legal_moves())


def _decisions_ply(state: GameState[Any], enc: Encoding, rng: random.Random, mask: bool) -> Any:
    choice = rng.choice
    decision = enc.start(state)
    while decision.move is None:
        if mask:
            decision.legal_action_mask()
        decision = decision.choose(choice(decision.legal_actions))
    return decision.move


class _Playouts:
    """Random games played back to back with one way of picking moves."""

    def __init__(
        self,
        game: str,
        players: int,
        pick: Callable[[GameState[Any], Encoding, random.Random, bool], Any],
        seed: int,
        mask: bool = False,
    ) -> None:
        self.game, self.players, self.pick, self.mask = game, players, pick, mask
        self.rng = random.Random(seed)
        self.state = pacru.new_game(game, players)
        self.enc = Encoding.of(self.state)
        self.ply = 0

    def window(self, seconds: float) -> float:
        """Plies per CPU second over one window of ``seconds`` wall-clock time."""
        plies = 0
        state, ply, pick, enc, rng, mask = (
            self.state,
            self.ply,
            self.pick,
            self.enc,
            self.rng,
            self.mask,
        )
        cpu = time.process_time()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for _ in range(16):
                if state.outcome is not None or ply >= MAX_PLIES:
                    state = pacru.new_game(self.game, self.players)
                    ply = 0
                state = state.apply_move(pick(state, enc, rng, mask))
                plies += 1
                ply += 1
        self.state, self.ply = state, ply
        return plies / max(time.process_time() - cpu, 1e-9)


def throughput(
    game: str, players: int, seconds: float, seed: int, mask: bool = False
) -> tuple[float, float]:
    """Best plies per CPU second through the public API and through decisions.

    Windows of the two alternate (ten in all, ``seconds`` each way), so that
    load from other processes weighs on both alike.
    """
    base = _Playouts(game, players, _api_ply, seed)
    dec = _Playouts(game, players, _decisions_ply, seed, mask)
    best_base = best_dec = 0.0
    for _ in range(5):
        best_base = max(best_base, base.window(seconds / 5))
        best_dec = max(best_dec, dec.window(seconds / 5))
    return best_base, best_dec


def observation_median(game: str, players: int, seed: int, samples: int = 300) -> float:
    """Median microseconds of ``observation`` over states of seeded random games."""
    rng = random.Random(seed)
    state: GameState[Any] = pacru.new_game(game, players)
    enc = Encoding.of(state)
    times: list[float] = []
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
        state = state.apply_move(rng.choice(state.legal_moves()))
        ply += 1
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", default=",".join(pacru.GAMES))
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mask", action="store_true", help="build each decision's mask too")
    args = parser.parse_args()
    print(f"engine {pacru.ENGINE}{', masks built' if args.mask else ''}")
    print(f"{'game':8} p {'public API/s':>12} {'decisions/s':>11} {'ratio':>5} {'obs µs':>7}")
    for game in args.games.split(","):
        for players in (int(p) for p in args.players.split(",")):
            base, dec = throughput(game, players, args.seconds, args.seed, args.mask)
            obs = observation_median(game, players, args.seed)
            print(
                f"{game:8} {players:>1} {base:12.0f} {dec:11.0f} {dec / base:5.2f} {obs:7.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
