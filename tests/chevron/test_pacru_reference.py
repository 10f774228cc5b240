"""The Pacru engine against a naive generator written from the rules text.

:func:`reference_steps` knows nothing of bitboards or move families: it walks
coordinates and applies {R3}-{R13}, {R16b} and rulings D8-D23, D29, D46, D47
as the rules reference states them. Seeded random positions (crowded around a
few borderlands, so that long moves, connections, jumps, pincers,
transformations, meetings and the supply limit all occur) and random games
must give exactly the engine's step moves, and the engine's number of
reorientations must be 4 (or 3) chevrons x (2 C(n,2) + 2 C(n,4)) for n
unoccupied own fields {R14, D25}.
"""

from __future__ import annotations

import random
from math import comb

import pytest

import pacru
from pacru import ChevronState, PacruError
from pacru.chevron.movelist import ReorientationFamily, StepFamily

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


def check(state: ChevronState) -> None:
    moves = state.legal_moves()
    assert {str(m) for f in moves.steps for m in f} == reference_steps(state), state
    me = state.current_player
    free = [f for f, c in state.marker_map().items() if c == me and state.chevron_at(f) is None]
    n, chevrons = len(free), len(state.chevrons[state.to_move])
    assert sum(f.size for f in moves.reorientations) == chevrons * (2 * comb(n, 2) + 2 * comb(n, 4))


def crowded_position(rng: random.Random) -> str:
    """A random position crowded into a 4x4 square, the mover owning most of it."""
    n = rng.choice([2, 3, 4])
    colours = ["red", "yellow", "black", "green"][:n]
    me = colours[0]
    x0, y0 = rng.randint(1, 6), rng.randint(1, 6)
    region = [nm((x, y)) for x in range(x0, x0 + 4) for y in range(y0, y0 + 4)]
    rest = [nm(s) for s in ALL if nm(s) not in region]
    rng.shuffle(rest)
    marks: dict[str, list[str]] = {c: [] for c in colours}
    for f in region:
        r = rng.random()
        if r < 0.6:
            marks[me].append(f)
        elif r < 0.8:
            marks[rng.choice(colours[1:])].append(f)
    for c in colours[1:]:  # around the meeting threshold of 9 (R12)
        for _ in range(rng.choice([7, 8, 9, 10])):
            marks[c].append(rest.pop())
    if rng.random() < 0.3:  # close to the target (R16b)
        while len(marks[me]) < SUPPLY[n] - rng.randint(1, 3) and len(rest) > 4:
            marks[me].append(rest.pop())
    for c in colours:
        del marks[c][SUPPLY[n] - 1 :]
    chevrons: dict[str, list[str]] = {c: [rest[i] + "N"] for i, c in enumerate(colours[1:])}
    for f in rng.sample(region, rng.randint(3, 8)):
        c = me if rng.random() < 0.6 else rng.choice(colours[1:])
        if all(f not in marks[o] for o in colours if o != c):
            chevrons.setdefault(c, []).append(f + rng.choice(FACINGS))
    text = " ".join(
        [
            f"pacru players={','.join(colours)} turn={me}",
            "markers=" + ";".join(f"{c}:{','.join(fs)}" for c, fs in marks.items() if fs),
            "chevrons=" + ";".join(f"{c}:{','.join(fs)}" for c, fs in chevrons.items()),
        ]
    )
    return text + rng.choice(["", " meeting_rule=original"])


def test_random_crowded_positions() -> None:
    """400 positions; the counts show every special action was exercised (each 10 or more
    with this seed)."""
    rng = random.Random(302)
    seen = dict.fromkeys(("pincer", "connection", "jump", "transform", "meeting", "low"), 0)
    checked = 0
    while checked < 400:
        try:
            state = pacru.from_position(crowded_position(rng))
        except PacruError:
            continue
        assert isinstance(state, ChevronState)
        if state.outcome is not None:
            continue
        check(state)
        checked += 1
        moves = [m for f in state.legal_moves().steps for m in f]
        seen["pincer"] += any(m.capture for m in moves)
        seen["connection"] += any(m.connection for m in moves)
        seen["meeting"] += any(m.meeting is not None for m in moves)
        seen["low"] += state.supply[state.players[state.to_move]] <= 3
        seen["jump"] += any(m.target is not None and jumps(state, m) for m in moves)
        seen["transform"] += any(
            m.marker is not None and state.marker_at(m.marker) is not None for m in moves
        )
    assert min(seen.values()) >= 5, seen


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("meeting_rule", ["2011", "original"])
def test_random_games(players: int, meeting_rule: str) -> None:
    """Random games that mostly move (reorienting now and then) keep agreeing to the end."""
    rng = random.Random(players * 10 + len(meeting_rule))
    for _ in range(2):
        state = pacru.new_game("pacru", players, meeting_rule=meeting_rule)
        while state.outcome is None and state.ply < 200:
            check(state)
            moves = state.legal_moves()
            pick: tuple[StepFamily | ReorientationFamily, ...] = moves.steps
            if moves.reorientations and rng.random() < 0.1:
                pick = moves.reorientations
            family = pick[rng.randrange(len(pick))]
            state = state.apply_move(family.get(rng.randrange(family.size)))
