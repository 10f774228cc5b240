"""Strategies of text: move texts legal or not, position strings, mutated strings.

Part of :mod:`pacru.strategies` (the public names and the documentation are
there); built on the play strategies of :mod:`pacru.strategies.play`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from hypothesis import strategies as st

from pacru.base import GameState
from pacru.chevron.move import Move
from pacru.chevron.state import ChevronState
from pacru.errors import IllegalMoveError, PacruError
from pacru.games import from_position
from pacru.strategies.play import legal_moves, states

__all__ = [
    "MUTATION_ALPHABET",
    "illegal_move_texts",
    "move_texts",
    "mutated_texts",
    "position_strings",
]

MUTATION_ALPHABET: Final = (
    "abcdefghijklmnopqrstuvwxyz0123456789-x<>*+@(),;:=_ \t\nNESW\u00e9\u2192\x00"
)

_fields = st.integers(0, 80)


@st.composite
def _chevron_move_texts(draw: st.DrawFn, origins: tuple[int, ...]) -> str:
    """Any text of the chevron move grammar, origins biased towards ``origins``."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return "pass"
    biased = bool(origins) and draw(st.booleans())
    origin = draw(st.sampled_from(origins)) if biased else draw(_fields)
    if kind == 1:
        turn = draw(st.sampled_from((-2, -1, 1, 2)))
        fields = draw(st.sets(_fields, min_size=1, max_size=6))
        return str(Move(origin, None, turn=turn, relinquished=tuple(fields)))
    target = draw(_fields.filter(lambda t: t != origin))
    return str(
        Move(
            origin,
            target,
            capture=draw(st.integers(0, 5)) == 0,
            twist=draw(st.sampled_from((0, 0, -1, 1))),
            connection=draw(st.integers(0, 3)) == 0,
            marker=draw(st.none() | _fields),
            meeting=draw(st.none() | st.none() | _fields),
        )
    )


def _changed(move: Move, **changes: Any) -> Move:
    """``move`` with some parts changed (a move of either engine's class: the native one is
    no attrs class, so the parts are read, not evolved)."""
    parts = {
        "origin": move.origin,
        "target": move.target,
        "capture": move.capture,
        "twist": move.twist,
        "turn": move.turn,
        "connection": move.connection,
        "marker": move.marker,
        "meeting": move.meeting,
        "relinquished": move.relinquished,
    }
    return Move(**{**parts, **changes})


@st.composite
def _perturbed(draw: st.DrawFn, move: Move) -> str:
    """A legal move with one choice changed: the near misses a player writes."""
    change = draw(st.integers(0, 7))
    if move.origin is None:
        return draw(_chevron_move_texts(()))
    if move.target is None:
        if change < 4:
            return str(_changed(move, turn=draw(st.sampled_from((-2, -1, 1, 2)))))
        rel = draw(st.sets(_fields, min_size=1, max_size=5))
        return str(_changed(move, relinquished=tuple(rel)))
    edits: list[Callable[[], Move]] = [
        lambda: _changed(move, twist=draw(st.sampled_from((-1, 0, 1)))),
        lambda: _changed(move, connection=not move.connection),
        lambda: _changed(move, marker=draw(st.none() | _fields)),
        lambda: _changed(move, meeting=draw(st.none() | _fields)),
        lambda: _changed(move, capture=not move.capture),
        lambda: _changed(move, target=draw(_fields.filter(lambda t: t != move.origin))),
        lambda: _changed(move, origin=draw(_fields.filter(lambda f: f != move.target))),
        lambda: Move(move.origin, None, turn=1, relinquished=(move.target or 0,)),
    ]
    return str(edits[change]())


def move_texts(state: GameState[Any]) -> st.SearchStrategy[str]:
    """Well-formed move texts for ``state``, legal or not (the candidates of illegal_move_texts).

    Chevron games: texts in the move grammar (:mod:`pacru.chevron.move`), half
    of them a legal move with one choice changed (twist, ``*``, ``+f``, ``@f``,
    capture, target, origin, relinquished fields), the rest any move, with
    origins biased to the mover's chevrons. LSD: legal move texts with a
    changed cell or tile (:mod:`pacru.lsd.moves`).
    """
    if isinstance(state, ChevronState):
        own = tuple(code >> 3 for code in state.chevrons[state.to_move])
        candidates = _chevron_move_texts(own)
        if state.legal_moves():
            return st.one_of(candidates, legal_moves(state).flatmap(_perturbed))
        return candidates
    return _lsd_move_texts(state)


def illegal_move_texts(state: GameState[Any]) -> st.SearchStrategy[str]:
    """Well-formed move texts that are not legal in ``state`` (see :func:`move_texts`).

    Each is rejected by ``state.apply_move`` and ``state.parse_move`` with
    :class:`~pacru.IllegalMoveError` (a :class:`~pacru.GameOverError` once the
    game is over), never with :class:`~pacru.NotationError`.

    Example: ``text = data.draw(illegal_move_texts(state))`` inside a
    ``@given(st.data())`` test.
    """

    def illegal(text: str) -> bool:
        try:
            state.parse_move(text)
        except IllegalMoveError:
            return True
        return False

    return move_texts(state).filter(illegal)


def _lsd_move_texts(state: GameState[Any]) -> st.SearchStrategy[str]:
    texts = sorted({str(m) for m in state.legal_moves()} | {"B+NESW@0,0", "WxN@1,0", "B+0@0,2"})

    @st.composite
    def text(draw: st.DrawFn) -> str:
        tile, _, cell = draw(st.sampled_from(texts)).partition("@")
        if draw(st.booleans()):
            cell = f"{draw(st.integers(-4, 4))},{draw(st.integers(-4, 4))}"
        else:
            shade = draw(st.sampled_from("BW"))
            shape = draw(st.sampled_from("+x"))
            sides = "".join(s for s in "NESW" if draw(st.booleans())) or "0"
            tile = shade + shape + sides
        return f"{tile}@{cell}"

    return text()


@st.composite
def _mutate(draw: st.DrawFn, text: str, max_mutations: int, max_size: int = 100_000) -> str:
    chars = st.sampled_from(MUTATION_ALPHABET) | st.characters()
    for _ in range(draw(st.integers(1, max_mutations))):
        n = len(text)
        op = draw(st.integers(0, 9))
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, n))
        if op <= 1:  # insert
            text = text[:i] + draw(chars) + text[i:]
        elif op == 2 and n:  # delete a run
            text = text[:i] + text[j:]
        elif op == 3 and i < n:  # replace one character
            text = text[:i] + draw(chars) + text[i + 1 :]
        elif op == 4:  # duplicate a slice
            text = text[:j] + text[i:j] + text[j:]
        elif op == 5:  # truncate
            text = text[:i]
        elif op == 6:  # change case
            text = text[:i] + text[i:j].swapcase() + text[j:]
        elif op == 7 and n:  # repeat the whole text, often past every length limit
            text = text * draw(st.integers(2, max(2, max_size // n)))
        elif op == 8:  # splice in a whitespace-separated word
            text = text[:i] + " " + draw(st.sampled_from(text.split() or [text])) + text[i:]
        else:  # a number that is huge, or written with digits that are not ASCII
            digits = draw(st.sampled_from(("9", "0", "\u00b2", "\u0663", "\uff17")))
            text = text[:i] + digits * draw(st.integers(1, 6000)) + text[j:]
    return text


def mutated_texts(
    base: st.SearchStrategy[str], max_mutations: int = 4, *, max_size: int = 100_000
) -> st.SearchStrategy[str]:
    """Strings from ``base`` with 1 to ``max_mutations`` random edits, for fuzzing parsers.

    Edits: insert, delete or replace characters (from the grammars' own
    characters and arbitrary Unicode), duplicate a slice, truncate, swap case,
    put in a number of up to 6000 digits (``9``, or ``²``, ``٣`` and other non-ASCII digits),
    repeat the whole text (up to about ``max_size`` characters, past the
    parsers' length limits: :data:`pacru.chevron.move.MAX_MOVE_TEXT`,
    :data:`pacru.chevron.notation.MAX_POSITION_TEXT`) and splice in a word of
    the text. Example: ``mutated_texts(legal_moves(state).map(str))``.
    """
    return base.flatmap(lambda text: _mutate(text, max_mutations, max_size))


def _rejected(text: str) -> bool:
    try:
        from_position(text)
    except PacruError:
        return True
    return False


@st.composite
def _broken_positions(draw: st.DrawFn, valid: st.SearchStrategy[str]) -> str:
    """Positions broken on purpose: mostly well-formed words with impossible values."""
    text = draw(valid)
    words = text.split()
    kind = draw(st.integers(0, 5))
    if kind == 0:  # a key given twice
        return " ".join([*words, draw(st.sampled_from(words[1:]))])
    if kind == 1:  # a turn for nobody
        return " ".join(w if not w.startswith("turn=") else "turn=nobody" for w in words)
    if kind == 2:  # a field marked by two colours, or two chevrons on one field
        field = draw(st.sampled_from(("e5", "a1", "i9")))
        extra = f"markers=zz:{field}" if draw(st.booleans()) else f"chevrons=zz:{field}N"
        return " ".join([*words, extra])
    if kind == 3:  # an unknown key
        return " ".join([*words, "colour=green"])
    if kind == 4:  # too many players
        return text.replace("players=", "players=p1,p2,p3,p4,p5,", 1)
    return draw(_mutate(text, 3))


def position_strings(
    valid: bool | None = None,
    game: str | Iterable[str] | None = None,
    players: int | Iterable[int] | None = None,
    *,
    max_plies: int = 40,
) -> st.SearchStrategy[str]:
    """Position strings (:meth:`pacru.GameState.to_position`) of reachable states, or broken ones.

    Args:
        valid: ``True``: strings :func:`pacru.from_position` reads (positions
            of states from :func:`states`); ``False``: strings it rejects with
            :class:`~pacru.NotationError` or :class:`~pacru.InvalidPositionError`
            (a repeated or unknown key, an unknown colour, a doubly marked or
            occupied field, too many players, random mutations); ``None``:
            either, unchecked.
        game, players, max_plies: as for :func:`states`.

    Example: ``@given(position_strings(valid=False))`` checks that a reader
    rejects bad input cleanly.
    """
    good = states(game, players, max_plies=max_plies).map(lambda s: s.to_position())
    if valid:
        return good
    bad = st.one_of(_broken_positions(good), mutated_texts(good))
    if valid is None:
        return st.one_of(good, bad)
    return bad.filter(_rejected)
