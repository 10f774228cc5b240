"""The ``pacru-cli`` directive: the ``pacru`` command's reference, from its argparse parsers.

.. code-block:: rst

   .. pacru-cli::

calls :func:`pacru.cli.build_parser` at docs build time and writes, for the
program and for each subcommand in the order they are registered, a section
with its usage line, its description and a table of its arguments (group by
group, as ``--help`` shows them). A new command or option appears in the docs
by itself, with its help text; nothing is copied by hand.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from pacru_generated import GeneratedRst, add_directive
from sphinx.application import Sphinx

_SPECIAL = re.compile(r"([\\*`|_])")
_OPTION = re.compile(r"(?<![\w`-])(--?[a-zA-Z][\w-]*)")


def escape(text: str) -> str:
    """``text`` as reStructuredText: markup characters escaped, options as literals.

    An option such as ``--human`` becomes a literal, so that it is not typeset
    with an en dash.
    """
    parts = _OPTION.split(" ".join(text.split()))
    return "".join(
        f"``{part}``" if i % 2 else _SPECIAL.sub(r"\\\1", part) for i, part in enumerate(parts)
    )


def _sentence(text: str) -> str:
    return text if not text or text[-1] in ".!?" else f"{text}."


def subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of each subcommand, in the order registered."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                found.append((name, helps.get(name, ""), sub))
    return found


def _names(action: argparse.Action, formatter: argparse.HelpFormatter) -> str:
    if not action.option_strings:
        return f"``{formatter._metavar_formatter(action, action.dest)(1)[0]}``"
    if action.nargs == 0:
        return ", ".join(f"``{o}``" for o in action.option_strings)
    metavar = formatter._format_args(action, action.dest.upper())
    return ", ".join(f"``{o} {metavar}``" for o in action.option_strings)


def _meaning(action: argparse.Action, formatter: argparse.HelpFormatter) -> str:
    text = _sentence(escape(formatter._expand_help(action))) if action.help else ""
    extra = []
    if action.required and action.option_strings:
        extra.append("Required.")
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        shown = ", ".join(f"``{c}``" for c in action.choices)
        if not all(str(c) in text for c in action.choices):
            extra.append(f"One of {shown}.")
    default = action.default
    if (
        action.option_strings
        and action.nargs != 0
        and default not in (None, argparse.SUPPRESS, [])
        and "default" not in text
    ):
        extra.append(f"Default: ``{default}``.")
    if isinstance(action, argparse._AppendAction):
        extra.append("May be given more than once.")
    return " ".join(p for p in (text, *extra) if p) or "\\ "


#: Line width of the usage lines, fixed so that the page does not depend on the terminal.
WIDTH = 88


def _formatter(parser: argparse.ArgumentParser) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(parser.prog, width=WIDTH)


def _usage(parser: argparse.ArgumentParser) -> list[str]:
    formatter = _formatter(parser)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    usage = formatter.format_help().strip()
    usage = usage[len("usage: ") :] if usage.startswith("usage: ") else usage
    return [".. code-block:: text", "", *(f"   {line}" for line in usage.splitlines()), ""]


def _table(title: str, actions: list[argparse.Action], formatter: Any) -> list[str]:
    rows = [
        a
        for a in actions
        if a.help is not argparse.SUPPRESS
        and not isinstance(a, argparse._HelpAction | argparse._SubParsersAction)
    ]
    if not rows:
        return []
    lines = [
        f".. list-table:: {escape(title)}",
        "   :header-rows: 1",
        "   :widths: 32 68",
        "   :width: 100%",
        "   :class: pacru-cli",
        "",
        "   * - Argument",
        "     - Meaning",
    ]
    for action in rows:
        lines += [f"   * - {_names(action, formatter)}", f"     - {_meaning(action, formatter)}"]
    return [*lines, ""]


def _parser_body(parser: argparse.ArgumentParser) -> list[str]:
    formatter = _formatter(parser)
    lines = _usage(parser)
    if parser.description:
        lines += [escape(parser.description), ""]
    for group in parser._action_groups:
        title = {"options": "Options", "positional arguments": "Arguments"}.get(
            group.title or "", group.title or ""
        )
        title = title[:1].upper() + title[1:]
        lines += _table(title, group._group_actions, formatter)
    if parser.epilog:
        lines += [escape(parser.epilog), ""]
    return lines


def render(parser: argparse.ArgumentParser, heading: str = "-") -> list[str]:
    """The reference of ``parser`` and its subcommands as reStructuredText lines."""
    lines = _parser_body(parser)
    commands = subcommands(parser)
    if commands:
        lines += ["Commands: " + ", ".join(f"``{n}`` ({escape(h)})" for n, h, _ in commands), ""]
    for name, _, sub in commands:
        title = f"``{parser.prog} {name}``"
        lines += [f".. _cli-{name}:", "", title, heading * len(title), ""]
        lines += _parser_body(sub)
    return lines


class PacruCli(GeneratedRst):
    """``.. pacru-cli::`` (see the module docstring)."""

    source = "<pacru-cli>"

    def generate(self) -> tuple[list[str], list[str]]:
        from pacru import cli, commands

        names = [f"pacru.commands.{name}" for name in commands.COMMANDS]
        modules = [__import__(name, fromlist=["register"]) for name in names]
        return render(cli.build_parser()), [m.__file__ for m in modules if m.__file__]


def setup(app: Sphinx) -> dict[str, Any]:
    return add_directive(app, "pacru-cli", PacruCli)
