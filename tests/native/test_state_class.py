"""The two engines' state classes are one ``pacru.ChevronState`` to users.

:class:`pacru.chevron.pystate.PythonChevronState` (the readable reference) and
``pacru.chevron.native.NativeChevronState`` (the extension's ``State``): the same
public methods and properties with the same signatures and docstrings, equal and
equally hashed for equal positions, the same ``repr``/``str``, frozen, copies that
are the state itself, and pickles that load under either engine (issue 29).
"""

from __future__ import annotations

import copy
import inspect
import operator
import os
import pickle
import random
import subprocess
import sys
import weakref
from typing import Any

import attrs
import numpy
import pytest

import pacru
from pacru import ChevronState, Move
from pacru.chevron.pystate import PythonChevronState

from .support import CONFIGS, native, python_copy, start

NATIVE: Any = native.NativeChevronState


def _public(cls: type) -> list[str]:
    return sorted(name for name in dir(cls) if not name.startswith("_"))


def _parameters(function: Any) -> list[tuple[str, Any, Any]]:
    """The parameters without annotations; ``self`` by name only (positional-only in an
    extension's signature)."""
    self, *rest = inspect.signature(function).parameters.values()
    return [(self.name, None, None), *((p.name, p.kind, p.default) for p in rest)]


def test_both_classes_are_the_shared_class() -> None:
    for cls in (PythonChevronState, NATIVE):
        assert issubclass(cls, ChevronState)
        assert issubclass(cls, pacru.GameState)
        assert inspect.getdoc(cls) == inspect.getdoc(ChevronState)
    assert type(pacru.new_game("pacru", 2)) is (
        NATIVE if pacru.ENGINE == "native" else PythonChevronState
    )


def test_every_public_member_has_the_same_signature_and_docstring() -> None:
    names = _public(PythonChevronState)
    assert names == _public(NATIVE)
    assert {"apply_move", "legal_moves", "markers", "ply", "scores", "to_position"} <= set(names)
    fields = {f.name for f in attrs.fields(PythonChevronState)}
    for name in names:
        ours, theirs = getattr(PythonChevronState, name), getattr(NATIVE, name)
        if name in fields:  # a value: documented in the class docstring, read below
            continue
        assert inspect.getdoc(ours) == inspect.getdoc(theirs), name
        assert inspect.getdoc(ours) == inspect.getdoc(getattr(ChevronState, name)), name
        if callable(ours):
            assert _parameters(ours) == _parameters(theirs), name


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_equal_values_across_engines(game: str, players: int) -> None:
    rng = random.Random(5)
    nat: ChevronState = native.native_state(start(game, players))
    py = python_copy(nat)
    for _ in range(60):
        fields = [f.name.lstrip("_") for f in attrs.fields(PythonChevronState)][:11]
        for name in fields:
            assert getattr(nat, name) == getattr(py, name), name
        assert nat == py
        assert py == nat
        assert hash(nat) == hash(py)
        assert repr(nat) == repr(py)
        assert str(nat) == str(py)
        assert nat.last_move == py.last_move
        assert nat.scores == py.scores
        assert nat.supply == py.supply
        assert nat.zobrist_hash() == py.zobrist_hash()
        assert copy.copy(nat) is nat
        assert copy.deepcopy(nat) is nat
        moves = nat.legal_moves()
        if not moves:
            assert py.legal_moves() == moves
            assert nat.outcome is not None
            assert nat.outcome == py.outcome
            break
        move = moves[rng.randrange(len(moves))]
        nat, py = nat.apply_move(move), py.apply_move(str(move))
        assert type(nat) is NATIVE
        assert type(py) is PythonChevronState


def test_a_state_is_weakly_referenced_and_made_only_from_values() -> None:
    nat = native.native_state(start("pacru", 2))
    for state in (nat, python_copy(nat)):
        assert weakref.ref(state)() is state
    with pytest.raises(TypeError, match=r"a state is made by pacru\.new_game"):
        NATIVE()


def test_a_state_refuses_assignment() -> None:
    nat = native.native_state(start("pacru", 2))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        nat.ply = 3  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        nat.extra = 3  # type: ignore[attr-defined]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del nat.ply
    assert nat.ply == 0


def test_integer_types_operator_index_accepts() -> None:
    s = start("shacru", 2)
    typed = NATIVE(
        s.rules,
        s.players,
        tuple(numpy.uint64(m) for m in s.markers),
        tuple(tuple(numpy.int16(c) for c in seat) for seat in s.chevrons),
        numpy.int8(0),
        ply=numpy.int64(7),
        idle=True,
    )
    assert (typed.ply, typed.idle, typed.to_move) == (7, 1, 0)
    assert typed == python_copy(s).__class__(
        s.rules, s.players, s.markers, s.chevrons, 0, ply=7, idle=1
    )
    with pytest.raises(TypeError):
        NATIVE(s.rules, s.players, s.markers, s.chevrons, 0.0)
    assert operator.index(numpy.int8(0)) == 0


_NAMES = ("rules", "players", "markers", "chevrons", "to_move", "out", "trigger", "idle", "ply")
_RANGE = f"a count or seat of this position is out of range (counters: 0..{2**64 - 1})"
_VALUES: list[tuple[str, object, str | None]] = [
    # (argument, value, the InvalidPositionError message, or None: taken)
    ("ply", -1, _RANGE),
    ("ply", 2**64, _RANGE),
    ("ply", 2**64 - 1, None),
    ("idle", 2**70, _RANGE),
    ("idle", -1, _RANGE),
    ("to_move", -1, _RANGE),
    ("to_move", 5, "to_move must be a seat 0..1, not 5"),
    ("to_move", 2, "to_move must be a seat 0..1, not 2"),
    ("to_move", 256, _RANGE),
    ("out", 4, "out names a seat beyond the players"),
    ("out", -1, _RANGE),
    ("trigger", -2, "trigger must be -1 or a seat, not -2"),
    ("trigger", 2, "trigger must be -1 or a seat, not 2"),
    ("trigger", -129, _RANGE),
    ("players", ("green",), "the players and the markers differ in number"),
    ("markers", (0,), "a chevron game is played by 2, 3 or 4 players, not 1"),
    ("markers", (-1, 0), _RANGE),
    ("markers", (1 << 81, 0), "a marker bitboard has bits above field 80"),
    ("markers", (6, 3), "b1 holds markers of two colours"),
    ("chevrons", ((),), "markers and chevrons must list 2 seats, not 2 and 1"),
    ("chevrons", ((648,), ()), "chevron code must be field * 8 + facing below 648, not 648"),
    ("chevrons", ((8, 9), ()), "two chevrons on b1"),
    ("chevrons", ((8,), (9,)), "two chevrons on b1"),
    ("chevrons", ((24, 16), (8,)), None),
    ("markers", [numpy.uint64(1), 2], None),
]


@pytest.mark.parametrize(("name", "value", "message"), _VALUES)
def test_both_classes_check_their_values_alike(
    name: str, value: object, message: str | None
) -> None:
    """``ChevronState(...)`` from values: both engines take the same values and store them
    alike (ints, sorted codes), and refuse the others with the same error."""
    s = start("pacru", 2)
    values: list[Any] = [getattr(s, n) for n in _NAMES]
    values[_NAMES.index(name)] = value
    states = []
    for cls in (NATIVE, PythonChevronState, ChevronState):  # the last: the engine in use
        if message is None:
            states.append(cls(*values))
        else:
            with pytest.raises(pacru.InvalidPositionError) as caught:
                cls(*values)
            assert str(caught.value) == message
    if states:
        nat, py, _ = states
        assert nat._values()[:10] == py._values()[:10]
        for state in states:
            assert all(type(m) is int for m in state.markers)
            assert state.chevrons == tuple(tuple(sorted(seat)) for seat in state.chevrons)


def test_both_classes_refuse_what_is_no_value_alike() -> None:
    s = start("pacru", 2)
    cases: list[tuple[str, object]] = [
        ("players", ["green", "yellow"]),
        ("to_move", None),
        ("to_move", 1.5),
        ("ply", "3"),
        ("markers", 5),
        ("rules", attrs.evolve(s.rules, game="chess")),
        ("rules", attrs.evolve(s.rules, meeting_rule="new")),
    ]
    for name, value in cases:
        values: list[Any] = [getattr(s, n) for n in _NAMES]
        values[_NAMES.index(name)] = value
        with pytest.raises((TypeError, ValueError)) as theirs:
            NATIVE(*values)
        with pytest.raises((TypeError, ValueError)) as ours:
            PythonChevronState(*values)
        assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))


def test_an_outcome_is_kept_as_the_native_engine_keeps_it() -> None:
    """The winners of a given outcome that are players, in turn order, on both engines."""
    s = start("pacru", 2)
    given = pacru.Outcome(pacru.Termination.MOVE_CAP, ("yellow", "nobody", "green"))
    classes: tuple[Any, ...] = (NATIVE, PythonChevronState)
    for cls in classes:
        state = cls(*(getattr(s, n) for n in _NAMES), given)
        assert state.outcome == pacru.Outcome(pacru.Termination.MOVE_CAP, ("green", "yellow"))


def test_the_error_path_is_the_python_engines() -> None:
    nat = native.native_state(start("pacru", 2))
    py = python_copy(nat)
    for bad in ("a1-i9", "e1-e1", "nonsense", Move(origin=0, target=80)):
        with pytest.raises(pacru.PacruError) as theirs:
            py.apply_move(bad)
        with pytest.raises(pacru.PacruError) as ours:
            nat.apply_move(bad)
        assert type(ours.value) is type(theirs.value)
        assert str(ours.value) == str(theirs.value)
    for state in (nat, py):
        with pytest.raises(TypeError, match="apply_move takes a Move or a string, not int"):
            state.apply_move(3)  # type: ignore[arg-type]


_LOAD = (
    "import pickle, sys, pacru; s = pickle.loads(bytes.fromhex(sys.argv[1])); "
    "print(pacru.ENGINE, type(s).__name__, s.ply, s.to_position(), "
    "pickle.dumps(s).hex() == sys.argv[1])"
)


@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_pickle_loads_in_a_process_of_either_engine(engine: str) -> None:
    rng = random.Random(3)
    state = start("pacru", 3)
    for _ in range(25):
        moves = state.legal_moves()
        state = state.apply_move(moves[rng.randrange(len(moves))])
    blob = pickle.dumps(state)
    assert blob == pickle.dumps(python_copy(state)) == pickle.dumps(native.native_state(state))
    env = {**os.environ, "PACRU_ENGINE": engine}
    out = subprocess.run(
        [sys.executable, "-c", _LOAD, blob.hex()],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    made = "NativeChevronState" if engine == "native" else "PythonChevronState"
    assert out == [engine, made, "25", *state.to_position().split(), "True"]
