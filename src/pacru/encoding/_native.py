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
messages, made by the extension) and fill the action mask's bytes themselves.

The one method written here is :meth:`~pacru.encoding.Decision.legal_action_mask`,
set on the extension's class: the numpy array around the bytes the extension
fills (``NativeDecision._legal_mask``). numpy has no safe Rust API, so the
extension would otherwise have to call numpy itself, a call into Python from
native code. A method on the class costs nothing per decision (a wrapper or a
subclass of the native decisions would cost an object, or a call, on every
``choose``) and leaves the decisions the extension's own objects.

This is the one module of :mod:`pacru.encoding` that asks the engine boundary for
them (its engine object, :data:`pacru.chevron.engine.OPS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from pacru.chevron.engine import OPS
from pacru.chevron.pystate import PythonChevronState
from pacru.encoding.base import Decision

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

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


#: ``(numpy.frombuffer, numpy.dtype(bool))`` once numpy is imported (not at import:
#: pacru.encoding does not need numpy), for the masks below.
_FROMBUFFER: list[Any] = []


def _legal_action_mask(decision: Any) -> npt.NDArray[np.bool_]:
    """A new numpy bool array of length ``encoding.num_actions``, True at the legal actions.

    Writable, as the Python decisions' mask is: its data is the new bytearray of the
    extension's ``_legal_mask`` (one byte per action, 1 where legal), which numpy reads
    in place. Raises ``ModuleNotFoundError`` without numpy, as the Python decisions do.
    """
    if not _FROMBUFFER:  # the first mask: numpy is imported once, not at every mask
        import numpy as np

        _FROMBUFFER[:] = (np.frombuffer, np.dtype(np.bool_))
    frombuffer, dtype = _FROMBUFFER
    return frombuffer(decision._legal_mask(), dtype)  # type: ignore[no-any-return]


if NATIVE_DECISION is not None:
    # Its objects are Decisions to isinstance, issubclass and their users.
    Decision.register(NATIVE_DECISION)
    # The Decision method the extension leaves to Python (the module docstring): the
    # extension's classes are mutable types, so the method is the class's own, as
    # Decision's is.
    NATIVE_DECISION.legal_action_mask = _legal_action_mask  # type: ignore[attr-defined]
