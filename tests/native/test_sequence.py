"""The native move list is a ``LegalMoves`` like the Python engine's, operation by operation.

The native engine's list is the extension's own class, registered as a virtual
subclass of ``LegalMoves``; every operation of the sequence protocol, the
families and the errors must be those of the Python engine's list.
"""

from __future__ import annotations

import operator
import pickle
import random
from collections.abc import Callable, Iterator, Sequence

import attrs
import numpy as np
import pytest

from pacru import ChevronState, LegalMoves, Move
from pacru.chevron.engine import python_apply, python_legal_moves
from pacru.chevron.move import Move as PythonMove
from pacru.chevron.movelist import NO_PICKLE

from .support import CONFIGS, native, start


def _positions(game: str, players: int, plies: int = 60) -> list[ChevronState]:
    rng = random.Random(f"{game}{players}")
    state, out = start(game, players), []
    for _ in range(plies):
        if state.outcome is not None:  # a finished game's list is LegalMoves.empty()
            break
        out.append(state)
        moves = python_legal_moves(state)
        if not moves:
            break
        state = python_apply(state, moves[rng.randrange(len(moves))])
    return out


def _outcome(call: Callable[[], object]) -> tuple[str, object]:
    """What a call returns, or the class and message of what it raises."""
    try:
        return ("value", call())
    except (IndexError, TypeError, ValueError) as err:
        return (type(err).__name__, str(err))


def _index_outcomes(moves: LegalMoves, index: object) -> tuple[str, object]:
    return _outcome(lambda: moves[index])  # type: ignore[call-overload]


@pytest.mark.parametrize(("game", "players"), [c for c in CONFIGS if c[1] == 2])
def test_every_sequence_operation_agrees(game: str, players: int) -> None:
    for state in _positions(game, players):
        py, nat = python_legal_moves(state), native.legal_moves(state)
        assert isinstance(nat, native.NativeLegalMoves)
        assert isinstance(nat, LegalMoves)
        assert isinstance(nat, Sequence)
        n = len(py)
        assert len(nat) == n
        assert bool(nat) == bool(py)
        assert nat.is_pass == py.is_pass
        assert repr(nat) == repr(py)
        assert nat == py
        assert py == nat
        assert not nat != py  # noqa: SIM202 (__ne__ is its own slot)
        assert nat == list(py)
        assert nat == tuple(py)
        assert nat != py[1:] or n == 0
        # Indexing with any integer operator.index accepts, and out of range.
        indices: tuple[object, ...] = (0, 1, n // 2, n - 1, -1, -n, n, -n - 1, 1 << 70)
        for i in (*indices, np.int64(0), np.uint8(1), True):
            assert _index_outcomes(nat, i) == _index_outcomes(py, i)
        for bad in (1.0, 1.5, "0", None):
            # The same class and the same message (operator.index's).
            assert _index_outcomes(nat, bad) == _index_outcomes(py, bad)
            assert _index_outcomes(nat, bad)[0] == "TypeError"
        for s in (slice(None, 5), slice(-3, None), slice(None, None, -7), slice(2, 9, 3)):
            assert nat[s] == py[s]
        if n <= 400:
            assert list(nat) == list(py)
            assert list(reversed(nat)) == list(reversed(py))
        if n:
            _compare_lookups(py, nat, py[n // 3], n // 3)
        for absent in (Move.pass_move(), "zz9", "", 7, None):
            assert (absent in nat) == (absent in py)
            assert nat.count(absent) == py.count(absent)
        assert [repr(f) for f in nat.steps] == [repr(f) for f in py.steps]
        assert [repr(f) for f in nat.reorientations] == [repr(f) for f in py.reorientations]
        assert [list(f) for f in nat.families if f.size <= 50] == [
            list(f) for f in py.families if f.size <= 50
        ]
        for f in range(0, 81, 9):
            assert list(nat.from_field(f)) == list(py.from_field(f))
        with pytest.raises(TypeError):
            hash(nat)


def _compare_lookups(py: LegalMoves, nat: LegalMoves, move: Move, at: int) -> None:
    """``in`` (by move and by text), ``index`` (also past the move) and ``count``."""
    text: object = str(move)
    assert move in nat
    assert text in nat
    assert nat.index(move) == py.index(move) == at
    assert nat.count(move) == py.count(move) == 1
    after = _outcome(lambda: nat.index(move, at + 1))
    assert after == _outcome(lambda: py.index(move, at + 1))
    assert after[0] == "ValueError"
    # index and count compare items (a text is no move), as Sequence's do; `in` reads text.
    for value, first in ((text, 0), (move, 1 << 70), (move, -(1 << 70)), (move, at)):
        assert _outcome(lambda v=value, f=first: nat.index(v, f)) == _outcome(  # type: ignore[misc]
            lambda v=value, f=first: py.index(v, f)  # type: ignore[misc]
        )
    assert _outcome(lambda: nat.index(text)) == ("ValueError", f"{text!r} is not in list")
    assert nat.count(text) == py.count(text) == 0
    assert nat.index(move, -len(py)) == at


class _Two:
    def __index__(self) -> int:
        return 2


@pytest.mark.parametrize(
    "bounds",
    [
        (),
        (None,),
        (0, None),
        (None, 5),
        (1.0,),
        ("1",),
        (2,),
        (3,),
        (-30,),
        (-(1 << 70), 1 << 70),
        (0, 3),
        (0, 4),
        (0, -1),
        (np.int64(1), np.uint8(9)),
        (True,),
        (_Two(),),
    ],
)
def test_index_takes_its_bounds_as_list_index(bounds: tuple[object, ...]) -> None:
    """``moves.index(m, *bounds)`` returns and raises (class and message) what
    ``list(moves).index(m, *bounds)`` does, on both engines: a bound is an integer
    (``operator.index``), never None."""
    state = start("pacru", 2)
    nat, py = native.legal_moves(state), python_legal_moves(state)
    move = py[3]
    expected = _outcome(lambda: list(py).index(move, *bounds))  # type: ignore[arg-type]
    assert _outcome(lambda: py.index(move, *bounds)) == expected  # type: ignore[arg-type]
    assert _outcome(lambda: nat.index(move, *bounds)) == expected  # type: ignore[arg-type]
    assert expected[0] != "value" or expected[1] == 3


def test_index_takes_its_arguments_by_position_only() -> None:
    state = start("shacru", 2)
    for moves in (native.legal_moves(state), python_legal_moves(state)):
        with pytest.raises(TypeError, match="index"):
            moves.index(moves[0], start=0)  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="index"):
            moves.index(value=moves[0])  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="index"):
            moves.index(moves[0], 0, 5, 6)  # type: ignore[call-arg]


def test_the_native_list_refuses_assignment_and_deletion() -> None:
    nat = native.legal_moves(start("pacru", 2))
    for name in ("steps", "is_pass", "anything"):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(nat, name, None)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            delattr(nat, name)


def test_an_index_is_taken_through_operator_index() -> None:
    class Two:
        def __index__(self) -> int:
            return 2

    state = start("shacru", 2)
    nat, py = native.legal_moves(state), python_legal_moves(state)
    assert _index_outcomes(nat, Two()) == _index_outcomes(py, Two()) == ("value", py[2])
    assert operator.index(Two()) == 2


class _Backwards(list[object]):
    """A list whose iteration runs backwards: ``list(x)`` reads it so."""

    def __iter__(self) -> Iterator[object]:
        return reversed(list(super().__iter__()))


class _EqualsAll:
    """Equal to everything (as ``unittest.mock.ANY``)."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]


class _Sub(PythonMove):
    """A subclass of the Python ``Move``: equal to the moves of either class with its parts."""


def _compared(a: object, b: object) -> tuple[bool, bool]:
    return (a == b, a != b)


def test_equality_count_and_repr_are_the_python_lists() -> None:
    """``==``/``!=`` both ways, ``count`` and ``repr`` of the native list are those of the
    Python engine's ``LegalMoves`` against every kind of value, computed by the extension."""
    states = _positions("pacru", 2, 20)[::4] + _positions("shacru", 3, 12)[::4]
    lists = [(python_legal_moves(s), native.legal_moves(s)) for s in states]
    assert all(len(py) <= 400 for py, _ in lists)
    other_py, other_nat = lists[-1]
    for py, nat in lists:
        moves = list(py)
        n = len(moves)
        first = moves[0]
        values: list[object] = [
            py,
            nat,
            other_py,
            other_nat,
            native.legal_moves(states[0]),
            moves,
            tuple(moves),
            moves[:-1],
            [*moves, first],
            [*moves[1:], first],
            _Backwards(reversed(moves)),
            _Backwards(moves),
            [_EqualsAll()] * n,
            (_EqualsAll(),) * (n + 1),
            [str(m) for m in moves],
            set(moves),
            3,
            None,
            "e1-e2",
        ]
        for value in values:
            assert _compared(nat, value) == _compared(py, value), value
            assert _compared(value, nat) == _compared(value, py), value
        sub = _Sub(first.origin, first.target, capture=first.capture, twist=first.twist)
        counted: list[object] = [
            first,
            moves[-1],
            Move.pass_move(),
            str(first),
            sub,
            _EqualsAll(),
            7,
            1.5,
            None,
            (first,),
        ]
        for value in counted:
            assert nat.count(value) == py.count(value), value
        assert nat.count(_EqualsAll()) == n
        assert repr(nat) == repr(py)
    # A long list shows its first 8 moves and its count.
    py, nat = lists[0]
    assert repr(nat) == f"<LegalMoves [{', '.join(map(str, py[:8]))}, ... ({len(py)} moves)]>"


def test_the_native_list_refuses_pickling_with_the_python_lists_message() -> None:
    nat = native.legal_moves(start("pacru", 2))
    with pytest.raises(TypeError) as err:
        pickle.dumps(nat)
    assert str(err.value) == NO_PICKLE
    with pytest.raises(TypeError, match="does not pickle"):
        pickle.dumps(python_legal_moves(start("pacru", 2)))
