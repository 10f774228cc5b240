"""The rounds of ``pacru train``: self-play, fitting, the network file; resumable.

The output folder holds ``settings.json`` (the run's settings: a run goes on only
with the same ones), per round ``round-K/CONFIG.parquet`` (the samples),
``round-K/network.bin`` and ``round-K/figures.json``, and at the end
``network.bin``, the last round's network: the file :class:`pacru.bots.NetworkBot`
takes (``network=``), and the kind of file pacru ships (``pacru/bots/data``: one
for every game, and some games' own, :func:`pacru.bots.network.network_file`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import attrs
import numpy as np

from pacru.bots.network import load_network
from pacru.bots.search import SearchUnavailableError, load_weights
from pacru.chevron.engine import SEARCH, SelfPlayGame
from pacru.training.data import play_round, read_samples, write_atomic, write_samples
from pacru.training.settings import TrainSettings, parse_config

__all__ = ["TrainSettings", "train"]

def _self_player() -> SelfPlayGame:
    """The native search's self-play game.

    Raises:
        SearchUnavailableError: pacru was built without its native extension.
    """
    play = SEARCH.self_player()
    if play is None:
        raise SearchUnavailableError(
            "pacru train needs pacru's native extension (pacru._native), which this build "
            "of pacru lacks"
        )
    return play


def train(
    output: Path,
    settings: TrainSettings,
    *,
    jobs: int = 1,
    device: str = "cpu",
    report: Callable[[str], None] = print,
    progress: Callable[[str, int], Callable[[int], None]] | None = None,
) -> Path:
    """Run (or go on with) the training in ``output``; the path of the final network.

    ``jobs`` threads play the games (the result does not depend on it); ``device`` is
    PyTorch's (``"cpu"``, ``"cuda"``). ``progress(label, total)`` gives a callback
    advanced by 1 per game.

    Raises:
        ValueError: ``output`` holds a run with other settings.
        SearchUnavailableError: pacru was built without its native extension.
    """
    from pacru.training.model import SPARSE_INPUTS, fit, to_bytes

    play = _self_player()
    output.mkdir(parents=True, exist_ok=True)
    recorded = output / "settings.json"
    wanted = attrs.asdict(settings)
    wanted["configs"] = list(settings.configs)
    if recorded.exists():
        before = json.loads(recorded.read_text("utf-8"))
        if before != wanted:
            raise ValueError(
                f"{output} holds a run with other settings ({recorded}); "
                "use another folder or the same settings"
            )
    else:
        _write_text(recorded, json.dumps(wanted, indent=1))
    network = None
    for k in range(1, settings.rounds + 1):
        folder = output / f"round-{k}"
        done = folder / "network.bin"
        if done.exists():
            network = load_network(done)
            report(f"round {k}: done before ({done})")
            continue
        for i, config in enumerate(settings.configs):
            path = folder / f"{config}.parquet"
            if path.exists():
                continue
            started = time.perf_counter()
            tick = progress(f"round {k} {config}", settings.games) if progress else None
            table, ends = play_round(
                play,
                config,
                games=settings.games,
                seed=settings.seed * 1_000_003 + k * 10_007 + i * 101,
                nodes=settings.nodes,
                epsilon=settings.epsilon,
                every=settings.every,
                network=network,
                jobs=jobs,
                progress=tick or (lambda done: None),
            )
            write_samples(path, table)
            seconds = time.perf_counter() - started
            report(f"round {k} {config}: {len(table)} samples, ends {ends}, {seconds:.0f} s")
        rounds = range(max(1, k - settings.window + 1), k + 1)
        samples = [
            read_samples([output / f"round-{j}" / f"{c}.parquet" for j in rounds])
            for c in settings.configs
        ]
        started = time.perf_counter()
        weights = [np.array(load_weights(*parse_config(c)), np.float32) for c in settings.configs]
        model, figures = fit(
            samples,
            weights,
            sparse_inputs=SPARSE_INPUTS,
            hidden=settings.hidden,
            hidden2=settings.hidden2,
            epochs=settings.epochs,
            batch_size=settings.batch_size,
            learning_rate=settings.learning_rate,
            seed=settings.seed + k,
            value_weight=settings.value_weight,
            device=device,
        )
        count = sum(len(s[2]) for s in samples)
        figures = {**figures, "samples": count, "seconds": time.perf_counter() - started}
        data = to_bytes(model)
        network = load_network(data)
        _write_text(folder / "figures.json", json.dumps(figures))
        _write_bytes(done, data)
        report(
            f"round {k}: fitted on {figures['samples']} samples, held-out log-loss "
            f"{figures['held_out_log_loss']:.4f}, accuracy {figures['held_out_accuracy']:.3f}"
        )
    final = output / "network.bin"
    last = output / f"round-{settings.rounds}" / "network.bin"
    _write_bytes(final, last.read_bytes())
    return final


def _write_text(path: Path, text: str) -> None:
    write_atomic(path, lambda tmp: tmp.write_text(text, "utf-8"))


def _write_bytes(path: Path, data: bytes) -> None:
    write_atomic(path, lambda tmp: tmp.write_bytes(data))
