"""The search bot with a network evaluation: :class:`NetworkBot` (``"network"``).

=================  ==========================================================
games              the four chevron games, 2 to 4 players; not LSD
search             the alpha-beta search of :class:`~pacru.bots.SearchBot`
                   (the same move ordering, reorientations by family, budget,
                   seed and Ctrl-C), in the native extension
evaluation         a small network in the search's leaves, run in Rust on the
                   CPU: about a hundred sparse board inputs that are on (the
                   markers and chevrons with their facings of each player,
                   seen from the player valued, the player to move, the game
                   and player count) and the search's 15 relative features,
                   into two hidden layers (32 and 16 units by default) and a
                   logit of the player's share of the win
weights            trained by pacru's own self-play (``pacru train``) and
                   shipped as package data in ``pacru/bots/data``: a game's
                   own network where one ships (:func:`network_file`, e.g.
                   ``network-azacru-2.bin``), else ``network.bin``;
                   ``network=`` takes another file for every game
=================  ==========================================================

Like ``search``, it needs the native extension: a build without it raises
:class:`~pacru.bots.SearchUnavailableError` from the constructor (the ``pacru``
command refuses such a bot in one line).
"""

from __future__ import annotations

import operator
import os
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, TypeVar

from pacru.base import GameState
from pacru.bots.search import SearchBot, SearchUnavailableError
from pacru.chevron.engine import SEARCH
from pacru.chevron.state import ChevronState

__all__ = ["NETWORK_FILE", "SHIPPED_NETWORKS", "NetworkBot", "load_network", "network_file"]

MoveT = TypeVar("MoveT")

#: The file name in ``pacru/bots/data`` of the shipped network that serves every game
#: without a network of its own (:func:`network_file`).
NETWORK_FILE: Final = "network.bin"

#: The games (name, player count) that a network of their own serves, and its file name
#: in ``pacru/bots/data``; one file may serve several games.
SHIPPED_NETWORKS: Final[Mapping[tuple[str, int], str]] = MappingProxyType(
    {
        ("shacru", 2): "network-shacru-2.bin",
        ("lilacru", 2): "network-values.bin",
        ("azacru", 2): "network-azacru-2.bin",
        ("pacru", 2): "network-pacru-2.bin",
    }
)


def _data(name: str) -> Any:
    return resources.files("pacru.bots").joinpath("data", name)


def network_file(game: str, players: int) -> str:
    """The file name in ``pacru/bots/data`` of the shipped network that serves ``game``
    (``"lilacru"``, ``"shacru"``, ``"azacru"`` or ``"pacru"``) with ``players`` players
    (2 to 4): the game's own file in :data:`SHIPPED_NETWORKS` (e.g.
    ``network-azacru-2.bin``), else :data:`NETWORK_FILE`.

    A game ships a network of its own only where one beat :data:`NETWORK_FILE` there
    head to head (the docs' network page lists them, with how each was trained).

    Raises:
        ValueError: ``game`` is not a chevron game, or ``players`` is not 2 to 4.
        TypeError: ``players`` is not an integer.
    """
    count = operator.index(players)
    if game not in _GAMES or not 2 <= count <= 4:
        raise ValueError(
            f"a shipped network serves a chevron game ({', '.join(_GAMES)}) with 2 to 4 players, "
            f"not {game!r} with {players!r}"
        )
    return SHIPPED_NETWORKS.get((game, count), NETWORK_FILE)


#: The chevron games, as ``network_file`` takes them.
_GAMES: Final = ("lilacru", "shacru", "azacru", "pacru")


@cache
def _read_shipped(name: str = NETWORK_FILE) -> bytes:
    data: bytes = _data(name).read_bytes()
    return data


def load_network(source: str | os.PathLike[str] | bytes | None = None) -> Any:
    """The extension's ``Network`` of ``source``: the bytes of a network file, its path,
    or None for the shipped network of every game, :data:`NETWORK_FILE`.

    Raises:
        ValueError: bytes that are not a network of this version (the reason: its
            format, inputs, layer sizes, length or a weight that is not finite).
        OSError: a path that cannot be read.
        SearchUnavailableError: pacru was built without its native extension.
    """
    if source is None:
        data = _read_shipped()
    elif isinstance(source, bytes):
        data = source
    else:
        data = Path(source).read_bytes()
    network = SEARCH.network(data)
    if network is None:
        raise SearchUnavailableError(
            "the network needs pacru's native extension (pacru._native), which this build "
            "of pacru lacks"
        )
    return network


class NetworkBot(SearchBot):
    """:class:`~pacru.bots.SearchBot` with a network evaluation (module docstring).

    Args:
        seed: seed of the evaluation's noise; ``None`` draws a fresh one.
        nodes: positions the search may visit per move (1 to 2**64 - 1);
            default 50,000 when ``time_limit`` is not given either.
        time_limit: seconds of search per move (positive, finite).
        depth: stop after completing this many plies (1 to 64).
        network: the network of every game: a file's path or bytes (the
            format ``pacru train`` writes); default the shipped network of
            each state's game and player count (:func:`network_file`).
        name: the label in tables (default ``"network(nodes=...)"``).

    The same ``seed`` and ``nodes`` give the same moves.

    Raises:
        ValueError: a budget out of range, or a network that is not one of this
            version.
        SearchUnavailableError: pacru was built without its native extension.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        nodes: int | None = None,
        time_limit: float | None = None,
        depth: int | None = None,
        network: str | os.PathLike[str] | bytes | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(seed, nodes=nodes, time_limit=time_limit, depth=depth, name=name)
        self._network = load_network(network)
        #: Whether the shipped networks serve (no ``network=``): then each state's game
        #: picks its file. The extension's networks by file name, loaded once a bot.
        self._shipped: dict[str, Any] | None = None
        if network is None:
            self._shipped = {NETWORK_FILE: self._network}
        if name is None:
            self.name = self.name.replace("search(", "network(", 1)

    def choose_move(self, state: GameState[MoveT]) -> MoveT:
        """The search's move in ``state``, its leaves valued by the network of
        ``state``'s game and player count (:func:`network_file`) unless ``network=``
        was given; raises as :meth:`pacru.bots.SearchBot.choose_move`."""
        if self._shipped is not None and isinstance(state, ChevronState):
            name = network_file(state.rules.game, len(state.players))
            if name not in self._shipped:
                self._shipped[name] = load_network(_read_shipped(name))
            self._network = self._shipped[name]
        return super().choose_move(state)
