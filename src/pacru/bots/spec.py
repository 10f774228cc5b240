"""Bot specifications: the text ``mcts:iterations=400,exploration=0.7`` names a bot.

A spec is a bot kind (:data:`BOTS`), optionally followed by ``:`` and
``key=value`` parameters separated by ``,`` or ``:``. Values are read as
``int``, then ``float``, then ``true``/``false``/``none``, else kept as text.
The parameters are the bot's constructor keywords, ``seed`` excepted (the
caller supplies the seed, see :func:`make_bot`).

A program speaking the pacru engine protocol (any language) is
``engine:COMMAND``, optionally ``engine:time_limit=0.5,nodes=1000:COMMAND``
(:class:`pacru.bots.engine.EngineBot`; the command is split as a POSIX shell
splits it, so quote a path with spaces).

Your own bot class is named by its import path instead of a kind,
``package.module:ClassName``, again optionally followed by ``:`` and
parameters: ``mybots.net:NetBot:depth=3``. The class is built as
``ClassName(seed=S, **params)`` when it takes a ``seed`` (else without).

>>> parse_spec("mcts:iterations=400,exploration=0.7")
('mcts', {'iterations': 400, 'exploration': 0.7})
>>> make_bot("greedy:objective=own", seed=1).name
'greedy(objective=own)'
>>> make_bot("pacru.bots:RandomBot:uniform=moves", seed=1).name
'random(uniform=moves)'

In Python, :func:`build_bot` also takes a bot object (used as it is) or a
factory (called with the seed), as :func:`pacru.bots.arena.run_match` does.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeAlias

from pacru.bots.base import Bot
from pacru.bots.engine import ENGINE_PARAMETERS, EngineBot
from pacru.bots.mcts import MCTSBot
from pacru.bots.network import NetworkBot
from pacru.bots.search import SearchBot
from pacru.bots.simple import GreedyBot, RandomBot

__all__ = [
    "BOTS",
    "BotEntry",
    "build_bot",
    "load_bot_class",
    "make_bot",
    "parse_engine_spec",
    "parse_spec",
    "spec_value",
]

#: One player of a match: a spec (text), a bot object, or a factory called with a seed.
BotEntry: TypeAlias = str | Bot | Callable[[int], Bot]

#: Bot kind -> class. Each takes ``seed`` and keyword parameters.
BOTS: Final[dict[str, type[Any]]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MCTSBot,
    "search": SearchBot,
    "network": NetworkBot,
}


def spec_value(text: str) -> Any:
    """A spec parameter's value: ``int``, else ``float``, else ``true``/``false``/``none``,
    else the text itself."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """The bot kind and keyword parameters of ``spec``.

    Raises:
        ValueError: an unknown kind, a parameter that is not ``key=value``, a
            parameter the bot does not take, or ``seed``; the message lists
            the valid ones.
    """
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind == "engine":
        command, keywords = parse_engine_spec(rest)
        return "engine", {"command": command, **keywords}
    cls = BOTS.get(kind)
    if cls is None:
        head, _, tail = spec.strip().partition(":")
        name, _, rest = tail.partition(":")
        if not name.strip().isidentifier():
            raise ValueError(
                f"unknown bot {kind!r} in {spec!r}; bots: {', '.join(BOTS)}, "
                "engine:COMMAND, or package.module:ClassName"
            )
        kind = f"{head.strip()}:{name.strip()}"
        cls = load_bot_class(kind)
    # An evaluator is a callable, which no text can name.
    unnamed = ("seed", "evaluator", "batch_evaluator")
    valid = [p for p in inspect.signature(cls).parameters if p not in unnamed]
    params: dict[str, Any] = {}
    for item in rest.replace(":", ",").split(","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or not key:
            raise ValueError(f"bot parameter {item.strip()!r} in {spec!r} is not key=value")
        if key not in valid:
            raise ValueError(
                f"{kind} has no parameter {key!r} (from {spec!r}); parameters: {', '.join(valid)}"
            )
        params[key] = spec_value(value.strip())
    return kind, params


def make_bot(
    spec: str, seed: int | None = None, *, overrides: Mapping[str, Any] | None = None
) -> Bot:
    """A new bot from its spec, seeded with ``seed``.

    ``overrides`` replaces parameters of the spec (or adds them), e.g. the
    budget ``pacru engine`` is sent with ``go``; they are checked by the bot's
    constructor as the spec's are.

    Raises:
        ValueError: a bad spec (see :func:`parse_spec`) or parameter value.
    """
    kind, params = parse_spec(spec)
    params = {**params, **(overrides or {})}
    if kind == "engine":
        cls: Callable[..., Any] = EngineBot
    else:
        cls = BOTS[kind] if kind in BOTS else load_bot_class(kind)
    try:
        bot = _construct(cls, seed, params)
    except TypeError as err:
        raise ValueError(f"bad parameters in {spec!r}: {err}") from None
    return _checked(bot, spec)


def parse_engine_spec(text: str) -> tuple[str, dict[str, Any]]:
    """The command and keywords of the part of a spec after ``engine:``.

    ``[key=value,...:]COMMAND``: leading ``key=value`` items separated by
    ``,`` and ended by ``:``, whose keys are all in
    :data:`pacru.bots.engine.ENGINE_PARAMETERS`, are keywords of
    :class:`pacru.bots.engine.EngineBot`; the rest is the command line.

    >>> from pacru.bots.spec import parse_engine_spec
    >>> parse_engine_spec("time_limit=0.5,nodes=1000:./mybot --fast")
    ('./mybot --fast', {'time_limit': 0.5, 'nodes': 1000})
    >>> parse_engine_spec("python -m pacru engine --bot mcts:iterations=50")
    ('python -m pacru engine --bot mcts:iterations=50', {})

    Raises:
        ValueError: no command.
    """
    head, sep, rest = text.partition(":")
    params: dict[str, Any] = {}
    if sep:
        items = [i.strip() for i in head.split(",")]
        pairs = [i.partition("=") for i in items]
        if all(eq and k.strip() in ENGINE_PARAMETERS for k, eq, _ in pairs):
            params = {k.strip(): spec_value(v.strip()) for k, _, v in pairs}
            text = rest
    if not text.strip():
        raise ValueError("engine: needs a command line, as in engine:./mybot")
    return text.strip(), params


def load_bot_class(path: str) -> type[Any]:
    """The class named by ``"package.module:ClassName"`` (imported).

    Raises:
        ValueError: the module cannot be imported, has no such attribute, or
            the attribute is not a class.
    """
    module_name, sep, name = path.partition(":")
    if not sep or not module_name or not name:
        raise ValueError(f"a bot class is named package.module:ClassName, not {path!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ValueError(f"cannot import {module_name!r} for the bot {path!r}: {err}") from None
    cls = getattr(module, name, None)
    if not isinstance(cls, type):
        raise ValueError(f"{module_name!r} has no class {name!r} (bot {path!r})")
    return cls


def build_bot(entry: BotEntry, seed: int | None = None) -> Bot:
    """A bot for one game: ``entry`` is a spec, a bot object or a factory.

    A spec is built by :func:`make_bot`; a bot object (anything with
    ``name`` and ``choose_move``, see :class:`Bot`) is returned as it is, so
    it keeps its state from game to game; a factory (a bot class or any
    callable) is called with ``seed`` (as ``seed=`` when it has such a
    parameter, positionally when it takes one argument, else without).

    Raises:
        ValueError: a bad spec, or a factory that does not return a bot.
        TypeError: ``entry`` is none of the three.
    """
    if isinstance(entry, str):
        return make_bot(entry, seed)
    if not isinstance(entry, type) and isinstance(entry, Bot):
        return entry
    if callable(entry):
        return _checked(_construct(entry, seed, {}), getattr(entry, "__name__", repr(entry)))
    raise TypeError(f"a bot entry is a spec, a Bot or a factory, not {entry!r}")


def opponent_entries(opponent: BotEntry | Sequence[BotEntry], players: int) -> list[BotEntry]:
    """The ``players - 1`` opponents of an environment's learner, each checked by building it.

    ``opponent`` is one entry for every opponent seat or a sequence of one
    entry per opponent seat (see :func:`build_bot`).

    Raises:
        ValueError: the sequence's length is not ``players - 1``, or a bad spec.
        TypeError: an entry is no spec, bot or factory.
    """
    entries = (
        list(opponent)
        if isinstance(opponent, Sequence) and not isinstance(opponent, str)
        else [opponent] * (players - 1)
    )
    if len(entries) != players - 1:
        raise ValueError(f"{players} players need {players - 1} opponents, not {len(entries)}")
    for entry in entries:
        build_bot(entry, 0)  # a bad spec fails here, not at the first reset
    return entries


def _construct(factory: Callable[..., Any], seed: int | None, params: dict[str, Any]) -> Any:
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin without a signature: try the seed
        return factory(seed, **params)
    if "seed" in parameters:
        return factory(seed=seed, **params)
    positional = [
        p
        for p in parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
    ]
    return factory(seed, **params) if positional else factory(**params)


def _checked(bot: Any, origin: str) -> Bot:
    if not isinstance(bot, Bot):
        raise ValueError(f"{origin} did not make a bot (no name and choose_move): {bot!r}")
    return bot
