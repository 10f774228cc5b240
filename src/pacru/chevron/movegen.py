"""Legal move generation for the chevron games: one engine, switched by :class:`Rules`.

Rules implemented here, by ID (the game pages of the docs state them):

* Moving forwards only, ending facing the direction of travel {G4, S-R3, L4, R3}.
* Power of movement: own fields in the starting borderland, the chevron's own
  field included, at least 1 {A-R4, R5, D39}; always 1 in Lilacru/Shacru.
* Long moves in a straight line over markers of any colour, never over a
  chevron {A-R5, R6, R7, D8}, except a connection jump {A-R8, R9}.
* Never onto a chevron or another player's colour {S-R5, L6, A-R9, R7, D41};
  onto one's own colour is allowed and gains nothing (D6).
* The borderland twist on every crossing move {S-R4, A-R6, D3, D4, D42}, none
  for an Azacru chevron removed by its own connection or once the Azacru end is
  triggered (D5).
* Pacru: pincer {R11, D18, D19}, connection or crossing choice {R8, D13},
  borderland change {R4, R6, D14, D15} or transformation {R10, D16} judged
  after a capture (D17), meeting {R12, D21-D23, D46, D47}, the supply cap
  {R16b, D29} and reorientation {R14, D25, D26}.

The functions see only integers and bitboards (see :mod:`pacru.geometry`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from pacru.chevron.families import (
    Choices,
    Option,
    Step,
    make_move,
    nth_field,
    option_move,
    options_size,
)
from pacru.chevron.move import Move
from pacru.chevron.movelist import LegalMoves, new_legal_moves
from pacru.chevron.rules import SUPPLY_BY_PLAYERS, Rules
from pacru.geometry import (
    BETWEEN,
    BIT,
    BORDERLAND,
    BORDERLAND_MASK,
    FORWARD,
    NEIGHBOUR,
    RAYS,
    bits,
)

__all__ = [
    "Step",
    "after_capture",
    "benefit_fields",
    "crossing_options",
    "generate",
    "power_of_movement",
    "raw_steps",
]

_FULL: Final = (1 << 81) - 1
_TWISTS: Final[tuple[int, ...]] = (0, -1, 1)
_NO_TWIST: Final[tuple[int, ...]] = (0,)
#: The choices of a Lilacru/Shacru/Azacru step, shared by every family.
_TWIST_OPTIONS: Final[Mapping[tuple[int, ...], tuple[Option, ...]]] = MappingProxyType(
    {tw: tuple((t, False, -1, 0) for t in tw) for tw in (_TWISTS, _NO_TWIST)}
)


def _near(code: int) -> tuple[tuple[int, int, Step, Step], ...]:
    f = code >> 3
    return tuple(
        (t, BIT[t], (f, t, d, 1, False, False), (f, t, d, 1, False, True))
        for d in FORWARD[code & 7]
        if (t := NEIGHBOUR[f][d]) >= 0
    )


#: ``_NEAR[code]``: for each forward neighbour on the board of a chevron ``code = field
#: * 8 + facing``, in the order of FORWARD {G4}: (field, its bit, the one-field step
#: there, the pincer attack on it). The step tuples are built once and shared by every
#: list (they are immutable).
_NEAR: Final[tuple[tuple[tuple[int, int, Step, Step], ...], ...]] = tuple(
    _near(code) for code in range(81 * 8)
)
#: ``_NEAR_MASK[code]``: the bitboard of those neighbours.
_NEAR_MASK: Final[tuple[int, ...]] = tuple(sum(n[1] for n in near) for near in _NEAR)
#: ``_NEAR_STEPS[code]``: the one-field steps onto all of them, when none is blocked.
_NEAR_STEPS: Final[tuple[tuple[Step, ...], ...]] = tuple(
    tuple(n[2] for n in near) for near in _NEAR
)
#: The borderland bitboard of each field's own borderland {G2}.
_LAND_OF: Final[tuple[int, ...]] = tuple(BORDERLAND_MASK[BORDERLAND[f]] for f in range(81))

#: ``_PARTNER[target * 8 + direction]``: the code (``field * 8 + facing``) of the
#: chevron that a chevron arriving on ``target`` travelling ``direction`` meets: on the
#: next field that way, facing back (D21); -1 at the edge {R12}.
_PARTNER: Final[tuple[int, ...]] = tuple(
    -1 if NEIGHBOUR[t][d] < 0 else NEIGHBOUR[t][d] * 8 + (d ^ 4)
    for t in range(81)
    for d in range(8)
)

#: ``_FORWARD_RAYS[code]``: (direction, ray) of each forward direction of a chevron
#: ``code = field * 8 + facing``, in the order of FORWARD {G4, G5}.
_FORWARD_RAYS: Final[tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]] = tuple(
    tuple((d, RAYS[code >> 3][d]) for d in FORWARD[code & 7]) for code in range(81 * 8)
)


def power_of_movement(rules: Rules, own: int, field: int) -> int:
    """Power of movement of a chevron of colour ``own`` on ``field`` {A-R4, R5, D39}.

    ``own`` is the mover's marker bitboard. 1 in games without power.
    """
    if not rules.power:
        return 1
    return (own & BORDERLAND_MASK[BORDERLAND[field]]).bit_count() or 1


def raw_steps(
    rules: Rules,
    markers: tuple[int, ...],
    chevrons: tuple[tuple[int, ...], ...],
    seat: int,
    occupied: int,
    marked: int = -1,
) -> list[Step]:
    """Every legal chevron step of ``seat`` (pincers included), before choices.

    ``marked``: the bitboard of every marked field, when the caller has it (-1:
    worked out here).

    Order: chevrons ascending by field, directions (left, straight, right),
    distances ascending; pincers follow the plain steps of their attacker's
    direction in the same order.
    """
    own = markers[seat]
    if marked < 0:
        marked = _all_marked(markers)
    other = marked ^ own  # the colours are disjoint: own is part of it
    blocked = occupied | other
    own_occ = -1  # the own chevrons' fields, worked out when a pincer is first in question
    power = rules.power
    pacru = rules.pacru
    steps: list[Step] = []
    attacks: dict[int, list[Step]] | None = None  # by victim's field; made when first needed
    for code in chevrons[seat]:
        f = code >> 3
        pom = ((own & _LAND_OF[f]).bit_count() or 1) if power else 1
        if pom == 1:  # the common case: only the first field of each forward ray
            if not _NEAR_MASK[code] & blocked:
                steps.extend(_NEAR_STEPS[code])  # every neighbour free: the usual case
                continue
            for t, bit, step, attack in _NEAR[code]:
                if occupied & bit:
                    if pacru and own_occ < 0:
                        own_occ = _fields_of(chevrons[seat])
                    if pacru and not own_occ & bit:
                        if attacks is None:
                            attacks = {}
                        attacks.setdefault(t, []).append(attack)
                elif not other & bit:
                    steps.append(step)
            continue
        from_own = own >> f & 1
        for d, ray in _FORWARD_RAYS[code]:
            jumped = False
            for k, t in enumerate(ray[:pom], 1):
                bit = BIT[t]
                if occupied & bit:
                    if pacru and own_occ < 0:
                        own_occ = _fields_of(chevrons[seat])
                    if pacru and not jumped and not own_occ & bit:
                        if attacks is None:
                            attacks = {}
                        attacks.setdefault(t, []).append((f, t, d, k, False, True))
                    if not (power and from_own):
                        break
                    jumped = True
                elif other & bit:
                    continue
                elif jumped:
                    if own & bit:
                        steps.append((f, t, d, k, True, False))
                else:
                    steps.append((f, t, d, k, False, False))
    if attacks is None:
        return steps
    pincers = False
    for attackers in attacks.values():
        if len(attackers) >= 2:  # a pincer needs two attackers {R11}
            steps.extend(attackers)
            pincers = True
    if pincers:  # plain steps are already in order; the sort is stable
        steps.sort(key=_step_order(chevrons[seat]))
    return steps


def _all_marked(markers: tuple[int, ...]) -> int:
    """The bitboard of every marked field (one bitwise operation per player but the first:
    an operation on an 81-bit int, a multi-digit int in CPython, is the costly part)."""
    marked = markers[0]
    for i in range(1, len(markers)):
        marked |= markers[i]
    return marked


def _fields_of(codes: tuple[int, ...]) -> int:
    """The bitboard of the fields of chevrons with these codes."""
    fields = 0
    for code in codes:
        fields |= BIT[code >> 3]
    return fields


def _step_order(own_chevrons: tuple[int, ...]) -> Callable[[Step], tuple[int, int, int, bool]]:
    order = {code >> 3: i for i, code in enumerate(own_chevrons)}
    facing = {code >> 3: code & 7 for code in own_chevrons}

    def key(s: Step) -> tuple[int, int, int, bool]:
        return (order[s[0]], (s[2] - facing[s[0]] + 1) % 8, s[3], s[5])

    return key


def _chevron_at(chevrons: tuple[tuple[int, ...], ...], field: int) -> tuple[int, int]:
    """(seat, facing) of the chevron on ``field``; (-1, -1) if none."""
    for seat, codes in enumerate(chevrons):
        for code in codes:
            if code >> 3 == field:
                return seat, code & 7
    return -1, -1


def generate(
    rules: Rules,
    markers: tuple[int, ...],
    chevrons: tuple[tuple[int, ...], ...],
    seat: int,
    occupied: int,
    end_triggered: bool,
) -> LegalMoves:
    """All complete legal moves of ``seat`` (see :mod:`pacru.chevron.movelist` for the order).

    Returns a pass-only list when a Lilacru/Shacru/Azacru player cannot move
    {L3, S-R2, A-R10, D34, D37}, also when they have no chevron left (D50); the
    empty list :meth:`LegalMoves.empty` (that very object) when a Pacru player
    is blocked {R15} (the caller eliminates them). A Shacru/Azacru crossing
    step comes in three twist variants {S-R4, A-R6, D3, D4}, one only once the
    Azacru end is triggered or when the chevron is removed by its own
    connection (D5).
    """
    marked = _all_marked(markers)
    steps = raw_steps(rules, markers, chevrons, seat, occupied, marked)
    if not steps:
        return LegalMoves.empty() if rules.pacru else LegalMoves.pass_only()
    if rules.pacru:
        own = markers[seat]
        supply = SUPPLY_BY_PLAYERS[len(markers)] - own.bit_count()
        own_codes = chevrons[seat]
        ctx = (rules, markers, seat, occupied, own, supply, own_codes, marked)
        # Reorientation {R14}: any own unoccupied fields may be given up (D25); only
        # offered with a chevron step (R14, D26), which this player has.
        return new_legal_moves(_PacruChoices(tuple(steps), ctx), own_codes, own & ~occupied)
    return new_legal_moves(_PlainChoices(tuple(steps), rules, markers, seat, end_triggered))


class _PlainChoices(Choices):
    """Lilacru, Shacru, Azacru: a step's only choice is the twist {S-R4, A-R6, D3-D5}."""

    __slots__ = ("_end_triggered", "_markers", "_rules", "_seat")

    _rules: Rules
    _markers: tuple[int, ...]
    _seat: int
    _end_triggered: bool

    def __init__(
        self,
        steps: tuple[Step, ...],
        rules: Rules,
        markers: tuple[int, ...],
        seat: int,
        end_triggered: bool,
    ) -> None:
        self.steps = steps
        self._rules = rules
        self._markers = markers
        self._seat = seat
        self._end_triggered = end_triggered

    def options(self, index: int) -> tuple[Option, ...]:
        return _TWIST_OPTIONS[self._twists(index)]

    def move(self, index: int, choice: int) -> Move:
        # A step's only choice is its twist: decoded without building the options.
        step = self.steps[index]
        return make_move(step[0], step[1], False, self._twists(index)[choice], 0, False, None, None)

    def size(self, index: int) -> int:
        return len(self._twists(index))

    def offsets(self) -> list[int]:
        # Every list is counted (len() of a random playout): one pass over the steps.
        if not self._rules.twist or self._end_triggered:
            return list(range(len(self.steps) + 1))  # no twist: one move a step (_twists)
        twists = self._twists
        out = [0]
        total = 0
        for i in range(len(self.steps)):
            total += len(twists(i))
            out.append(total)
        return out

    def _twists(self, index: int) -> tuple[int, ...]:
        step = self.steps[index]
        f, t = step[0], step[1]
        if not self._rules.twist or BORDERLAND[f] == BORDERLAND[t] or self._end_triggered:
            return _NO_TWIST
        markers = self._markers
        own = markers[self._seat]
        if (
            self._rules.azacru
            and _connection(own, f, t, step[3], step[4], False)
            and BETWEEN[f * 81 + t] & (_all_marked(markers) ^ own)
        ):
            return _NO_TWIST  # removed by its own connection: nothing to twist (D5)
        return _TWISTS


def crossing_options(
    dest_land: int, marked_after: int, own_after: int, occupied_after: int, target: int
) -> tuple[int, bool]:
    """Fields the Pacru crossing benefit may go on, and whether it is a transformation.

    Judged on the board after the move (and capture, D17): a borderland change
    on any neutral field of the destination borderland that is unoccupied or
    the landing field {R4, R6, D15}; else, when the borderland has no neutral
    field at all, a transformation of an unoccupied non-own field {R10, D16};
    else nothing (D14). Returns (bitboard of fields, is_transformation).
    """
    # Every operation with an 81-bit board as operand is costly (a multi-digit int), so
    # each board meets the borderland once and the rest works on subsets of the borderland.
    land = BORDERLAND_MASK[dest_land]
    taken = land & marked_after
    if taken != land:
        neutral = land ^ taken
        return (neutral ^ (neutral & occupied_after)) | (neutral & BIT[target]), False
    free = land ^ (land & occupied_after)
    return free ^ (free & own_after), True


#: What every step of one position shares: rules, markers, seat, occupied, own, supply,
#: own chevron codes, all marked fields.
_Context = tuple[Rules, tuple[int, ...], int, int, int, int, tuple[int, ...], int]


class _PacruChoices(Choices):
    """The choices of Pacru steps, worked out (or counted) step by step when asked for."""

    __slots__ = ("_context",)

    _context: _Context

    def __init__(self, steps: tuple[Step, ...], context: _Context) -> None:
        self.steps = steps
        self._context = context

    def options(self, index: int) -> tuple[Option, ...]:
        return _step_options(self._context, self.steps[index])

    def move(self, index: int, choice: int) -> Move:
        # Builds only the move asked for. A plain step (no pincer, no possible meeting,
        # markers left in the supply) offers its _benefits alone: the connection change
        # first, then the crossing fields ascending; anything else is decoded from the
        # step's built choices (_step_options).
        ctx = self._context
        step = self.steps[index]
        f, t, d, _k, _jumped, capture = step
        if capture or ctx[5] <= 0 or _meeting_partner(ctx[6], t, d) >= 0:
            return option_move(f, t, capture, _step_options(ctx, step), choice)
        own = ctx[4]
        conn, fields = _benefits(own, own, ctx[7], ctx[3], step)
        if conn:
            if choice == 0:
                return make_move(f, t, False, 0, 0, True, None, None)
            choice -= 1
        if fields:
            return make_move(f, t, False, 0, 0, False, nth_field(fields, choice), None)
        return make_move(f, t, False, 0, 0, False, None, None)

    def size(self, index: int) -> int:
        return _step_offsets(self._context, (self.steps[index],))[1]

    def offsets(self) -> list[int]:
        return _step_offsets(self._context, self.steps)


def after_capture(
    markers: tuple[int, ...], seat: int, occupied: int, origin: int, target: int, capture: bool
) -> tuple[tuple[int, ...], int, int, int]:
    """The Pacru board after steps a. and b. of the resolution order (D30).

    A pincer changes the victim's field to the mover's colour {R11}, then the
    chevron moves. Returns (markers, mover's bitboard, bitboard of all marked
    fields, occupied bitboard), the board on which the crossing benefit is
    judged (D17).
    """
    own = markers[seat]
    tbit = BIT[target]
    if capture and not own & tbit:
        own |= tbit
        markers = tuple(own if i == seat else m & ~tbit for i, m in enumerate(markers))
    return markers, own, _all_marked(markers), (occupied & ~BIT[origin]) | tbit


_SUPPLY_DONE: Final[tuple[Option, ...]] = ((0, False, -1, 0),)


def _connection(own: int, f: int, t: int, k: int, jumped: bool, capture: bool) -> bool:
    """Whether a step from ``f`` to ``t`` over ``k`` fields is a connection change: a long
    move, without a jump, from and to own fields (``own``) {A-R7, R8, D13}; a chevron
    in between makes it a connection jump, which changes no field (A-R8, R9, D11). A
    pincer is no connection. (The step's parts, not the tuple: no tuple is built a call.)"""
    return not capture and k >= 2 and not jumped and bool(own & BIT[f]) and bool(own & BIT[t])


def _benefits(own: int, own_a: int, marked_a: int, occupied: int, step: Step) -> tuple[bool, int]:
    """What a Pacru step offers besides a meeting: (connection change, crossing fields).

    The connection change is :func:`_connection` (``own``: the mover's fields
    before the move). The crossing fields are those of
    :func:`crossing_options` on the board after the capture and the move
    (D17): ``own_a`` and ``marked_a`` are the mover's and all marked fields
    after the capture, ``occupied`` the occupancy before the move. The one
    source of both rules for listing, counting and decoding the choices.
    """
    f, t, _d, k, jumped, capture = step
    conn = _connection(own, f, t, k, jumped, capture)
    land = BORDERLAND[t]
    if BORDERLAND[f] == land:
        return conn, 0
    # The board after the move has the chevron on t, not on f; f lies outside the
    # destination borderland, the only fields crossing_options looks at.
    return conn, crossing_options(land, marked_a, own_a, occupied | BIT[t], t)[0]


def _meeting_partner(own_codes: tuple[int, ...], target: int, direction: int) -> int:
    """The field of the own chevron the moved one would meet, or -1 {R12}.

    A meeting needs the moved chevron to face an own chevron facing back (D21).
    """
    partner = _PARTNER[target * 8 + direction]
    return partner >> 3 if partner >= 0 and partner in own_codes else -1


def _step_options(ctx: _Context, step: Step) -> tuple[Option, ...]:
    """The choices of one Pacru step: benefit and meeting field {R4-R12, D13-D23, D29}."""
    rules, markers, seat, occupied, own, supply, own_codes, _marked = ctx
    f, t, d, _k, _jumped, capture = step
    victim_markers, own_a, marked_a, occ_a = after_capture(markers, seat, occupied, f, t, capture)
    left = supply - (own_a != own)  # the pincer's marker comes from the supply
    if left <= 0:  # R16b: the capture placed the last marker; nothing more to choose
        return _SUPPLY_DONE
    conn, fields = _benefits(own, own_a, marked_a, occupied, step)
    benefits: list[tuple[bool, int]] = [(True, -1)] if conn else []  # (connection, field)
    for field in bits(fields):
        benefits.append((False, field))
    if not benefits:
        benefits.append((False, -1))
    n = _meeting_partner(own_codes, t, d)
    options: list[Option] = []
    for conn, field in benefits:
        meet = 0
        if n >= 0:
            meet = _meeting_fields(
                rules, victim_markers, seat, own_a, occ_a, left, f, t, n, conn, field
            )
        options.append((0, conn, field, meet))
    return tuple(options)


def _step_offsets(ctx: _Context, steps: tuple[Step, ...]) -> list[int]:
    """Where each Pacru step's moves start, from 0, counted without building the choices.

    The same rules as :func:`_step_options` (a test checks the two agree on
    random games): a plain step offers the connection change {R8} and each
    crossing field {R4, R6, R10} (or nothing: one move); pincers and steps
    that may end in a meeting (rare) are counted on their built choices.
    """
    _rules, _markers, _seat, occupied, own, supply, own_codes, marked = ctx
    mine = frozenset(own_codes)  # a hashed lookup per step, not a comparison per chevron
    out = [0]
    total = 0
    for step in steps:
        f, t, d, k, jumped, capture = step
        partner = _PARTNER[t * 8 + d]  # _meeting_partner, inlined: this loop is the hot path
        if capture or supply <= 0 or (partner >= 0 and partner in mine):
            total += options_size(_step_options(ctx, step))  # not plain (see move)
        elif (k == 1 or jumped) and BORDERLAND[f] == BORDERLAND[t]:
            total += 1  # neither a crossing nor a connection change can be offered
        else:
            conn, fields = _benefits(own, own, marked, occupied, step)
            total += (conn + fields.bit_count()) or 1
        out.append(total)
    return out


def benefit_fields(own_a: int, origin: int, target: int, conn: bool, field: int) -> int:
    """The fields a chosen benefit turns to the mover's colour, as a bitboard.

    A connection change: the intervening fields not already the mover's
    (``own_a``, after any capture) {R8}; a crossing marker: its ``field``
    {R4, R6, R10}; nothing (0) for ``field`` -1 without a connection. Each
    field takes a marker from the supply, and an empty supply ends the move
    there (D29): the one count for the move generator and the legality check.
    """
    if conn:
        return BETWEEN[origin * 81 + target] & ~own_a
    return BIT[field] if field >= 0 else 0


def _meeting_fields(
    rules: Rules,
    markers: tuple[int, ...],
    seat: int,
    own_a: int,
    occ_a: int,
    left: int,
    origin: int,
    target: int,
    partner: int,
    conn: bool,
    field: int,
) -> int:
    """Bitboard of the fields a meeting may change after this benefit; 0 for no meeting.

    {R12}; the pair must be on own fields after the move's other effects
    (D21), the 2011 threshold counts every other colour after those effects
    (D22), targets are unoccupied non-own fields and the meeting is compulsory
    when one exists (D23); no meeting once the supply is exhausted (D29).
    """
    changed = benefit_fields(own_a, origin, target, conn, field)
    left -= changed.bit_count()
    if left <= 0:
        return 0
    own_b = own_a | changed
    if not (own_b >> target & 1 and own_b >> partner & 1):
        return 0
    if rules.meeting_rule == "2011":
        best = 0
        for i, m in enumerate(markers):
            if i != seat:
                best = max(best, (m & ~changed).bit_count())
        if best < 9:
            return 0
    return _FULL & ~occ_a & ~own_b
