"""Why a move is illegal: the rule that forbids it.

:func:`diagnose` is called only for a move that is not among the legal moves.
It walks the rules in the order a player would and returns an
:class:`~pacru.errors.IllegalMoveError` naming the first rule broken (its ID,
e.g. ``"S-R5"``, or a ruling such as ``"D25"``), a stable ``reason`` code and
a sentence with the fields involved. Reason codes:

``game-over``, ``pass-not-allowed``, ``must-pass``, ``no-chevron``,
``not-your-chevron``, ``no-reorientation``, ``too-few-fields``,
``wrong-payment``, ``relinquish-not-own``, ``relinquish-occupied``,
``no-movable-chevron``, ``not-straight``,
``not-forward``, ``beyond-power``, ``no-pincer``, ``no-victim``,
``single-attacker``, ``occupied``, ``jump-not-connection``,
``opponent-field``, ``no-twist``, ``twist-without-crossing``,
``twist-removed``, ``twist-after-trigger``, ``pacru-only``,
``not-connection``, ``connection-required``, ``connection-and-crossing``,
``marker-without-crossing``, ``marker-required``, ``bad-marker-field``,
``no-meeting``, ``meeting-required``, ``bad-meeting-field``,
``supply-exhausted``, ``illegal``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Protocol

from pacru.chevron.move import Move
from pacru.chevron.movegen import (
    after_capture,
    benefit_fields,
    crossing_options,
    power_of_movement,
)
from pacru.chevron.movelist import StepFamily
from pacru.chevron.rules import SUPPLY
from pacru.errors import IllegalMoveError
from pacru.geometry import (
    BETWEEN,
    BORDERLAND,
    BORDERLAND_NAMES,
    FIELD_NAMES,
    FORWARD,
    LINE,
    Direction,
    bits,
)

if TYPE_CHECKING:
    from pacru.chevron.state import Chevron, ChevronState

__all__ = ["diagnose"]

# Rule IDs per game for the rules every game has in its own words.
_PASS: Final = {"lilacru": "L3", "shacru": "S-R2", "azacru": "A-R10", "pacru": "R2"}
_MOVE: Final = {"lilacru": "L4", "shacru": "S-R3", "azacru": "A-R5", "pacru": "R3"}
_FORBID: Final = {"lilacru": "L6", "shacru": "S-R5", "azacru": "A-R9", "pacru": "R7"}
_POWER: Final = {"lilacru": "L4", "shacru": "S-R3", "azacru": "A-R4", "pacru": "R5"}
_TWIST: Final = {"lilacru": "L4", "shacru": "S-R4", "azacru": "A-R6", "pacru": "R3"}


def _names(mask_or_fields: int | list[int]) -> str:
    fields = bits(mask_or_fields) if isinstance(mask_or_fields, int) else mask_or_fields
    return ", ".join(FIELD_NAMES[f] for f in fields) or "none"


def diagnose(state: ChevronState, move: Move, text: str) -> IllegalMoveError:
    """The error explaining why ``move`` (not legal in ``state``) is illegal."""
    game = state.game

    def err(rule: str, reason: str, message: str) -> IllegalMoveError:
        return IllegalMoveError(message, rule=rule, reason=reason, move=text)

    legal = state.legal_moves()
    me = state.players[state.to_move]
    if move.origin is None:
        if state.rules.pacru:
            return err("R2", "pass-not-allowed", "Pacru has no passing; move or reorient")
        return err(
            _PASS[game],
            "pass-not-allowed",
            f"{me} may pass only when none of their chevrons can move (D34, D37)",
        )
    if legal.is_pass:
        return err(_PASS[game], "must-pass", f"no chevron of {me} can move; {me} must pass")
    origin = move.origin
    chevron = state.chevron_at(origin)
    name = FIELD_NAMES[origin]
    if chevron is None:
        return err(_MOVE[game], "no-chevron", f"there is no chevron on {name}")
    if chevron.owner != me:
        return err(
            _MOVE[game],
            "not-your-chevron",
            f"the chevron on {name} belongs to {chevron.owner}, and {me} is to move",
        )
    if move.target is None:
        return _reorientation(state, move, err)
    return _step(state, move, err)


def _reorientation(state: ChevronState, move: Move, err: _Err) -> IllegalMoveError:
    if not state.rules.pacru:
        return err(
            _MOVE[state.game],
            "no-reorientation",
            f"{state.game} has no reorientation; only Pacru does (R14)",
        )
    cost = 2 * abs(move.turn)
    seat = state.to_move
    me = state.players[seat]
    if not state.legal_moves().steps:
        return err(
            "R14",
            "no-movable-chevron",
            f"{me} may reorient only if one of their chevrons can move this turn, and none "
            "can (D26)",
        )
    free = (state.markers[seat] & ~state.occupied).bit_count()
    if free < cost:
        return err(
            "D25",
            "too-few-fields",
            f"{me} has {free} unoccupied field{'' if free == 1 else 's'} of their own, and a "
            f"{45 * abs(move.turn)}-degree turn gives up {cost} (R14)",
        )
    if len(move.relinquished) != cost:
        return err(
            "R14",
            "wrong-payment",
            f"a {45 * abs(move.turn)}-degree turn costs exactly {cost} of your fields, "
            f"not {len(move.relinquished)} (D25)",
        )
    for f in move.relinquished:
        if not state.markers[seat] >> f & 1:
            return err("D25", "relinquish-not-own", f"{FIELD_NAMES[f]} is not a field of yours")
        if state.occupied >> f & 1:
            return err(
                "D25",
                "relinquish-occupied",
                f"{FIELD_NAMES[f]} has a chevron on it; only unoccupied fields can be "
                "given up (R7)",
            )
    return err("R14", "illegal", "this reorientation is not legal here")


class _Err(Protocol):
    def __call__(self, rule: str, reason: str, message: str) -> IllegalMoveError: ...


def _step(state: ChevronState, move: Move, err: _Err) -> IllegalMoveError:
    game, rules, seat = state.game, state.rules, state.to_move
    origin, target = move.origin, move.target
    assert origin is not None
    assert target is not None
    src, dst = FIELD_NAMES[origin], FIELD_NAMES[target]
    line = LINE.get(origin * 81 + target)
    if line is None:
        return err(_MOVE[game], "not-straight", f"{src} to {dst} is not a straight line")
    d, k = line
    chevron = state.chevron_at(origin)
    assert chevron is not None
    facing = chevron.facing
    if d not in FORWARD[facing]:
        allowed = ", ".join(Direction(x).name for x in FORWARD[facing])
        return err(
            "A-R3" if game == "azacru" and k == 1 else _MOVE[game],
            "not-forward",
            f"the chevron on {src} faces {facing.name} and moves only {allowed}, "
            f"not {Direction(d).name}",
        )
    own = state.markers[seat]
    pom = power_of_movement(rules, own, origin)
    if k > pom:
        if not rules.power:
            return err(
                _POWER[game], "beyond-power", f"a chevron moves one field; {src} to {dst} is {k}"
            )
        land = BORDERLAND_NAMES[BORDERLAND[origin]]
        return err(
            _POWER[game],
            "beyond-power",
            f"the power of movement on {src} is {pom} (own fields in the {land} "
            f"borderland), so it cannot move {k} fields (D39)",
        )
    between = BETWEEN[origin * 81 + target] & state.occupied
    occupant = state.chevron_at(target)
    if move.capture:
        if state.legal_moves().family_of(move) is not None:
            # A legal pincer with bad choices: explain the choices {R13, D20}.
            return _choices(state, move, err)
        return _pincer(state, move, err, occupant, between)
    if occupant is not None:
        hint = (
            f"; take it with a pincer ({src}x{dst}) if two of your chevrons attack it"
            if rules.pacru and occupant.owner != state.players[seat]
            else ""
        )
        return err(_FORBID[game], "occupied", f"{dst} holds {occupant.owner}'s chevron{hint}")
    if between and not (rules.power and own >> origin & 1 and own >> target & 1):
        return err(
            _FORBID[game],
            "jump-not-connection",
            f"may not jump over the chevron on {_names(between)} unless the move is a "
            f"connection jump (from and to own fields; {'A-R8' if rules.azacru else 'R9'})",
        )
    marker = state.marker_at(target)
    if marker is not None and marker != state.players[seat]:
        return err(_FORBID[game], "opponent-field", f"{dst} belongs to {marker}")
    return _choices(state, move, err)


def _pincer(
    state: ChevronState, move: Move, err: _Err, occupant: Chevron | None, between: int
) -> IllegalMoveError:
    dst = FIELD_NAMES[move.target or 0]
    if not state.rules.pacru:
        return err(_MOVE[state.game], "no-pincer", f"{state.game} has no pincer; only Pacru (R11)")
    if occupant is None or occupant.owner == state.players[state.to_move]:
        return err("R11", "no-victim", f"{dst} holds no opposing chevron to take")
    if between:
        return err(
            "D18",
            "no-victim",
            f"the chevron on {_names(between)} stands between; there is no attack through a jump",
        )
    return err(
        "R11",
        "single-attacker",
        f"a pincer needs two or more of your chevrons attacking "
        f"{dst} at the start of your turn (R11, D18, D19)",
    )


def _choices(state: ChevronState, move: Move, err: _Err) -> IllegalMoveError:
    rules, game = state.rules, state.game
    family = state.legal_moves().family_of(move)
    if not isinstance(family, StepFamily):
        return err(_MOVE[game], "illegal", f"{move} is not a legal move here")
    crossing = BORDERLAND[move.origin or 0] != BORDERLAND[move.target or 0]
    if move.twist:
        if not rules.twist:
            return err(_TWIST[game], "no-twist", f"{game} has no borderland twist")
        if not crossing:
            return err(
                _TWIST[game],
                "twist-without-crossing",
                "the twist is allowed only after crossing a border (D3)",
            )
        if state.trigger >= 0:
            return err(
                "D5",
                "twist-after-trigger",
                "once the Azacru end is triggered no twist is offered (D5)",
            )
        return err(
            "D5",
            "twist-removed",
            "the chevron is removed by its own connection change, "
            "so there is nothing to twist (A-R7, D5)",
        )
    if not rules.pacru:
        if move.connection or move.marker is not None or move.meeting is not None:
            return err(_MOVE[game], "pacru-only", "'*', '+field' and '@field' are Pacru choices")
        return err(_MOVE[game], "illegal", f"{move} is not a legal move here")
    options = family.options
    # D29 first: once the supply is empty the move ends, so no other rule is the reason.
    exhausted = _exhausted_by_pincer(state, move)
    if exhausted and (move.connection or move.marker is not None or move.meeting is not None):
        return err("D29", "supply-exhausted", exhausted)
    conn_ok = any(o[1] for o in options)
    fields = [o[2] for o in options if o[2] >= 0]
    if move.connection and move.marker is not None:
        return err(
            "R8",
            "connection-and-crossing",
            "a connection that crosses a border takes "
            "either the connection change or the crossing benefit, not both (D13)",
        )
    if move.connection and not conn_ok:
        return err(
            "R8",
            "not-connection",
            "not a connection change: that needs a move of 2 or "
            "more fields from an own field to an own field with no chevron jumped (D9)",
        )
    if move.marker is not None and not fields:
        why = (
            "does not cross a border"
            if not crossing
            else "gets no crossing benefit: every neutral field there holds a chevron (D14)"
        )
        return err("R4", "marker-without-crossing", f"this move {why}")
    if move.marker is not None and move.marker not in fields:
        return err(
            "R10" if _is_transformation(state, move) else "R6",
            "bad-marker-field",
            f"the crossing marker may go on {_names(sorted(fields))}, not "
            f"{FIELD_NAMES[move.marker]} (D15, D16)",
        )
    if not move.connection and move.marker is None and (conn_ok or fields):
        if conn_ok and not fields:
            return err(
                "R8", "connection-required", "this connection change is compulsory: write '*' (D10)"
            )
        choice = "'*' for the connection change or " if conn_ok else ""
        return err(
            "R4",
            "marker-required",
            f"the border crossing must place a marker: choose "
            f"{choice}'+field' with a field among {_names(sorted(fields))} (R6, D15)",
        )
    chosen = next(
        (
            o
            for o in options
            if o[1] == move.connection and o[2] == (-1 if move.marker is None else move.marker)
        ),
        None,
    )
    if chosen is None:
        return err(_MOVE[game], "illegal", f"{move} is not a legal move here")
    meet = chosen[3]
    if move.meeting is not None and not meet and _exhausted_by_benefit(state, move):
        return err(
            "D29",
            "supply-exhausted",
            f"the {'connection change' if move.connection else 'crossing marker'} places the "
            f"last marker of the supply, which wins at once (R16b): no meeting follows (D29)",
        )
    if move.meeting is not None and not meet:
        return err(
            "R12",
            "no-meeting",
            "this move makes no meeting benefit: that needs two of "
            "your chevrons on your fields, adjacent and facing each other (D21)"
            + (
                ", and an opponent with at least 9 markers (D22)"
                if rules.meeting_rule == "2011"
                else ""
            ),
        )
    if move.meeting is None and meet:
        return err(
            "D23",
            "meeting-required",
            "this move makes a meeting: choose '@field', an "
            "unoccupied field that is not yours (R12)",
        )
    if move.meeting is not None:
        return err(
            "D23",
            "bad-meeting-field",
            f"the meeting may change only an unoccupied field "
            f"that is not yours, not {FIELD_NAMES[move.meeting]}",
        )
    return err(_MOVE[game], "illegal", f"{move} is not a legal move here")


def _supply_after_capture(state: ChevronState, move: Move) -> tuple[int, int]:
    """(markers left in the mover's supply after a pincer's marker, own bitboard then) {D29}."""
    seat, origin, target = state.to_move, move.origin or 0, move.target or 0
    _, own, _, _ = after_capture(state.markers, seat, state.occupied, origin, target, move.capture)
    return SUPPLY[len(state.players)] - own.bit_count(), own


def _exhausted_by_pincer(state: ChevronState, move: Move) -> str:
    """Why no choice follows a pincer that places the last marker, or "" {R11, R16b, D29}."""
    if not move.capture:
        return ""
    left, _ = _supply_after_capture(state, move)
    if left > 0:
        return ""
    return (
        "the pincer places the last marker of the supply, which wins at once (R16b): "
        "no '*', '+field' or '@field' follows (D29)"
    )


def _exhausted_by_benefit(state: ChevronState, move: Move) -> bool:
    """Whether the chosen connection change or crossing marker empties the supply {D29}."""
    left, own = _supply_after_capture(state, move)
    field = -1 if move.marker is None else move.marker
    changed = benefit_fields(own, move.origin or 0, move.target or 0, move.connection, field)
    return left - changed.bit_count() <= 0


def _is_transformation(state: ChevronState, move: Move) -> bool:
    """Whether the crossing benefit is a transformation {R10}, judged after a capture (D17)."""
    origin, target = move.origin or 0, move.target or 0
    _, own, marked, occupied = after_capture(
        state.markers, state.to_move, state.occupied, origin, target, move.capture
    )
    return crossing_options(BORDERLAND[target], marked, own, occupied, target)[1]
