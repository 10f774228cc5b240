"""Self-play samples for the network: native search games, stored as Parquet.

A sample is one position seen by one player: ``active`` (the sparse inputs that
are on, ascending, uint16; ``pacru._native.NETWORK_SPARSE_INPUTS`` in all),
``features`` (the search's 15 relative features, float32), ``result`` (the
player's share of the win, float32) and ``value`` (the search's value of the
position for the player, in logits, float32; NaN with more than two players, where
the paranoid search's value is not the player's chance, or where no search ran).
A configuration is ``game-players`` (e.g. ``"pacru-2"``); its games are seeded by
their number, so the samples of a seed do not depend on the number of threads.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.parquet as pq

from pacru.bots.search import load_weights
from pacru.chevron.engine import SelfPlayGame
from pacru.training.settings import parse_config

__all__ = ["Samples", "play_round", "read_samples", "write_atomic", "write_samples"]

#: The arrays of a set of samples: (active inputs as a list per sample, features
#: float32 (n, 15), results float32 (n,), search values in logits float32 (n,)).
Samples = tuple[
    list[npt.NDArray[np.uint16]],
    npt.NDArray[np.float32],
    npt.NDArray[np.float32],
    npt.NDArray[np.float32],
]

_MAX_PLIES = 1000


def play_round(
    play: SelfPlayGame,
    config: str,
    *,
    games: int,
    seed: int,
    nodes: int,
    epsilon: float,
    every: int,
    network: Any | None,
    jobs: int,
    progress: Callable[[int], None] = lambda done: None,
) -> tuple[pa.Table, dict[str, int]]:
    """The samples of ``games`` self-play games of ``config`` as a table, and how the
    games ended (termination value -> games). Game ``i`` (seed ``seed + i``) samples
    every ``every``-th ply from ply ``i % every`` on, so that the games' samples have
    each seat to move in turn. ``network`` is the extension's ``Network`` that values
    the leaves, or None for the shipped linear evaluation. ``progress`` is called with
    1 after each game."""
    game, players = parse_config(config)
    weights = list(load_weights(game, players))

    def one(i: int) -> tuple[Any, ...]:
        # Game i samples the plies i, i + every, ... (modulo every): with a fixed first
        # ply, every-th plies would see only some seats to move (with two players and
        # every 2, only the first player), where the search values every seat's moves.
        played: tuple[Any, ...] = play(
            game, players, seed + i, nodes, epsilon, weights, every, _MAX_PLIES, network, i
        )
        progress(1)
        return played

    # The search releases the GIL: threads play the games in parallel.
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        played = list(pool.map(one, range(games)))
    active: list[list[int]] = []
    features: list[list[float]] = []
    results: list[float] = []
    values: list[float] = []
    ends: dict[str, int] = {}
    for f, boards, r, v, _, termination in played:
        ends[termination] = ends.get(termination, 0) + 1
        features.extend(f)
        active.extend(boards)
        results.extend(r)
        values.extend(v)
    table = pa.table(
        {
            "active": pa.array(active, type=pa.list_(pa.uint16())),
            "features": pa.array(features, type=pa.list_(pa.float32())),
            "result": pa.array(results, type=pa.float32()),
            "value": pa.array(values, type=pa.float32()),
        }
    )
    return table, ends


def write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    """``write(temporary)`` then a rename to ``path``: the file is whole or absent."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".part")
    write(temporary)
    os.replace(temporary, path)


def write_samples(path: Path, table: pa.Table) -> None:
    """``table`` as the Parquet file ``path``, atomically."""
    write_atomic(path, lambda tmp: pq.write_table(table, tmp))


def read_samples(paths: Iterable[Path]) -> Samples:
    """The samples of the Parquet files ``paths``, concatenated."""
    active: list[npt.NDArray[np.uint16]] = []
    features: list[npt.NDArray[np.float32]] = []
    results: list[npt.NDArray[np.float32]] = []
    scores: list[npt.NDArray[np.float32]] = []
    for path in paths:
        table = pq.read_table(path)
        column = table.column("active").combine_chunks()
        offsets = column.offsets.to_numpy()
        values = column.values.to_numpy().astype(np.uint16)
        active.extend(np.split(values, offsets[1:-1]))
        flat = table.column("features").combine_chunks().values.to_numpy()
        features.append(flat.astype(np.float32).reshape(len(table), -1))
        results.append(table.column("result").to_numpy().astype(np.float32))
        scores.append(table.column("value").to_numpy().astype(np.float32))
    if not results:
        empty = np.zeros(0, np.float32)
        return [], np.zeros((0, 15), np.float32), empty, empty
    return active, np.concatenate(features), np.concatenate(results), np.concatenate(scores)
