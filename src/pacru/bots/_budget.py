"""The checks of the bots' budgets and sizes, shared by every constructor and ``pacru engine``.

Each names the argument in its ``ValueError`` and returns the value as the
plain type the bot keeps (``int`` for counts, taken as :func:`operator.index`
takes them, numpy's integers included; ``float`` for seconds), so that no
later step (the native search's 64-bit counters, a clock's arithmetic) meets a
value it cannot take.
"""

from __future__ import annotations

import math
import numbers

from pacru._integers import integer

__all__ = ["UINT64_MAX", "count", "optional_count", "optional_seconds", "seconds"]

#: The largest count the native search takes (its counters are 64-bit).
UINT64_MAX = 2**64 - 1


def count(name: str, value: object, minimum: int = 1, maximum: int | None = None) -> int:
    """``value`` as an ``int`` from ``minimum`` to ``maximum`` (none: no upper end).

    Raises:
        ValueError: ``value`` is not an integer (a ``bool``, a float, text) or
            is out of range; the message names ``name``.
    """
    number = integer(value)
    if number is None:
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if number < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {number}")
    if maximum is not None and number > maximum:
        raise ValueError(f"{name} must be at most {maximum}, not {number}")
    return number


def optional_count(
    name: str, value: object, minimum: int = 1, maximum: int | None = None
) -> int | None:
    """:func:`count`, ``None`` passing through."""
    return None if value is None else count(name, value, minimum, maximum)


def seconds(name: str, value: object) -> float:
    """``value`` (a real number of seconds, finite and above 0) as a ``float``.

    Raises:
        ValueError: not a real number (a ``bool``, text), not above 0, or not
            finite (``inf``, ``nan``); the message names ``name``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number of seconds, not {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an int past the floats: no finite time
        number = math.inf
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be positive, finite seconds, not {value!r}")
    return number


def optional_seconds(name: str, value: object) -> float | None:
    """:func:`seconds`, ``None`` passing through."""
    return None if value is None else seconds(name, value)
