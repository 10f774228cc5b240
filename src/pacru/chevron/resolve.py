"""Applying a legal move: the resolution order of every chevron game.

Pacru follows the order of ruling D30 (rules reference C.4.1 step 4):

a. a pincer removes the victim and changes its field {R11};
b. the chevron moves and faces its direction of travel {R3};

c./d./e. the chosen crossing benefit {R4, R6, R10} or connection change {R8};

f. the meeting field {R12};
g. after each marker placed, an empty supply wins at once {R16b, D29, D31}.

Lilacru, Shacru and Azacru mark the arrival field {L5, S-R3, A-R3} (an own
field gains nothing, D6; the field left stays as it was, D7), apply the Azacru
connection change and removal {A-R7, D9-D12} (a connection jump changes
nothing, A-R8), and the twist {S-R4, A-R6, D3, D4}. A pass {S-R2, A-R10, D34,
D37} changes no field; the first Azacru pass sets the end trigger and the game
ends when the turn comes back to that player {A-R10, D36}; Lilacru and Shacru
run the end test of :mod:`pacru.chevron.ending` after every move {L7, S-R6,
D33}. Every function here trusts that the move was generated as legal; the
state checks that first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacru.base import Outcome, Termination
from pacru.chevron.ending import lookahead_outcome, start_turn, top_scorers, without_chevrons
from pacru.chevron.move import Move
from pacru.chevron.rules import SUPPLY
from pacru.geometry import BETWEEN, LINE, RAYS

if TYPE_CHECKING:
    from pacru.chevron.state import ChevronState

__all__ = ["resolve"]


def _replace_chevron(codes: tuple[int, ...], old: int, new: int | None) -> tuple[int, ...]:
    rest = [c for c in codes if c != old]
    if new is not None:
        rest.append(new)
        rest.sort()
    return tuple(rest)


def _facing_of(state: ChevronState, seat: int, field: int) -> int:
    for code in state.chevrons[seat]:
        if code >> 3 == field:
            return code & 7
    raise AssertionError("no chevron there")


def resolve(state: ChevronState, move: Move) -> ChevronState:
    """The state after the legal ``move``."""
    if state.rules.pacru:
        return _resolve_pacru(state, move)
    return _resolve_plain(state, move)


def _resolve_plain(state: ChevronState, move: Move) -> ChevronState:
    """Lilacru, Shacru, Azacru: mark, connect, remove, twist, then the end test."""
    rules = state.rules
    seat = state.to_move
    n = len(state.players)
    markers = list(state.markers)
    chevrons = state.chevrons
    occupied = state.occupied
    trigger = state.trigger
    acquired = False
    if move.origin is None:  # pass {S-R2, A-R10}
        if rules.azacru and trigger < 0:
            trigger = seat
    else:
        f, t = move.origin, move.target
        assert t is not None
        d, k = LINE[f * 81 + t]
        own = markers[seat]
        removed = False
        tbit = 1 << t
        if rules.azacru and k >= 2 and own >> f & 1 and own & tbit:
            between = BETWEEN[f * 81 + t]
            if not between & occupied:  # a connection change, not a jump {A-R7, A-R8}
                for i in range(n):
                    if i != seat and markers[i] & between:
                        markers[i] &= ~between
                        removed = True  # an opponent's field was changed (D12)
                acquired = bool(between & ~own)
                own |= between
        if not own & tbit and rules.marks_arrival:
            own |= tbit
            acquired = True
        markers[seat] = own
        old = f * 8 + _facing_of(state, seat, f)
        new = None if removed else t * 8 + (d + move.twist) % 8
        chevrons = tuple(
            _replace_chevron(c, old, new) if i == seat else c for i, c in enumerate(chevrons)
        )
        occupied &= ~(1 << f)
        if not removed:
            occupied |= tbit
    marks = tuple(markers)
    nxt = (seat + 1) % n
    # The idle count feeds only the Lilacru/Shacru safety valve (D33); Azacru keeps 0 so
    # that equal Azacru positions compare and print equal.
    idle = 0 if acquired or not rules.lookahead_end else state.idle + 1
    outcome: Outcome | None = None
    if rules.azacru:
        if trigger >= 0 and nxt == trigger:
            outcome = Outcome(Termination.END_TRIGGERED, top_scorers(state.players, marks))
        elif rules.move_cap is not None and state.ply + 1 >= rules.move_cap:
            outcome = Outcome(Termination.MOVE_CAP, ())  # non-official (D32)
    else:
        outcome = lookahead_outcome(rules, state.players, marks, chevrons, occupied, idle)
    return state._successor(
        move,
        markers=marks,
        chevrons=chevrons,
        to_move=nxt,
        occupied=occupied,
        trigger=trigger,
        idle=idle,
        outcome=outcome,
    )


def _place(markers: list[int], seat: int, field: int) -> None:
    bit = 1 << field
    for i in range(len(markers)):
        markers[i] &= ~bit
    markers[seat] |= bit


def _resolve_pacru(state: ChevronState, move: Move) -> ChevronState:
    rules = state.rules
    seat = state.to_move
    n = len(state.players)
    markers = list(state.markers)
    chevrons = list(state.chevrons)
    occupied = state.occupied
    supply = SUPPLY[n] - markers[seat].bit_count()
    f = move.origin
    assert f is not None
    if move.target is None:  # reorientation {R14}
        for field in move.relinquished:
            markers[seat] &= ~(1 << field)
        facing = _facing_of(state, seat, f)
        chevrons[seat] = _replace_chevron(
            chevrons[seat], f * 8 + facing, f * 8 + (facing + move.turn) % 8
        )
    else:
        t = move.target
        d, k = LINE[f * 81 + t]
        tbit = 1 << t
        if move.capture:  # a. pincer {R11}
            for i in range(n):
                if i != seat:
                    chevrons[i] = tuple(c for c in chevrons[i] if c >> 3 != t)
            if not markers[seat] & tbit:
                _place(markers, seat, t)
                supply -= 1
        # b. the move itself {R3}
        old = f * 8 + _facing_of(state, seat, f)
        chevrons[seat] = _replace_chevron(chevrons[seat], old, t * 8 + d)
        occupied = (occupied & ~(1 << f)) | tbit
        # c.-e. the chosen benefit {R4, R6, R8, R10}
        if supply > 0 and move.connection:
            for field in RAYS[f][d][: k - 1]:
                if not markers[seat] >> field & 1:
                    _place(markers, seat, field)
                    supply -= 1
                    if supply == 0:
                        break
        if supply > 0 and move.marker is not None:
            _place(markers, seat, move.marker)
            supply -= 1
        # f. meeting {R12}
        if supply > 0 and move.meeting is not None:
            _place(markers, seat, move.meeting)
            supply -= 1
    marks = tuple(markers)
    chevs = tuple(chevrons)
    ply = state.ply + 1
    if supply <= 0:  # g. {R16b, D29, D31}
        # A pincer that also took an opponent's last chevron puts them out as well (D28, D31).
        out = without_chevrons(chevs, state.out)
        return state._successor(
            move,
            markers=marks,
            chevrons=chevs,
            to_move=seat,
            occupied=occupied,
            out=out,
            outcome=Outcome(Termination.SUPPLY_EXHAUSTED, (state.players[seat],)),
        )
    chevs, out, nxt, occupied, outcome, moves = start_turn(
        rules, state.players, marks, chevs, state.out, (seat + 1) % n, occupied
    )
    if outcome is None and rules.move_cap is not None and ply >= rules.move_cap:
        outcome = Outcome(Termination.MOVE_CAP, ())
        moves = None
    return state._successor(
        move,
        markers=marks,
        chevrons=chevs,
        to_move=nxt,
        occupied=occupied,
        out=out,
        outcome=outcome,
        moves=moves,
    )
