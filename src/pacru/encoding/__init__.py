"""A machine interface for bots and learning: integer actions, decisions, observations.

A move is chosen in a few *decisions* by the player to move, each one integer
action out of a fixed range, with a legal-action mask; an observation tensor
describes the position and the decision being taken. The games are
deterministic with perfect information: there are no chance nodes.

>>> import pacru
>>> from pacru.encoding import Encoding
>>> state = pacru.new_game("shacru", players=2)
>>> enc = Encoding.of(state)
>>> enc.num_actions, enc.max_decisions, enc.observation_shape
(415, 3, (51, 9, 9))
>>> decision = enc.start(state)
>>> decision.kind, [enc.action_name(a) for a in decision.legal_actions]
('origin', ['origin e1', 'origin a3', 'origin i3', 'origin i9'])
>>> decision = decision.choose(19)  # origin a3
>>> decision.kind, [enc.action_name(a) for a in decision.legal_actions]
('target', ['target b2', 'target b3', 'target b4'])
>>> decision = decision.choose(110).choose(169)  # target b4, twist >
>>> decision.done, decision.move, decision.prefix
(True, Move.parse('a3-b4>'), (19, 110, 169))
>>> enc.actions(state, "a3-b4>")
(19, 110, 169)

The layouts: :mod:`pacru.encoding.chevron` (Lilacru, Shacru, Azacru, Pacru)
and :mod:`pacru.encoding.lsd`. This package needs numpy (the ``ai`` extra);
``import pacru`` does not import it.
"""

from pacru.encoding.base import ENCODING_VERSION, Decision, Encoding

# The layouts register their games with Encoding.for_game on import (after base).
from pacru.encoding import chevron, lsd  # noqa: F401  # isort: skip

__all__ = ["ENCODING_VERSION", "Decision", "Encoding"]
