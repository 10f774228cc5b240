"""A user's subclass of an engine's state class gets the engine's class back from
apply_move, on both engines; the shared base ``pacru.ChevronState`` holds no values.

Each engine builds the next state itself (the Python engine in
:func:`pacru.chevron.resolve.successor`, the native one in the extension), as an object
of its own concrete class, whatever the class of the state played from (issue 29).
"""

from __future__ import annotations

from typing import Any

import pytest

import pacru
from pacru import ChevronState
from pacru.chevron.engine import STATE_CLASS, native_module
from pacru.chevron.pystate import PythonChevronState


def _engine_classes() -> list[type[ChevronState]]:
    classes: list[type[ChevronState]] = [PythonChevronState]
    if native_module() is not None:
        from pacru.chevron.native import NativeChevronState

        classes.append(NativeChevronState)
    return classes


def _annotated(base: type[ChevronState]) -> type[Any]:
    """A user's subclass adding a method, no field."""

    def markers_on_board(self: ChevronState) -> int:
        return sum(m.bit_count() for m in self.markers)

    return type("_Annotated", (base,), {"__slots__": (), "markers_on_board": markers_on_board})


@pytest.mark.parametrize("base", _engine_classes(), ids=lambda c: c.__name__)
def test_apply_move_returns_the_engine_class_from_a_subclass(base: type[ChevronState]) -> None:
    annotated = _annotated(base)
    for game in ("lilacru", "shacru", "azacru", "pacru"):
        s = pacru.new_game(game, 2)
        assert isinstance(s, ChevronState)
        state = annotated(s.rules, s.players, s.markers, s.chevrons, s.to_move)
        assert state.markers_on_board() == 0
        assert isinstance(state, ChevronState)
        by_index = state.apply_move(state.legal_moves()[0])
        by_text = state.apply_move(str(state.legal_moves()[-1]))
        for after in (by_index, by_text):
            assert type(after) is base
            assert after.ply == 1
        plain = pacru.new_game(game, 2)
        assert by_index == plain.apply_move(plain.legal_moves()[0])


def test_the_shared_base_builds_the_engine_class() -> None:
    s = pacru.new_game("pacru", 2)
    assert type(s) is STATE_CLASS
    built = ChevronState(s.rules, s.players, s.markers, s.chevrons, s.to_move)
    assert type(built) is STATE_CLASS
    assert built == s


def test_a_subclass_of_the_shared_base_is_refused() -> None:
    class Empty(ChevronState):
        __slots__ = ()

    s = pacru.new_game("pacru", 2)
    with pytest.raises(TypeError, match="subclass the engine's class"):
        Empty(s.rules, s.players, s.markers, s.chevrons, s.to_move)
