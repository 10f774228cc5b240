"""``pacru play``: a whole game between random players, or against you.

Usage::

    pacru play GAME --players N [--seed S] [--human [--seat COLOUR]] [--quiet]
               [--bot COLOUR=SPEC ...] [--position TEXT|FILE [--no-adjudicate]]
               [--record OUT] [--no-color]
               [--start-layout LAYOUT] [--meeting-rule RULE] [--move-cap PLIES]

Every seat is taken by the built-in random player (:func:`random_move`,
seeded with ``random.Random(seed)``), except the one ``--human`` gives to the
person at the terminal and those ``--bot COLOUR=SPEC`` gives to a bot
(:func:`pacru.bots.spec.make_bot`, e.g. ``--bot yellow=mcts:iterations=200``).
``--position`` starts from a position string (:func:`pacru.from_position`),
given as text or as the name of a file holding it; GAME may then be left out.
``--no-adjudicate`` loads it as typed (a rulebook diagram), as
``from_position(text, adjudicate=False)``; a position whose game is over is
shown with its result (:meth:`pacru.Outcome.describe`) and nothing is played.
After each turn the move and the board (``str(state)``; in colour, with a
legend, at a terminal with ``rich``) are printed; at the end the scores and
the result (:meth:`pacru.Outcome.result`). The human may type a move in full
or in short text (:meth:`pacru.GameState.parse_san`). Only the
:class:`pacru.GameState` protocol is used, so every game in
:data:`pacru.GAMES` can be played, LSD included.

Exit status: 0 when the game was played to its end (or the human quit, or the
``--position`` was already over), 2 on bad usage (an unknown option value, a
seat that is not a player, a diagram whose player to move cannot move), 1 if the
engine failed or the output pipe closed, 130 on Ctrl-C. Errors are one line
on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from pacru.bots.base import Forfeit, sample_move
from pacru.commands._bots import bot_kinds, command_bot
from pacru.commands._options import (
    add_game_options,
    flag_message,
    game_options,
    output_path_problem,
    run_seed,
)
from pacru.commands._prompt import read_move, refusal
from pacru.commands._ui import Output, add_colour_option, colour_choice
from pacru.errors import PacruError
from pacru.game import Game
from pacru.games import GAMES, new_game

if TYPE_CHECKING:
    from pacru.base import GameState

__all__ = ["LIST_LIMIT", "random_move", "register", "run"]

MoveT = TypeVar("MoveT")

#: Largest number of moves the human prompt lists one by one; bigger sets are
#: summarised (by step family for the chevron games) and taken as move text.
LIST_LIMIT = 60
_QUIT = frozenset({"q", "quit", "exit", "resign"})
_HELP = frozenset({"?", "h", "help", "moves"})
_TURNS = {-2: "<<", -1: "<", 1: ">", 2: ">>"}
# What a game prints: only the result; the moves and the final board (the default);
# the board after every move.
_QUIET, _MOVES, _VERBOSE = "quiet", "moves", "verbose"


def random_move(state: GameState[MoveT], rng: random.Random) -> MoveT:
    """A random legal move of ``state``: the built-in random player.

    The same draw as :class:`pacru.bots.RandomBot`
    (:func:`pacru.bots.base.sample_move` with ``uniform="families"``): for the
    chevron games a *family* (a chevron step, or a chevron's reorientation by
    one turn) is picked uniformly first, then a move within it, because a
    Pacru reorientation family holds every set of relinquished fields {R14}
    and would otherwise swamp the steps.

    Raises:
        GameOverError: ``state`` has no legal move (the game is over).
    """
    return sample_move(state, rng)


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand to the ``pacru`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help="play a game between random players, bots (--bot) or you (--human)",
        description=(
            "Play a complete game, from the start or from a position (--position), printing "
            "the moves, the final board and the result (--verbose: the board after every "
            "move). Seats are played by the built-in "
            "random player unless --bot gives them to a bot or --human gives one to you."
        ),
    )
    parser.add_argument(
        "game",
        nargs="?",
        type=str.lower,  # as new_game reads the name: Shacru is shacru
        choices=GAMES,
        metavar="GAME",
        help=f"one of {', '.join(GAMES)}; optional with --position, which names its game",
    )
    parser.add_argument(
        "--players", "-n", type=int, default=None, metavar="N", help="2 (default), 3 or 4"
    )
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="seed of the random players"
    )
    parser.add_argument(
        "--human", action="store_true", help="play one seat yourself at the terminal"
    )
    parser.add_argument(
        "--seat", metavar="COLOUR", default=None, help="the colour you play (default: the first)"
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--quiet", "-q", action="store_true", help="print only the result (and your turns)"
    )
    shown.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="print the board after every move (default: the moves, then the final board)",
    )
    parser.add_argument(
        "--record", metavar="OUT", default=None, help="write the game record to OUT (pacru replay)"
    )
    parser.add_argument(
        "--bot",
        metavar="COLOUR=SPEC",
        action="append",
        default=[],
        help=(
            "give the seat COLOUR to a bot, e.g. yellow=greedy or red=mcts:iterations=200 "
            f"(kinds: {bot_kinds()}); repeat for more seats; the others play randomly"
        ),
    )
    parser.add_argument(
        "--position",
        metavar="TEXT|FILE",
        default=None,
        help=(
            "start from this position string, or from the one in this file "
            "(pacru.from_position; e.g. 'shacru players=red,yellow chevrons=red:e4N;yellow:e6S')"
        ),
    )
    parser.add_argument(
        "--no-adjudicate",
        action="store_true",
        help=(
            "load the --position as typed, without deciding whether its game is over "
            "(a rulebook diagram; pacru.from_position(..., adjudicate=False))"
        ),
    )
    add_colour_option(parser)
    add_game_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output | None = None) -> int:
    """Play the game described by the parsed ``args``; returns the exit status."""
    out = out or Output(colour=colour_choice(args))
    try:
        state: GameState[Any] = _start(args)
    except (ValueError, TypeError, ImportError) as err:
        out.error(str(err))
        return 2
    if state.outcome is not None:
        return _over_already(state, args.quiet, out)
    seed = run_seed(args)
    try:
        bots = _bots(getattr(args, "bot", []), state, seed)
    except ValueError as err:
        out.error(str(err))
        return 2
    problem = output_path_problem("--record", getattr(args, "record", None))
    if problem:  # before playing: a game must not end on an unwritable path
        out.error(problem)
        return 2
    seat = None
    if args.human:
        seat = args.seat.lower() if args.seat else state.players[0]
        if seat not in state.players:
            out.error(f"--seat {args.seat}: not a player here; players: {', '.join(state.players)}")
            return 2
    elif args.seat:
        out.error("--seat needs --human")
        return 2
    if seat is not None and seat in bots:
        out.error(f"--bot {seat}=...: {seat} is the --human seat")
        return 2
    try:
        record = getattr(args, "record", None)
        shown = _QUIET if args.quiet else _VERBOSE if getattr(args, "verbose", False) else _MOVES
        return _play(state, random.Random(seed), seed, seat, shown, out, record=record, bots=bots)
    except PacruError as err:
        out.error(f"engine error: {err}")
        return 1
    except KeyboardInterrupt:
        out.line()
        out.error("interrupted")
        return 130


def _start(args: argparse.Namespace) -> GameState[Any]:
    """The starting state: ``--position`` (text or file), else GAME's set-up.

    Raises:
        ValueError: no GAME nor position, an unreadable position file, a
            ``--position`` that is empty, a folder, or neither a file nor a
            position string, a position of another game than GAME,
            ``--players`` or a game option given with a position, or a bad
            option (a PacruError for a bad position string);
            ``--no-adjudicate`` without a position, or with a diagram whose
            player to move has no legal move.
    """
    position = getattr(args, "position", None)
    if getattr(args, "no_adjudicate", False) and position is None:
        raise ValueError("--no-adjudicate applies to a --position")
    if position is None:
        if args.game is None:
            raise ValueError("name the GAME to play, or give --position")
        game: str = args.game
        try:
            return new_game(game, args.players or 2, **game_options(args))
        except ValueError as err:
            raise ValueError(flag_message(err)) from None
    if args.players is not None or game_options(args):
        # The position names its players and options; silently ignoring a flag would mislead.
        raise ValueError(
            "--position fixes the players and the game options: "
            "drop --players, --start-layout, --meeting-rule and --move-cap"
        )
    from pathlib import Path

    from pacru.commands.replay import UsageError, read_text
    from pacru.games import from_position
    from pacru.records import RecordError

    text = position
    if Path(position).is_file():
        try:  # the records' reader: the same size limit and checks as pacru replay
            text = read_text(position)
        except (UsageError, RecordError) as err:
            raise ValueError(f"--position {position}: cannot read the file ({err})") from None
    elif not position.strip():
        raise ValueError("--position is empty: give a position string or a file")
    elif Path(position).is_dir():
        raise ValueError(f"--position {position}: is a folder, not a file")
    elif position.split()[0].lower() not in GAMES:
        # Most likely a mistyped file name: say so, not only that it is no position string.
        raise ValueError(
            f"--position {position}: no such file, nor a position string "
            f"(which starts with the game name: {', '.join(GAMES)})"
        )
    state = from_position(text.strip(), adjudicate=not getattr(args, "no_adjudicate", False))
    if args.game is not None and state.game != args.game:
        raise ValueError(f"--position is a {state.game} position, not {args.game}")
    if state.outcome is None and not state.legal_moves():
        # Only an unadjudicated diagram gets here: play would have passed or ended the game.
        raise ValueError(
            f"--position: {state.current_player} is to move but has no legal move; "
            "drop --no-adjudicate to let the rules decide the position"
        )
    return state


def _over_already(state: GameState[Any], quiet: bool, out: Output) -> int:
    """Show a ``--position`` whose game is over, and why; nothing is played (status 0)."""
    assert state.outcome is not None
    if not quiet:
        out.heading(f"{state.game}: {len(state.players)} players ({', '.join(state.players)})")
        out.board(state)
    out.heading(f"Game over: {state.outcome.describe()}")
    out.line("Nothing to play; --no-adjudicate loads the position as typed.", "dim")
    return 0


def _bots(specs: Sequence[str], state: GameState[Any], seed: int) -> dict[str, Any]:
    """Colour -> bot, from ``--bot COLOUR=SPEC`` options (seeded from ``seed``).

    Raises:
        ValueError: not COLOUR=SPEC, a colour that is not a player or given
            twice, or a bot this pacru cannot run here
            (:func:`pacru.commands._bots.command_bot`).
    """
    if not specs:
        return {}
    bots: dict[str, Any] = {}
    for item in specs:
        colour, eq, spec = item.partition("=")
        colour = colour.strip().lower()
        if not eq or not spec.strip():
            raise ValueError(f"--bot {item}: expected COLOUR=SPEC, e.g. yellow=greedy")
        if colour not in state.players:
            raise ValueError(
                f"--bot {item}: {colour!r} is not a player; players: {', '.join(state.players)}"
            )
        if colour in bots:
            raise ValueError(f"--bot {item}: {colour} is given twice")
        seat_seed = seed + 1 + state.players.index(colour)
        bots[colour] = command_bot(spec, seat_seed, state.game, given=f"--bot {item}")
    return bots


def _play(
    state: GameState[Any],
    rng: random.Random,
    seed: int,
    human: str | None,
    shown: str,
    out: Output,
    record: str | None = None,
    bots: dict[str, Any] | None = None,
) -> int:
    """Play to the end. ``shown``: ``_QUIET``, ``_MOVES`` or ``_VERBOSE``.

    A human's game prints each move as it comes (they must see the others' moves);
    otherwise the default prints the moves once the game is over, then the final board.
    """
    players = ", ".join(state.players)
    quiet = shown == _QUIET
    each_move = human is not None or shown == _VERBOSE
    if not quiet:
        who = f"; you play {human}" if human else ""
        out.heading(f"{state.game}: {len(state.players)} players ({players}), seed {seed}{who}")
        if each_move:
            out.board(state)
    game: Game[Any] = Game(state)
    while state.outcome is None:
        player = state.current_player
        if player == human:
            move = _ask_move(state, out, show_board=quiet)
            if move is None:
                out.line(f"{human} quits; the game is left unfinished at ply {len(game)}.")
                return _save_record(game, record, seed, out)
        else:
            if not state.legal_moves():
                out.error(f"{player} has no legal move, but the game is not over")
                return 1
            bot = (bots or {}).get(player or "")
            try:
                move = bot.choose_move(state) if bot is not None else random_move(state, rng)
            except Forfeit as err:  # an engine that cannot start or misbehaves, or a resignation
                out.error(f"{player}'s bot forfeits at ply {state.ply}: {err}")
                return 1
        state = game.push(move)
        if each_move:
            out.line()
            out.heading(f"ply {len(game)}: {player} plays {move}")
            if not quiet:
                out.board(state)
    if not quiet and not each_move:
        _print_moves(game, out)
    _print_result(state, out, blank=not quiet or human is not None)
    return _save_record(game, record, seed, out)


def _print_moves(game: Game[Any], out: Output) -> None:
    """The moves by ply number in columns, then the final board."""
    first = game.root.ply
    count = len(game)
    out.line()
    out.heading(f"Moves ({count} {'ply' if count == 1 else 'plies'}; --verbose shows every board):")
    for row in _columns([f"{first + i}. {m}" for i, m in enumerate(game.moves, 1)]):
        out.line("  " + row)
    out.line()
    out.heading(f"Final position (ply {game.ply}):")
    out.board(game.state)


def _save_record(game: Game[Any], path: str | None, seed: int, out: Output) -> int:
    """Write the game record (:mod:`pacru.records`) to ``path``; 0, or 2 if it cannot be."""
    if path is None:
        return 0
    from pathlib import Path

    from pacru.records import record_from_game, write_record

    text = write_record(record_from_game(game, Event="pacru play", Seed=str(seed)))
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        out.error(f"--record {path}: {err.strerror or err}")
        return 2
    return 0


def _print_result(state: GameState[Any], out: Output, *, blank: bool = True) -> None:
    from pacru.commands.replay import summary

    assert state.outcome is not None
    if blank:
        out.line()
    scores, result = summary(state, "Final scores")
    out.line(scores)
    out.heading(result)


def _columns(items: Sequence[str], width: int = 78) -> list[str]:
    """``items`` laid out in as many equal columns as fit in ``width``."""
    if not items:
        return []
    cell = max(len(s) for s in items) + 2
    per_row = max(1, width // cell)
    return [
        "".join(s.ljust(cell) for s in items[i : i + per_row]).rstrip()
        for i in range(0, len(items), per_row)
    ]


def _menu(state: GameState[Any]) -> tuple[list[Any], list[str]]:
    """The moves offered by number, and the lines that show them."""
    from pacru.chevron.movelist import LegalMoves, ReorientationFamily

    moves = state.legal_moves()
    if len(moves) <= LIST_LIMIT:
        numbered = list(moves)
        extra: list[str] = []
    elif isinstance(moves, LegalMoves):
        step_total = sum(f.size for f in moves.steps)
        numbered = [m for f in moves.steps for m in f] if step_total <= LIST_LIMIT else []
        extra = []
        if not numbered:
            extra.append("Steps (type the move text):")
            for sf in moves.steps:
                first = str(sf.get(0))
                extra.append(f"  {first}  ({sf.size} moves, e.g. {first} .. {sf.get(sf.size - 1)})")
        if moves.reorientations:
            extra.append(
                "Reorientations {R14}: turn < > (45 degrees, give up 2 own fields) "
                "or << >> (90 degrees, give up 4); type the move text:"
            )
            by_origin: dict[int, list[ReorientationFamily]] = {}
            for rf in moves.reorientations:
                by_origin.setdefault(rf.origin, []).append(rf)
            for fams in by_origin.values():
                turns = " ".join(_TURNS[rf.turn] for rf in fams)
                fields = ",".join(_field_names(sorted({f for rf in fams for f in rf.fields})))
                count = sum(rf.size for rf in fams)
                extra.append(
                    f"  {_field_names([fams[0].origin])[0]} {turns}: {count} moves, "
                    f"fields {fields}; e.g. {fams[0].get(0)}"
                )
    else:
        numbered = list(moves[:LIST_LIMIT])
        extra = [f"... and {len(moves) - LIST_LIMIT} more: type the move text."]
    width = len(str(len(numbered)))
    lines = _columns([f"{i:>{width}}. {m}" for i, m in enumerate(numbered, 1)])
    return numbered, lines + extra


def _field_names(fields: Sequence[int]) -> list[str]:
    from pacru.geometry import FIELD_NAMES

    return [FIELD_NAMES[f] for f in fields]


def _ask_move(state: GameState[Any], out: Output, *, show_board: bool) -> Any | None:
    """Prompt the human until they give a legal move; ``None`` when they quit.

    ``show_board`` is False when the board was just printed after the last move.
    """
    player = state.current_player
    numbered, lines = _menu(state)
    total = len(state.legal_moves())

    def show(board: bool) -> None:
        out.line()
        if board:
            out.board(state)
        out.heading(f"Your move, {player} ({total} legal moves):")
        out.block("\n".join(lines))
        out.line(
            "Type a number or a move (short text is fine when it fits one move), "
            "'help' to show this again, 'quit' to stop.",
            "dim",
        )

    show(show_board)
    while True:
        text = out.ask(f"{player}> ")
        if text is None or text.lower() in _QUIT:
            return None
        if not text:
            continue
        if text.lower() in _HELP:
            show(True)
            continue
        if text.isascii() and text.isdigit():
            number = int(text)
            if 1 <= number <= len(numbered):
                return numbered[number - 1]
            out.line(f"No move numbered {text}: choose 1..{len(numbered)} or type a move.", "red")
            continue
        try:
            return read_move(state, text)
        except PacruError as err:
            first, *more = refusal(state, text, err)
            out.line(first, "red")
            for line in more:
                out.line(line, "dim")
