"""The action layout and decisions shared by the four chevron games.

One layout serves Lilacru, Shacru, Azacru and Pacru (each game uses a subset),
so that one network can be trained across them. A move is chosen in up to six
decisions, in this order:

==========  ======================================================  ===========
decision    what is chosen                                          actions
==========  ======================================================  ===========
origin      the chevron to move (its field), or ``pass``            0, 1..81
target      the step's target field (a pincer's victim's field      82..162,
            {R11}), or the reorientation's turn {R14}               163..166
twist       the borderland twist {S-R4, A-R6}: ``<``, none, ``>``   167..169
benefit     Pacru: no benefit, the connection change {R8}, or       170, 171,
            the border-crossing marker field {R4, R6, R10}          172..252
meeting     Pacru: the field the meeting changes {R12}              253..333
relinquish  Pacru: one field given up by a reorientation {R14},     334..414
            in ascending order, one per decision
==========  ======================================================  ===========

Why this shape:

* The choices of a move are taken in the order the notation writes them
  (``e3xe4+e6@i9``, ``d9>>(c4,b5,a7,b7)``), so every decision has at most 82
  legal actions and the complete moves (hundreds of thousands in a Pacru
  position) are never listed: each decision is worked out from the move
  families of :meth:`pacru.ChevronState.legal_moves` (origin, target, turn,
  options, fields, cost).
* Each block of actions means one thing whatever the decision, so a policy
  head learns one meaning per output; a field appears in its own block as
  origin, target, marker field, meeting field and relinquished field.
* A step and a pincer never share an origin and a target (a pincer's target
  holds the victim, a step's target is empty {R11, S-R5}), so the target
  field alone tells them apart.
* Relinquished fields are chosen one at a time in ascending field order: the
  legal next fields are those after the last one chosen that still leave
  enough fields for the rest, so every set is reached exactly once without
  enumerating the ``C(n, 4)`` sets.

**Forced decisions are skipped.** The first decision of a move (origin or
pass) is always asked, even with a single legal action, so every move takes at
least one action. Every later decision with a single legal action is taken
automatically: it is not asked, does not appear in :attr:`Decision.prefix` or
in :meth:`Encoding.actions`, and Lilacru therefore never sees a twist or a
benefit decision. Exactness does not depend on it: each legal move is reached
by exactly one action sequence either way.
"""

from __future__ import annotations

from functools import partial
from math import comb
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from pacru._integers import integer
from pacru.chevron.move import _TURN_TEXT  # the move grammar's turn marks {R14}
from pacru.chevron.movelist import LegalMoves, ReorientationFamily, StepFamily
from pacru.chevron.rules import SUPPLY
from pacru.chevron.state import ChevronState
from pacru.encoding._native import NATIVE_DECISION as _NATIVE_DECISION
from pacru.encoding._native import STATE_CLASSES as _STATE_CLASSES
from pacru.encoding._native import decision_layout as _decision_layout
from pacru.encoding.base import Decision, Encoding, register, seat_index
from pacru.games import CHEVRON_GAMES
from pacru.geometry import FIELD_NAMES, Direction, bits

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from pacru.base import GameState
    from pacru.chevron.move import Move

__all__ = [
    "BENEFIT_CONNECTION",
    "BENEFIT_NONE",
    "MARKER",
    "MEETING",
    "NUM_ACTIONS",
    "ORIGIN",
    "PASS",
    "RELINQUISH",
    "TARGET",
    "TURN",
    "TURNS",
    "TWIST",
    "ChevronEncoding",
]

#: The pass {S-R2, A-R10}.
PASS: Final = 0
#: ``ORIGIN + f``: move (or reorient) the chevron on field ``f``.
ORIGIN: Final = 1
#: ``TARGET + f``: step to (or take the chevron on) field ``f``.
TARGET: Final = 82
#: ``TURN + i``: reorient by ``TURNS[i]`` 45-degree steps (clockwise positive) {R14}.
TURN: Final = 163
#: The turns of the TURN block, in action order.
TURNS: Final = (-2, -1, 1, 2)
#: ``TWIST + t + 1``: twist ``t`` in (-1, 0, +1) after a border crossing {S-R4, A-R6}.
TWIST: Final = 167
#: No Pacru benefit (nothing to choose).
BENEFIT_NONE: Final = 170
#: The Pacru connection change ``*`` {R8}.
BENEFIT_CONNECTION: Final = 171
#: ``MARKER + f``: the border-crossing marker goes on field ``f`` {R4, R6, R10}.
MARKER: Final = 172
#: ``MEETING + f``: the meeting changes field ``f`` {R12}.
MEETING: Final = 253
#: ``RELINQUISH + f``: the reorientation gives up field ``f`` {R14}.
RELINQUISH: Final = 334
#: The size of the chevron action space, the same for all four games.
NUM_ACTIONS: Final = 415

_TURN_INDEX: Final = {t: i for i, t in enumerate(TURNS)}
_MAX_DECISIONS: Final = {"lilacru": 2, "shacru": 3, "azacru": 3, "pacru": 6}
_KINDS: Final = ("origin", "target", "twist", "benefit", "meeting", "relinquish")
_GAME_INDEX: Final = {"lilacru": 0, "shacru": 1, "azacru": 2, "pacru": 3}
#: Ply scale of the observation's ply plane when the game has no bound.
UNBOUNDED_PLY_SCALE: Final = 1000

# Stages of a move being chosen (indices into _KINDS); DONE after the last.
_ORIGIN, _TARGET, _TWIST, _BENEFIT, _MEETING, _RELINQUISH, _DONE = range(7)


Family = StepFamily | ReorientationFamily
#: What has been fixed so far of a chevron move, a plain tuple for speed (a few
#: are built per ply): (stage, legal moves, origin or -1, family or None,
#: indices of the step options still possible, twist or -2, benefit action or
#: -1, meeting field or -1, positions in family.fields of the relinquished fields).
_Cursor = tuple[
    int, LegalMoves, int, Family | None, tuple[int, ...], int, int, int, tuple[int, ...]
]


def _benefit_action(option: tuple[int, bool, int, int]) -> int:
    _, conn, marker, _ = option
    if conn:
        return BENEFIT_CONNECTION
    return BENEFIT_NONE if marker < 0 else MARKER + marker


class ChevronEncoding(Encoding):
    """The encoding of Lilacru, Shacru, Azacru or Pacru (see the module docstring).

    ``observation_shape`` is ``(13 * players + 25, 9, 9)``: planes of 9 ranks by
    9 files (``obs[c, rank - 1, file]``, a1 at ``[c, 0, 0]``), listed in
    :meth:`plane_names`.
    """

    def __init__(self, game: str, players: int, **options: Any) -> None:
        from pacru.chevron.setup import new_game

        # Builds the start to check every option as new_game does (ValueError naming it).
        rules = new_game(game, players, **options).rules
        self.game = game
        self.players = players
        self.options = MappingProxyType(dict(options))
        self.rules = rules
        self.num_actions = NUM_ACTIONS
        self.max_decisions = _MAX_DECISIONS[game]
        self.observation_shape = (13 * players + 25, 9, 9)
        if rules.lookahead_end:
            # At most 81 acquisitions, each within idle_rounds full rounds (D33).
            self.max_game_length: int | None = 82 * rules.idle_rounds * players
        else:
            self.max_game_length = rules.move_cap  # D32; None: unbounded
        self._ply_scale = float(self.max_game_length or UNBOUNDED_PLY_SCALE)
        self._idle_scale = float(rules.idle_rounds * players)
        # Native lists are decided natively (pacru_batch::decision), bit for bit as the cursors
        # below (tests/native/test_decisions.py); None: no native engine. Any: not for mypy.
        supply = SUPPLY[players] if rules.pacru else 0
        self._native: Any = _decision_layout(
            players, _GAME_INDEX[game], self._ply_scale, self._idle_scale, supply, rules
        )
        self._frozen = True

    # -- decisions ------------------------------------------------------------------------

    def start(self, state: GameState[Any]) -> Decision:
        native = self._native
        if native is not None:
            # A NativeDecision (a Decision by registration); the extension checks the state
            # as below (the engine's own class, these rules, a game under way, a legal move),
            # so this call is the only Python of nearly every start. None: anything else.
            decision: Decision | None = native.start(self, state)
            if decision is not None:
                return decision
            if state.__class__ not in _STATE_CLASSES:
                # A user's subclass: checked, then decided natively if a native state.
                self._check_state(state)
                decision = native.start_checked(self, state)
                if decision is not None:
                    return decision
        rules = self.rules
        engines = state.__class__ in _STATE_CLASSES  # an engine's own class: a ChevronState
        if (
            not engines
            or state.outcome is not None
            or len(state.players) != self.players
            or not (state.rules is rules or state.rules == rules)  # type: ignore[attr-defined]
        ):
            self._check_state(state)
        chevron: ChevronState = state  # type: ignore[assignment]
        moves = chevron.legal_moves()
        if moves.is_pass:
            legal: tuple[int, ...] = (PASS,)
        else:
            # ORIGIN is 1: the origin action is the field plus one.
            legal = tuple(map(_PLUS_ONE, _origins(moves)))
            if not legal:
                self._refuse_no_legal_move(state)
        cursor: _Cursor = (_ORIGIN, moves, -1, None, (), -2, -1, -1, ())
        return _new_tuple(
            Decision, (self, state, chevron.to_move, (), legal, "origin", None, cursor)
        )

    def _choose(self, decision: Decision, action: int) -> Decision:
        c: _Cursor = decision[7]
        prefix = decision[3] + (action,)
        stage = c[0]
        if stage == _ORIGIN:
            if action == PASS:
                return self._finish(decision, prefix, c)
            return self._target_stage(decision, prefix, c[1], action - ORIGIN)
        if stage == _TARGET:
            origin = c[2]
            chosen_family = _family(c[1], origin, c[4].index(action))
            if isinstance(chosen_family, StepFamily):
                return self._option_stage(decision, prefix, c[1], origin, chosen_family)
            return self._relinquish_stage(decision, prefix, c[1], origin, chosen_family, ())
        fam = c[3]
        if stage == _RELINQUISH:
            assert isinstance(fam, ReorientationFamily)
            chosen = (*c[8], fam.fields.index(action - RELINQUISH))
            return self._relinquish_stage(decision, prefix, c[1], c[2], fam, chosen)
        assert isinstance(fam, StepFamily)
        options = fam.options
        if stage == _TWIST:
            twist = action - TWIST - 1
            kept = tuple(i for i in c[4] if options[i][0] == twist)
            return self._option_stage(decision, prefix, c[1], c[2], fam, kept, twist)
        if stage == _BENEFIT:
            kept = tuple(i for i in c[4] if _benefit_action(options[i]) == action)
            return self._option_stage(decision, prefix, c[1], c[2], fam, kept, c[5], action)
        # _MEETING
        done: _Cursor = (_DONE, c[1], c[2], fam, c[4], c[5], c[6], action - MEETING, ())
        return self._finish(decision, prefix, done)

    def _ask(
        self, decision: Decision, prefix: tuple[int, ...], c: _Cursor, legal: tuple[int, ...]
    ) -> Decision:
        parts = (self, decision[1], decision[2], prefix, legal, _KINDS[c[0]], None, c)
        return _new_tuple(Decision, parts)

    def _target_stage(
        self, decision: Decision, prefix: tuple[int, ...], moves: LegalMoves, origin: int
    ) -> Decision:
        acts = _family_actions(moves, origin)
        if len(acts) > 1:
            # The families' actions in list order, kept to find the one chosen.
            c: _Cursor = (_TARGET, moves, origin, None, acts, -2, -1, -1, ())
            return self._ask(decision, prefix, c, tuple(sorted(acts)))
        only = _family(moves, origin, 0)
        if isinstance(only, StepFamily):
            return self._option_stage(decision, prefix, moves, origin, only)
        assert isinstance(only, ReorientationFamily)
        return self._relinquish_stage(decision, prefix, moves, origin, only, ())

    def _option_stage(
        self,
        decision: Decision,
        prefix: tuple[int, ...],
        moves: LegalMoves,
        origin: int,
        fam: StepFamily,
        cands: tuple[int, ...] | None = None,
        twist: int = -2,
        benefit: int = -1,
    ) -> Decision:
        """Twist, then benefit, then meeting: ask the first with a choice, take forced ones.

        ``cands`` (None: every option) are the options left after the twist
        and benefit chosen so far (-2 and -1: not chosen yet).
        """
        options = fam.options
        if cands is None:
            n = len(options)
            cands = _RANGES[n] if n < len(_RANGES) else tuple(range(n))
        if len(cands) == 1:  # nothing to choose but perhaps a meeting field: most steps
            twist, _, _, meet = option = options[cands[0]]
            benefit = _benefit_action(option)
        else:
            if twist == -2:
                acts = sorted({TWIST + 1 + options[i][0] for i in cands})
                if len(acts) > 1:
                    c: _Cursor = (_TWIST, moves, origin, fam, cands, -2, -1, -1, ())
                    return self._ask(decision, prefix, c, tuple(acts))
                twist = acts[0] - TWIST - 1
            acts = sorted({_benefit_action(options[i]) for i in cands})
            if len(acts) > 1:
                c = (_BENEFIT, moves, origin, fam, cands, twist, -1, -1, ())
                return self._ask(decision, prefix, c, tuple(acts))
            benefit = acts[0]
            if len(cands) != 1:
                raise AssertionError("a step's twist and benefit fix its option")
            meet = options[cands[0]][3]
        if meet & (meet - 1):  # two or more meeting fields: ask
            c = (_MEETING, moves, origin, fam, cands, twist, benefit, -1, ())
            return self._ask(decision, prefix, c, tuple(MEETING + f for f in bits(meet)))
        # No meeting (-1), or the only meeting field.
        done: _Cursor = (
            _DONE,
            moves,
            origin,
            fam,
            cands,
            twist,
            benefit,
            meet.bit_length() - 1,
            (),
        )
        return self._finish(decision, prefix, done)

    def _relinquish_stage(
        self,
        decision: Decision,
        prefix: tuple[int, ...],
        moves: LegalMoves,
        origin: int,
        fam: ReorientationFamily,
        chosen: tuple[int, ...],
    ) -> Decision:
        fields = fam.fields
        n = len(fields)
        while True:
            need = fam.cost - len(chosen)
            if need == 0:
                done: _Cursor = (_DONE, moves, origin, fam, (), -2, -1, -1, chosen)
                return self._finish(decision, prefix, done)
            first = chosen[-1] + 1 if chosen else 0
            last = n - need  # the last position that leaves enough fields after it
            if last > first:
                c: _Cursor = (_RELINQUISH, moves, origin, fam, (), -2, -1, -1, chosen)
                legal = tuple(RELINQUISH + fields[i] for i in range(first, last + 1))
                return self._ask(decision, prefix, c, legal)
            chosen = (*chosen, first)

    def _finish(self, decision: Decision, prefix: tuple[int, ...], c: _Cursor) -> Decision:
        """The finished decision: the complete move, taken from its family."""
        fam = c[3]
        if fam is None:
            move: Move = c[1][0]  # the pass
            c = (_DONE, c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8])
        elif isinstance(fam, StepFamily):
            (oi,) = c[4]
            meeting = c[7]
            if not oi and meeting < 0:
                move = fam.get(0)
            else:
                index = 0
                options = fam.options
                for i in range(oi):
                    index += options[i][3].bit_count() or 1
                meet = options[oi][3]
                if meet:
                    index += (meet & ((1 << meeting) - 1)).bit_count()
                move = fam.get(index)
        else:
            move = fam.get(_combination_rank(len(fam.fields), fam.cost, c[8]))
        # A move of the list's own family: apply_move takes it as one the list handed out.
        if c[1].__class__ is LegalMoves:
            c[1]._impl.issued = move
        else:  # the native engine's list marks it itself
            c[1]._issue(move)  # type: ignore[attr-defined]
        return _new_tuple(Decision, (self, decision[1], decision[2], prefix, (), "done", move, c))

    def action_to_choice(self, decision: Decision, move: Any) -> int:
        if decision.__class__ is _NATIVE_DECISION:
            native: tuple[int, int] = decision._stage()  # type: ignore[attr-defined]
            stage, chosen = native
        else:
            cursor: _Cursor = decision[7]
            stage, chosen = cursor[0], len(cursor[8])
        m: Move = move
        if stage == _ORIGIN:
            return PASS if m.origin is None else ORIGIN + m.origin
        if stage == _TARGET:
            if m.target is not None:
                return TARGET + m.target
            return TURN + _TURN_INDEX[m.turn] if m.turn in _TURN_INDEX else -1
        if stage == _TWIST:
            return TWIST + m.twist + 1
        if stage == _BENEFIT:
            if m.connection:
                return BENEFIT_CONNECTION
            return BENEFIT_NONE if m.marker is None else MARKER + m.marker
        if stage == _MEETING:
            return -1 if m.meeting is None else MEETING + m.meeting
        if stage == _RELINQUISH and len(m.relinquished) > chosen:
            return RELINQUISH + m.relinquished[chosen]
        return -1

    # -- names ----------------------------------------------------------------------------

    def action_name(self, action: int) -> str:
        """``"pass"``, ``"origin e5"``, ``"target e7"``, ``"turn >>"``, ``"twist <"``,
        ``"benefit none"``, ``"benefit connection"``, ``"marker d9"``, ``"meeting i9"``
        or ``"relinquish c4"``; ``"?"`` outside ``0 .. NUM_ACTIONS - 1``."""
        return _action_name(action)

    def plane_names(self) -> tuple[str, ...]:
        """The name of each observation plane, in order (``"markers seat 0"``, ...)."""
        p = self.players
        names = [f"markers seat {r}" for r in range(p)]
        names += [f"chevrons seat {r} facing {d}" for r in range(p) for d in _DIRS]
        names += ["chosen origin", "chosen target", "chosen marker field", "chosen meeting field"]
        names += ["chosen relinquished fields"]
        names += [f"deciding {k}" for k in _KINDS]
        names += [f"chosen turn {_TURN_TEXT[t]}" for t in TURNS]
        names += ["chosen twist <", "chosen twist none", "chosen twist >"]
        names += ["chosen connection change"]
        names += [f"game {g}" for g in _GAME_INDEX]
        names += [f"to move seat {r}" for r in range(p)]
        names += [f"out seat {r}" for r in range(p)]
        names += [f"end triggered by seat {r}" for r in range(p)]
        names += [f"supply seat {r}" for r in range(p)]
        names += ["idle plies", "ply"]
        return tuple(names)

    # -- observation ----------------------------------------------------------------------

    def observation(self, decision: Decision, player: int) -> npt.NDArray[np.float32]:
        """The observation planes of ``decision`` seen by seat ``player`` (see :meth:`plane_names`).

        Binary planes: markers per seat; chevrons per seat and facing; the
        fields chosen so far (origin, target, marker, meeting, relinquished);
        the decision being taken; the turn, twist and connection chosen; the
        game; the seat to move; seats out {R15}; the seat that triggered the
        Azacru end {A-R10}. Real planes: each seat's Pacru supply left as a
        share of the starting supply {R1}, the idle plies as a share of the
        ``idle_rounds`` limit (D33), and the ply as a share of
        :attr:`max_game_length` (or of 1000 plies when unbounded). Seats are
        rotated: seat ``player`` is seat 0 of the planes.

        Raises:
            ValueError: ``player`` is not a seat index.
        """
        import numpy as np

        p = self.players
        player = seat_index(player, p)
        if decision.__class__ is _NATIVE_DECISION:
            raw: bytearray = decision._observation(player)  # type: ignore[attr-defined]
            return np.frombuffer(raw, dtype=np.float32).reshape(self.observation_shape)
        state: ChevronState = decision.state  # type: ignore[assignment]
        cursor: _Cursor = decision[7]
        packed = 0
        full = _FULL
        for seat in range(p):
            r = (seat - player) % p
            packed |= state.markers[seat] << (81 * r)
            base = p + 8 * r
            for code in state.chevrons[seat]:
                packed |= 1 << (81 * (base + (code & 7)) + (code >> 3))
        d0 = 9 * p
        if cursor[2] >= 0:
            packed |= 1 << (81 * d0 + cursor[2])
        fam = cursor[3]
        if fam is not None:
            if isinstance(fam, StepFamily):
                packed |= 1 << (81 * (d0 + 1) + fam.target)
                if cursor[5] > -2:
                    packed |= full << (81 * (d0 + 16 + cursor[5]))
                b = cursor[6]
                if b >= MARKER:
                    packed |= 1 << (81 * (d0 + 2) + b - MARKER)
                elif b == BENEFIT_CONNECTION:
                    packed |= full << (81 * (d0 + 18))
                if cursor[7] >= 0:
                    packed |= 1 << (81 * (d0 + 3) + cursor[7])
            else:
                packed |= full << (81 * (d0 + 11 + _TURN_INDEX[fam.turn]))
                for pos in cursor[8]:
                    packed |= 1 << (81 * (d0 + 4) + fam.fields[pos])
        if cursor[0] < _DONE:
            packed |= full << (81 * (d0 + 5 + cursor[0]))
        packed |= full << (81 * (d0 + 19 + _GAME_INDEX[self.game]))
        b0 = d0 + 23
        to_move = (state.to_move - player) % p
        packed |= full << (81 * (b0 + to_move))
        for seat in range(p):
            r = (seat - player) % p
            if state.out >> seat & 1:
                packed |= full << (81 * (b0 + p + r))
        if state.trigger >= 0:
            packed |= full << (81 * (b0 + 2 * p + (state.trigger - player) % p))
        nbin = b0 + 3 * p
        flat = np.unpackbits(
            np.frombuffer(packed.to_bytes((81 * nbin + 7) // 8, "little"), dtype=np.uint8),
            count=81 * nbin,
            bitorder="little",
        )
        out = np.empty(self.observation_shape, dtype=np.float32)
        planes = out.reshape(-1, 81)
        planes[:nbin] = flat.reshape(nbin, 81)
        if self.rules.pacru:
            supply = SUPPLY[p]
            for seat in range(p):
                # The target less the markers on the board, so returned markers count (D45).
                left = supply - state.markers[seat].bit_count()
                planes[nbin + (seat - player) % p] = left / supply
        else:
            planes[nbin : nbin + p] = 0.0
        planes[nbin + p] = state.idle / self._idle_scale
        planes[nbin + p + 1] = min(state.ply / self._ply_scale, 1.0)
        return out


def _origins(moves: LegalMoves) -> tuple[int, ...]:
    """The origin field of every family of ``moves``, ascending, once each."""
    if moves.__class__ is LegalMoves:
        return moves._impl.origins()  # without building the families
    return tuple(sorted(set(map(_ORIGIN_OF, moves.families))))


def _family_actions(moves: LegalMoves, origin: int) -> tuple[int, ...]:
    """The target or turn action of each family of the chevron on ``origin``, in list
    order (each family has its own: a step and a pincer never share a target)."""
    if moves.__class__ is LegalMoves:
        targets, turns = moves._impl.origin_families(origin)  # without building them
        steps = tuple(map(_TARGET_OF, targets))
        return (*steps, *(TURN + _TURN_INDEX[t] for t in turns)) if turns else steps
    return tuple(
        TARGET + fam.target if isinstance(fam, StepFamily) else TURN + _TURN_INDEX[fam.turn]
        for fam in moves.families
        if fam.origin == origin
    )


def _family(moves: LegalMoves, origin: int, k: int) -> Family:
    """The ``k``-th family of the chevron on ``origin``, in list order."""
    if moves.__class__ is LegalMoves:
        return moves._impl.origin_family(origin, k)  # building only that one
    return [fam for fam in moves.families if fam.origin == origin][k]


def _combination_rank(n: int, k: int, chosen: tuple[int, ...]) -> int:
    """The lexicographic rank of the ``k``-subset ``chosen`` (ascending positions) of ``n``."""
    rank = 0
    start = 0
    for j, pos in enumerate(chosen):
        for i in range(start, pos):
            rank += comb(n - i - 1, k - j - 1)
        start = pos + 1
    return rank


_FULL: Final = (1 << 81) - 1
# Decisions are tuples underneath (pacru.encoding.base.make_decision), built inline here.
_new_tuple: Final = tuple.__new__
_RANGES: Final = tuple(tuple(range(n)) for n in range(100))
_ORIGIN_OF: Final = attrgetter("origin")
_PLUS_ONE: Final = (1).__add__
_TARGET_OF: Final = TARGET.__add__
_DIRS: Final = tuple(d.name for d in Direction)


def _action_name(action: int) -> str:
    action = integer(action)  # type: ignore[assignment]
    if action is None or not 0 <= action < NUM_ACTIONS:
        return "?"
    if action == PASS:
        return "pass"
    if action < TARGET:
        return f"origin {FIELD_NAMES[action - ORIGIN]}"
    if action < TURN:
        return f"target {FIELD_NAMES[action - TARGET]}"
    if action < TWIST:
        return f"turn {_TURN_TEXT[TURNS[action - TURN]]}"
    if action < BENEFIT_NONE:
        return ("twist <", "twist none", "twist >")[action - TWIST]
    if action == BENEFIT_NONE:
        return "benefit none"
    if action == BENEFIT_CONNECTION:
        return "benefit connection"
    if action < MEETING:
        return f"marker {FIELD_NAMES[action - MARKER]}"
    if action < RELINQUISH:
        return f"meeting {FIELD_NAMES[action - MEETING]}"
    return f"relinquish {FIELD_NAMES[action - RELINQUISH]}"


for _game in CHEVRON_GAMES:
    register(_game, partial(ChevronEncoding, _game))
