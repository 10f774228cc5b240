"""What the ``pacru play --human`` prompt says about text it cannot play.

:func:`read_move` reads a typed move as :meth:`pacru.GameState.parse_san`
does: complete move text, or short text that names one legal move.
:func:`refusal` turns its error into the lines shown to the person: for text
outside the grammar, what is wrong and how this game's moves are written
(examples taken from the position's own legal moves, so a game without a
pass is never offered ``pass``); for a move the rules forbid, the rule that
forbids it.
"""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Any

from pacru.errors import IllegalMoveError, NotationError, PacruError

if TYPE_CHECKING:
    from pacru.base import GameState

__all__ = ["examples", "read_move", "refusal"]

#: Legal moves looked at for examples: the first ones (steps come first) and the last.
_SAMPLE = 40
#: The tail of the grammar's own message: examples for every chevron game, pass
#: included; the prompt gives this position's moves instead.
_GRAMMAR_TAIL = "; expected e.g. "
#: What varies within one form of move text: fields, numbers, LSD sides, turn signs.
_FORM = re.compile(r"[a-i][1-9]|-?\d+|[NESW]+|[<>]+")


def read_move(state: GameState[Any], text: str) -> Any:
    """The legal move ``text`` names: complete or short move text.

    Raises:
        NotationError: not move text, or short text that fits several moves.
        IllegalMoveError: move text the rules forbid here (names the rule).
    """
    return state.parse_san(text)


def examples(state: GameState[Any], count: int = 3) -> list[str]:
    """Up to ``count`` legal moves of ``state`` written in different forms, as text.

    Two moves have the same form when they differ only in their fields,
    numbers, sides or turn signs (``e1-d2`` and ``i9-h9``; ``a3-b4<`` and
    ``a3-b4>``), so the examples show the kinds of move the position has: a
    step, a step with a marker field, a reorientation.
    """
    moves = state.legal_moves()
    sample = list(islice(moves, _SAMPLE))
    if len(moves) > _SAMPLE:
        sample.append(moves[len(moves) - 1])  # the chevron games list reorientations last
    shown: dict[str, str] = {}
    for move in sample:
        text = str(move)
        shown.setdefault(_FORM.sub(lambda m: "<" if m[0][0] in "<>" else "#", text), text)
    return list(shown.values())[:count]


def _short_example(state: GameState[Any]) -> str:
    """``"a3-b4 for a3-b4+a4"``: a legal move whose short text is shorter, or ``""``."""
    for move in islice(state.legal_moves(), _SAMPLE):
        short = state.san(move)
        if short != str(move):
            return f"{short} for {move}"
    return ""


def _written_like(state: GameState[Any]) -> str:
    forms = examples(state)
    listed = ", ".join(forms[:-1]) + f" or {forms[-1]}" if len(forms) > 1 else "".join(forms)
    line = f"Moves here are written like {listed}"
    short = _short_example(state)
    if short:
        line += f"; short text is fine when it fits one move ({short})"
    return line + ". Type 'help' to list them."


def refusal(state: GameState[Any], text: str, err: PacruError) -> list[str]:
    """The lines that say why ``text`` was not played in ``state`` (the error ``err``)."""
    if isinstance(err, IllegalMoveError):
        return [f"{err.move or text} is not legal here ({err.rule}): {err.detail}"]
    message = str(err)
    if isinstance(err, NotationError):
        message = message.split(_GRAMMAR_TAIL, 1)[0]
    return [message, _written_like(state)]
