"""Coloured boards for the terminal: ``str(state)`` with each player's pieces in their colour.

Used by :meth:`pacru.commands._ui.Output.board` only when colour is on (the
``pacru[cli]`` extra is installed and standard output is a terminal). The
characters are exactly those of ``str(state)``; only styles are added, at the
places :func:`pacru.chevron.render.render_spans` and
:func:`pacru.lsd.render.render_spans` give. A one-line legend goes under the
board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.text import Text

    from pacru.base import GameState

__all__ = ["legend", "player_styles", "styled_board"]

#: The terminal colour of each colour name the games use; "black" is drawn grey,
#: which shows on dark and light backgrounds alike.
_NAMED = {
    "green": "green",
    "yellow": "yellow",
    "red": "red",
    "blue": "blue",
    "black": "bright_black",
    "white": "bright_white",
}
#: Colours for player names the terminal has no colour for, by seat.
_SPARE = ("cyan", "magenta", "bright_blue", "bright_red")


def player_styles(players: tuple[str, ...]) -> tuple[str, ...]:
    """A rich colour per player: the colour of its name, else a spare one by seat."""
    return tuple(_NAMED.get(p, _SPARE[i % len(_SPARE)]) for i, p in enumerate(players))


def styled_board(state: GameState[Any]) -> Text:
    """``str(state)`` as rich text: markers in the owner's colour, chevrons and tiles in bold."""
    from rich.text import Text

    lines = str(state).splitlines()
    starts = [0]
    for row in lines:
        starts.append(starts[-1] + len(row) + 1)
    text = Text("\n".join(lines))
    spans, colours = _spans(state)
    styles = player_styles(colours)
    for line, start, stop, seat, bold in spans:
        style = f"bold {styles[seat]}" if bold else styles[seat]
        text.stylize(style, starts[line] + start, starts[line] + stop)
    return text


def _spans(
    state: GameState[Any],
) -> tuple[list[tuple[int, int, int, int, bool]], tuple[str, ...]]:
    """(line, start, stop, seat, bold) of every piece in ``str(state)``, and the seats' colours.

    LSD seats are those of the rules' colour list (``rules.colours``), which
    the tiles' owners index; chevron seats are those of ``players``.
    """
    from pacru.chevron.state import ChevronState

    if isinstance(state, ChevronState):
        from pacru.chevron.render import render_spans

        return render_spans(state), state.players
    from pacru.lsd.render import render_spans as lsd_spans
    from pacru.lsd.state import LsdState

    if isinstance(state, LsdState):
        spans = [(line, start, stop, seat, True) for line, start, stop, seat in lsd_spans(state)]
        return spans, state.rules.colours
    return [], state.players


def legend(state: GameState[Any]) -> str:
    """One line naming the board's letters and signs, e.g. ``g/G green, y/Y yellow: ...``."""
    from pacru.chevron.state import ChevronState

    if isinstance(state, ChevronState):
        from pacru.chevron.render import player_letters

        letters = player_letters(state.players)
        if letters[0].isalpha():
            who = ", ".join(
                f"{k.lower()}/{k} {p}" for k, p in zip(letters, state.players, strict=True)
            )
            kinds = "lower case = marker, upper case = chevron"
        else:  # colours with one initial: seat digits, a chevron is the digit with an arrow
            who = ", ".join(f"{k} {p}" for k, p in zip(letters, state.players, strict=True))
            kinds = "a digit alone = marker, with an arrow = chevron"
        return f"Legend: {who}; {kinds}, arrow = its facing; · = neutral field"
    from pacru.lsd.render import owner_keys
    from pacru.lsd.state import LsdState

    if not isinstance(state, LsdState):
        return ""
    colours = state.rules.colours
    keys = owner_keys(colours)
    who = ", ".join(f"{k} {p}" for k, p in zip(keys, colours, strict=True))
    return (
        f"Legend: tile owner {who}; B/W = black/white tile, + or x = its icon; "
        "o = half dot, oo = whole dot; * = a tile can go here"
    )
