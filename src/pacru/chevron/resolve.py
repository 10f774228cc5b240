"""Applying a legal move: the resolution order of every chevron game.

Pacru follows the order of ruling D30:

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

from bisect import bisect_left, insort
from typing import TYPE_CHECKING, Any, Final

from pacru.base import Outcome, Termination
from pacru.chevron.ending import lookahead_outcome, start_turn, top_scorers, without_chevrons
from pacru.chevron.move import Move
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.rules import COUNTER_MAX, SUPPLY_BY_PLAYERS
from pacru.errors import InvalidPositionError
from pacru.geometry import BETWEEN, BIT, LINE, RAYS

if TYPE_CHECKING:
    from pacru.chevron.state import ChevronState

__all__ = ["STATE_SLOTS", "resolve", "successor"]

#: ``[PythonChevronState, the setters of its slots in field order]``: what :func:`successor`
#: builds a state with, filled in by :mod:`pacru.chevron.pystate` once the class exists
#: (that module imports this one, so this one cannot import it). The class is frozen (its
#: ``__setattr__`` refuses): a slot's own descriptor stores into it, as
#: ``object.__setattr__`` does after looking the name up, for less (docs/performance.rst).
STATE_SLOTS: Final[list[Any]] = []
_new: Final = object.__new__

# Bound once as module names: a global read per call, not a module attribute lookup.
_bisect_left: Final = bisect_left
_insort: Final = insort
#: :data:`pacru.geometry.LINE` as a tuple indexed by ``origin * 81 + target`` ((0, 0) off
#: a line): an index instead of a mapping lookup on every move.
_LINE: Final[tuple[tuple[int, int], ...]] = tuple(LINE.get(i, (0, 0)) for i in range(81 * 81))


def successor(
    state: ChevronState,
    move: Move,
    markers: tuple[int, ...],
    chevrons: tuple[tuple[int, ...], ...],
    to_move: int,
    occupied: int,
    out: int,
    trigger: int,
    idle: int,
    outcome: Outcome | None,
    moves: LegalMoves | None,
) -> ChevronState:
    """The state one ply after ``state``, from the parts that ``move`` changed.

    The successor of a valid state from a generated move needs no attrs
    ``__init__`` (keywords, validators): its slots are filled directly, with
    the rules, players and ply carried on; ``moves`` is the next player's legal
    move list when already generated (None: on first use).

    Raises:
        InvalidPositionError: ``ply`` or ``idle`` would pass
            :data:`~pacru.chevron.rules.COUNTER_MAX`, where the native engine's
            counters end (both engines refuse alike).
    """
    ply = state.ply + 1
    if ply > COUNTER_MAX or idle > COUNTER_MAX:
        # The native engine's counters end there: both engines refuse alike.
        counter = "ply" if ply > COUNTER_MAX else "idle"
        raise InvalidPositionError(f"{counter} cannot count past {COUNTER_MAX}")
    state_class, setters = STATE_SLOTS
    (
        set_rules,
        set_players,
        set_markers,
        set_chevrons,
        set_to_move,
        set_out,
        set_trigger,
        set_idle,
        set_ply,
        set_outcome,
        set_occupied,
        set_last,
        set_moves,
    ) = setters
    new: ChevronState = _new(state_class)
    set_rules(new, state.rules)
    set_players(new, state.players)
    set_markers(new, markers)
    set_chevrons(new, chevrons)
    set_to_move(new, to_move)
    set_out(new, out)
    set_trigger(new, trigger)
    set_idle(new, idle)
    set_ply(new, ply)
    set_outcome(new, outcome)
    set_occupied(new, occupied)
    set_last(new, move)
    set_moves(new, moves)
    return new


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
        d, k = _LINE[f * 81 + t]
        own = markers[seat]
        removed = False
        tbit = 1 << t
        if rules.azacru and k >= 2 and own >> f & 1 and own & tbit:
            between = BETWEEN[f * 81 + t]
            if not between & occupied:  # a connection change, not a jump {A-R7, A-R8, D11}
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
        mine = _moved(chevrons[seat], f, None if removed else t * 8 + (d + move.twist) % 8)
        chevrons = (*chevrons[:seat], mine, *chevrons[seat + 1 :])
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
    return successor(
        state, move, marks, chevrons, nxt, occupied, state.out, trigger, idle, outcome, None
    )


def _place(markers: list[int], seat: int, field: int) -> None:
    bit = BIT[field]
    for i in range(len(markers)):
        if markers[i] & bit:  # at most one colour holds the field
            markers[i] ^= bit
            break
    markers[seat] |= bit


def _moved(codes: tuple[int, ...], field: int, new: int | None) -> tuple[int, ...]:
    """``codes`` with the chevron on ``field`` replaced by code ``new`` (None: removed),
    still sorted. Codes sort by field, so a bisection finds it."""
    i = _bisect_left(codes, field * 8)
    rest = list(codes)
    del rest[i]
    if new is not None:
        _insort(rest, new)
    return tuple(rest)


def _resolve_pacru(state: ChevronState, move: Move) -> ChevronState:
    rules = state.rules
    seat = state.to_move
    players = state.players
    n = len(players)
    markers = list(state.markers)
    chevrons = state.chevrons
    mine = chevrons[seat]
    occupied = state.occupied
    supply = SUPPLY_BY_PLAYERS[n] - markers[seat].bit_count()
    f = move.origin
    assert f is not None
    t = move.target
    if t is None:  # reorientation {R14}
        own = markers[seat]
        for field in move.relinquished:
            own &= ~BIT[field]
        markers[seat] = own
        facing = mine[_bisect_left(mine, f * 8)] & 7
        mine = _moved(mine, f, f * 8 + (facing + move.turn) % 8)
    else:
        d, k = _LINE[f * 81 + t]
        if move.capture:  # a. pincer {R11}
            chevrons = tuple(
                c if i == seat else tuple(x for x in c if x >> 3 != t)
                for i, c in enumerate(chevrons)
            )
            if not markers[seat] >> t & 1:
                _place(markers, seat, t)
                supply -= 1
        # b. the move itself {R3}
        mine = _moved(mine, f, t * 8 + d)
        occupied = occupied ^ BIT[f] | BIT[t]  # the chevron has left f (occupied) for t
        # c.-e. the chosen benefit {R4, R6, R8, R10}
        if supply > 0 and move.connection:
            for field in RAYS[f][d][: k - 1]:
                if not markers[seat] >> field & 1:
                    _place(markers, seat, field)
                    supply -= 1
                    if supply == 0:
                        break
        marker = move.marker
        if supply > 0 and marker is not None:
            _place(markers, seat, marker)
            supply -= 1
        # f. meeting {R12}
        meeting = move.meeting
        if supply > 0 and meeting is not None:
            _place(markers, seat, meeting)
            supply -= 1
    marks = tuple(markers)
    chevs = (*chevrons[:seat], mine, *chevrons[seat + 1 :])
    if supply <= 0:  # g. {R16b, D29, D31}
        # A pincer that also took an opponent's last chevron puts them out as well (D28, D31).
        return successor(
            state,
            move,
            marks,
            chevs,
            seat,
            occupied,
            without_chevrons(chevs, state.out),
            state.trigger,
            0,
            Outcome(Termination.SUPPLY_EXHAUSTED, (players[seat],)),
            None,
        )
    chevs, out, nxt, occupied, outcome, moves = start_turn(
        rules, players, marks, chevs, state.out, (seat + 1) % n, occupied
    )
    if outcome is None and rules.move_cap is not None and state.ply + 1 >= rules.move_cap:
        outcome = Outcome(Termination.MOVE_CAP, ())
        moves = None
    return successor(
        state, move, marks, chevs, nxt, occupied, out, state.trigger, 0, outcome, moves
    )
