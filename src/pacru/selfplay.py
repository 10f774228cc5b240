"""Self-play datasets: games between copies of a bot, one Parquet row per decision.

=================  ==========================================================
make               :func:`run_selfplay` (``pacru selfplay`` on the command line)
read               :func:`load` -> :class:`pyarrow.dataset.Dataset`
extra              ``pacru[selfplay]``: pyarrow, Dask distributed, numpy
where              this process, local worker processes, or any
                   :class:`concurrent.futures.Executor` (a Dask cluster's
                   ``Client.get_executor()``)
=================  ==========================================================

A run plays ``games`` games of one game and player count, every seat played
by the same bot spec (:mod:`pacru.bots.spec`), and writes under its directory::

    DIR/manifest.json              how the run was made (see SelfPlayRun.manifest)
    DIR/shards/shard-00000.parquet one row per decision, games 0 .. shard_games - 1
    DIR/records/shard-00000.pgn    the same games as records (pacru.records)

Each move is chosen in the decisions of :mod:`pacru.encoding` (one or more
per move, by the same player); a row holds one decision:

=================  =============  ==========================================
column             type           meaning
=================  =============  ==========================================
``game``           int64          the game number in the run, 0-based
``ply``            int32          moves played before this one (0-based)
``decision``       int32          the step within the move, 0-based
``player``         int8           the seat to move (turn order, 0-based)
``observation``    list<float32>  ``Encoding.observation(decision, player)``
                                  flattened (C order), from the mover's view
``legal_actions``  list<int32>    the decision's legal actions, ascending
``action``         int32          the action chosen
``policy``         list<float32>  the target over ``legal_actions``: MCTS
                                  visit shares, one-hot for other bots
``returns``        list<float32>  the game's :meth:`GameState.returns` per
                                  seat (all rows of a game share it)
``termination``    string         how the game ended: the
                                  :class:`pacru.Termination` value (e.g.
                                  ``"last-player"``, ``"move-cap"``), or
                                  ``"max-plies"`` when the run's
                                  ``max_plies`` stopped it
``truncated``      bool           the game was stopped by a limit, not by a
                                  rule: ``"max-plies"``, the move cap of
                                  ruling D32 (``"move-cap"``) or the idle
                                  rounds of ruling D33 (``"idle-limit"``);
                                  its returns say nothing of who was winning
=================  =============  ==========================================

**Policy.** A bot with ``search(state)`` (:class:`pacru.bots.MCTSBot`) plays
its search's ``best_move``, and the policy of a decision after the chosen
prefix ``p`` gives action ``a`` the visits of the searched moves whose action
sequence (:meth:`Encoding.actions`) starts with ``p + (a,)``, over the visits
of the searched moves that start with ``p`` (:func:`visit_policy`). Other
bots play ``choose_move(state)`` and the policy is one-hot on the action taken.

**Reproducible.** Game ``g``'s bot on seat ``s`` is seeded with
:func:`pacru.bots.arena.game_seed` ``(seed, g, s)``, and shard ``k`` holds the
fixed games ``k * shard_games`` up to the next shard, so a run writes the same
rows whatever the number of workers or whoever runs the shards. The workers
return each shard's bytes and this process writes them (to a temporary name,
then an atomic rename), so the workers need no shared file system, a worker
that dies loses nothing already written (Dask runs its shard again
elsewhere), and an interrupted run resumes: a shard whose file exists is not
played again.

A game still going after ``max_plies`` moves is stopped; its ``returns`` are
those of a running game (zeros, :meth:`GameState.returns`), its
``termination`` is ``"max-plies"``, ``truncated`` is true and its record's
result is ``*``. Filter on ``truncated`` to keep value targets that a rule
decided: ``load(d).to_table(filter=~pc.field("truncated"))``. The games are
deterministic with perfect information: there are no chance nodes.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from pacru._cursor import LIMITS as _TERMINATION_LIMITS
from pacru._parallel import run_tasks
from pacru._version import __version__
from pacru.base import GameState
from pacru.bots.arena import game_seed
from pacru.bots.spec import make_bot

__all__ = [
    "FORMAT",
    "LIMITS",
    "MAX_PLIES",
    "SCHEMA",
    "SelfPlayRun",
    "ShardResult",
    "ShardTask",
    "load",
    "play_shard",
    "read_manifest",
    "records_path",
    "run_selfplay",
    "shard_path",
    "visit_policy",
]

#: The manifest's ``format``: the layout of DIR and the columns.
FORMAT = "pacru-selfplay/2"

#: The columns of a shard (see the module docstring).
SCHEMA = pa.schema(
    [
        pa.field("game", pa.int64(), nullable=False),
        pa.field("ply", pa.int32(), nullable=False),
        pa.field("decision", pa.int32(), nullable=False),
        pa.field("player", pa.int8(), nullable=False),
        pa.field("observation", pa.list_(pa.float32()), nullable=False),
        pa.field("legal_actions", pa.list_(pa.int32()), nullable=False),
        pa.field("action", pa.int32(), nullable=False),
        pa.field("policy", pa.list_(pa.float32()), nullable=False),
        pa.field("returns", pa.list_(pa.float32()), nullable=False),
        pa.field("termination", pa.string(), nullable=False),
        pa.field("truncated", pa.bool_(), nullable=False),
    ]
)

#: The ``termination`` of a game the run's ``max_plies`` stopped.
MAX_PLIES = "max-plies"

#: The ``termination`` values that are limits, not rules (``truncated`` games): ``max-plies``
#: and the limits the environments truncate at (the move cap, the idle rounds).
LIMITS = frozenset({MAX_PLIES, *(t.value for t in _TERMINATION_LIMITS)})


def _options(value: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted(items))


@attrs.frozen
class SelfPlayRun:
    """What a self-play run plays (picklable; the same run gives the same data).

    Attributes:
        game: a game name (:data:`pacru.GAMES`).
        players: the player count.
        bot: the bot spec every seat plays (:mod:`pacru.bots.spec`).
        games: how many games.
        seed: the run seed (game ``g``, seat ``s``: ``game_seed(seed, g, s)``).
        options: keyword options of :func:`pacru.new_game` (a mapping is accepted).
        shard_games: games per shard (the last shard may hold fewer).
        max_plies: stop a game still going after this many moves.
    """

    game: str
    players: int
    bot: str
    games: int
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_options)
    shard_games: int = 16
    max_plies: int = 2000

    @property
    def shards(self) -> int:
        """The number of shards."""
        return math.ceil(self.games / self.shard_games)

    def shard_range(self, shard: int) -> range:
        """The game numbers of shard ``shard``."""
        start = shard * self.shard_games
        return range(start, min(start + self.shard_games, self.games))

    def check(self) -> None:
        """Fail early on a bad run.

        Raises:
            ValueError: a count below 1, or a bad game, player count, option
                or bot spec.
        """
        from pacru.games import new_game

        if self.games < 1 or self.shard_games < 1 or self.max_plies < 1:
            raise ValueError("games, shard_games and max_plies must be positive")
        new_game(self.game, self.players, **dict(self.options))
        make_bot(self.bot, 0)

    def manifest(self) -> dict[str, Any]:
        """The manifest (``DIR/manifest.json``): the run and the versions that made it.

        Keys: ``format`` (:data:`FORMAT`), ``game``, ``players``, ``options``,
        ``bot``, ``seed``, ``games``, ``shard_games``, ``shards``,
        ``max_plies``, ``pacru_version``, ``encoding_version``,
        ``num_actions``, ``observation_shape`` and ``columns`` (name -> Arrow
        type). Nothing in it depends on the workers or the time.
        """
        from pacru.encoding import Encoding

        encoding = Encoding.for_game(self.game, self.players, **dict(self.options))
        return {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "bot": self.bot,
            "seed": self.seed,
            "games": self.games,
            "shard_games": self.shard_games,
            "shards": self.shards,
            "max_plies": self.max_plies,
            "pacru_version": __version__,
            "encoding_version": encoding.version,
            "num_actions": encoding.num_actions,
            "observation_shape": list(encoding.observation_shape),
            "columns": {f.name: str(f.type) for f in SCHEMA},
        }


@attrs.frozen
class ShardTask:
    """One shard of a run: what a worker gets."""

    run: SelfPlayRun
    index: int


@attrs.frozen
class ShardResult:
    """A played shard, as a worker returns it.

    Attributes:
        index: the shard number.
        parquet: the Parquet file's bytes (:data:`SCHEMA`).
        records: the games' records text (:func:`pacru.records.write_records`).
        games: games played; ``decisions``: rows; ``plies``: moves.
        seconds: wall-clock seconds of play.
        endings: ``(termination, games)`` pairs, sorted: how the shard's
            games ended (the ``termination`` column's values).
    """

    index: int
    parquet: bytes = attrs.field(repr=False)
    records: str = attrs.field(repr=False)
    games: int
    decisions: int
    plies: int
    seconds: float
    endings: tuple[tuple[str, int], ...] = ()


def visit_policy(
    searched: Sequence[tuple[Sequence[int], int]],
    prefix: Sequence[int],
    legal_actions: Sequence[int],
) -> list[float]:
    """The visit shares of ``legal_actions`` after the chosen ``prefix``.

    Args:
        searched: ``(action sequence, visits)`` of each searched move.
        prefix: the actions already chosen in this move.
        legal_actions: the decision's legal actions.

    Returns:
        One share per legal action: the visits of the searched moves that
        continue ``prefix`` with that action over the visits of all searched
        moves that continue ``prefix`` (so the shares sum to 1).

    Raises:
        ValueError: no searched move with visits continues ``prefix``.

    >>> from pacru.selfplay import visit_policy
    >>> visit_policy([((3, 7), 6), ((3, 8), 2), ((5,), 2)], (), [3, 5, 9])
    [0.8, 0.2, 0.0]
    >>> visit_policy([((3, 7), 6), ((3, 8), 2), ((5,), 2)], (3,), [7, 8])
    [0.75, 0.25]
    """
    depth = len(prefix)
    head = tuple(prefix)
    counts = dict.fromkeys(legal_actions, 0)
    total = 0
    for actions, visits in searched:
        if len(actions) > depth and tuple(actions[:depth]) == head:
            total += visits
            action = actions[depth]
            if action in counts:
                counts[action] += visits
    if total <= 0:
        raise ValueError(f"no searched move with visits continues the prefix {head}")
    return [counts[a] / total for a in legal_actions]


class _Columns:
    """The rows of a shard, column by column (lists grow; the table is built once)."""

    def __init__(self) -> None:
        self.game: list[int] = []
        self.ply: list[int] = []
        self.decision: list[int] = []
        self.player: list[int] = []
        self.observation: list[Any] = []
        self.legal: list[tuple[int, ...]] = []
        self.action: list[int] = []
        self.policy: list[list[float]] = []
        self.returns: list[tuple[float, ...]] = []
        self.termination: list[str] = []

    def table(self) -> pa.Table:
        obs = [np.asarray(o, dtype=np.float32).ravel() for o in self.observation]
        return pa.Table.from_arrays(
            [
                pa.array(self.game, pa.int64()),
                pa.array(self.ply, pa.int32()),
                pa.array(self.decision, pa.int32()),
                pa.array(self.player, pa.int8()),
                _lists(obs, pa.float32(), np.float32),
                _lists(self.legal, pa.int32(), np.int32),
                pa.array(self.action, pa.int32()),
                _lists(self.policy, pa.float32(), np.float32),
                _lists(self.returns, pa.float32(), np.float32),
                pa.array(self.termination, pa.string()),
                pa.array([t in LIMITS for t in self.termination], pa.bool_()),
            ],
            schema=SCHEMA,
        )


def _lists(rows: Sequence[Any], kind: pa.DataType, dtype: Any) -> pa.Array:
    """A list array from rows of numbers, built from one flat buffer and offsets."""
    lengths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    offsets = np.zeros(len(rows) + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    if rows:
        flat = np.concatenate([np.asarray(r, dtype=dtype) for r in rows])
    else:
        flat = np.array([], dtype=dtype)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(flat, kind))


def _search(bot: Any, state: GameState[Any]) -> tuple[Any, list[tuple[Any, int]] | None]:
    """The bot's move and, for a bot that searches, ``(move, visits)`` of the searched moves."""
    search = getattr(bot, "search", None)
    if search is None:
        return bot.choose_move(state), None
    result = search(state)
    return result.best_move, list(zip(result.moves, result.visits, strict=True))


def _play_game(run: SelfPlayRun, encoding: Any, index: int, rows: _Columns) -> tuple[Any, int]:
    """Play game ``index`` of ``run``, appending its decisions to ``rows``; (record, plies)."""
    from pacru.game import Game
    from pacru.games import new_game
    from pacru.records import record_from_game

    state: GameState[Any] = new_game(run.game, run.players, **dict(run.options))
    game = Game(state)
    bots = [make_bot(run.bot, game_seed(run.seed, index, s)) for s in range(run.players)]
    first = len(rows.game)
    while state.current_player is not None and game.ply < run.max_plies:
        seat = state.players.index(state.current_player)
        move, visits = _search(bots[seat], state)
        chosen = encoding.actions(state, move)
        searched = (
            None
            if visits is None
            else [(encoding.actions(state, m), v) for m, v in visits if v > 0]
        )
        decision = encoding.start(state)
        for step, action in enumerate(chosen):
            legal = decision.legal_actions
            if searched is None:
                policy = [1.0 if a == action else 0.0 for a in legal]
            else:
                policy = visit_policy(searched, chosen[:step], legal)
            rows.game.append(index)
            rows.ply.append(game.ply)
            rows.decision.append(step)
            rows.player.append(decision.player)
            rows.observation.append(encoding.observation(decision, decision.player))
            rows.legal.append(tuple(legal))
            rows.action.append(action)
            rows.policy.append(policy)
            decision = decision.choose(action)
        state = game.push(move)
    returns = tuple(state.returns())
    outcome = state.outcome
    ended = MAX_PLIES if outcome is None else outcome.termination.value
    rows.returns.extend([returns] * (len(rows.game) - first))
    rows.termination.extend([ended] * (len(rows.game) - first))
    record = record_from_game(
        game,
        names=dict.fromkeys(state.players, run.bot),
        Event="pacru selfplay",
        Round=str(index + 1),
        Seed=str(run.seed),
    )
    return record, game.ply


def play_shard(task: ShardTask) -> ShardResult:
    """Play one shard (the worker function; top level so that it pickles)."""
    from pacru.encoding import Encoding
    from pacru.records import write_records

    started = time.perf_counter()
    run = task.run
    encoding = Encoding.for_game(run.game, run.players, **dict(run.options))
    rows = _Columns()
    records = []
    plies = 0
    games = run.shard_range(task.index)
    endings: dict[str, int] = {}
    for index in games:
        record, played = _play_game(run, encoding, index, rows)
        records.append(record)
        plies += played
        ended = rows.termination[-1]
        endings[ended] = endings.get(ended, 0) + 1
    table = rows.table()
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return ShardResult(
        index=task.index,
        parquet=sink.getvalue().to_pybytes(),
        records=write_records(records),
        games=len(games),
        decisions=table.num_rows,
        plies=plies,
        seconds=time.perf_counter() - started,
        endings=tuple(sorted(endings.items())),
    )


def shard_path(directory: Path, shard: int) -> Path:
    """Where shard ``shard``'s Parquet file goes."""
    return directory / "shards" / f"shard-{shard:05d}.parquet"


def records_path(directory: Path, shard: int) -> Path:
    """Where shard ``shard``'s records go."""
    return directory / "records" / f"shard-{shard:05d}.pgn"


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary name beside ``path``, then rename it (atomic on POSIX)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def read_manifest(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of the run in ``directory``.

    Raises:
        FileNotFoundError: ``directory`` holds no manifest.
        ValueError: the manifest is not a pacru self-play manifest.
    """
    data = json.loads((Path(directory) / "manifest.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{directory}/manifest.json is not a {FORMAT} manifest")
    return data


def run_selfplay(
    run: SelfPlayRun,
    directory: str | os.PathLike[str],
    *,
    executor: Executor | None = None,
    workers: int = 1,
    progress: Callable[[ShardResult], None] | None = None,
) -> list[int]:
    """Play ``run`` into ``directory``, skipping the shards already there; the shards written.

    The manifest is written first (or checked, when ``directory`` already
    holds one); then each shard not yet on disk is played and written as it
    finishes: its records, then its Parquet file (whose presence marks the
    shard done), each to a temporary name renamed into place.

    Args:
        run: what to play.
        directory: the run's directory (created if missing).
        executor: play the shards on this :class:`concurrent.futures.Executor`
            (e.g. a Dask ``Client.get_executor()``, which reschedules the
            shard of a worker that dies); used, not shut down.
        workers: without ``executor``: local worker processes (1: here).
        progress: called with each shard written, in finishing order.

    Returns:
        The shard numbers written by this call, ascending.

    Raises:
        ValueError: a bad run (:meth:`SelfPlayRun.check`), or ``directory``
            holds the manifest of a different run.
        KeyboardInterrupt: Ctrl-C; the shards written so far are kept and a
            new call resumes.
    """
    run.check()
    folder = Path(directory)
    manifest = run.manifest()
    if (folder / "manifest.json").exists():
        existing = read_manifest(folder)
        if existing != manifest:
            changed = sorted(k for k in manifest.keys() | existing.keys()
                             if manifest.get(k) != existing.get(k))  # fmt: skip
            raise ValueError(
                f"{folder} holds a different self-play run (differs in {', '.join(changed)}); "
                "use another directory"
            )
    else:
        text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
        _write_atomic(folder / "manifest.json", text.encode())
    todo = [ShardTask(run, k) for k in range(run.shards) if not shard_path(folder, k).exists()]
    written = []
    for shard in run_tasks(play_shard, todo, executor=executor, workers=workers):
        _write_atomic(records_path(folder, shard.index), shard.records.encode())
        _write_atomic(shard_path(folder, shard.index), shard.parquet)
        written.append(shard.index)
        if progress is not None:
            progress(shard)
    return sorted(written)


def load(directory: str | os.PathLike[str]) -> ds.Dataset:
    """The shards under ``directory`` as one :class:`pyarrow.dataset.Dataset` (:data:`SCHEMA`).

    ``load(d).to_table()`` reads every row; filter and project as usual, e.g.
    ``load(d).to_table(columns=["observation", "policy"], filter=pc.field("game") < 10)``.
    Rows come shard by shard, and in a shard by game, ply and decision.

    Raises:
        FileNotFoundError: ``directory`` holds no self-play manifest.
        ValueError: the manifest is not a pacru self-play manifest.
    """
    folder = Path(directory)
    read_manifest(folder)
    files = sorted(str(p) for p in (folder / "shards").glob("shard-*.parquet"))
    return ds.dataset(files, schema=SCHEMA, format="parquet")
