"""Each chevron game as a configuration of one engine.

A game is a :class:`Rules` value: which rules are switched on. The engine in
:mod:`pacru.chevron.movegen` and :mod:`pacru.chevron.resolve` reads these flags,
so a fix to a shared rule fixes every game that uses it.

==========  =====  =====  ========  =====================  ========  ======
game        mark   twist  power     connection             Pacru     end
==========  =====  =====  ========  =====================  ========  ======
Lilacru     L5     no     1         no                     no        L7
Shacru      S-R3   S-R4   1         no                     no        S-R6
Azacru      A-R3   A-R6   A-R4      change+removal, jump   no        A-R10
Pacru       no     no     R5        change (R8), jump R9   R4..R16   R15-16
==========  =====  =====  ========  =====================  ========  ======
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Final, SupportsIndex, TypedDict

import attrs

from pacru._integers import integer

#: The largest count of plies the engines hold (``ply``, ``idle``, ``move_cap``,
#: ``idle_rounds``): 2**64 - 1, the native engine's 64-bit counters; a larger one is
#: refused on both engines, and a move past it raises InvalidPositionError.
COUNTER_MAX: Final = 2**64 - 1

__all__ = [
    "MEETING_RULES",
    "SUPPLY",
    "SUPPLY_BY_PLAYERS",
    "ChevronOptions",
    "Rules",
    "rules_for",
    "rules_of_key",
]

#: Pacru marker supply per player, by player count {R1}. A read-only mapping.
SUPPLY: Final[Mapping[int, int]] = MappingProxyType({2: 42, 3: 28, 4: 24})
#: :data:`SUPPLY` as a tuple indexed by the number of players (0 below 2): a plain index
#: for the move generator's hot path.
SUPPLY_BY_PLAYERS: Final[tuple[int, ...]] = tuple(SUPPLY.get(n, 0) for n in range(5))
#: Pacru meeting rule variants {R12, D22, D48}.
MEETING_RULES: Final = ("2011", "original")


class ChevronOptions(TypedDict, total=False):
    """The options of a chevron game, each optional: keyword arguments of
    :func:`pacru.new_game` (:func:`pacru.chevron.setup.new_game` says what each does), and
    what :meth:`pacru.ChevronState.options` returns (the rule options set to other than
    their defaults). A value of the right type can still be refused (a ``ValueError``): an
    option the game does not have, an unknown colour, a ``move_cap`` below 1.
    """

    #: The starting layout: ``"standard"``, ``"ap-legacy-2p"`` or ``"abstractplay"``
    #: (:data:`pacru.chevron.setup.LAYOUTS`; a ``str``, as position strings and records
    #: name it).
    start_layout: str
    #: One colour name per seat, in the layout's seat order.
    colours: Sequence[str] | None
    #: The colour that moves first.
    first_player: str | None
    #: Every colour, in the order they move (overrides ``first_player``).
    turn_order: Sequence[str] | None
    #: Pacru's meeting rule: ``"2011"`` or ``"original"`` (:data:`MEETING_RULES`).
    meeting_rule: str
    #: Pacru and Azacru: end without a winner after this many plies (any integer type).
    move_cap: SupportsIndex | None
    #: Lilacru and Shacru: end after this many rounds without a field acquired.
    idle_rounds: SupportsIndex


@attrs.frozen
class Rules:
    """The rule switches of one chevron game, with its options.

    Attributes:
        game: the game name.
        marks_arrival: the field a chevron arrives on becomes its colour
            {L5, S-R3, A-R3}; Pacru places markers only by special actions (D40).
        twist: border crossings allow a 45-degree twist {S-R4, A-R6, D3-D5}.
        power: power of movement allows long moves {A-R4, R5, D39}.
        pacru: the Pacru special actions, reorientation, supply and
            elimination {R4..R16}.
        azacru: Azacru connections (with removal, A-R7) and the one-more-turn
            end {A-R10}.
        meeting_rule: ``"2011"`` (threshold of 9 opponent markers, the
            default) or ``"original"`` {R12, D22, D48}; Pacru only.
        move_cap: non-official: end the game without a winner after this
            many plies (D32); ``None`` for no cap. Pacru, and Azacru, where
            chevrons can also circle on their own fields for ever.
        idle_rounds: non-official safety valve of Lilacru/Shacru: end after
            this many full rounds without a field acquired (D33).
    """

    game: str
    marks_arrival: bool
    twist: bool
    power: bool
    pacru: bool
    azacru: bool
    meeting_rule: str = "2011"
    move_cap: int | None = None
    idle_rounds: int = 81

    @property
    def lookahead_end(self) -> bool:
        """Whether the game ends when nobody can acquire a field {S-R6b, L7, D33}."""
        return not (self.pacru or self.azacru)


_BASE: Final[Mapping[str, Rules]] = MappingProxyType(
    {
        "lilacru": Rules(
            "lilacru", marks_arrival=True, twist=False, power=False, pacru=False, azacru=False
        ),
        "shacru": Rules(
            "shacru", marks_arrival=True, twist=True, power=False, pacru=False, azacru=False
        ),
        "azacru": Rules(
            "azacru", marks_arrival=True, twist=True, power=True, pacru=False, azacru=True
        ),
        "pacru": Rules(
            "pacru", marks_arrival=False, twist=False, power=True, pacru=True, azacru=False
        ),
    }
)
#: The chevron games' names, in the order of :data:`pacru.CHEVRON_GAMES`.
GAMES: Final = tuple(_BASE)


def rules_for(
    game: str,
    *,
    meeting_rule: str = "2011",
    move_cap: SupportsIndex | None = None,
    idle_rounds: SupportsIndex = 81,
) -> Rules:
    """The :class:`Rules` of ``game`` with the given options.

    Raises:
        ValueError: an unknown game, or an option the game does not have or
            a value out of range; the message lists the valid ones.
    """
    base = _BASE.get(game)
    if base is None:
        raise ValueError(f"unknown chevron game {game!r}; valid: {', '.join(GAMES)}")
    if meeting_rule not in MEETING_RULES:
        raise ValueError(
            f"meeting_rule must be one of {', '.join(MEETING_RULES)}, not {meeting_rule!r}"
        )
    if meeting_rule != "2011" and not base.pacru:
        raise ValueError("meeting_rule applies to Pacru only")
    cap = None
    if move_cap is not None:
        if not (base.pacru or base.azacru):
            raise ValueError("move_cap applies to Pacru and Azacru only (ruling D32)")
        cap = integer(move_cap)
        if cap is None or cap < 1:
            raise ValueError(f"move_cap must be a positive number of plies, not {move_cap!r}")
        if cap > COUNTER_MAX:
            raise ValueError(f"move_cap must be at most {COUNTER_MAX} plies, not {cap}")
    rounds = integer(idle_rounds)
    if rounds is None or rounds < 1:
        raise ValueError(f"idle_rounds must be a positive whole number, not {idle_rounds!r}")
    if rounds > COUNTER_MAX:
        raise ValueError(f"idle_rounds must be at most {COUNTER_MAX}, not {rounds}")
    if rounds != 81 and not base.lookahead_end:
        raise ValueError("idle_rounds applies to Lilacru and Shacru only (ruling D33)")
    return _shared(game, meeting_rule, cap, rounds)


@lru_cache(maxsize=64)
def _shared(game: str, meeting_rule: str, move_cap: int | None, idle_rounds: int) -> Rules:
    """The :class:`Rules` of checked options, one object per options (rules are values):
    the games started with the same options share it, so a check of a state's rules
    against an encoding's is mostly an identity test."""
    return attrs.evolve(
        _BASE[game], meeting_rule=meeting_rule, move_cap=move_cap, idle_rounds=idle_rounds
    )


@lru_cache(maxsize=64)
def rules_of_key(key: tuple[str, str, int | None, int]) -> Rules:
    """The :class:`Rules` of ``key = (game, meeting_rule, move_cap, idle_rounds)``, cached.

    Pickled states and the native engine's positions carry their rules as this
    key; equal keys give the same object.

    Raises:
        ValueError: as :func:`rules_for`.
    """
    game, meeting_rule, move_cap, idle_rounds = key
    return rules_for(game, meeting_rule=meeting_rule, move_cap=move_cap, idle_rounds=idle_rounds)
