"""Random-playout speed of every game: plies per second and per-call medians.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``)::

    python benchmarks/playouts.py [--games shacru,pacru] [--players 2,3,4]
                                  [--seconds 2] [--seed 0] [--format text|rst]
                                  [--draw families|uniform] [--rounds 5]
                                  [--engine native|python]
    python benchmarks/playouts.py --draw engines --games lsd [--players 2,3,4]
                                  [--seconds 8] [--rounds 8]

``--engine`` picks the chevron engine (default: ``pacru.ENGINE``, the native one
when the package was built with it); ``--engine python`` runs the script again
with ``PACRU_ENGINE=python``, the pure-Python engine.

``--draw uniform`` measures what users write: ``rng.choice(state.legal_moves())``
then ``apply_move`` every ply (``len`` of the complete list included, no move
family drawn first), a new game at each game end, against python-chess's own
random playouts in the same process: ``rng.choice(list(board.legal_moves))``,
``board.push``, a new board at the end of a game (no legal move, insufficient
material, or the 75-move rule). Rounds of the two alternate (``--rounds`` of
each, ``--seconds`` split among them, CPU time of this process), so load from
other processes hits both alike; the table gives the median plies per CPU
second of each and the median of the per-round ratios pacru / chess. It needs
``chess`` (``pip install chess``, the ``bench`` extra).

``--draw engines`` (LSD only, on a build with the native engine) measures the same
uniform loop on LSD's native engine and on its Python engine
(:func:`pacru.lsd.native.on_python`) in this process: rounds of the two alternate, each
game starting from its engine's start state, and the table gives the median plies per
CPU second of each and the median of the per-round ratios native / Python.

Without ``--draw uniform`` or ``engines`` (``--draw families``, the default):

For each game and player count it plays random games back to back with the
random player of ``pacru play`` (:func:`pacru.commands.play.random_move`) and
reports:

* plies/s: complete plies per second of CPU time, each ``legal_moves()`` on
  the new state, the random choice and ``apply_move()``, with no timer inside
  the loop; the best of five windows over the first half of ``--seconds``
  (CPU time and the best window keep other load on a shared machine out of
  the figure);
* games: random games finished in that half;
* legal_moves median: microseconds of the *first* ``legal_moves()`` call on
  each new state, i.e. uncached: :class:`pacru.ChevronState` caches its legal
  moves, so the call is timed on the state ``apply_move`` just returned,
  before anything else touches it (the second half of ``--seconds``);
* apply_move median: microseconds of ``apply_move(move)`` with a move object
  (this includes the legality check, a membership test on the cached list);
* generate median (chevron games): microseconds of the move generator
  :func:`pacru.chevron.movegen.generate` (the native engine's, on the native
  engine) run directly on the same states, the true cost of a move list
  whichever call happens to pay for it.

Where an engine already computes the next state's moves inside
``apply_move`` (for instance to decide a pass or the end of the game), that
work is counted in ``apply_move`` and the later call is cheap: the plies/s
column is the figure to compare across games. This is a script, not a test:
it asserts nothing and its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any

import pacru
from pacru.chevron.movegen import generate
from pacru.chevron.state import ChevronState
from pacru.commands.play import random_move


def _fresh_game(game: str, players: int) -> pacru.GameState[Any]:
    return pacru.new_game(game, players)


def throughput(
    game: str, players: int, seconds: float, rng: random.Random, windows: int = 5
) -> tuple[float, int]:
    """Best plies per CPU second over ``windows`` equal time windows, and games finished.

    Random games are played back to back. Rates are per second of this
    process's CPU time (:func:`time.process_time`), so other processes on a
    shared machine do not count against it, and the best window is reported,
    as :mod:`timeit` reports the fastest run.
    """
    state = _fresh_game(game, players)
    games = 0
    best = 0.0
    for _ in range(windows):
        plies = 0
        cpu_start = time.process_time()
        deadline = time.perf_counter() + seconds / windows
        while True:
            for _ in range(64):  # check the clock every 64 plies only
                if state.outcome is not None:
                    games += 1
                    state = _fresh_game(game, players)
                state = state.apply_move(random_move(state, rng))
                plies += 1
            if time.perf_counter() >= deadline:
                best = max(best, plies / (time.process_time() - cpu_start))
                break
    return best, games


def uniform_round(
    game: str,
    players: int,
    seconds: float,
    rng: random.Random,
    state: Any,
    fresh: Callable[[], Any] | None = None,
) -> tuple[float, Any]:
    """Plies per CPU second of ``rng.choice(legal_moves())`` playouts, and the state reached.

    A game that ends is followed by ``fresh()`` (default: ``pacru.new_game(game, players)``).
    """
    if fresh is None:
        fresh = partial(_fresh_game, game, players)
    if state is None:
        state = fresh()
    plies = 0
    cpu_start = time.process_time()
    deadline = time.perf_counter() + seconds
    choice = rng.choice
    while True:
        for _ in range(64):  # check the clock every 64 plies only
            if state.outcome is not None:
                state = fresh()
            state = state.apply_move(choice(state.legal_moves()))
        plies += 64
        if time.perf_counter() >= deadline:
            return plies / (time.process_time() - cpu_start), state


def chess_round(seconds: float, rng: random.Random, board: Any) -> tuple[float, Any]:
    """Plies per CPU second of python-chess random playouts, and the board reached."""
    import chess

    if board is None:
        board = chess.Board()
    plies = 0
    cpu_start = time.process_time()
    deadline = time.perf_counter() + seconds
    choice = rng.choice
    while True:
        for _ in range(64):
            moves = list(board.legal_moves)
            if not moves or board.halfmove_clock >= 150 or board.is_insufficient_material():
                board = chess.Board()
                moves = list(board.legal_moves)
            board.push(choice(moves))
        plies += 64
        if time.perf_counter() >= deadline:
            return plies / (time.process_time() - cpu_start), board


def uniform_versus_chess(
    game: str, players: int, seconds: float, rounds: int, rng: random.Random
) -> tuple[float, float, float]:
    """Median pacru and chess plies per CPU second over alternating rounds, and the
    median of the per-round ratios pacru / chess."""
    window = seconds / (2 * rounds)
    state: Any = None
    board: Any = None
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(rounds):
        rate, state = uniform_round(game, players, window, rng, state)
        mine.append(rate)
        rate, board = chess_round(window, rng, board)
        theirs.append(rate)
    ratios = [a / b for a, b in zip(mine, theirs, strict=True)]
    return statistics.median(mine), statistics.median(theirs), statistics.median(ratios)


def lsd_engines(
    players: int, seconds: float, rounds: int, rng: random.Random
) -> tuple[float, float, float]:
    """Median plies per CPU second of uniform LSD playouts on the native engine and on the
    Python engine in this process (alternating rounds, each game from its engine's start
    state), and the median of the per-round ratios native / Python."""
    from pacru.lsd.native import on_python

    native_start = pacru.new_game("lsd", players)
    python_start = on_python(native_start)  # the Python engine's state, whatever the build
    window = seconds / (2 * rounds)
    native: Any = None
    python: Any = None
    fast: list[float] = []
    slow: list[float] = []
    for _ in range(rounds):
        rate, native = uniform_round("lsd", players, window, rng, native, lambda: native_start)
        fast.append(rate)
        rate, python = uniform_round("lsd", players, window, rng, python, lambda: python_start)
        slow.append(rate)
    ratios = [a / b for a, b in zip(fast, slow, strict=True)]
    return statistics.median(fast), statistics.median(slow), statistics.median(ratios)


def call_medians(
    game: str, players: int, seconds: float, rng: random.Random
) -> tuple[float, float, float | None]:
    """Median microseconds of an uncached legal_moves(), of apply_move(), and of the
    chevron move generator run directly (None for LSD)."""
    clock = time.perf_counter_ns
    gen: list[int] = []
    app: list[int] = []
    raw: list[int] = []
    state = _fresh_game(game, players)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if state.outcome is not None:
            state = _fresh_game(game, players)
        t0 = clock()
        state.legal_moves()
        t1 = clock()
        move = random_move(state, rng)
        t2 = clock()
        state = state.apply_move(move)
        t3 = clock()
        gen.append(t1 - t0)
        app.append(t3 - t2)
        if isinstance(state, ChevronState) and state.outcome is None:
            if pacru.ENGINE == "native":  # the extension's generator, on a fresh state
                copy = _uncached(state)
                t4 = clock()
                copy.legal_moves()
                raw.append(clock() - t4)
                continue
            args = (state.rules, state.markers, state.chevrons, state.to_move, state.occupied)
            t4 = clock()
            generate(*args, state.trigger >= 0)
            raw.append(clock() - t4)
    direct = statistics.median(raw) / 1000 if raw else None
    return statistics.median(gen) / 1000, statistics.median(app) / 1000, direct


def _uncached(state: ChevronState) -> ChevronState:
    """An equal state of the engine's class with no move list yet."""
    return ChevronState(
        state.rules,
        state.players,
        state.markers,
        state.chevrons,
        state.to_move,
        state.out,
        state.trigger,
        state.idle,
        state.ply,
        state.outcome,
    )


def machine() -> str:
    """One line naming the CPU, core count, OS and Python."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()} ({platform.python_implementation()})"
    )


def print_heading(*settings: str, when: str = "%Y-%m-%d") -> None:
    """The two comment lines above a table: the machine, then the date (``when``), pacru's
    version, ``settings`` and the load average."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"# {machine()}")
    print(
        f"# {time.strftime(when)}, pacru {pacru.__version__}, "
        + ", ".join([*settings, f"load average {load}"])
    )


def print_table(
    fmt: str,
    header: Sequence[str],
    rows: Iterable[Sequence[str]],
    row_text: Callable[[Sequence[str]], str],
) -> None:
    """``rows``, measured one after the other: ``fmt`` ``"text"`` prints each as it comes
    (``row_text``), ``"rst"`` prints a reST table of them all at the end."""
    if fmt == "text":
        print(row_text(header), flush=True)
    done = []
    for row in rows:
        done.append(row)
        if fmt == "text":
            print(row_text(row), flush=True)
    if fmt == "rst":
        print(_rst_table(header, done))


def _csv(value: str, allowed: Sequence[str]) -> list[str]:
    items = [v.strip().lower() for v in value.split(",") if v.strip()]
    bad = [v for v in items if v not in allowed]
    if bad or not items:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(allowed)}, not {value!r}")
    return items


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--games",
        type=lambda v: _csv(v, pacru.GAMES),
        default=list(pacru.GAMES),
        help="comma-separated games (default: all)",
    )
    parser.add_argument(
        "--players",
        type=lambda v: [int(p) for p in _csv(v, ("2", "3", "4"))],
        default=[2, 3, 4],
        help="comma-separated player counts (default: 2,3,4)",
    )
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="time per game and player count (default 2)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random players")
    parser.add_argument("--format", choices=("text", "rst"), default="text")
    parser.add_argument(
        "--draw",
        choices=("families", "uniform", "engines"),
        default="families",
        help="families: the random player of `pacru play`; uniform: rng.choice over the "
        "complete move list, against python-chess in the same process; engines: the same "
        "LSD playouts on the native and the Python engine in the same process",
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="--draw uniform: rounds of each (default 5)"
    )
    parser.add_argument(
        "--engine",
        choices=("native", "python"),
        default=pacru.ENGINE,
        help=f"the chevron engine (default: {pacru.ENGINE}, pacru.ENGINE)",
    )
    args = parser.parse_args(argv)
    if args.engine != pacru.ENGINE:
        if args.engine == "native":
            parser.error("the native engine is not available (pacru.ENGINE is 'python')")
        # The engine is chosen at import: run again with the pure-Python one forced.
        env = {**os.environ, "PACRU_ENGINE": "python"}
        script = [sys.executable, os.path.abspath(__file__)]
        os.execve(sys.executable, [*script, *(sys.argv[1:] if argv is None else argv)], env)
    if args.draw == "uniform":
        return _main_uniform(args)
    if args.draw == "engines":
        if pacru.ENGINE != "native" or args.games != ["lsd"]:
            parser.error("--draw engines needs the native engine and --games lsd")
        return _main_engines(args)

    header = (
        "game",
        "players",
        "plies/s",
        "games",
        "legal_moves µs",
        "apply_move µs",
        "generate µs",
    )
    print_heading(f"engine {pacru.ENGINE}", f"--seconds {args.seconds}")

    def measured() -> Iterator[tuple[str, ...]]:
        for game in args.games:
            for players in args.players:
                rng = random.Random(args.seed)
                rate, games = throughput(game, players, args.seconds / 2, rng)
                gen, app, direct = call_medians(game, players, args.seconds / 2, rng)
                yield (
                    game,
                    str(players),
                    f"{rate:,.0f}",
                    str(games),
                    f"{gen:.1f}",
                    f"{app:.1f}",
                    "-" if direct is None else f"{direct:.1f}",
                )

    print_table(args.format, header, measured(), _row)
    return 0


def _main_uniform(args: argparse.Namespace) -> int:
    print_heading(
        f"engine {pacru.ENGINE}",
        f"--draw {args.draw}",
        f"--seconds {args.seconds}",
        when="%Y-%m-%d %H:%M %Z",
    )
    header = ("game", "players", "pacru plies/s", "chess plies/s", "ratio")

    def measured() -> Iterator[tuple[str, ...]]:
        for game in args.games:
            for players in args.players:
                rng = random.Random(args.seed)
                mine, theirs, ratio = uniform_versus_chess(
                    game, players, args.seconds, args.rounds, rng
                )
                yield (game, str(players), f"{mine:,.0f}", f"{theirs:,.0f}", f"{ratio:.2f}x")

    print_table(args.format, header, measured(), partial(_row, widths=(8, 8, 14, 14, 6)))
    return 0


def _main_engines(args: argparse.Namespace) -> int:
    print_heading(
        "LSD engines native and python",
        f"--draw {args.draw}",
        f"--seconds {args.seconds}",
        f"--rounds {args.rounds}",
        when="%Y-%m-%d %H:%M %Z",
    )
    header = ("game", "players", "native plies/s", "python plies/s", "ratio")

    def measured() -> Iterator[tuple[str, ...]]:
        for players in args.players:
            rng = random.Random(args.seed)
            fast, slow, ratio = lsd_engines(players, args.seconds, args.rounds, rng)
            yield ("lsd", str(players), f"{fast:,.0f}", f"{slow:,.0f}", f"{ratio:.2f}x")

    print_table(args.format, header, measured(), partial(_row, widths=(8, 8, 14, 14, 6)))
    return 0


_WIDTHS = (8, 8, 10, 6, 15, 14, 12)


def _row(cells: Sequence[str], widths: Sequence[int] = _WIDTHS) -> str:
    return "  ".join(
        c.rjust(w) if i > 1 else c.ljust(w)
        for i, (c, w) in enumerate(zip(cells, widths, strict=True))
    )


def _rst_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)
    head = "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()
    lines = [rule, head, rule]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.append(rule)
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
