"""``--bot SPEC`` of every command: the bots it can name, and the one check that refuses a bot.

:func:`command_bot` builds a bot from its spec and turns every reason this
pacru cannot run it into a :class:`ValueError` of one line, which each
command prints as its error and exits with status 2 (bad usage), before
anything is played: a bad spec, the ``search`` bot on a build without the
native extension (:class:`pacru.bots.SearchUnavailableError`), or a bot that
does not play the game (``search`` in LSD). :func:`bot_kinds` lists the
registered kinds for the options' help, from :data:`pacru.bots.BOTS`.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable
from typing import Final

from pacru.bots.base import Bot
from pacru.bots.engine import EngineBot
from pacru.bots.search import SearchBot, SearchUnavailableError
from pacru.bots.spec import BOTS, make_bot
from pacru.games import CHEVRON_GAMES

__all__ = ["bot_kinds", "check_bots", "command_bot", "find_bots_in_cwd"]

#: The games of the bots that do not play every game (the others play them all).
_GAMES_OF: Final[dict[type[Bot], tuple[str, ...]]] = {SearchBot: CHEVRON_GAMES}


def bot_kinds() -> str:
    """The bot kinds of :data:`pacru.bots.BOTS`, as the ``--bot`` help lists them.

    >>> bot_kinds()
    'random, greedy, mcts, search, network'
    """
    return ", ".join(BOTS)


def command_bot(
    spec: str, seed: int | None = None, game: str | None = None, *, given: str | None = None
) -> Bot:
    """The bot of ``spec`` (:func:`pacru.bots.make_bot`), seeded with ``seed``, checked to run.

    Args:
        spec: the text of ``--bot`` (:mod:`pacru.bots.spec`).
        seed: the bot's seed.
        game: the game it is to play (a name of :data:`pacru.GAMES`); ``None``
            when not known yet (``pacru engine``).
        given: the option as typed, for the message (default ``--bot SPEC``;
            ``pacru play`` gives ``--bot COLOUR=SPEC``).

    Raises:
        ValueError: a bad spec; the ``search`` bot on a build of pacru without
            its native extension; a bot that does not play ``game``; a file
            the bot reads that cannot be read; an ``engine:`` program that is
            not there. The message is one line, naming the spec.
    """
    option = given or f"--bot {spec}"
    try:
        bot = make_bot(spec, seed)
    except SearchUnavailableError as err:
        raise ValueError(f"{option}: {err}") from None
    except OSError as err:  # a file the bot reads, such as network:network=PATH
        where = f"{err.filename}: " if err.filename else ""
        raise ValueError(f"{option}: {where}{err.strerror or err}") from None
    for cls, games in _GAMES_OF.items():
        if game is not None and isinstance(bot, cls) and game not in games:
            raise ValueError(f"{option}: this bot plays {', '.join(games)}, not {game}")
    if isinstance(bot, EngineBot) and shutil.which(bot.argv[0]) is None:
        # Found before the first game: the program would only forfeit every game.
        raise ValueError(f"{option}: no program {bot.argv[0]} to run (not found or not executable)")
    return bot


def check_bots(specs: Iterable[str], game: str | None = None) -> None:
    """Build each spec once (seed 0) by :func:`command_bot`, so that a bot this pacru
    cannot run is refused before any game is played, not in the middle of one.

    Raises:
        ValueError: as :func:`command_bot`, for the first spec that fails.
    """
    for spec in specs:
        command_bot(spec, 0, game)


def find_bots_in_cwd() -> None:
    """Put the current directory first on :data:`sys.path` unless it is there already.

    A bot class named ``package.module:ClassName`` (:mod:`pacru.bots.spec`) is
    then imported from the current directory, as ``python -m`` would: the
    ``pacru`` script alone does not look there. Call it before the spec is
    parsed, and before worker processes start (they inherit the path):
    :func:`pacru.cli.main` calls it once, before any command runs.
    """
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
