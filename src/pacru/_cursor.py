"""A game played decision by decision: the state shared by the framework adapters.

:class:`Cursor` pairs a position with the decision being made in it
(:mod:`pacru.encoding`), so that OpenSpiel, PettingZoo and Gymnasium see one
integer action at a time. It is an immutable value: :meth:`Cursor.step`
returns a new cursor. Copies are free (``copy.deepcopy`` returns the cursor
itself, which OpenSpiel's ``State.clone`` relies on), and a cursor pickles as
its position string (:meth:`pacru.GameState.to_position`) and the actions
chosen so far in the current move, so OpenSpiel's ``serialize`` text stays
small and does not depend on how states are stored.

The parts the adapters share live here too: the action mask
(:meth:`Cursor.action_mask`), the truncation test (:attr:`Cursor.truncated`),
the text view (:meth:`Cursor.describe`), and for PettingZoo and Gymnasium
the render modes (:func:`check_render_mode`) and the observation space
(:func:`observation_space`).

Imported only by the adapters (it needs numpy through :mod:`pacru.encoding`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from pacru._integers import integer
from pacru.base import GameState, Termination
from pacru.encoding import Decision, Encoding
from pacru.encoding.base import seat_index
from pacru.errors import GameOverError
from pacru.games import from_position, new_game

if TYPE_CHECKING:
    from gymnasium import spaces

__all__ = [
    "DEFAULT_MOVE_CAP",
    "LIMITS",
    "RENDER_MODES",
    "Cursor",
    "action_index",
    "capped",
    "check_render_mode",
    "observation_space",
]

#: Game ends that are a non-official limit rather than a rule (the move cap of ruling
#: D32, the idle rounds of ruling D33): truncations to PettingZoo and Gymnasium.
LIMITS: Final = frozenset({Termination.MOVE_CAP, Termination.IDLE_LIMIT})

#: The move cap (plies, ruling D32) every learning adapter (OpenSpiel, Gymnasium,
#: PettingZoo, :mod:`pacru.vector`) gives Azacru and Pacru when ``move_cap`` is not
#: passed: without it a game may never end. ``move_cap=None`` removes it.
DEFAULT_MOVE_CAP: Final = 1000


def capped(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with ``move_cap=DEFAULT_MOVE_CAP`` for Azacru and Pacru when not given."""
    if isinstance(game, str) and game.lower() in ("azacru", "pacru") and "move_cap" not in options:
        return {**options, "move_cap": DEFAULT_MOVE_CAP}
    return options


#: The render modes of the PettingZoo and Gymnasium environments.
RENDER_MODES: Final = ("human", "ansi", "rgb_array")


@attrs.frozen(eq=False)
class Cursor:
    """A position and the decision under way in it (``None`` once the game is over).

    Attributes:
        encoding: the action and observation encoding of the game.
        decision: the current decision: its ``state`` is the position, its
            ``player`` the seat to act; ``None`` when the game is over.
        final: the finished position (``None`` while the game runs).
    """

    encoding: Encoding
    decision: Decision | None
    final: GameState[Any] | None

    @classmethod
    def start(cls, encoding: Encoding, state: GameState[Any]) -> Cursor:
        """The cursor at the first decision of ``state`` (or at its end if it is over)."""
        if state.current_player is None:
            return cls(encoding, None, state)
        return cls(encoding, encoding.start(state), None)

    @classmethod
    def new(cls, game: str, players: int, options: dict[str, Any]) -> Cursor:
        """The cursor at the start of a new game.

        Azacru and Pacru get :data:`DEFAULT_MOVE_CAP` unless ``options`` has a ``move_cap``.

        Raises:
            ValueError: an unknown game, a player count outside 2-4, or a
                bad option (as :func:`pacru.new_game`).
        """
        state = new_game(game, players, **capped(game, options))
        return cls.start(Encoding.of(state), state)

    @property
    def truncated(self) -> bool:
        """Whether the game ended by a non-official limit (:data:`LIMITS`), not by the rules."""
        outcome = self.state.outcome
        return self.is_over and outcome is not None and outcome.termination in LIMITS

    @property
    def state(self) -> GameState[Any]:
        """The position: the one being moved in, or the final one."""
        if self.decision is None:
            assert self.final is not None
            return self.final
        return self.decision.state

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.decision is None

    @property
    def player(self) -> int | None:
        """The seat (0-based, turn order of ``state.players``) to act; ``None`` at the end."""
        return None if self.decision is None else self.decision.player

    @property
    def legal_actions(self) -> tuple[int, ...]:
        """The actions of the current decision, ascending (empty at the end)."""
        return () if self.decision is None else tuple(self.decision.legal_actions)

    def step(self, action: int) -> Cursor:
        """The cursor after ``action``: the next decision of this move, or of the next move.

        Raises:
            IllegalMoveError: ``action`` is not one of :attr:`legal_actions`
                (:meth:`pacru.encoding.Decision.choose`); nothing changes.
            GameOverError: the game is over.
        """
        decision = self.decision
        if decision is None:
            raise GameOverError(f"the game is over: action {action} cannot be played")
        chosen = decision.choose(action)
        if not chosen.done:
            return Cursor(self.encoding, chosen, None)
        assert chosen.move is not None
        return Cursor.start(self.encoding, decision.state.apply_move(chosen.move))

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """The current decision's legal actions: bool, shape ``(num_actions,)`` (all False
        once the game is over)."""
        mask = np.zeros(self.encoding.num_actions, dtype=np.bool_)
        mask[list(self.legal_actions)] = True
        return mask

    def action_mask(self, player: int) -> npt.NDArray[np.int8]:
        """Seat ``player``'s action mask: int8, shape ``(num_actions,)``, 1 for each legal action.

        All zeros when ``player`` is not the seat to act (or the game is over).
        """
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        if self.player == player:
            mask[list(self.legal_actions)] = 1
        return mask

    def describe(self) -> str:
        """The board as text, then the actions already chosen in the move under way, if any."""
        text = str(self.state)
        if self.prefix:
            names = ", ".join(self.encoding.action_name(a) for a in self.prefix)
            text += f"\nchosen in this move: {names}"
        return text

    def render(self, mode: str | None) -> Any:
        """``"human"``: prints :meth:`describe` and returns None; ``"ansi"``: :meth:`describe`;
        ``"rgb_array"``: the board as a (h, w, 3) uint8 array
        (:func:`pacru._raster.rgb_array`); ``None`` for no mode."""
        if mode == "human":
            print(self.describe(), flush=True)
            return None
        if mode == "ansi":
            return self.describe()
        if mode == "rgb_array":
            from pacru._raster import rgb_array

            return rgb_array(self.state)
        return None

    def returns(self) -> tuple[float, ...]:
        """Each seat's payoff (:meth:`pacru.GameState.returns`): zeros while the game runs."""
        return tuple(self.state.returns())

    def observation(self, player: int) -> Any:
        """Seat ``player``'s observation tensor (:meth:`pacru.encoding.Encoding.observation`).

        Once the game is over no decision is under way and the tensor is all
        zeros (float32, of the encoding's ``observation_shape``): episodes end
        there, so learners do not evaluate it.
        """
        if self.decision is not None:
            return self.encoding.observation(self.decision, player)
        seat_index(player, self.encoding.players)
        return np.zeros(self.encoding.observation_shape, dtype=np.float32)

    @property
    def prefix(self) -> tuple[int, ...]:
        """The actions already chosen in the current move."""
        return () if self.decision is None else tuple(self.decision.prefix)

    # Immutable: copies are the cursor itself; pickles are a position string and a prefix.
    def __copy__(self) -> Cursor:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Cursor:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.state.to_position(), self.prefix))


def _restore(position: str, prefix: Sequence[int]) -> Cursor:
    state = from_position(position)
    cursor = Cursor.start(Encoding.of(state), state)
    for action in prefix:
        cursor = cursor.step(action)
    return cursor


def action_index(action: object) -> int:
    """An environment's action as an int: any integer ``operator.index`` accepts (numpy's
    scalars and 0-d integer arrays included).

    Raises:
        TypeError: a float, a bool, a string or anything else that is not an integer
            (``int()`` would turn 2.7 into the different action 2).
    """
    index = integer(action)
    if index is None:
        raise TypeError(f"an action is an integer, not {type(action).__name__} {action!r}")
    return index


def check_render_mode(render_mode: str | None) -> None:
    """Raise ``ValueError`` unless ``render_mode`` is None or one of :data:`RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode must be None, 'human', 'ansi' or 'rgb_array', not {render_mode!r}"
        )


def observation_space(encoding: Encoding, dtype: Any = np.float32) -> spaces.Dict:
    """The Gymnasium ``Dict`` space of an observation with its mask (PettingZoo, Gymnasium).

    ``"observation"``: a float32 ``Box`` of ``encoding.observation_shape`` in
    [0, 1] (every plane of :mod:`pacru.encoding` is 0/1 or a share: supply,
    captures, counters), a uint8 one in [0, 255] (each value times 255) or a
    bool one, as ``dtype`` says; ``"action_mask"``: an int8 ``Box`` of shape
    ``(num_actions,)`` in {0, 1}. A new space at every call, so that each
    agent's space is seeded on its own.
    """
    from gymnasium import spaces  # only PettingZoo and Gymnasium need it

    shape = tuple(encoding.observation_shape)
    kind = np.dtype(dtype)
    if kind == np.bool_:
        observation: spaces.Space[Any] = spaces.MultiBinary(shape)
    else:
        high = 255 if kind == np.uint8 else 1.0
        observation = spaces.Box(0, high, shape=shape, dtype=kind.type)
    return spaces.Dict(
        {
            "observation": observation,
            "action_mask": spaces.Box(0, 1, shape=(encoding.num_actions,), dtype=np.int8),
        }
    )
