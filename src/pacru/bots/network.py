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
                   shipped as package data (``pacru/bots/data/network.bin``);
                   ``network=`` takes another file
=================  ==========================================================

Like ``search``, it needs the native extension: a build without it raises
:class:`~pacru.bots.SearchUnavailableError` from the constructor (the ``pacru``
command refuses such a bot in one line).
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from pacru.bots.search import SearchBot, SearchUnavailableError
from pacru.chevron.engine import SEARCH

__all__ = ["NETWORK_FILE", "NetworkBot", "load_network"]

#: The shipped network's file name in ``pacru/bots/data``.
NETWORK_FILE: Final = "network.bin"


@cache
def _read_shipped() -> bytes:
    return resources.files("pacru.bots").joinpath("data", NETWORK_FILE).read_bytes()


def load_network(source: str | os.PathLike[str] | bytes | None = None) -> Any:
    """The extension's ``Network`` of ``source``: the bytes of a network file, its path,
    or None for the shipped network.

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
        network: the network: a file's path or bytes (the format ``pacru
            train`` writes); default the shipped one.
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
        if name is None:
            self.name = self.name.replace("search(", "network(", 1)
