"""Writing the LSD position string, and reading its parts (grammar: :mod:`pacru.lsd.position`).

This module sits below :class:`~pacru.lsd.LsdState`, which writes its string
with :func:`format_position` and builds itself from :func:`read_position`; it
takes the state only as a value to read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from pacru.errors import InvalidPositionError, NotationError
from pacru.lsd.moves import parse_move_text
from pacru.lsd.rules import default_row_length, make_rules
from pacru.lsd.tiles import (
    DEFAULT_TILE_SET,
    OWNER_SHIFT,
    Shade,
    coerce_shape,
    decode_cell,
    encode_cell,
    face_code,
    face_text,
    parse_sides,
    parse_tile_set,
)

if TYPE_CHECKING:
    from pacru.lsd.rules import LsdRules
    from pacru.lsd.state import LsdState

__all__ = ["MAX_POSITION_TEXT", "PositionParts", "format_position", "read_position"]

#: Longest LSD position string read, in characters (128 Ki). A position holds at
#: most ``MAX_TILES`` (2000) tiles of at most 20 characters each, so every
#: position the library writes fits, with room for long colour names.
MAX_POSITION_TEXT: Final = 131_072

#: What a position string holds: the rules, the field (cell code -> tile code),
#: the captured tiles per seat and kind, and the seat to move (-1 once over).
PositionParts = tuple["LsdRules", dict[int, int], tuple[tuple[int, ...], ...], int]

_SEAT_RE: Final = re.compile(r"([A-Za-z][A-Za-z0-9_]*):([BW])", re.IGNORECASE)
_TILE_RE: Final = re.compile(r"([0-9])(.+)")
_ITEM_RE: Final = re.compile(r"([0-9])([BW])([+x])([NESW]+|0)(?:\*([0-9]{1,4}))?", re.IGNORECASE)
_FLAGS: Final = {
    "rotation": "allow_rotation",
    "strict": "strict_dot_matching",
    "alternation": "enforce_shade_alternation",
}
_OPTION_KEYS: Final = ("row", "rotation", "strict", "alternation", "first", "set")


def format_position(state: LsdState) -> str:
    """The position string of ``state`` (grammar in the module docstring)."""
    rules = state.rules
    words = [
        "lsd",
        ",".join(f"{c}:{s.letter}" for c, s in zip(rules.colours, rules.shades, strict=True)),
    ]
    field = state._field
    words.append(
        ";".join(
            f"{field[cell] >> OWNER_SHIFT}{face_text(field[cell])}@{x},{y}"
            for cell in sorted(field)
            for x, y in (decode_cell(cell),)
        )
        or "-"
    )
    words.append(
        ",".join(
            f"{seat}{face_text(face)}" + (f"*{count}" if count > 1 else "")
            for seat, counts in enumerate(state._captured)
            for face, count in zip(rules.kinds[seat], counts, strict=True)
            if count
        )
        or "-"
    )
    words.append(state.current_player or "-")
    if rules.row_length != default_row_length(len(rules.colours)):
        words.append(f"row={rules.row_length}")
    for key, name in _FLAGS.items():
        if not getattr(rules, name):
            words.append(f"{key}=off")
    if rules.first_player != rules.colours[0]:
        words.append(f"first={rules.first_player}")
    if rules.tile_set != DEFAULT_TILE_SET:
        words.append("set=" + ",".join(str(spec) for spec in rules.tile_set))
    return " ".join(words)


def _options(words: list[str], text: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    seen = set()
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or key not in _OPTION_KEYS or key in seen:
            raise NotationError(
                f"a position option is one of {', '.join(k + '=' for k in _OPTION_KEYS)}, "
                f"each at most once; not {word[:40]!r}",
                text,
            )
        seen.add(key)
        if key == "row":
            if not (value.isascii() and value.isdigit() and len(value) <= 3):
                raise NotationError(f"row= takes a number, not {value!r}", text)
            options["row_length"] = int(value)
        elif key == "first":
            options["first_player"] = value
        elif key == "set":
            options["tile_set"] = parse_tile_set(value)
        elif value in ("on", "off"):
            options[_FLAGS[key]] = value == "on"
        else:
            raise NotationError(f"{key}= takes on or off, not {value!r}", text)
    return options


def read_position(text: str) -> PositionParts:
    """The parts of the state a position string describes (grammar: :mod:`pacru.lsd.position`).

    Raises:
        NotationError: text outside the grammar, or longer than
            :data:`MAX_POSITION_TEXT` (checked first).
        InvalidPositionError: invalid options, an unknown seat, two tiles on
            a cell or a captured tile the tile set does not hold.
    """
    if not isinstance(text, str):
        raise NotationError("a position is a string")
    if len(text) > MAX_POSITION_TEXT:
        raise NotationError(f"LSD position longer than {MAX_POSITION_TEXT} characters", text)
    words = text.split()
    if len(words) < 5 or words[0].lower() != "lsd":
        raise NotationError(
            "an LSD position is 'lsd <seats> <field> <captured> <turn> [options]'", text
        )
    _, seat_word, field_word, captured_word, turn_word, *option_words = words

    colours, shades = [], []
    for part in seat_word.split(","):
        match = _SEAT_RE.fullmatch(part)
        if match is None:
            raise NotationError(f"a seat is <colour>:<B|W>, not {part[:40]!r}", text)
        colours.append(match.group(1))
        shades.append(Shade.parse(match.group(2)))
    options = _options(option_words, text)
    try:
        rules = make_rules(len(colours), {"colours": colours, "shades": shades, **options})
    except ValueError as error:
        raise InvalidPositionError(f"invalid LSD options in the position: {error}") from None
    players = len(colours)
    # first= rotates the seats (make_rules): map the text's seat numbers to the rules' seats.
    seat_of = [rules.colours.index(colour) for colour in colours]

    field: dict[int, int] = {}
    if field_word != "-":
        for part in field_word.split(";"):
            match = _TILE_RE.fullmatch(part)
            if match is None:
                raise NotationError(f"a field tile is <seat><move>, not {part[:40]!r}", text)
            shade, shape, mask, x, y = parse_move_text(match.group(2))
            seat = int(match.group(1))
            if shade is None:
                raise NotationError(f"a field tile names its shade: {part[:40]!r}", text)
            if seat >= players:
                raise InvalidPositionError(f"no seat {seat} in a {players}-player game")
            seat = seat_of[seat]
            cell = encode_cell(x, y)
            if cell in field:
                raise InvalidPositionError(f"two tiles on {(x, y)}")
            field[cell] = face_code(shape, shade, mask) | seat << OWNER_SHIFT

    captured = [[0] * len(kinds) for kinds in rules.kinds]
    if captured_word != "-":
        for part in captured_word.split(","):
            match = _ITEM_RE.fullmatch(part)
            if match is None:
                raise NotationError(
                    f"a captured item is <seat><icon><sides>[*count], not {part[:40]!r}", text
                )
            seat_text, shade_text, shape_text, sides, count_text = match.groups()
            seat = int(seat_text)
            if seat >= players:
                raise InvalidPositionError(f"no seat {seat} in a {players}-player game")
            seat = seat_of[seat]
            face = face_code(coerce_shape(shape_text), Shade.parse(shade_text), parse_sides(sides))
            kind = rules.kind_of[seat].get(face)
            count = int(count_text) if count_text is not None else 1
            if kind is None or count < 1:
                raise InvalidPositionError(
                    f"{rules.colours[seat]} has no tile {face_text(face)} to be captured"
                )
            captured[seat][kind] += count

    if turn_word == "-":
        turn = -1
    elif turn_word in colours:
        turn = rules.colours.index(turn_word)
    else:
        raise InvalidPositionError(f"the player to move {turn_word!r} is not a colour here")
    return rules, field, tuple(tuple(c) for c in captured), turn
