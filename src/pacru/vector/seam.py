"""Which loop steps a :mod:`pacru.vector` batch: the one choice of the stepping seam.

On an engine that steps batches itself (the native one: the engine object
:data:`pacru.chevron.engine.OPS` says so, :attr:`~pacru.chevron.engine.Engine.batches`)
a chevron game is stepped by ``pacru.vector.native.NativeLoop`` and LSD by
``pacru.vector.native.LsdLoop`` (imported only then, so that a build without the
extension never imports it); otherwise, and with ``PACRU_ENGINE=python``, by
:class:`pacru.vector.python.PythonLoop` on the Python engine, the reference.
"""

from __future__ import annotations

from typing import Any

from pacru.base import GameState
from pacru.chevron.engine import OPS
from pacru.chevron.state import ChevronState
from pacru.encoding import Encoding
from pacru.encoding.chevron import ChevronEncoding
from pacru.encoding.lsd import LsdEncoding
from pacru.lsd.state import LsdState
from pacru.vector.loop import Loop
from pacru.vector.python import PythonLoop

__all__ = ["choose_loop"]


def choose_loop(encoding: Encoding, start: GameState[Any], opening_plies: int) -> Loop:
    """The loop for games of ``encoding`` from ``start`` with ``opening_plies`` random moves."""
    if OPS.batches and isinstance(start, ChevronState):
        from pacru.vector.native import NativeLoop

        assert isinstance(encoding, ChevronEncoding)
        return NativeLoop(encoding, start, opening_plies)
    if OPS.batches and isinstance(start, LsdState):
        from pacru.vector.native import LsdLoop

        assert isinstance(encoding, LsdEncoding)
        return LsdLoop(encoding, start, opening_plies)
    return PythonLoop(encoding, start, opening_plies)
