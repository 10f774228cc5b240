"""The chevron decisions on the native engine: the seam between :mod:`pacru.encoding.chevron`
and the extension module ``pacru._native``.

Under the native engine a chevron move's decisions are worked out by the
extension (``pacru_batch::decision``, the code of :mod:`pacru.vector`'s native
loop) on the position's own native move list. They are objects of the
extension's class ``NativeDecision``: immutable, with the fields and methods of
:class:`~pacru.encoding.Decision` (which registers it as a virtual subclass
here), and the Python cursors' decisions bit for bit
(``tests/native/test_decisions.py``). They refuse an action through
``Encoding._checked_action``, the Python decisions' own check, so both engines
raise the same errors.

This is the one module of :mod:`pacru.encoding` that reads the engine in use.
"""

from __future__ import annotations

from typing import Final

from pacru.chevron.engine import ENGINE, STATE_CLASS, native_module
from pacru.chevron.pystate import PythonChevronState
from pacru.encoding.base import Decision

__all__ = ["NATIVE", "NATIVE_DECISION", "STATE_CLASSES"]

#: The engines' own state classes (not a user's subclass): states read without a check.
STATE_CLASSES: Final = frozenset({STATE_CLASS, PythonChevronState})

#: The extension module when the native engine is in use, else None.
NATIVE: Final = native_module() if ENGINE == "native" else None
#: The class of the native engine's decisions (None without the native engine: no
#: class is None).
NATIVE_DECISION: Final[type | None] = None if NATIVE is None else NATIVE.NativeDecision

if NATIVE_DECISION is not None:
    # Its objects are Decisions to isinstance, issubclass and their users.
    Decision.register(NATIVE_DECISION)
