"""A round robin between bots, rated with openskill: :func:`run_ladder`.

Every table of ``players`` different bots (every pair with two players, every
set of three or four with more) plays a match of ``games`` games through
:func:`pacru.bots.arena.run_match`, seats rotated game by game. Table ``k``'s
match seed comes from the ladder seed and ``k`` (:func:`table_seed`), so a
ladder is reproducible game by game, whatever the number of workers.

The games are then rated in a fixed order (table by table, game by game)
with openskill's Plackett-Luce model (the ``ladder`` extra: ``pip install
"pacru[ladder]"``): in each game the winners share the first rank and every
other player the second (a shared win, D35, ranks its sharers equal); a game
without winner (a move cap, ruling D32, the ladder's ply limit, an LSD block)
ranks everybody equal. A bot's rating is openskill's ordinal ``mu - 3 *
sigma``, a cautious estimate that rises with the games played.

>>> from pacru.bots.ladder import run_ladder
>>> ladder = run_ladder("shacru", ["greedy", "random"], games=2, seed=1)
>>> [(s.label, s.games, s.wins) for s in ladder.standings()]
[('greedy', 2, 2), ('random', 2, 0)]
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import attrs

from pacru.bots.arena import GameResult, MatchResult, default_labels, run_match
from pacru.bots.spec import BotEntry

__all__ = ["LadderResult", "Standing", "run_ladder", "table_seed"]


def table_seed(seed: int, table: int) -> int:
    """The match seed of table ``table`` (0-based) of a ladder seeded with ``seed`` (63 bits)."""
    digest = hashlib.blake2b(f"pacru-ladder:{seed}:{table}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


@attrs.frozen
class Standing:
    """One bot's line of the ladder table.

    Attributes:
        label: the bot's name.
        rating: openskill's ordinal, ``mu - 3 * sigma``.
        mu: the rating's mean; ``sigma``: its uncertainty.
        games: games played; ``wins``: sole wins; ``shared``: shared wins
            (D35); ``draws``: games without winner; ``losses``: games someone
            else won.
    """

    label: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    shared: int
    draws: int
    losses: int


@attrs.frozen
class LadderResult:
    """Every match of a ladder: ``tables[k]`` holds the entries (indices into ``labels``)
    that played ``matches[k]``."""

    labels: tuple[str, ...]
    tables: tuple[tuple[int, ...], ...]
    matches: tuple[MatchResult, ...]

    def standings(self) -> list[Standing]:
        """The bots by rating, best first (ties: the order of the entries).

        Raises:
            ImportError: openskill is not installed (the ``ladder`` extra).
        """
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        ratings = [model.rating() for _ in self.labels]
        counts = [[0, 0, 0, 0, 0] for _ in self.labels]  # games, wins, shared, draws, losses
        for table, match in zip(self.tables, self.matches, strict=True):
            for game in match.games:
                entries = [table[e] for e in game.seats]
                _count(counts, entries, game)
                winners = game.winners
                ranks = [0.0 if s in winners or not winners else 1.0 for s in range(len(entries))]
                rated = model.rate([[ratings[e]] for e in entries], ranks=ranks)
                for e, team in zip(entries, rated, strict=True):
                    ratings[e] = team[0]
        out = [
            Standing(label, r.ordinal(), r.mu, r.sigma, *c)
            for label, r, c in zip(self.labels, ratings, counts, strict=True)
        ]
        order = sorted(range(len(out)), key=lambda i: (-out[i].rating, i))
        return [out[i] for i in order]


def _count(counts: list[list[int]], entries: list[int], game: GameResult) -> None:
    for seat, e in enumerate(entries):
        row = counts[e]
        row[0] += 1
        if not game.winners:
            row[3] += 1
        elif seat in game.winners:
            row[1 if len(game.winners) == 1 else 2] += 1
        else:
            row[4] += 1


def run_ladder(
    game: str,
    specs: Sequence[BotEntry],
    games: int,
    *,
    players: int = 2,
    seed: int = 0,
    workers: int = 1,
    executor: Executor | None = None,
    options: dict[str, Any] | None = None,
    max_plies: int = 2000,
    labels: Sequence[str] | None = None,
    progress: Callable[[GameResult], None] | None = None,
) -> LadderResult:
    """Play the round robin: ``games`` games at every table of ``players`` different bots.

    Args:
        game: a game name (:data:`pacru.GAMES`).
        specs: the bots, at least ``players`` of them: specs, bot objects or
            factories, as :func:`pacru.bots.arena.run_match` takes them.
        games: games per table (a multiple of ``players`` seats every bot on
            every seat equally often).
        players: the player count of each game.
        seed: the ladder seed (:func:`table_seed`).
        workers, executor, options, max_plies: as for
            :func:`pacru.bots.arena.run_match`.
        labels: the bots' names (default: the specs, numbered if repeated).
        progress: called with each game's result as it finishes.

    Raises:
        ValueError: fewer bots than ``players``, a bad spec, game, option or
            count (checked before any game).
    """
    if len(specs) < players:
        raise ValueError(f"a ladder of {players}-player games needs at least {players} bots")
    names = tuple(labels) if labels is not None else default_labels(specs)
    if len(names) != len(specs):
        raise ValueError("one label per bot")
    tables = tuple(itertools.combinations(range(len(specs)), players))
    matches = []
    for k, table in enumerate(tables):
        matches.append(
            run_match(
                game,
                [specs[e] for e in table],
                games,
                workers=workers,
                executor=executor,
                seed=table_seed(seed, k),
                options=options,
                max_plies=max_plies,
                labels=[names[e] for e in table],
                progress=progress,
            )
        )
    return LadderResult(names, tables, tuple(matches))
