"""Integers given as any integer type: numpy's, or any other ``operator.index`` accepts.

Arrays and tensors hand out their own integer scalars (``numpy.int64``,
``numpy.uint16``); every public function that takes an int takes these as
their int value, so that nothing downstream (bit shifts, table look-ups) sees
a fixed-width number that overflows.
"""

from __future__ import annotations

import operator

__all__ = ["integer", "integer_pair"]


def integer(value: object) -> int | None:
    """``value`` as a plain ``int``, or ``None`` when it is not an integer.

    Accepts ``int`` and every type :func:`operator.index` accepts (numpy
    integer scalars included). ``bool`` (and ``numpy.bool_``) is refused
    (``None``): a flag given where a number is meant is a mistake, and
    ``True`` would otherwise pass as 1. Floats, strings and ``None`` give
    ``None``.
    """
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def integer_pair(value: object) -> tuple[int, int] | None:
    """A 2-tuple of integers (as :func:`integer` takes them) as ``int``, else ``None``."""
    if type(value) is tuple and len(value) == 2:
        x, y = value
        if type(x) is int and type(y) is int:
            return value
        x, y = integer(x), integer(y)
        if x is not None and y is not None:
            return (x, y)
    return None
