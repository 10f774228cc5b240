"""The chevron decisions on the native engine: the seam between :mod:`pacru.encoding.chevron`
and the extension module ``pacru._native``.

Under the native engine a chevron move's decisions are worked out by the
extension (``pacru_batch::decision``, the code of :mod:`pacru.vector`'s native
loop) on the position's own native move list. They are objects of the
extension's class ``NativeDecision``: immutable, with the fields and methods of
:class:`~pacru.encoding.Decision` (which registers it as a virtual subclass
here), and the Python cursors' decisions bit for bit
(``tests/native/test_decisions.py``). They call nothing of Python's: they
read the state's native move list directly, refuse an action with the errors of
``Encoding._checked_action`` (the Python decisions' check: the same classes and
messages, made by the extension) and make the action mask through numpy's C
API (no numpy function is called).

This is the one module of :mod:`pacru.encoding` that asks the engine boundary for
them (its engine object, :data:`pacru.chevron.engine.OPS`).
"""

from __future__ import annotations

from typing import Final

from pacru.chevron.engine import OPS
from pacru.chevron.pystate import PythonChevronState
from pacru.encoding.base import Decision

__all__ = ["NATIVE_DECISION", "STATE_CLASSES", "decision_layout"]

#: The engines' own state classes (not a user's subclass): states read without a check.
STATE_CLASSES: Final = frozenset({OPS.state_class, PythonChevronState})

#: The native decisions of a chevron encoding from its layout (the extension's
#: ``DecisionLayout``), or None on an engine without them: the engine object's
#: :meth:`~pacru.chevron.engine.Engine.decision_layout`.
decision_layout: Final = OPS.decision_layout
#: The class of the native engine's decisions (None without the native engine: no
#: class is None).
NATIVE_DECISION: Final[type | None] = OPS.decision_class


if NATIVE_DECISION is not None:
    # Its objects are Decisions to isinstance, issubclass and their users.
    Decision.register(NATIVE_DECISION)
