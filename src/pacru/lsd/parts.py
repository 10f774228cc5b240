"""An LSD state's parts as plain values: the checks of a typed-in position, the end
a field shows, the placements of a turn, and the rules in a pickle {LSD 1.5, 2.2, 2.4}.

:class:`~pacru.lsd.LsdState` keeps its field, frontier, supplies and captured
tiles as the integer encodings of :mod:`pacru.lsd.engine`; the helpers here
work on those values and import no state class. Private to :mod:`pacru.lsd`.
"""

from __future__ import annotations

from collections.abc import Callable, Sized
from functools import lru_cache
from itertools import chain
from typing import Any, Final

from pacru._status import Status
from pacru.base import Outcome, Termination
from pacru.errors import InvalidPositionError
from pacru.lsd import engine
from pacru.lsd.moves import _MOVES, LsdMove, _move
from pacru.lsd.rules import LsdRules, rules_from_key
from pacru.lsd.tiles import (
    CELL_STRIDE,
    FACE_BITS,
    MAX_COORD,
    ORIGIN,
    OWNER_SHIFT,
    SIDE_NAMES,
    STEP,
    Shade,
    decode_cell,
    face_text,
    normalize_tile_set,
)

__all__ = ["adjudicated", "checked_parts", "generate", "pickle_key", "rules_of", "status_flags"]

_CELL_MOVES: dict[int, tuple[LsdMove, ...]] = {}
# Keyed without the cell, so it stays small: faces left x constraint x flags.
_FACES: dict[int, tuple[int, ...]] = {}
_CELL_CACHE_LIMIT: Final = 100_000
# Cell codes are below CELL_STRIDE**2, so they fit under this many low bits of a key.
_CELL_BITS: Final = 2 * CELL_STRIDE.bit_length()


def checked_parts(
    rules: LsdRules,
    field: dict[int, int],
    captured: tuple[tuple[int, ...], ...],
    turn: int,
    adjudicate: bool = True,
) -> tuple[dict[int, int], tuple[tuple[int, ...], ...], Outcome | None]:
    """The frontier, supplies and outcome of a state with this field, captured tiles and turn.

    Supplies follow from tile conservation (tile set = supply + field +
    captured); the outcome from the field (2.4). ``turn`` is -1 once over.

    Raises:
        InvalidPositionError: a tile or count the tile set cannot supply,
            captures without a field, two colours with rows, strict
            dot matching broken between neighbours, or a turn that does not
            match the outcome or names a player who cannot place.
    """
    players = len(rules.colours)
    counts = [[0] * len(kinds) for kinds in rules.kinds]
    for cell, code in field.items():
        seat = code >> OWNER_SHIFT
        x, y = decode_cell(cell)
        if seat >= players or abs(x) > MAX_COORD or abs(y) > MAX_COORD:
            raise InvalidPositionError(f"no such seat or cell in tile {code} at {(x, y)}")
        kind = rules.kind_of[seat].get(code & FACE_BITS)
        if kind is None:
            raise InvalidPositionError(
                f"{rules.colours[seat]} has no tile {face_text(code)} in its tile set"
                + ("" if rules.allow_rotation else " (rotation is off, RULING 4)")
            )
        counts[seat][kind] += 1
        if rules.strict_dot_matching:
            for side in (0, 1):
                other = field.get(cell + STEP[side])
                if other is not None and bool(code >> side & 1) != bool(other >> (side + 2) & 1):
                    raise InvalidPositionError(
                        f"tiles at {(x, y)} and its {SIDE_NAMES[side]} neighbour put a "
                        "half dot against an empty side (LSD 2.2, RULING 5)"
                    )
    if not field and any(any(c) for c in captured):
        raise InvalidPositionError("no tile can be captured before the first placement")
    supplies = []
    for seat in range(players):
        supply = []
        for kind, start in enumerate(rules.initial[seat]):
            left = start - counts[seat][kind] - captured[seat][kind]
            if left < 0:
                raise InvalidPositionError(
                    f"more {rules.colours[seat]} {face_text(rules.kinds[seat][kind])} tiles "
                    f"on the field and captured than the {start} of the tile set"
                )
            supply.append(left)
        supplies.append(tuple(supply))
    # Each placement reaches one cell further at most, and the cells next to the
    # last tile must still be encodable: so play never leaves the coordinate range.
    reach = max((max(map(abs, decode_cell(c))) for c in field), default=0)
    left = sum(map(sum, supplies))
    if reach + left >= MAX_COORD:
        raise InvalidPositionError(
            f"a tile lies {reach} cells from (0, 0); with {left} tiles left to place, "
            f"tiles lie within {MAX_COORD - 1 - left} of it"
        )
    frontier: dict[int, int] = {}
    engine.refresh_frontier(
        frontier, field, {c + step for c in field for step in STEP} - field.keys()
    )
    state_supplies = tuple(supplies)
    if not adjudicate:
        # A diagram as typed: a named player moves, whatever the field shows.
        if turn == -1:
            raise InvalidPositionError("an unadjudicated diagram names the player to move")
        return frontier, state_supplies, None
    outcome = adjudicated(rules, field, frontier, state_supplies)
    if outcome is not None and len(outcome.winners) > 1:
        raise InvalidPositionError("more than one colour has a winning row")
    if outcome is not None:
        if turn != -1:
            raise InvalidPositionError(f"the game is over ({outcome.result()}); nobody moves")
    elif turn == -1:
        raise InvalidPositionError("the game is not over; a colour must be to move")
    elif not field and rules.colours[turn] != rules.first_player:
        raise InvalidPositionError(f"{rules.first_player} places the first tile (RULING 20)")
    elif not engine.can_place(rules, turn, field, frontier, state_supplies[turn]):
        raise InvalidPositionError(
            f"{rules.colours[turn]} cannot place and would have been skipped (RULING 19)"
        )
    return frontier, state_supplies, outcome


def adjudicated(
    rules: LsdRules,
    field: dict[int, int],
    frontier: dict[int, int],
    supplies: tuple[tuple[int, ...], ...],
) -> Outcome | None:
    """The end the field shows: a row, or nobody can place {LSD 2.4}."""
    rows = engine.rows_of(field, rules.row_length)
    if rows:
        # More than one winner only in a typed-in diagram; checked_parts refuses it.
        return Outcome(Termination.ROW, tuple(rules.colours[s] for s in sorted(rows)))
    if not any(
        engine.can_place(rules, s, field, frontier, supplies[s]) for s in range(len(rules.colours))
    ):
        return Outcome(Termination.BLOCKED, ())
    return None


def status_flags(
    rules: LsdRules,
    field: dict[int, int],
    frontier: dict[int, int],
    supplies: tuple[tuple[int, ...], ...],
    captured: tuple[tuple[int, ...], ...],
    running: bool,
    legal_moves: Callable[[], Sized],
) -> Status:
    """What about a state with these parts play cannot reach (``LsdState.status``):
    scattered tiles; and while the game runs (``running``), an end not adjudicated, or no
    legal move for the player to move (``legal_moves()`` empty)."""
    flags = Status.VALID
    if engine.scattered_tiles(field, sum(map(sum, captured))):
        flags |= Status.DISCONNECTED_TILES
    if running:
        if adjudicated(rules, field, frontier, supplies):
            flags |= Status.UNADJUDICATED_END
        elif not legal_moves():
            flags |= Status.NO_LEGAL_MOVE
    return flags


def generate(
    rules: LsdRules,
    seat: int,
    supply: tuple[int, ...],
    field: dict[int, int],
    frontier: dict[int, int],
) -> tuple[LsdMove, ...]:
    """The placements of ``seat`` with this supply on this field {LSD 2.2}, in the order of
    :meth:`pacru.lsd.LsdState.legal_moves`."""
    # The moves on one cell depend only on its constraint code, the faces
    # left in the supply and two flags; consecutive states share nearly
    # all frontier cells, so per-cell move tuples are cached across states.
    available = 0
    for face, count in zip(rules.kinds[seat], supply, strict=True):
        if count:
            available |= 1 << face
    prefix = (available << 2 | rules.allow_rotation << 1 | rules.strict_dot_matching) << 8
    cells = sorted(frontier.items()) if field else [(ORIGIN, 0)]
    cache = _CELL_MOVES
    parts = []
    for cell, code in cells:
        key = (prefix | code) << _CELL_BITS | cell
        moves = cache.get(key)
        if moves is None:
            faces = _FACES.get(prefix | code)
            if faces is None:
                faces = tuple(engine.fitting_faces(rules, seat, supply, code))
                _FACES[prefix | code] = faces
            if len(cache) >= _CELL_CACHE_LIMIT:
                cache.clear()
            shared = _MOVES
            moves = cache[key] = tuple(
                # The key of moves._MOVES, looked up inline to skip a call.
                [shared.get(cell << 6 | face) or _move(face, cell) for face in faces]
            )
        parts.append(moves)
    return tuple(chain.from_iterable(parts))


#: Rules -> their options as plain values (see pickle_key); rules objects are shared.
_PICKLE_KEYS: dict[int, tuple[LsdRules, tuple[Any, ...]]] = {}


def pickle_key(rules: LsdRules) -> tuple[Any, ...]:
    """The options of ``rules`` as strings, numbers and flags: the constructor arguments of
    :class:`LsdRules` with shades by value and the tile set as text."""
    entry = _PICKLE_KEYS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_PICKLE_KEYS) >= 256:
            _PICKLE_KEYS.clear()
        key = (
            rules.colours,
            tuple(shade.value for shade in rules.shades),
            ",".join(str(spec) for spec in rules.tile_set),
            rules.allow_rotation,
            rules.strict_dot_matching,
            rules.row_length,
            rules.enforce_shade_alternation,
            rules.first_player,
        )
        entry = _PICKLE_KEYS[id(rules)] = (rules, key)
    return entry[1]


@lru_cache(maxsize=256)
def rules_of(key: tuple[Any, ...]) -> LsdRules:
    colours, shades, tile_set, rotation, *rest = key
    return rules_from_key(
        (
            colours,
            tuple(Shade(value) for value in shades),
            normalize_tile_set(tile_set, allow_rotation=rotation),
            rotation,
            *rest,
        )
    )
