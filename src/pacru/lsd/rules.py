"""The options of an LSD game and the tables derived from them {LSD 2.5, 3.1, 3.2}.

=============================  ====================================  ======================
Option (``new_game`` kw)       Default                               Rule
=============================  ====================================  ======================
``colours``                    ``(red, yellow, green, blue)[:n]``    RULING 3
``shades``                     black, white, black, white[:n]        3.1, RULING 2, 17
``tile_set``                   :data:`~pacru.lsd.DEFAULT_TILE_SET`   3.1, RULING 1
``allow_rotation``             ``True``                              RULING 4
``strict_dot_matching``        ``True``                              RULING 5
``row_length``                 4, or 3 with four players             1.7, RULING 16
``enforce_shade_alternation``  ``True``                              2.5, RULING 17
``first_player``               the first colour (seat 0: the         RULING 20
                               colours rotate to it)
=============================  ====================================  ======================

:class:`LsdRules` holds one validated set of options plus the lookup tables the
engine indexes (per-seat tile kinds, their orientations, and which dot masks
fit which neighbourhood), so nothing is recomputed during play. Every table is
a tuple or a read-only mapping: one :class:`LsdRules` is shared by all games
with the same options, so none of them can change it for the others.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import Any, Final, SupportsIndex, TypedDict

import attrs

from pacru._integers import integer
from pacru.base import MAX_COLOUR_NAME, player_count_error
from pacru.lsd.tiles import (
    CANONICAL,
    DEFAULT_TILE_SET,
    DOT_BITS,
    ICON_BITS,
    MAX_TILES,
    ROTATE,
    Shade,
    TileSet,
    TileSpec,
    face_code,
    normalize_tile_set,
    sides_to_mask,
)

__all__ = [
    "DEFAULT_COLOURS",
    "OPTION_NAMES",
    "LsdOptions",
    "LsdRules",
    "check_shades",
    "default_row_length",
    "make_rules",
    "rules_from_key",
]

#: Placeholder colour names by seat (the real ones are unknown, RULING 3).
DEFAULT_COLOURS: Final = ("red", "yellow", "green", "blue")
#: Default shade by seat: 0 and 2 black, 1 and 3 white (LSD 3.1).
DEFAULT_SHADES: Final = (Shade.BLACK, Shade.WHITE, Shade.BLACK, Shade.WHITE)
#: Every keyword ``new_game`` accepts besides ``players``.
OPTION_NAMES: Final = (
    "allow_rotation",
    "colours",
    "enforce_shade_alternation",
    "first_player",
    "row_length",
    "shades",
    "strict_dot_matching",
    "tile_set",
)
_COLOUR_RE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


class LsdOptions(TypedDict, total=False):
    """The options of LSD, each optional: keyword arguments of :func:`pacru.new_game`
    (:func:`pacru.lsd.new_game` says what each does), and what
    :meth:`pacru.LsdState.options` returns (every one, with its value). A value of the right
    type can still be refused (a ``ValueError``): two equal colours, a ``row_length`` below 2.
    """

    #: The colour names in turn order.
    colours: Sequence[str] | None
    #: Each colour's icon shade (:class:`~pacru.lsd.Shade`, ``"black"``/``"white"``).
    shades: Sequence[Shade | str] | None
    #: The tiles each colour starts with: entries or text (:func:`~pacru.lsd.normalize_tile_set`).
    tile_set: Iterable[TileSpec | tuple[object, ...]] | str | None
    #: Whether tiles may be turned.
    allow_rotation: bool
    #: Whether a new half dot may not face an old empty side either.
    strict_dot_matching: bool
    #: The length of a winning row (any integer type).
    row_length: SupportsIndex | None
    #: Whether the shades must alternate around the table.
    enforce_shade_alternation: bool
    #: The colour that starts.
    first_player: str | None


def _fit_table(strict: bool) -> tuple[int, ...]:
    """``fit[need | forbid << 4]``: the 16-bit set of dot masks a new tile may show.

    ``need`` marks sides facing a neighbour's half dot, ``forbid`` sides facing
    a neighbour's empty side {LSD 2.2}. A mask fits when it covers ``need``
    (no empty side against a dot), shares nothing with ``forbid`` when strict
    (RULING 5), and ``need`` is not empty (at least one whole dot). An empty
    side may face an empty side (RULING 6) and a half dot an empty cell
    (RULING 7): neither is refused.
    """
    table = []
    for code in range(256):
        need, forbid = code & DOT_BITS, code >> 4
        allowed = 0
        if need and not need & forbid:
            for mask in range(16):
                if mask & need == need and not (strict and mask & forbid):
                    allowed |= 1 << mask
        table.append(allowed)
    return tuple(table)


_FIT: Final = {True: _fit_table(True), False: _fit_table(False)}


@attrs.frozen(repr=False)
class LsdRules:
    """One validated set of LSD options (build it with :func:`make_rules`).

    Attributes:
        colours: colour names in turn (clockwise) order.
        shades: each colour's icon shade, by seat.
        tile_set: the normalised tile set every colour starts with.
        allow_rotation: tiles may be turned before placing (RULING 4).
        strict_dot_matching: a new half dot may not touch an old empty side (RULING 5).
        row_length: tiles of one colour in a straight line that win (1.7, RULING 16).
        enforce_shade_alternation: the setup check of 2.5 was applied.
        first_player: the colour that places the first tile (RULING 20).
    """

    colours: tuple[str, ...]
    shades: tuple[Shade, ...]
    tile_set: TileSet
    allow_rotation: bool
    strict_dot_matching: bool
    row_length: int
    enforce_shade_alternation: bool
    first_player: str
    # Per seat: kind faces (6-bit, ascending), their starting counts, and a map
    # from every face a kind can show on the field to the kind's index.
    kinds: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False)
    initial: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False)
    kind_of: tuple[Mapping[int, int], ...] = attrs.field(init=False, eq=False)
    # Per seat and kind: the distinct ``(dot mask, face)`` orientations, and
    # the 16-bit set of those dot masks (to test a cell in one AND).
    orients: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = attrs.field(init=False, eq=False)
    reach: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False)
    fit: tuple[int, ...] = attrs.field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        kinds, initial, kind_of, orients, reach = [], [], [], [], []
        for shade in self.shades:
            counts: dict[int, int] = {}
            for spec in self.tile_set:
                face = face_code(spec.shape, spec.shade or shade, sides_to_mask(spec.sides))
                counts[face] = counts.get(face, 0) + spec.count
            faces = tuple(sorted(counts))
            seat_orients = []
            seat_kind_of: dict[int, int] = {}
            for index, face in enumerate(faces):
                turns = range(4) if self.allow_rotation else range(1)
                masks = sorted({ROTATE[k][face & DOT_BITS] for k in turns})
                seat_orients.append(tuple((m, face & ICON_BITS | m) for m in masks))
                for m in masks:
                    seat_kind_of[face & ICON_BITS | m] = index
            kinds.append(faces)
            initial.append(tuple(counts[f] for f in faces))
            kind_of.append(seat_kind_of)
            orients.append(tuple(seat_orients))
            reach.append(tuple(sum(1 << m for m, _ in o) for o in seat_orients))
        object.__setattr__(self, "kinds", tuple(kinds))
        object.__setattr__(self, "initial", tuple(initial))
        # Read-only: rules are shared by every game with these options (make_rules).
        object.__setattr__(self, "kind_of", tuple(MappingProxyType(k) for k in kind_of))
        object.__setattr__(self, "orients", tuple(orients))
        object.__setattr__(self, "reach", tuple(reach))
        object.__setattr__(self, "fit", _FIT[self.strict_dot_matching])

    def __reduce__(self) -> tuple[Any, ...]:
        # The read-only tables do not pickle; the shared rules are looked up from the options.
        return (
            rules_from_key,
            (
                (
                    self.colours,
                    self.shades,
                    self.tile_set,
                    self.allow_rotation,
                    self.strict_dot_matching,
                    self.row_length,
                    self.enforce_shade_alternation,
                    self.first_player,
                ),
            ),
        )

    def seat(self, colour: str) -> int:
        """The seat index (0-based turn order) of ``colour``.

        Raises:
            ValueError: not a colour of this game.
        """
        try:
            return self.colours.index(colour)
        except ValueError:
            raise ValueError(
                f"{colour!r} is not a colour in this game ({', '.join(self.colours)})"
            ) from None

    def rotation_of(self, seat: int, face: int) -> int | None:
        """The kind of ``seat`` that ``face`` is a rotation of, even if rotation is off."""
        canonical = face & ICON_BITS | CANONICAL[face & DOT_BITS]
        for index, kind in enumerate(self.kinds[seat]):
            if kind & ICON_BITS | CANONICAL[kind & DOT_BITS] == canonical:
                return index
        return None

    def options(self) -> LsdOptions:
        """The keyword options that rebuild these rules with ``new_game``."""
        return {
            "colours": self.colours,
            "shades": tuple(shade.value for shade in self.shades),
            "tile_set": self.tile_set,
            "allow_rotation": self.allow_rotation,
            "strict_dot_matching": self.strict_dot_matching,
            "row_length": self.row_length,
            "enforce_shade_alternation": self.enforce_shade_alternation,
            "first_player": self.first_player,
        }

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.options().items() if k != "tile_set")
        return f"LsdRules({options}, tile_set=<{sum(s.count for s in self.tile_set)} tiles>)"


def default_row_length(players: int) -> int:
    """4 in a row, or 3 with four players {LSD 1.7, RULING 16}."""
    return 3 if players == 4 else 4


def check_shades(shades: Sequence[Shade]) -> None:
    """The setup check of LSD 2.5 (and RULING 17).

    Two players must have different shades; four must alternate around the
    table (no two consecutive players share a shade); three may split 2+1 but
    not all share one shade.

    Raises:
        ValueError: the shades break the check.
    """
    count = len(shades)
    if count == 3:
        if len(set(shades)) == 1:
            raise ValueError(
                "LSD 2.5 / RULING 17: three players may not all play one shade "
                "(pass enforce_shade_alternation=False to allow it)"
            )
        return
    for seat in range(count):
        if shades[seat] is shades[(seat + 1) % count]:
            raise ValueError(
                "LSD 2.5: consecutive players must play different icon shades, "
                f"but seats {seat} and {(seat + 1) % count} are both {shades[seat].value} "
                "(pass enforce_shade_alternation=False to allow it)"
            )


def _flag(options: Mapping[str, Any], name: str, default: bool) -> bool:
    value = options.get(name, default)
    if not isinstance(value, bool):
        raise ValueError(f"option {name} is True or False, not {value!r}")
    return value


def make_rules(players: int, options: Mapping[str, Any]) -> LsdRules:
    """Validate ``new_game`` arguments into :class:`LsdRules`.

    Args:
        players: 2, 3 or 4 (LSD 1.3).
        options: keyword options, names in :data:`OPTION_NAMES`.

    Raises:
        ValueError: an invalid player count, an unknown option (the message
            lists the valid ones) or an invalid value, including shades that
            fail the 2.5 check while ``enforce_shade_alternation`` is on.
    """
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise ValueError(
            f"unknown LSD option(s): {', '.join(unknown)}; valid options: {', '.join(OPTION_NAMES)}"
        )
    count = integer(players)
    if count is None or not 2 <= count <= 4:
        raise player_count_error("LSD", players, "LSD 1.3")
    players = count

    raw_colours = options.get("colours")
    if isinstance(raw_colours, str):
        raise ValueError(f"colours is a sequence of names, not the string {raw_colours!r}")
    colours = tuple(DEFAULT_COLOURS[:players] if raw_colours is None else raw_colours)
    if len(colours) != players or len(set(colours)) != players:
        raise ValueError(f"colours must be {players} distinct names, not {colours!r}")
    for colour in colours:
        if (
            not isinstance(colour, str)
            or not _COLOUR_RE.fullmatch(colour)
            or len(colour) > MAX_COLOUR_NAME
        ):
            raise ValueError(
                "a colour name is a letter then letters, digits or '_', at most "
                f"{MAX_COLOUR_NAME} characters, not {str(colour)[:40]!r}"
            )

    raw_shades = options.get("shades")
    shades = DEFAULT_SHADES[:players] if raw_shades is None else tuple(raw_shades)
    if isinstance(raw_shades, str) or len(shades) != players:
        raise ValueError(f"shades must list {players} shades, one per colour, not {raw_shades!r}")
    shades = tuple(Shade.parse(shade) for shade in shades)
    enforce = _flag(options, "enforce_shade_alternation", True)
    if enforce:
        check_shades(shades)

    allow_rotation = _flag(options, "allow_rotation", True)
    raw_set = options.get("tile_set")
    try:
        tile_set = (
            _default_tile_set(allow_rotation)
            if raw_set is None
            else normalize_tile_set(raw_set, allow_rotation=allow_rotation)
        )
    except TypeError as error:
        raise ValueError(f"tile_set is a sequence of TileSpec entries or text: {error}") from None
    if sum(spec.count for spec in tile_set) * players > MAX_TILES:
        raise ValueError(f"at most {MAX_TILES} tiles in play; this tile set is too large")

    row_length = options.get("row_length")
    if row_length is None:
        row_length = default_row_length(players)
    length = integer(row_length)
    if length is None or length < 2:
        raise ValueError(f"row_length is an int >= 2, not {row_length!r}")
    row_length = length

    first = options.get("first_player")
    if first is None:
        first = colours[0]
    if first not in colours:
        raise ValueError(f"first_player must be one of {', '.join(colours)}, not {first!r}")
    # Players are listed in turn order from the first player, as in the chevron games: the
    # seats (and their shades) rotate so that first_player is seat 0 (RULING 20).
    start = colours.index(first)
    colours, shades = colours[start:] + colours[:start], shades[start:] + shades[:start]

    key = (
        colours,
        shades,
        tile_set,
        allow_rotation,
        _flag(options, "strict_dot_matching", True),
        row_length,
        enforce,
        first,
    )
    return rules_from_key(key)


@cache
def _default_tile_set(allow_rotation: bool) -> TileSet:
    """The normalised default tile set, made once: normalising it is most of ``new_game``'s
    time, which a bot pays at every game it starts."""
    return normalize_tile_set(DEFAULT_TILE_SET, allow_rotation=allow_rotation)


def rules_from_key(key: tuple[Any, ...]) -> LsdRules:
    """The :class:`LsdRules` of validated options given as its constructor arguments, in order.

    Rules are immutable values; sharing one object per option set saves
    rebuilding the tables for every game a bot starts (and every unpickled state).
    """
    rules = _RULES.get(key)
    if rules is None:
        if len(_RULES) >= 256:
            _RULES.clear()
        rules = _RULES[key] = LsdRules(*key)
    return rules


_RULES: dict[tuple[Any, ...], LsdRules] = {}
