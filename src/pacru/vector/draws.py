"""The random draws of :mod:`pacru.vector` as whole-array hashes: seeds per game, uniform actions.

Every draw of a batch comes from a SplitMix64 hash (Steele, Lea and Flood's output
function) of a seed, the game's row, its episode and a salt only
(:func:`game_seeds`), so the same seed gives the same draws whatever the thread
count, the engine or the order the games restart in. ``pacru._native.Batch``
computes the same hashes natively (``Batch.random_actions``).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["UNIFORM_SALT", "game_seeds", "hash_base", "masked_choice", "uniforms"]

_GAMMA: Final = np.uint64(0x9E3779B97F4A7C15)
_MASK: Final = (1 << 64) - 1


def _mix(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """SplitMix64's output function, element-wise (wrapping uint64 arithmetic)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    out: npt.NDArray[np.uint64] = z ^ (z >> np.uint64(31))
    return out


def game_seeds(seed: int, episodes: npt.NDArray[np.int64], salt: int = 0) -> npt.NDArray[np.uint64]:
    """A 64-bit seed per game of a batch: a hash of ``seed``, the row, its episode and ``salt``."""
    rows = np.arange(len(episodes), dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = _mix(np.full(len(episodes), hash_base(seed, salt), np.uint64))
        z = _mix(z ^ (rows * _GAMMA))
        return _mix(z ^ (episodes.astype(np.uint64) * _GAMMA + _GAMMA))


#: The salt of :func:`uniforms`' hash (:func:`game_seeds`' other salts: 0 bots, 1 seats).
UNIFORM_SALT: Final = 2


def hash_base(seed: int, salt: int) -> int:
    """The 64-bit value :func:`game_seeds` hashes first for ``seed`` and ``salt``."""
    return (seed * 0x2545F4914F6CDD1D + salt) & _MASK


def uniforms(seed: int, n: int) -> npt.NDArray[np.float64]:
    """A float64 in [0, 1) per game of a batch of ``n``: a hash of ``seed`` and the row only.

    ``(z >> 11) * 2**-53`` of :func:`game_seeds` at episode 0 with :data:`UNIFORM_SALT`
    (``pacru._native.Batch.random_actions`` computes the same natively).
    """
    z = game_seeds(seed, np.zeros(n, dtype=np.int64), salt=UNIFORM_SALT)
    out: npt.NDArray[np.float64] = (z >> np.uint64(11)).astype(np.float64) * 2.0**-53
    return out


def masked_choice(mask: npt.NDArray[np.bool_], u: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Row ``i``'s ``floor(u[i] * count_i)``-th True column of ``mask`` (ascending).

    Every row has a True cell; whole-array operations only (no per-row Python).
    """
    counts = np.count_nonzero(mask, axis=1)
    picks = np.minimum((u * counts).astype(np.int64), counts - 1)
    cells = np.flatnonzero(mask)
    firsts = np.cumsum(counts) - counts
    actions: npt.NDArray[np.int64] = cells[firsts + picks] - np.arange(len(counts)) * mask.shape[1]
    return actions
