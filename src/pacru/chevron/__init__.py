"""The chevron games: Lilacru, Shacru, Azacru and Pacru, on one engine.

See :mod:`pacru.chevron.rules` for how each game is a configuration of the
shared engine.
"""

from pacru.chevron.move import Move, MoveKind
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.rules import Rules
from pacru.chevron.state import Chevron, ChevronState

__all__ = ["Chevron", "ChevronState", "LegalMoves", "Move", "MoveKind", "Rules"]
