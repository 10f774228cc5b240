"""The full benchmark: every game and player count, and python-chess as a yardstick.

Usage (from the repository root, with pacru installed or ``PYTHONPATH=src``)::

    python benchmarks/bench_all.py [--games shacru,pacru] [--players 2,3,4]
                                   [--seconds 2] [--seed 0] [--format text|rst]
                                   [--no-chess]

For each game and player count it reports:

playout plies/s
    Random games back to back, each ply a full ``legal_moves()`` on the new
    state, :class:`pacru.bots.RandomBot`'s choice (a move family first, then
    a move within it: :func:`pacru.bots.sample_move`) and ``apply_move()``.
    A game ends at its end or after 200 plies, as the python-chess playouts
    do. Plies per second of this process's CPU time, best of five windows
    (CPU time and the best window keep other jobs on a shared machine out of
    the figure, as :mod:`timeit` does).
legal_moves µs
    Median of ``legal_moves()`` on *fresh* states: copies of positions from
    random games with no move list cached yet. A chevron move list is lazy
    (:mod:`pacru.chevron.movelist`): the Pacru choices of a step family are
    worked out when first asked for, so ``+len µs`` also gives the median
    of ``len(legal_moves())``, which works out every family.
apply_move µs
    Median of ``apply_move(move)`` with a move object, legality check
    included. In Pacru it also generates the next player's move list (an
    unmovable player is eliminated at the start of the turn, {R15}), which
    the next ``legal_moves()`` then returns from the cache.
perft nodes/s
    ``perft(2)`` from a few positions of a seeded random game (the start and
    plies 10, 20, 30): leaf nodes per second, the last ply counted in bulk
    with ``len(legal_moves())``.
MCTS it/s
    Iterations per second of :class:`pacru.bots.MCTSBot` (default settings:
    rollouts to the end or 100 plies) searching the position at ply 10.
KiB/state
    Memory per state of a random game kept whole (a list of its states; a
    state holds no earlier state), legal move list computed, measured with
    :mod:`tracemalloc`.

When ``chess`` (python-chess, ``pip install chess``; not a dependency of
pacru) is installed, the same run measures python-chess's random playouts from
the start position: ``list(board.legal_moves)`` and a uniform choice each
ply, games to the end (no legal move, or insufficient material) or 200 plies,
once with ``push`` on one board and once with ``board.copy(stack=False)``
before each push (immutable states, as pacru's). Its windows alternate with
Pacru 2-player windows, and the ratio Pacru / chess is printed. This is a
script, not a test: it asserts nothing and its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

from playouts import _csv, print_heading, print_table  # the shared helpers of this folder

import pacru
from pacru.bots import MCTSBot, sample_move
from pacru.chevron.state import ChevronState

PLAYOUT_PLIES = 200
WINDOWS = 5

GameState = pacru.GameState[Any]


def _new(game: str, players: int) -> GameState:
    return pacru.new_game(game, players)


def playout_window(game: str, players: int, seconds: float, rng: random.Random) -> float:
    """Random-playout plies per CPU second over about ``seconds`` of wall-clock time."""
    state = _new(game, players)
    ply = plies = 0
    cpu = time.process_time()
    deadline = time.perf_counter() + seconds
    while True:
        for _ in range(32):  # look at the clock every 32 plies only
            if state.outcome is not None or ply >= PLAYOUT_PLIES:
                state, ply = _new(game, players), 0
            state.legal_moves()
            state = state.apply_move(sample_move(state, rng))
            ply += 1
            plies += 1
        if time.perf_counter() >= deadline:
            return plies / (time.process_time() - cpu)


def chess_window(seconds: float, rng: random.Random, copy: bool) -> float:
    """python-chess random-playout plies per CPU second (see the module docstring)."""
    import chess

    board = chess.Board()
    ply = plies = 0
    cpu = time.process_time()
    deadline = time.perf_counter() + seconds
    while True:
        for _ in range(32):
            moves = list(board.legal_moves)
            if not moves or ply >= PLAYOUT_PLIES or board.is_insufficient_material():
                board, ply = chess.Board(), 0
                moves = list(board.legal_moves)
            if copy:
                board = board.copy(stack=False)
            board.push(moves[rng.randrange(len(moves))])
            ply += 1
            plies += 1
        if time.perf_counter() >= deadline:
            return plies / (time.process_time() - cpu)


def best_of(window: Callable[[], float], windows: int = WINDOWS) -> float:
    return max(window() for _ in range(windows))


def sample_states(game: str, players: int, count: int, rng: random.Random) -> list[GameState]:
    """Up to ``count`` positions of random games (not over), in play order."""
    out: list[GameState] = []
    state = _new(game, players)
    while len(out) < count:
        if state.outcome is not None or state.ply >= PLAYOUT_PLIES:
            state = _new(game, players)
        out.append(state)
        state = state.apply_move(sample_move(state, rng))
    return out


def fresh(state: GameState) -> GameState:
    """An equal state with nothing cached (no legal move list yet)."""
    if isinstance(state, ChevronState):  # a state of the engine's class, built afresh
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
            state.occupied,
            state.last_move,
        )
    copy = pacru.from_position(state.to_position())
    if getattr(copy, "_legal", None) is not None:  # LSD's cache, should parsing fill it
        object.__setattr__(copy, "_legal", None)
    return copy


def call_medians(states: Sequence[GameState], rng: random.Random) -> tuple[float, float, float]:
    """Median µs of legal_moves() and len(legal_moves()) on fresh states, and of apply_move()."""
    clock = time.perf_counter_ns
    lazy, full, apply = [], [], []
    for i, state in enumerate(states):
        a, b = fresh(state), fresh(state)
        # Alternate which call goes first: a game's own caches (LSD's) warm on the first.
        if i % 2:
            t0 = clock()
            len(b.legal_moves())
            full.append(clock() - t0)
        t0 = clock()
        a.legal_moves()
        lazy.append(clock() - t0)
        if not i % 2:
            t0 = clock()
            len(b.legal_moves())
            full.append(clock() - t0)
        move = sample_move(state, rng)
        t3 = clock()
        state.apply_move(move)
        apply.append(clock() - t3)
    return (
        statistics.median(lazy) / 1000,
        statistics.median(full) / 1000,
        statistics.median(apply) / 1000,
    )


def perft(state: GameState, depth: int) -> int:
    """Leaf nodes at ``depth`` plies (bulk-counted: the last ply is ``len(legal_moves())``)."""
    moves = state.legal_moves()
    if depth == 1 or not moves:
        return len(moves) if depth == 1 else 0
    return sum(perft(state.apply_move(m), depth - 1) for m in moves)


def perft_rate(game: str, players: int, seed: int) -> float:
    """perft(2) leaf nodes per CPU second over positions at plies 0, 10, 20 and 30."""
    states = sample_states(game, players, 31, random.Random(seed))
    nodes = 0
    cpu = time.process_time()
    for ply in (0, 10, 20, 30):
        nodes += perft(fresh(states[ply]), 2)
    return nodes / (time.process_time() - cpu)


def mcts_rate(game: str, players: int, seed: int, iterations: int = 200) -> float:
    """MCTSBot iterations per CPU second from the position at ply 10."""
    state = sample_states(game, players, 11, random.Random(seed))[10]
    bot = MCTSBot(seed=seed, iterations=iterations)
    cpu = time.process_time()
    bot.search(state)
    return bot.last_iterations / (time.process_time() - cpu)


def memory_per_state(game: str, players: int, seed: int, plies: int = 100) -> float:
    """KiB per state of a random game kept whole, legal move lists computed."""
    rng = random.Random(seed)
    start = _new(game, players)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    states = [start]
    while states[-1].outcome is None and len(states) <= plies:
        state = states[-1].apply_move(sample_move(states[-1], rng))
        state.legal_moves()
        states.append(state)
    count = len(states) - 1
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del states
    return used / max(count, 1) / 1024


def have_chess() -> bool:
    try:
        import chess  # noqa: F401
    except ImportError:
        return False
    return True


HEADER = (
    "game",
    "players",
    "playout plies/s",
    "legal_moves µs",
    "+len µs",
    "apply_move µs",
    "perft nodes/s",
    "MCTS it/s",
    "KiB/state",
)


def _row(cells: Sequence[str]) -> str:
    widths = (8, 7, 15, 14, 8, 13, 13, 9, 9)
    return "  ".join(
        c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
    )


def compare_chess(seconds: float, seed: int) -> list[tuple[str, float]]:
    """Pacru 2-player and python-chess playouts in alternating windows of one run."""
    per = seconds / (3 * WINDOWS)
    rates: dict[str, float] = {"pacru 2p": 0.0, "chess push": 0.0, "chess copy": 0.0}
    rng_p, rng_c, rng_k = random.Random(seed), random.Random(seed), random.Random(seed)
    for _ in range(WINDOWS):
        rates["pacru 2p"] = max(rates["pacru 2p"], playout_window("pacru", 2, per, rng_p))
        rates["chess push"] = max(rates["chess push"], chess_window(per, rng_c, copy=False))
        rates["chess copy"] = max(rates["chess copy"], chess_window(per, rng_k, copy=True))
    return list(rates.items())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--games", type=lambda v: _csv(v, pacru.GAMES), default=list(pacru.GAMES))
    parser.add_argument(
        "--players",
        type=lambda v: [int(p) for p in _csv(v, ("2", "3", "4"))],
        default=[2, 3, 4],
    )
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="playout time per game and player count"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--format", choices=("text", "rst"), default="text")
    parser.add_argument("--no-chess", action="store_true", help="skip the python-chess yardstick")
    args = parser.parse_args(argv)

    print_heading(f"--seconds {args.seconds}")

    def measured() -> Iterator[tuple[str, ...]]:
        for game in args.games:
            for players in args.players:
                rng = random.Random(args.seed)
                rate = best_of(partial(playout_window, game, players, args.seconds / WINDOWS, rng))
                states = sample_states(game, players, 400, random.Random(args.seed + 1))
                lazy, full, apply = call_medians(states, random.Random(args.seed + 2))
                yield (
                    game,
                    str(players),
                    f"{rate:,.0f}",
                    f"{lazy:.1f}",
                    f"{full:.1f}",
                    f"{apply:.1f}",
                    f"{perft_rate(game, players, args.seed):,.0f}",
                    f"{mcts_rate(game, players, args.seed):,.0f}",
                    f"{memory_per_state(game, players, args.seed):.1f}",
                )

    print_table(args.format, HEADER, measured(), _row)
    if not args.no_chess:
        if not have_chess():
            print("# python-chess not installed (pip install chess): no comparison")
        else:
            import chess

            rates = compare_chess(3 * args.seconds, args.seed)
            base = rates[0][1]
            print(f"# python-chess {chess.__version__}, alternating windows, plies/s:")
            for name, rate in rates:
                ratio = "" if name == "pacru 2p" else f"   pacru 2p / this = {base / rate:.2f}"
                print(f"#   {name:10s} {rate:>10,.0f}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
