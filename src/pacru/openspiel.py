"""The pacru games as OpenSpiel games: ``pyspiel.load_game("pacru_pacru(players=3)")``.

:func:`register` registers five Python games with OpenSpiel (extra
``openspiel``: ``pip install "pacru[openspiel]"``):

==============  ===========  =================================================
OpenSpiel name  pacru game   parameters (defaults)
==============  ===========  =================================================
pacru_lilacru   Lilacru      ``players`` (2)
pacru_shacru    Shacru       ``players`` (2)
pacru_azacru    Azacru       ``players`` (2), ``move_cap`` (:data:`MOVE_CAP`)
pacru_pacru     Pacru        ``players`` (2), ``move_cap`` (:data:`MOVE_CAP`)
pacru_lsd       LSD          ``players`` (2)
==============  ===========  =================================================

``players`` is 2, 3 or 4. The games are sequential, deterministic (no chance
nodes) and of perfect information, with terminal rewards only. One OpenSpiel
action is one *decision* of :mod:`pacru.encoding`: a move takes one or more
decisions by the same player (``current_player()`` stays the same until the
move is complete), so ``num_distinct_actions()`` is the encoding's
``num_actions`` and ``max_game_length()`` is the encoding's bound on plies
times its ``max_decisions``. Pacru and Azacru have no draw rule, so OpenSpiel,
which needs a finite game, gets the non-official ``move_cap`` of ruling D32:
the game ends without a winner after that many plies.

Returns are :meth:`pacru.GameState.returns` (see there for shared wins and
capped games). Observation tensors come from
:meth:`pacru.encoding.Encoding.observation` through OpenSpiel's observer API,
from the observing player's point of view; ``observation_string`` is the
board diagram with the decision under way, and ``information_state_string``
the action history (the game has perfect information, so the history is all
a player knows). ``serialize()`` stores the position string
(:meth:`pacru.GameState.to_position`) and the actions of the move under way;
``clone()`` is cheap, because pacru's states are immutable values.

OpenSpiel itself applies any action a Python game is given; these games
refuse an action outside ``legal_actions()`` with
:class:`pacru.IllegalMoveError` (a ``ValueError``) and leave the state as it
was.

>>> import pyspiel
>>> import pacru.openspiel
>>> pacru.openspiel.register()
>>> game = pyspiel.load_game("pacru_shacru(players=3)")
>>> game.num_players(), game.get_type().short_name
(3, 'pacru_shacru')
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
from open_spiel.python.observation import (  # type: ignore[import-not-found,import-untyped,unused-ignore]
    IIGObserverForPublicInfoGame,
)

from pacru._cursor import Cursor
from pacru._integers import integer
from pacru.encoding import Encoding
from pacru.games import GAMES

__all__ = [
    "GAME_CLASSES",
    "MOVE_CAP",
    "NAMES",
    "AzacruGame",
    "LilacruGame",
    "LsdGame",
    "PacruGame",
    "ShacruGame",
    "SpielGame",
    "SpielState",
    "game_type",
    "register",
]

#: pacru game -> OpenSpiel short name.
NAMES: Final[dict[str, str]] = {game: f"pacru_{game}" for game in GAMES}

#: Default ``move_cap`` (plies) of the Azacru and Pacru games under OpenSpiel (ruling D32).
MOVE_CAP: Final = 1000

_LONG: Final = {
    "lilacru": "Lilacru",
    "shacru": "Shacru",
    "azacru": "Azacru",
    "pacru": "Pacru",
    "lsd": "LSD (Linearity, Simplicity, Duality)",
}


def _parameters(game: str) -> dict[str, Any]:
    params: dict[str, Any] = {"players": 2}
    if game in ("azacru", "pacru"):
        params["move_cap"] = MOVE_CAP
    return params


def game_type(game: str, players: int | None = None) -> Any:
    """The ``pyspiel.GameType`` of ``game`` (a name of :data:`pacru.GAMES`).

    The utility follows :meth:`pacru.GameState.returns` (+1 per winner, -1
    per loser, 0 to all without a winner): zero-sum with 2 players, general
    sum with 3 or 4 (one winner against two losers sums to -1, two winners
    against one loser to +1). The type registered for all player counts
    (``players=None``) is general sum; a loaded game reports its own.
    """
    utility = (
        pyspiel.GameType.Utility.ZERO_SUM if players == 2 else pyspiel.GameType.Utility.GENERAL_SUM
    )
    return pyspiel.GameType(
        short_name=NAMES[game],
        long_name=f"pacru {_LONG[game]}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """One pacru game and player count as an OpenSpiel game (built by ``pyspiel.load_game``).

    There is one subclass per game (:data:`GAME_CLASSES`: :class:`LilacruGame`
    ... :class:`LsdGame`), registered with OpenSpiel by :func:`register`.

    Raises:
        ValueError: ``players`` outside 2-4, or a ``move_cap`` below 1.
    """

    #: The pacru game name (set by each subclass).
    game: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.game
        params = {**_parameters(game), **(params or {})}
        players = int(params["players"])
        if not 2 <= players <= 4:
            raise ValueError(f"{NAMES[game]} is played by 2, 3 or 4 players, not {players}")
        options = {k: int(v) for k, v in params.items() if k != "players"}
        self.players = players
        self.options = options
        self._start = Cursor.new(game, players, options)
        self.encoding = self._start.encoding
        assert self.encoding.max_game_length is not None  # bounded by move_cap (D32)
        super().__init__(
            game_type(game, players),
            pyspiel.GameInfo(
                num_distinct_actions=self.encoding.num_actions,
                max_chance_outcomes=0,
                num_players=players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if players == 2 else None,
                max_game_length=self.encoding.max_game_length * self.encoding.max_decisions,
            ),
            params,
        )

    def new_initial_state(self) -> SpielState:
        """The start of a game."""
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The observer of OpenSpiel's observation API: pacru's tensor, or the action history."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self.encoding, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A position and the decision under way, as an OpenSpiel state.

    ``pacru_state`` is the :class:`pacru.GameState` being moved in (or the
    final one), ``prefix`` the actions already chosen in the move under way.
    """

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self._cursor: Cursor = game._start

    @property
    def pacru_state(self) -> Any:
        """The :class:`pacru.GameState` (the position being moved in, or the final one)."""
        return self._cursor.state

    @property
    def prefix(self) -> tuple[int, ...]:
        """The actions already chosen in the move under way."""
        return self._cursor.prefix

    def current_player(self) -> int:
        """The seat to act (turn order of ``pacru_state.players``), or ``TERMINAL``."""
        player = self._cursor.player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._cursor.legal_actions)

    def apply_action(self, action: int) -> None:
        """Take ``action`` (an ``int`` or any integer type :func:`operator.index` accepts).

        Raises:
            IllegalMoveError: ``action`` is not one of ``legal_actions()``: -1
                (OpenSpiel's "invalid action", which its own check would refuse
                with a ``SpielError``), a number outside the action range, or
                not an integer; the state is unchanged.
            GameOverError: the game is over.
        """
        decision = self._cursor.decision
        number = integer(action)
        if decision is not None and (number is None or number not in decision.legal_actions):
            decision.choose(action)  # raises the IllegalMoveError naming the legal actions
        super().apply_action(action if number is None else number)

    def _apply_action(self, action: int) -> None:
        # OpenSpiel does not check Python games' actions: the cursor refuses illegal ones.
        self._cursor = self._cursor.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._cursor.encoding.action_name(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._cursor.is_over

    def returns(self) -> list[float]:
        """Each player's payoff (:meth:`pacru.GameState.returns`); zeros while it runs."""
        return list(self._cursor.returns())

    def __str__(self) -> str:
        return self._cursor.describe()


class _Observer:
    """OpenSpiel's PyObserver: ``tensor`` (flat) and ``dict`` (shaped views of it)."""

    def __init__(self, encoding: Encoding, params: Any) -> None:
        if params:
            raise ValueError(f"the pacru observer takes no parameters, not {params!r}")
        shape = tuple(encoding.observation_shape)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: SpielState, player: int) -> None:
        self.dict["observation"][...] = state._cursor.observation(player)

    def string_from(self, state: SpielState, player: int) -> str:
        return state._cursor.describe()


def register() -> None:
    """Register the five pacru games with OpenSpiel (again: no effect).

    After it, ``pyspiel.load_game("pacru_pacru")`` or
    ``pyspiel.load_game("pacru_lsd(players=4)")`` loads a game.
    """
    known = set(pyspiel.registered_names())
    for game, name in NAMES.items():
        if name not in known:
            # A class, not a closure: OpenSpiel's registry outlives the interpreter, and a
            # closure it holds crashes Python at exit.
            pyspiel.register_game(game_type(game), GAME_CLASSES[game])


class LilacruGame(SpielGame):
    """``pacru_lilacru``."""

    game = "lilacru"


class ShacruGame(SpielGame):
    """``pacru_shacru``."""

    game = "shacru"


class AzacruGame(SpielGame):
    """``pacru_azacru``."""

    game = "azacru"


class PacruGame(SpielGame):
    """``pacru_pacru``."""

    game = "pacru"


class LsdGame(SpielGame):
    """``pacru_lsd``."""

    game = "lsd"


#: pacru game -> its :class:`SpielGame` subclass (module attributes, so that games pickle).
GAME_CLASSES: Final[dict[str, type[SpielGame]]] = {
    cls.game: cls for cls in (LilacruGame, ShacruGame, AzacruGame, PacruGame, LsdGame)
}
