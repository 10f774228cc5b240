"""The exceptions raised by pacru.

Every error is a :class:`ValueError` subclass, so code that already guards
against bad values keeps working:

* :class:`PacruError` -- the base of everything below.
* :class:`NotationError` -- text that is not a move, field, position or record
  in the documented grammar (a *syntax* error; nothing was looked up).
* :class:`IllegalMoveError` -- a well-formed move the rules forbid here; it
  names the rule (``rule``, e.g. ``"S-R5"``), a machine-readable ``reason`` code
  and a human sentence.
* :class:`InvalidPositionError` -- a position that parses but cannot occur
  (two chevrons on one field, an unknown colour, a Pacru supply overdrawn).
* :class:`GameOverError` -- a move offered to a finished game.

No function in pacru raises one of these after changing anything: states are
immutable, so a failed call leaves every existing state exactly as it was.
"""

from __future__ import annotations

__all__ = [
    "GameOverError",
    "IllegalMoveError",
    "InvalidPositionError",
    "NotationError",
    "PacruError",
]


class PacruError(ValueError):
    """Base class of every error pacru raises on bad input."""


class NotationError(PacruError):
    """Text that does not follow the documented grammar.

    Raised by the move, field, position and record parsers. ``text`` holds the
    offending input (cut to 200 characters).
    """

    def __init__(self, message: str, text: str = "") -> None:
        super().__init__(message)
        self.text = text[:200]


class IllegalMoveError(PacruError):
    """A well-formed move that the rules of this game forbid in this state.

    ``str(err)`` is ``"<rule>: <move>: <why>"``, e.g. ``"S-R5: f5-e6: e6 belongs
    to yellow"``: the rule, the move as given and the reason in words.

    Attributes:
        rule: the rule identifier that forbids the move, as in the rules
            reference: ``"S-R5"``, ``"A-R7"``, ``"R11"``, ``"L6"``, or a ruling
            such as ``"D25"``.
        reason: a stable, machine-readable code such as ``"occupied"``,
            ``"opponent-field"``, ``"not-forward"``, ``"beyond-power"``;
            see :doc:`/errors` for the list.
        move: the move text as given.
    """

    def __init__(self, message: str, *, rule: str, reason: str, move: str = "") -> None:
        # The message names the move, so a log line alone says what was refused.
        shown = " ".join(move.split())[:40]
        super().__init__(f"{rule}: {shown}: {message}" if shown else f"{rule}: {message}")
        self.rule = rule
        self.reason = reason
        self.move = move
        self.detail = message


class InvalidPositionError(PacruError):
    """A position that is well-formed text but not a possible game state."""


class GameOverError(IllegalMoveError):
    """A move was offered to a game that has already ended."""

    def __init__(self, message: str = "the game is over", *, move: str = "") -> None:
        super().__init__(message, rule="end", reason="game-over", move=move)
