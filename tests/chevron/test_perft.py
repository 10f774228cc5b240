"""Perft: complete-move counts from the starting positions (rules reference B.5, E.3).

``perft(state, 1)`` is ``len(state.legal_moves())``; ``perft(state, d)`` sums
``perft(child, d - 1)`` over every legal move. Every choice (crossing field,
meeting field, twist, relinquished set) is its own move. The numbers are
documented in docs/games/pacru-perft.rst.

Cross-checks: :func:`naive_pacru_moves` re-implements the Pacru rules from the
rules text for positions where the player to move has at most one marker (so
the power of movement is 1 everywhere: no long moves, connections, jumps or
reorientations) and must give the engine's exact move set at every node up to
depth 2 (hence the exact depth-3 count); :func:`helpers.reference_moves` does
the same for Lilacru, Shacru and Azacru.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

import pacru
from pacru import ChevronState

from .helpers import DELTAS, borderland, moves_of, reference_moves
from .pacru_reference import ALL, reference_steps, sq

#: (game, players) -> perft at depths 1, 2, 3, 4 from the standard start.
PERFT: dict[tuple[str, int], tuple[int, int, int, int]] = {
    ("pacru", 2): (28, 734, 16168, 345579),
    ("pacru", 3): (23, 533, 11343, 191349),
    ("pacru", 4): (23, 510, 10379, 202471),
    ("shacru", 2): (16, 254, 3932, 60532),
    ("shacru", 3): (13, 162, 2015, 23181),
    ("shacru", 4): (13, 162, 2015, 23927),
    ("azacru", 2): (16, 254, 3932, 60532),
    ("azacru", 3): (13, 162, 2015, 23181),
    ("azacru", 4): (13, 162, 2015, 23927),
    ("lilacru", 2): (12, 142, 1650, 18958),
    ("lilacru", 3): (9, 78, 675, 5587),
    ("lilacru", 4): (9, 78, 675, 5607),
}
#: Depth 5, documented; run with PACRU_DEEP_PERFT=1 (about a minute).
PERFT_5: dict[tuple[str, int], int] = {
    ("pacru", 2): 8081176,
    ("pacru", 3): 3161070,
    ("pacru", 4): 3176125,
    ("shacru", 2): 957723,
    ("shacru", 3): 270801,
    ("shacru", 4): 274185,
    ("azacru", 2): 1012794,
    ("azacru", 3): 270801,
    ("azacru", 4): 274185,
    ("lilacru", 2): 214527,
    ("lilacru", 3): 46919,
    ("lilacru", 4): 46293,
}


def start(game: str, players: int) -> ChevronState:
    state = pacru.new_game(game, players)
    assert isinstance(state, ChevronState)
    return state


def perft(state: ChevronState, depth: int) -> int:
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.apply_move(m), depth - 1) for m in moves)


def _check_tree(state: ChevronState, depth: int, naive: Callable[[ChevronState], set[str]]) -> int:
    """Compare the naive move set at every node above ``depth``; return the leaf count."""
    moves = moves_of(state)
    assert moves == naive(state), state.to_position()
    if depth == 1:
        return len(moves)
    return sum(_check_tree(state.apply_move(m), depth - 1, naive) for m in moves)


@pytest.mark.parametrize(("game", "players"), sorted(PERFT))
def test_perft_depth_1_to_3(game: str, players: int) -> None:
    state = start(game, players)
    assert tuple(perft(state, d) for d in (1, 2, 3)) == PERFT[game, players][:3]


@pytest.mark.parametrize(("game", "players"), sorted(PERFT))
def test_perft_depth_4(game: str, players: int) -> None:
    assert perft(start(game, players), 4) == PERFT[game, players][3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_naive_pacru_generator_agrees_to_depth_3(players: int) -> None:
    """The naive rules-text generator gives the engine's move set at every node to depth 2.

    :func:`reference_steps` lists steps and pincers only; there is no reorientation this
    early (``test_no_reorientation_before_depth_5``).
    """
    state = start("pacru", players)
    assert _check_tree(state, 3, reference_steps) == PERFT["pacru", players][2]


@pytest.mark.parametrize("game", ["lilacru", "shacru", "azacru"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_reference_generator_agrees_to_depth_3(game: str, players: int) -> None:
    state = start(game, players)
    assert _check_tree(state, 3, reference_moves) == PERFT[game, players][2]


def _start_count(game: str, players: int) -> int:
    """Depth 1 from the rules text alone: 3 one-field moves per chevron (E.3), none blocked at
    the start except by a chevron; a crossing gives 3 twists (S-R4), one move per unoccupied
    field of the new borderland (Pacru R4/R6, every field neutral), or 1 (Lilacru)."""
    state = start(game, players)
    chevs = {sq(f): c for f, c in state.chevron_map().items()}
    count = 0
    for (x, y), c in chevs.items():
        if c.owner != state.current_player:
            continue
        for d in ((c.facing - 1) % 8, c.facing, (c.facing + 1) % 8):
            t = (x + DELTAS[d][0], y + DELTAS[d][1])
            if not (1 <= t[0] <= 9 and 1 <= t[1] <= 9) or t in chevs:
                continue
            if borderland(x, y) == borderland(*t):
                count += 1
            elif game == "pacru":
                count += sum(1 for s in ALL if borderland(*s) == borderland(*t) and s not in chevs)
            else:
                count += 1 if game == "lilacru" else 3
    return count


@pytest.mark.parametrize(("game", "players"), sorted(PERFT))
def test_depth_1_from_the_rules_text(game: str, players: int) -> None:
    """B.5 sanity numbers: 28 (Pacru 2p), 16 (Shacru/Azacru 2p), 12 (Lilacru 2p), ..."""
    assert _start_count(game, players) == PERFT[game, players][0]
    assert _start_count("pacru", 2) == 28


@pytest.mark.parametrize("players", [2, 3, 4])
def test_d44_every_chevron_game_starts_from_the_302_positions(players: int) -> None:
    """D44, B.2: Lilacru, Shacru and Azacru use Pacru's starting chevrons and turn order."""
    pacru_start = start("pacru", players)
    for game in ("lilacru", "shacru", "azacru"):
        other = start(game, players)
        assert other.players == pacru_start.players
        assert other.chevron_map() == pacru_start.chevron_map()


def test_no_reorientation_before_depth_5() -> None:
    """R14, D25: the first player can first own 2 fields at ply 5, so depths 1-4 have none."""
    state = pacru.new_game("pacru", 2)
    for text in ("a3-b4+a4", "a7-b6+a6", "i3-h4+i4"):
        assert not state.legal_moves().reorientations
        state = state.apply_move(text)
    state = state.apply_move("e9-e8")
    assert [(r.turn, r.size) for r in state.legal_moves().reorientations] == [
        (-1, 1), (1, 1)
    ] * 4  # fmt: skip


#: (game, players, start_layout) -> perft at depths 1, 2, 3 (AbstractPlay's numbering, B.4).
PERFT_AP: dict[tuple[str, int, str], tuple[int, int, int]] = {
    ("pacru", 2, "ap-legacy-2p"): (28, 734, 16168),
    ("pacru", 3, "abstractplay"): (24, 531, 11363),
    ("pacru", 4, "abstractplay"): (23, 487, 10389),
    ("azacru", 3, "abstractplay"): (13, 169, 2015),
    ("azacru", 4, "abstractplay"): (13, 169, 2015),
}


@pytest.mark.parametrize(("game", "players", "layout"), sorted(PERFT_AP))
def test_perft_abstractplay_layouts(game: str, players: int, layout: str) -> None:
    """B.3 finding 1: the legacy 2p layout is the current one rotated, so its counts agree;
    B.4: AP's 3p/4p first player is seat E, so its counts differ from the standard start."""
    state = pacru.new_game(game, players, start_layout=layout)
    assert isinstance(state, ChevronState)
    assert tuple(perft(state, d) for d in (1, 2, 3)) == PERFT_AP[game, players, layout]
    if game == "pacru":
        assert _check_tree(state, 2, reference_steps) == PERFT_AP[game, players, layout][1]


@pytest.mark.skipif(not os.environ.get("PACRU_DEEP_PERFT"), reason="set PACRU_DEEP_PERFT=1")
@pytest.mark.parametrize(("game", "players"), sorted(PERFT_5))
def test_perft_depth_5(game: str, players: int) -> None:
    assert perft(start(game, players), 5) == PERFT_5[game, players]
