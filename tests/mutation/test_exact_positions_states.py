"""Exact position-string errors, state queries and the text board.

Fast, deterministic tests written to kill mutants (``scripts/mutation.sh``)
in :mod:`pacru.chevron.notation`, :mod:`pacru.chevron.state` and
:mod:`pacru.chevron.render`: each error is checked by class and full message.
"""

from __future__ import annotations

import pytest

import pacru
from pacru import (
    Chevron,
    ChevronState,
    Direction,
    InvalidPositionError,
    NotationError,
    from_position,
)

KEYS = (
    "players, turn, markers, chevrons, out, trigger, idle, ply, meeting_rule, move_cap, idle_rounds"
)


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("pacru", NotationError, "a position needs players=colour,colour,..."),
        ("pacru players=a", InvalidPositionError, "pacru is played by 2, 3 or 4 players, not 1"),
        (
            "pacru players=a,b,c,d,e",
            InvalidPositionError,
            "pacru is played by 2, 3 or 4 players, not 5",
        ),
        ("pacru players=a,a", NotationError, "players must be distinct colour words: 'a,a'"),
        ("pacru players=a,-b", NotationError, "players must be distinct colour words: 'a,-b'"),
        (
            "pacru players=a,b meeting_rule=new",
            InvalidPositionError,
            "meeting_rule must be one of 2011, original, not 'new'",
        ),
        ("pacru players=a,b move_cap=x", NotationError, "move_cap must be a whole number, not 'x'"),
        ("pacru players=a,b ply=²", NotationError, "ply must be a whole number, not '²'"),
        ("pacru players=a,b idle=-1", NotationError, "idle must be a whole number, not '-1'"),
        (
            "pacru players=a,b ply=" + "1" * 41,
            InvalidPositionError,
            "ply is too large: at most 18446744073709551615, not '"
            + "1" * 20
            + "'... (41 characters)",
        ),
        (
            "pacru players=a,b ply=" + "1" * 21,
            InvalidPositionError,
            "ply is too large: at most 18446744073709551615, not '" + "1" * 21 + "'",
        ),
        ("pacru players=a,b turn=c", InvalidPositionError, "turn: 'c' is not a player"),
        ("pacru players=a,b foo=1", NotationError, f"unknown position key 'foo'; keys: {KEYS}"),
        ("pacru players=a,b turn", NotationError, f"unknown position key 'turn'; keys: {KEYS}"),
        ("pacru players=a,b players=a,b", NotationError, "position key players given twice"),
        (
            "pacru players=a,b markers=a",
            NotationError,
            "markers: expected colour:item,item;..., got 'a'",
        ),
        (
            "pacru players=a,b markers=a:",
            NotationError,
            "markers: expected colour:item,item;..., got 'a:'",
        ),
        (
            "pacru players=a,b markers=c:e5",
            InvalidPositionError,
            "markers: 'c' is not one of the players (a, b)",
        ),
        (
            "pacru players=a,b markers=a:e5;a:e6",
            InvalidPositionError,
            "markers: a is listed twice",
        ),
        (
            "pacru players=a,b markers=a:e5;b:e5",
            InvalidPositionError,
            "markers: e5 is marked twice",
        ),
        (
            "pacru players=a,b chevrons=a:e5;b:e5N",
            NotationError,
            "chevrons: 'e5' is not a field and facing such as e4N or i9SW",
        ),
        (
            "pacru players=a,b chevrons=a:e5N;b:e5S",
            InvalidPositionError,
            "chevrons: two chevrons on e5",
        ),
        (
            "pacru players=a,b chevrons=a:e5N;b:e1N out=b",
            InvalidPositionError,
            "out: b still has chevrons",
        ),
        (
            "shacru players=a,b chevrons=a:e5N;b:e1N out=b",
            InvalidPositionError,
            "only Pacru eliminates players (out=)",
        ),
        (
            "pacru players=a,b chevrons=a:e5N;b:e1N out=c",
            InvalidPositionError,
            "out: 'c' is not a player",
        ),
        (
            "pacru players=a,b chevrons=a:e5N;b:e1N trigger=a",
            InvalidPositionError,
            "only Azacru has an end trigger (trigger=)",
        ),
        (
            "azacru players=a,b chevrons=a:e5N;b:e1N trigger=c",
            InvalidPositionError,
            "trigger: 'c' is not a player",
        ),
    ],
)
def test_position_errors(text: str, error: type[Exception], message: str) -> None:
    """Each malformed or impossible position names its problem exactly."""
    with pytest.raises(error) as raised:
        from_position(text)
    assert type(raised.value) is error
    assert str(raised.value) == message


def _chevron(text: str) -> ChevronState:
    state = from_position(text)
    assert isinstance(state, ChevronState)
    return state


def test_pacru_supply_limit_on_reading_r1() -> None:
    """A Pacru player over the supply is impossible; one at it has won {R1, R16b, D29}."""
    fields = [pacru.field_name(f) for f in range(81)]
    over = f"pacru players=a,b markers=a:{','.join(fields[:43])} chevrons=a:i9N;b:i8N"
    with pytest.raises(InvalidPositionError) as raised:
        from_position(over)
    assert str(raised.value) == "a Pacru player has at most 42 markers (R1)"
    full = f"pacru players=a,b markers=a:{','.join(fields[:42])} chevrons=a:i9N;b:i8N"
    state = _chevron(full)
    assert state.outcome == pacru.Outcome(pacru.Termination.SUPPLY_EXHAUSTED, ("a",))
    assert state.current_player is None
    assert state.supply == {"a": 0, "b": 42}
    both = (
        f"pacru players=a,b,c,d markers=a:{','.join(fields[:24])};b:{','.join(fields[24:48])}"
        " chevrons=a:i9N;b:i8N"
    )
    with pytest.raises(InvalidPositionError, match=r"at most 24 markers \(R1\)"):
        from_position(both)


def test_position_defaults_and_options() -> None:
    """Optional keys default as documented and options are written back."""
    state = _chevron("PACRU players=Red,Blue chevrons=red:e4N;blue:e6S move_cap=9")
    assert state.players == ("red", "blue")
    assert state.current_player == "red"
    assert state.ply == 0
    assert state.options() == {"move_cap": 9}
    assert state.to_position() == (
        "pacru players=red,blue turn=red markers=- chevrons=red:e4N;blue:e6S move_cap=9"
    )
    capped = _chevron("pacru players=a,b chevrons=a:e4N;b:e6S move_cap=3 ply=3")
    assert capped.outcome == pacru.Outcome(pacru.Termination.MOVE_CAP, ())
    original = _chevron("pacru players=a,b chevrons=a:e4N;b:e6S meeting_rule=original")
    assert original.options() == {"meeting_rule": "original"}
    idle = _chevron("shacru players=a,b chevrons=a:e4N;b:e6S idle_rounds=3 idle=2")
    assert idle.options() == {"idle_rounds": 3}
    assert idle.idle == 2
    assert idle.to_position().endswith(" idle=2 idle_rounds=3")


def test_reading_a_pacru_position_eliminates_at_turn_start_r15_d27() -> None:
    """A Pacru player to move with no chevrons, or none that can step, is out on reading."""
    state = _chevron("pacru players=a,b,c chevrons=a:a1S;b:e5N;c:e1N")
    assert state.eliminated == ("a",)
    assert state.current_player == "b"
    assert state.chevron_at("a1") is None
    last = _chevron("pacru players=a,b chevrons=a:a1S;b:e5N")
    assert last.outcome == pacru.Outcome(pacru.Termination.LAST_PLAYER, ("b",))
    assert last.eliminated == ("a",)
    assert last.chevrons == ((), (40 * 8,))


def test_state_queries() -> None:
    """marker_at, chevron_at, maps, power of movement and the Azacru trigger {G7, A-R4}."""
    state = _chevron(
        "azacru players=red,yellow markers=red:d4,e4,f4;yellow:e6 "
        "chevrons=red:e4N;yellow:a1NE trigger=yellow"
    )
    assert state.marker_at("d4") == "red"
    assert state.marker_at(49) == "yellow"
    assert state.marker_at("e5") is None
    assert state.chevron_at("e4") == Chevron("red", Direction.N)
    assert str(state.chevron_at("a1")) == "yellow NE"
    assert state.chevron_at("b2") is None
    assert state.chevron_map() == {
        "a1": Chevron("yellow", Direction.NE),
        "e4": Chevron("red", Direction.N),
    }
    assert state.marker_map() == {"d4": "red", "e4": "red", "f4": "red", "e6": "yellow"}
    assert state.power_of_movement("e4") == 3
    assert state.power_of_movement("a1") == 1
    with pytest.raises(ValueError, match="no chevron on e5"):
        state.power_of_movement("e5")
    assert state.end_triggered_by == "yellow"
    assert state.eliminated == ()
    assert state.supply is None  # unlimited markers (D38)
    assert state.last_move is None
    assert state.ply == 0
    shacru = pacru.new_game("shacru", 2)
    assert shacru.end_triggered_by is None
    assert shacru.power_of_movement("e1") == 1
    after = shacru.apply_move("e1-e2")
    assert after.last_move == pacru.Move.parse("e1-e2")
    assert after.ply == 1
    assert after.scores == {"green": 1, "yellow": 0}
    with pytest.raises(TypeError, match="apply_move takes a Move or a string, not int"):
        shacru.apply_move(5)  # type: ignore[arg-type]
    assert not shacru.is_legal("nonsense")
    assert shacru.is_legal("e1-e2")
    assert not shacru.is_legal(pacru.Move.parse("e1-e3"))


def test_text_board_of_a_pacru_game() -> None:
    """str(state) draws the markers, chevrons, borders, legend and status exactly."""
    state = pacru.new_game("pacru", 2).apply_move("a3-b4+b5")
    assert str(state) == "\n".join(
        [
            "      a   b   c   d   e   f   g   h   i",
            "    +-------------+-------------+-------------+",
            " 9  | ·   ·   ·   | ·   ·Y↓ ·   | ·   ·   ·G↙ | 9",
            " 8  | ·   ·   ·   | ·   ·   ·   | ·   ·   ·   | 8",
            " 7  | ·Y→ ·   ·   | ·   ·   ·   | ·   ·   ·Y← | 7",
            "    +-------------+-------------+-------------+",
            " 6  | ·   ·   ·   | ·   ·   ·   | ·   ·   ·   | 6",
            " 5  | ·   g   ·   | ·   ·   ·   | ·   ·   ·   | 5",
            " 4  | ·   ·G↗ ·   | ·   ·   ·   | ·   ·   ·   | 4",
            "    +-------------+-------------+-------------+",
            " 3  | ·   ·   ·   | ·   ·   ·   | ·   ·   ·G← | 3",
            " 2  | ·   ·   ·   | ·   ·   ·   | ·   ·   ·   | 2",
            " 1  | ·Y↗ ·   ·   | ·   ·G↑ ·   | ·   ·   ·   | 1",
            "    +-------------+-------------+-------------+",
            "      a   b   c   d   e   f   g   h   i",
            "  G green: 1 marker, supply 41",
            "  Y yellow: 0 markers, supply 42  <- to move",
            "  pacru, ply 1",
        ]
    )


def test_text_board_legend_of_finished_and_triggered_games() -> None:
    """The legend marks eliminated players, the Azacru trigger and the result; players with
    the same initial get numbers."""
    azacru = _chevron(
        "azacru players=red,rose markers=red:e5 chevrons=red:e4N;rose:a2N trigger=red turn=rose"
    )
    lines = str(azacru).splitlines()
    assert lines[-3:] == [
        "  1 red: 1 marker, triggered the end",
        "  2 rose: 0 markers  <- to move",
        "  azacru, ply 0",
    ]
    assert lines[7] == " 5  | ·   ·   ·   | ·   1   ·   | ·   ·   ·   | 5"
    assert lines[8] == " 4  | ·   ·   ·   | ·   ·1↑ ·   | ·   ·   ·   | 4"
    over = _chevron("pacru players=a,b chevrons=a:a1S;b:e5N")
    assert str(over).splitlines()[-3:] == [
        "  A a: 0 markers, supply 42, out",
        "  B b: 0 markers, supply 42",
        "  pacru, ply 0: game over, b wins (last-player)",
    ]
