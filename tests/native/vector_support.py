"""What the native loops' differential tests share: two envs stepped alike, compared."""

from __future__ import annotations

import numpy as np

from pacru.vector import STATE_ARRAYS, VectorEnv, VectorState

ARRAYS = ("observation", *STATE_ARRAYS)


def assert_same(a: VectorState, b: VectorState, a_env: VectorEnv, b_env: VectorEnv) -> None:
    """Every array of the two states equal (dtype, shape, values), and every prefix."""
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype, name
        assert x.shape == y.shape, name
        assert np.array_equal(x, y), name
    for i in range(a.num_envs):
        assert a_env.prefix(a, i) == b_env.prefix(b, i)


def play(native: VectorEnv, python: VectorEnv, steps: int, seed: int, every: int = 25) -> int:
    """Step both with the same random legal actions, comparing them at every step (and
    every game's position every ``every`` steps); returns the number of game ends."""
    rng = np.random.default_rng(seed)
    a, b = native.init(seed), python.init(seed)
    ends = 0
    for step in range(steps):
        assert_same(a, b, native, python)
        if step % every == 0:
            for i in range(a.num_envs):
                assert native.position(a, i) == python.position(b, i)
        weights = rng.random(a.legal_action_mask.shape) * a.legal_action_mask
        actions = weights.argmax(axis=1)
        ends += int(a.ended.sum())
        a, b = native.step(a, actions), python.step(b, actions)
    assert_same(a, b, native, python)
    return ends
