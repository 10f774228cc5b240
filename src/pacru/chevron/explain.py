"""Explanations of chevron-game moves: the rule that forbids one, or what a legal one does.

:meth:`pacru.GameState.explain` of a chevron-game state answers with :func:`explain_chevron` (see
:mod:`pacru.explanation` for the :class:`~pacru.Explanation` it returns).
This module reads the state and imports no state class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from pacru.chevron.legality import diagnose
from pacru.chevron.move import Move
from pacru.errors import InvalidPositionError, NotationError
from pacru.explanation import Explanation, limited
from pacru.geometry import (
    BETWEEN,
    BORDERLAND,
    BORDERLAND_NAMES,
    FIELD_NAMES,
    LINE,
    Direction,
    parse_field,
)

if TYPE_CHECKING:
    from pacru.chevron.state import ChevronState

__all__ = ["explain_chevron"]

_MOVE_RULE: Final = {"lilacru": "L4", "shacru": "S-R3", "azacru": "A-R5", "pacru": "R3"}
_PASS_RULE: Final = {"lilacru": "L3", "shacru": "S-R2", "azacru": "A-R10"}
_MARK_RULE: Final = {"lilacru": "L5", "shacru": "S-R3", "azacru": "A-R3"}
_TWIST_RULE: Final = {"shacru": "S-R4", "azacru": "A-R6"}


def _chevron_alternatives(state: ChevronState, move: Move | None) -> tuple[tuple[str, ...], str]:
    legal = state.legal_moves()
    if legal.is_pass:
        return ("pass",), "instead"
    origin = move.origin if move is not None else None
    chevron = state.chevron_at(origin) if origin is not None else None
    if origin is None or chevron is None or chevron.owner != state.current_player:
        return limited([str(m) for fam in legal.steps for m in fam]), f"of {state.current_player}"
    same: list[str] = []
    other: list[str] = []
    for fam in legal.steps:
        if fam.origin == origin:
            bucket = same if move is not None and fam.target == move.target else other
            bucket.extend(str(m) for m in fam)
    turns = [fam for fam in legal.reorientations if fam.origin == origin]
    if sum(f.size for f in turns) <= 12:
        other.extend(str(m) for fam in turns for m in fam)
    return limited(same + other), f"of the chevron on {FIELD_NAMES[origin]}"


def explain_chevron(state: ChevronState, text: str) -> Explanation:
    """Why ``text`` is or is not legal in ``state``, a game that goes on (never raises)."""
    try:
        move = Move.parse(text)
    except NotationError as err:
        alternatives, subject = _chevron_alternatives(state, _origin_only(text))
        return Explanation(text, False, "notation", "not-a-move", str(err), alternatives, subject)
    if move in state.legal_moves():
        try:
            rule, message = _describe(state, move)
        except InvalidPositionError as err:  # a counter at its end (COUNTER_MAX)
            return Explanation(text, True, "counters", "legal", f"legal, but not playable: {err}")
        return Explanation(text, True, rule, "legal", message)
    error = diagnose(state, move, text)
    alternatives, subject = _chevron_alternatives(state, move)
    return Explanation(text, False, error.rule, error.reason, error.detail, alternatives, subject)


def _origin_only(text: str) -> Move | None:
    """A stand-in move from the field a bad text starts with, to list that chevron's moves."""
    try:
        origin = parse_field(text.strip()[:2])
    except (NotationError, ValueError):
        return None
    return Move(origin, None, turn=1)


def _fields(fields: list[int]) -> str:
    names = [FIELD_NAMES[f] for f in sorted(fields)]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _describe(state: ChevronState, move: Move) -> tuple[str, str]:
    """The rule and the sentences describing what legal ``move`` does."""
    after = state.apply_move(move)
    game, rules = state.game, state.rules
    me = state.players[state.to_move]
    sentences: list[str] = []
    if move.origin is None:
        rule = _PASS_RULE.get(game, "R2")
        sentences.append(f"{me} passes: no chevron of {me} can move")
        if rules.azacru and state.trigger < 0:
            sentences.append(
                "this first pass triggers the end: each other player moves once more (A-R10)"
            )
    elif move.target is None:
        rule = "R14"
        chevron = state.chevron_at(move.origin)
        assert chevron is not None
        new = chevron.facing.turned(move.turn)
        way = "clockwise" if move.turn > 0 else "anticlockwise"
        sentences.append(
            f"the chevron on {FIELD_NAMES[move.origin]} turns {45 * abs(move.turn)} degrees "
            f"{way} from {chevron.facing.name} to {new.name}, giving up "
            f"{_fields(list(move.relinquished))} (they become neutral)"
        )
    else:
        rule = "R11" if move.capture else _MOVE_RULE[game]
        sentences.extend(_step_sentences(state, after, move, me))
    sentences.extend(_colour_sentences(state, after, move, me))
    sentences.extend(_ending_sentences(state, after))
    return rule, "; ".join(sentences) + "."


def _step_sentences(state: ChevronState, after: ChevronState, move: Move, me: str) -> list[str]:
    origin, target = move.origin, move.target
    assert origin is not None
    assert target is not None
    d, k = LINE[origin * 81 + target]
    src, dst = FIELD_NAMES[origin], FIELD_NAMES[target]
    out = []
    if move.capture:
        victim = state.chevron_at(target)
        assert victim is not None
        out.append(f"pincer: the chevron on {src} takes {victim.owner}'s chevron on {dst} (R11)")
    else:
        fields = "field" if k == 1 else "fields"
        out.append(f"the chevron on {src} moves {k} {fields} {Direction(d).name} to {dst}")
    jumped = [
        f for f in range(81) if BETWEEN[origin * 81 + target] >> f & 1 and state.occupied >> f & 1
    ]
    if jumped:
        out.append(
            f"a connection jump over {_fields(jumped)} ({'A-R8' if state.rules.azacru else 'R9'})"
        )
    if BORDERLAND[origin] != BORDERLAND[target]:  # a border crossing (G6)
        out.append(
            f"it crosses from the {BORDERLAND_NAMES[BORDERLAND[origin]]} borderland into "
            f"{BORDERLAND_NAMES[BORDERLAND[target]]}"
        )
    moved = after.chevron_at(target)
    if moved is None or moved.owner != me:
        out.append(
            "the chevron is taken off the board: its connection changed another "
            "player's field (A-R7)"
        )
    elif move.twist:
        way = "clockwise" if move.twist > 0 else "anticlockwise"
        out.append(
            f"it twists 45 degrees {way} to face {moved.facing.name} "
            f"({_TWIST_RULE.get(state.game, 'S-R4')})"
        )
    else:
        out.append(f"it faces {moved.facing.name}")
    return out


def _colour_sentences(state: ChevronState, after: ChevronState, move: Move, me: str) -> list[str]:
    before_map, after_map = state.marker_map(), after.marker_map()
    changed = {
        name: before_map.get(name)
        for name in set(before_map) | set(after_map)
        if before_map.get(name) != after_map.get(name)
    }
    if not changed:
        return []
    index = {name: FIELD_NAMES.index(name) for name in changed}
    gained = {index[n] for n, old in changed.items() if after_map.get(n) == me}
    lost = sorted(index[n] for n in changed if after_map.get(n) is None)
    origin, target = move.origin, move.target
    groups: list[tuple[str, list[int]]] = []

    def take(label: str, fields: set[int] | list[int]) -> None:
        chosen = sorted(f for f in fields if f in gained)
        if chosen:
            gained.difference_update(chosen)
            groups.append((label, chosen))

    rules = state.rules
    if move.capture and target is not None:
        take("pincer (R11)", [target])
    if move.connection or (rules.azacru and origin is not None and target is not None):
        between = BETWEEN[origin * 81 + target] if origin is not None and target is not None else 0
        take(
            "connection change (" + ("A-R7" if rules.azacru else "R8") + ")",
            [f for f in range(81) if between >> f & 1],
        )
    if move.marker is not None:
        old = changed.get(FIELD_NAMES[move.marker])
        label = "borderland transformation (R10)" if old else "borderland change (R4, R6)"
        take(label, [move.marker])
    if move.meeting is not None:
        take("meeting (R12)", [move.meeting])
    if rules.marks_arrival and target is not None:
        take(f"arrival ({_MARK_RULE.get(state.game, 'S-R3')})", [target])
    if gained:  # pragma: no cover - every gain has a rule above
        groups.append(("", sorted(gained)))
    out = []
    for label, fields in groups:
        olds = sorted({changed[FIELD_NAMES[f]] or "neutral" for f in fields})
        verb = "becomes" if len(fields) == 1 else "become"
        was = f" (was {', '.join(olds)})" if olds != ["neutral"] else ""
        out.append(f"{label}: {_fields(fields)} {verb} {me}{was}".lstrip(": "))
    if lost and move.target is not None:  # pragma: no cover - only reorientations neutralise
        out.append(f"{_fields(lost)} become neutral")
    return out


def _ending_sentences(state: ChevronState, after: ChevronState) -> list[str]:
    out = []
    if state.rules.pacru:
        newly = [p for p in after.eliminated if p not in state.eliminated]
        if newly:
            out.append(f"{', '.join(newly)} {'is' if len(newly) == 1 else 'are'} out (R15)")
    if after.outcome is not None:
        out.append(f"the game ends: {after.outcome.result()} ({after.outcome.termination.value})")
    return out
