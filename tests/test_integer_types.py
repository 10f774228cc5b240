"""Every integer type ``operator.index`` accepts (numpy's) works as its int value where an int does.

Arrays hand out fixed-width scalars (``numpy.int64``, ``numpy.uint16``): taken
as they are, a bit shift overflows or a negative offset wraps around. Bools and
floats stay refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import pacru
from pacru import IllegalMoveError, Move
from pacru.encoding import Encoding
from pacru.geometry import field_index

# numpy scalars typed as Any: the signatures say int, and these stand in for one.
numpy: Any = np

INTEGER_TYPES = [np.int64, np.int32, np.uint16, np.uint8, int]


@pytest.mark.parametrize("game", pacru.GAMES)
@pytest.mark.parametrize("kind", INTEGER_TYPES)
def test_observation_takes_any_integer_seat(game: str, kind: Any) -> None:
    state = pacru.new_game(game, 3)
    encoding = Encoding.of(state)
    decision = encoding.start(state)
    want = encoding.observation(decision, 1)
    assert np.array_equal(encoding.observation(decision, kind(1)), want)
    assert not np.array_equal(encoding.observation(decision, kind(0)), want)


@pytest.mark.parametrize("seat", [True, 1.0, "1", None, numpy.float64(1), 3, numpy.int64(-1)])
def test_observation_refuses_what_is_not_a_seat_index(seat: Any) -> None:
    state = pacru.new_game("pacru", 3)
    encoding = Encoding.of(state)
    with pytest.raises(ValueError, match=r"player must be a seat index 0\.\.2"):
        encoding.observation(encoding.start(state), seat)


def _walk(state: Any, kind: Any) -> tuple[Any, tuple[int, ...]]:
    """Choose the last legal action of every decision, each given as ``kind``."""
    decision = Encoding.of(state).start(state)
    while not decision.done:
        decision = decision.choose(kind(decision.legal_actions[-1]))
    return decision.move, decision.prefix


@pytest.mark.parametrize("game", pacru.GAMES)
@pytest.mark.parametrize("kind", [np.int64, np.uint16, np.int16])
def test_choose_takes_any_integer_action(game: str, kind: Any) -> None:
    state = pacru.new_game(game, 2)
    move, prefix = _walk(state, kind)
    assert (move, prefix) == _walk(state, int)
    assert all(type(a) is int for a in prefix)


def test_choose_numpy_actions_of_an_azacru_twist() -> None:
    """Origin, target and twist actions 27, 116, 167 as uint16: once an IndexError."""
    state = pacru.new_game("azacru")
    decision = Encoding.of(state).start(state)
    for action in (27, 116, 167):
        decision = decision.choose(numpy.uint16(action))
    assert decision.done
    assert decision.move == state.parse_move("i3-h4<")
    assert decision.prefix == (27, 116, 167)


@pytest.mark.parametrize("action", [True, 27.0, numpy.float32(27), "27", None])
def test_choose_refuses_non_integer_actions(action: Any) -> None:
    state = pacru.new_game("azacru")
    decision = Encoding.of(state).start(state)
    with pytest.raises(IllegalMoveError, match="an action is an integer") as info:
        decision.choose(action)
    assert (info.value.rule, info.value.reason) == ("encoding", "illegal-action")


def test_action_name_of_a_numpy_action() -> None:
    chevron = Encoding.for_game("pacru")
    assert chevron.action_name(numpy.uint16(27)) == chevron.action_name(27) != "?"
    lsd = Encoding.for_game("lsd")
    assert lsd.action_name(numpy.int64(5)) == lsd.action_name(5) != "?"


def test_move_constructor_stores_ints() -> None:
    move = Move(origin=numpy.int64(4), target=numpy.uint8(13), twist=numpy.int8(1))
    assert move == Move(origin=4, target=13, twist=1)
    assert (type(move.origin), type(move.target), type(move.twist)) == (int, int, int)
    turned = Move(origin=numpy.int32(4), turn=numpy.int64(-2), relinquished=[numpy.uint16(3), 2])
    assert turned == Move(origin=4, turn=-2, relinquished=(2, 3))
    assert all(type(f) is int for f in turned.relinquished)
    assert Move.parse(str(turned)) == turned


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"origin": True}, "field index must be 0..80"),
        ({"origin": 4.0}, "field index must be 0..80"),
        ({"origin": numpy.int64(81)}, "field index must be 0..80"),
        ({"origin": 4, "target": 13, "twist": True}, "'twist' must be in"),
        ({"origin": 4, "turn": 1.0}, "'turn' must be in"),
        ({"origin": 4, "turn": 1, "relinquished": (True,)}, "relinquished fields are int"),
        ({"origin": 4, "target": 13, "capture": numpy.int64(1)}, "'capture' must be True or False"),
    ],
)
def test_move_constructor_refuses_bools_and_floats(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Move(**arguments)


def test_field_index_takes_any_integer() -> None:
    assert field_index(numpy.int64(40)) == 40
    assert type(field_index(numpy.uint8(40))) is int
    bad: Any
    for bad in (True, 40.0, numpy.int64(81)):
        with pytest.raises(ValueError, match=r"field index must be 0\.\.80"):
            field_index(bad)


@pytest.mark.parametrize("game", pacru.GAMES)
def test_new_game_takes_any_integer_player_count(game: str) -> None:
    state = pacru.new_game(game, players=numpy.int64(3))
    assert state == pacru.new_game(game, 3)
    assert Encoding.for_game(game, numpy.uint8(3)).players == 3
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        pacru.new_game(game, players=numpy.float64(3))


def test_game_options_take_any_integer() -> None:
    assert pacru.new_game("lsd", 2, row_length=numpy.int64(5)) == pacru.new_game(
        "lsd", 2, row_length=5
    )
    assert pacru.new_game("azacru", move_cap=numpy.int32(50)).rules.move_cap == 50
    assert pacru.new_game("shacru", idle_rounds=numpy.uint8(9)).rules.idle_rounds == 9
    with pytest.raises(ValueError, match="row_length is an int >= 2"):
        pacru.new_game("lsd", 2, row_length=True)
    with pytest.raises(ValueError, match="move_cap must be a positive number"):
        pacru.new_game("azacru", move_cap=50.0)  # type: ignore[call-overload]


def test_lsd_cells_take_any_integer() -> None:
    state = pacru.new_game("lsd")
    move = state.legal_moves()[0]
    again = type(move)(move.shape, move.shade, move.sides, (numpy.int64(0), numpy.int16(0)))
    assert again == move
    assert all(type(v) is int for v in again.cell)
    moves = state.legal_moves()
    assert moves.from_field((numpy.int64(0), numpy.uint8(0))) == moves.from_field((0, 0)) != ()
    with pytest.raises(ValueError, match="a cell is an"):
        type(move)(move.shape, move.shade, move.sides, (True, 0))
