"""Fit the evaluation weights of :class:`pacru.bots.SearchBot` by self-play.

Usage (from the repository root, with pacru built with its native extension)::

    python scripts/train_eval.py [--games 200] [--nodes 500] [--epsilon 0.1]
                                 [--rounds 2] [--seed 2026] [--jobs 2]
                                 [--out src/pacru/bots/data/search_weights.json]

For every game and player count (``--configs``, default the four chevron games
with two players and Pacru with three and four), each round plays ``--games``
self-play games in the native search (``pacru._native.search_selfplay``): every
move is the search's with ``--nodes`` nodes and the current weights, or with
probability ``--epsilon`` a random candidate (so that the positions vary). Every
``--every``-th position gives one sample per player still in play: its relative
features and its share of the win (1 alone, 1/k shared, 0 otherwise). With
``--every 2`` and two players every sample has the first player to move and the
``to_move`` feature stands for the seat, so two-player Shacru and Lilacru are
fitted with ``--every 1``. The weights are then refitted by L2-regularised
logistic regression (Newton's method, numpy) on the samples of that round; the
first round starts from the crate's hand-set bootstrap weights. The games of the
last tenth of seeds are held out to report the fit's log-loss and accuracy. The
weights and these figures are written to ``--out`` (package data). The result is
exact for a seed and ``--jobs`` count does not change it (games are seeded by
their number). ``--merge`` refits only ``--configs`` and keeps the others of
``--out``; each configuration's figures record the command that fitted it."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from pacru import _native

CONFIGS = ("pacru-2", "shacru-2", "lilacru-2", "azacru-2", "pacru-3", "pacru-4")
_OUT = Path(__file__).resolve().parents[1] / "src/pacru/bots/data/search_weights.json"


def _games(
    game: str, players: int, weights: list[float], args: argparse.Namespace, round_: int
) -> list[tuple[list[list[float]], list[float], int, str]]:
    base = args.seed * 1_000_003 + round_ * 10_007

    def one(i: int) -> tuple[list[list[float]], list[float], int, str]:
        features, _, results, plies, termination = _native.search_selfplay(
            game, players, base + i, args.nodes, args.epsilon, weights, args.every, 1000
        )
        return features, results, plies, termination

    # The search releases the GIL: threads run the games in parallel.
    with ThreadPoolExecutor(args.jobs) as pool:
        return list(pool.map(one, range(args.games)))


def _fit(x: np.ndarray, y: np.ndarray, l2: float, prior: list[float]) -> np.ndarray:
    """Logistic regression with an intercept (last weight), by Newton's method.

    The penalty ``l2 * len(x) / 2 * |w - prior|^2`` pulls the weights toward the
    bootstrap weights: the features are collinear (markers and the race to
    the target; steps and chevrons that can move), and self-play outcomes are
    noisy, so an unanchored fit swings between equivalent weightings that
    search worse.
    """
    xb = np.hstack([x, np.ones((len(x), 1))])
    centre = np.array([*prior, 0.0])
    w = centre.copy()
    penalty = l2 * len(x) * np.eye(xb.shape[1])
    penalty[-1, -1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-xb @ w))
        grad = xb.T @ (p - y) + penalty @ (w - centre)
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def _scores(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """(log-loss, accuracy of the side of 0.5) of weights ``w`` on samples ``x, y``."""
    p = 1.0 / (1.0 + np.exp(-(np.hstack([x, np.ones((len(x), 1))]) @ w)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    loss = float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())
    decided = y != 0.5
    accuracy = float(((p > 0.5) == (y > 0.5))[decided].mean()) if decided.any() else math.nan
    return loss, accuracy


def train(game: str, players: int, args: argparse.Namespace, start: list[float]) -> dict[str, Any]:
    """The fitted weights of one configuration and the figures of its last round."""
    weights = list(start)
    figures: dict[str, Any] = {}
    for round_ in range(args.rounds):
        t0 = time.perf_counter()
        games = _games(game, players, weights, args, round_)
        held = max(1, len(games) // 10)
        train_rows = [g for g in games[:-held] if g[1]]
        test_rows = [g for g in games[-held:] if g[1]]
        x = np.array([f for g in train_rows for f in g[0]], dtype=np.float64)
        y = np.array([r for g in train_rows for r in g[1]], dtype=np.float64)
        w = _fit(x, y, args.l2, start)
        xt = np.array([f for g in test_rows for f in g[0]], dtype=np.float64)
        yt = np.array([r for g in test_rows for r in g[1]], dtype=np.float64)
        loss, accuracy = _scores(xt, yt, w) if len(xt) else (math.nan, math.nan)
        ends: dict[str, int] = {}
        for g in games:
            ends[g[3]] = ends.get(g[3], 0) + 1
        weights = [round(float(v), 5) for v in w[:-1]]
        figures = {
            "round": round_ + 1,
            "games": len(games),
            "samples": len(x),
            "mean_plies": round(sum(g[2] for g in games) / len(games), 1),
            "ends": dict(sorted(ends.items())),
            "held_out_games": held,
            "held_out_log_loss": round(loss, 4),
            "held_out_accuracy": round(accuracy, 4),
            "seconds": round(time.perf_counter() - t0, 1),
            "l2": args.l2,
            "command": "python scripts/train_eval.py " + " ".join(sys.argv[1:]),
        }
        print(f"{game}-{players} round {round_ + 1}: {figures}", file=sys.stderr, flush=True)
    return {"weights": weights, "figures": figures}


def main() -> None:
    """Parse the arguments, train every configuration and write the weights file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--every", type=int, default=2, help="sample every N-th ply")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--l2", type=float, default=0.02, help="pull toward the bootstrap")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--configs", nargs="*", default=list(CONFIGS))
    parser.add_argument("--out", type=Path, default=_OUT)
    parser.add_argument(
        "--merge", action="store_true", help="keep the other configurations of --out"
    )
    args = parser.parse_args()
    bootstrap = [round(float(v), 5) for v in _native.SEARCH_DEFAULT_WEIGHTS]
    data: dict[str, Any] = {
        "format": 1,
        "features": list(_native.SEARCH_FEATURES),
        "bootstrap": bootstrap,
        "weights": {},
        "training": {
            "command": "python scripts/train_eval.py " + " ".join(sys.argv[1:]),
            "seed": args.seed,
            "games": args.games,
            "nodes": args.nodes,
            "epsilon": args.epsilon,
            "every": args.every,
            "rounds": args.rounds,
            "l2": args.l2,
            "configs": {},
        },
    }
    if args.merge and args.out.exists():
        old = json.loads(args.out.read_text(encoding="utf-8"))
        data["weights"].update(old["weights"])
        data["training"]["configs"].update(old["training"]["configs"])
        data["training"]["command"] = old["training"]["command"]
    for key in args.configs:
        game, _, players = key.partition("-")
        fitted = train(game, int(players), args, bootstrap)
        data["weights"][key] = fitted["weights"]
        data["training"]["configs"][key] = fitted["figures"]
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
