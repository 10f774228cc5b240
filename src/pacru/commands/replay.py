"""``pacru replay``: check every move of recorded games and print how they ended.

Usage::

    pacru replay FILE|POSITION [--format auto|record|abstractplay|position] [--index K] [--quiet]
                 [--game GAME] [--players N] [--start-layout LAYOUT]

Input formats (``--format auto``, the default, tells them apart):

* ``record``: pacru game records, one game or many (:mod:`pacru.records`).
* ``abstractplay``: AbstractPlay move strings,
  read by :mod:`pacru.abstractplay`: a JSON list of strings, a JSON object
  ``{"game": "pacru", "players": 2, "start_layout": "ap-legacy-2p", "moves":
  [...]}`` (the format of the example games in the tests), or plain text with one
  move per line. ``--game``, ``--players`` and ``--start-layout`` give or
  override the set-up; a start layout ``ap-legacy-2p`` is AbstractPlay's
  layout before 14 Feb 2025, anything else its current one.
* ``position``: one position string (:func:`pacru.from_position`), no moves.

For each game the final board, the scores and the result are printed.
Exit status: 0 when every move was legal; 1 when a move is not (the game,
ply, move text and the rule that forbids it are printed on one line of
standard error) or the file is not a readable record or holds no game; 2 on
bad usage (no such file, a bad option).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from pacru.commands._options import add_rule_options
from pacru.commands._ui import CommandExit, Output, add_colour_option, colour_choice
from pacru.errors import GameOverError, IllegalMoveError, PacruError
from pacru.records import MAX_PLIES, MAX_RECORD_TEXT, RecordError, read_records

if TYPE_CHECKING:
    from pacru.base import GameState

__all__ = [
    "FORMATS",
    "LoadedGame",
    "UsageError",
    "add_input_options",
    "load",
    "read_input",
    "register",
    "run",
]

#: The ``--format`` choices.
FORMATS = ("auto", "record", "abstractplay", "position")
_LEGACY = frozenset({"ap-legacy-2p", "ap-old-2p", "legacy"})


class UsageError(Exception):
    """Bad command-line input that is not a game error (exit status 2)."""


@attrs.frozen
class LoadedGame:
    """One game read from a file, replayed.

    Attributes:
        label: ``"game K"``.
        states: every state from the start, ``len(moves) + 1`` of them.
        moves: the move texts as given in the file.
    """

    label: str
    states: tuple[GameState[Any], ...]
    moves: tuple[str, ...]

    @property
    def final(self) -> GameState[Any]:
        """The state after the last move."""
        return self.states[-1]


def add_input_options(parser: argparse.ArgumentParser, *, start: bool = False) -> None:
    """The FILE argument and the input options shared by ``replay`` and ``show``.

    With ``start`` (``show``) the argument may also be a game name, for its
    start position, with the game options of ``pacru play``
    (:func:`pacru.commands._options.add_rule_options`).
    """
    game = "; or a game name, for its start position" if start else ""
    parser.add_argument(
        "file",
        metavar="FILE|POSITION|GAME" if start else "FILE|POSITION",
        help=(
            "a file holding a game record, AbstractPlay moves or a position string; "
            "or the position string itself (e.g. 'shacru players=red,yellow "
            f"chevrons=red:e4N;yellow:e6S'){game}; - reads standard input"
        ),
    )
    parser.add_argument(
        "--format", choices=FORMATS, default="auto", help="input format (default: auto)"
    )
    parser.add_argument(
        "--index", type=int, default=None, metavar="K", help="only the K-th game of the file (1..)"
    )
    title = "AbstractPlay input (--format abstractplay)"
    group = parser.add_argument_group(f"{title}, or a GAME's start position" if start else title)
    group.add_argument("--game", default=None, metavar="GAME", help="pacru or azacru")
    group.add_argument("--players", "-n", type=int, default=None, metavar="N", help="2, 3 or 4")
    legacy = "ap-legacy-2p for AbstractPlay games before 14 Feb 2025"
    group.add_argument(
        "--start-layout",
        default=None,
        metavar="LAYOUT",
        help=(
            f"a GAME's: standard (default), ap-legacy-2p or abstractplay; AbstractPlay's: {legacy}"
            if start
            else f"{legacy}; else the current layout"
        ),
    )
    if start:
        add_rule_options(group)


def register(subparsers: Any) -> None:
    """Add the ``replay`` subcommand to the ``pacru`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="check every move of recorded games and print the final positions",
        description=(
            "Replay game records (or AbstractPlay move lists), checking every move; "
            "print each game's final board, scores and result. A move the rules forbid "
            "is reported with its ply and rule, and the exit status is 1."
        ),
    )
    add_input_options(parser)
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="print only the result of each game"
    )
    add_colour_option(parser)
    parser.set_defaults(func=run)


# -- loading ------------------------------------------------------------------------------------


def read_input(source: str) -> str:
    """The text of the FILE|POSITION argument: a position string as given, else :func:`read_text`.

    ``source`` is taken as a position string when no file of that name exists and
    its first word is a game name followed by more words (``pacru show "shacru
    players=..."``), as ``pacru play --position`` takes it.

    Raises:
        UsageError, RecordError: as :func:`read_text`.
    """
    from pacru.games import GAMES

    words = source.split(None, 1)
    if len(words) == 2 and words[0].lower() in GAMES and not Path(source).exists():
        return source
    return read_text(source)


def read_text(path: str) -> str:
    """The text of ``path`` (``-`` for standard input), at most ``MAX_RECORD_TEXT`` characters.

    Raises:
        UsageError: no such file, or it cannot be read.
        RecordError: too large, or not UTF-8 text.
    """
    import sys

    try:
        if path == "-":
            text = sys.stdin.read(MAX_RECORD_TEXT + 1)
        else:
            with Path(path).open(encoding="utf-8") as handle:
                text = handle.read(MAX_RECORD_TEXT + 1)
    except UnicodeDecodeError as err:
        raise RecordError(f"{path}: not UTF-8 text ({err.reason})") from None
    except OSError as err:
        raise UsageError(f"{path}: {err.strerror or err}") from None
    if len(text) > MAX_RECORD_TEXT:
        raise RecordError(f"{path}: longer than {MAX_RECORD_TEXT} characters", reason="too-long")
    return text


def _detect(text: str, args: argparse.Namespace) -> str:
    from pacru.games import GAMES

    body = text.lstrip()
    if body.startswith("{"):
        return "abstractplay"
    if body.startswith("["):
        try:
            _json(body)
        except RecordError:
            return "record"
        return "abstractplay"
    words = body.split(None, 1)
    first = body.splitlines()[0] if body else ""
    # Chevron positions have key=value words; LSD's start "lsd colour:shade,...".
    if words and words[0].lower() in GAMES and ("=" in first or words[0].lower() == "lsd"):
        return "position"
    if args.game is not None:
        return "abstractplay"
    return "record"


def load(text: str, args: argparse.Namespace) -> list[LoadedGame]:
    """The games of ``text`` in the format of ``args.format``, each replayed.

    Raises:
        RecordError: a malformed input or an illegal move (with ply, move, rule).
        UsageError: missing or contradicting set-up options.
    """
    fmt = args.format if args.format != "auto" else _detect(text, args)
    if fmt == "position":
        from pacru.games import from_position

        try:
            state = from_position(text.strip())
        except PacruError as err:
            raise RecordError(
                f"not a position: {err}", rule="setup", reason="bad-position"
            ) from None
        return [LoadedGame("position", (state,), ())]
    if fmt == "abstractplay":
        return [_load_abstractplay(text, args)]
    return [
        LoadedGame(f"game {i}", record.states(), record.moves)
        for i, record in enumerate(read_records(text), 1)
    ]


def _json(body: str) -> Any:
    """The JSON value of ``body``.

    Raises:
        RecordError: not JSON, or nested too deeply for the parser.
    """
    try:
        return json.loads(body)
    except ValueError as err:
        raise RecordError(f"not JSON: {err}") from None
    except RecursionError:
        raise RecordError("not JSON that can be read: nested too deeply") from None


def _load_abstractplay(text: str, args: argparse.Namespace) -> LoadedGame:
    data: dict[str, Any] = {}
    body = text.strip()
    if body.startswith(("{", "[")):
        parsed = _json(body)
        data = parsed if isinstance(parsed, dict) else {"moves": parsed}
    else:
        data = {"moves": body.split()}
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError('expected a list of move strings (or {"moves": [...]})')
    if len(moves) > MAX_PLIES:
        raise RecordError(f"more than {MAX_PLIES} moves", reason="too-long")
    game = args.game or data.get("game") or "pacru"
    players = args.players or data.get("players") or 2
    layout = args.start_layout or data.get("start_layout") or ""
    if not isinstance(game, str) or not isinstance(players, int) or not isinstance(layout, str):
        raise RecordError("game and start_layout must be strings, players a number")
    try:
        from pacru import abstractplay
    except ImportError:
        raise UsageError(
            "AbstractPlay input needs pacru.abstractplay, which this installation lacks"
        ) from None
    legacy = layout.lower() in _LEGACY
    try:
        final = abstractplay.replay(game.lower(), players, moves, legacy_2p=legacy)
    except abstractplay.ReplayError as err:
        raise _replay_error(err) from None
    except (ValueError, TypeError) as err:
        raise UsageError(str(err)) from None
    # Validated: play again to keep every state; AP's automatic Pacru passes change nothing.
    state = abstractplay.new_game(game.lower(), players, legacy_2p=legacy)
    states: list[GameState[Any]] = [state]
    for move in moves:
        if state.game == "pacru" and "".join(move.split()).lower() == "pass":
            states.append(state)
            continue
        state = state.apply_move(abstractplay.parse_move(state, move))
        states.append(state)
    expected = data.get("final")
    if isinstance(expected, dict):
        try:
            diffs = abstractplay.compare_final(final, expected)
        except (ValueError, TypeError) as err:
            raise RecordError(f"the record's final position is malformed: {err}") from None
        if diffs:
            raise RecordError(
                "the final position differs from the record's: " + "; ".join(diffs),
                rule="result",
                reason="wrong-final",
            )
    return LoadedGame("game 1", tuple(states), tuple(moves))


def _replay_error(err: Any) -> RecordError:
    """The RecordError for an :class:`pacru.abstractplay.ReplayError` (ply, move, rule)."""
    cause = err.error
    if isinstance(cause, GameOverError):
        rule, reason, what = cause.rule, cause.reason, f"comes after the end ({cause.detail})"
    elif isinstance(cause, IllegalMoveError):
        rule, reason, what = cause.rule, cause.reason, f"is illegal: {cause.rule}: {cause.detail}"
    else:
        rule, reason, what = "notation", "not-a-move", f"is not an AbstractPlay move: {cause}"
    return RecordError(
        f"{err.move[:40]} {what}", rule=rule, reason=reason, ply=err.ply, move=err.move[:40]
    )


def select(games: list[LoadedGame], index: int | None) -> list[LoadedGame]:
    """``games``, or only the ``index``-th (from 1).

    Raises:
        UsageError: no such game.
    """
    if index is None:
        return games
    if not 1 <= index <= len(games):
        raise UsageError(f"--index {index}: the file holds {len(games)} game(s)")
    return [games[index - 1]]


# -- the command --------------------------------------------------------------------------------


def chosen_games(
    args: argparse.Namespace, out: Output, index: int | None, *, one: bool = False
) -> list[LoadedGame]:
    """The games of ``args.file`` (:func:`load`) that ``index`` chooses (:func:`select`).

    Raises:
        CommandExit: after the error line: status 2 for bad usage
            (:class:`UsageError`), 1 for a record that does not read or, with
            ``one``, a file without a game.
    """
    try:
        games = load(read_input(args.file), args)
        if one and not games:
            out.error(f"{args.file}: no game in the file")
            raise CommandExit(1)
        return select(games, index)
    except UsageError as err:
        out.error(str(err))
        raise CommandExit(2) from None
    except RecordError as err:
        out.error(f"{args.file}: {err}")
        raise CommandExit(1) from None


def summary(state: GameState[Any], label: str = "Scores") -> list[str]:
    """The scores line and the result line of a state.

    The scores say what they count (markers; LSD: tiles) and the result says which
    rule ended the game, in words (:meth:`pacru.Outcome.describe`): a Pacru game
    is won by the last player with chevrons (R16a) or the one who placed their
    last marker (R16b), whoever has the most markers, so
    ``Scores (markers on the board): yellow 2, red 1, black 0`` and ``Result: red
    wins (R16a: the last player with chevrons on the board)`` read together.
    """
    unit = "tiles on the field" if state.game == "lsd" else "markers on the board"
    scores = ", ".join(f"{p} {n}" for p, n in state.scores.items())
    outcome = state.outcome
    if outcome is None:
        result = f"Result: unfinished (*), {state.current_player} to move"
    else:
        result = f"Result: {outcome.describe()}"
    return [f"{label} ({unit}): {scores}", result]


def run(args: argparse.Namespace, out: Output | None = None) -> int:
    """Replay the games of ``args.file``; returns the exit status."""
    out = out or Output(colour=colour_choice(args))
    try:
        games = chosen_games(args, out, args.index)
    except CommandExit as stop:
        return stop.status
    if not games:  # as pacru show says it: an empty file checks nothing
        out.error(f"{args.file}: no game in the file")
        return 1
    for number, loaded in enumerate(games):
        final = loaded.final
        if number:
            out.line()
        plies = len(loaded.moves)
        out.heading(
            f"{loaded.label}: {final.game}, {len(final.players)} players "
            f"({', '.join(final.players)}), {plies} {'ply' if plies == 1 else 'plies'}"
        )
        if not args.quiet:
            out.board(final)
        for line in summary(final):
            out.line(line)
    return 0
