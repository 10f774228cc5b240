"""AbstractPlay interop: its starting layouts, player numbers and move strings.

`AbstractPlay <https://abstractplay.com>`_ ("AP") is the most-used online
implementation of Pacru and Azacru (TypeScript ``gameslib``:
``src/games/pacru.ts``, ``src/games/azacru.ts``). This module replays AP game
records exactly and converts moves both ways (its notation, its layouts past and
present and its player numbering). AP has no Lilacru or Shacru.

Players
    AP numbers players from 1. :func:`new_game` starts a game with AP's
    layout and numbering, so ``state.players[i]`` is AP player ``i + 1`` and
    AP player 1 moves first: 2 players as the library default (P1 = seat S
    plus i9 SW, P2 = seat N plus a1 NE; ``legacy_2p=True`` gives the layout of
    games created before 14 Feb 2025: P1 = seat E plus a9 SE, P2 = seat W plus
    i1 NW); 3 players E, W, N; 4 players E, W, N, S.

Pacru move strings (input is lower-cased and stripped of white space, as AP
does), and how they map to :mod:`pacru.chevron.move`:

=====================  ==========================  =====================================
AP                     ours                        meaning
=====================  ==========================  =====================================
``a3-c5``              ``a3-c5``                   a move (plain, long, connection, jump)
``e9xe7``              ``e9xe7``                   a pincer {R11}
``g9-e7(*)``           ``g9-e7*``                  the connection change {R8}
``g9-e7(d9)``          ``g9-e7+d9``                crossing field {R4, R6, R10}
``g9-g8(e5)``          ``g9-g8@e5``                meeting field {R12}, when the move
                                                   has no crossing benefit
``e3xe4(e6,i9)``       ``e3xe4+e6@i9``             crossing field, then meeting field
``a4-a6(*,i9)``        ``a4-a6*@i9``               connection change, then meeting field
``d9>>(a7,b7,b5,c4)``  ``d9>>(c4,b5,a7,b7)``       reorientation {R14}: ``>``/``>>``
                                                   45/90 degrees clockwise, ``<``/``<<``
                                                   anticlockwise, then the fields given up
=====================  ==========================  =====================================

``(*)`` is written for every connection change, also when no crossing competes
with it (D10). A single field in brackets is the crossing field when the move
has a crossing benefit, otherwise the meeting field. AP's parser keeps the
bracketed cells as a set (a repeated cell counts once) and its validation
accepts them in either order, so :func:`parse_move` reads ``(i9,e6)`` as
``(e6,i9)`` when only that reading is legal. No ``pass`` is written in Pacru;
AP records an automatic ``pass`` for a seat that has no chevrons or is blocked
(R15, D27), which :func:`replay` accepts exactly there.

Azacru move strings: ``a3-c5`` is a move; connection changes and the removal of
A-R7 happen by themselves. A move that ends in another borderland carries a
twist suffix: ``^`` keeps the direction of travel, ``<`` / ``>`` turn 45
degrees anticlockwise / clockwise (ours: no sign, ``<``, ``>``). ``*`` (AP's
"twist still to choose", which its ``move()`` plays as ``^``) is read as ``^``
and never written. There is no suffix on a connection change that removes the
chevron, nor once the end is triggered (D5); ``pass`` is written by a player
who cannot move (A-R10, D36).

Known differences from AP (the library follows the rulings; records that rely
on them do not replay):

* D22: AP judges the 2011 meeting threshold before the move's other chosen
  fields; the library judges it after all of the move's other effects. A
  transformation or connection change that drops the opponent from 9 markers
  to 8 gives AP a meeting and the library none.
* R7/R9: AP's Pacru move list (``baseMoves``) offers a jump over a chevron onto
  an own field without checking that the start field is own; the library
  allows jumps only in a connection (start and destination own).
* A-R6/D3: AP's Azacru validation lets a non-crossing move carry a twist
  suffix (and ``<``/``>`` then turn the chevron); the library rejects it.

Errors: :class:`~pacru.errors.NotationError` for text outside AP's grammar,
:class:`~pacru.errors.IllegalMoveError` (with ``rule`` and ``reason``) for a
well-formed but illegal move. Besides the reason codes of
:mod:`pacru.chevron.legality`, this module uses ``too-many-fields`` (R13: more
than a benefit field and a meeting field), ``over-orient`` (D25: more than 90
degrees) and ``twist-required`` (A-R6: an Azacru crossing written without
``^``, ``<`` or ``>``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from pacru.chevron.legality import diagnose
from pacru.chevron.move import Move
from pacru.chevron.movelist import StepFamily
from pacru.chevron.setup import new_game as _new_chevron_game
from pacru.chevron.state import ChevronState
from pacru.errors import GameOverError, IllegalMoveError, NotationError, PacruError
from pacru.geometry import FIELD_NAMES, Direction, bits, parse_field

__all__ = [
    "AP_GAMES",
    "ReplayError",
    "compare_final",
    "final_position",
    "format_move",
    "new_game",
    "parse_move",
    "replay",
]

#: The chevron games AbstractPlay implements.
AP_GAMES: Final = ("pacru", "azacru")
#: Longest AP move text read (before white space is removed).
MAX_AP_MOVE_TEXT: Final = 200

_STEP_RE: Final = re.compile(r"([a-i][1-9])([-x])([a-i][1-9])(.*)")
_REORIENT_RE: Final = re.compile(r"([a-i][1-9])([<>]+)(.*)")
_CELLS_RE: Final = re.compile(r"\(([^()]*)\)")
_FIELD_RE: Final = re.compile(r"[a-i][1-9]")
# "*" is AP's pending twist: its move() plays "a3-b4*" as "a3-b4^" (azacru.test.ts).
_SUFFIX_TWIST: Final = {"^": 0, "<": -1, ">": 1, "*": 0}
_TWIST_SUFFIX: Final = {0: "^", -1: "<", 1: ">"}


class ReplayError(PacruError):
    """A move of an AbstractPlay record that cannot be played.

    Attributes:
        ply: the 1-based number of the bad move in the record.
        move: its text as recorded.
        error: the underlying :class:`~pacru.errors.NotationError` or
            :class:`~pacru.errors.IllegalMoveError` (also ``__cause__``).
    """

    def __init__(self, ply: int, move: str, error: PacruError) -> None:
        super().__init__(f"ply {ply} ({move!r}): {error}")
        self.ply = ply
        self.move = move
        self.error = error


def _check_game(game: str) -> str:
    name = game.lower() if isinstance(game, str) else game
    if name not in AP_GAMES:
        raise ValueError(
            f"AbstractPlay implements {', '.join(AP_GAMES)} of the chevron games, not {game!r}"
        )
    return name


def new_game(game: str, players: int, *, legacy_2p: bool = False) -> ChevronState:
    """A game started as AbstractPlay starts it (ruling D1).

    ``state.players`` lists AP player 1 first, in AP's turn order; AP player
    ``n`` is ``state.players[n - 1]``. Colours are the library's seat colours.

    Args:
        game: ``"pacru"`` or ``"azacru"``.
        players: 2, 3 or 4.
        legacy_2p: Pacru, 2 players: AP's layout of games created before
            14 Feb 2025 (``start_layout="ap-legacy-2p"``).

    Raises:
        ValueError: another game, a player count other than 2-4, or
            ``legacy_2p`` for Azacru or for 3-4 players.
    """
    name = _check_game(game)
    if legacy_2p and (name != "pacru" or players != 2):
        raise ValueError("legacy_2p applies to 2-player Pacru only (AP Azacru never used it)")
    layout = "ap-legacy-2p" if legacy_2p else "abstractplay"
    return _new_chevron_game(name, players, start_layout=layout)


def _normalise(text: str) -> str:
    if not isinstance(text, str):
        raise NotationError("an AbstractPlay move must be given as a string")
    if len(text) > MAX_AP_MOVE_TEXT:
        raise NotationError(f"move text longer than {MAX_AP_MOVE_TEXT} characters", text)
    return re.sub(r"\s+", "", text.lower())


def _cells(rest: str, text: str) -> list[str] | None:
    """The bracketed cells after a move, in order, each once; None if no brackets."""
    if not rest:
        return None
    m = _CELLS_RE.fullmatch(rest)
    if not m:
        raise NotationError(f"{text!r}: expected '(cell,...)' after the move, not {rest!r}", text)
    cells: list[str] = []
    for cell in m.group(1).split(","):
        if cell != "*" and not _FIELD_RE.fullmatch(cell):
            raise NotationError(f"{text!r}: {cell!r} is not a field or '*'", text)
        if cell not in cells:  # AP keeps the cells as a set
            cells.append(cell)
    return cells


def _check(state: ChevronState, move: Move, text: str) -> Move:
    if state.outcome is not None:
        raise GameOverError(f"the game is over ({state.outcome.result()})", move=text)
    if move not in state.legal_moves():
        raise diagnose(state, move, text)
    return move


def parse_move(state: ChevronState, text: str) -> Move:
    """The legal move written ``text`` in AbstractPlay's notation (module docstring).

    Args:
        state: a Pacru or Azacru state (started with :func:`new_game` or not:
            only the board matters).
        text: an AP move string; case and white space are ignored.

    Raises:
        NotationError: not an AP move string of this game.
        IllegalMoveError: well-formed but illegal here; ``rule`` and ``reason``
            say why (see the module docstring for the codes this module adds).
        GameOverError: the game is over.
        ValueError: ``state`` is not Pacru or Azacru.
    """
    game = _check_game(state.game)
    s = _normalise(text)
    if s == "pass":
        return _check(state, Move.pass_move(), text)
    if game == "pacru":
        return _parse_pacru(state, s, text)
    return _parse_azacru(state, s, text)


def _base(s: str, text: str) -> tuple[int, int, bool, str]:
    m = _STEP_RE.fullmatch(s)
    if not m:
        raise NotationError(
            f"{text[:40]!r} is not an AbstractPlay move; expected e.g. 'a3-c5', 'e9xe7', "
            "'g9-e7(*)', 'e3xe4(e6,i9)', 'd9>>(a7,b7,b5,c4)', 'a3-b4^' or 'pass'",
            text,
        )
    origin, sep, target, rest = m.groups()
    if origin == target:
        raise NotationError(f"{text!r}: a move must leave its field", text)
    return parse_field(origin), parse_field(target), sep == "x", rest


def _parse_pacru(state: ChevronState, s: str, text: str) -> Move:
    m = _REORIENT_RE.fullmatch(s)
    if m:
        return _parse_reorientation(state, m, text)
    origin, target, capture, rest = _base(s, text)
    cells = _cells(rest, text) or []
    base = Move(origin, target, capture=capture)
    if len(cells) > 2:
        raise IllegalMoveError(
            "a move changes at most one field for its crossing (or '*' for its connection) "
            f"and one for a meeting, not {len(cells)}",
            rule="R13",
            reason="too-many-fields",
            move=text,
        )
    fields = [parse_field(c) for c in cells if c != "*"]
    if "*" in cells:
        move = Move(origin, target, capture=capture, connection=True, meeting=_first(fields))
        return _check(state, move, text)
    if len(fields) == 2:
        move = Move(origin, target, capture=capture, marker=fields[0], meeting=fields[1])
        swapped = Move(origin, target, capture=capture, marker=fields[1], meeting=fields[0])
        if move not in state.legal_moves() and swapped in state.legal_moves():
            return _check(state, swapped, text)
        return _check(state, move, text)
    if len(fields) == 1:
        if _has_crossing_benefit(state, base):
            return _check(state, Move(origin, target, capture=capture, marker=fields[0]), text)
        return _check(state, Move(origin, target, capture=capture, meeting=fields[0]), text)
    return _check(state, base, text)


def _first(fields: list[int]) -> int | None:
    return fields[0] if fields else None


def _has_crossing_benefit(state: ChevronState, base: Move) -> bool:
    """Whether the step ``base`` has a crossing field to choose {R4, R6, R10}."""
    family = state.legal_moves().family_of(base)
    return isinstance(family, StepFamily) and any(o[2] >= 0 for o in family.options)


def _parse_reorientation(state: ChevronState, m: re.Match[str], text: str) -> Move:
    origin, turn_text, rest = m.groups()
    if set(turn_text) == {"<", ">"}:
        raise NotationError(f"{text!r}: a turn is '<', '<<', '>' or '>>'", text)
    if len(turn_text) > 2:
        raise IllegalMoveError(
            f"a reorientation turns 45 or 90 degrees, not {45 * len(turn_text)} (R14)",
            rule="D25",
            reason="over-orient",
            move=text,
        )
    cells = _cells(rest, text) or []
    if "*" in cells:
        raise NotationError(f"{text!r}: a reorientation lists fields, not '*'", text)
    turn = len(turn_text) * (1 if turn_text[0] == ">" else -1)
    move = Move(parse_field(origin), None, turn=turn, relinquished=[parse_field(c) for c in cells])
    return _check(state, move, text)


def _parse_azacru(state: ChevronState, s: str, text: str) -> Move:
    suffix = s[-1] if s and s[-1] in _SUFFIX_TWIST else ""
    origin, target, capture, rest = _base(s[: len(s) - len(suffix)], text)
    if rest:
        raise NotationError(f"{text!r}: Azacru moves have no '(...)' choices", text)
    twist = _SUFFIX_TWIST.get(suffix, 0)
    move = Move(origin, target, capture=capture, twist=twist)
    family = state.legal_moves().family_of(move)
    twists = isinstance(family, StepFamily) and len(family.options) > 1
    if suffix and not twists and state.outcome is None and family is not None:
        # The error of a twisted move names why no twist is offered (D3, D5).
        raise diagnose(state, Move(origin, target, twist=1), text)
    if twists and not suffix and state.outcome is None:
        raise IllegalMoveError(
            "a move that crosses a border is written with '^' (no twist), '<' or '>'",
            rule="A-R6",
            reason="twist-required",
            move=text,
        )
    return _check(state, move, text)


def format_move(state: ChevronState, move: Move | str) -> str:
    """The AbstractPlay text of the legal ``move`` (ours, or its text) in ``state``.

    The inverse of :func:`parse_move`: ``parse_move(state, format_move(state,
    m)) == m`` for every legal move. Relinquished fields are written in
    ascending field order (a1, b1, ..., i9).

    Raises:
        NotationError: unparseable move text.
        IllegalMoveError: the move is not legal in ``state``.
        ValueError: ``state`` is not Pacru or Azacru.
    """
    game = _check_game(state.game)
    if isinstance(move, str):
        move = Move.parse(move)
    _check(state, move, str(move))
    names = FIELD_NAMES
    if move.origin is None:
        return "pass"
    if move.target is None:
        turn = (">" if move.turn > 0 else "<") * abs(move.turn)
        return f"{names[move.origin]}{turn}({','.join(names[f] for f in move.relinquished)})"
    text = names[move.origin] + ("x" if move.capture else "-") + names[move.target]
    if game == "azacru":
        family = state.legal_moves().family_of(move)
        if isinstance(family, StepFamily) and len(family.options) > 1:
            text += _TWIST_SUFFIX[move.twist]
        return text
    cells = ["*"] if move.connection else []
    if move.marker is not None:
        cells.append(names[move.marker])
    if move.meeting is not None:
        cells.append(names[move.meeting])
    return text + (f"({','.join(cells)})" if cells else "")


def replay(
    game: str, players: int, moves: Iterable[str], *, legacy_2p: bool = False
) -> ChevronState:
    """The state after playing an AbstractPlay record from AP's start (:func:`new_game`).

    A Pacru ``pass`` is accepted only where AP records one by itself: at the
    turn of a seat that is out (no chevrons, or blocked and eliminated; R15,
    D27, D28), also right after the elimination that ended the game. Records
    that leave those passes out replay as well.

    Raises:
        ReplayError: on the first move that cannot be played; it names the
            1-based ply and the move text, and wraps the NotationError,
            IllegalMoveError or GameOverError.
        ValueError: another game or player count, as :func:`new_game`.
    """
    state = new_game(game, players, legacy_2p=legacy_2p)
    n = len(state.players)
    ap_turn = 0  # the seat AP expects to move next
    for ply, text in enumerate(moves, 1):
        try:
            if state.rules.pacru and _normalise(text) == "pass":
                if not state.out >> ap_turn & 1:
                    raise IllegalMoveError(
                        "Pacru has no passing; AP writes 'pass' only for a seat that is out",
                        rule="R2",
                        reason="pass-not-allowed",
                        move=text,
                    )
                ap_turn = (ap_turn + 1) % n
                continue
            move = parse_move(state, text)
        except PacruError as err:
            raise ReplayError(ply, text, err) from err
        ap_turn = (state.to_move + 1) % n
        state = state.apply_move(move)
    return state


def final_position(state: ChevronState) -> dict[str, Any]:
    """The position in the shape of an AP record's ``"final"`` section.

    Returns ``{"to_move": n, "markers": {"1": [field, ...], ...}, "chevrons":
    [[field, n, facing], ...]}`` with AP player numbers (``players`` index + 1),
    fields as names, lists sorted by field name, and players without markers
    left out of ``"markers"``.
    """
    markers = {
        str(i + 1): sorted(FIELD_NAMES[f] for f in bits(m))
        for i, m in enumerate(state.markers)
        if m
    }
    chevrons: list[list[Any]] = sorted(
        (
            [FIELD_NAMES[code >> 3], i + 1, Direction(code & 7).name]
            for i, codes in enumerate(state.chevrons)
            for code in codes
        ),
        key=lambda c: str(c[0]),
    )
    return {"to_move": state.to_move + 1, "markers": markers, "chevrons": chevrons}


def compare_final(state: ChevronState, final: Mapping[str, Any]) -> list[str]:
    """The differences between ``state`` and an AP record's ``"final"`` section.

    An empty list means the markers (by AP player number), the chevrons
    (field, player number, facing) and the player to move all agree; the
    order of the lists in ``final`` does not matter.

    Raises:
        ValueError: ``final`` is not in the shape :func:`final_position`
            returns (``"markers"`` a mapping of player number to a list of
            field names, ``"chevrons"`` a list of ``[field, player, facing]``).
    """
    if not isinstance(final, Mapping):
        raise ValueError("'final' must be a JSON object")
    ours = final_position(state)
    diffs: list[str] = []
    if ours["to_move"] != final.get("to_move"):
        diffs.append(f"to_move: ours {ours['to_move']}, record {final.get('to_move')}")
    theirs_markers = _markers(final.get("markers", {}))
    for player in sorted(set(ours["markers"]) | set(theirs_markers)):
        a = set(ours["markers"].get(player, []))
        b = set(theirs_markers.get(player, []))
        if a != b:
            diffs.append(
                f"markers of player {player}: only ours {sorted(a - b)}, "
                f"only the record's {sorted(b - a)}"
            )
    theirs_chevrons = sorted(_chevrons(final.get("chevrons", [])), key=lambda c: str(c[0]))
    if ours["chevrons"] != theirs_chevrons:
        diffs.append(f"chevrons: ours {ours['chevrons']}, record {theirs_chevrons}")
    return diffs


def _markers(value: object) -> dict[str, list[str]]:
    if not isinstance(value, Mapping) or not all(
        isinstance(v, list | tuple) and all(isinstance(f, str) for f in v) for v in value.values()
    ):
        raise ValueError("'markers' must map a player number to a list of field names")
    return {str(k): sorted(v) for k, v in value.items() if v}


def _chevrons(value: object) -> list[list[Any]]:
    # Each entry is checked, so a short or odd entry is a ValueError, not an IndexError.
    if not isinstance(value, list | tuple) or not all(
        isinstance(c, list | tuple)
        and len(c) == 3
        and isinstance(c[0], str)
        and isinstance(c[2], str)
        and isinstance(c[1], int)
        and not isinstance(c[1], bool)
        for c in value
    ):
        raise ValueError("'chevrons' must be a list of [field, player, facing]")
    return [list(c) for c in value]
