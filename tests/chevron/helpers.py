"""Shared helpers of the chevron-game tests.

``pos`` types a position, ``moves_of`` gives a move list as a set of move
texts (``family`` those of one chevron step), ``land`` the fields of a
borderland, ``supply_of`` a Pacru supply, ``play_random`` plays seeded random
moves, and ``reference_moves`` is an
independent, deliberately naive move generator for Lilacru, Shacru and Azacru
written from the rules reference (G4-G6, L4-L6, S-R3..S-R5, A-R4..A-R9 and
rulings D3-D12, D39), used to cross-check the engine's tables and bitboards.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from typing import Any

import pacru
from pacru import ChevronState, IllegalMoveError, Move
from pacru.base import GameState

__all__ = [
    "DELTAS",
    "borderland",
    "error_of",
    "family",
    "land",
    "moves_of",
    "name",
    "play_random",
    "pos",
    "reference_can_acquire",
    "reference_moves",
    "replay",
    "rotate_move",
    "rotate_position",
    "start",
    "supply_of",
]

#: (dx, dy) per direction N, NE, E, SE, S, SW, W, NW, written out again from G3.
DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
_DIRS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def pos(text: str) -> ChevronState:
    """The chevron-game state typed as a position string."""
    state = pacru.from_position(text)
    assert isinstance(state, ChevronState)
    return state


def start(game: str, players: int = 2, **options: Any) -> ChevronState:
    """``pacru.new_game`` for a chevron game named by a variable, typed as ChevronState."""
    state = pacru.new_game(game, players, **options)
    assert isinstance(state, ChevronState)
    return state


def moves_of(state: ChevronState) -> set[str]:
    """The legal moves of ``state`` as a set of move texts."""
    return {str(m) for m in state.legal_moves()}


def error_of(state: ChevronState, move: str | Move) -> IllegalMoveError:
    """The IllegalMoveError that applying ``move`` raises (fails the test if none)."""
    try:
        state.apply_move(move)
    except IllegalMoveError as err:
        return err
    raise AssertionError(f"{move} was accepted")


def play_random(state: ChevronState, seed: int, max_plies: int = 1000) -> ChevronState:
    """Play seeded uniformly random legal moves until the game ends or ``max_plies``."""
    rng = random.Random(seed)
    for _ in range(max_plies):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        state = state.apply_move(moves[rng.randrange(len(moves))])
    return state


def random_line(state: ChevronState, seed: int, max_plies: int = 1000) -> pacru.Game[Move]:
    """The moves :func:`play_random` plays, as a :class:`pacru.Game` from ``state``."""
    rng = random.Random(seed)
    line = pacru.Game(state)
    for _ in range(max_plies):
        if line.state.is_terminal:
            break
        moves = line.state.legal_moves()
        line.push(moves[rng.randrange(len(moves))])
    return line


def replay(start: ChevronState, moves: Iterable[Move]) -> ChevronState:
    """``start`` with ``moves`` applied in order."""
    for m in moves:
        start = start.apply_move(m)
    return start


def name(x: int, y: int) -> str:
    """The field name of file ``x`` and rank ``y``, both 1..9 (G1)."""
    return "abcdefghi"[x - 1] + str(y)


def borderland(x: int, y: int) -> tuple[int, int]:
    """The borderland of file ``x``, rank ``y`` as in G2: ``((x-1)//3, (y-1)//3)``."""
    return ((x - 1) // 3, (y - 1) // 3)


def land(centre: str) -> list[str]:
    """The nine fields of the borderland named by its centre field (G2)."""
    x, y = "abcdefghi".index(centre[0]), int(centre[1])
    return [f"{'abcdefghi'[x + dx]}{y + dy}" for dy in (-1, 0, 1) for dx in (-1, 0, 1)]


def family(state: ChevronState, prefix: str) -> set[str]:
    """The legal moves whose text starts with ``prefix`` (one chevron step and its choices)."""
    return {str(m) for m in state.legal_moves() if str(m).startswith(prefix)}


def supply_of(state: GameState[Any]) -> Mapping[str, int]:
    """The Pacru supply, which is never None in Pacru (D29)."""
    supply: Mapping[str, int] | None = state.supply
    assert supply is not None
    return supply


def reference_moves(state: ChevronState, player: str | None = None) -> set[str]:
    """The legal moves of a Lilacru/Shacru/Azacru state, computed naively from the rules.

    Walks every own chevron's three forward directions (G4) up to its power of
    movement (A-R4, D39; 1 without power), passing over markers of any colour
    (D8) but not chevrons, except in a connection jump between own fields
    (A-R8). Targets are unoccupied and neutral or own (L6, S-R5, A-R9, D6).
    A crossing (G6) gives three twist variants (S-R4, A-R6, D3, D4), except
    when an Azacru connection change over another colour removes the chevron
    or once the Azacru end is triggered (D5). ``pass`` only without a move
    (S-R2, A-R10, D34, D37). ``player`` defaults to the player to move.
    """
    rules = state.rules
    assert not rules.pacru
    me = state.players[state.to_move] if player is None else player
    colour = {}
    for fname, owner in state.marker_map().items():
        colour[(ord(fname[0]) - 96, int(fname[1]))] = owner
    chevrons = {(ord(f[0]) - 96, int(f[1])): c for f, c in state.chevron_map().items()}
    out: set[str] = set()
    for (x, y), chevron in chevrons.items():
        if chevron.owner != me:
            continue
        block = borderland(x, y)
        power = 1
        if rules.power:
            power = max(
                1,
                sum(
                    1
                    for (cx, cy), owner in colour.items()
                    if owner == me and borderland(cx, cy) == block
                ),
            )
        facing = int(chevron.facing)
        for d in ((facing - 1) % 8, facing, (facing + 1) % 8):
            dx, dy = DELTAS[d]
            for k in range(1, power + 1):
                tx, ty = x + k * dx, y + k * dy
                if not (1 <= tx <= 9 and 1 <= ty <= 9):
                    break
                between = [(x + i * dx, y + i * dy) for i in range(1, k)]
                jumped = any(b in chevrons for b in between)
                if (tx, ty) in chevrons or colour.get((tx, ty), me) != me:
                    continue
                connection = k >= 2 and colour.get((x, y)) == me and colour.get((tx, ty)) == me
                if jumped and not (rules.power and connection):
                    continue
                removed = (
                    rules.azacru
                    and connection
                    and not jumped
                    and any(colour.get(b, me) != me for b in between)
                )
                text = name(x, y) + "-" + name(tx, ty)
                crossing = borderland(tx, ty) != block
                out.add(text)
                if rules.twist and crossing and not removed and state.trigger < 0:
                    out.update({text + "<", text + ">"})
    return out or {"pass"}


def reference_can_acquire(state: ChevronState) -> bool:
    """Ruling D33 written out again: could any chevron ever step onto a neutral field?

    Colours are frozen. A chevron whose three forward fields are all off the
    board or another player's colour is statically stuck and a wall; other
    chevrons are ignored. Each remaining chevron searches over (field, facing),
    stepping only onto its owner's unwalled fields, adding the +-45 degree
    facings after a crossing in Shacru (S-R4), until a forward field is neutral
    and not a wall.
    """
    colour = {(ord(f[0]) - 96, int(f[1])): c for f, c in state.marker_map().items()}
    chevrons = {(ord(f[0]) - 96, int(f[1])): c for f, c in state.chevron_map().items()}

    def ahead(x: int, y: int, facing: int) -> list[tuple[int, int, int]]:
        out = []
        for d in ((facing - 1) % 8, facing, (facing + 1) % 8):
            tx, ty = x + DELTAS[d][0], y + DELTAS[d][1]
            if 1 <= tx <= 9 and 1 <= ty <= 9:
                out.append((tx, ty, d))
        return out

    walls = {
        (x, y)
        for (x, y), c in chevrons.items()
        if all(colour.get((tx, ty), c.owner) != c.owner for tx, ty, _ in ahead(x, y, int(c.facing)))
    }
    for (x, y), c in chevrons.items():
        if (x, y) in walls:
            continue
        seen = {(x, y, int(c.facing))}
        todo = [(x, y, int(c.facing))]
        while todo:
            cx, cy, facing = todo.pop()
            for tx, ty, d in ahead(cx, cy, facing):
                if (tx, ty) in walls:
                    continue
                owner = colour.get((tx, ty))
                if owner is None:
                    return True
                if owner != c.owner:
                    continue
                turns = (
                    (0, -1, 1)
                    if state.rules.twist and borderland(cx, cy) != borderland(tx, ty)
                    else (0,)
                )
                for t in turns:
                    key = (tx, ty, (d + t) % 8)
                    if key not in seen:
                        seen.add(key)
                        todo.append(key)
    return False


_FIELD_FACING = re.compile(r"([a-i])([1-9])(NE|NW|SE|SW|N|E|S|W)?")


def _rotate_match(m: re.Match[str]) -> str:
    x, y = ord(m.group(1)) - 96, int(m.group(2))
    facing = m.group(3)
    turned = _DIRS[(_DIRS.index(facing) + 2) % 8] if facing else ""
    return name(y, 10 - x) + turned


def rotate_position(text: str) -> str:
    """A position string turned 90 degrees clockwise: (x, y) -> (y, 10 - x), facings +90."""
    head, sep, body = text.partition(" markers=")
    return head + sep + _FIELD_FACING.sub(_rotate_match, body)


def rotate_move(text: str) -> str:
    """A move text turned 90 degrees clockwise, in canonical form (twists keep their sense)."""
    return str(Move.parse(_FIELD_FACING.sub(_rotate_match, text)))


def direction_name(d: int) -> str:
    """Compass name of direction index ``d`` (G3)."""
    return _DIRS[d]
