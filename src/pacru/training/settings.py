"""The settings of a training run (:class:`TrainSettings`), without PyTorch or pyarrow:
``pacru train --help`` reads their defaults on any install."""

from __future__ import annotations

from typing import Any

import attrs

__all__ = ["CONFIGS", "TrainSettings", "parse_config"]


def parse_config(config: str) -> tuple[str, int]:
    """``"pacru-2"`` as ``("pacru", 2)``.

    Raises:
        ValueError: not a chevron game with 2 to 4 players.
    """
    game, _, players = config.partition("-")
    if game not in ("lilacru", "shacru", "azacru", "pacru") or players not in ("2", "3", "4"):
        raise ValueError(
            f"a configuration is a chevron game and 2 to 4 players, e.g. 'pacru-2', not {config!r}"
        )
    return game, int(players)


#: The configurations trained by default: every chevron game with two players, Pacru
#: with three and four.
CONFIGS = ("pacru-2", "shacru-2", "lilacru-2", "azacru-2", "pacru-3", "pacru-4")


def _configs(value: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    for config in value:
        parse_config(config)
    if not value:
        raise ValueError("train at least one configuration")
    return tuple(value)


def _positive(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) not in (int, float) or not value > 0:  # type: ignore[operator]
        raise ValueError(f"{attribute.name} must be a positive number, not {value!r}")


@attrs.frozen(kw_only=True)
class TrainSettings:
    """The settings of a training run (each a ``pacru train`` option of the same name).

    Raises:
        ValueError: a count or rate that is not positive, ``epsilon`` outside 0..1, or an
            unknown configuration.
    """

    #: Seed of the games and of the fitting: the same settings give the same network.
    seed: int = 2026
    #: Self-play rounds; the games of round K use the network of round K-1.
    rounds: int = attrs.field(default=2, validator=_positive)
    #: Self-play games per configuration and round.
    games: int = attrs.field(default=600, validator=_positive)
    #: Nodes of the search per self-play move.
    nodes: int = attrs.field(default=150, validator=_positive)
    #: Probability of a random candidate move instead of the search's.
    epsilon: float = attrs.field(default=0.1)
    #: Sample every N-th ply.
    every: int = attrs.field(default=2, validator=_positive)
    #: Rounds of samples the network is fitted to (the last ones).
    window: int = attrs.field(default=2, validator=_positive)
    #: Passes over the samples per round.
    epochs: int = attrs.field(default=4, validator=_positive)
    #: The share of the search's value in the training target, the rest the game's
    #: result (0: results only); two-player samples only.
    value_weight: float = attrs.field(default=0.0)
    #: Units of the first and second hidden layers.
    hidden: int = attrs.field(default=32, validator=_positive)
    hidden2: int = attrs.field(default=16, validator=_positive)
    batch_size: int = attrs.field(default=512, validator=_positive)
    learning_rate: float = attrs.field(default=1e-4, validator=_positive)
    #: The game configurations, ``game-players``.
    configs: tuple[str, ...] = attrs.field(default=CONFIGS, converter=_configs)

    def __attrs_post_init__(self) -> None:
        for name in ("epsilon", "value_weight"):
            value = getattr(self, name)
            if not 0 <= value <= 1:
                raise ValueError(f"{name} must be in 0..1, not {value!r}")


