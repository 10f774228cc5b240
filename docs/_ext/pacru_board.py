"""The ``pacru-board`` directive: board pictures drawn by pacru itself at build time.

A picture is given as a position string (or a game's start), an optional move
to apply, and options; the extension calls :func:`pacru.svg.board` while the
docs are built, so a picture cannot drift from the engine. A position that
does not parse, an illegal move, or a bad option is an error of the build
(``sphinx -W`` fails on it), never a silently missing picture.

.. code-block:: rst

   .. pacru-board:: pacru players=red,yellow markers=red:d9,d8,i9,i8
         chevrons=red:e9S,g9S;yellow:e7N,a1NE
      :move: g9xe7+f8
      :before-after:
      :size: 300
      :caption: A pincer {R11}: ...

   .. pacru-board::
      :game: pacru
      :players: 3

Options:

``:game:``, ``:players:``, ``:options:``
    Draw the start position of a game (when no position string is given),
    with game options of :func:`pacru.new_game` as ``key=value`` words
    (``start_layout=ap-legacy-2p``; whole numbers are read as numbers).
``:play:``
    Moves played (in order, separated by spaces) before the picture, unmarked:
    a line of play that leads to the position drawn.
``:move:``
    A move (pacru notation) to apply. Alone, the picture shows the position
    after it with the move marked; with ``:before-after:`` two pictures, the
    position before with the move as an arrow (a ring for a reorientation or
    an LSD placement) and the position after with the move marked. The
    fields a move chooses are ringed in red: the marker and meeting fields
    after it, the fields a reorientation gives up and the tiles an LSD
    placement captures before it.
``:size:``
    Width in pixels of each picture (default 300).
``:arrows:``
    Extra arrows, ``a3-b4 e1-e1`` (a field to itself is a ring); LSD cells as
    ``0,0-1,0``; ``a3-b4=red`` gives a colour.
``:fill:``
    Fields (LSD: ``x,y`` cells) to tint, separated by spaces; ``e5=#cc000080``
    gives a colour.
``:highlight:``
    Fields (LSD: cells) to ring in red.
``:caption:``
    Text under the picture(s); inline markup is allowed.
``:explain:``
    Add the engine's own account of ``:move:`` (:func:`pacru.explain`)
    under the caption: what the move does, by which rule.

The pure part (:func:`draw`) is tested without Sphinx in
``tests/test_docs_board.py``, and a whole build with a bad picture is checked
to fail there too.
"""

from __future__ import annotations

import html
from typing import Any

import attrs
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

import pacru
from pacru import svg

#: Tint of a ``:fill:`` field without a colour of its own (translucent red).
FILL: str = "#e8402a66"
#: Colour of the arrow that marks the move in a "before" picture.
MOVE_ARROW: str = "#1f6fd9"


class BoardError(ValueError):
    """A picture that cannot be drawn: the message says why."""


def _square(text: str, lsd: bool) -> Any:
    if not lsd:
        return text
    try:
        x, y = text.split(",")
        return (int(x), int(y))
    except ValueError:
        raise BoardError(f"an LSD cell is written x,y, not {text!r}") from None


def _words(text: str | None) -> list[str]:
    return (text or "").replace(",", " ").split() if text is not None else []


def _arrows(text: str | None, lsd: bool) -> list[svg.Arrow]:
    arrows = []
    for word in (text or "").split():
        places, _, colour = word.partition("=")
        tail, sep, head = places.partition("-")
        if not sep:
            raise BoardError(f"an arrow is written tail-head, not {word!r}")
        arrow = svg.Arrow(_square(tail, lsd), _square(head, lsd))
        arrows.append(attrs.evolve(arrow, colour=colour) if colour else arrow)
    return arrows


def _fill(text: str | None, lsd: bool) -> dict[Any, str]:
    fill: dict[Any, str] = {}
    for word in (text or "").split():
        place, _, colour = word.partition("=")
        fill[_square(place, lsd)] = colour or FILL
    return fill


def _highlight(text: str | None, lsd: bool) -> list[Any]:
    if text is None:
        return []
    return [_square(w, lsd) for w in text.split()] if lsd else _words(text)


def _options(text: str | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for word in (text or "").split():
        key, sep, value = word.partition("=")
        if not sep:
            raise BoardError(f"a game option is written key=value, not {word!r}")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    return options


def start(
    position: str | None, game: str | None, players: int | None, options: str | None = None
) -> Any:
    """The state to draw: ``position`` parsed, or the start of ``game`` for ``players``
    with the game ``options`` (``key=value`` words).

    Raises:
        BoardError: neither or both given, options with a position, or the
            position, game or options are not valid.
    """
    if (position is None) == (game is None):
        raise BoardError("give either a position string or :game: (and :players:)")
    if position is not None and options:
        raise BoardError(":options: go with :game:; a position string has its own keys")
    try:
        if position is not None:
            return pacru.from_position(position)
        return pacru.new_game(str(game), players or 2, **_options(options))
    except ValueError as err:  # NotationError, InvalidPositionError, a bad game or count
        raise BoardError(f"cannot set up the position: {err}") from err


def play(state: Any, moves: str | None) -> Any:
    """``state`` after the moves of ``moves`` (separated by spaces).

    Raises:
        BoardError: a move that cannot be played.
    """
    for text in (moves or "").split():
        try:
            state = state.apply_move(text)
        except (pacru.IllegalMoveError, pacru.NotationError, pacru.GameOverError) as err:
            raise BoardError(f"the move {text!r} of :play: cannot be played: {err}") from err
    return state


def account(state: Any, move: str) -> str:
    """The engine's explanation of ``move`` in ``state``, to follow the move text.

    Raises:
        BoardError: the move is not legal (the message names the rule).
    """
    from pacru.explanation import explain

    answer = explain(state, move)
    if not answer.legal:
        raise BoardError(f"the move {move!r} cannot be played here: {answer.message}")
    text = str(answer)
    _, sep, rest = text.partition(": legal ")
    return f"is legal {rest}" if sep else text


def draw(
    state: Any,
    *,
    move: str | None = None,
    before_after: bool = False,
    size: int = 300,
    arrows: str | None = None,
    fill: str | None = None,
    highlight: str | None = None,
) -> list[str]:
    """The SVG pictures of one directive: one, or two with ``before_after``.

    Raises:
        BoardError: an illegal or unreadable move, ``before_after`` without a
            move, or a bad field, cell or size.
    """
    lsd = state.game == "lsd"
    if before_after and move is None:
        raise BoardError(":before-after: needs a :move:")
    marks: dict[str, Any] = {
        "arrows": _arrows(arrows, lsd),
        "fill": _fill(fill, lsd),
        "highlight": _highlight(highlight, lsd),
    }
    try:
        if move is None:
            return [svg.board(state, size=size, **marks)]
        try:
            after = state.apply_move(move)
        except (pacru.IllegalMoveError, pacru.NotationError, pacru.GameOverError) as err:
            raise BoardError(f"the move {move!r} cannot be played here: {err}") from err
        last = after.last_move
        given_up, gained = _move_fields(state, after, last, lsd)
        pictures = []
        if before_after:
            pictures.append(
                svg.board(
                    state,
                    size=size,
                    arrows=[*_move_arrows(last, lsd), *marks["arrows"]],
                    fill=marks["fill"],
                    highlight=[*marks["highlight"], *given_up],
                )
            )
        pictures.append(
            svg.board(
                after,
                size=size,
                last_move=last,
                arrows=marks["arrows"],
                fill=marks["fill"],
                highlight=[*marks["highlight"], *gained],
            )
        )
        return pictures
    except ValueError as err:
        if isinstance(err, BoardError):
            raise
        raise BoardError(str(err)) from err


def _move_fields(before: Any, after: Any, move: Any, lsd: bool) -> tuple[list[Any], list[Any]]:
    """The places ringed in red: in the picture before the move (fields a reorientation
    gives up, LSD tiles it captures) and after it (a marker or meeting field it chose)."""
    if lsd:
        return sorted(set(before.field) - set(after.field)), []
    chosen = [f for f in (move.marker, move.meeting) if f is not None]
    return list(move.relinquished or ()), chosen


def _move_arrows(move: Any, lsd: bool) -> list[svg.Arrow]:
    """The move to be played, as an arrow (a ring where it has no target)."""
    if lsd:
        cell = tuple(move.cell)
        return [svg.Arrow(cell, cell, colour=MOVE_ARROW)]
    if move.origin is None:  # pass
        return []
    head = move.origin if move.target is None else move.target
    return [svg.Arrow(move.origin, head, colour=MOVE_ARROW)]


def _size(text: str) -> int:
    value: int = directives.positive_int(text)
    if value < 50:
        raise ValueError("a picture is at least 50 pixels wide")
    return value


class PacruBoard(SphinxDirective):
    """``.. pacru-board:: POSITION`` (see the module docstring)."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec = {  # noqa: RUF012 (docutils reads a class attribute)
        "game": directives.unchanged_required,
        "players": directives.positive_int,
        "options": directives.unchanged,
        "move": directives.unchanged_required,
        "before-after": directives.flag,
        "size": _size,
        "arrows": directives.unchanged,
        "fill": directives.unchanged,
        "highlight": directives.unchanged,
        "caption": directives.unchanged,
        "play": directives.unchanged,
        "explain": directives.flag,
        "alt": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        opts = self.options
        position = " ".join(self.arguments[0].split()) if self.arguments else None
        try:
            origin = start(position, opts.get("game"), opts.get("players"), opts.get("options"))
            state = play(origin, opts.get("play"))
            if "explain" in opts and "move" not in opts:
                raise BoardError(":explain: needs a :move:")
            told = account(state, opts["move"]) if "explain" in opts else None
            pictures = draw(
                state,
                move=opts.get("move"),
                before_after="before-after" in opts,
                size=opts.get("size", 300),
                arrows=opts.get("arrows"),
                fill=opts.get("fill"),
                highlight=opts.get("highlight"),
            )
        except BoardError as err:
            raise self.error(f"pacru-board: {err}") from err
        self.env.note_dependency(__file__)
        figure = nodes.container(classes=["pacru-board"])
        alt = html.escape(opts.get("alt") or (position or f"{opts['game']} start"), quote=True)
        labels = ("before", "after") if len(pictures) == 2 else ("",)
        cells = "".join(
            f'<div class="pacru-board-picture" role="img" aria-label="{alt} {label}">'
            f"{picture}</div>"
            for picture, label in zip(pictures, labels, strict=True)
        )
        figure += nodes.raw("", f'<div class="pacru-board-row">{cells}</div>', format="html")
        if "caption" in opts:
            text, messages = self.parse_inline(opts["caption"], lineno=self.lineno)
            caption = nodes.paragraph("", "", *text, classes=["pacru-board-caption"])
            figure += caption
            figure += messages
        if told is not None:
            figure += nodes.paragraph(
                "",
                "",
                nodes.literal(opts["move"], opts["move"]),
                nodes.Text(f" {told}"),
                classes=["pacru-board-caption", "pacru-board-explain"],
            )
        return [figure]


CSS = """
.pacru-board { margin: 1em 0 1.5em; }
.pacru-board-row { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.pacru-board-picture svg { max-width: 100%; height: auto; display: block; }
.pacru-board-caption { font-size: 0.9em; margin-top: 0.4em; }
.pacru-board-explain { color: var(--color-foreground-secondary, #555); }
.pacru-board-gallery { display: flex; flex-wrap: wrap; gap: 0 1.5em; }
.pacru-board-gallery .pacru-board { margin: 0.5em 0; }
"""


def _write_css(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        from pathlib import Path

        static = Path(app.outdir) / "_static"
        static.mkdir(parents=True, exist_ok=True)
        (static / "pacru-board.css").write_text(CSS, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("pacru-board", PacruBoard)
    app.add_css_file("pacru-board.css")
    app.connect("build-finished", _write_css)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
