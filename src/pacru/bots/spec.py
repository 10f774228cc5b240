"""Bot specifications: the text ``mcts:iterations=400,exploration=0.7`` names a bot.

A spec is a bot kind (:data:`BOTS`), optionally followed by ``:`` and
``key=value`` parameters separated by ``,`` or ``:``. Values are read as
``int``, then ``float``, then ``true``/``false``/``none``, else kept as text.
The parameters are the bot's constructor keywords, ``seed`` excepted (the
caller supplies the seed, see :func:`make_bot`).

>>> parse_spec("mcts:iterations=400,exploration=0.7")
('mcts', {'iterations': 400, 'exploration': 0.7})
>>> make_bot("greedy:objective=own", seed=1).name
'greedy(objective=own)'
"""

from __future__ import annotations

import inspect
from typing import Any, Final

from pacru.bots.base import Bot
from pacru.bots.mcts import MCTSBot
from pacru.bots.simple import GreedyBot, RandomBot

__all__ = ["BOTS", "make_bot", "parse_spec"]

#: Bot kind -> class. Each takes ``seed`` and keyword parameters.
BOTS: Final[dict[str, type[Any]]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}


def _value(text: str) -> Any:
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
    cls = BOTS.get(kind)
    if cls is None:
        raise ValueError(f"unknown bot {kind!r} in {spec!r}; bots: {', '.join(BOTS)}")
    # An evaluator is a callable, which no text can name.
    valid = [p for p in inspect.signature(cls).parameters if p not in ("seed", "evaluator")]
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
        params[key] = _value(value.strip())
    return kind, params


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A new bot from its spec, seeded with ``seed``.

    Raises:
        ValueError: a bad spec (see :func:`parse_spec`) or parameter value.
    """
    kind, params = parse_spec(spec)
    try:
        bot: Bot = BOTS[kind](seed, **params)
    except TypeError as err:
        raise ValueError(f"bad parameters in {spec!r}: {err}") from None
    return bot
