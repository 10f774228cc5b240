"""Many games between bots: seats rotated, parallel workers, results with confidence intervals.

:func:`run_match` plays ``games`` games of one game and player count between
one bot per seat, given as specs (:mod:`pacru.bots.spec`), your own bot
objects or bot factories (:func:`pacru.bots.spec.build_bot`). Game ``g`` seats
entry ``(s + g) % players`` on seat ``s`` (turn order), so over a multiple of
``players`` games every bot sits every seat equally often. Each bot of each
game is built fresh with a seed derived from the match seed, the game number
and the entry (:func:`game_seed`), so a match is reproducible whatever the
number of workers or whatever runs the games (any
:class:`concurrent.futures.Executor`: a process pool, a Dask cluster's
``Client.get_executor()``), and any single game can be replayed alone.

:class:`MatchResult` holds one :class:`GameResult` per game and computes the
tables: per entry the sole wins, shared wins (D35), draws (no winner: an LSD
block, a D32 move cap, or the match's ply limit) and losses, the win rate
with a 95% Wilson interval, the mean points (1 per win, 1/k per k-way shared
win) and the mean score with 95% normal intervals; per seat the same counts.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from contextlib import closing
from typing import Any

import attrs

from pacru._parallel import run_tasks
from pacru.base import GameState
from pacru.bots.base import Bot, Forfeit
from pacru.bots.spec import BOTS, BotEntry, build_bot, parse_spec
from pacru.game import Game

__all__ = [
    "Z95",
    "EntryStats",
    "GameResult",
    "GameTask",
    "MatchInterrupted",
    "MatchResult",
    "SeatStats",
    "default_labels",
    "game_seed",
    "mean_interval",
    "play_task",
    "run_match",
    "wilson_interval",
]

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion, (low, high) in [0, 1].

    ``(0.0, 1.0)`` when there are no trials.
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # At p = 0 or 1 the bound is exactly p; rounding would leave it a hair inside.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a normal-approximation 95% interval.

    The half-width is ``z * s / sqrt(n)`` with the sample standard deviation
    ``s``; with fewer than two values the interval is the mean itself.
    """
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = math.fsum(values) / n
    if n < 2:
        return mean, mean, mean
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def game_seed(seed: int, game: int, entry: int) -> int:
    """The seed of entry ``entry``'s bot in game number ``game`` (0-based) of a match.

    A 63-bit integer from BLAKE2b, so it is the same in every process and run.
    """
    digest = hashlib.blake2b(f"pacru-match:{seed}:{game}:{entry}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


@attrs.frozen
class GameTask:
    """Everything a worker needs to play one game of a match (picklable).

    Attributes:
        index: the game number, 0-based.
        game: the game name.
        players: the player count.
        options: keyword options of :func:`pacru.new_game`.
        specs: the bot entry of each entry (entry order, not seat order): a
            spec, a bot object or a factory (:data:`pacru.bots.spec.BotEntry`).
        seed: the match seed.
        max_plies: stop an endless game after this many plies (a draw).
        record: also return the game record text (:mod:`pacru.records`).
        labels: the entries' labels, for the record's player names.
    """

    index: int
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    specs: tuple[BotEntry, ...]
    seed: int
    max_plies: int = 2000
    record: bool = False
    labels: tuple[str, ...] = ()

    @property
    def seats(self) -> tuple[int, ...]:
        """Entry on each seat (turn order): seats rotate by one per game."""
        n = self.players
        return tuple((s + self.index) % n for s in range(n))


@attrs.frozen
class GameResult:
    """How one game of a match went.

    Attributes:
        index: the game number, 0-based.
        seats: the entry on each seat (turn order).
        colours: the colour of each seat.
        winners: the winning seats (empty: no winner).
        scores: each seat's final score (:attr:`pacru.GameState.scores`).
        termination: the :class:`pacru.Termination` value, ``"max-plies"``
            when the match's ply limit stopped the game, or ``"forfeit"``
            when a bot gave the game up (:class:`pacru.bots.base.Forfeit`,
            e.g. an engine that misbehaved): its seat loses, the others
            share the win.
        plies: moves played.
        seconds: wall-clock seconds the game took.
        record: the game record text, if asked for.
        reason: why a forfeited game ended (who forfeited and why); else empty.
    """

    index: int
    seats: tuple[int, ...]
    colours: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    termination: str
    plies: int
    seconds: float
    record: str | None = None
    reason: str = ""


def play_task(task: GameTask) -> GameResult:
    """Play one game of a match (the worker function; top level so that it pickles)."""
    from pacru.games import new_game

    start = time.perf_counter()
    state: GameState[Any] = new_game(task.game, task.players, **dict(task.options))
    seats = task.seats
    bots: list[Bot] = [build_bot(task.specs[e], game_seed(task.seed, task.index, e)) for e in seats]
    # The line of play is kept only when it is recorded.
    game = Game(state) if task.record else None
    plies = 0
    forfeit: tuple[int, str] | None = None
    try:
        while state.current_player is not None and plies < task.max_plies:
            seat = state.players.index(state.current_player)
            try:
                move = bots[seat].choose_move(state)
            except Forfeit as err:
                forfeit = seat, str(err)
                break
            state = state.apply_move(move) if game is None else game.push(move)
            plies += 1
    finally:
        # Bots built for this game are closed (an engine's program ends); a bot object
        # given as an entry plays on in the next game.
        for bot, e in zip(bots, seats, strict=True):
            close = getattr(bot, "close", None)
            if callable(close) and bot is not task.specs[e]:
                close()
    outcome = state.outcome
    colours = state.players
    winners = () if outcome is None else tuple(colours.index(w) for w in outcome.winners)
    reason = ""
    if forfeit is not None:
        seat, why = forfeit
        winners = tuple(s for s in range(len(colours)) if s != seat)
        who = task.labels[seats[seat]] if task.labels else _label(task.specs[seats[seat]])
        reason = f"{who} ({colours[seat]}, seat {seat + 1}) forfeits at ply {plies}: {why}"
    record = None
    if game is not None:
        from pacru.records import record_from_game, write_record

        names = {
            c: task.labels[e] if task.labels else _label(task.specs[e])
            for c, e in zip(colours, seats, strict=True)
        }
        record = write_record(
            record_from_game(
                game,
                names=names,
                Event="pacru match",
                Round=str(task.index + 1),
                Seed=str(task.seed),
            )
        )
    return GameResult(
        index=task.index,
        seats=seats,
        colours=colours,
        winners=winners,
        scores=tuple(state.scores[c] for c in colours),
        termination=(
            "forfeit"
            if forfeit is not None
            else "max-plies"
            if outcome is None
            else outcome.termination.value
        ),
        plies=plies,
        seconds=time.perf_counter() - start,
        record=record,
        reason=reason,
    )


@attrs.frozen
class EntryStats:
    """One entry's results over a match (see :meth:`MatchResult.entry_stats`).

    Attributes:
        label: the entry's name.
        games: games played (every entry plays every game).
        wins: sole wins; ``shared``: shared wins (D35); ``draws``: games
            without winner; ``losses``: games someone else won.
        win_rate: ``wins / games``, with ``win_low``, ``win_high``: its 95%
            Wilson score interval.
        points: mean points per game (1 per sole win, 1/k per k-way shared
            win), with ``points_low``, ``points_high``: a 95% normal
            interval, clipped to [0, 1].
        score: mean final score (:attr:`pacru.GameState.scores`), with
            ``score_low``, ``score_high``: a 95% normal interval.
    """

    label: str
    games: int
    wins: int
    shared: int
    draws: int
    losses: int
    win_rate: float
    win_low: float
    win_high: float
    points: float
    points_low: float
    points_high: float
    score: float
    score_low: float
    score_high: float


@attrs.frozen
class SeatStats:
    """One seat's results over a match: who sat there does not matter here."""

    seat: int
    games: int
    wins: int
    shared: int
    draws: int
    losses: int


@attrs.frozen
class MatchResult:
    """All games of a match, in game order, and the tables computed from them."""

    labels: tuple[str, ...]
    games: tuple[GameResult, ...]

    def _per_entry(self, entry: int) -> Iterable[tuple[GameResult, int]]:
        for g in self.games:
            yield g, g.seats.index(entry)

    def entry_stats(self) -> list[EntryStats]:
        """Per entry: wins, shared wins, draws, losses, win rate (Wilson), points, score."""
        out = []
        for e, label in enumerate(self.labels):
            wins = shared = draws = losses = 0
            points: list[float] = []
            scores: list[float] = []
            for g, seat in self._per_entry(e):
                scores.append(float(g.scores[seat]))
                if not g.winners:
                    draws += 1
                    points.append(0.0)
                elif seat in g.winners:
                    if len(g.winners) == 1:
                        wins += 1
                    else:
                        shared += 1
                    points.append(1.0 / len(g.winners))
                else:
                    losses += 1
                    points.append(0.0)
            n = len(points)
            low, high = wilson_interval(wins, n)
            pm, pl, ph = mean_interval(points)
            pl, ph = max(pl, 0.0), min(ph, 1.0)  # points lie in [0, 1]
            sm, sl, sh = mean_interval(scores)
            out.append(
                EntryStats(
                    label=label,
                    games=n,
                    wins=wins,
                    shared=shared,
                    draws=draws,
                    losses=losses,
                    win_rate=wins / n if n else math.nan,
                    win_low=low,
                    win_high=high,
                    points=pm,
                    points_low=pl,
                    points_high=ph,
                    score=sm,
                    score_low=sl,
                    score_high=sh,
                )
            )
        return out

    def seat_stats(self) -> list[SeatStats]:
        """Per seat (turn order): games, sole wins, shared wins, draws, losses."""
        n = len(self.labels)
        out = []
        for seat in range(n):
            wins = shared = draws = losses = 0
            for g in self.games:
                if not g.winners:
                    draws += 1
                elif seat in g.winners:
                    if len(g.winners) == 1:
                        wins += 1
                    else:
                        shared += 1
                else:
                    losses += 1
            out.append(SeatStats(seat, len(self.games), wins, shared, draws, losses))
        return out


def run_match(
    game: str,
    specs: Sequence[BotEntry],
    games: int,
    *,
    workers: int = 1,
    executor: Executor | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    max_plies: int = 2000,
    record: bool = False,
    labels: Sequence[str] | None = None,
    progress: Callable[[GameResult], None] | None = None,
    stop: Callable[[tuple[GameResult, ...]], bool] | None = None,
) -> MatchResult:
    """Play a match: ``games`` games of ``game`` between the bots ``specs``, one per seat.

    Args:
        game: a game name (:data:`pacru.GAMES`).
        specs: one bot per player (``len(specs)`` is the player count): a
            spec (``"mcts:iterations=400"``, ``"mybots:NetBot"``), a bot
            object, or a factory called with each game's seed (a bot class,
            or ``lambda seed: MyBot(seed, net)``). A factory gets a fresh
            bot per game, seeded by :func:`game_seed`, so the match is
            reproducible; a bot object plays every game as it is, keeping
            its state between games. With ``workers > 1`` objects and
            factories must pickle (no lambdas).
        games: how many games.
        workers: local worker processes; 1 plays in this process. Ignored
            when ``executor`` is given.
        executor: run the games on this :class:`concurrent.futures.Executor`
            (e.g. ``distributed.Client(address).get_executor()`` for a Dask
            cluster); it is used, not shut down. The results are the same
            game by game as with ``workers``.
        seed: the match seed (see :func:`game_seed`).
        options: keyword options of :func:`pacru.new_game`.
        max_plies: a game still going after this many plies is stopped and
            counted as a draw (termination ``"max-plies"``).
        record: keep each game's record text in its result.
        labels: the entries' names (default: :func:`default_labels`).
        progress: called with each result as games finish (in finishing order).
        stop: called with the first ``k`` games (in game order) for ``k = 1, 2,
            ...`` as soon as they have all finished; once it returns True the
            match ends there: the result holds those ``k`` games only and the
            games not yet started are cancelled (those running are dropped).
            Since it sees every ``k`` in turn, where a match stops does not
            depend on the order the games finish in (an SPRT,
            :mod:`pacru.bots.sprt`, stops a match this way).

    Raises:
        ValueError: a bad spec, game, option or count (checked before any game).
        MatchInterrupted: Ctrl-C (or another ``KeyboardInterrupt``) stopped the
            match; games not started are cancelled and the exception's
            ``result`` holds the games that finished.
    """
    from pacru.games import new_game

    n = len(specs)
    if games < 1 or workers < 1 or max_plies < 1:
        raise ValueError("games, workers and max_plies must be positive")
    new_game(game, n, **(options or {}))  # fails early on a bad game, count or option
    for spec in specs:
        build_bot(spec, 0)
    names = tuple(labels) if labels is not None else default_labels(specs)
    if len(names) != n:
        raise ValueError("one label per bot")
    tasks = [
        GameTask(
            i,
            game,
            n,
            tuple(sorted((options or {}).items())),
            tuple(specs),
            seed,
            max_plies,
            record,
            names,
        )
        for i in range(games)
    ]
    results: dict[int, GameResult] = {}
    done = 0  # the games 0 .. done - 1 have finished and ``stop`` has seen them
    try:
        with closing(run_tasks(play_task, tasks, executor=executor, workers=workers)) as running:
            for result in running:
                results[result.index] = result
                if progress is not None:
                    progress(result)
                while stop is not None and done in results:
                    done += 1
                    if stop(tuple(results[i] for i in range(done))):
                        # Closing ``running`` cancels the games not yet started.
                        return MatchResult(names, tuple(results[i] for i in range(done)))
    except KeyboardInterrupt as interrupt:
        kept = MatchResult(names, tuple(results[i] for i in sorted(results)))
        raise MatchInterrupted(kept) from interrupt
    return MatchResult(names, tuple(results[i] for i in range(games)))


class MatchInterrupted(KeyboardInterrupt):
    """A match stopped by Ctrl-C: :attr:`result` holds the games that finished.

    A :class:`KeyboardInterrupt`, so code that does not know it still stops.
    The games in ``result.games`` are in game order but may have gaps (the
    games still running were dropped); the tables count only them.
    """

    def __init__(self, result: MatchResult) -> None:
        super().__init__(f"match interrupted after {len(result.games)} finished games")
        self.result = result


def _label(entry: BotEntry) -> str:
    """The entry's label alone (:func:`default_labels` without the numbers)."""
    return _named(entry)[0]


def _named(entry: BotEntry) -> tuple[str, str]:
    """The entry's name and what tells it apart from others (the spec, else the name)."""
    if isinstance(entry, str):
        kind = parse_spec(entry)[0]
        if kind in BOTS or kind == "engine":
            return entry, entry
        # Your own class: its name, which you chose for the tables, over its import path.
        return build_bot(entry, 0).name, entry
    name = build_bot(entry, 0).name
    return name, name


def default_labels(entries: Sequence[BotEntry]) -> tuple[str, ...]:
    """The entries' labels: a built-in bot's spec (``mcts:iterations=200``,
    ``engine:./mybot``), else the ``name`` of the bot, with ``#1``, ``#2`` ... added
    where a label repeats.

    The name is that of the bot built with seed 0: your own class named by its
    spec (``mybots:SampledGreedy``), a bot object or a factory. Entries whose
    specs differ but whose bots share a name keep their specs, so the tables
    tell them apart.

    Raises:
        ValueError: a bad spec (:func:`pacru.bots.spec.build_bot`).
    """
    named = [_named(e) for e in entries]
    labels = []
    for name, key in named:
        shared = {k for n, k in named if n == name}
        labels.append(name if len(shared) == 1 else key)
    out = []
    for i, label in enumerate(labels):
        if labels.count(label) > 1:
            out.append(f"{label}#{labels[: i + 1].count(label)}")
        else:
            out.append(label)
    return tuple(out)
