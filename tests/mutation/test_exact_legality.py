# ruff: noqa: E501 -- one row per reason code; the sentences are compared whole
"""Exact IllegalMoveError of every reason code: rule, reason and sentence.

Fast, deterministic tests written to kill mutants (``scripts/mutation.sh``) in
:mod:`pacru.chevron.legality`: one illegal move per reason code documented
there, with the rule it names {S-R2..S-R5, A-R4..A-R9, R2..R14, D3..D25} and
the full sentence, which also checks ``str(err)``, ``err.move`` and that the
state is unchanged.
"""

from __future__ import annotations

import re

import pytest

import pacru.chevron.legality
from pacru import GameOverError, IllegalMoveError, from_position

_DOC = pacru.chevron.legality.__doc__ or ""
CHEVRON_REASONS = frozenset(re.findall(r"``([a-z-]+)``", _DOC.split("Reason codes:")[1]))

CASES = [
    (
        "pacru players=a,b chevrons=a:e5N;b:a1NE",
        "pass",
        "R2",
        "pass-not-allowed",
        "Pacru has no passing; move or reorient",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:a1NE",
        "pass",
        "S-R2",
        "pass-not-allowed",
        "a may pass only when none of their chevrons can move (D34, D37)",
    ),
    (
        "shacru players=a,b markers=b:d6,e6,f6 chevrons=a:e5N;b:a1NE",
        "e5-e6",
        "S-R2",
        "must-pass",
        "no chevron of a can move; a must pass",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:a1NE",
        "e4-e5",
        "S-R3",
        "no-chevron",
        "there is no chevron on e4",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:a1NE",
        "a1-b2",
        "S-R3",
        "not-your-chevron",
        "the chevron on a1 belongs to b, and a is to move",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5>(a1,a2)",
        "S-R3",
        "no-reorientation",
        "shacru has no reorientation; only Pacru does (R14)",
    ),
    (
        "pacru players=a,b markers=a:a2,a3,a4 chevrons=a:e5N;b:a1NE",
        "e5>(a2)",
        "R14",
        "wrong-payment",
        "a 45-degree turn costs exactly 2 of your fields, not 1 (D25)",
    ),
    (
        "pacru players=a,b markers=a:a2,e5 chevrons=a:e5N;b:a1NE",
        "e5>(a2,e5)",
        "D25",
        "too-few-fields",
        "a has 1 unoccupied field of their own, and a 45-degree turn gives up 2 (R14)",
    ),
    (
        "pacru players=a,b markers=a:a2,a3,a4 chevrons=a:e5N;b:a1NE",
        "e5>(a2,b9)",
        "D25",
        "relinquish-not-own",
        "b9 is not a field of yours",
    ),
    (
        "pacru players=a,b markers=a:a2,a3,e5 chevrons=a:e5N;b:a1NE",
        "e5>(a2,e5)",
        "D25",
        "relinquish-occupied",
        "e5 has a chevron on it; only unoccupied fields can be given up (R7)",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5-f7",
        "S-R3",
        "not-straight",
        "e5 to f7 is not a straight line",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5-e4",
        "S-R3",
        "not-forward",
        "the chevron on e5 faces N and moves only NW, N, NE, not S",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5-e7",
        "S-R3",
        "beyond-power",
        "a chevron moves one field; e5 to e7 is 2",
    ),
    (
        "azacru players=a,b markers=a:e5 chevrons=a:e5N;b:a1NE",
        "e5-e8",
        "A-R4",
        "beyond-power",
        "the power of movement on e5 is 1 (own fields in the e5 borderland), so it cannot move 3 fields (D39)",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:e6S",
        "e5xe6",
        "S-R3",
        "no-pincer",
        "shacru has no pincer; only Pacru (R11)",
    ),
    (
        "pacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5xe6",
        "R11",
        "no-victim",
        "e6 holds no opposing chevron to take",
    ),
    (
        "pacru players=a,b markers=a:e5,d5 chevrons=a:e5N,e6N;b:a1NE",
        "e5xe7",
        "R11",
        "no-victim",
        "e7 holds no opposing chevron to take",
    ),
    (
        "pacru players=a,b markers=a:e5,d5 chevrons=a:e5N;b:e6S,e7S",
        "e5xe7",
        "D18",
        "no-victim",
        "the chevron on e6 stands between; there is no attack through a jump",
    ),
    (
        "pacru players=a,b chevrons=a:e5N;b:e6S",
        "e5xe6",
        "R11",
        "single-attacker",
        "a pincer needs two or more of your chevrons attacking e6 at the start of your turn (R11, D18, D19)",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:e6S",
        "e5-e6",
        "S-R5",
        "occupied",
        "e6 holds b's chevron",
    ),
    (
        "pacru players=a,b chevrons=a:e5N;b:e6S",
        "e5-e6",
        "R7",
        "occupied",
        "e6 holds b's chevron; take it with a pincer (e5xe6) if two of your chevrons attack it",
    ),
    (
        "shacru players=a,b chevrons=a:e5N,e6N;b:a1NE",
        "e5-e6",
        "S-R5",
        "occupied",
        "e6 holds a's chevron",
    ),
    (
        "azacru players=a,b markers=a:e4,e5,d4 chevrons=a:e4N;b:e5S",
        "e4-e6",
        "A-R9",
        "jump-not-connection",
        "may not jump over the chevron on e5 unless the move is a connection jump (from and to own fields; A-R8)",
    ),
    (
        "shacru players=a,b markers=b:e6 chevrons=a:e5N;b:a1NE",
        "e5-e6",
        "S-R5",
        "opponent-field",
        "e6 belongs to b",
    ),
    (
        "lilacru players=a,b chevrons=a:f6N;b:a1NE",
        "f6-g7>",
        "L4",
        "no-twist",
        "lilacru has no borderland twist",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5-e6>",
        "S-R4",
        "twist-without-crossing",
        "the twist is allowed only after crossing a border (D3)",
    ),
    (
        "azacru players=a,b markers=a:e4,d4,f4,e7;b:e6 chevrons=a:e4N;b:a1NE",
        "e4-e7>",
        "D5",
        "twist-removed",
        "the chevron is removed by its own connection change, so there is nothing to twist (A-R7, D5)",
    ),
    (
        "azacru players=a,b chevrons=a:f6N;b:a1NE trigger=b",
        "f6-g7>",
        "D5",
        "twist-after-trigger",
        "once the Azacru end is triggered no twist is offered (D5)",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5-e6*",
        "S-R3",
        "pacru-only",
        "'*', '+field' and '@field' are Pacru choices",
    ),
    (
        "pacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5-e6*",
        "R8",
        "not-connection",
        "not a connection change: that needs a move of 2 or more fields from an own field to an own field with no chevron jumped (D9)",
    ),
    (
        "pacru players=a,b markers=a:g9,i9,i8,e7 chevrons=a:g9S;b:a1NE",
        "g9-e7*+d9",
        "R8",
        "connection-and-crossing",
        "a connection that crosses a border takes either the connection change or the crossing benefit, not both (D13)",
    ),
    (
        "pacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5-e6+e6",
        "R4",
        "marker-without-crossing",
        "this move does not cross a border",
    ),
    (
        "pacru players=a,b markers=a:e4,d4,e6 chevrons=a:e4N;b:a1NE",
        "e4-e6",
        "R8",
        "connection-required",
        "this connection change is compulsory: write '*' (D10)",
    ),
    (
        "pacru players=a,b chevrons=a:f6N;b:a1NE",
        "f6-g7",
        "R4",
        "marker-required",
        "the border crossing must place a marker: choose '+field' with a field among g7, h7, i7, g8, h8, i8, g9, h9, i9 (R6, D15)",
    ),
    (
        "pacru players=a,b chevrons=a:f6N;b:a1NE",
        "f6-g7+a1",
        "R6",
        "bad-marker-field",
        "the crossing marker may go on g7, h7, i7, g8, h8, i8, g9, h9, i9, not a1 (D15, D16)",
    ),
    (
        "pacru players=a,b markers=a:g9,g8 chevrons=a:g9S,g7N;b:a1NE",
        "g9-g8@e5",
        "R12",
        "no-meeting",
        "this move makes no meeting benefit: that needs two of your chevrons on your fields, adjacent and facing each other (D21), and an opponent with at least 9 markers (D22)",
    ),
    (
        "pacru players=a,b markers=a:g9,g8,g7;b:d4,e4,f4,d5,e5,f5,d6,e6,f6 chevrons=a:g9S,g7N;b:a1NE",
        "g9-g8",
        "D23",
        "meeting-required",
        "this move makes a meeting: choose '@field', an unoccupied field that is not yours (R12)",
    ),
    (
        "pacru players=a,b markers=a:g9,g8,g7,i1;b:d4,e4,f4,d5,e5,f5,d6,e6,f6 chevrons=a:g9S,g7N;b:a1NE",
        "g9-g8@i1",
        "D23",
        "bad-meeting-field",
        "the meeting may change only an unoccupied field that is not yours, not i1",
    ),
    (
        "shacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5-f6+a1",
        "S-R3",
        "pacru-only",
        "'*', '+field' and '@field' are Pacru choices",
    ),
    (
        "pacru players=a,b markers=a:f8,g9;b:d7,e7,f7,d8,e8,d9,e9,f9 chevrons=a:g9S;b:a1NE",
        "g9-f8+f8",
        "R10",
        "bad-marker-field",
        "the crossing marker may go on d7, e7, f7, d8, e8, d9, e9, f9, not f8 (D15, D16)",
    ),
    (
        "pacru players=a,b markers=a:f8,g9;b:d7,e7,f7,d8,e8,d9,e9,f9 chevrons=a:g9S;b:a1NE",
        "g9-f8",
        "R4",
        "marker-required",
        "the border crossing must place a marker: choose '+field' with a field among d7, e7, f7, d8, e8, d9, e9, f9 (R6, D15)",
    ),
    (
        "pacru players=a,b markers=a:g9,g8 chevrons=a:g9S,g7N;b:a1NE meeting_rule=original",
        "g9-g8@e5",
        "R12",
        "no-meeting",
        "this move makes no meeting benefit: that needs two of your chevrons on your fields, adjacent and facing each other (D21)",
    ),
    (
        "pacru players=a,b markers=a:g9,g8,g7 chevrons=a:g9S,g7N;b:a1NE meeting_rule=original",
        "g9-g8@g7",
        "D23",
        "bad-meeting-field",
        "the meeting may change only an unoccupied field that is not yours, not g7",
    ),
    (
        "pacru players=a,b markers=a:a2,a3,a4,a5 chevrons=a:e5N;b:a1NE",
        "e5>>(a2,a3,a4,a6)",
        "D25",
        "relinquish-not-own",
        "a6 is not a field of yours",
    ),
    (
        "azacru players=a,b chevrons=a:e5N;b:a1NE trigger=a",
        "e5-e6",
        "end",
        "game-over",
        "the game is over (a, b share the win)",
    ),
    (
        "azacru players=a,b chevrons=a:e5N;b:a1NE",
        "e5-e4",
        "A-R3",
        "not-forward",
        "the chevron on e5 faces N and moves only NW, N, NE, not S",
    ),
    (
        "azacru players=a,b markers=a:e5,d5 chevrons=a:e5N;b:a1NE",
        "e5-e3",
        "A-R5",
        "not-forward",
        "the chevron on e5 faces N and moves only NW, N, NE, not S",
    ),
    (
        "azacru players=a,b,c chevrons=a:f6N;b:c3NE;c:i1NW trigger=a turn=b",
        "c3-d4>",
        "D5",
        "twist-after-trigger",
        "once the Azacru end is triggered no twist is offered (D5)",
    ),
    (
        "pacru players=a,b markers=a:e4,e5,d4 chevrons=a:e4N;b:e5S",
        "e4-e6",
        "R7",
        "jump-not-connection",
        "may not jump over the chevron on e5 unless the move is a connection jump (from and to own fields; R9)",
    ),
    (
        "pacru players=a,b markers=a:g9,i9,i8,e7 chevrons=a:g9S;b:a1NE",
        "g9-e7",
        "R4",
        "marker-required",
        "the border crossing must place a marker: choose '*' for the connection change or '+field' with a field among d7, f7, d8, e8, f8, d9, e9, f9 (R6, D15)",
    ),
    (
        "pacru players=a,b markers=a:g7;b:h7,i7,g8,h8,i8,g9 chevrons=a:f6N;b:h9S,i9S",
        "f6-g7+h9",
        "R4",
        "marker-without-crossing",
        "this move gets no crossing benefit: every neutral field there holds a chevron (D14)",
    ),
    (
        "pacru players=a,b chevrons=a:d4SW;b:i9S",
        "d4-c3+e5",
        "R6",
        "bad-marker-field",
        "the crossing marker may go on a1, b1, c1, a2, b2, c2, a3, b3, c3, not e5 (D15, D16)",
    ),
    (
        "pacru players=a,b markers=a:"
        + ",".join([c + r for r in "1234" for c in "abcdefghi"])
        + ",a5,b5,c5,g5,h5 chevrons=a:e6N,d6NE;b:e7S,a9E",
        "e6xe7+e8",
        "D29",
        "supply-exhausted",
        "the pincer places the last marker of the supply, which wins at once (R16b): "
        "no '*', '+field' or '@field' follows (D29)",
    ),
]


#: Diagrams only play cannot reach (loaded with ``adjudicate=False``).
DIAGRAM_CASES = [
    (
        "pacru players=a,b markers=a:a2,a3 chevrons=a:a1SW;b:i9S",
        "a1>(a2,a3)",
        "R14",
        "no-movable-chevron",
        "a may reorient only if one of their chevrons can move this turn, and none can (D26)",
    ),
]


@pytest.mark.parametrize(("position", "move", "rule", "reason", "detail"), DIAGRAM_CASES)
def test_illegal_move_in_a_diagram_is_explained(
    position: str, move: str, rule: str, reason: str, detail: str
) -> None:
    state = from_position(position, adjudicate=False)
    with pytest.raises(IllegalMoveError) as raised:
        state.apply_move(move)
    assert (raised.value.rule, raised.value.reason, raised.value.detail) == (rule, reason, detail)


@pytest.mark.parametrize(("position", "move", "rule", "reason", "detail"), CASES)
def test_illegal_move_is_explained(
    position: str, move: str, rule: str, reason: str, detail: str
) -> None:
    """The move is refused naming exactly this rule, reason and sentence."""
    state = from_position(position)
    before = state.to_position()
    with pytest.raises(IllegalMoveError) as raised:
        state.apply_move(move)
    err = raised.value
    assert (err.rule, err.reason, err.detail) == (rule, reason, detail)
    assert str(err) == f"{rule}: {move}: {detail}"
    assert err.move == move
    assert isinstance(err, GameOverError) == (reason == "game-over")
    assert state.to_position() == before


def test_every_documented_reason_is_exercised() -> None:
    """The table covers every reason code of pacru.chevron.legality but the catch-all."""
    assert {case[3] for case in CASES + DIAGRAM_CASES} == CHEVRON_REASONS - {"illegal"}
