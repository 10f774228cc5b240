"""The extension's own entry points refuse input that would leave the engine's bounds.

``pacru._native`` is private, but Python reaches it directly: out-of-range input
raises a Python exception (never a Rust panic, which would surface as
``PanicException``).
"""

from __future__ import annotations

import pytest

from pacru.chevron.native import position

from .support import start


def test_batch_refuses_a_game_index_past_the_chevron_games() -> None:
    from pacru import _native

    pos = position(start("pacru", 2))
    _native.Batch.create(pos, 1, 3, 1.0, 1.0, 10)
    with pytest.raises(ValueError, match="game index 4 is not that of a chevron game"):
        _native.Batch.create(pos, 1, 4, 1.0, 1.0, 10)


def test_batch_refuses_a_restart_of_other_seats() -> None:
    from pacru import _native

    batch, _raw = _native.Batch.create(position(start("pacru", 2)), 1, 3, 1.0, 1.0, 10)
    other = position(start("pacru", 3))
    with pytest.raises(ValueError, match="game 0: the restart position is not of the batch's game"):
        batch.step([0], [0], [True], [other])


def test_rollouts_refuse_more_games_than_memory_holds() -> None:
    from pacru import _native

    with pytest.raises(MemoryError, match="too many to hold"):
        _native.random_rollouts(position(start("pacru", 2)), 2**61, 1, 10, False, False)
