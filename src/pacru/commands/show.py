"""``pacru show``: draw one position of a recorded game, as text or SVG.

Usage::

    pacru show FILE|POSITION|GAME [--ply N] [--svg OUT] [--size PIXELS] [--index K]
               [--format auto|record|abstractplay|position]
               [--game GAME] [--players N] [--start-layout LAYOUT]
               [--meeting-rule RULE] [--move-cap PLIES]

FILE is read as by ``pacru replay`` (game records, AbstractPlay move lists or
a position string; every move is checked); a position string may also be
given as the argument itself, as ``pacru play --position`` takes it
(``pacru show "shacru players=red,yellow chevrons=red:e4N;yellow:e6S"``).
A game name (one of :data:`pacru.GAMES`) that is no file's name shows the
game's start position, with the players and options of ``pacru play``
(``pacru show pacru --players 3 --start-layout ap-legacy-2p``).
The position after ``N`` plies (default: the end; 0 is the start) of the
first game (or the ``--index``-th) is printed as a text board
(``str(state)``) with the move that led to it; ``--svg OUT`` also writes it
as an SVG drawing (:func:`pacru.svg.board`, the last move marked) to the
file OUT.

Exit status: 0 on success, 1 for a bad record or an illegal move (printed
with its ply and rule), 2 on bad usage (no such file, ``--ply`` out of range,
an unwritable OUT).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pacru.commands._options import flag_message, game_options, output_path_problem
from pacru.commands._ui import CommandExit, Output, add_colour_option, colour_choice
from pacru.commands.replay import LoadedGame, add_input_options, chosen_games, summary

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``show`` subcommand to the ``pacru`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "show",
        help="draw a position of a recorded game (text, or SVG with --svg)",
        description=(
            "Draw the position after N plies of a recorded game: a text board on standard "
            "output, and with --svg an SVG drawing in a file."
        ),
    )
    add_input_options(parser, start=True)
    parser.add_argument(
        "--ply", type=int, default=None, metavar="N", help="plies from the start (default: all)"
    )
    parser.add_argument("--svg", default=None, metavar="OUT", help="also write an SVG drawing")
    parser.add_argument(
        "--size", type=int, default=400, metavar="PIXELS", help="SVG width (default 400)"
    )
    add_colour_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output | None = None) -> int:
    """Show the position chosen by ``args``; returns the exit status."""
    out = out or Output(colour=colour_choice(args))
    problem = output_path_problem("--svg", args.svg)
    if problem:  # before the board is printed: an error is the only output
        out.error(problem)
        return 2
    try:
        loaded = _start_position(args) or chosen_games(args, out, args.index or 1, one=True)[0]
    except CommandExit as stop:
        return stop.status
    except ValueError as err:  # a game option this game does not take
        out.error(str(err))
        return 2
    total = len(loaded.moves)
    ply = total if args.ply is None else args.ply
    if not 0 <= ply <= total:
        out.error(f"--ply {args.ply}: the game has plies 0..{total}")
        return 2
    state = loaded.states[ply]
    last = state.last_move if ply else None
    if last is not None:
        mover = loaded.states[ply - 1].current_player
        out.heading(f"{loaded.label}, ply {ply} of {total}: {mover} played {last}")
    else:
        out.heading(f"{loaded.label}, ply {ply} of {total}: the start")
    out.board(state)
    for line in summary(state):
        out.line(line)
    if args.svg is not None:
        from pacru.svg import board

        try:
            drawing = board(state, size=args.size, last_move=last)
        except ValueError as err:
            out.error(f"--size {args.size}: {err}")
            return 2
        try:
            Path(args.svg).write_text(drawing, encoding="utf-8")
        except OSError as err:
            out.error(f"{args.svg}: {err.strerror or err}")
            return 2
        out.line(f"SVG written to {args.svg}")
    return 0


def _start_position(args: argparse.Namespace) -> LoadedGame | None:
    """GAME's start position when the argument is a game name and no file has that name.

    The players and options are those of ``pacru play GAME``: ``--players``
    (default 2), ``--start-layout``, ``--meeting-rule``, ``--move-cap``
    (:func:`pacru.new_game`). ``None`` for a file or a position.

    Raises:
        ValueError: an option the game does not take, or a bad player count; or
            ``--meeting-rule``/``--move-cap`` with a file or position, which
            have their own.
    """
    from pacru.games import GAMES, new_game

    name = args.file.strip().lower()
    if name not in GAMES or Path(args.file).exists() or args.format != "auto":
        if args.meeting_rule is not None or args.move_cap is not None:
            # The record or position fixes its rules; silently ignoring a flag would mislead.
            raise ValueError("--meeting-rule and --move-cap apply to a GAME's start position")
        if _mistyped_game(args.file):
            raise ValueError(
                f"{args.file}: no such file, nor a game name ({', '.join(GAMES)}) "
                "or position string"
            )
        return None
    try:
        state = new_game(name, args.players or 2, **game_options(args, name))
    except ValueError as err:
        raise ValueError(flag_message(err)) from None
    label = f"{name}, {len(state.players)} players ({', '.join(state.players)})"
    return LoadedGame(label, (state,), ())


def _mistyped_game(source: str) -> bool:
    """Whether ``source`` is one word that names no file, no folder and no game: most
    likely a game name mistyped (``pacru show chess``), not a file name."""
    words = source.split()
    return (
        source != "-"
        and len(words) == 1
        and "/" not in source
        and "." not in source
        and not Path(source).exists()
    )
