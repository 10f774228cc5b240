"""Shared helpers of the property tests: example budgets, game lists and board symmetries.

The symmetry maps are built from the geometry tables and checked to be
automorphisms of the board graph (:data:`pacru.geometry.NEIGHBOUR`) and of the
borderlands, so the symmetry properties test the engine, not these helpers.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

import pytest
from hypothesis import settings
from hypothesis import strategies as st

import pacru
import pacru.chevron.legality
from pacru import ChevronState, GameState, Move
from pacru.encoding.symmetry import SYMMETRIES, Symmetry
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


#: The symmetries of the square board, the public ones of :mod:`pacru.encoding.symmetry`.
#: Quarter turn clockwise seen from above: seat S -> W -> N -> E -> S (B.2).
ROTATE_90: Final = SYMMETRIES[1]
#: Half turn: swaps the two standard 2-player seats, S (+i9 SW) and N (+a1 NE) (B.3).
ROTATE_180: Final = SYMMETRIES[2]
#: The eight symmetries of the square board: rotations and mirrors.
DIHEDRAL: Final = SYMMETRIES


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
