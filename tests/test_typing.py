"""The public entry points' static types: mypy --strict checks this file (pyproject's files).

``assert_type`` fails mypy when an inferred type differs; a ``# type: ignore[...]``
that mypy no longer needs fails it too (``warn_unused_ignores`` under --strict), so
the lines marked so prove that the call does *not* type-check. The tests also run,
and check the same values at run time.
"""

from __future__ import annotations

from typing import Literal, assert_type

import pytest

import pacru
from pacru import ChevronState, Game, LsdState
from pacru.chevron.move import Move
from pacru.lsd.moves import LsdMove


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
        Game.new("shacru").push(42)  # type: ignore[arg-type]


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
