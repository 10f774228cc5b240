"""Batched self-play in the functional style of pgx: many games stepped by one call.

:class:`VectorEnv` plays ``num_envs`` games of one game at once; a
:class:`VectorState` is an immutable value holding numpy arrays with one row
per game, and :meth:`VectorEnv.step` returns a new state (the old one is
unchanged; one handed over with ``donate=True`` is spent instead, its games
stepped in place on the native engine). Each step is one *decision* of
:mod:`pacru.encoding` in every game: a move may take several steps, by the same
player.

==========================  ========================  ==========================================
attribute                   dtype, shape              meaning
==========================  ========================  ==========================================
``observation``             float32,                  :meth:`pacru.encoding.Encoding.observation`
                            ``(num_envs, *obs)``      of the decision, seen by the player deciding
``legal_action_mask``       bool,                     True at the legal actions of the decision
                            ``(num_envs, actions)``
``current_player``          int32, ``(num_envs,)``    seat (0-based turn order) deciding
``rewards``                 float32,                  each seat's :meth:`pacru.GameState.returns`
                            ``(num_envs, players)``   at the step a game ends, else 0
``terminated``              bool, ``(num_envs,)``     the game ended by the rules at this step
``truncated``               bool, ``(num_envs,)``     the game was stopped by a limit at this step
``step_count``              int32, ``(num_envs,)``    decisions taken in the current game
``episode``                 int64, ``(num_envs,)``    index of the env's current game (0 first)
==========================  ========================  ==========================================

The observation is made from the state's games when it is first read, then
kept: a loop that reads only the masks (random play, a tree search's
rollouts) does not pay for it. On the native engine the mask of a whole-batch
step is made so too (by the extension, on the env's threads): a loop that
draws its actions natively (:meth:`VectorEnv.random_actions`, the built-in
opponents) reads neither, and a step writes about 30 bytes a game instead of
about 440.

**Auto-reset** (as pgx): a game that ends shows its end once, in the state
returned by the step that ended it (``terminated`` or ``truncated`` True,
``rewards`` set). Such a row has a zero observation, ``current_player`` -1
and an all-True mask, so sampling from the mask never divides by zero. At the
next step that game restarts (its ``episode`` goes up by one): the action
given to it there is checked against that all-True mask and ignored.

**Truncation**: a game stopped by the move cap (``move_cap``, ruling D32) or by
the idle rounds (``idle_rounds``, ruling D33) is ``truncated``, with its
returns; ``max_steps`` also truncates a game after that many decisions, with
zero rewards.

**Seeding**: the start of every game is the game's starting position, then
``opening_plies`` random moves (default 0) drawn as
:class:`pacru.bots.RandomBot` draws them, from a stream of its own:
``random.Random(f"pacru.vector/{seed}/{env}/{episode}")`` (an opening stops
early rather than end the game). A game's start thus depends only on the seed
of :meth:`VectorEnv.init`, its env index and its episode: the same seed and the
same actions give the same games.

**Errors**: :meth:`VectorEnv.step` checks every action before applying any:
an action that is not an integer, is out of range or is not in its game's
mask raises :class:`pacru.IllegalMoveError` (rule ``"encoding"``) naming the
game index, and no game changes.

The stepping of each game lives in one private seam
(``pacru.vector.python.PythonLoop``); on the native engine a chevron game is
stepped by ``pacru.vector.native.NativeLoop`` and LSD by ``pacru.vector.native.LsdLoop``
instead, the whole batch in one call into the extension, with the same values.
This package's face is this module: :class:`VectorEnv` (``pacru.vector.env``),
:class:`VectorState` and the names of ``__all__``; its submodules are private.
This module needs numpy (the ``ai`` extra); ``import pacru`` does not import it.
"""

from __future__ import annotations

from pacru.vector.env import (
    AUTORESET_MODES,
    DEFAULT_MOVE_CAP,
    OBSERVATION_DTYPES,
    AutoresetMode,
    BatchedPolicy,
    VectorEnv,
    _restore_env,
    _restore_state,
    default_threads,
)
from pacru.vector.state import STATE_ARRAYS, VectorState

__all__ = [
    "AUTORESET_MODES",
    "DEFAULT_MOVE_CAP",
    "OBSERVATION_DTYPES",
    "STATE_ARRAYS",
    "AutoresetMode",
    "BatchedPolicy",
    "VectorEnv",
    "VectorState",
    "default_threads",
]

# Pickles name these by their module: ``pacru.vector``, wherever they are defined.
for _public in (VectorEnv, VectorState, _restore_env, _restore_state):
    _public.__module__ = __name__
del _public
