"""``pacru train``: the network of :class:`pacru.bots.NetworkBot`, by self-play.

The rounds are :mod:`pacru.training`'s.

Usage::

    pacru train OUTPUT [--seed S] [--rounds R] [--games G] [--nodes N]
                [--epsilon E] [--every K] [--window W] [--epochs P]
                [--value-weight L] [--hidden H] [--hidden2 H2] [--configs pacru-2 ...]
                [--jobs J] [--device cpu|cuda] [--no-progress]

Writes ``OUTPUT/network.bin`` (the file ``network:network=PATH`` plays, and the
kind pacru ships), with each round's samples (Parquet), network and figures
under ``OUTPUT/round-K``. Running the same command again goes on where a killed
run stopped. Needs the ``train`` extra (PyTorch, pyarrow, numpy) and the native
extension.

Exit status: 0 when the network is written, 2 on bad usage (a bad option, a
folder holding a run with other settings, the extra or the extension missing),
130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pacru.commands._ui import Output, Progress

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``train`` subcommand to the ``pacru`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "train",
        help="train the network bot's evaluation by self-play (needs the train extra)",
        description=(
            "Self-play games of the native search, then a network fitted to them "
            "(PyTorch), round after round; writes OUTPUT/network.bin. Resumes a killed "
            "run in the same OUTPUT."
        ),
    )
    parser.add_argument("output", type=Path, metavar="OUTPUT", help="the run's folder")
    defaults = _defaults()
    for name, kind, text in (
        ("seed", int, "seed of the games and the fitting"),
        ("rounds", int, "self-play rounds"),
        ("games", int, "games per configuration and round"),
        ("nodes", int, "search nodes per self-play move"),
        ("epsilon", float, "probability of a random candidate move"),
        ("every", int, "sample every K-th ply"),
        ("window", int, "fit to the samples of the last W rounds"),
        ("epochs", int, "passes over the samples per round"),
        ("value_weight", float, "share of the search's value in the target (2 players)"),
        ("hidden", int, "units of the first hidden layer"),
        ("hidden2", int, "units of the second hidden layer"),
    ):
        default = defaults[name]
        help_text = f"{text} (default {default})"
        flag = "--" + name.replace("_", "-")
        parser.add_argument(flag, type=kind, default=default, help=help_text)
    parser.add_argument(
        "--configs",
        nargs="+",
        default=list(defaults["configs"]),
        metavar="GAME-PLAYERS",
        help=f"configurations to train on (default: {' '.join(defaults['configs'])})",
    )
    parser.add_argument("--jobs", type=int, default=1, help="threads playing games (default 1)")
    parser.add_argument("--device", default="cpu", help="PyTorch device (default cpu)")
    parser.add_argument("--no-progress", action="store_true", help="no progress output")
    parser.set_defaults(func=run)


def _defaults() -> dict[str, Any]:
    # The settings' defaults, read without importing PyTorch (--help works without it).
    import attrs

    from pacru.training.settings import TrainSettings

    return {f.name: f.default for f in attrs.fields(TrainSettings)}


def _ticker(enabled: bool) -> Callable[[str, int], Callable[[int], None]]:
    lock = threading.Lock()

    def make(label: str, total: int) -> Callable[[int], None]:
        bar = Progress(total, label, enabled=enabled)
        bar.__enter__()
        count = [0]

        def tick(done: int) -> None:
            with lock:
                count[0] += done
                bar.step(f"{label}: game {count[0]}/{total}", done)
                if count[0] >= total:
                    bar.__exit__(None, None, None)

        return tick

    return make


def run(args: argparse.Namespace, out: Output | None = None) -> int:
    """Run ``pacru train``; returns the exit status."""
    out = out or Output()
    try:
        from pacru.training.run import train
    except ImportError as err:
        out.error(f"pacru train needs the train extra (pip install 'pacru[train]'): {err}")
        return 2
    from pacru.bots.search import SearchUnavailableError
    from pacru.training.settings import TrainSettings

    try:
        settings = TrainSettings(
            seed=args.seed,
            rounds=args.rounds,
            games=args.games,
            nodes=args.nodes,
            epsilon=args.epsilon,
            every=args.every,
            window=args.window,
            epochs=args.epochs,
            value_weight=args.value_weight,
            hidden=args.hidden,
            hidden2=args.hidden2,
            configs=tuple(args.configs),
        )
        if args.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
        _check_device(args.device)
        final = train(
            args.output,
            settings,
            jobs=args.jobs,
            device=args.device,
            report=lambda line: print(line, file=sys.stderr, flush=True),
            progress=_ticker(not args.no_progress),
        )
    except (ValueError, SearchUnavailableError) as err:
        out.error(_flag_message(err))
        return 2
    except KeyboardInterrupt:
        out.error("interrupted: run the same command again to go on")
        return 130
    out.line(str(final))
    return 0


def _check_device(device: str) -> None:
    """Refuse a ``--device`` PyTorch cannot use here before any game is played (PyTorch
    itself would fail only at the first fit, with a traceback).

    Raises:
        ValueError: not a PyTorch device name, or a CUDA device on a machine without one.
    """
    import torch

    try:
        kind = torch.device(device).type
    except (RuntimeError, ValueError):
        raise ValueError(f"--device {device}: not a PyTorch device, such as cpu or cuda") from None
    if kind == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"--device {device}: PyTorch finds no CUDA device here")


def _flag_message(err: Exception) -> str:
    """The message of ``err`` with a setting's name as its flag: ``rounds must be ...``
    (from :class:`pacru.training.TrainSettings`) reads ``--rounds must be ...``."""
    import attrs

    from pacru.training.settings import TrainSettings

    names = "|".join(f.name for f in attrs.fields(TrainSettings))
    return re.sub(rf"^({names})\b", lambda m: "--" + m.group().replace("_", "-"), str(err))
