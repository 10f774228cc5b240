"""Boards as RGB arrays, for the ``rgb_array`` render mode of the PettingZoo and Gymnasium adapters.

The SVG of :func:`pacru.svg.board` is rasterised by cairosvg (which needs the
system cairo library) and its PNG decoded by Pillow, which cairosvg itself
depends on, so the render mode adds no dependency beyond cairosvg.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from pacru.base import GameState
from pacru.svg import board

__all__ = ["rgb_array"]


def rgb_array(state: GameState[Any], size: int = 400) -> Any:
    """The board of ``state`` as a ``uint8`` array of shape (height, width, 3).

    ``size`` is in pixels as for :func:`pacru.svg.board` (a chevron board is
    ``size`` square; an LSD field keeps its proportions and is smaller while it
    spans fewer than three cells); the last move is marked.

    Raises:
        ImportError: cairosvg is not installed, or the cairo library is
            missing (``pip install cairosvg``; it is in the ``pettingzoo``
            and ``gymnasium`` extras).
    """
    try:
        import cairosvg  # type: ignore[import-untyped,import-not-found,unused-ignore]
        from PIL import Image
    except (ImportError, OSError) as err:  # OSError: cairosvg without the cairo library
        raise ImportError(
            f"the rgb_array render mode needs cairosvg and the cairo library: {err}"
        ) from err
    svg = board(state, size=size, last_move=state.last_move)
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()
