"""The pacru games as OpenSpiel games: ``pyspiel.load_game("pacru_pacru(players=3)")``.

:func:`register` registers five Python games with OpenSpiel (extra
``openspiel``: ``pip install "pacru[openspiel]"``):

==============  ===========  =================================================
OpenSpiel name  pacru game   parameters (defaults)
==============  ===========  =================================================
pacru_lilacru   Lilacru      ``players`` (2), the chevron options,
                             ``idle_rounds`` (81)
pacru_shacru    Shacru       as Lilacru
pacru_azacru    Azacru       ``players`` (2), the chevron options,
                             ``move_cap`` (:data:`MOVE_CAP`)
pacru_pacru     Pacru        as Azacru, and ``meeting_rule`` (``""``: the
                             2011 rule; or ``"original"``; ruling D48)
pacru_lsd       LSD          ``players`` (2), ``colours``, ``shades``,
                             ``tile_set``, ``first_player`` (``""``),
                             ``row_length`` (0), ``allow_rotation``,
                             ``strict_dot_matching``,
                             ``enforce_shade_alternation`` (``True``)
==============  ===========  =================================================

The chevron options are ``start_layout`` (``"standard"``), ``colours``,
``first_player`` and ``turn_order`` (``""``). Every parameter is the option of
the same name of :func:`pacru.new_game` (:data:`PARAMETERS`); an empty text
or a ``row_length`` of 0 keeps the game's default, and a list of names
(``colours``, ``turn_order``, ``shades``) is written with ``/`` between the
names (a comma would end the parameter in OpenSpiel's game string), and so are
the entries of a ``tile_set`` (``+NESW*3/xN*2``):
``pyspiel.load_game("pacru_pacru(colours=red/blue,meeting_rule=original)")``.

``players`` is 2, 3 or 4. The games are sequential, deterministic (no chance
nodes) and of perfect information, with terminal rewards only. One OpenSpiel
action is one *decision* of :mod:`pacru.encoding`: a move takes one or more
decisions by the same player (``current_player()`` stays the same until the
move is complete), so ``num_distinct_actions()`` is the encoding's
``num_actions`` and ``max_game_length()`` is the encoding's bound on plies
times its ``max_decisions``. Pacru and Azacru have no draw rule, so OpenSpiel,
which needs a finite game, gets the non-official ``move_cap`` of ruling D32:
the game ends without a winner after that many plies. Lilacru and Shacru end
at the latest after ``idle_rounds`` rounds without an acquired field (ruling
D33), at most once per field, so their bound is ``82 * idle_rounds *
players`` plies: ``idle_rounds=2`` gives a short bound for search.

:class:`PacruBot` makes any pacru bot (:mod:`pacru.bots`) a ``pyspiel.Bot``,
so that OpenSpiel's ``evaluate_bots`` and its own bots can play against it.

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

from pacru._cursor import DEFAULT_MOVE_CAP, Cursor
from pacru._integers import integer
from pacru.encoding import Encoding
from pacru.games import GAMES

__all__ = [
    "GAME_CLASSES",
    "MOVE_CAP",
    "NAMES",
    "PARAMETERS",
    "AzacruGame",
    "LilacruGame",
    "LsdGame",
    "PacruBot",
    "PacruGame",
    "ShacruGame",
    "SpielGame",
    "SpielState",
    "game_options",
    "game_type",
    "register",
]

#: pacru game -> OpenSpiel short name.
NAMES: Final[dict[str, str]] = {game: f"pacru_{game}" for game in GAMES}

#: Default ``move_cap`` (plies) of the Azacru and Pacru games under OpenSpiel (ruling D32):
#: the one of every learning adapter, :data:`pacru._cursor.DEFAULT_MOVE_CAP`.
MOVE_CAP: Final = DEFAULT_MOVE_CAP

_LONG: Final = {
    "lilacru": "Lilacru",
    "shacru": "Shacru",
    "azacru": "Azacru",
    "pacru": "Pacru",
    "lsd": "LSD (Linearity, Simplicity, Duality)",
}


_CHEVRON: Final[dict[str, Any]] = {
    "start_layout": "standard",
    "colours": "",
    "first_player": "",
    "turn_order": "",
}

#: pacru game -> its OpenSpiel parameters (besides ``players``) and their defaults.
PARAMETERS: Final[dict[str, dict[str, Any]]] = {
    "lilacru": {**_CHEVRON, "idle_rounds": 81},
    "shacru": {**_CHEVRON, "idle_rounds": 81},
    "azacru": {**_CHEVRON, "move_cap": MOVE_CAP},
    # "" is the 2011 meeting rule: a game string would read "2011" as a number.
    "pacru": {**_CHEVRON, "meeting_rule": "", "move_cap": MOVE_CAP},
    "lsd": {
        "colours": "",
        "shades": "",
        "tile_set": "",
        "first_player": "",
        "row_length": 0,
        "allow_rotation": True,
        "strict_dot_matching": True,
        "enforce_shade_alternation": True,
    },
}

# Options whose value is a list of names, written with "/" between them in a parameter.
_LISTS: Final = frozenset({"colours", "turn_order", "shades"})


def _parameters(game: str) -> dict[str, Any]:
    return {"players": 2, **PARAMETERS[game]}


def game_options(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """The :func:`pacru.new_game` options of OpenSpiel parameters ``params`` (without ``players``).

    An empty text or a ``row_length`` of 0 is left out (the game's
    default); ``colours``, ``turn_order`` and ``shades`` are split at ``/``, and
    the entries of a ``tile_set`` are separated by ``/`` (``+NESW*3/xN*2``).

    Raises:
        ValueError: a parameter ``game`` does not have.
    """
    known = PARAMETERS[game]
    options: dict[str, Any] = {}
    for key, value in params.items():
        if key == "players":
            continue
        if key not in known:
            raise ValueError(
                f"{NAMES[game]} has no parameter {key!r}; parameters: players, {', '.join(known)}"
            )
        default = known[key]
        if isinstance(default, bool):
            options[key] = bool(value)
        elif isinstance(default, int):
            if int(value) != 0 or key != "row_length":
                options[key] = int(value)
        elif str(value):
            text = str(value)
            if key in _LISTS:
                options[key] = tuple(p.strip() for p in text.split("/"))
            else:  # a tile set's entries are separated by "/" here, by "," in pacru's text
                options[key] = text.replace("/", ",") if key == "tile_set" else text
    return options


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
        ValueError: ``players`` outside 2-4, an unknown parameter, or an
            option :func:`pacru.new_game` refuses (a ``move_cap`` below 1,
            an unknown ``meeting_rule`` ...).
    """

    #: The pacru game name (set by each subclass).
    game: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.game
        params = {**_parameters(game), **(params or {})}
        players = int(params["players"])
        if not 2 <= players <= 4:
            raise ValueError(f"{NAMES[game]} is played by 2, 3 or 4 players, not {players}")
        options = game_options(game, params)
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


class PacruBot(pyspiel.Bot):  # type: ignore[misc]
    """A pacru bot (:class:`pacru.bots.Bot`) as a ``pyspiel.Bot``, decision by decision.

    At the first decision of a move the bot chooses a complete move in the
    position (``bot.choose_move``); :meth:`step` then answers that move's
    actions (:meth:`pacru.encoding.Encoding.actions`) one decision at a
    time, while ``current_player()`` stays the same. It plays the states of
    the games registered here (:class:`SpielState`), for example with
    ``open_spiel.python.algorithms.evaluate_bots.evaluate_bots`` against
    OpenSpiel's own bots.

    Args:
        bot: the pacru bot, e.g. ``pacru.bots.MCTSBot(seed=1)``.

    >>> import numpy as np
    >>> import pyspiel
    >>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    >>> from pacru.bots import GreedyBot
    >>> from pacru.openspiel import PacruBot, register
    >>> register()
    >>> game = pyspiel.load_game("pacru_shacru")
    >>> bots = [PacruBot(GreedyBot(seed=1)), pyspiel.make_uniform_random_bot(1, 2)]
    >>> evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0))
    [1.0, -1.0]
    """

    def __init__(self, bot: Any) -> None:
        super().__init__()
        self.bot = bot
        self._plan: tuple[Any, tuple[int, ...]] | None = None

    def step(self, state: SpielState) -> int:
        """The action of the current decision: the next action of the bot's move.

        Raises:
            GameOverError: the game is over.
        """
        cursor = state._cursor
        position = cursor.state
        prefix = cursor.prefix
        plan = self._plan
        if plan is None or plan[0] is not position or plan[1][: len(prefix)] != prefix:
            move = self.bot.choose_move(position)
            actions = cursor.encoding.actions(position, move)
            if actions[: len(prefix)] != prefix:
                # Another agent chose part of this move: play on from its choice.
                return int(cursor.legal_actions[0])
            plan = self._plan = (position, actions)
        return int(plan[1][len(prefix)])

    def restart_at(self, state: SpielState) -> None:
        """Forget the move under way (a new game, or a jump to ``state``)."""
        self._plan = None

    def restart(self) -> None:
        """Forget the move under way."""
        self._plan = None

    def inform_action(self, state: SpielState, player_id: int, action: int) -> None:
        """Another player's action: nothing to do (the bot reads each position afresh)."""

    def provides_policy(self) -> bool:
        """No policy: the bot answers one action."""
        return False

    def is_clonable(self) -> bool:
        """Not clonable (a pacru bot carries its own generator)."""
        return False
