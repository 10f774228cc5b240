"""The family-first random draw (pacru.bots.sample_move) reads the native list's family
bounds: the same families as the Python engine's, so the same numbers draw the same move."""

from __future__ import annotations

import random

import pytest

from pacru import LegalMoves
from pacru.bots import sample_move
from pacru.chevron.engine import python_apply, python_legal_moves

from .support import CONFIGS, native, start


def _bounds(moves: LegalMoves) -> list[tuple[int, int]]:
    """(start, size) of each family of a Python-engine list, in list order."""
    out: list[tuple[int, int]] = []
    at = 0
    for family in moves.families:
        out.append((at, family.size))
        at += family.size
    return out


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_family_bounds_and_draws_agree(game: str, players: int) -> None:
    """At every ply of seeded games: the native family count and ranges are the Python
    engine's families (steps, then reorientations by chevron and turn {R14}), each
    range holds its family's moves, both lists' _family_bounds split them alike into
    steps and reorientations, and sample_move draws the same move from both."""
    draws = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = start(game, players)
        for ply in range(400):
            py_moves = python_legal_moves(state)
            nat_state = native.native_state(state)
            nat_moves = nat_state.legal_moves()
            where = f"{game} {players}p seed {seed} ply {ply}"
            bounds = _bounds(py_moves)
            impl = nat_moves
            assert isinstance(impl, native.NativeLegalMoves)
            assert impl.family_count() == len(bounds), where
            assert [impl.family_range(k) for k in range(len(bounds))] == bounds, where
            for (begin, size), family in zip(bounds, py_moves.families, strict=True):
                if size <= 50:
                    assert [nat_moves[begin + j] for j in range(size)] == list(family), where
            with pytest.raises(IndexError):
                impl.family_range(len(bounds))
            # _family_bounds splits them into steps and reorientations {R14}, alike.
            split = len(py_moves.steps)
            expected = (tuple(bounds[:split]), tuple(bounds[split:]))
            assert nat_moves._family_bounds() == py_moves._family_bounds() == expected, where
            if not py_moves:
                break
            seed_of_draw = rng.randrange(1 << 30)
            py_move = sample_move(state, random.Random(seed_of_draw))
            assert sample_move(nat_state, random.Random(seed_of_draw)) == py_move, where
            draws += 1
            state = python_apply(state, py_move)
            if state.outcome is not None:
                break
    assert draws > 100


@pytest.mark.parametrize("drawn", [-1, 1 << 70, "0"])
def test_a_draw_out_of_range_is_refused_alike(drawn: object) -> None:
    """A ``randrange`` that draws outside the count (negative, or past 2**64) makes an
    ``IndexError`` on both engines (no ``OverflowError`` from the native list), one that
    draws no integer a ``TypeError``; an error it raises passes through."""
    state = start("pacru", 2)
    py_moves = python_legal_moves(state)
    nat_moves = native.native_state(state).legal_moves()
    expected = IndexError if isinstance(drawn, int) else TypeError
    for moves in (py_moves, nat_moves):
        with pytest.raises(expected):
            moves._family_draw(lambda n, d=drawn: d)  # type: ignore[misc]

    def refuse(n: int) -> int:
        raise ZeroDivisionError(n)

    for moves in (py_moves, nat_moves):
        with pytest.raises(ZeroDivisionError):
            moves._family_draw(refuse)
