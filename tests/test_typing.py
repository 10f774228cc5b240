"""The public entry points' static types: mypy --strict checks this file (pyproject's files).

``assert_type`` fails mypy when an inferred type differs; a ``# type: ignore[...]``
that mypy no longer needs fails it too (``warn_unused_ignores`` under --strict), so
the lines marked so prove that the call does *not* type-check. The tests also run,
and check the same values at run time.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Literal, assert_type

import pytest

import pacru
import pacru.chevron.setup
import pacru.lsd
from pacru import ChevronState, Game, LsdState
from pacru.chevron.move import Move
from pacru.chevron.rules import ChevronOptions
from pacru.lsd.moves import LsdMove
from pacru.lsd.rules import LsdOptions


def test_new_game_is_typed_by_the_game_name() -> None:
    shacru = pacru.new_game("shacru")
    assert_type(shacru, ChevronState)
    # A chevron state's own methods need no isinstance, and a move must be a move.
    assert shacru.chevron_at("e1") == pacru.Chevron(owner="green", facing=pacru.Direction.N)
    with pytest.raises(TypeError):
        shacru.apply_move(42)  # type: ignore[arg-type]
    lsd = pacru.new_game("lsd", 3)
    assert_type(lsd, LsdState)
    assert type(lsd).__name__ == "LsdState"
    name: str = "pacru"
    anything = pacru.new_game(name)
    assert_type(anything, ChevronState | LsdState)
    assert_type(anything, pacru.AnyState)
    anything.chevron_at("e1")  # type: ignore[union-attr]
    assert isinstance(anything, ChevronState)
    assert_type(anything.chevron_at("e1"), pacru.Chevron | None)


def test_from_position_is_the_union_of_the_states() -> None:
    state = pacru.from_position("shacru players=red,yellow chevrons=red:e4N;yellow:e6S")
    assert_type(state, ChevronState | LsdState)
    with pytest.raises(TypeError):
        state.apply_move(42)  # type: ignore[arg-type]
    assert isinstance(state, ChevronState)
    assert_type(state.apply_move("e4-e5"), ChevronState)


def test_game_new_is_typed_by_the_game_name() -> None:
    assert_type(Game.new("shacru"), Game[Move])
    assert_type(Game.new(), Game[Move])
    assert_type(Game.new("lsd"), Game[LsdMove])
    name: str = "lsd"
    line = Game.new(name)
    assert_type(line, Game[Move] | Game[LsdMove])
    assert isinstance(line.state, LsdState)
    text = "shacru players=red,yellow chevrons=red:e4N;yellow:e6S"
    assert_type(Game.from_position(text), Game[Move] | Game[LsdMove])
    with pytest.raises(TypeError):
        Game.new("shacru").push(42)  # type: ignore[call-overload]


def test_explain_and_status_are_functions_of_the_package() -> None:
    """``pacru.explain`` and ``pacru.status`` were modules ("'module' object is not callable")."""
    state = pacru.new_game("shacru")
    explanation = pacru.explain(state, "e1-e3")
    assert_type(explanation, pacru.Explanation)
    assert (explanation.legal, explanation.rule, explanation.reason) == (
        False,
        "S-R3",
        "beyond-power",
    )
    assert explanation == state.explain("e1-e3")
    assert pacru.explain(state, "e1-e2").legal
    assert_type(pacru.status(state), pacru.Status)
    assert pacru.status(state) is pacru.Status.VALID
    diagram = pacru.from_position(
        "pacru players=red,yellow chevrons=red:e4N,e5N,e6N,e7N,e8N", adjudicate=False
    )
    assert pacru.status(diagram) == (
        pacru.Status.TOO_MANY_CHEVRONS | pacru.Status.UNADJUDICATED_END
    )


def test_importing_the_modules_does_not_shadow_the_functions() -> None:
    """An import of the modules that hold them leaves the package's functions in place."""
    import pacru._status
    import pacru.explanation

    assert callable(pacru.explain)
    assert callable(pacru.status)
    assert pacru.explain is pacru.explanation.explain
    assert pacru.Status is pacru._status.Status


def test_a_game_from_any_state_is_a_game_of_either() -> None:
    """``Game(root)`` of a root typed ``AnyState`` (from_position) needs no annotation."""
    root = pacru.from_position("lsd red:B,yellow:W 0B+N@0,0 - yellow")
    line = Game(root)
    assert_type(line, Game[Move] | Game[LsdMove])
    assert_type(Game(pacru.new_game("pacru")), Game[Move])
    assert_type(Game(pacru.new_game("lsd")), Game[LsdMove])
    assert line.state == root


def test_the_engine_is_one_of_two_names() -> None:
    assert_type(pacru.ENGINE, Literal["native", "python"])
    assert pacru.ENGINE in ("native", "python")


def test_the_options_are_typed_dicts() -> None:
    """``new_game``'s options are a TypedDict per game: a misspelt option is a type error
    (and a ValueError at run time), and ``options()`` gives the same TypedDict back."""
    pacru_state = pacru.new_game("pacru", 2, meeting_rule="original", move_cap=500)
    assert_type(pacru_state.options(), ChevronOptions)
    assert pacru_state.options() == {"meeting_rule": "original", "move_cap": 500}
    assert pacru.new_game("pacru", **pacru_state.options()) == pacru_state
    lsd = pacru.new_game("lsd", 2, row_length=3, allow_rotation=False)
    assert_type(lsd.options(), LsdOptions)
    assert (lsd.options()["row_length"], lsd.options()["allow_rotation"]) == (3, False)
    assert pacru.new_game("lsd", 2, **lsd.options()) == lsd
    state: pacru.GameState[Move] = pacru_state
    assert_type(state.options(), Mapping[str, object])
    with pytest.raises(ValueError, match="unknown option"):
        pacru.new_game("shacru", idle_round=3)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="move_cap must be a positive number of plies"):
        pacru.new_game("pacru", move_cap="9")  # type: ignore[call-overload]
    name: str = "lsd"
    # A name known at run time takes either game's options; the game refuses the other's.
    assert_type(pacru.new_game(name, row_length=3), pacru.AnyState)
    with pytest.raises(ValueError, match="unknown LSD option"):
        pacru.new_game(name, idle_rounds=3)
    with pytest.raises(ValueError, match="unknown LSD option"):
        Game.new(name, idle_rounds=3)


def test_the_states_of_a_game_have_the_game_s_state_type() -> None:
    """``Game.new("shacru").state`` is a ChevronState, not a GameState[Move]."""
    line = Game.new("shacru")
    assert_type(line.state, ChevronState)
    assert_type(line.root, ChevronState)
    assert_type(line.push("a3-b4>"), ChevronState)
    assert_type(line.previous, ChevronState | None)
    assert_type(line.state_at(0), ChevronState)
    assert_type(iter(line), Iterator[ChevronState])
    assert line.state.chevron_at("b4") == pacru.Chevron(owner="green", facing=pacru.Direction.E)
    assert line.previous is not None
    assert line.previous.chevron_at("b4") is None
    assert [state.ply for state in line] == [0, 1]
    lsd = Game.new("lsd")
    assert_type(lsd.state, LsdState)
    assert_type(lsd.root, LsdState)
    assert_type(lsd.previous, LsdState | None)
    assert_type(lsd.state_at(-1), LsdState)
    assert_type(lsd.push(lsd.state.legal_moves()[0]), LsdState)
    assert_type(iter(lsd), Iterator[LsdState])
    assert lsd.previous == lsd.root
    either = Game.from_position("lsd red:B,yellow:W 0B+N@0,0 - yellow")
    assert_type(either.state, ChevronState | LsdState)
    with pytest.raises(TypeError):
        line.push(lsd.moves[0])  # type: ignore[call-overload]


def _public_callables() -> Iterator[tuple[str, Callable[..., object]]]:
    """pacru's functions, and the methods, properties and constructors of its classes."""
    for name in pacru.__all__:
        value = getattr(pacru, name)
        if inspect.isfunction(value):
            yield name, value
        if not inspect.isclass(value):
            continue
        for member, attribute in vars(value).items():
            if member.startswith("_") and member != "__init__":
                continue
            if isinstance(attribute, property) and attribute.fget is not None:
                yield f"{name}.{member}", attribute.fget
            elif isinstance(attribute, classmethod | staticmethod):
                yield f"{name}.{member}", attribute.__func__
            elif inspect.isfunction(attribute):
                yield f"{name}.{member}", attribute
    yield "pacru.chevron.setup.new_game", pacru.chevron.setup.new_game
    yield "pacru.lsd.new_game", pacru.lsd.new_game


def test_no_public_callable_mentions_any() -> None:
    """No signature of the package's API says ``Any`` (what ``help()`` and the docs show)."""
    found = {name for name, function in _public_callables()}
    assert {"new_game", "Game.__init__", "Game.new", "Game.state", "status", "explain"} <= found
    assert {"ChevronState.options", "LsdState.options", "pacru.lsd.new_game"} <= found
    with_any = [
        f"{name}{inspect.signature(function)}"
        for name, function in _public_callables()
        if re.search(r"\bAny\b", str(inspect.signature(function)))
    ]
    assert with_any == []
