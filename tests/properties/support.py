"""Shared helpers of the property tests: example budgets, game lists and board symmetries.

The symmetry maps are built from the geometry tables and checked to be
automorphisms of the board graph (:data:`pacru.geometry.NEIGHBOUR`) and of the
borderlands, so the symmetry properties test the engine, not these helpers.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st

import pacru
import pacru.chevron.legality
from pacru import ChevronState, GameState, Move
from pacru.geometry import BORDERLAND, BORDERLAND_FIELDS, E5, FIELD_NAMES, NEIGHBOUR, Direction
from pacru.strategies import Playout, boards, games, playouts

#: The profile counts of the ``ci`` and ``dev`` profiles; a larger loaded count
#: means a long fuzzing run, whose count every test then uses.
_SHORT_RUN: Final = 100


def budget(n: int) -> settings:
    """``@settings`` with at most ``n`` examples in CI; the profile's own count in long runs.

    Per-test caps keep ``pytest tests/properties`` within its CI time; under
    ``--hypothesis-profile=long`` (100,000 examples) they step aside. The
    environment variable ``PACRU_MAX_EXAMPLES`` lowers the cap further, for
    mutation runs (``scripts/mutation.sh``) that repeat the suite per mutant.
    """
    loaded = settings.get_profile(settings.get_current_profile_name())
    if loaded.max_examples > _SHORT_RUN:
        return settings()
    cap = os.environ.get("PACRU_MAX_EXAMPLES")
    return settings(max_examples=min(n, int(cap)) if cap else n)


GAMES: Final = pacru.GAMES
CHEVRON: Final = pacru.CHEVRON_GAMES


def cases(games: Iterable[str] = GAMES, counts: Iterable[int] = (2, 3, 4)) -> pytest.MarkDecorator:
    """``pytest.mark.parametrize`` over every (game, player count), ids like ``pacru-4p``."""
    pairs = [(g, n) for g in games for n in counts]
    return pytest.mark.parametrize(("game", "players"), pairs, ids=[f"{g}-{n}p" for g, n in pairs])


def game_playouts(game: str, players: int, max_plies: int = 60) -> st.SearchStrategy[Playout]:
    """Games played from the start of (game, players) with drawn options, and, for the chevron
    games, played on from random boards (:func:`pacru.strategies.boards`), which reach rare
    rules (transformation, meetings, an exhausted supply) that random play seldom does."""
    from_start = playouts(specs=games(game, players), max_plies=max_plies)
    if game == "lsd":
        return from_start
    return st.one_of(from_start, playouts(starts=boards(game, players), max_plies=max_plies // 4))


def game_states(game: str, players: int, max_plies: int = 60) -> st.SearchStrategy[Any]:
    """The last states of :func:`game_playouts`."""
    return game_playouts(game, players, max_plies).map(lambda p: p.final)


def supply_of(state: GameState[Any]) -> Mapping[str, int]:
    """The Pacru supply, which is never None in Pacru (D29)."""
    supply: Mapping[str, int] | None = state.supply
    assert supply is not None
    return supply


def _reason_codes() -> frozenset[str]:
    doc = pacru.chevron.legality.__doc__ or ""
    return frozenset(re.findall(r"``([a-z-]+)``", doc.split("Reason codes:")[1]))


#: The reason codes documented in :mod:`pacru.chevron.legality`.
CHEVRON_REASONS: Final = _reason_codes()
#: Rule identifiers an IllegalMoveError of a chevron game may name.
CHEVRON_RULE_RE: Final = re.compile(
    r"L[1-7]|S-R[1-6]|A-R(?:[1-9]|10)|R(?:[1-9]|1[0-6])|D\d{1,2}|end"
)


def lsd_reasons() -> frozenset[str]:
    """The reason codes in the table of :mod:`pacru.lsd.state`'s docstring."""
    import pacru.lsd.state

    doc = pacru.lsd.state.__doc__ or ""
    return frozenset(re.findall(r"^``([a-z-]+)``", doc, re.MULTILINE))


# -- board symmetries -------------------------------------------------------------------------


@attrs.frozen
class Symmetry:
    """A symmetry of the board: a field map, a direction map and whether it mirrors."""

    name: str
    fields: tuple[int, ...]
    directions: tuple[int, ...]
    mirror: bool

    def field(self, f: int) -> int:
        return self.fields[f]

    def move(self, move: Move) -> Move:
        """The image of a chevron move: fields mapped, twist and turn flipped by a mirror."""
        sign = -1 if self.mirror else 1

        def f(x: int | None) -> int | None:
            return None if x is None else self.fields[x]

        return Move(
            f(move.origin),
            f(move.target),
            capture=move.capture,
            twist=sign * move.twist,
            turn=sign * move.turn,
            connection=move.connection,
            marker=f(move.marker),
            meeting=f(move.meeting),
            relinquished=tuple(self.fields[x] for x in move.relinquished),
        )

    def position(self, text: str, colours: dict[str, str] | None = None) -> str:
        """A chevron position string with every field, facing and (optionally) colour mapped."""
        rename = colours or {}

        def colour(name: str) -> str:
            return rename.get(name, name)

        def item(m: re.Match[str]) -> str:
            field = FIELD_NAMES[self.fields[FIELD_NAMES.index(m.group(1))]]
            facing = m.group(2) or ""
            if facing:
                facing = Direction(self.directions[Direction[facing]]).name
            return field + facing

        words = []
        for word in text.split():
            key, sep, value = word.partition("=")
            if key in ("players", "turn", "out", "trigger"):
                value = ",".join(colour(c) for c in value.split(","))
            elif key in ("markers", "chevrons") and value != "-":
                groups = []
                for group in value.split(";"):
                    owner, _, items = group.partition(":")
                    mapped = re.sub(r"([a-i][1-9])(NE|NW|SE|SW|N|E|S|W)?", item, items)
                    groups.append(f"{colour(owner)}:{mapped}")
                value = ";".join(groups)
            words.append(key + sep + value)
        return " ".join(words)


def _symmetry(name: str, xy: Callable[[int, int], tuple[int, int]], mirror: bool) -> Symmetry:
    fields = []
    for f in range(81):
        x, y = xy(f % 9, f // 9)
        fields.append(y * 9 + x)
    directions = []
    for d in Direction:
        # The image of a direction is the step between the images of e5 and its neighbour.
        a, b = fields[E5], fields[NEIGHBOUR[E5][d]]
        step = (b % 9 - a % 9, b // 9 - a // 9)
        directions.append(next(e for e in Direction if e.delta == step))
    sym = Symmetry(name, tuple(fields), tuple(directions), mirror)
    for f in range(81):
        for k in range(8):
            n = NEIGHBOUR[f][k]
            image = NEIGHBOUR[sym.fields[f]][sym.directions[k]]
            assert image == (-1 if n < 0 else sym.fields[n]), (name, f, k)
    for land in BORDERLAND_FIELDS:  # borderlands map onto borderlands {G2}
        assert len({BORDERLAND[sym.fields[f]] for f in land}) == 1, name
    return sym


#: Quarter turn clockwise seen from above: seat S -> W -> N -> E -> S (B.2).
ROTATE_90: Final = _symmetry("rotate-90", lambda x, y: (y, 8 - x), mirror=False)
#: Half turn: swaps the two standard 2-player seats, S (+i9 SW) and N (+a1 NE) (B.3).
ROTATE_180: Final = _symmetry("rotate-180", lambda x, y: (8 - x, 8 - y), mirror=False)
#: The eight symmetries of the square board: rotations and mirrors.
DIHEDRAL: Final = (
    _symmetry("identity", lambda x, y: (x, y), mirror=False),
    ROTATE_90,
    ROTATE_180,
    _symmetry("rotate-270", lambda x, y: (8 - y, x), mirror=False),
    _symmetry("mirror-files", lambda x, y: (8 - x, y), mirror=True),
    _symmetry("mirror-ranks", lambda x, y: (x, 8 - y), mirror=True),
    _symmetry("mirror-diagonal", lambda x, y: (y, x), mirror=True),
    _symmetry("mirror-antidiagonal", lambda x, y: (8 - y, 8 - x), mirror=True),
)


def move_signature(state: ChevronState) -> tuple[frozenset[Move], frozenset[tuple[int, int, int]]]:
    """Every step/pincer move, and the reorientation families as (chevron, turn, free fields).

    Equal signatures mean equal legal move sets: a reorientation family holds
    every choice of its cost among its fields {R14}, so comparing families
    avoids decoding hundreds of thousands of moves.
    """
    moves = state.legal_moves()
    steps = frozenset(m for fam in moves.steps for m in fam)
    if moves.is_pass:
        steps = frozenset(moves)
    turns = frozenset((r.origin, r.turn, r.mask) for r in moves.reorientations)
    return steps, turns


def mapped_signature(
    state: ChevronState, sym: Symmetry
) -> tuple[frozenset[Move], frozenset[tuple[int, int, int]]]:
    """:func:`move_signature` of ``state`` carried through the symmetry."""
    steps, turns = move_signature(state)
    sign = -1 if sym.mirror else 1
    mapped_turns = frozenset(
        (sym.fields[o], sign * t, sum(1 << sym.fields[f] for f in range(81) if mask >> f & 1))
        for o, t, mask in turns
    )
    return frozenset(sym.move(m) for m in steps), mapped_turns
