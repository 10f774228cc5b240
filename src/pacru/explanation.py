"""Why a move is or is not legal: rule, ruling and the legal alternatives.

=================  ==========================================================
entry point        :func:`pacru.explain`, the same as ``state.explain(text)``
answer             :class:`Explanation`: ``legal``, ``rule``, ``reason``,
                   ``message``, ``alternatives``; ``str()`` reads as prose
illegal moves      the rule and reason code of the
                   :class:`~pacru.errors.IllegalMoveError` the state raises
                   (:func:`pacru.chevron.legality.diagnose`; LSD's own
                   checks), and the legal moves of the same chevron (LSD:
                   the same cell, else the same tile)
legal moves        what the move does: the chevron's path and facing, the
                   fields that change colour and by which rule, chevrons
                   taken or removed, players out, the end of the game
=================  ==========================================================

>>> import pacru
>>> state = pacru.new_game("shacru")
>>> print(pacru.explain(state, "e1-e3"))
e1-e3: illegal (S-R3, beyond-power): a chevron moves one field; e1 to e3 is 2
  legal moves of the chevron on e1: e1-d2, e1-e2, e1-f2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import attrs

if TYPE_CHECKING:
    from pacru.base import GameState, MoveT
    from pacru.games import AnyState

__all__ = ["MAX_ALTERNATIVES", "Explanation", "explain"]

#: Most alternatives an :class:`Explanation` lists (in ``legal_moves()`` order).
MAX_ALTERNATIVES: Final = 60


@attrs.frozen
class Explanation:
    """The answer of :func:`explain`.

    Attributes:
        move: the move text asked about.
        legal: whether the move is legal in the state.
        rule: for an illegal move the rule or ruling that forbids it (e.g.
            ``"R7"``, ``"D25"``, ``"LSD-2.2"``; ``"notation"`` for text that is
            not a move, ``"end"`` once the game is over); for a legal move the
            rule of the action (``"R3"``, ``"R11"``, ``"R14"``, ``"S-R2"``...).
        reason: the machine-readable code of the
            :class:`~pacru.errors.IllegalMoveError` (``"jump-not-connection"``,
            ...); ``"not-a-move"`` for bad text; ``"legal"`` for a legal move.
        message: one or more sentences saying why, or what the move does.
        alternatives: legal moves to consider instead, as text: those of the
            same chevron (same target first), else every step of the player
            to move; at most :data:`MAX_ALTERNATIVES`. Empty for a legal move.
    """

    move: str
    legal: bool
    rule: str
    reason: str
    message: str
    alternatives: tuple[str, ...] = ()
    subject: str = attrs.field(default="", repr=False)

    def __str__(self) -> str:
        if self.legal:
            return f"{self.move}: legal ({self.rule}): {self.message}"
        text = f"{self.move}: illegal ({self.rule}, {self.reason}): {self.message}"
        if self.alternatives:
            text += f"\n  legal moves {self.subject or 'instead'}: " + ", ".join(self.alternatives)
        return text


def explain(state: AnyState | GameState[MoveT], move_text: str) -> Explanation:
    """Why ``move_text`` is or is not legal in ``state``, and what it would do.

    Never raises for bad move text: that is an explanation too (rule
    ``"notation"``). Works for the chevron games and LSD: it is
    ``state.explain(move_text)``, and each game explains its own moves
    (:mod:`pacru.chevron.explain`, :mod:`pacru.lsd.explain`).

    Args:
        state: any state (also a finished game: rule ``"end"``).
        move_text: a move in the game's notation (a move object is turned into
            its text).
    """
    return state.explain(move_text)


def limited(moves: list[str]) -> tuple[str, ...]:
    """The first :data:`MAX_ALTERNATIVES` of ``moves``: the alternatives an explanation lists."""
    return tuple(moves[:MAX_ALTERNATIVES])
