"""The docs' CLI reference generator (docs/_ext/pacru_cli.py), from the argparse parsers."""

from __future__ import annotations

import argparse
import re
from typing import Any

from docs_extensions import load_extension
from pacru.cli import build_parser

EXT: Any = load_extension("pacru_cli")


def test_escape_keeps_options_literal_and_markup_inert() -> None:
    assert EXT.escape("With --human, -n N:  *one*\n seat_x | a-b") == (
        "With ``--human``, ``-n`` N: \\*one\\* seat\\_x \\| a-b"
    )


def test_render_a_small_parser() -> None:
    parser = argparse.ArgumentParser(prog="tool", description="Does things.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = sub.add_parser("run", help="run it", description="Run with --fast.")
    run.add_argument("FILE", help="the input")
    run.add_argument("--size", "-s", type=int, default=400, metavar="PIXELS", help="width")
    run.add_argument("--mode", choices=["a", "b"], default="a")
    run.add_argument("--bot", action="append", help="a bot")
    run.add_argument("--quiet", action="store_true", help="say less")
    group = run.add_argument_group("extra options")
    group.add_argument("--seed", required=True, help="seed (default: none)")
    text = "\n".join(EXT.render(parser))
    assert "Commands: ``run`` (run it)" in text
    assert ".. _cli-run:\n\n``tool run``\n------------\n" in text
    # The usage line, from argparse itself.
    assert (
        "   tool run [-h] [--size PIXELS] [--mode {a,b}] [--bot BOT] [--quiet] --seed SEED" in text
    )
    assert "Run with ``--fast``." in text
    assert "   * - ``--size PIXELS``, ``-s PIXELS``\n     - width. Default: ``400``." in text
    assert "   * - ``--mode {a,b}``\n     - One of ``a``, ``b``. Default: ``a``." in text
    assert "   * - ``--bot BOT``\n     - a bot. May be given more than once." in text
    assert "   * - ``--quiet``\n     - say less." in text
    assert ".. list-table:: Extra options" in text
    assert "   * - ``--seed SEED``\n     - seed (default: none). Required." in text
    assert "``-h``" not in text


def test_the_real_parser_lists_every_command_and_option() -> None:
    parser = build_parser()
    text = "\n".join(EXT.render(parser))
    for name, _, sub in EXT.subcommands(parser):
        assert f"``pacru {name}``" in text
        # A hidden alias (help=SUPPRESS, such as match's old --game) stays out of the reference.
        shown = [a for a in sub._actions if a.help is not argparse.SUPPRESS]
        for action in shown:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert f"``{option}" in text, (name, option)


def test_the_hidden_game_alias_of_match_stays_out_of_the_reference() -> None:
    text = "\n".join(EXT.render(build_parser()))
    match = text[text.index("``pacru match``") :]
    match = match[: match.index("``pacru selfplay``")]
    assert "pacru match GAME --bot SPEC [--bot SPEC ...] [options]" in match
    assert "[GAME]" not in match  # required: run() refuses a match without it
    assert re.search(r"--game(?!s)", match) is None
    assert "``-g" not in match
