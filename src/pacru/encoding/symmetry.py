"""The eight symmetries of the chevron board, for data augmentation: :data:`SYMMETRIES`.

The rules of the four chevron games commute with rotating and mirroring the
9x9 board (the borderlands map onto borderlands; a mirror reverses the sense of
a twist {S-R4, A-R6} and of a reorientation's turn {R14}): the image of a
position plays the images of its moves. Each :class:`Symmetry` carries a
position, a move, an observation of :mod:`pacru.encoding.chevron` and its
actions (:attr:`Symmetry.action_permutation`) to their images, so that one
training sample gives eight.

=====================  ==========================================================
block of actions       image
=====================  ==========================================================
pass, benefit none,    unchanged
connection change
a field (origin,       the field's image
target, marker,
meeting, relinquish)
turn ``TURN + i``      unchanged by a rotation; by a mirror the opposite turn
                       (``<<`` and ``>>``, ``<`` and ``>`` swap)
twist                  unchanged by a rotation; ``<`` and ``>`` swap in a mirror
=====================  ==========================================================

The observation's planes keep their order but for those a symmetry moves: a
chevron's facing plane goes to its facing's image, and a mirror swaps the
chosen-turn and chosen-twist planes as it swaps those actions; every plane's
81 fields move to their images.

Exact for every decision but one: the fields a reorientation gives up {R14}
are chosen in ascending field order, which a symmetry does not keep, so the
image of a relinquish decision after the first is a legal decision of the image
position only up to that order (the image of the whole move, a set of fields,
is exact). Only the chevron games have these symmetries (LSD's board is
unbounded and its encoding a window).

>>> from pacru.encoding.symmetry import SYMMETRIES
>>> [s.name for s in SYMMETRIES][:3]
['identity', 'rotate-90', 'rotate-180']
>>> from pacru.geometry import FIELD_NAMES
>>> FIELD_NAMES[SYMMETRIES[1].field(FIELD_NAMES.index("a1"))]
'a9'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from pacru.chevron.move import Move
from pacru.encoding.base import Encoding
from pacru.encoding.chevron import (
    MARKER,
    MEETING,
    NUM_ACTIONS,
    ORIGIN,
    RELINQUISH,
    TARGET,
    TURN,
    TWIST,
)
from pacru.geometry import E5, FIELD_NAMES, NEIGHBOUR, Direction

__all__ = ["SYMMETRIES", "Symmetry"]

_FIELD_BLOCKS: Final = (ORIGIN, TARGET, MARKER, MEETING, RELINQUISH)
_FACING: Final = re.compile(r"^(chevrons seat \d+ facing )(NE|NW|SE|SW|N|E|S|W)$")
_MIRRORED_PLANES: Final = {
    "chosen turn <<": "chosen turn >>",
    "chosen turn >>": "chosen turn <<",
    "chosen turn <": "chosen turn >",
    "chosen turn >": "chosen turn <",
    "chosen twist <": "chosen twist >",
    "chosen twist >": "chosen twist <",
}


@attrs.frozen
class Symmetry:
    """One symmetry of the board: where each field and direction goes.

    Attributes:
        name: ``"identity"``, ``"rotate-90"`` (a quarter turn clockwise seen
            from above), ``"rotate-180"``, ``"rotate-270"``, ``"mirror-files"``,
            ``"mirror-ranks"``, ``"mirror-diagonal"`` or ``"mirror-antidiagonal"``.
        fields: the image of each field (index 0..80, a1=0, row-major from rank 1).
        directions: the image of each direction (:class:`pacru.geometry.Direction`).
        mirror: whether it reverses the sense of rotation (twists and turns flip).
        action_permutation: the image of each action of the chevron encoding
            (415 of them): ``action_permutation[a]`` is the image of action ``a``.
    """

    name: str
    fields: tuple[int, ...]
    directions: tuple[int, ...]
    mirror: bool
    action_permutation: tuple[int, ...] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        perm = list(range(NUM_ACTIONS))
        for block in _FIELD_BLOCKS:
            for f in range(81):
                perm[block + f] = block + self.fields[f]
        if self.mirror:
            for i in range(4):
                perm[TURN + i] = TURN + 3 - i  # turns (-2, -1, 1, 2) reversed
            perm[TWIST] = TWIST + 2
            perm[TWIST + 2] = TWIST
        object.__setattr__(self, "action_permutation", tuple(perm))

    def field(self, field: int) -> int:
        """The image of ``field`` (0..80)."""
        return self.fields[field]

    def move(self, move: Move) -> Move:
        """The image of a chevron move: fields mapped, twist and turn reversed by a mirror."""
        sign = -1 if self.mirror else 1

        def f(x: int | None) -> int | None:
            return None if x is None else self.fields[x]

        return Move(
            f(move.origin),
            f(move.target),
            capture=move.capture,
            twist=sign * move.twist,
            turn=sign * move.turn,
            connection=move.connection,
            marker=f(move.marker),
            meeting=f(move.meeting),
            relinquished=tuple(sorted(self.fields[x] for x in move.relinquished)),
        )

    def position(self, text: str, colours: Mapping[str, str] | None = None) -> str:
        """The image of a chevron position string (:meth:`pacru.GameState.to_position`).

        Every field and facing is mapped; ``colours`` (optional) renames the seats'
        colours too, for a rotation that carries one seat's start onto another's
        (a half turn swaps the two standard 2-player seats).
        """
        rename = colours or {}

        def colour(name: str) -> str:
            return rename.get(name, name)

        def item(m: re.Match[str]) -> str:
            field = FIELD_NAMES[self.fields[FIELD_NAMES.index(m.group(1))]]
            facing = m.group(2) or ""
            if facing:
                facing = Direction(self.directions[Direction[facing]]).name
            return field + facing

        words = []
        for word in text.split():
            key, sep, value = word.partition("=")
            if key in ("players", "turn", "out", "trigger") and rename:
                value = ",".join(colour(c) for c in value.split(","))
            elif key in ("markers", "chevrons") and value != "-":
                groups = []
                for group in value.split(";"):
                    owner, _, items = group.partition(":")
                    mapped = re.sub(r"([a-i][1-9])(NE|NW|SE|SW|N|E|S|W)?", item, items)
                    groups.append(f"{colour(owner)}:{mapped}")
                value = ";".join(groups)
            words.append(key + sep + value)
        return " ".join(words)

    def actions(self, actions: Any) -> npt.NDArray[np.intp]:
        """The images of an array of actions (any shape)."""
        images: npt.NDArray[np.intp] = np.asarray(self.action_permutation, dtype=np.intp)[
            np.asarray(actions)
        ]
        return images

    def action_mask(self, mask: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """The image of masks or per-action values ``(..., 415)``.

        ``out[..., action_permutation[a]]`` is ``mask[..., a]``.
        """
        out = np.empty_like(mask)
        out[..., np.asarray(self.action_permutation)] = mask
        return out

    def observation(self, observation: npt.NDArray[Any], encoding: Encoding) -> npt.NDArray[Any]:
        """The image of observations ``(..., planes, 9, 9)`` of the chevron ``encoding``.

        Raises:
            ValueError: ``encoding`` is not a chevron game's.
        """
        names = encoding.plane_names()
        if encoding.game == "lsd":
            raise ValueError("only the chevron games have board symmetries")
        index = {n: i for i, n in enumerate(names)}
        order = [index[self._plane(n)] for n in names]
        planes = np.empty_like(observation)
        planes[..., order, :, :] = observation  # plane i goes to the image's plane
        flat = planes.reshape(*planes.shape[:-2], 81)
        out = np.empty_like(flat)
        out[..., np.asarray(self.fields)] = flat
        return out.reshape(observation.shape)

    def _plane(self, name: str) -> str:
        m = _FACING.match(name)
        if m:
            return m.group(1) + Direction(self.directions[Direction[m.group(2)]]).name
        if self.mirror:
            return _MIRRORED_PLANES.get(name, name)
        return name


def _symmetry(name: str, xy: Callable[[int, int], tuple[int, int]], mirror: bool) -> Symmetry:
    fields = []
    for f in range(81):
        x, y = xy(f % 9, f // 9)
        fields.append(y * 9 + x)
    directions = []
    for d in Direction:
        # The image of a direction is the step between the images of e5 and its neighbour.
        a, b = fields[E5], fields[NEIGHBOUR[E5][d]]
        step = (b % 9 - a % 9, b // 9 - a // 9)
        directions.append(next(e for e in Direction if e.delta == step))
    return Symmetry(name, tuple(fields), tuple(directions), mirror)


#: The eight symmetries of the square board, the identity first: the four rotations
#: (clockwise seen from above), then the four mirrors.
SYMMETRIES: Final = (
    _symmetry("identity", lambda x, y: (x, y), mirror=False),
    _symmetry("rotate-90", lambda x, y: (y, 8 - x), mirror=False),
    _symmetry("rotate-180", lambda x, y: (8 - x, 8 - y), mirror=False),
    _symmetry("rotate-270", lambda x, y: (8 - y, x), mirror=False),
    _symmetry("mirror-files", lambda x, y: (8 - x, y), mirror=True),
    _symmetry("mirror-ranks", lambda x, y: (x, 8 - y), mirror=True),
    _symmetry("mirror-diagonal", lambda x, y: (y, x), mirror=True),
    _symmetry("mirror-antidiagonal", lambda x, y: (8 - y, 8 - x), mirror=True),
)
