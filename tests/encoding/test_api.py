"""The pacru.encoding API of issue 13: sizes, decisions, errors, observations, returns."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import pacru
from pacru import GameOverError, IllegalMoveError, Move
from pacru.base import Termination
from pacru.encoding import Decision, Encoding
from pacru.encoding import chevron as ch
from pacru.encoding.lsd import LsdEncoding
from pacru.geometry import parse_field
from pacru.lsd.tiles import face_code, sides_to_mask

from .support import check_exact

# D21 with a crossing (tests/chevron/test_pacru_meeting.py LANDING): red h3 W, power 2
# from g1 and i1, steps to f3 facing red e3 E; nine yellow markers make the meeting {R12, D22}.
LANDING = (
    "pacru players=red,yellow markers=red:g1,i1,e3;yellow:d4,e4,f4,d5,e5,f5,d6,e6,f6 "
    "chevrons=red:h3W,e3E;yellow:a9SE"
)


def f(name: str) -> int:
    return parse_field(name)


def names(enc: Encoding, decision: Decision) -> list[str]:
    return [enc.action_name(a) for a in decision.legal_actions]


def test_sizes() -> None:
    for game, decisions in (("lilacru", 2), ("shacru", 3), ("azacru", 3), ("pacru", 6)):
        for players in (2, 3, 4):
            enc = Encoding.for_game(game, players)
            assert enc.num_actions == 415
            assert enc.max_decisions == decisions
            assert enc.observation_shape == (13 * players + 25, 9, 9)
    assert Encoding.for_game("pacru", 2).max_game_length is None
    assert Encoding.for_game("pacru", 3, move_cap=500).max_game_length == 500
    assert Encoding.for_game("azacru", 2, move_cap=300).max_game_length == 300
    # 82 acquisition periods of idle_rounds full rounds (D33).
    assert Encoding.for_game("lilacru", 2).max_game_length == 82 * 81 * 2
    assert Encoding.for_game("shacru", 4, idle_rounds=10).max_game_length == 82 * 10 * 4
    assert Encoding.for_game("lsd", 2).max_game_length == 40


def test_encodings_are_immutable() -> None:
    enc = Encoding.for_game("pacru", 2, move_cap=100)
    with pytest.raises(AttributeError, match="immutable"):
        enc.num_actions = 3
    with pytest.raises(TypeError):
        enc.options["move_cap"] = 5  # type: ignore[index]
    assert enc.max_game_length == 100


def test_of_uses_the_state_options() -> None:
    state = pacru.new_game("pacru", 3, move_cap=200, meeting_rule="original")
    enc = Encoding.of(state)
    assert (enc.game, enc.players, enc.max_game_length) == ("pacru", 3, 200)
    assert enc.options == {"meeting_rule": "original", "move_cap": 200}


def test_for_game_errors() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        Encoding.for_game("chess", 2)
    with pytest.raises(ValueError, match="players"):
        Encoding.for_game("pacru", 5)
    with pytest.raises(ValueError, match="move_cap"):
        Encoding.for_game("shacru", 2, move_cap=10)
    with pytest.raises(ValueError, match="for pacru with 2 players"):
        Encoding.for_game("pacru", 2).start(pacru.new_game("pacru", 3))


def test_shacru_opening_decisions() -> None:
    state = pacru.new_game("shacru", 2)
    enc = Encoding.of(state)
    d = enc.start(state)
    assert (d.state, d.player, d.prefix, d.kind, d.move, d.done) == (
        state,
        0,
        (),
        "origin",
        None,
        False,
    )
    assert names(enc, d) == ["origin e1", "origin a3", "origin i3", "origin i9"]
    d = d.choose(ch.ORIGIN + f("a3"))
    assert d.kind == "target"
    assert names(enc, d) == ["target b2", "target b3", "target b4"]
    d = d.choose(ch.TARGET + f("b4"))
    assert d.kind == "twist"  # b4 lies in another borderland {S-R4}
    assert names(enc, d) == ["twist <", "twist none", "twist >"]
    done = d.choose(ch.TWIST + 2)
    assert done.done
    assert done.kind == "done"
    assert done.legal_actions == ()
    assert done.move == Move.parse("a3-b4>")
    assert done.prefix == (19, 110, 169) == enc.actions(state, "a3-b4>")
    assert enc.move(state, [19, 110, 169]) == Move.parse("a3-b4>")
    # A step within the borderland has no twist: the forced "twist none" is not asked.
    assert enc.actions(state, "a3-b3") == (19, ch.TARGET + f("b3"))
    assert d.legal_action_mask().tolist() == [a in (167, 168, 169) for a in range(415)]


def test_lilacru_never_asks_a_twist() -> None:
    state = pacru.new_game("lilacru", 2)
    enc = Encoding.of(state)
    for move in state.legal_moves():
        assert len(enc.actions(state, move)) == 2


def test_pass_is_one_action() -> None:
    # Yellow's chevron faces the edge: its only move is the pass {S-R2}.
    state = pacru.from_position(
        "shacru players=green,yellow turn=yellow chevrons=green:e5N;yellow:a9N"
    )
    enc = Encoding.of(state)
    d = enc.start(state)
    assert (d.player, d.legal_actions) == (1, (ch.PASS,))
    assert d.choose(ch.PASS).move == Move.pass_move()
    assert enc.actions(state, "pass") == (0,)


def test_pacru_crossing_with_marker_and_meeting() -> None:
    state = pacru.from_position(LANDING)
    enc = Encoding.of(state)
    d = enc.start(state)
    assert names(enc, d) == ["origin e3", "origin h3"]
    d = d.choose(ch.ORIGIN + f("h3"))
    assert names(enc, d) == [
        "target f1", "target g2", "target f3", "target g3", "target g4", "turn <", "turn >",
    ]  # fmt: skip
    d = d.choose(ch.TARGET + f("f3"))
    assert (
        d.kind == "benefit"
    )  # the border-crossing marker on a neutral field of e2's land {R4, R6}
    assert names(enc, d) == [
        f"marker {x}" for x in ("d1", "e1", "f1", "d2", "e2", "f2", "d3", "f3")
    ]
    d = d.choose(ch.MARKER + f("f3"))
    assert d.kind == "meeting"  # +f3 puts red under both chevrons (D21)
    occupied_or_red = {"f3", "e3", "a9", "g1", "i1"}
    expected = [a for a in range(81) if pacru.field_name(a) not in occupied_or_red]
    assert d.legal_actions == tuple(ch.MEETING + a for a in expected)
    done = d.choose(ch.MEETING + f("i9"))
    assert done.move == Move.parse("h3-f3+f3@i9")
    assert enc.actions(state, "h3-f3+f3@i9") == done.prefix == (26, 105, 195, 253 + 80)
    # Another marker field does not make the meeting: the move ends after the benefit.
    assert enc.actions(state, "h3-f3+d1") == (26, 105, ch.MARKER + f("d1"))


def test_reorientation_relinquishes_one_field_per_decision() -> None:
    # Red owns a1, b1, c1 and the chevron's e5 field: 45 degrees costs 2 of the 3 free fields {R14}.
    state = pacru.from_position(
        "pacru players=red,yellow markers=red:a1,b1,c1,e5 chevrons=red:e5N;yellow:a9SE"
    )
    enc = Encoding.of(state)
    d = enc.start(state).choose(ch.ORIGIN + f("e5"))
    assert "turn <" in names(enc, d)
    assert "turn >>" not in names(enc, d)
    d = d.choose(ch.TURN + 1)
    assert d.kind == "relinquish"
    # The first field leaves one after it: a1 or b1, never c1.
    assert names(enc, d) == ["relinquish a1", "relinquish b1"]
    assert d.choose(ch.RELINQUISH + f("b1")).move == Move.parse("e5<(b1,c1)")
    after_a1 = d.choose(ch.RELINQUISH + f("a1"))
    assert names(enc, after_a1) == ["relinquish b1", "relinquish c1"]
    assert after_a1.choose(ch.RELINQUISH + f("c1")).move == Move.parse("e5<(a1,c1)")


def test_choose_errors() -> None:
    state = pacru.new_game("shacru", 2)
    enc = Encoding.of(state)
    d = enc.start(state)
    with pytest.raises(IllegalMoveError, match="not legal in this origin decision") as err:
        d.choose(ch.ORIGIN + f("e5"))
    assert (err.value.rule, err.value.reason) == ("encoding", "illegal-action")
    done = enc.start(state).choose(ch.ORIGIN + f("e1")).choose(ch.TARGET + f("e2"))
    with pytest.raises(IllegalMoveError) as err:
        done.choose(0)
    assert err.value.reason == "move-complete"
    with pytest.raises(IllegalMoveError) as err:
        enc.move(state, [ch.ORIGIN + f("a3")])
    assert err.value.reason == "incomplete"
    with pytest.raises(IllegalMoveError) as err:
        enc.actions(state, "e9-e7")
    assert err.value.rule == "S-R3"
    with pytest.raises(IllegalMoveError):
        enc.actions(state, Move.parse("e1-e3"))


class Index:
    """An integer type of the user's: ``__index__`` gives ``value`` or raises it."""

    def __init__(self, value: int | Exception) -> None:
        self.value = value

    def __index__(self) -> int:
        if isinstance(self.value, Exception):
            raise self.value
        return self.value

    def __repr__(self) -> str:
        return f"Index({self.value!r})"


#: The legal actions of Shacru's first decision: origins e1, a3, i3, i9.
OPENING = "legal: [5, 19, 27, 81]"


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (41, f"action 41 (origin e5) is not legal in this origin decision; {OPENING}"),
        (np.int16(41), f"action 41 (origin e5) is not legal in this origin decision; {OPENING}"),
        (Index(0), f"action 0 (pass) is not legal in this origin decision; {OPENING}"),
        (415, f"action 415 (?) is not legal in this origin decision; {OPENING}"),
        (-1, f"action -1 (?) is not legal in this origin decision; {OPENING}"),
        (2**70, f"action {2**70} (?) is not legal in this origin decision; {OPENING}"),
        (-(10**30), f"action {-(10**30)} (?) is not legal in this origin decision; {OPENING}"),
        (
            np.uint64(2**64 - 1),
            f"action {2**64 - 1} (?) is not legal in this origin decision; {OPENING}",
        ),
        (True, f"an action is an integer, not True; {OPENING}"),
        (np.bool_(True), f"an action is an integer, not {np.bool_(True)!r}; {OPENING}"),
        (5.0, f"an action is an integer, not 5.0; {OPENING}"),
        ("5", f"an action is an integer, not '5'; {OPENING}"),
        (None, f"an action is an integer, not None; {OPENING}"),
        (Index(TypeError("no")), f"an action is an integer, not Index(TypeError('no')); {OPENING}"),
    ],
)
def test_choose_error_messages(action: object, message: str) -> None:
    """The exact error of each refused action, the same on both engines (the native
    decisions make the Python check's errors themselves)."""
    state = pacru.new_game("shacru", 2)
    d = Encoding.of(state).start(state)
    with pytest.raises(IllegalMoveError) as err:
        d.choose(action)  # type: ignore[arg-type]
    assert type(err.value) is IllegalMoveError
    assert (err.value.rule, err.value.reason, err.value.move) == ("encoding", "illegal-action", "")
    assert str(err.value) == f"encoding: {message}"
    assert err.value.detail == message


def test_choose_names_every_refused_action() -> None:
    """Each action a decision refuses is named as ``action_name`` names it."""
    state = pacru.from_position(LANDING)
    enc = Encoding.of(state)
    d = enc.start(state).choose(ch.ORIGIN + f("h3"))
    legal = f"legal: {list(d.legal_actions)}"
    for action in range(-2, enc.num_actions + 2):
        if action in d.legal_actions:
            continue
        with pytest.raises(IllegalMoveError) as err:
            d.choose(action)
        name = enc.action_name(action)
        expected = f"action {action} ({name}) is not legal in this target decision; {legal}"
        assert err.value.detail == expected


def test_choose_after_the_move_and_other_errors() -> None:
    """A complete move refuses any action first; an ``__index__`` that fails otherwise than
    with TypeError raises its own error; any integer type is its int."""
    state = pacru.new_game("shacru", 2)
    enc = Encoding.of(state)
    d = enc.start(state)
    done = d.choose(ch.ORIGIN + f("e1")).choose(ch.TARGET + f("e2"))
    for action in (0, ch.ORIGIN + f("e1"), "x", Index(ValueError("boom"))):
        with pytest.raises(IllegalMoveError) as err:
            done.choose(action)  # type: ignore[arg-type]
        assert (err.value.rule, err.value.reason) == ("encoding", "move-complete")
        assert str(err.value) == (
            "encoding: the move e1-e2 is complete; apply it and start the next decision"
        )
    assert repr(done) == "<Decision done player=0 prefix=[5, 95] legal=0 move=e1-e2>"
    with pytest.raises(ValueError, match=r"^boom$"):
        d.choose(Index(ValueError("boom")))
    assert d.choose(Index(ch.ORIGIN + f("a3"))).prefix == (19,)
    assert d.choose(np.uint8(19)).prefix == (19,)


def test_legal_action_mask_is_a_new_array() -> None:
    """A new writable bool array per call, True exactly at the legal actions."""
    state = pacru.from_position(LANDING)
    enc = Encoding.of(state)
    d = enc.start(state).choose(ch.ORIGIN + f("h3"))
    mask = d.legal_action_mask()
    assert type(mask) is np.ndarray
    assert (mask.dtype, mask.shape) == (np.dtype(np.bool_), (enc.num_actions,))
    assert tuple(np.flatnonzero(mask)) == d.legal_actions
    mask[:] = True
    again = d.legal_action_mask()
    assert again is not mask
    assert tuple(np.flatnonzero(again)) == d.legal_actions
    assert not d.choose(d.legal_actions[0]).legal_action_mask().all()


_WITHOUT_NUMPY = f"""
import sys
sys.modules["numpy"] = None  # import numpy fails as if it were not installed
import pacru
from pacru.encoding import Encoding
state = pacru.from_position({LANDING!r})
decision = Encoding.of(state).start(state)
try:
    decision.legal_action_mask()
except ModuleNotFoundError:
    print(pacru.ENGINE, "ModuleNotFoundError")
"""


def test_legal_action_mask_needs_numpy() -> None:
    """Without numpy the mask is refused with ModuleNotFoundError, on both engines (in a
    process of its own: a process that made a mask keeps numpy's functions)."""
    run = subprocess.run(
        [sys.executable, "-c", _WITHOUT_NUMPY], capture_output=True, text=True, check=True
    )
    assert run.stdout.split() == [pacru.ENGINE, "ModuleNotFoundError"]


# Yellow's only chevron faces off the board: after red's move yellow is blocked and out {R15}.
BLOCKED = "pacru players=red,yellow chevrons=red:e5N;yellow:a9N"


def test_finished_game() -> None:
    state = pacru.from_position(BLOCKED).apply_move("e5-e6")
    assert state.is_terminal
    with pytest.raises(GameOverError):
        Encoding.of(state).start(state)


def test_observation_planes() -> None:
    state = pacru.from_position(LANDING)
    enc = Encoding.of(state)
    planes = enc.plane_names()
    d = enc.start(state).choose(ch.ORIGIN + f("h3")).choose(ch.TARGET + f("f3"))
    obs = enc.observation(d, 0)
    assert obs.dtype == np.float32
    assert obs.shape == enc.observation_shape == (51, 9, 9)

    def plane(o: np.ndarray, name: str) -> list[str]:
        return [pacru.field_name(int(i)) for i in np.flatnonzero(o[planes.index(name)])]

    assert plane(obs, "markers seat 0") == ["g1", "i1", "e3"]
    assert plane(obs, "markers seat 1") == ["d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6"]
    assert plane(obs, "chevrons seat 0 facing W") == ["h3"]
    assert plane(obs, "chevrons seat 0 facing E") == ["e3"]
    assert plane(obs, "chevrons seat 1 facing SE") == ["a9"]
    assert plane(obs, "chosen origin") == ["h3"]
    assert plane(obs, "chosen target") == ["f3"]
    assert plane(obs, "chosen marker field") == []
    assert obs[planes.index("deciding benefit")].min() == 1.0
    assert obs[planes.index("deciding origin")].max() == 0.0
    assert obs[planes.index("chosen twist none")].min() == 1.0  # forced, taken automatically
    assert obs[planes.index("game pacru")].min() == 1.0
    assert obs[planes.index("to move seat 0")].min() == 1.0
    assert obs[planes.index("supply seat 0")].min() == pytest.approx((42 - 3) / 42)
    assert obs[planes.index("supply seat 1")].min() == pytest.approx((42 - 9) / 42)
    # Yellow's view: the seats swap, the position does not.
    other = enc.observation(d, 1)
    assert plane(other, "markers seat 1") == ["g1", "i1", "e3"]
    assert other[planes.index("to move seat 1")].min() == 1.0
    assert other[planes.index("supply seat 0")].min() == pytest.approx((42 - 9) / 42)
    assert np.array_equal(other[planes.index("chosen target")], obs[planes.index("chosen target")])
    with pytest.raises(ValueError, match="seat index"):
        enc.observation(d, 2)


def test_lsd_decisions() -> None:
    state = pacru.new_game("lsd", 2)
    enc = Encoding.of(state)
    assert isinstance(enc, LsdEncoding)
    d = enc.start(state)
    centre = enc.cells // 2
    assert d.kind == "cell"
    assert d.legal_actions == (centre,)
    tiles = d.choose(centre)
    assert tiles.kind == "tile"
    assert {str(m.face) for m in state.legal_moves()} == {
        enc.action_name(a)[5:] for a in tiles.legal_actions
    }
    move = state.legal_moves()[0]
    assert enc.move(state, enc.actions(state, move)) == move
    obs = enc.observation(tiles, 0)
    assert obs.shape == enc.observation_shape
    assert obs.dtype == np.float32
    names_ = enc.plane_names()
    assert obs[names_.index("chosen cell")].sum() == 1.0
    assert obs[names_.index("chosen cell"), enc.radius, enc.radius] == 1.0
    assert obs[names_.index("supply seat 0 kind 0")].min() > 0.0


def test_returns() -> None:
    running = pacru.new_game("pacru", 3)
    assert running.returns() == (0.0, 0.0, 0.0)
    last = pacru.from_position(BLOCKED).apply_move("e5-e6")
    assert last.outcome is not None
    assert last.outcome.termination is Termination.LAST_PLAYER
    assert last.returns() == (1.0, -1.0)
    capped = pacru.new_game("pacru", 2, move_cap=1).apply_move(
        pacru.new_game("pacru", 2).legal_moves()[0]
    )
    assert capped.outcome is not None
    assert capped.outcome.termination is Termination.MOVE_CAP
    assert capped.returns() == (0.0, 0.0)


def test_import_pacru_and_encoding_stay_light() -> None:
    code = "import sys, pacru, pacru.encoding; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_returns_for_every_kind_of_end() -> None:
    """S-R6, D35: most markers wins, ties share; LSD 2.4 row and blocked draw."""
    win = pacru.from_position(
        "shacru players=red,yellow markers=red:a1,a2;yellow:b1 chevrons=red:a1S;yellow:b1S"
    )
    assert win.winners == ("red",)
    assert win.returns() == (1.0, -1.0)
    tie = pacru.from_position(
        "shacru players=red,yellow,blue markers=red:a1;yellow:b1 "
        "chevrons=red:a1S;yellow:b1S;blue:c1S"
    )
    assert tie.winners == ("red", "yellow")
    assert tie.returns() == (1.0, 1.0, -1.0)  # a shared win pays every sharer
    everybody = pacru.from_position("shacru players=red,yellow")
    assert everybody.winners == ("red", "yellow")
    assert everybody.returns() == (0.0, 0.0)  # shared by all: a draw
    lsd = pacru.new_game("lsd", 2, tile_set="+N*2")
    blocked = lsd.apply_move("B+N@0,0").apply_move("W+S@0,1")
    assert blocked.outcome is not None
    assert blocked.outcome.termination is Termination.BLOCKED
    assert blocked.returns() == (0.0, 0.0)
    row = pacru.from_position("lsd red:B,yellow:W 0B+E@0,0;0B+EW@1,0;0BxEW@2,0 - red")
    assert row.returns() == (0.0, 0.0)
    after = row.apply_move("BxW@3,0")
    assert after.winners == ("red",)
    assert after.returns() == (1.0, -1.0)


def test_start_refuses_other_options() -> None:
    enc = Encoding.for_game("pacru", 2)
    with pytest.raises(ValueError, match=r"use Encoding\.of"):
        enc.start(pacru.new_game("pacru", 2, move_cap=10))
    with pytest.raises(ValueError, match="unknown option"):
        Encoding.for_game("pacru", 2, colour="red")
    # LSD colour names do not change actions or observations.
    assert Encoding.for_game("lsd", 2).start(pacru.new_game("lsd", 2, colours=("a", "b")))


def test_lsd_window_reaches_a_column_of_every_tile() -> None:
    """The window edge: a single column grown at both ends stays inside the window.

    With only "+NS" tiles (half dots north and south) every placement extends the
    column (LSD 2.2), red at the north end, yellow at the south, until red's 20th
    tile makes a row of 20: 39 tiles in one line, the widest field 40 tiles allow
    while a move is still to be made. check_exact walks every action sequence at
    each ply, and start() would fail on a legal cell outside the window.
    """
    state = pacru.new_game("lsd", 2, tile_set="+NS*20", row_length=20)
    enc = Encoding.of(state)
    assert isinstance(enc, LsdEncoding)
    assert enc.radius == 20
    grow_north = True
    while not state.is_terminal:
        check_exact(state)
        moves = state.legal_moves()
        ys = [m.cell[1] for m in moves]
        state = state.apply_move(moves[ys.index(max(ys) if grow_north else min(ys))])
        grow_north = not grow_north
    assert state.bounds == ((0, -19), (0, 19))
    assert len(state.field) == 39


def test_observation_of_the_end_trigger_and_seats_out() -> None:
    # Azacru: yellow's pass triggered the end {A-R10}; the trigger plane names its seat.
    state = pacru.from_position(
        "azacru players=green,yellow trigger=yellow chevrons=green:a3E;yellow:a1N"
    )
    enc = Encoding.of(state)
    d = enc.start(state)
    planes = enc.plane_names()
    obs = enc.observation(d, 0)
    assert obs[planes.index("end triggered by seat 1")].min() == 1.0
    assert obs[planes.index("end triggered by seat 0")].max() == 0.0
    assert enc.observation(d, 1)[planes.index("end triggered by seat 0")].min() == 1.0
    done = d
    while not done.done:
        done = done.choose(done.legal_actions[0])
    final = enc.observation(done, 0)
    assert all(final[planes.index(f"deciding {k}")].max() == 0.0 for k in ("origin", "target"))


def test_lsd_observation_counts() -> None:
    """Supplies and captures in the planes agree with the state after random play."""
    state = pacru.new_game("lsd", 3)
    enc = Encoding.of(state)
    assert isinstance(enc, LsdEncoding)
    names_ = enc.plane_names()
    rng = random.Random(7)
    for _ in range(12):
        state = state.apply_move(rng.choice(list(state.legal_moves())))
    assert not state.is_terminal
    d = enc.start(state)
    for player in range(3):
        obs = enc.observation(d, player)
        for seat, colour in enumerate(state.players):
            r = (seat - player) % 3
            total = sum(obs[names_.index(f"supply seat {r} kind {k}")].mean() for k in range(10))
            assert round(total * 20) == state.supply_size(colour)
            # Kind by kind, in the order of rules.kinds: the state's supply (LSD 1.5).
            shares = [0] * 10
            for tile, count in state.supply_tiles(colour).items():
                face = face_code(tile.shape, tile.shade, sides_to_mask(tile.sides))
                shares[enc.rules.kind_of[seat][face]] = count
            kinds = [obs[names_.index(f"supply seat {r} kind {k}")] for k in range(10)]
            assert [round(float(plane.mean()) * 20) for plane in kinds] == shares
            assert all(plane.min() == plane.max() for plane in kinds)
            lost = obs[names_.index(f"captured seat {r}")].mean()
            assert round(lost * 20) == state.captured_count(colour)
            tiles = obs[names_.index(f"tile of seat {r}")].sum()
            assert tiles == sum(1 for t in state.field.values() if t.owner == colour)
        assert obs[names_.index("open cell")].sum() == len(state.open_cells)


@pytest.mark.parametrize("game", ["shacru", "pacru"])
def test_finished_decision_hands_out_its_move(game: str) -> None:
    """On either engine a finished decision's move is the one its list handed out last, so
    apply_move takes it without checking it again; the next state is the move's."""
    state: pacru.GameState[Any] = pacru.new_game(game, 2)
    rng = random.Random(4)
    enc = Encoding.of(state)
    for _ in range(12):
        decision = enc.start(state)
        while decision.move is None:
            decision = decision.choose(rng.choice(decision.legal_actions))
        move = decision.move
        assert state.legal_moves()._impl.issued is move  # type: ignore[attr-defined]
        after = state.apply_move(move)
        assert after == state.apply_move(str(move))
        state = after
