"""The native decisions of :mod:`pacru.encoding` against the Python ones, decision by decision.

Under the native engine :class:`~pacru.encoding.chevron.ChevronEncoding` works
a move's decisions out natively (``pacru._native.NativeDecision``). Here a twin
encoding takes the Python path on the Python engine's move list of the same
position, and random games are played through both: every decision must have
the same legal actions, kind, prefix, player, move (its text too) and
observation from every seat, and every refusal the same error.
"""

from __future__ import annotations

import copy
import os
import pickle
import random

import attrs
import numpy as np
import pytest

from pacru import ChevronState, Move
from pacru.chevron.engine import ENGINE
from pacru.encoding import Decision, Encoding
from pacru.encoding._native import NATIVE_DECISION
from pacru.encoding.chevron import ChevronEncoding
from pacru.errors import IllegalMoveError

from .support import CONFIGS, fresh, python_copy, start

#: Random games per game and player count (each compared at every decision).
GAMES = max(1, int(os.environ.get("PACRU_NATIVE_GAMES", "100")) // 5)
MAX_PLIES = 200

pytestmark = pytest.mark.skipif(ENGINE != "native", reason="the native engine is not in use")


def python_twin(enc: ChevronEncoding) -> ChevronEncoding:
    """An encoding of the same game that takes the Python decision path."""
    twin = Encoding.for_game(enc.game, enc.players, **enc.options)
    assert isinstance(twin, ChevronEncoding)
    object.__setattr__(twin, "_native", None)  # a frozen value: this test's lever only
    return twin


def python_state(state: ChevronState) -> ChevronState:
    """``state`` with the Python engine's move list cached: the Python path reads it."""
    copy = python_copy(state)
    copy.legal_moves()
    return copy


def assert_same(nat: Decision, py: Decision, where: str) -> None:
    assert type(nat) is NATIVE_DECISION, where
    assert isinstance(nat, Decision), where
    assert type(py) is Decision, where
    assert nat.legal_actions == py.legal_actions, where
    assert nat.kind == py.kind, where
    assert nat.prefix == py.prefix, where
    assert nat.player == py.player, where
    assert nat.move == py.move, where
    assert nat.done is py.done, where
    assert str(nat.move) == str(py.move), where
    assert repr(nat) == repr(py), where
    enc = nat.encoding
    for seat in range(enc.players):
        assert np.array_equal(enc.observation(nat, seat), py.encoding.observation(py, seat)), (
            where,
            seat,
        )


def play(game: str, players: int, seed: int) -> int:
    """One random game through both decision paths; the decisions compared."""
    rng = random.Random(seed)
    state = start(game, players)
    enc = Encoding.of(state)
    assert isinstance(enc, ChevronEncoding)
    twin = python_twin(enc)
    decisions = 0
    while state.outcome is None and state.ply < MAX_PLIES:
        nat, py = enc.start(state), twin.start(python_state(state))
        while True:
            where = f"{game} {players}p seed {seed} ply {state.ply} prefix {nat.prefix}"
            assert_same(nat, py, where)
            decisions += 1
            if nat.move is not None:
                break
            action = rng.choice(nat.legal_actions)
            nat, py = nat.choose(action), py.choose(action)
        assert enc.actions(state, nat.move) == nat.prefix
        state = state.apply_move(nat.move)
    return decisions


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_native_decisions_equal_python(game: str, players: int) -> None:
    decisions = sum(play(game, players, seed) for seed in range(GAMES))
    assert decisions > GAMES * 20


def errors(decision: Decision, action: object) -> tuple[type[Exception], str]:
    with pytest.raises(IllegalMoveError) as info:
        decision.choose(action)  # type: ignore[arg-type]
    return type(info.value), str(info.value)


@pytest.mark.parametrize("game", ["shacru", "pacru"])
def test_native_choose_refuses_as_python(game: str) -> None:
    state = start(game, 2)
    enc = Encoding.of(state)
    assert isinstance(enc, ChevronEncoding)
    nat, py = enc.start(state), python_twin(enc).start(python_state(state))
    legal = nat.legal_actions[0]
    for bad in (999, -1, 414, 1.0, float(legal), True, "1", None, legal + 0.5):
        assert errors(nat, bad) == errors(py, bad), bad
    # Any integer type is its int; keywords go through the Python method.
    assert nat.choose(np.int16(legal)).prefix == (legal,)
    assert nat.choose(action=legal).prefix == (legal,)
    done = nat
    while done.move is None:
        done = done.choose(done.legal_actions[-1])
    twin_done = py
    while twin_done.move is None:
        twin_done = twin_done.choose(twin_done.legal_actions[-1])
    assert done.move == twin_done.move
    assert errors(done, 0) == errors(twin_done, 0)
    with pytest.raises(TypeError):
        nat.choose()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        nat.choose(legal, legal)  # type: ignore[call-arg]


def test_native_decision_applies_without_check() -> None:
    """The finished decision's move is the one its list handed out: applied as listed."""
    state = start("pacru", 2)
    enc = Encoding.of(state)
    decision = enc.start(state)
    while decision.move is None:
        decision = decision.choose(decision.legal_actions[0])
    move: Move = decision.move
    issued = state.legal_moves()._impl.issued
    assert issued is move
    assert state.apply_move(move) == state.apply_move(str(move))


def test_native_decision_is_an_immutable_decision() -> None:
    """A Decision to isinstance and issubclass; made only by the encoding; immutable."""
    state = start("lilacru", 2)
    decision = Encoding.of(state).start(state)
    assert NATIVE_DECISION is not None
    assert type(decision) is NATIVE_DECISION
    assert isinstance(decision, Decision)
    assert issubclass(NATIVE_DECISION, Decision)
    assert not issubclass(Decision, NATIVE_DECISION)
    with pytest.raises(TypeError):
        NATIVE_DECISION()
    for name in ("encoding", "state", "player", "prefix", "legal_actions", "kind", "move"):
        with pytest.raises(AttributeError):
            setattr(decision, name, 1)
    with pytest.raises(AttributeError):
        decision.extra = 1  # type: ignore[attr-defined]
    assert copy.copy(decision) is decision
    assert copy.deepcopy(decision) is decision
    # Compared by identity, as the Python decisions: another decision of the same position
    # and actions is another decision.
    twin = Encoding.of(state).start(state)
    assert (twin.legal_actions, twin.prefix) == (decision.legal_actions, decision.prefix)
    assert twin != decision
    assert len({twin, decision}) == 2
    with pytest.raises(TypeError):
        pickle.dumps(decision)


def test_native_decisions_are_values() -> None:
    """A decision chosen from twice, or after its position was played on, is unchanged."""
    state = start("pacru", 2)
    enc = Encoding.of(state)
    assert isinstance(enc, ChevronEncoding)
    first = enc.start(state)
    origins = first.legal_actions
    targets = [first.choose(origin) for origin in origins]
    again = [first.choose(origin) for origin in origins]
    assert [t.legal_actions for t in targets] == [a.legal_actions for a in again]
    assert all(t is not a for t, a in zip(targets, again, strict=True))
    done = targets[-1]
    while done.move is None:
        done = done.choose(done.legal_actions[0])
    later = state.apply_move(done.move)
    enc.start(later).choose(enc.start(later).legal_actions[0])
    assert (first.legal_actions, first.prefix, first.kind) == (origins, (), "origin")
    twin = python_twin(enc).start(python_state(state))
    for nat in (first, targets[0]):
        py = twin if nat is first else twin.choose(nat.prefix[0])
        assert_same(nat, py, f"prefix {nat.prefix}")
        assert np.array_equal(nat.legal_action_mask(), py.legal_action_mask())


@pytest.mark.parametrize("game", ["shacru", "pacru"])
def test_native_start_of_equal_rules(game: str) -> None:
    """A state with rules equal to the encoding's, not the same object: native decisions."""
    state = start(game, 2)
    enc = Encoding.of(state)
    assert isinstance(enc, ChevronEncoding)
    other = fresh(state, rules=attrs.evolve(state.rules))
    assert other.rules == enc.rules
    assert other.rules is not enc.rules
    nat, py = enc.start(other), python_twin(enc).start(python_state(other))
    while True:
        assert_same(nat, py, f"{game} prefix {nat.prefix}")
        if nat.move is not None:
            break
        nat, py = nat.choose(nat.legal_actions[-1]), py.choose(nat.legal_actions[-1])


def test_native_start_without_a_native_list() -> None:
    """A state holding the Python engine's list (this test's lever) gets the Python
    decisions, not the refusal of a position without legal moves."""
    state = python_state(start("pacru", 2))
    enc = Encoding.of(state)
    assert isinstance(enc, ChevronEncoding)
    decision = enc.start(state)
    assert type(decision) is Decision
    assert decision.legal_actions == python_twin(enc).start(state).legal_actions


def test_native_refusal_of_a_huge_action_calls_no_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """An action past 64 bits is shown from the C API, not by a call of ``operator.index``
    (issue 40: the decisions call nothing of Python's), with the Python check's message."""
    import operator

    state = start("shacru", 2)
    enc = Encoding.of(state)
    assert isinstance(enc, ChevronEncoding)
    nat, py = enc.start(state), python_twin(enc).start(python_state(state))
    huge = (2**70, -(2**70), 2**64 - 1, np.uint64(2**64 - 1))
    expected = [errors(py, action) for action in huge]

    def called(*args: object) -> None:
        raise AssertionError("called back")

    monkeypatch.setattr(operator, "index", called)
    assert [errors(nat, action) for action in huge] == expected


def test_native_decisions_call_no_pacru_method(monkeypatch: pytest.MonkeyPatch) -> None:
    """The state's list, the check of an action, its errors and the mask are the
    extension's own: no method of the state or the encoding is called back (issue 40)."""
    state = start("shacru", 2)
    enc = Encoding.of(state)
    assert isinstance(enc, ChevronEncoding)

    def called(*args: object) -> None:
        raise AssertionError("called back")

    monkeypatch.setattr(type(state), "legal_moves", called)
    for name in ("_checked_action", "_action_mask", "action_name"):
        monkeypatch.setattr(ChevronEncoding, name, called)
    decision = enc.start(state)
    assert type(decision) is NATIVE_DECISION
    assert np.flatnonzero(decision.legal_action_mask()).tolist() == [5, 19, 27, 81]
    with pytest.raises(IllegalMoveError, match=r"action 41 \(origin e5\) is not legal"):
        decision.choose(41)
    with pytest.raises(IllegalMoveError, match=r"an action is an integer, not 5\.0"):
        decision.choose(5.0)  # type: ignore[arg-type]
    done = decision.choose(np.int64(5)).choose(95)
    assert str(done.move) == "e1-e2"
    with pytest.raises(IllegalMoveError, match="the move e1-e2 is complete"):
        done.choose(0)


def test_native_start_checks_the_state_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """``start`` hands the state to the extension at once, which checks its class and
    rules itself (no Python of pacru's on the way); other options take the Python check."""
    state = start("pacru", 2)
    enc = Encoding.of(state)

    def called(*args: object) -> None:
        raise AssertionError("called back")

    with monkeypatch.context() as patch:
        patch.setattr(ChevronEncoding, "_check_state", called)
        patch.setattr(type(state), "rules", property(called))
        assert type(enc.start(state)) is NATIVE_DECISION
    equal = attrs.evolve(state.rules)  # equal rules, another object: decided natively
    assert equal == state.rules
    assert equal is not state.rules
    assert type(enc.start(fresh(state, equal))) is NATIVE_DECISION
    capped = fresh(state, attrs.evolve(state.rules, move_cap=50))
    with pytest.raises(ValueError, match=r"use Encoding\.of\(state\)"):
        enc.start(capped)
    assert type(Encoding.of(capped).start(capped)) is NATIVE_DECISION


class _BigInt(int):
    """An int subclass: ``choose`` reads its value, as ``operator.index`` does."""


@pytest.mark.parametrize(
    "bad",
    [
        2**70,
        -(2**70),
        2**64 - 1,
        2**63,
        -(2**63) - 1,
        2**200,
        _BigInt(2**70),
        np.uint64(2**64 - 1),
        np.bool_(1),
    ],
)
def test_native_choose_refuses_malformed_actions_as_python(bad: object) -> None:
    state = start("pacru", 3)
    enc = Encoding.of(state)
    assert isinstance(enc, ChevronEncoding)
    nat, py = enc.start(state), python_twin(enc).start(python_state(state))
    assert errors(nat, bad) == errors(py, bad)
    legal = nat.legal_actions[0]
    for kind in (np.int8, np.int64, np.uint16):
        assert nat.choose(kind(legal)).prefix == py.choose(kind(legal)).prefix == (legal,)
