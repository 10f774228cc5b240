"""A subclass of ChevronState gets a plain ChevronState back from apply_move, on both engines.

The engines build the next state themselves (:func:`pacru.chevron.resolve.successor`),
so the class of a successor is ``ChevronState`` whatever the class of the state played
from: the same on the native and the Python engine (issue 29).
"""

from __future__ import annotations

import pacru
from pacru import ChevronState


class _Annotated(ChevronState):
    """A user's subclass adding a method, no field."""

    __slots__ = ()

    def markers_on_board(self) -> int:
        return sum(m.bit_count() for m in self.markers)


def _subclassed(game: str) -> _Annotated:
    s = pacru.new_game(game, 2)
    assert isinstance(s, ChevronState)
    return _Annotated(s.rules, s.players, s.markers, s.chevrons, s.to_move, occupied=s.occupied)


def test_apply_move_returns_a_plain_state_from_a_subclass() -> None:
    for game in ("lilacru", "shacru", "azacru", "pacru"):
        state = _subclassed(game)
        assert state.markers_on_board() == 0
        by_index = state.apply_move(state.legal_moves()[0])
        by_text = state.apply_move(str(state.legal_moves()[-1]))
        for after in (by_index, by_text):
            assert type(after) is ChevronState
            assert after.ply == 1
        plain = pacru.new_game(game, 2)
        assert by_index == plain.apply_move(plain.legal_moves()[0])
