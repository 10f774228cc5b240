"""Writing game records (:mod:`pacru.records`): record text from records, games and states."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from typing import Any, Final

from pacru.base import GameState
from pacru.game import Game
from pacru.records import _text
from pacru.records._read import GameRecord, _colour_tag, _result_of
from pacru.records._text import write_record

#: Tags written first, in this order, by :func:`record_from_game`; names follow Players.
_ORDER: Final = (
    "Game",
    "Event",
    "Site",
    "Date",
    "Round",
    "Players",
    "StartLayout",
    "Colours",
    "Position",
    "MeetingRule",
    "MoveCap",
    "IdleRounds",
    "FirstPlayer",
    "Result",
    "Termination",
)


def write_records(records: Iterable[GameRecord]) -> str:
    """Many records, separated by blank lines (:func:`read_records` reads them back)."""
    return "\n".join(write_record(r) for r in records)


def record_from_game(
    game: Game[Any],
    *,
    names: Mapping[str, str] | None = None,
    comments: Mapping[int, str] | Iterable[tuple[int, str]] = (),
    **tags: str,
) -> GameRecord:
    """The record of ``game``: its root as set-up tags, then its moves.

    The set-up tags describe :attr:`pacru.Game.root`: the ``Players``,
    ``StartLayout``, ``Colours`` and option tags when a standard set-up gives
    it, else a ``Position`` tag. ``Result`` and ``Termination`` are set from
    the outcome of :attr:`pacru.Game.state` (``*`` while the game goes on).

    Args:
        game: the line of play to record.
        names: colour -> player name, written as ``[Green "Alice"]`` tags.
        comments: ``(ply, text)`` pairs or a mapping, as :attr:`GameRecord.comments`.
        **tags: more tags, e.g. ``Event="Club night"``, ``Date="2025.03.01"``;
            a ``Result`` given here overrides the computed one for an
            unfinished game (a resignation).

    Raises:
        ValueError: a name for a colour that does not play, or a malformed tag.
    """
    state = game.state
    pairs = dict(_text.setup_tags(game.root))
    for colour, name in (names or {}).items():
        if colour not in state.players:
            raise ValueError(f"{colour!r} is not a player; players: {', '.join(state.players)}")
        if _colour_tag(colour) in _ORDER:
            raise ValueError(f"the name tag of colour {colour!r} would clash with a tag")
        pairs[_colour_tag(colour)] = name
    outcome = state.outcome
    if outcome is not None:
        pairs["Result"] = _result_of(state)
        pairs["Termination"] = outcome.termination.value
    else:
        pairs["Result"] = "*"
    for key, value in tags.items():
        if outcome is not None and key in ("Result", "Termination"):
            continue
        pairs[key] = value
    split = _ORDER.index("Players") + 1
    order = [*_ORDER[:split], *(_colour_tag(c) for c in state.players), *_ORDER[split:]]
    ordered = [(k, pairs.pop(k)) for k in order if k in pairs]
    ordered.extend(pairs.items())
    moves = tuple(str(m) for m in game.moves)
    return GameRecord(tuple(ordered), moves, comments)


def record_from_state(
    state: GameState[Any] | Game[Any],
    *,
    names: Mapping[str, str] | None = None,
    comments: Mapping[int, str] | Iterable[tuple[int, str]] = (),
    **tags: str,
) -> GameRecord:
    """The record of a :class:`pacru.Game`, or of a state as a start without moves.

    A state holds no earlier state, so it records as its own set-up (a
    ``Position`` tag unless a standard set-up gives it) with no moves; to
    record the moves that led to it, play them in a :class:`pacru.Game` and
    pass that (or call :func:`record_from_game`). Arguments and errors as
    :func:`record_from_game`.

    Warns:
        UserWarning: ``state`` is a state produced by a move (it has a
            ``last_move``): before states became values this recorded the
            moves that led to it, now it records its position only.
    """
    if isinstance(state, Game):
        game = state
    else:
        if state.last_move is not None:
            warnings.warn(
                "record_from_state(state) records the position only, without the moves that "
                "led to it (a state holds no earlier state); play in a pacru.Game and pass it, "
                "or call record_from_game",
                stacklevel=2,
            )
        game = Game(state)
    return record_from_game(game, names=names, comments=comments, **tags)
