"""The native engine behind the public API: refused moves, pickles, frozen objects, errors."""

from __future__ import annotations

import contextlib
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Container
from typing import Any

import attrs
import numpy
import pytest

import pacru
from pacru import ChevronState, IllegalMoveError, Move
from pacru.chevron.engine import (
    OPS,
    SEARCH,
    STATE_CLASS,
    Engine,
    PythonEngine,
    native_module,
    python_apply,
    python_legal_moves,
)
from pacru.chevron.move import Move as PythonMove
from pacru.chevron.pystate import PythonChevronState
from pacru.lsd.native import rules_args

from .support import CONFIGS, fresh, native, python_copy, start

#: The parts of a move, in the constructor's order.
MOVE_FIELDS = (
    "origin",
    "target",
    "capture",
    "twist",
    "turn",
    "connection",
    "marker",
    "meeting",
    "relinquished",
)


def _line(game: str, players: int, seed: int, plies: int) -> list[ChevronState]:
    rng = random.Random(seed)
    states = [start(game, players)]
    for _ in range(plies):
        moves = python_legal_moves(states[-1])
        if not moves:
            break
        states.append(python_apply(states[-1], moves[rng.randrange(len(moves))]))
    return states


def _variants(move: Move) -> list[Move]:
    """Moves one choice away from ``move`` (most of them illegal)."""
    out = []
    changes: list[dict[str, Any]] = [{"twist": t} for t in (-1, 0, 1) if t != move.twist]
    changes += [{"connection": not move.connection}, {"capture": not move.capture}]
    changes += [{"marker": f} for f in (None, 0, 40, 80) if f != move.marker]
    changes += [{"meeting": f} for f in (None, 1, 41) if f != move.meeting]
    if move.target is not None:
        changes += [{"target": (move.target + d) % 81} for d in (1, 9, 10)]
    if move.relinquished:
        changes += [{"relinquished": move.relinquished[1:]}]
        changes += [{"relinquished": (*move.relinquished[:-1], (move.relinquished[-1] + 1) % 81)}]
    for change in changes:
        with contextlib.suppress(ValueError):
            out.append(attrs.evolve(move, **change))
    return out


def _with_moves(state: ChevronState, native_list: bool) -> ChevronState:
    """A copy of ``state`` of the engine's class, with its move list cached."""
    copy = native.native_state(fresh(state)) if native_list else python_copy(state)
    copy.legal_moves()
    return copy


def _refusal(state: ChevronState, move: Move) -> tuple[type, str, str | None, str | None]:
    with pytest.raises(IllegalMoveError) as info:
        state.apply_move(move)
    return type(info.value), str(info.value), info.value.rule, info.value.reason


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_membership_and_refused_moves_agree(game: str, players: int) -> None:
    rng = random.Random(7)
    refused = 0
    for state in _line(game, players, 3, 40)[::4]:
        py_state, nat_state = _with_moves(state, False), _with_moves(state, True)
        py_moves, nat_moves = py_state.legal_moves(), nat_state.legal_moves()
        py_in: Container[object] = py_moves
        nat_in: Container[object] = nat_moves
        picks = [py_moves[rng.randrange(len(py_moves))] for _ in range(12)] if py_moves else []
        for move in picks:
            assert move in nat_moves
            assert str(move) in nat_in
            for other in _variants(move):
                legal = other in py_moves
                assert (other in nat_moves) == legal, (state.to_position(), str(other))
                assert (str(other) in nat_in) == (str(other) in py_in) == legal
                if not legal:
                    assert _refusal(nat_state, other) == _refusal(py_state, other)
                    refused += 1
    assert refused > 20
    assert "x" not in nat_in
    assert 3 not in nat_in


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_pickles_load_under_either_engine(game: str, players: int) -> None:
    rng = random.Random(11)
    py_state, nat_state = start(game, players), start(game, players)
    for _ in range(30):
        py_moves = python_legal_moves(py_state)
        if not py_moves:
            break
        i = rng.randrange(len(py_moves))
        py_state = python_apply(py_state, py_moves[i])
        nat_state = native.apply(nat_state, native.legal_moves(nat_state)[i])
    native.position(nat_state)
    blob = pickle.dumps(nat_state)
    assert blob == pickle.dumps(py_state)  # the native position is not pickled
    loaded = pickle.loads(blob)
    assert loaded == py_state
    assert loaded.last_move == py_state.last_move
    assert list(python_legal_moves(loaded)) == list(native.legal_moves(loaded))
    assert hash(loaded) == hash(nat_state) == hash(py_state)


def test_native_objects_refuse_assignment() -> None:
    state = start("pacru", 2)
    pos = native.position(state)
    moves = native.legal_moves(state)
    assert isinstance(moves, native.NativeLegalMoves)
    with pytest.raises(AttributeError):
        pos.markers = ()  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        moves.is_pass = True  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        moves._py = moves  # type: ignore[attr-defined]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del moves.steps
    assert isinstance(moves, pacru.LegalMoves)


def test_bad_input_is_an_exception_not_a_crash() -> None:
    ext = native_module()
    assert ext is not None
    good = ("pacru", "2011", None, 81, (0, 0), ((), ()), 0, 0, -1, 0, 0, None, 0)
    ext.Position(*good)
    for i, bad in ((0, "chess"), (1, "1999"), (11, "won")):
        with pytest.raises(ValueError, match=r"unknown|no chevron"):
            ext.Position(*good[:i], bad, *good[i + 1 :])
    with pytest.raises(OverflowError):
        ext.Position(*good[:6], -1, *good[7:])
    moves = native.legal_moves(start("shacru", 2))
    for index in (16, -17, 2**70, -(2**70)):
        with pytest.raises(IndexError, match="legal move index out of range"):
            moves[index]
    with pytest.raises(TypeError):
        moves["0"]  # type: ignore[call-overload]
    assert moves[-16] == moves[0]
    assert moves[numpy.int64(3)] == moves[3]  # type: ignore[call-overload]
    state = start("shacru", 2)
    # A refused move is diagnosed by the engine (pacru_engine::check): the Python engine's
    # error, word for word (mapped to IllegalMoveError in rust/python/src/errors.rs).
    with pytest.raises(IllegalMoveError) as refused:
        native.apply(state, Move(origin=0, target=80))
    with pytest.raises(IllegalMoveError) as reference:
        python_copy(state).apply_move(Move(origin=0, target=80))
    assert str(refused.value) == str(reference.value)
    assert (refused.value.rule, refused.value.reason) == ("S-R3", reference.value.reason)
    with pytest.raises(pacru.InvalidPositionError, match="two chevrons on a1"):
        ext.Position(*good[:5], ((0,), (1,)), *good[6:])


def test_the_engine_in_use_and_the_python_override() -> None:
    assert pacru.ENGINE in {"native", "python"}
    ext = native_module()
    assert ext is not None
    assert ("native" if ext.COMPLETE and not _forced() else "python") == pacru.ENGINE
    code = "import pacru; print(pacru.ENGINE)"
    env = {**os.environ, "PACRU_ENGINE": "python"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "python"


def test_the_engine_object_of_each_engine() -> None:
    """OPS is the object of the engine in use; the Python engine's answers None where the
    native one runs the extension, and both hand over the extension's search."""
    ext = native_module()
    assert ext is not None
    assert (OPS.name, OPS.state_class) == (pacru.ENGINE, STATE_CLASS)
    assert type(OPS) is (native.NativeEngine if pacru.ENGINE == "native" else PythonEngine)
    state = start("shacru", 2)
    python: Engine = PythonEngine()
    assert (python.name, python.batches) == ("python", False)
    assert python.state_class is PythonChevronState
    assert python.decision_class is None
    assert python.decision_layout(2, 1, 1.0, 1.0, 0, state.rules) is None
    lsd = rules_args(pacru.new_game("lsd", 2).rules)
    assert python.lsd_rules(*lsd) is None
    assert python.random_rollouts(state, 2, 0, 10, True, False, 1) is None
    engine = native.NativeEngine()
    assert (engine.name, engine.state_class, engine.batches) == (
        "native",
        native.NativeChevronState,
        True,
    )
    assert engine.decision_class is ext.NativeDecision
    assert isinstance(engine.decision_layout(2, 1, 1.0, 1.0, 0, state.rules), ext.DecisionLayout)
    assert isinstance(engine.lsd_rules(*lsd), ext.LsdRules)
    returns, plies, moves = engine.random_rollouts(state, 2, 0, 10, True, False, 1)
    assert (len(returns), len(plies), moves) == (2 * 2 * 4, 2 * 4, None)
    both: list[Engine] = [python, engine]  # each is an Engine to the type checker, too
    assert [e.name for e in both] == ["python", "native"]
    # The search is the extension's on either engine: one object, not an engine's.
    assert SEARCH.searcher() is ext.search_move


def _forced() -> bool:
    return os.environ.get("PACRU_ENGINE", "").strip().lower() == "python"


def test_the_extension_keeps_no_object_of_pacru() -> None:
    """Nothing is registered with the extension at import, and no method is replaced:
    the state's methods are the Python functions of its class (issue 29)."""
    from pacru import _native

    for name in ("init", "state_methods", "legal_moves", "apply"):
        assert not hasattr(_native, name), name
    for name in ("legal_moves", "apply_move"):
        method = vars(pacru.ChevronState)[name]
        assert method.__module__ == "pacru.chevron.state", name
    assert native.legal_moves(start("shacru", 2))[0] == pacru.Move.parse("e1-d2")


@pytest.mark.parametrize("value", ["rust", "nativ", "pyhton", "1"])
def test_an_unknown_engine_name_is_an_error(value: str) -> None:
    env = {**os.environ, "PACRU_ENGINE": value}
    out = subprocess.run(
        [sys.executable, "-c", "import pacru"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode != 0
    assert "PACRU_ENGINE must be one of native, python or empty" in out.stderr
    assert repr(value) in out.stderr


def test_the_native_engine_by_name() -> None:
    code = "import pacru; print(pacru.ENGINE)"
    env = {**os.environ, "PACRU_ENGINE": " Native "}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "native"


def test_version_names_the_native_engine() -> None:
    """``pacru --version`` (``python -m pacru``) where the extension is built: no reason given."""
    env = {**os.environ, "PACRU_ENGINE": ""}
    out = subprocess.run(
        [sys.executable, "-m", "pacru", "--version"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout == f"pacru {pacru.__version__}\nengine: native\n"


def test_the_lists_hand_out_native_moves_the_constructor_builds() -> None:
    """The native lists' moves are native moves (``pacru._native.Move``) made in Rust
    without the constructor's checks: every field is what the Python constructor gives,
    and so are ==, hash and the text."""
    extension = native_module()
    assert extension is not None
    state = start("pacru", 2)
    rng = random.Random(7)
    for _ in range(40):
        moves = native.legal_moves(state)
        if not moves:
            break
        for move in (moves[0], moves[-1], moves[rng.randrange(len(moves))]):
            made = PythonMove(**{name: getattr(move, name) for name in MOVE_FIELDS})
            assert type(move) is extension.Move
            assert move == made
            assert made == move
            assert hash(move) == hash(made)
            assert str(move) == str(made)
            assert PythonMove.parse(str(move)) == move
        state = state.apply_move(moves[rng.randrange(len(moves))])


def test_a_hand_built_state_beyond_the_counters_is_an_invalid_position() -> None:
    """A state built directly (not read) with a count no engine holds: InvalidPositionError
    when the native engine first needs it, never an OverflowError."""
    s = start("shacru", 2)
    built = python_copy(s)
    object.__setattr__(built, "ply", 2**64)  # the Python class holds any int
    with pytest.raises(pacru.InvalidPositionError, match="out of range"):
        native.position(built)
    with pytest.raises(pacru.InvalidPositionError, match="out of range"):
        native.NativeChevronState(s.rules, s.players, s.markers, s.chevrons, 0, ply=2**64)


def test_the_native_state_binds_its_arguments_as_its_signature_says() -> None:
    """The native state's class binds its values itself (not by PyO3, so that the call with
    none that makes each successor is cheap): by position and by keyword as its signature
    gives them, with PyO3's errors word for word, and no value at all is refused."""
    s = start("pacru", 2)
    by_keyword = native.NativeChevronState(
        rules=s.rules, players=s.players, markers=s.markers, chevrons=s.chevrons, to_move=0
    )
    mixed = native.NativeChevronState(s.rules, s.players, s.markers, chevrons=s.chevrons, to_move=0)
    assert by_keyword == mixed == s
    assert by_keyword.legal_moves() == s.legal_moves()
    sig = "($cls, rules=None, players=None, markers=None, chevrons=None, to_move=None, out=None, "
    extension = native_module()
    assert extension is not None
    assert extension.State.__text_signature__ == sig + (
        "trigger=None, idle=None, ply=None, outcome=None, occupied=None, last=None)"
    )
    with pytest.raises(TypeError) as many:
        native.NativeChevronState(*[None] * 13)
    assert str(many.value) == (
        "State.__new__() takes from 0 to 12 positional arguments but 13 were given"
    )
    with pytest.raises(TypeError) as twice:
        native.NativeChevronState(s.rules, rules=s.rules)  # type: ignore[misc]
    assert str(twice.value) == "State.__new__() got multiple values for argument 'rules'"
    with pytest.raises(TypeError) as unknown:
        native.NativeChevronState(s.rules, bogus=1)  # type: ignore[call-arg]
    assert str(unknown.value) == "State.__new__() got an unexpected keyword argument 'bogus'"
    for nothing in ({}, {"rules": None}):
        with pytest.raises(TypeError, match=r"a state is made by pacru\.new_game"):
            native.NativeChevronState(**nothing)
