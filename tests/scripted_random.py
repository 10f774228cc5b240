"""A :class:`random.Random` whose draws the test scripts (shared by the bot and CLI tests)."""

from __future__ import annotations

import random

__all__ = ["ScriptedRandom"]


class ScriptedRandom(random.Random):
    """A Random whose ``randrange(n)`` returns scripted values in turn, recording each ``n``.

    Only the one-argument form is scripted; a value outside ``0..n-1`` fails the test.
    """

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = values
        self.bounds: list[int] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None
        assert step == 1
        self.bounds.append(start)
        value = self.values.pop(0)
        assert 0 <= value < start
        return value
