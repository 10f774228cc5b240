"""A move's text reads alike on both engines: ``text in moves`` and ``moves.index(text)``.

The native list reads a move's text in Rust (``pacru_engine::Move::from_text``), the
Python list with :meth:`pacru.Move.parse`: every text, valid or not, must be in the
native list exactly when the move ``Move.parse`` reads from it is in the Python list,
and ``index`` must answer alike. The texts are the listed moves' own, rewritten in every
way the grammar allows (case, white space, the order of the fields given up) and
broken in every way it refuses, then fuzzed.
"""

from __future__ import annotations

import random
import sys
from typing import Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacru import ChevronState, LegalMoves, Move
from pacru.chevron.engine import python_apply, python_legal_moves
from pacru.chevron.move import MAX_MOVE_TEXT
from pacru.errors import NotationError
from pacru.strategies import mutated_texts

from .support import native, start

#: Every character Python's ``str.strip`` removes (``str.isspace``).
SPACES: Final = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())


def _states() -> list[ChevronState]:
    """Positions of random games of every chevron game, the Pacru ones late enough to
    have markers, meetings and reorientations."""
    out = []
    for game, plies in (("lilacru", 20), ("shacru", 30), ("azacru", 30), ("pacru", 70)):
        rng = random.Random(f"move text {game}")
        state = start(game, 2)
        for ply in range(plies):
            moves = python_legal_moves(state)
            if state.outcome is not None or not moves:
                break
            if ply % 10 == 9:
                out.append(state)
            state = python_apply(state, moves[rng.randrange(len(moves))])
    return out


STATES: Final = _states()
LISTS: Final = [(python_legal_moves(s), native.legal_moves(s)) for s in STATES]


def _listed_texts(moves: LegalMoves, rng: random.Random, k: int = 12) -> list[str]:
    """The text of the first moves, of every family's first move and of random moves."""
    n = len(moves)
    picks = {*range(min(n, k)), *(rng.randrange(n) for _ in range(k) if n)}
    picks |= {start for bounds in moves._family_bounds() for start, _size in bounds}
    return [str(moves[i]) for i in sorted(picks)]


def _parsed(text: str) -> Move | None:
    try:
        return Move.parse(text)
    except NotationError:
        return None


def _check(py: LegalMoves, nat: LegalMoves, text: str) -> None:
    """``in`` and ``index`` of ``text`` agree, and follow what ``Move.parse`` reads."""
    move = _parsed(text)
    expected = move is not None and move in py
    value: object = text  # `in` takes a move's text as well as a Move
    assert (value in py) is expected, text
    assert (value in nat) is expected, text
    for moves in (py, nat):
        # index compares items: a text is no move, on either engine.
        with pytest.raises(ValueError, match="is not in list") as err:
            moves.index(text)
        assert str(err.value) == f"{text!r} is not in list"
    if move is not None and expected:
        assert nat.index(move) == py.index(move)


def _variants(text: str) -> list[str]:
    """``text`` as the grammar still reads it, and broken."""
    fields = text[text.find("(") + 1 : -1].split(",") if "(" in text else []
    out = [
        text,
        text.upper(),
        text.swapcase(),
        SPACES + text + SPACES[::-1],
        f"\x1c{text}\x1f",
        text.ljust(MAX_MOVE_TEXT),
        text.rjust(MAX_MOVE_TEXT, "\u3000"),
        text.ljust(MAX_MOVE_TEXT + 1),  # too long, though white space
        f"\u200b{text}",  # no white space to Python
        text.replace("e", "\u212a"),  # the Kelvin sign lower-cases to 'k'
        text + text,
        text[:-1],
        f"{text[:2]} {text[2:]}",
        text.replace("-", "x") if "-" in text else text.replace("x", "-"),
        f"{text[:2]}-{text[:2]}",  # a move must leave its field
        f"{text}*",
        f"{text}<",
        f"{text}+e5",
        f"{text}@e5",
        text + "\x00",
    ]
    if fields:
        head = text[: text.find("(")]
        out += [
            f"{head}({','.join(reversed(fields))})",  # any order reads
            f"{head}({','.join([*fields, fields[0]])})",  # a field named twice
            f"{head}({','.join(fields[1:])})",
            f"{head}({','.join(fields)},)",
            f"{head}{head[2:]}({','.join(fields)})",
        ]
    return out


def test_every_rewriting_of_a_listed_move_reads_alike() -> None:
    rng = random.Random(7)
    assert any("(" in t for py, _ in LISTS for t in _listed_texts(py, rng))
    assert any("+" in t for py, _ in LISTS for t in _listed_texts(py, rng))
    for py, nat in LISTS:
        for text in _listed_texts(py, rng):
            assert Move.parse(text) in nat
            for variant in _variants(text):
                _check(py, nat, variant)
        for text in ("pass", " PASS ", "pas", "", "e5>(a1,a1)", "e5>(i9)", "e4-e4"):
            _check(py, nat, text)


def test_text_outside_utf8_is_in_no_list() -> None:
    py, nat = LISTS[-1]
    text = str(py[0])
    for odd in (text + "\ud800", "\udfff" + text):
        _check(py, nat, odd)


@st.composite
def _listed_and_text(draw: st.DrawFn) -> tuple[int, str]:
    at = draw(st.integers(0, len(LISTS) - 1))
    py = LISTS[at][0]
    texts = _listed_texts(py, random.Random(at), 6)
    listed = st.sampled_from(texts)
    return at, draw(st.one_of(listed, mutated_texts(listed, max_size=200), st.text(max_size=70)))


@settings(max_examples=400, deadline=None)
@given(_listed_and_text())
def test_fuzzed_text_reads_alike(case: tuple[int, str]) -> None:
    at, text = case
    py, nat = LISTS[at]
    _check(py, nat, text)
