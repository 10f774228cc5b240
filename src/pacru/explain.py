"""Why a move is or is not legal: rule, ruling and the legal alternatives.

=================  ==========================================================
entry point        :func:`explain` (also ``ChevronState.explain(text)``)
answer             :class:`Explanation`: ``legal``, ``rule``, ``reason``,
                   ``message``, ``alternatives``; ``str()`` reads as prose
illegal moves      the rule and reason code of the
                   :class:`~pacru.errors.IllegalMoveError` the state raises
                   (:func:`pacru.chevron.legality.diagnose`; LSD's own
                   checks), and the legal moves of the same chevron (LSD:
                   the same cell, else the same tile)
legal moves        what the move does: the chevron's path and facing, the
                   fields that change colour and by which rule, chevrons
                   taken or removed, players out, the end of the game
=================  ==========================================================

>>> import pacru
>>> state = pacru.new_game("shacru")
>>> print(state.explain("e1-e3"))
e1-e3: illegal (S-R3, beyond-power): a chevron moves one field; e1 to e3 is 2
  legal moves of the chevron on e1: e1-d2, e1-e2, e1-f2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import attrs

from pacru.errors import IllegalMoveError, NotationError
from pacru.geometry import BETWEEN, BORDERLAND, BORDERLAND_NAMES, FIELD_NAMES, LINE, Direction

if TYPE_CHECKING:
    from pacru.base import GameState
    from pacru.chevron.move import Move
    from pacru.chevron.state import ChevronState

__all__ = ["MAX_ALTERNATIVES", "Explanation", "explain"]

#: Most alternatives an :class:`Explanation` lists (in ``legal_moves()`` order).
MAX_ALTERNATIVES: Final = 60
_MOVE_RULE: Final = {"lilacru": "L4", "shacru": "S-R3", "azacru": "A-R5", "pacru": "R3"}
_PASS_RULE: Final = {"lilacru": "L3", "shacru": "S-R2", "azacru": "A-R10"}
_MARK_RULE: Final = {"lilacru": "L5", "shacru": "S-R3", "azacru": "A-R3"}
_TWIST_RULE: Final = {"shacru": "S-R4", "azacru": "A-R6"}


@attrs.frozen
class Explanation:
    """The answer of :func:`explain`.

    Attributes:
        move: the move text asked about.
        legal: whether the move is legal in the state.
        rule: for an illegal move the rule or ruling that forbids it (e.g.
            ``"R7"``, ``"D25"``, ``"LSD-2.2"``; ``"notation"`` for text that is
            not a move, ``"end"`` once the game is over); for a legal move the
            rule of the action (``"R3"``, ``"R11"``, ``"R14"``, ``"S-R2"``...).
        reason: the machine-readable code of the
            :class:`~pacru.errors.IllegalMoveError` (``"jump-not-connection"``,
            ...); ``"not-a-move"`` for bad text; ``"legal"`` for a legal move.
        message: one or more sentences saying why, or what the move does.
        alternatives: legal moves to consider instead, as text: those of the
            same chevron (same target first), else every step of the player
            to move; at most :data:`MAX_ALTERNATIVES`. Empty for a legal move.
    """

    move: str
    legal: bool
    rule: str
    reason: str
    message: str
    alternatives: tuple[str, ...] = ()
    subject: str = attrs.field(default="", repr=False)

    def __str__(self) -> str:
        if self.legal:
            return f"{self.move}: legal ({self.rule}): {self.message}"
        text = f"{self.move}: illegal ({self.rule}, {self.reason}): {self.message}"
        if self.alternatives:
            text += f"\n  legal moves {self.subject or 'instead'}: " + ", ".join(self.alternatives)
        return text


def explain(state: GameState[Any], move_text: str) -> Explanation:
    """Why ``move_text`` is or is not legal in ``state``, and what it would do.

    Never raises for bad move text: that is an explanation too (rule
    ``"notation"``). Works for the chevron games and LSD.

    Args:
        state: any state (also a finished game: rule ``"end"``).
        move_text: a move in the game's notation (a move object is turned into
            its text).
    """
    text = move_text if isinstance(move_text, str) else str(move_text)
    if state.outcome is not None:
        return Explanation(
            text, False, "end", "game-over", f"the game is over: {state.outcome.result()}"
        )
    if state.game == "lsd":
        return _explain_lsd(state, text)
    return _explain_chevron(state, text)  # type: ignore[arg-type]


# -- chevron games -------------------------------------------------------------------------------


def _limited(moves: list[str]) -> tuple[str, ...]:
    return tuple(moves[:MAX_ALTERNATIVES])


def _chevron_alternatives(state: ChevronState, move: Move | None) -> tuple[tuple[str, ...], str]:
    legal = state.legal_moves()
    if legal.is_pass:
        return ("pass",), "instead"
    origin = move.origin if move is not None else None
    chevron = state.chevron_at(origin) if origin is not None else None
    if origin is None or chevron is None or chevron.owner != state.current_player:
        return _limited([str(m) for fam in legal.steps for m in fam]), f"of {state.current_player}"
    same: list[str] = []
    other: list[str] = []
    for fam in legal.steps:
        if fam.origin == origin:
            bucket = same if move is not None and fam.target == move.target else other
            bucket.extend(str(m) for m in fam)
    turns = [fam for fam in legal.reorientations if fam.origin == origin]
    if sum(f.size for f in turns) <= 12:
        other.extend(str(m) for fam in turns for m in fam)
    return _limited(same + other), f"of the chevron on {FIELD_NAMES[origin]}"


def _explain_chevron(state: ChevronState, text: str) -> Explanation:
    from pacru.chevron.legality import diagnose
    from pacru.chevron.move import Move

    try:
        move = Move.parse(text)
    except NotationError as err:
        alternatives, subject = _chevron_alternatives(state, _origin_only(text))
        return Explanation(text, False, "notation", "not-a-move", str(err), alternatives, subject)
    if move in state.legal_moves():
        rule, message = _describe(state, move)
        return Explanation(text, True, rule, "legal", message)
    error = diagnose(state, move, text)
    alternatives, subject = _chevron_alternatives(state, move)
    return Explanation(text, False, error.rule, error.reason, error.detail, alternatives, subject)


def _origin_only(text: str) -> Move | None:
    """A stand-in move from the field a bad text starts with, to list that chevron's moves."""
    from pacru.chevron.move import Move
    from pacru.geometry import parse_field

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


# -- LSD ------------------------------------------------------------------------------------------


def _explain_lsd(state: Any, text: str) -> Explanation:
    from pacru.lsd.moves import parse_move_text

    try:
        move = state.parse_move(text)
    except IllegalMoveError as err:
        alternatives, subject = _lsd_alternatives(state, text)
        return Explanation(text, False, err.rule, err.reason, err.detail, alternatives, subject)
    except NotationError as err:
        try:
            parse_move_text(text)
        except NotationError:
            return Explanation(text, False, "notation", "not-a-move", str(err))
        alternatives, subject = _lsd_alternatives(state, text)
        return Explanation(text, False, "notation", "ambiguous", str(err), alternatives, subject)
    after = state.apply_move(move)
    me = state.current_player
    x, y = move.cell
    first = not state.field
    parts = [f"{me} places a {move.face} tile at ({x}, {y})"]
    if first:
        parts.append("the first tile starts the field at (0, 0) (LSD 1.4, RULING 20)")
    tile = after.tile_at(move.cell)
    whole = 0
    for side, (dx, dy) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
        other = state.tile_at((x + dx, y + dy))
        if (
            tile is not None
            and other is not None
            and tile.sides[side]
            and other.sides[(side + 2) % 4]
        ):
            whole += 1
    if whole:
        parts.append(f"it makes {whole} whole dot{'s' if whole > 1 else ''} (LSD 2.2)")
    taken = [cell for cell in state.field if after.tile_at(cell) is None]
    if taken:
        cells = ", ".join(f"({cx}, {cy})" for cx, cy in taken)
        parts.append(f"it captures the tile{'s' if len(taken) > 1 else ''} at {cells} (LSD 2.3)")
    if after.outcome is not None:
        parts.append(f"the game ends: {after.outcome.result()} ({after.outcome.termination.value})")
    rule = "LSD-1.4" if first else "LSD-2.2"
    return Explanation(text, True, rule, "legal", "; ".join(parts) + ".")


def _lsd_alternatives(state: Any, text: str) -> tuple[tuple[str, ...], str]:
    from pacru.lsd.moves import parse_move_text

    try:
        shade, shape, mask, x, y = parse_move_text(text)
    except NotationError:
        return (), ""
    legal = state.legal_moves()
    here = [str(m) for m in legal if m.cell == (x, y)]
    if here:
        return _limited(here), f"on ({x}, {y})"
    icon = (shade.letter if shade is not None else "") + shape.value
    # The same tile: same icon and the same number of half dots (any turn).
    same = [
        str(m)
        for m in legal
        if m.shape is shape
        and (shade is None or m.shade is shade)
        and sum(m.sides) == mask.bit_count()
    ]
    if not same:
        return _limited([str(m) for m in legal]), f"of {state.current_player}"
    dots = mask.bit_count()
    return _limited(same), f"with a {icon} tile of {dots} half dot{'' if dots == 1 else 's'}"
