"""A naive Pacru move generator written from the rules text, for cross-checks.

:func:`reference_steps` knows nothing of bitboards or move families: it walks
coordinates and applies {R3}-{R13}, {R16b} and rulings D8-D23, D29, D46, D47
as the rules reference states them, and returns the step and pincer moves
(not reorientations) as move texts. ``test_pacru_reference`` compares it with
the engine on crowded random positions, ``test_perft`` at every node of the
perft trees.
"""

from __future__ import annotations

import pacru
from pacru import ChevronState

from .helpers import DELTAS, borderland

Square = tuple[int, int]
NAMES = "abcdefghi"
SUPPLY = {2: 42, 3: 28, 4: 24}
ALL = [(x, y) for y in range(1, 10) for x in range(1, 10)]
FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def sq(name: str) -> Square:
    return NAMES.index(name[0]) + 1, int(name[1])


def nm(s: Square) -> str:
    return f"{NAMES[s[0] - 1]}{s[1]}"


def ray(x: Square, d: int, k: int) -> Square:
    return x[0] + k * DELTAS[d][0], x[1] + k * DELTAS[d][1]


def reference_steps(state: ChevronState) -> set[str]:
    """Every step and pincer of the player to move, with all choices, from the rules text."""
    me = state.current_player
    assert me is not None
    marks = {sq(f): c for f, c in state.marker_map().items()}
    chevs = {sq(f): (c.owner, int(c.facing)) for f, c in state.chevron_map().items()}
    supply = SUPPLY[len(state.players)] - sum(c == me for c in marks.values())
    out: set[str] = set()
    attackers: dict[Square, list[tuple[Square, int, int]]] = {}
    for x, (owner, facing) in chevs.items():
        if owner != me:
            continue
        # R5: own fields in the starting borderland, the chevron's own included; at least 1.
        power = max(1, sum(c == me and borderland(*s) == borderland(*x) for s, c in marks.items()))
        for d in ((facing - 1) % 8, facing, (facing + 1) % 8):
            for k in range(1, power + 1):
                y = ray(x, d, k)
                if not (1 <= y[0] <= 9 and 1 <= y[1] <= 9):
                    break
                jumped = any(ray(x, d, i) in chevs for i in range(1, k))
                if y in chevs:  # R11, D18: the first chevron within reach is attacked
                    if not jumped and chevs[y][0] != me:
                        attackers.setdefault(y, []).append((x, d, k))
                    continue
                if marks.get(y, me) != me:  # R7: never onto another colour
                    continue
                if jumped and not (marks.get(x) == me and marks.get(y) == me):  # R7, R9
                    continue
                out |= _choices(state, marks, chevs, supply, x, y, d, k, jumped, False)
    for y, atks in attackers.items():
        if len(atks) >= 2:  # R11, D19: two or more of the mover's chevrons
            for x, d, k in atks:
                out |= _choices(state, marks, chevs, supply, x, y, d, k, False, True)
    return out


def _choices(
    state: ChevronState,
    marks: dict[Square, str],
    chevs: dict[Square, tuple[str, int]],
    supply: int,
    x: Square,
    y: Square,
    d: int,
    k: int,
    jumped: bool,
    capture: bool,
) -> set[str]:
    me = state.current_player
    assert me is not None
    base = nm(x) + ("x" if capture else "-") + nm(y)
    after = dict(marks)
    chevs_after = dict(chevs)
    left = supply
    if capture:  # R11: the victim's field turns the mover's colour
        left -= after.get(y) != me
        after[y] = me
    del chevs_after[x]
    chevs_after[y] = (me, d)
    if left <= 0:  # R16b, D29: the last marker is down; the mover has won
        return {base}
    benefits: list[tuple[str, list[Square]]] = []
    between = [ray(x, d, i) for i in range(1, k)]
    if not capture and k >= 2 and not jumped and marks.get(x) == me and marks.get(y) == me:
        benefits.append(("*", [b for b in between if after.get(b) != me]))  # R8, D9-D11
    if borderland(*x) != borderland(*y):  # R4, R6, R10, D13-D17
        land = [s for s in ALL if borderland(*s) == borderland(*y)]
        neutral = [s for s in land if s not in after]
        if neutral:
            fields = [s for s in neutral if s not in chevs_after or s == y]
        else:
            fields = [s for s in land if s not in chevs_after and after[s] != me]
        benefits += [("+" + nm(s), [s]) for s in fields]
    out = set()
    for text, changed in benefits or [("", [])]:
        final = dict(after)
        for s in changed:
            final[s] = me
        partner = ray(y, d, 1)
        others = [sum(c == p for c in final.values()) for p in state.players if p != me]
        meeting = (
            left - len(changed) > 0  # D29: nothing after the last marker
            and chevs_after.get(partner) == (me, (d + 4) % 8)  # R12, D21, D46
            and final.get(y) == me
            and final.get(partner) == me
            and (state.rules.meeting_rule == "original" or max(others) >= 9)  # D22, D48
        )
        if meeting:  # D23, D47: any unoccupied field that is not the mover's
            targets = [s for s in ALL if s not in chevs_after and final.get(s) != me]
            out |= {f"{base}{text}@{nm(s)}" for s in targets} or {base + text}
        else:
            out.add(base + text)
    return out


def jumps(state: ChevronState, move: pacru.Move) -> bool:
    """Whether the step passes over a chevron (R9)."""
    x, y = sq(pacru.field_name(move.origin or 0)), sq(pacru.field_name(move.target or 0))
    k = max(abs(y[0] - x[0]), abs(y[1] - x[1]))
    d = DELTAS.index(((y[0] - x[0]) // k, (y[1] - x[1]) // k))
    return any(state.chevron_at(nm(ray(x, d, i))) is not None for i in range(1, k))
