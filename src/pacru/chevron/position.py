"""Writing the chevron games' position string, and judging a typed-in position.

The format is described in :mod:`pacru.chevron.notation`, which reads it (and
builds the state); this module sits below :class:`~pacru.ChevronState`, which
writes its own string with :func:`format_position`, and takes the state only
as a value to read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacru.base import Outcome, Termination
from pacru.chevron.ending import lookahead_outcome, start_turn, top_scorers
from pacru.chevron.rules import SUPPLY, Rules
from pacru.geometry import FIELD_NAMES, Direction, bits

if TYPE_CHECKING:
    from pacru.chevron.state import ChevronState

__all__ = ["adjudication", "format_position"]


def format_position(state: ChevronState) -> str:
    """The position string of ``state`` (see the module docstring)."""
    players = state.players
    parts = [state.game, "players=" + ",".join(players), "turn=" + players[state.to_move]]
    groups = [
        p + ":" + ",".join(FIELD_NAMES[f] for f in bits(m))
        for p, m in zip(players, state.markers, strict=True)
        if m
    ]
    parts.append("markers=" + (";".join(groups) or "-"))
    groups = [
        p
        + ":"
        + ",".join(
            FIELD_NAMES[c >> 3] + Direction(c & 7).name for c in sorted(codes, key=lambda c: c >> 3)
        )
        for p, codes in zip(players, state.chevrons, strict=True)
        if codes
    ]
    parts.append("chevrons=" + (";".join(groups) or "-"))
    if state.out:
        parts.append("out=" + ",".join(state.eliminated))
    if state.trigger >= 0:
        parts.append(f"trigger={players[state.trigger]}")
    if state.idle:
        parts.append(f"idle={state.idle}")
    if state.ply:
        parts.append(f"ply={state.ply}")
    parts.extend(f"{k}={v}" for k, v in state.options().items())
    return " ".join(parts)


def adjudication(
    rules: Rules,
    players: tuple[str, ...],
    marks: tuple[int, ...],
    chevs: tuple[tuple[int, ...], ...],
    out: int,
    to_move: int,
    occupied: int,
    trigger: int,
    idle: int,
    ply: int,
) -> tuple[tuple[tuple[int, ...], ...], int, int, int, Outcome | None]:
    """What the rules decide at the start of ``to_move``'s turn in a typed-in position.

    Returns ``(chevrons, out, to_move, occupied, outcome)``: Pacru eliminates
    players without chevrons or without a chevron step {R15, D27} and ends the
    game on a full supply {R16b, D29}, the last player {R16a} or the move cap
    (D32); Azacru ends when the trigger's turn comes round {A-R10, D36} or on the
    move cap; Lilacru and Shacru end by the look-ahead {S-R6, L7, D33}.
    """
    n = len(players)
    outcome: Outcome | None = None
    if rules.pacru:
        full = [s for s in range(n) if marks[s].bit_count() >= SUPPLY[n]]
        if full:
            to_move = full[0]
            outcome = Outcome(Termination.SUPPLY_EXHAUSTED, (players[to_move],))
        else:
            chevs, out, to_move, occupied, outcome, _ = start_turn(
                rules, players, marks, chevs, out, to_move, occupied
            )
            if outcome is None and rules.move_cap is not None and ply >= rules.move_cap:
                outcome = Outcome(Termination.MOVE_CAP, ())
    elif rules.azacru:
        if trigger >= 0 and to_move == trigger:
            outcome = Outcome(Termination.END_TRIGGERED, top_scorers(players, marks))
        elif rules.move_cap is not None and ply >= rules.move_cap:
            outcome = Outcome(Termination.MOVE_CAP, ())
    else:
        outcome = lookahead_outcome(rules, players, marks, chevs, occupied, idle)
    return chevs, out, to_move, occupied, outcome
