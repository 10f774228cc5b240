"""Integers given as any integer type: numpy's, or any other ``operator.index`` accepts.

Arrays and tensors hand out their own integer scalars (``numpy.int64``,
``numpy.uint16``); every public function that takes an int takes these as
their int value, so that nothing downstream (bit shifts, table look-ups) sees
a fixed-width number that overflows.
"""

from __future__ import annotations

import operator

__all__ = ["MAX_COUNT", "bounded", "integer", "integer_pair"]

#: The most decisions or plies a limit may name (``max_steps``, ``max_plies``): the
#: counts they bound are int32 arrays on both engines.
MAX_COUNT = 2**31 - 1


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


def bounded(value: object, name: str, low: int, high: int | None = None) -> int:
    """``value`` as a plain ``int`` in ``low .. high`` (any type :func:`integer` takes;
    no upper bound for ``high=None``).

    Raises:
        TypeError: ``value`` is not an integer (``bool`` neither), naming ``name``.
        ValueError: it is outside ``low .. high``, naming ``name`` and the range.
    """
    number = integer(value)
    if number is None:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__} ({value!r})")
    if high is None and number < low:
        raise ValueError(f"{name} must be at least {low}, not {number}")
    if high is not None and not low <= number <= high:
        raise ValueError(f"{name} must be {low}..{high}, not {number}")
    return number
