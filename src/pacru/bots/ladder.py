"""A round robin between bots, every game kept, rated on the Elo scale: :func:`run_ladder`.

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

The Elo ratings (:meth:`LadderResult.elo`) are a maximum-likelihood
Bradley-Terry fit of all games at once with 95% bootstrap intervals
(:mod:`pacru.bots.ratings`), ``random`` pinned at 0;
:meth:`LadderResult.head_to_head` counts the pairwise results. With a
``games_file`` every game is written as one JSON line as it finishes, and a
ladder run again with the same file plays only the games missing from it:
an interrupted ladder continues where it stopped, to the same result as an
uninterrupted one (each game's seeds depend only on the ladder seed, its
table and its number).

>>> from pacru.bots.ladder import run_ladder
>>> ladder = run_ladder("shacru", ["greedy", "random"], games=2, seed=1)
>>> [(s.label, s.games, s.wins) for s in ladder.standings()]
[('greedy', 2, 2), ('random', 2, 0)]
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import attrs

from pacru._parallel import run_tasks
from pacru.bots.arena import GameResult, GameTask, MatchResult, default_labels, play_task
from pacru.bots.ratings import EloRating, bootstrap_elo, pairwise
from pacru.bots.spec import BotEntry, build_bot

__all__ = [
    "GAMES_FILE_VERSION",
    "HeadToHead",
    "LadderResult",
    "Standing",
    "run_ladder",
    "table_seed",
]

#: The version in the first line of a ladder's games file.
GAMES_FILE_VERSION = 1


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
        elo: the Elo rating (``random`` is 0), with ``elo_low``,
            ``elo_high``: its 95% bootstrap interval (:meth:`LadderResult.elo`).
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
    elo: float = 0.0
    elo_low: float = 0.0
    elo_high: float = 0.0


@attrs.frozen
class HeadToHead:
    """Two bots' pairwise results (see :mod:`pacru.bots.ratings`): ``label``'s view.

    Attributes:
        label, opponent: the two bots.
        games: pairwise results between them; ``wins``, ``draws``,
            ``losses``: ``label``'s.
    """

    label: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int


@attrs.frozen
class LadderResult:
    """Every match of a ladder: ``tables[k]`` holds the entries (indices into ``labels``)
    that played ``matches[k]``; ``seed`` is the ladder seed (it seeds the bootstrap)."""

    labels: tuple[str, ...]
    tables: tuple[tuple[int, ...], ...]
    matches: tuple[MatchResult, ...]
    seed: int = 0

    def anchor(self) -> int | None:
        """The bot rated 0: the first whose label is ``random`` (or ``random#k``,
        ``random(...)``, ``random:...``); ``None`` (the mean is 0) when there is none."""
        for i, label in enumerate(self.labels):
            if label.split("#")[0].split("(")[0].split(":")[0] == "random":
                return i
        return None

    def _pairwise(self) -> list[tuple[int, int, float]]:
        """The pairwise results of every game, table by table, game by game."""
        return [
            r
            for table, match in zip(self.tables, self.matches, strict=True)
            for g in match.games
            for r in pairwise([table[e] for e in g.seats], g.winners)
        ]

    def elo(self, samples: int = 200) -> list[EloRating]:
        """Each bot's Elo rating and 95% bootstrap interval, in ``labels`` order.

        A Bradley-Terry fit of the pairwise results of every game, ``random``
        pinned at 0 (:meth:`anchor`), ``samples`` parametric bootstrap draws
        seeded by the ladder seed (:func:`pacru.bots.ratings.bootstrap_elo`).
        """
        return bootstrap_elo(
            self.labels, self._pairwise(), anchor=self.anchor(), samples=samples, seed=self.seed
        )

    def head_to_head(self) -> list[HeadToHead]:
        """For every ordered pair of bots that met, the row bot's pairwise wins, draws, losses."""
        n = len(self.labels)
        counts = [[[0, 0, 0] for _ in range(n)] for _ in range(n)]
        for i, j, p in self._pairwise():
            k = 0 if p == 1.0 else 1 if p == 0.5 else 2
            counts[i][j][k] += 1
            counts[j][i][2 - k] += 1
        out = []
        for i in range(n):
            for j in range(n):
                wins, draws, losses = counts[i][j]
                if i != j and wins + draws + losses:
                    out.append(
                        HeadToHead(
                            self.labels[i],
                            self.labels[j],
                            wins + draws + losses,
                            wins,
                            draws,
                            losses,
                        )
                    )
        return out

    def standings(self, samples: int = 200) -> list[Standing]:
        """The bots by Elo, best first (ties: the order of the entries), with openskill's ratings.

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
        elo = self.elo(samples)
        out = [
            Standing(
                label,
                r.ordinal(),
                r.mu,
                r.sigma,
                games=c[0],
                wins=c[1],
                shared=c[2],
                draws=c[3],
                losses=c[4],
                elo=e.elo,
                elo_low=e.low,
                elo_high=e.high,
            )
            for label, r, c, e in zip(self.labels, ratings, counts, elo, strict=True)
        ]
        order = sorted(range(len(out)), key=lambda i: (-round(out[i].elo, 9), i))
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
    games_file: str | Path | None = None,
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
        labels: the bots' names (default:
            :func:`pacru.bots.arena.default_labels`).
        progress: called with each game's result as it finishes (not for
            the games read from ``games_file``).
        games_file: a JSON Lines file of the ladder's games: a first line
            describing the ladder, then one line per game as it finishes
            (``table``, ``bots`` per seat, the :class:`GameResult` fields,
            the game record). Games already in the file are read, not played
            again; the others are played and appended.

    Raises:
        ValueError: fewer bots than ``players``, a bad spec, game, option or
            count (checked before any game), or a ``games_file`` of another
            ladder (another game, player count, seed, bots, options or ply
            limit).
        KeyboardInterrupt: the ladder was interrupted; the finished games
            are in ``games_file``.
    """
    from pacru.games import new_game

    if len(specs) < players:
        raise ValueError(f"a ladder of {players}-player games needs at least {players} bots")
    names = tuple(labels) if labels is not None else default_labels(specs)
    if len(names) != len(specs):
        raise ValueError("one label per bot")
    if games < 1 or workers < 1 or max_plies < 1:
        raise ValueError("games, workers and max_plies must be positive")
    new_game(game, players, **(options or {}))  # fails early on a bad game, count or option
    for spec in specs:
        build_bot(spec, 0)
    tables = tuple(itertools.combinations(range(len(specs)), players))
    opts = tuple(sorted((options or {}).items()))
    record = games_file is not None
    tasks = [
        (
            k,
            GameTask(
                i,
                game,
                players,
                opts,
                tuple(specs[e] for e in table),
                table_seed(seed, k),
                max_plies,
                record,
                tuple(names[e] for e in table),
            ),
        )
        for k, table in enumerate(tables)
        for i in range(games)
    ]
    header = {
        "pacru-ladder": GAMES_FILE_VERSION,
        "game": game,
        "players": players,
        "seed": seed,
        "bots": list(names),
        "options": dict(opts),
        "max_plies": max_plies,
    }
    done: dict[tuple[int, int], GameResult] = {}
    if games_file is not None:
        done = _read_games(Path(games_file), header)
    missing = [t for t in tasks if (t[0], t[1].index) not in done]
    with contextlib.ExitStack() as stack:
        sink = None
        if games_file is not None:
            sink = stack.enter_context(Path(games_file).open("a", encoding="utf-8"))
        for k, result in run_tasks(_play, missing, executor=executor, workers=workers):
            done[k, result.index] = result
            if sink is not None:
                sink.write(_game_line(k, tables[k], names, result) + "\n")
                sink.flush()
            if progress is not None:
                progress(result)
    matches = tuple(
        MatchResult(
            tuple(names[e] for e in table),
            tuple(done[k, i] for i in range(games)),
        )
        for k, table in enumerate(tables)
    )
    return LadderResult(names, tables, matches, seed)


def _play(item: tuple[int, GameTask]) -> tuple[int, GameResult]:
    """Play one game of table ``item[0]`` (the worker function; top level so that it pickles)."""
    return item[0], play_task(item[1])


def _game_line(k: int, table: tuple[int, ...], names: tuple[str, ...], g: GameResult) -> str:
    data = {"table": k, "bots": [names[table[e]] for e in g.seats], **attrs.asdict(g)}
    return json.dumps(data, separators=(",", ":"))


def _read_games(path: Path, header: dict[str, Any]) -> dict[tuple[int, int], GameResult]:
    """The games already in ``path`` (writing the header first when it is new or empty).

    A last line cut short by an interruption is dropped from the file.
    """
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if not text.strip():
        path.write_text(json.dumps(header) + "\n", encoding="utf-8")
        return {}
    if not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
        path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    first = json.loads(lines[0]) if lines else {}
    if first != header:
        changed = sorted(k for k in header if first.get(k) != header[k])
        raise ValueError(
            f"{path} holds the games of another ladder (its {', '.join(changed)} differ); "
            "use another file, or the same game, bots, seed and options"
        )
    fields = {a.name for a in attrs.fields(GameResult)}
    done = {}
    for line in lines[1:]:
        data = json.loads(line)
        values: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in fields
        }
        done[data["table"], data["index"]] = GameResult(**values)
    return done
