"""``ChevronState.status()``: what about a chevron-game position play cannot reach.

See :class:`pacru.Status` for the flags; a position reached by play from
:func:`pacru.new_game` is always ``Status.VALID``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacru._status import Status
from pacru.chevron.rules import SUPPLY

if TYPE_CHECKING:
    from pacru.chevron.state import ChevronState

__all__ = ["position_status"]


def position_status(state: ChevronState) -> Status:
    """The :class:`pacru.Status` flags of ``state`` {L1, S-R1, A-R1, R1, D29, D33}."""
    from pacru.chevron.position import adjudication

    rules, players = state.rules, state.players
    n = len(players)
    flags = Status.VALID
    if any(len(codes) > (4 if n == 2 else 3) for codes in state.chevrons):
        flags |= Status.TOO_MANY_CHEVRONS
    if rules.pacru and any(m.bit_count() > SUPPLY[n] for m in state.markers):
        flags |= Status.MARKERS_ABOVE_SUPPLY
    if rules.lookahead_end:
        if state.idle > state.ply:
            flags |= Status.IDLE_ABOVE_PLY
        for seat, codes in enumerate(state.chevrons):
            others = sum(m for i, m in enumerate(state.markers) if i != seat)
            if any(others >> (code >> 3) & 1 for code in codes):
                flags |= Status.CHEVRON_ON_OPPONENT_MARKER
                break
    if state.outcome is None:
        # Azacru chevrons can be removed by a connection and their owner passes: not a problem.
        if not rules.azacru and not state.chevrons[state.to_move]:
            flags |= Status.NO_CHEVRONS_TO_MOVE
        *_, outcome = adjudication(
            rules,
            players,
            state.markers,
            state.chevrons,
            state.out,
            state.to_move,
            state.occupied,
            state.trigger,
            state.idle,
            state.ply,
        )
        if outcome is not None:
            flags |= Status.UNADJUDICATED_END
        elif not state.legal_moves():
            flags |= Status.NO_LEGAL_MOVE
    return flags
