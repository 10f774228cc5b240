"""A static evaluation of positions from the rules' own goals: :func:`evaluate`.

Each player gets a *strength*, a weighted count of what the rules reward,
and the value of a player is ``tanh((own strength - best other strength) /
SCALE)``: in ``(-1, 1)``, the units of :meth:`pacru.GameState.returns`, so a
finished game's returns (+1, -1) are always better or worse than any value of
a game still going. With two players the values sum to zero.

===========  ================================================================
game         what a player's strength counts
===========  ================================================================
Pacru        markers on the board, the way to the marker target of the win
             by supply {R1, R16b}; chevrons on the board and how many of
             them can move, because a player without chevrons, or none of
             whose chevrons can move on their turn, is out {R15, R16a}; the
             power of movement of each chevron {R5}; opposing chevrons that
             two or more of the player's chevrons attack, the condition of a
             pincer {R11}, worth nearly a chevron when the player is to
             move (the pincer can be made now) and less otherwise; the
             player's own chevrons under such a threat count against them,
             heavily when the attacker is to move
Lilacru,     markers on the board (the most fields win {L7, S-R6, A-R10});
Shacru,      the neutral fields the player's chevrons can reach within a
Azacru       few moves (fields still to acquire), and the chevrons that can
             move at all (a player who cannot move acquires nothing more)
LSD          tiles on the field (the score)
===========  ================================================================

The reach of a chevron follows the moving rules: forward only, ending facing
the direction of travel {S-R3, L4}, up to its power of movement in Azacru and
Pacru {A-R4, R5}, never onto a chevron or another player's colour {S-R5,
A-R9, R7}; a border crossing may twist the facing {S-R4, A-R6}. It leaves out
what only the complete move generator knows (connection jumps, later changes
of the markers), which is why it is a heuristic and not a rule.

>>> import pacru
>>> from pacru.bots.evaluation import evaluate
>>> evaluate(pacru.new_game("pacru"))
(0.0, 0.0)
"""

from __future__ import annotations

import math
from typing import Any, Final

from pacru.base import GameState
from pacru.chevron.rules import SUPPLY
from pacru.chevron.state import ChevronState
from pacru.geometry import BORDERLAND, BORDERLAND_MASK, FORWARD, RAYS

__all__ = ["SCALE", "evaluate", "strengths"]

#: The strength lead (in markers) worth ``tanh(1)``, about 0.76.
SCALE: Final = 12.0

# Pacru weights, in markers.
_CHEVRON: Final = 6.0  # a chevron on the board {R15}
_MOBILE: Final = 2.0  # a chevron that can move {R15 blocked turn}
_POWER: Final = 0.25  # per unit of power of movement {R5}
_THREAT_NOW: Final = 5.0  # a pincer the player can make now {R11}
_THREAT_LATER: Final = 1.5  # a pincer threat the victim may still escape
_OUT: Final = -1000.0  # an eliminated player {R15}

# Lilacru, Shacru, Azacru weights, in markers.
_REACH: Final = 0.1  # a neutral field within reach
_MOVABLE: Final = 1.0  # a chevron that can move
_DEPTH: Final = 2  # moves looked ahead for the reach


def evaluate(state: GameState[Any]) -> tuple[float, ...]:
    """Each player's value of ``state``, in turn order, in the units of ``returns()``.

    A finished game gives :meth:`pacru.GameState.returns` (+1 a win, -1 a
    loss, 0 no winner); a game going on gives ``tanh(lead / SCALE)`` per
    player, where the lead is the player's strength minus the best other
    player's (:func:`strengths`), strictly between -1 and +1.
    """
    if state.outcome is not None:
        return tuple(state.returns())
    power = strengths(state)
    if len(power) == 2:
        lead = math.tanh((power[0] - power[1]) / SCALE)
        return (lead, 0.0 - lead)  # 0.0 - x: no negative zero
    out = []
    for i, s in enumerate(power):
        best = max(p for j, p in enumerate(power) if j != i)
        out.append(math.tanh((s - best) / SCALE))
    return tuple(out)


def strengths(state: GameState[Any]) -> tuple[float, ...]:
    """Each player's strength in ``state`` (turn order), in markers: see the module docstring."""
    if isinstance(state, ChevronState):
        if state.rules.pacru:
            return _pacru(state)
        return _fields(state)
    return tuple(float(s) for s in state.scores.values())


def _power(state: ChevronState, seat: int, field: int) -> int:
    """Power of movement of ``seat``'s chevron on ``field`` {A-R4, R5}; 1 without power."""
    if not state.rules.power:
        return 1
    return (state.markers[seat] & BORDERLAND_MASK[BORDERLAND[field]]).bit_count() or 1


def _moves(state: ChevronState, seat: int, code: int, others: int) -> list[int]:
    """The codes (field * 8 + facing) a chevron ``code`` of ``seat`` can step to.

    Forward, up to its power of movement, stopping at the first chevron,
    never landing on a field of ``others`` (the other players' markers); a
    border crossing may twist the facing {S-R3, S-R4, A-R4, A-R9, R5, R7}.
    """
    field = code >> 3
    reach = _power(state, seat, field)
    occupied = state.occupied
    twist = state.rules.twist
    land = BORDERLAND[field]
    out: list[int] = []
    for d in FORWARD[code & 7]:
        for t in RAYS[field][d][:reach]:
            if occupied >> t & 1:
                break
            if others >> t & 1:
                continue
            if twist and BORDERLAND[t] != land:
                out.extend((t * 8 + (d - 1) % 8, t * 8 + d, t * 8 + (d + 1) % 8))
            else:
                out.append(t * 8 + d)
    return out


def _others(state: ChevronState, seat: int) -> int:
    mask = 0
    for i, m in enumerate(state.markers):
        if i != seat:
            mask |= m
    return mask


def _fields(state: ChevronState) -> tuple[float, ...]:
    """Lilacru, Shacru, Azacru: markers, neutral fields within reach, chevrons that can move."""
    marked = 0
    for m in state.markers:
        marked |= m
    out = []
    for seat, codes in enumerate(state.chevrons):
        others = _others(state, seat)
        reached = 0
        movable = 0
        for code in codes:
            frontier = [code]
            seen = {code}
            first = True
            for _ in range(_DEPTH):
                nxt = []
                for c in frontier:
                    for step in _moves(state, seat, c, others):
                        if step not in seen:
                            seen.add(step)
                            nxt.append(step)
                            reached |= 1 << (step >> 3)
                if first:
                    movable += bool(nxt)
                    first = False
                frontier = nxt
        neutral = (reached & ~marked).bit_count()
        out.append(state.markers[seat].bit_count() + _REACH * neutral + _MOVABLE * movable)
    return tuple(out)


def _chevron_fields(state: ChevronState, seat: int) -> int:
    mask = 0
    for code in state.chevrons[seat]:
        mask |= 1 << (code >> 3)
    return mask


def _pacru(state: ChevronState) -> tuple[float, ...]:
    """Pacru: markers, chevrons, mobility, power of movement, pincers {R5, R11, R15, R16}."""
    n = len(state.players)
    target = SUPPLY[n]
    mover = state.to_move
    occupied = state.occupied
    power = [0.0] * n
    # attacked[victim field] -> per attacking seat, how many of its chevrons attack it.
    attacked: dict[int, list[int]] = {}
    for seat, codes in enumerate(state.chevrons):
        if state.out >> seat & 1 or not codes:
            power[seat] = _OUT
            continue
        others = _others(state, seat)
        own = _chevron_fields(state, seat)
        mine = state.markers[seat]
        markers = mine.bit_count()
        # The last markers to the target weigh more: they win the game {R16b}.
        value = markers + 4.0 * (markers / target) ** 4
        for code in codes:
            field = code >> 3
            # Power of movement {R5}: the own markers in the chevron's borderland.
            reach = (mine & BORDERLAND_MASK[BORDERLAND[field]]).bit_count() or 1
            value += _CHEVRON + _POWER * reach
            # One walk along each forward ray {R5, R7}: a free field not of another
            # player's colour is a move; the first chevron met is attacked unless own {R11}.
            mobile = False
            hits = 0
            rays = RAYS[field]
            for d in FORWARD[code & 7]:
                for t in rays[d][:reach]:
                    if occupied >> t & 1:
                        if not own >> t & 1:
                            hits |= 1 << t
                        break
                    if not others >> t & 1:
                        mobile = True
            if mobile:
                value += _MOBILE
            while hits:
                low = hits & -hits
                hits ^= low
                attacked.setdefault(low.bit_length() - 1, [0] * n)[seat] += 1
        power[seat] = value
    for field, counts in attacked.items():
        victim = _owner(state, field)
        for seat, k in enumerate(counts):
            if k < 2 or power[seat] == _OUT:
                continue
            weight = _THREAT_NOW if seat == mover else _THREAT_LATER
            power[seat] += weight
            if power[victim] != _OUT:
                power[victim] -= weight
    return tuple(power)


def _owner(state: ChevronState, field: int) -> int:
    for seat, codes in enumerate(state.chevrons):
        for code in codes:
            if code >> 3 == field:
                return seat
    raise AssertionError(f"no chevron on field {field}")  # pragma: no cover
