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

from .helpers import supply_of
from .pacru_reference import ALL, FACINGS, SUPPLY, jumps, nm, reference_steps


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
        seen["low"] += supply_of(state)[state.players[state.to_move]] <= 3
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
