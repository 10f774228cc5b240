"""Sizes the machine cannot hold are ``MemoryError``, never an abort of the interpreter.

Each case runs in a child interpreter whose address space is capped
(``RLIMIT_AS``) at 1 GiB above what it holds once the inputs are built, so that
an allocation of the native engine fails for real without touching the
machine's memory: a failed Rust allocation that is not reserved fallibly aborts
the process (SIGABRT), and the test sees the child die instead of printing the
error.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from .support import native

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status are Linux's"
)

#: Imports the engine, then defines ``cap()``: from then on the process may grow by 1 GiB.
PRELUDE = """
import resource
from pacru import _native, new_game
from pacru.chevron.native import position

def cap():
    with open("/proc/self/status") as status:
        kib = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
    room = kib * 1024 + (1 << 30)
    resource.setrlimit(resource.RLIMIT_AS, (room, room))

pos = position(new_game("pacru", 2))
"""


def run_capped(body: str) -> str:
    """The output of ``body`` run after :data:`PRELUDE` in a child interpreter."""
    assert native is not None
    code = PRELUDE + textwrap.dedent(body)
    # The native engine in the child too (a PACRU_ENGINE=python run of the suite would give the
    # child the Python engine's batch, which these cases are not about).
    env = {**os.environ, "PACRU_ENGINE": "native"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    return done.stdout.strip()


def test_a_step_of_more_rows_than_memory_holds_is_a_memory_error() -> None:
    # 2**22 restarts of one game: the positions alone (hundreds of bytes each) pass the cap.
    out = run_capped(
        """
        batch, _ = _native.Batch.create(pos, 1, 3, 1000.0, 162.0, 0)
        k = 1 << 22
        rows, actions, restart, starts = [0] * k, [0] * k, [True] * k, [None] * k
        cap()
        try:
            batch.step(rows, actions, restart, starts)
        except MemoryError as e:
            print("MemoryError:", e)
        """
    )
    assert out.startswith("MemoryError: the batch is too large to hold (memory allocation failed")


def test_rollouts_whose_arrays_fit_once_but_not_twice_are_a_memory_error() -> None:
    # 60M games of 0 plies: their returns and plies (720 MB) fit under the cap, the
    # thread's own arrays of the same size do not.
    out = run_capped(
        """
        cap()
        try:
            _native.random_rollouts(pos, 60_000_000, 1, 0, False, False, 1)
        except MemoryError as e:
            print("MemoryError:", e)
        """
    )
    assert out.startswith("MemoryError: the games are too many to hold (memory allocation failed")


def test_threads_the_system_refuses_leave_the_step_to_the_threads_it_started() -> None:
    # A thread needs a stack of 2 MiB; under a cap 1.5 MiB above the process's size the
    # system refuses every one: the pool of threads cannot be built, the threads started
    # for the call instead are refused too, and their parts run on the thread that asked
    # for them, with the same results (a refused thread was a PanicException before).
    out = run_capped(
        """
        import numpy as np
        from pacru.vector import VectorEnv

        many = VectorEnv("pacru", players=2, num_envs=256, num_threads=64)
        one = VectorEnv("pacru", players=2, num_envs=256, num_threads=1)
        s_one = one.init(0)
        actions = one.random_actions(s_one, 1)
        with open("/proc/self/status") as status:
            kib = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
        room = kib * 1024 + (3 << 19)
        resource.setrlimit(resource.RLIMIT_AS, (room, room))
        s_many = many.init(0)
        a, b = many.step(s_many, actions), one.step(s_one, actions)
        print(
            np.array_equal(a.legal_action_mask, b.legal_action_mask),
            np.array_equal(a.current_player, b.current_player),
            np.array_equal(a.rewards, b.rewards),
        )
        """
    )
    assert out == "True True True"
