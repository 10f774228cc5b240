"""How chevron games end, and who wins.

* Lilacru and Shacru end when nobody can move {S-R6a, L7}, or when no player
  with chevrons can ever acquire another field {S-R6b, L7}, decided by the
  look-ahead of ruling D33 (:func:`can_acquire`), with a non-official safety
  valve after ``idle_rounds`` full rounds without an acquisition (D33).
  A player who cannot move passes, and is asked again every turn (D34, D37).
* Azacru ends when the player who first had to pass would move again
  {A-R10, D36}; handled in :mod:`pacru.chevron.resolve`.
* In all three the most markers on the board wins; ties are shared (D35).
* Pacru's turn start (:func:`start_turn`): players without chevrons are out,
  a player with no chevron step is blocked and out {R15, D27, D28}; the last
  player with chevrons wins {R16a}.
"""

from __future__ import annotations

from collections import deque
from typing import Final

from pacru.base import Outcome, Termination
from pacru.chevron.movegen import generate, raw_steps
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.rules import Rules
from pacru.geometry import BORDERLAND, FORWARD, NEIGHBOUR

__all__ = [
    "FORWARD_MASK",
    "can_acquire",
    "lookahead_outcome",
    "start_turn",
    "top_scorers",
    "without_chevrons",
]


def top_scorers(players: tuple[str, ...], markers: tuple[int, ...]) -> tuple[str, ...]:
    """The colours with the most markers on the board; several share the win (D35).

    A player without chevrons still scores their markers (D50)."""
    counts = [m.bit_count() for m in markers]
    best = max(counts)
    return tuple(p for p, c in zip(players, counts, strict=True) if c == best)


def _forward_masks() -> tuple[int, ...]:
    masks = []
    for code in range(81 * 8):
        mask = 0
        for d in FORWARD[code & 7]:
            t = NEIGHBOUR[code >> 3][d]
            if t >= 0:
                mask |= 1 << t
        masks.append(mask)
    return tuple(masks)


#: ``FORWARD_MASK[field * 8 + facing]``: the bitboard of the fields one step forward of a
#: chevron on ``field`` facing ``facing`` {G4}, so the end test masks instead of shifting.
FORWARD_MASK: Final[tuple[int, ...]] = _forward_masks()


def _statically_stuck(code: int, enemy: int) -> bool:
    """Every forward field is off the board or another player's colour (D33)."""
    return not FORWARD_MASK[code] & ~enemy


def can_acquire(
    rules: Rules, markers: tuple[int, ...], chevrons: tuple[tuple[int, ...], ...]
) -> bool:
    """Whether some player with chevrons could still ever acquire a field (ruling D33).

    Colours are frozen. Chevrons that are statically stuck (every forward
    field off the board or another colour) are walls; every other chevron is
    ignored, being able to move away. A breadth-first search over (field,
    facing) per chevron, stepping only onto own fields (the start field counts
    even if neutral) and adding the +-45 degree twists at border crossings in
    Shacru, looks for a forward step onto a neutral field that is not a wall.
    """
    marked = 0
    for m in markers:
        marked |= m
    # Quick test first (D33 is settled here almost every ply): a forward field that is
    # neutral and holds no chevron cannot be a wall, so some chevron acquires it.
    reach = standing = 0
    for codes in chevrons:
        for code in codes:
            reach |= FORWARD_MASK[code]
            standing |= 1 << (code >> 3)
    if reach & ~marked & ~standing:
        return True
    walls = 0
    for seat, codes in enumerate(chevrons):
        enemy = marked & ~markers[seat]
        for code in codes:
            if _statically_stuck(code, enemy):
                walls |= 1 << (code >> 3)
    neutral = ~marked & ~walls
    # Quick pass: almost always some chevron can step onto a neutral field at once.
    for codes in chevrons:
        for code in codes:
            f = code >> 3
            for d in FORWARD[code & 7]:
                t = NEIGHBOUR[f][d]
                if t >= 0 and neutral >> t & 1:
                    return True
    for seat, codes in enumerate(chevrons):
        own = markers[seat] & ~walls
        for code in codes:
            if walls >> (code >> 3) & 1:
                continue
            if _search(code, own, neutral, rules.twist):
                return True
    return False


def _search(start: int, own: int, neutral: int, twist: bool) -> bool:
    seen = {start}
    queue = deque([start])
    while queue:
        code = queue.popleft()
        f = code >> 3
        for d in FORWARD[code & 7]:
            t = NEIGHBOUR[f][d]
            if t < 0:
                continue
            if neutral >> t & 1:
                return True
            if not own >> t & 1:
                continue
            facings = (
                (d, (d - 1) % 8, (d + 1) % 8) if twist and BORDERLAND[f] != BORDERLAND[t] else (d,)
            )
            for facing in facings:
                nxt = t * 8 + facing
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
    return False


def lookahead_outcome(
    rules: Rules,
    players: tuple[str, ...],
    markers: tuple[int, ...],
    chevrons: tuple[tuple[int, ...], ...],
    occupied: int,
    idle: int,
) -> Outcome | None:
    """The Lilacru/Shacru end test {S-R6, L7, D33}, or None while the game goes on."""
    termination = None
    if not any(raw_steps(rules, markers, chevrons, s, occupied) for s in range(len(players))):
        termination = Termination.NO_MOVES
    elif not can_acquire(rules, markers, chevrons):
        termination = Termination.NO_ACQUISITION
    elif idle >= rules.idle_rounds * len(players):
        termination = Termination.IDLE_LIMIT
    if termination is None:
        return None
    return Outcome(termination, top_scorers(players, markers))


def without_chevrons(chevrons: tuple[tuple[int, ...], ...], out: int) -> int:
    """``out`` with every player who has no chevron left marked out {R15, D28}."""
    for s, codes in enumerate(chevrons):
        if not codes:
            out |= 1 << s
    return out


_NO_MOVES: Final = LegalMoves.empty()


def start_turn(
    rules: Rules,
    players: tuple[str, ...],
    markers: tuple[int, ...],
    chevrons: tuple[tuple[int, ...], ...],
    out: int,
    seat: int,
    occupied: int,
) -> tuple[tuple[tuple[int, ...], ...], int, int, int, Outcome | None, LegalMoves | None]:
    """Pacru start of turn {R15, R16a, D27, D28}, from ``seat`` onwards.

    Returns (chevrons, out, seat, occupied, outcome, legal moves of the seat
    to move): players without chevrons are out; a player whose chevrons
    cannot step is blocked, loses them and is out; the last player with
    chevrons wins.
    """
    n = len(players)
    if () in chevrons:  # usually nobody has lost every chevron: skip the walk
        out = without_chevrons(chevrons, out)
    everyone = (1 << n) - 1
    for _ in range(n + 1):
        left = everyone & ~out
        if not left & (left - 1):  # at most one player has chevrons
            alive = [s for s in range(n) if not out >> s & 1]
            return (
                chevrons,
                out,
                alive[0] if alive else seat,  # the winner, as ChevronState.to_move documents
                occupied,
                Outcome(Termination.LAST_PLAYER, tuple(players[s] for s in alive)),
                None,
            )
        while out >> seat & 1:
            seat = (seat + 1) % n
        moves = generate(rules, markers, chevrons, seat, occupied, False)
        if moves is not _NO_MOVES:  # the generator's list of a blocked Pacru player
            return chevrons, out, seat, occupied, None, moves
        for code in chevrons[seat]:
            occupied &= ~(1 << (code >> 3))
        chevrons = tuple(() if s == seat else c for s, c in enumerate(chevrons))
        out |= 1 << seat
    raise AssertionError("unreachable: every round eliminates a player")
