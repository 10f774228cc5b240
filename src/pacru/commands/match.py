"""``pacru match``: many games between bots, with a results table.

Usage::

    pacru match GAME --players N --bot SPEC [--bot SPEC ...] --games K
                [--workers W | --scheduler ADDRESS] [--seed S] [--record DIR] [--max-plies P]
                [--json FILE] [--no-progress]
                [--sprt [ELO0,ELO1] [--alpha A] [--beta B] [--elo-model MODEL]]
                [--start-layout LAYOUT] [--meeting-rule RULE] [--move-cap PLIES]

One ``--bot`` per player, e.g. ``--bot mcts:iterations=400 --bot random``
(specs: :mod:`pacru.bots.spec`; the bots of :data:`pacru.bots.BOTS`), or
your own bot class as ``--bot package.module:ClassName[:key=value,...]``
(imported from the current directory or ``PYTHONPATH``). Game
``g`` rotates the seats by ``g`` places (:mod:`pacru.bots.arena`), so use a
multiple of N games for a fair match. Games run in ``W`` worker processes
(:class:`concurrent.futures.ProcessPoolExecutor`; ``W = 1`` plays in this
process), or with ``--scheduler tcp://host:8786`` on the workers of a Dask
cluster (``distributed.Client(ADDRESS).get_executor()``; the ``selfplay``
extra installs ``distributed``): the results are the same game by game
whatever runs them. Ctrl-C stops the match: games not yet started are
cancelled and the tables (and ``--record``, ``--json``) cover the games that
finished. Without ``--seed`` a random match seed is drawn and printed, so any
match can be replayed. A progress bar goes to standard error (``rich`` when
installed, else one plain line per game); the tables go to standard output:

* per bot: games, sole wins, shared wins (D35), draws (no winner), losses,
  the win rate with its 95% Wilson interval, mean points (1 per win, 1/k per
  k-way shared win) and mean final score, each with a 95% interval;
* per seat: the same counts by turn-order seat.

``--sprt`` (2 players, an even ``--games``) tests the first bot against the
second with a pentanomial SPRT as fishtest runs it (:mod:`pacru.bots.sprt`):
games ``2k`` and ``2k + 1`` are a pair (same start, seats swapped);
``--sprt`` alone tests H0 ``elo0 = 0`` against H1 ``elo1 = 10``, ``--sprt=-5,5``
other bounds, in the ``--elo-model`` (``normalized``, the default, or
``logistic``), with error rates ``--alpha`` and ``--beta`` (0.05 each).
``--games`` is then the most games: the match stops after the first pair
whose log-likelihood ratio crosses a bound. Four lines follow the tables:
the test, the LLR with its bounds and verdict, Elo and nElo with 95%
intervals, and the pentanomial counts; ``--json`` has them under ``"sprt"``.

A program speaking the engine protocol plays as ``--bot engine:COMMAND``
(``docs/engine-protocol.rst``); if it answers an illegal move, stays silent
past its timeout or exits, it loses that game by forfeit (the ending
``forfeit``, with one line per forfeit saying who and why) and the match
goes on.

``--record DIR`` writes every game as a record (:mod:`pacru.records`, read
back with ``pacru replay``) to ``DIR/game-0001.pgn`` and so on, the player
names being the bot labels. ``--json FILE`` writes every game result and the
tables as JSON.

Exit status: 0 after the match, 2 on bad usage (an unknown bot, parameter,
game or option; the wrong number of bots; bad ``--sprt`` values; a scheduler that cannot be reached
or ``distributed`` not installed), 1 if a game failed, 130 on Ctrl-C (after
the finished games' tables).
"""

from __future__ import annotations

import argparse
import json
import math
import os
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import attrs

from pacru.commands._bots import bot_kinds, check_bots
from pacru.commands._dask import add_executor_options, executor_problem, run_games
from pacru.commands._options import (
    add_game_and_players,
    add_max_plies_option,
    finish_batch_parser,
    game_options,
    json_path_problem,
    run_seed,
    setup_problem,
)
from pacru.commands._ui import CommandExit, Output, Progress
from pacru.games import GAMES

__all__ = ["format_sprt", "format_tables", "register", "run"]

#: The Elo bounds of ``--sprt`` given alone.
DEFAULT_SPRT = "0,10"


def register(subparsers: Any) -> None:
    """Add the ``match`` subcommand to the ``pacru`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "match",
        help="play many games between bots and tabulate the results",
        # GAME is required (run() says so without it); argparse would show it as [GAME],
        # since the positional must stay optional for the --game alias.
        usage="%(prog)s GAME --bot SPEC [--bot SPEC ...] [options]",
        description=(
            "Play K games between bots (one --bot per player), seats rotated, in parallel "
            "worker processes, and print wins, draws and scores with 95% confidence intervals."
        ),
    )
    add_game_and_players(parser, optional=True)
    # The option of earlier releases, kept so old scripts run; GAME is the documented form.
    parser.add_argument(
        "--game",
        "-g",
        dest="game_option",
        type=str.lower,
        choices=GAMES,
        default=None,
        help=argparse.SUPPRESS,
    )
    parser.add_argument(
        "--bot",
        action="append",
        required=True,
        metavar="SPEC",
        help=(
            f"a bot per player: {bot_kinds()}, with parameters as in mcts:iterations=400, "
            "or your own class as package.module:ClassName"
        ),
    )
    parser.add_argument(
        "--games", "-k", type=int, default=10, metavar="K", help="games to play (default 10)"
    )
    add_executor_options(parser, "games")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="match seed")
    parser.add_argument(
        "--record", metavar="DIR", default=None, help="write each game's record into DIR"
    )
    add_max_plies_option(parser)
    parser.add_argument("--json", metavar="FILE", default=None, help="write the results as JSON")
    _add_sprt_options(parser)
    finish_batch_parser(parser, run)


def _add_sprt_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("sequential probability ratio test (2 players)")
    group.add_argument(
        "--sprt",
        nargs="?",
        const=DEFAULT_SPRT,
        default=None,
        metavar="ELO0,ELO1",
        help=(
            "test the first bot against the second, H0 elo0 against H1 elo1 (default 0,10; "
            "negative bounds as --sprt=-5,5), by pairs of games with seats swapped; "
            "--games (even) is the most games, the match stops once a bound is crossed"
        ),
    )
    group.add_argument(
        "--alpha", type=float, default=None, metavar="A", help="--sprt: false H1 rate (0.05)"
    )
    group.add_argument(
        "--beta", type=float, default=None, metavar="B", help="--sprt: false H0 rate (0.05)"
    )
    group.add_argument(
        "--elo-model",
        choices=("normalized", "logistic"),
        default=None,
        help="--sprt: the Elo of ELO0,ELO1: normalized (nElo, fishtest's default) or logistic",
    )


def run(args: argparse.Namespace, out: Output | None = None) -> int:
    """Run the match described by the parsed ``args``; returns the exit status."""
    from pacru.bots.arena import MatchInterrupted, default_labels, run_match

    out = out or Output()
    try:
        args.game = _game(args)
    except ValueError as err:
        out.error(str(err))
        return 2
    specs = list(args.bot)
    if len(specs) != args.players:
        out.error(f"{args.players} players need {args.players} --bot options, not {len(specs)}")
        return 2
    if args.games < 1 or args.max_plies < 1:
        out.error("--games and --max-plies must be positive")
        return 2
    problem = (
        setup_problem(args)
        or executor_problem(args)
        or _path_problem(args)
        or _sprt_problem(args)
    )
    if problem:  # before playing: a long match must not end in an unwritable path
        out.error(problem)
        return 2
    try:
        check_bots(specs, args.game)
    except ValueError as err:
        out.error(str(err))
        return 2
    seed = run_seed(args)
    labels = default_labels(specs)
    progress = _Progress(args.games, labels, enabled=not args.no_progress)
    count = f"up to {args.games} games (SPRT)" if args.sprt else f"{args.games} games"
    out.heading(f"{args.game}, {args.players} players, {count}, seed {seed}: {' vs '.join(labels)}")

    def play(executor: Executor | None) -> Any:
        return run_match(
            args.game,
            specs,
            args.games,
            workers=args.workers,
            executor=executor,
            seed=seed,
            options=game_options(args),
            max_plies=args.max_plies,
            record=args.record is not None,
            labels=labels,
            progress=progress.advance,
            stop=_sprt_stop(args) if args.sprt else None,
        )

    status = 0
    try:
        result = run_games(
            play,
            args.scheduler,
            progress,
            out,
            interrupted=lambda: "interrupted",
            passing=(MatchInterrupted,),
        )
    except CommandExit as stop:
        return stop.status
    except MatchInterrupted as interrupt:
        out.error(f"interrupted: {len(interrupt.result.games)} of {args.games} games finished")
        if not interrupt.result.games:
            return 130
        result, status = interrupt.result, 130
    for line in format_tables(result).splitlines():
        out.line(line)
    test = _sprt_of(result, args) if args.sprt else None
    if test is not None:
        for line in format_sprt(test, result.labels, len(result.games), args.games).splitlines():
            out.line(line)
    if args.record is not None:
        written = _write_records(result, Path(args.record), out)
        if written:
            return written
    if args.json is not None:
        try:
            Path(args.json).write_text(_to_json(result, seed, args, test), encoding="utf-8")
        except OSError as err:
            out.error(f"--json {args.json}: {err.strerror or err}")
            return 2
    return status


def _game(args: argparse.Namespace) -> str:
    """GAME, or the ``--game`` option that older releases took instead.

    Raises:
        ValueError: neither is given, or both and they differ.
    """
    positional, option = args.game, getattr(args, "game_option", None)
    if positional is not None and option is not None and positional != option:
        raise ValueError(f"GAME is {positional} but --game is {option}: give one of them")
    game = positional or option
    if game is None:
        raise ValueError(f"name the GAME to play: one of {', '.join(GAMES)}")
    return str(game)


def _writable_dir(path: Path) -> bool:
    """Whether ``path`` (or, if missing, its nearest existing ancestor) is a writable folder."""
    while not path.exists():
        if path.parent == path:
            return False
        path = path.parent
    return path.is_dir() and os.access(path, os.W_OK)


def _path_problem(args: argparse.Namespace) -> str:
    """Why ``--json`` or ``--record`` could not be written, or ``""``: checked before playing."""
    problem = json_path_problem(args.json)
    if problem:
        return problem
    if args.record is not None:
        folder = Path(args.record)
        if folder.exists() and not folder.is_dir():
            return f"--record {args.record}: is a file, not a folder"
        if not _writable_dir(folder):
            return f"--record {args.record}: the folder cannot be created or written"
    return ""


def _sprt_bounds(text: str) -> tuple[float, float]:
    """``ELO0,ELO1`` of ``--sprt`` as two numbers.

    Raises:
        ValueError: not two numbers separated by a comma.
    """
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"--sprt takes ELO0,ELO1 such as 0,10, not {text!r}") from None


def _sprt_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of :func:`pacru.bots.sprt.sprt` that the options give."""
    elo0, elo1 = _sprt_bounds(args.sprt)
    return {
        "elo0": elo0,
        "elo1": elo1,
        "alpha": 0.05 if args.alpha is None else args.alpha,
        "beta": 0.05 if args.beta is None else args.beta,
        "model": args.elo_model or "normalized",
    }


def _sprt_problem(args: argparse.Namespace) -> str:
    """What is wrong with ``--sprt`` and its options, or ``""``."""
    from pacru.bots.sprt import sprt

    if args.sprt is None:
        given = [f"--{n.replace('_', '-')}" for n in ("alpha", "beta", "elo_model")]
        given = [g for g in given if getattr(args, g[2:].replace("-", "_")) is not None]
        return f"{', '.join(given)} only go with --sprt" if given else ""
    if args.players != 2:
        return f"--sprt tests 2 players, not {args.players}"
    if args.games % 2:
        return f"--sprt plays games in pairs (seats swapped): --games {args.games} is odd"
    try:
        sprt((0, 0, 0, 0, 0), **_sprt_settings(args))  # checks the bounds and error rates
    except ValueError as err:
        return f"--sprt: {err}"
    return ""


def _sprt_of(result: Any, args: argparse.Namespace) -> Any:
    """The :class:`pacru.bots.sprt.SPRTResult` of the first bot over the pairs played."""
    from pacru.bots.sprt import pair_scores, pentanomial, sprt

    return sprt(pentanomial(pair_scores(result.games)), **_sprt_settings(args))


def _sprt_stop(args: argparse.Namespace) -> Any:
    """The ``stop`` of :func:`pacru.bots.arena.run_match`: after a pair whose LLR is out of
    bounds."""
    from pacru.bots.arena import MatchResult

    def stop(games: tuple[Any, ...]) -> bool:
        if len(games) % 2:
            return False
        return bool(_sprt_of(MatchResult((), games), args).verdict != "continue")

    return stop


def format_sprt(test: Any, labels: tuple[str, ...], games: int, most: int) -> str:
    """The lines of ``--sprt``: the test, LLR and verdict, Elo, pentanomial counts.

    ``test`` is a :class:`pacru.bots.sprt.SPRTResult` of ``labels[0]`` against
    ``labels[1]``; ``games`` were played of at most ``most``.
    """
    settings = (
        f"{test.model} Elo, elo0 {test.elo0:g}, elo1 {test.elo1:g}, "
        f"alpha {test.alpha:g}, beta {test.beta:g}"
    )
    stopped = f"; stopped after {games} of {most} games" if games < most else ""
    return "\n".join(
        [
            "",
            f"SPRT of {labels[0]} against {labels[1]}: {settings}",
            f"LLR: {test.llr:.2f} ({test.lower:.2f}, {test.upper:.2f}): {test.verdict}{stopped}",
            f"Elo: {_num(test.elo)} ± {_num(test.elo_error)} (95%), LOS: {_pct(test.los)}, "
            f"nElo: {_num(test.nelo)} ± {_num(test.nelo_error)} (95%)",
            f"Ptnml(0-2): {', '.join(map(str, test.pentanomial))} "
            f"({test.pairs} pairs of games, seats swapped)",
        ]
    )


def _write_records(result: Any, folder: Path, out: Output) -> int:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for g in result.games:
            (folder / f"game-{g.index + 1:04d}.pgn").write_text(g.record or "", encoding="utf-8")
    except OSError as err:
        out.error(f"--record {folder}: {err.strerror or err}")
        return 2
    first, last = result.games[0].index + 1, result.games[-1].index + 1
    out.line(f"Records written to {folder}/game-{first:04d}.pgn .. game-{last:04d}.pgn")
    return 0


def _to_json(result: Any, seed: int, args: argparse.Namespace, test: Any = None) -> str:
    data: dict[str, Any] = {
        "game": args.game,
        "players": args.players,
        "seed": seed,
        "bots": list(result.labels),
        "entries": [attrs.asdict(e) for e in result.entry_stats()],
        "seats": [attrs.asdict(s) for s in result.seat_stats()],
        "games": [attrs.asdict(g, filter=lambda a, _v: a.name != "record") for g in result.games],
    }
    if test is not None:
        data["sprt"] = attrs.asdict(test) | {"max_games": args.games}
    return json.dumps(_no_nan(data), indent=1) + "\n"


def _no_nan(value: Any) -> Any:
    """``value`` with NaN floats as None (JSON has no NaN)."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nan(v) for v in value]
    return value


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _num(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.2f}"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    lines = [
        "  ".join(
            h.ljust(w) if i == 0 else h.rjust(w)
            for i, (h, w) in enumerate(zip(headers, widths, strict=True))
        )
    ]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            )
        )
    return "\n".join(lines)


def format_tables(result: Any) -> str:
    """The per-bot and per-seat tables of a :class:`pacru.bots.arena.MatchResult`, as text."""
    entries = result.entry_stats()
    rows = [
        [
            e.label,
            str(e.games),
            str(e.wins),
            str(e.shared),
            str(e.draws),
            str(e.losses),
            f"{_pct(e.win_rate)} [{_pct(e.win_low)}, {_pct(e.win_high)}]",
            f"{_num(e.points)} [{_num(e.points_low)}, {_num(e.points_high)}]",
            f"{_num(e.score)} [{_num(e.score_low)}, {_num(e.score_high)}]",
        ]
        for e in entries
    ]
    head = ["bot", "games", "wins", "shared", "draws", "losses", "win rate [95% Wilson]",
            "points [95%]", "score [95%]"]  # fmt: skip
    seats = [
        [f"{s.seat + 1}", str(s.games), str(s.wins), str(s.shared), str(s.draws), str(s.losses)]
        for s in result.seat_stats()
    ]
    plies = [g.plies for g in result.games]
    secs = sum(g.seconds for g in result.games)
    terms: dict[str, int] = {}
    for g in result.games:
        terms[g.termination] = terms.get(g.termination, 0) + 1
    ends = ", ".join(f"{k} {v}" for k, v in sorted(terms.items()))
    forfeits = [f"Game {g.index + 1}: {g.reason}" for g in result.games if g.reason]
    return "\n".join(
        [
            "",
            _table(head, rows),
            "",
            _table(["seat", "games", "wins", "shared", "draws", "losses"], seats),
            "",
            f"Plies per game: mean {sum(plies) / len(plies):.1f}, min {min(plies)}, "
            f"max {max(plies)}; endings: {ends}; {secs:.1f} s of play in total.",
            *forfeits,
        ]
    )


class _Progress(Progress):
    """A progress bar on standard error: rich when installed, else a plain line per game."""

    def __init__(self, total: int, labels: tuple[str, ...], *, enabled: bool) -> None:
        super().__init__(total, "games", enabled=enabled)
        self.labels = labels
        self.done = 0

    def advance(self, result: Any) -> None:
        """Count one finished game."""
        self.done += 1
        winners = ", ".join(self.labels[result.seats[s]] for s in result.winners) or "no winner"
        self.step(f"game {self.done}/{self.total}: {winners} ({result.plies} plies)")
