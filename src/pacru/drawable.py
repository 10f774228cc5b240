"""What a drawing reads of a position: the interfaces :func:`pacru.svg.board` draws through.

The drawing code knows no state class: it reads a chevron-game state through
:class:`ChevronBoard` and an LSD state through :class:`LsdField`, so it sits
above nothing game-specific and any object with these members can be drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pacru.geometry import Direction

__all__ = ["ChevronBoard", "ChevronView", "LsdField"]


class ChevronView(Protocol):
    """A chevron as drawn: its owner's colour and its facing {G4} (:class:`pacru.Chevron`)."""

    @property
    def owner(self) -> str: ...

    @property
    def facing(self) -> Direction: ...


class ChevronBoard(Protocol):
    """What the drawing reads of a chevron-game state (:class:`pacru.ChevronState`)."""

    def marker_map(self) -> Mapping[str, str]:
        """Field name -> marker colour, for every marked field."""
        ...

    def chevron_map(self) -> Mapping[str, ChevronView]:
        """Field name -> chevron, for every chevron on the board."""
        ...


class LsdField(Protocol):
    """What the drawing reads of an LSD state (:class:`pacru.lsd.LsdState`).

    A tile is read for its ``owner``, ``shade``, ``shape``, ``sides``,
    ``icon`` and ``face`` (:class:`pacru.lsd.Tile`).
    """

    @property
    def field(self) -> Mapping[tuple[int, int], Any]:
        """Cell ``(x, y)`` -> the tile on it."""
        ...

    @property
    def open_cells(self) -> Sequence[tuple[int, int]]:
        """The empty cells a tile could go to."""
        ...
