"""Cross-check against AbstractPlay's own test suite (gameslib, MIT licence).

Every case of ``test/games/pacru.test.ts`` (newest stored version: the one with
``old2PStart()`` and ``bugstate2``; the older version, run on ``new
PacruGame(2)`` while that was still the old layout, has a subset of the same
cases) and of ``test/games/azacru.test.ts`` is ported here. AP builds boards as
a ``Map`` from algebraic cell (a1 bottom-left, G1) to ``{tile?, chevron?}``;
``Map.set`` replaces a cell's contents. The helpers below keep that shape
(``Board``: cell -> (tile player, (chevron player, facing))), with AP player
``n`` being ``players[n - 1]`` of :func:`pacru.abstractplay.new_game`.

What AP's assertions mean here:

* ``baseMoves().includes(m)`` / ``getSideEffects`` -> the exact set of our
  legal moves from that origin to that target (the effect decides the suffix:
  ``blChange``/``blTransform`` -> ``+f`` over the allowed fields,
  ``connChange`` -> ``*``).
* ``validateMove`` valid with ``complete == 1`` -> the AP text parses to a
  legal move; ``complete == -1`` -> the text is a legal prefix: it is not a
  legal move by itself but every completion we list is.
* ``executeMove`` / board contents -> the board after our move equals AP's
  ``executeMove`` written again in :func:`ap_execute`.
* ``isMeeting`` -> whether the move needs a meeting field ``@f``.

The two serialised game states (``bugstate``, ``bugstate2``) are stored
verbatim in tests/data/ap_cases/; their stacks hold AP's board after every ply
of two real games, and every one of those boards is compared here.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from pacru import Chevron, ChevronState, Direction, IllegalMoveError, Move
from pacru import abstractplay as ap

from .helpers import pos

ApChevron = tuple[int, str]
Cell = tuple[int | None, ApChevron | None]
Board = dict[str, Cell]

STATES = Path(__file__).parents[1] / "data" / "ap_cases" / "pacru_test_states.json"
FILES = "abcdefghi"
ALL = [f + r for r in "123456789" for f in FILES]
DIRS = {(0, 1): "N", (1, 1): "NE", (1, 0): "E", (1, -1): "SE"}
DIRS |= {(0, -1): "S", (-1, -1): "SW", (-1, 0): "W", (-1, 1): "NW"}
LEGACY = ap.new_game("pacru", 2, legacy_2p=True).players  # AP P1, P2 of the old layout


# -- AP's test scaffolding, written again ------------------------------------------------------


def old2p_start() -> Board:
    """pacru.test.ts ``old2PStart()``: the 2-player layout before 14 Feb 2025 (B.3)."""
    return {
        "a9": (None, (1, "SE")),
        "c9": (None, (2, "S")),
        "g9": (None, (1, "S")),
        "a5": (None, (2, "E")),
        "i5": (None, (1, "W")),
        "c1": (None, (2, "N")),
        "g1": (None, (1, "N")),
        "i1": (None, (2, "NW")),
    }


def ctr2cells(centre: str) -> list[str]:
    """PacruGraph.ctr2cells: the nine cells of the borderland centred on ``centre`` (G2)."""
    x, y = FILES.index(centre[0]), int(centre[1])
    return [FILES[x + dx] + str(y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]


def state_of(board: Board, players: tuple[str, ...] = LEGACY, to_move: int = 1) -> ChevronState:
    """Our position with the AP board ``board`` and AP player ``to_move`` to move."""
    markers: dict[int, list[str]] = {}
    chevrons: dict[int, list[str]] = {}
    for cell, (tile, chevron) in board.items():
        if tile is not None:
            markers.setdefault(tile, []).append(cell)
        if chevron is not None:
            chevrons.setdefault(chevron[0], []).append(cell + chevron[1])
    groups = [f"{players[p - 1]}:{','.join(cells)}" for p, cells in sorted(markers.items())]
    chevs = [f"{players[p - 1]}:{','.join(cells)}" for p, cells in sorted(chevrons.items())]
    return pos(
        f"pacru players={','.join(players)} turn={players[to_move - 1]} "
        f"markers={';'.join(groups) or '-'} chevrons={';'.join(chevs)}"
    )


def board_of(state: ChevronState) -> Board:
    """Our state's board in AP's shape (cells with neither marker nor chevron left out)."""
    number = {colour: i + 1 for i, colour in enumerate(state.players)}
    board: dict[str, list[Any]] = {}
    for cell, colour in state.marker_map().items():
        board.setdefault(cell, [None, None])[0] = number[colour]
    for cell, chevron in state.chevron_map().items():
        board.setdefault(cell, [None, None])[1] = (number[chevron.owner], chevron.facing.name)
    return {cell: (tile, chevron) for cell, (tile, chevron) in board.items()}


def _between(origin: str, target: str) -> list[str]:
    x0, y0, x1, y1 = FILES.index(origin[0]), int(origin[1]), FILES.index(target[0]), int(target[1])
    dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
    steps = max(abs(x1 - x0), abs(y1 - y0))
    return [FILES[x0 + k * dx] + str(y0 + k * dy) for k in range(1, steps)]


def ap_execute(board: Board, text: str, player: int = 1) -> Board:
    """PacruGame.executeMove for a step, written again from pacru.ts.

    The chevron leaves (its field keeps its tile), lands facing its bearing;
    the landing field takes the mover's tile only on a capture or when it
    already had a tile; then every bracketed cell (``*`` adds the cells in
    between) becomes the mover's, keeping any chevron on it.
    """
    m = re.fullmatch(r"([a-i][1-9])([-x])([a-i][1-9])(?:\((.*)\))?", text)
    assert m is not None, text
    origin, op, target, listed = m.groups()
    after = dict(board)
    tile, chevron = after.pop(origin)
    assert chevron is not None
    assert chevron[0] == player
    if tile is not None:
        after[origin] = (tile, None)
    x0, y0, x1, y1 = FILES.index(origin[0]), int(origin[1]), FILES.index(target[0]), int(target[1])
    bearing = DIRS[((x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0))]
    had_tile = target in board and board[target][0] is not None
    after[target] = (player if had_tile or op == "x" else None, (player, bearing))
    cells = listed.split(",") if listed else []
    if "*" in cells:
        cells += _between(origin, target)
    for cell in cells:
        if cell != "*":
            after[cell] = (player, after.get(cell, (None, None))[1])
    return after


def meeting_fields(after: Board, player: int = 1) -> set[str]:
    """The cells AP's randomMove offers for a meeting: unoccupied and not the mover's."""
    return {c for c in ALL if c not in after or (after[c][0] != player and after[c][1] is None)}


def moves_between(state: ChevronState, origin: str, target: str) -> set[str]:
    """Our legal moves from ``origin`` to ``target`` (any separator and suffix)."""
    return {str(m) for m in state.legal_moves() if str(m)[:2] == origin and str(m)[3:5] == target}


def ap_error(state: ChevronState, text: str) -> tuple[str, str]:
    with pytest.raises(IllegalMoveError) as info:
        ap.parse_move(state, text)
    return info.value.rule, info.value.reason


def test_old2p_start_is_our_legacy_layout() -> None:
    """B.3: the board every AP case starts from is ``ap.new_game(..., legacy_2p=True)``."""
    assert state_of(old2p_start()) == ap.new_game("pacru", 2, legacy_2p=True)


# -- "Side effects detected" (R4, R6, R8, R10, R11, D13-D17) ---------------------------------------


def test_side_effects_bl_change_on_old_start() -> None:
    """AP: getSideEffects(g9, f8) == {blChange}. R4/R6: one marker on any neutral field of e8."""
    state = state_of(old2p_start())
    assert moves_between(state, "g9", "f8") == {f"g9-f8+{c}" for c in ctr2cells("e8")}


def test_side_effects_bl_transform_when_e8_has_no_neutral_field() -> None:
    """AP: e8 all P2 except f8 (P1) -> {blTransform}. R10/D16: any unoccupied P2 field of e8."""
    board = old2p_start()
    for cell in ctr2cells("e8"):
        board[cell] = (1, None) if cell == "f8" else (2, None)
    state = state_of(board)
    assert moves_between(state, "g9", "f8") == {f"g9-f8+{c}" for c in ctr2cells("e8") if c != "f8"}


def side_effects_connection_board() -> Board:
    board = old2p_start()
    board |= {"e7": (1, None), "i9": (1, None), "i8": (1, None), "g9": (1, (1, "S"))}
    return board


def test_side_effects_connection_and_crossing() -> None:
    """AP: g9-e7 in baseMoves, effects {blChange, connChange}, f8 not on the board.

    R8/D13: choose the connection change (``*``) or one crossing marker on a
    neutral field of e8 (e7 is already P1's, so it is not offered).
    """
    state = state_of(side_effects_connection_board())
    assert moves_between(state, "g9", "e7") == {"g9-e7*"} | {
        f"g9-e7+{c}" for c in ctr2cells("e8") if c != "e7"
    }
    assert state.marker_at("f8") is None


def test_side_effects_connection_change_executed() -> None:
    """AP: executeMove("g9-e7(*)") gives f8 P1's tile (R8: the field in between changes)."""
    board = side_effects_connection_board()
    state = state_of(board)
    move = ap.parse_move(state, "g9-e7(*)")
    assert move == Move.parse("g9-e7*")
    after = state.apply_move(move)
    assert board_of(after) == ap_execute(board, "g9-e7(*)")
    assert after.marker_at("f8") == LEGACY[0]


def pincer_board(transform: bool) -> Board:
    board = old2p_start()
    board["d9"] = (None, (1, "S"))
    for cell in ("i9", "i8", "i7", "e9", "e8", "e7"):
        board[cell] = (1, None)
    board["d6"] = (None, (2, "S"))
    if transform:
        for cell in ctr2cells("e5"):
            board[cell] = (2, (2, "S")) if cell == "d6" else (2, None)
    return board


@pytest.mark.parametrize("transform", [False, True], ids=["blChange", "blTransform"])
def test_side_effects_after_pincer(transform: bool) -> None:
    """AP: d9xd6 in baseMoves; getSideEffects(d9, d6, true) == {blChange} / {blTransform}.

    R11, R13, D17, D20: the crossing benefit is judged after the capture, so
    d6 (now P1's) is neither neutral nor a target; a pincer is never a
    connection. Without yellow markers in e5 the marker goes on a neutral
    field (R4); with all of e5 P2's it converts one of them (R10).
    """
    board = pincer_board(transform)
    state = state_of(board)
    others = [c for c in ctr2cells("e5") if c != "d6"]
    assert moves_between(state, "d9", "d6") == {f"d9xd6+{c}" for c in others}
    # g9 attacks d6 down its SW ray (f8, e7, d6) with power 3: the second attacker.
    assert moves_between(state, "g9", "d6") == {f"g9xd6+{c}" for c in others}
    after = state.apply_move(ap.parse_move(state, "d9xd6(e6)"))
    assert board_of(after) == ap_execute(board, "d9xd6(e6)")


def test_side_effects_landing_on_the_last_neutral_field() -> None:
    """AP: e8 all P2 except neutral f8 -> {blChange}; "g9-f8(f8)" valid, complete.

    R6/D15: the landing field counts as an unoccupied neutral field.
    """
    board = old2p_start()
    for cell in ctr2cells("e8"):
        if cell != "f8":
            board[cell] = (2, None)
    state = state_of(board)
    assert moves_between(state, "g9", "f8") == {"g9-f8+f8"}
    move = ap.parse_move(state, "g9-f8(f8)")
    assert move == Move.parse("g9-f8+f8")
    assert board_of(state.apply_move(move)) == ap_execute(board, "g9-f8(f8)")


# -- "Pincers detected and executed correctly" (R11, D18-D20) ------------------------------------


def test_pincers_detected_and_executed() -> None:
    """AP: e9xe7 and g9xe7 in baseMoves; after e9xe7, e7 has P1's tile and chevron.

    R11/D18: e9 (power 2 from d9, d8) reaches e7 straight down, g9 (power 2
    from i9, i8) down its SW ray. e9xe7 stays in e8, so it has no suffix;
    g9xe7 crosses h8 -> e8 and needs a marker on an unoccupied neutral field
    of e8 (not d8/d9, P1's; not e7, captured; not e9, occupied).
    """
    board = old2p_start()
    board |= {"e9": (None, (1, "S")), "e7": (None, (2, "S"))}
    board |= dict.fromkeys(("i9", "i8", "d9", "d8"), (1, None))
    state = state_of(board)
    assert moves_between(state, "e9", "e7") == {"e9xe7"}
    assert moves_between(state, "g9", "e7") == {
        f"g9xe7+{c}" for c in ("d7", "f7", "e8", "f8", "f9")
    }
    after = state.apply_move(ap.parse_move(state, "e9xe7"))
    assert board_of(after) == ap_execute(board, "e9xe7")
    assert board_of(after)["e7"] == (1, (1, "S"))


# -- "Meetings detected" (R12, D21-D23) -----------------------------------------------------------


def meeting_board(g8_tile: bool, yellow_block: bool) -> Board:
    board = old2p_start()
    board |= {"g9": (1, (1, "S")), "g7": (1, (1, "N"))}
    if g8_tile:
        board["g8"] = (1, None)
    if yellow_block:
        board |= dict.fromkeys(ctr2cells("e5"), (2, None))
    return board


def test_meeting_not_enough_enemy_tiles() -> None:
    """AP: isMeeting(g8) false with P2 at 0 markers. R12 (2011): no meeting field below 9."""
    board = meeting_board(g8_tile=True, yellow_block=False)
    state = state_of(board)
    assert moves_between(state, "g9", "g8") == {"g9-g8"}
    assert board_of(state.apply_move("g9-g8")) == ap_execute(board, "g9-g8")


def test_meeting_enough_enemy_tiles() -> None:
    """AP: isMeeting(g8) true with P2 at 9 markers (all of e5).

    R12, D21, D23: the pair g8 (facing S) / g7 (facing N) on P1's fields; the
    move must name one unoccupied field that is not P1's, anywhere, P2's
    included. AP's validateMove("g9-g8") is incomplete (-1): ours rejects the
    bare step with D23 meeting-required.
    """
    board = meeting_board(g8_tile=True, yellow_block=True)
    state = state_of(board)
    fields = meeting_fields(ap_execute(board, "g9-g8"))
    assert len(fields) == 81 - 3 - 7
    assert moves_between(state, "g9", "g8") == {f"g9-g8@{c}" for c in fields}
    assert ap_error(state, "g9-g8") == ("D23", "meeting-required")


def test_meeting_needs_a_tile_on_the_landing_field() -> None:
    """AP: isMeeting(g8) false when g8 has no tile. D21: both fields must be own; R3 gives none."""
    board = meeting_board(g8_tile=False, yellow_block=True)
    state = state_of(board)
    assert moves_between(state, "g9", "g8") == {"g9-g8"}
    after = state.apply_move("g9-g8")
    assert board_of(after) == ap_execute(board, "g9-g8")
    assert after.marker_at("g8") is None


def test_meeting_that_drops_the_threshold_is_valid() -> None:
    """AP: validateMove("g9-g8(e5)") valid, complete, though it drops P2 from 9 to 8.

    D22: the threshold is judged before the meeting's own change, so AP and we
    agree. (We judge it after the move's other effects; AP before them. That
    only differs when a transformation or connection change of the same move
    takes the 9th marker; no AP test has such a case, see
    test_abstractplay.test_known_difference_d22_threshold_after_the_moves_other_effects.)
    """
    board = meeting_board(g8_tile=True, yellow_block=True)
    state = state_of(board)
    move = ap.parse_move(state, "g9-g8(e5)")
    assert move == Move.parse("g9-g8@e5")
    after = state.apply_move(move)
    assert board_of(after) == ap_execute(board, "g9-g8(e5)")
    assert after.scores[LEGACY[1]] == 8


# -- "Cell validation edge cases" (R4, R6, R11-R13, D23, D47) -------------------------------------


def combination_board(i8: bool = True) -> Board:
    """The board of "Cell validation edge cases"; the older test version had no P1 tile on i8."""
    board = old2p_start()
    board |= dict.fromkeys(ctr2cells("b5"), (2, None))
    board |= {"d3": (None, (1, "N")), "e3": (None, (1, "N")), "e4": (None, (2, "N"))}
    board |= {"e5": (1, (1, "S"))}
    if i8:
        board["i8"] = (1, None)
    return board


@pytest.mark.parametrize("i8", [True, False], ids=["newest", "older"])
def test_combination_capture_crossing_and_meeting(i8: bool) -> None:
    """AP: validateMove("e3xe4(e6, i9)") valid, complete.

    R13: the pincer e3xe4 (attackers d3, e3, e5) crosses e2 -> e5, so one
    marker on an unoccupied neutral field of e5 (R4; e4 is P1's after the
    capture, D17), then the meeting e4 (N) / e5 (S) with P2 at 9 gives one
    more field anywhere (D23), never the crossing field (D47).
    """
    board = combination_board(i8)
    state = state_of(board)
    move = ap.parse_move(state, "e3xe4(e6, i9)")
    assert move == Move.parse("e3xe4+e6@i9")
    assert board_of(state.apply_move(move)) == ap_execute(board, "e3xe4(e6,i9)")
    crossing = ["d4", "f4", "d5", "f5", "d6", "e6", "f6"]
    expected = {
        f"e3xe4+{c}@{f}" for c in crossing for f in meeting_fields(ap_execute(board, f"e3xe4({c})"))
    }
    assert "e3" in meeting_fields(ap_execute(board, "e3xe4(e6)"))  # the vacated field, D47
    assert moves_between(state, "e3", "e4") == expected


@pytest.mark.parametrize(
    ("ap_text", "rule", "reason"),
    [
        ("e3xe4(e7, i9)", "R6", "bad-marker-field"),  # "move the first claim outside the bl"
        ("e3xe4(e4, i9)", "R6", "bad-marker-field"),  # "claim the cell you just captured"
        ("e3xe4(e6, g9)", "D23", "bad-meeting-field"),  # "claim an occupied cell"
        ("e3xe4(e6, i9, i8)", "R13", "too-many-fields"),  # "claim too many cells"
        ("e3xe4(e6, i8)", "D23", "bad-meeting-field"),  # "claim your own tile" (newest only)
    ],
)
def test_combination_invalid_cells(ap_text: str, rule: str, reason: str) -> None:
    """AP: each of these is valid == false; ours names the rule (R6, D23, R13)."""
    assert ap_error(state_of(combination_board()), ap_text) == (rule, reason)
    if "i8" not in ap_text:
        assert ap_error(state_of(combination_board(i8=False)), ap_text) == (rule, reason)


# -- the two serialised games: "Connection change bug" and bugstate2 -----------------------------


def ap_state(name: str) -> dict[str, Any]:
    """A PacruGame state constant of pacru.test.ts, decoded as AP does (base64, gzip, JSON)."""
    data = json.loads(STATES.read_text(encoding="utf-8"))
    state: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(data[name])))
    return state


def stack_board(entry: dict[str, Any]) -> Board:
    board: Board = {}
    for cell, contents in entry["board"]["value"]:
        chevron = contents.get("chevron")
        board[cell] = (
            contents.get("tile"),
            (chevron["owner"], chevron["facing"]) if chevron else None,
        )
    return board


GAMES = {"bugstate": True, "bugstate2": False}  # constant -> AP-old 2p layout


@pytest.mark.parametrize(("name", "legacy"), GAMES.items())
def test_serialised_game_agrees_ply_by_ply(name: str, legacy: bool) -> None:
    """Each ply's AP board, player to move and claimed fields equal ours (B.3, R3-R14).

    The stack's first entry is AP's start (AP-old layout for ``bugstate``, the
    current one for ``bugstate2``); each later entry is AP's state after
    ``lastmove``. AP's results ``claim``/``convert``/``sacrifice`` name the
    fields whose colour the move changed, ``orient`` the reoriented chevron.
    AP also reports a connection change over a field that is already the
    mover's (ply 43, ``d9-f7(*)``: e8) as a ``convert`` from "1" into "1";
    that changes nothing (D11), so such results are left out.
    """
    data = ap_state(name)
    assert (data["game"], data["numplayers"], data["variants"]) == ("pacru", 2, [])
    stack = data["stack"]
    state = ap.new_game("pacru", 2, legacy_2p=legacy)
    assert board_of(state) == stack_board(stack[0])
    for entry in stack[1:]:
        before = state.marker_map()
        state = state.apply_move(ap.parse_move(state, entry["lastmove"]))
        assert board_of(state) == stack_board(entry), entry["lastmove"]
        assert state.current_player == state.players[entry["currplayer"] - 1]
        changed = {c for c in ALL if state.marker_at(c) != before.get(c)}
        results = entry["_results"]
        assert changed == {
            r["where"]
            for r in results
            if r["type"] in ("claim", "sacrifice")
            or (r["type"] == "convert" and r["what"] != r["into"])
        }, entry["lastmove"]
        assert results[0]["type"] in ("move", "orient")
    # AP's state: the game is not over and has no winner (R16).
    assert (data["gameover"], data["winner"]) == (False, [])
    assert state.outcome is None
    assert state.ply == len(stack) - 1


def test_connection_change_bug() -> None:
    """AP "Connection change bug": validateMove("f7-i4(*)") valid, complete, on ``bugstate``.

    R8, D9, D13: f7 and i4 are P1's before the move and g6, h5 lie between with
    no chevron, so the move is a connection (also a crossing e8 -> h5); taking
    ``*`` turns g6 (P2's) and h5 (neutral) to P1.
    """
    stack = ap_state("bugstate")["stack"]
    state = ap.replay("pacru", 2, [e["lastmove"] for e in stack[1:]], legacy_2p=True)
    move = ap.parse_move(state, "f7-i4(*)")
    assert move == Move.parse("f7-i4*")
    board = stack_board(stack[-1])
    assert board["g6"][0] == 2
    assert "h5" not in board
    assert board_of(state.apply_move(move)) == ap_execute(board, "f7-i4(*)")


def test_meeting_after_a_marker_on_the_landing_field() -> None:
    """AP "Meeting detected after placing a marker after blChange": "h3-f3(f3)" on
    ``bugstate2`` is valid but incomplete (-1): it needs a meeting field.

    D21: the crossing marker on the landing field f3 makes f3 own, so f3 (W)
    and e3 (E) meet; P2 has 9 markers (R12). AP re-executes a leading ``(to)``
    before its meeting check, exactly for this case.
    """
    stack = ap_state("bugstate2")["stack"]
    state = ap.replay("pacru", 2, [e["lastmove"] for e in stack[1:]])
    board = stack_board(stack[-1])
    assert state.scores[state.players[1]] == 9
    assert ap_error(state, "h3-f3(f3)") == ("D23", "meeting-required")
    fields = meeting_fields(ap_execute(board, "h3-f3(f3)"))
    completions = {str(m) for m in state.legal_moves() if str(m).startswith("h3-f3+f3")}
    assert completions == {f"h3-f3+f3@{c}" for c in fields}
    after = state.apply_move(ap.parse_move(state, "h3-f3(f3,a1)"))
    assert board_of(after) == ap_execute(board, "h3-f3(f3,a1)")


# -- azacru.test.ts: "allows Complete move after crossing a border (optional reorientation)" -----


def test_azacru_crossing_completes_without_a_twist() -> None:
    """A-R6, D3, D4: the first crossing base move of AP's 2-player start is a3-b4.

    AP: validateMove("a3-b4*") is valid with complete == 0 (a twist may still
    be chosen); clicking Complete gives "a3-b4^", and playing either string
    leaves the chevron facing its travel direction (NE) with P2 to move. Ours:
    the step has exactly three variants and "^" is the one without a twist.
    """
    state = ap.new_game("azacru", 2)
    assert moves_between(state, "a3", "b4") == {"a3-b4", "a3-b4<", "a3-b4>"}
    move = ap.parse_move(state, "a3-b4^")
    assert move == Move.parse("a3-b4")
    assert ap.format_move(state, move) == "a3-b4^"
    after = state.apply_move(move)
    assert after.current_player == after.players[1]
    assert after.chevron_at("b4") == Chevron(after.players[0], Direction.NE)
    assert after.marker_map() == {"b4": after.players[0]}


def test_azacru_pending_star_plays_as_no_twist() -> None:
    """AP: afterStar.move("a3-b4*") equals afterCaret.move("a3-b4^") (player, facing)."""
    state = ap.new_game("azacru", 2)
    assert ap.parse_move(state, "a3-b4*") == Move.parse("a3-b4")
