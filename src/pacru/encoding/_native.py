"""The chevron decisions on the native engine: the seam between :mod:`pacru.encoding.chevron`
and the extension module ``pacru._native``.

Under the native engine a chevron move's decisions are worked out by the
extension (``pacru_batch::decision``, the code of :mod:`pacru.vector`'s native
loop) on the position's own native move list, which is the decision's cursor
(item 7). The decisions are objects of ``_NativeDecision``, a
:class:`~pacru.encoding.Decision` subclass made in C: its fields are read as
slots, and ``choose`` and ``ChevronEncoding.start`` are C methods. They are the
Python cursors' decisions bit for bit (``tests/native/test_decisions.py``).
"""

from __future__ import annotations

from typing import Any, Final

from pacru.chevron.engine import ENGINE, native_module
from pacru.encoding.base import Decision, Encoding

#: The extension module when the native engine is in use, else None.
_MODULE: Final = native_module() if ENGINE == "native" else None
# The native decisions are being rewritten on the safe binding (issue 29): until they
# are back in the extension, the chevron encodings use the Python decisions.
NATIVE: Final = _MODULE if hasattr(_MODULE, "decision_class") else None
#: The native move list class, the cursor of a native decision (None without the native
#: engine: no class is None).
NATIVE_MOVES: Final = None if NATIVE is None else NATIVE.NativeLegalMoves

_FIELDS: Final = ("encoding", "state", "player", "prefix", "legal_actions", "kind", "move")
_DOC: Final = """A :class:`Decision` worked out by the native engine.

Made in C: its fields are read as slots, ``choose`` is a C method, and
``ChevronEncoding.start`` a C method that makes it. Any call their fast path
does not take goes to the Python method, which checks it and raises its errors.
"""


def install(encoding_class: type[Encoding]) -> type[Decision] | None:
    """Make the native decision class and put the C ``start`` on ``encoding_class``.

    Returns the class (None without the native engine, which changes nothing).
    Called once, by :mod:`pacru.encoding.chevron`.
    """
    if NATIVE is None:
        return None
    made: tuple[type[Decision], Any] = NATIVE.decision_class(
        Decision,
        _DOC,
        [getattr(Decision, name).__doc__ or "" for name in _FIELDS],
        Decision.choose,
        Decision.choose.__doc__,
        encoding_class,
        encoding_class.start,
        Encoding.start.__doc__,
    )
    decision_class, start = made
    encoding_class.start = start  # type: ignore[method-assign]
    return decision_class
