"""Strategies of games and play: specs, playouts, reachable states, boards, legal moves.

Part of :mod:`pacru.strategies` (the public names and the documentation are
there); the text strategies built on these are in :mod:`pacru.strategies.texts`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

import attrs
from hypothesis import strategies as st

from pacru.base import GameState
from pacru.chevron.movelist import LegalMoves, ReorientationFamily, StepFamily
from pacru.chevron.rules import SUPPLY
from pacru.chevron.setup import LAYOUTS
from pacru.chevron.state import ChevronState
from pacru.games import CHEVRON_GAMES, GAMES, from_position, new_game
from pacru.geometry import FIELD_NAMES, Direction

__all__ = [
    "GameSpec",
    "Playout",
    "available_games",
    "boards",
    "games",
    "legal_moves",
    "playouts",
    "states",
]

#: Characters that mutations insert: the move and position grammars' own, white
#: space, and a few that are outside ASCII.
_ALT_COLOURS: Final = ("blue", "white", "purple", "orange")


def available_games() -> tuple[str, ...]:
    """The games pacru plays: :data:`pacru.GAMES` (the four chevron games and ``"lsd"``)."""
    return GAMES


@attrs.frozen
class GameSpec:
    """A game to set up: what :func:`pacru.new_game` is called with.

    Attributes:
        game: ``"lilacru"``, ``"shacru"``, ``"azacru"``, ``"pacru"`` or ``"lsd"``.
        players: 2, 3 or 4.
        options: keyword options of :func:`pacru.new_game` as sorted
            ``(name, value)`` pairs (a tuple, so that specs are hashable).

    >>> from pacru.strategies import GameSpec
    >>> GameSpec("pacru", 2, (("meeting_rule", "original"),)).new().options()
    {'meeting_rule': 'original'}
    """

    game: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def kwargs(self) -> dict[str, Any]:
        """The options as a dict of keyword arguments."""
        return dict(self.options)

    def new(self) -> GameState[Any]:
        """The starting state: ``pacru.new_game(game, players, **options)``."""
        return new_game(self.game, self.players, **self.kwargs)

    def __str__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options)
        return f"{self.game} {self.players}p{opts}"


@attrs.frozen
class Playout:
    """A game played on from a start: the spec, the moves and every state on the way.

    Attributes:
        spec: the game set up (for a start drawn from ``starts``, its game,
            player count and options).
        moves: the moves played, in order.
        states: ``len(moves) + 1`` states, the start first; ``states[i + 1]``
            is ``states[i].apply_move(moves[i])``.
    """

    spec: GameSpec
    moves: tuple[Any, ...]
    states: tuple[GameState[Any], ...]

    @property
    def start(self) -> GameState[Any]:
        """The starting state."""
        return self.states[0]

    @property
    def final(self) -> GameState[Any]:
        """The last state reached."""
        return self.states[-1]


def _names(value: str | Iterable[str] | None, default: tuple[str, ...]) -> tuple[str, ...]:
    if value is None:
        return default
    names = (value,) if isinstance(value, str) else tuple(value)
    unknown = [n for n in names if n not in available_games()]
    if unknown or not names:
        raise ValueError(
            f"unknown or unavailable game(s) {unknown}; valid: {', '.join(available_games())}"
        )
    return names


def _counts(value: int | Iterable[int] | None) -> tuple[int, ...]:
    counts = (2, 3, 4) if value is None else (value,) if isinstance(value, int) else tuple(value)
    if not counts or any(n not in (2, 3, 4) for n in counts):
        raise ValueError(f"player counts are 2, 3 or 4, not {value!r}")
    return counts


@st.composite
def _chevron_options(draw: st.DrawFn, game: str, players: int) -> tuple[tuple[str, Any], ...]:
    layouts = sorted(name for name, table in LAYOUTS.items() if players in table)
    options: dict[str, Any] = {}
    layout = draw(st.sampled_from(layouts))
    if layout != "standard":
        options["start_layout"] = layout
    if draw(st.integers(0, 3)) == 3:
        options["colours"] = _ALT_COLOURS[:players]
    names = new_game(game, players, **options).players
    order = draw(st.integers(0, 2))
    if order == 1:
        options["first_player"] = draw(st.sampled_from(names))
    elif order == 2:
        options["turn_order"] = tuple(draw(st.permutations(names)))
    if game == "pacru":
        if draw(st.booleans()):
            options["meeting_rule"] = "original"
        if draw(st.integers(0, 7)) == 7:
            options["move_cap"] = draw(st.integers(1, 120))
    if game in ("lilacru", "shacru") and draw(st.integers(0, 7)) == 7:
        options["idle_rounds"] = draw(st.integers(1, 81))
    return tuple(sorted(options.items()))


@st.composite
def _lsd_options(draw: st.DrawFn, players: int) -> tuple[tuple[str, Any], ...]:
    options: dict[str, Any] = {}
    names = new_game("lsd", players).players
    if draw(st.booleans()):
        options["first_player"] = draw(st.sampled_from(names))
    for flag in ("allow_rotation", "strict_dot_matching"):
        if draw(st.integers(0, 3)) == 3:
            options[flag] = True
    return tuple(sorted(options.items()))


def games(
    game: str | Iterable[str] | None = None,
    players: int | Iterable[int] | None = None,
    *,
    options: bool = True,
) -> st.SearchStrategy[GameSpec]:
    """Game specs: a game, a player count and (optionally) drawn options.

    Args:
        game: a game name or several; ``None`` for every game in
            :func:`available_games`.
        players: a player count or several (2, 3, 4); ``None`` for all three.
        options: draw options too. Chevron games: ``start_layout`` (every
            layout of that player count, ruling D1), ``colours``, ``first_player`` or
            ``turn_order`` (D2), Pacru ``meeting_rule`` (D48) and ``move_cap``
            (D32), Lilacru/Shacru ``idle_rounds`` (D33); LSD ``first_player``
            (RULING 20), ``allow_rotation`` (RULING 4) and
            ``strict_dot_matching`` (RULING 5). ``False`` keeps the defaults
            (standard layout and seats), which symmetry tests need.

    Raises:
        ValueError: an unknown game or player count (when called, not drawn).

    Shrinks towards the first game and 2 players with default options.
    Example: ``games("shacru", players=(3, 4))``.
    """
    names = _names(game, available_games())
    counts = _counts(players)

    @st.composite
    def spec(draw: st.DrawFn) -> GameSpec:
        name = draw(st.sampled_from(names))
        n = draw(st.sampled_from(counts))
        if not options:
            return GameSpec(name, n)
        opts = draw(_lsd_options(n) if name == "lsd" else _chevron_options(name, n))
        return GameSpec(name, n, opts)

    return spec()


def _draw_move(draw: st.DrawFn, state: GameState[Any]) -> Any:
    """One legal move of a state with moves: family first for chevron games."""
    moves = state.legal_moves()
    if isinstance(moves, LegalMoves):
        if moves.is_pass:
            return moves[0]
        steps, turns = moves.steps, moves.reorientations
        # One reorientation in eight: Pacru has up to 16 reorientation families per step family.
        reorient = bool(turns) and (not steps or draw(st.integers(0, 7)) == 7)
        families: Sequence[StepFamily | ReorientationFamily] = turns if reorient else steps
        family = draw(st.sampled_from(families))
        return family.get(draw(st.integers(0, family.size - 1)))
    return moves[draw(st.integers(0, len(moves) - 1))]


def playouts(
    game: str | Iterable[str] | None = None,
    players: int | Iterable[int] | None = None,
    *,
    max_plies: int = 60,
    options: bool = True,
    specs: st.SearchStrategy[GameSpec] | None = None,
    starts: st.SearchStrategy[GameState[Any]] | None = None,
) -> st.SearchStrategy[Playout]:
    """Games played for up to ``max_plies`` drawn legal moves, stopping when one ends.

    Args:
        game, players, options: as for :func:`games`.
        max_plies: the most moves played; the count is drawn from 0..max_plies.
        specs: game specs to start from (overrides ``game``, ``players``,
            ``options``).
        starts: states to play on from instead of a game's start, e.g.
            :func:`boards`; the playout's spec then names their game, player
            count and options.

    Example: ``playouts("azacru", 3, max_plies=200)`` reaches Azacru endings;
    ``playouts(starts=boards("pacru"), max_plies=20)`` plays on from random boards.
    """
    spec_strategy = specs if specs is not None else games(game, players, options=options)

    @st.composite
    def playout(draw: st.DrawFn) -> Playout:
        if starts is None:
            spec = draw(spec_strategy)
            state = spec.new()
        else:
            state = draw(starts)
            opts = tuple(sorted(state.options().items()))
            spec = GameSpec(state.game, len(state.players), opts)
        states = [state]
        moves = []
        for _ in range(draw(st.integers(0, max_plies))):
            if state.is_terminal:
                break
            move = _draw_move(draw, state)
            state = state.apply_move(move)
            moves.append(move)
            states.append(state)
        return Playout(spec, tuple(moves), tuple(states))

    return playout()


def states(
    game: str | Iterable[str] | None = None,
    players: int | Iterable[int] | None = None,
    *,
    max_plies: int = 60,
    options: bool = True,
    specs: st.SearchStrategy[GameSpec] | None = None,
    starts: st.SearchStrategy[GameState[Any]] | None = None,
) -> st.SearchStrategy[GameState[Any]]:
    """States reached by 0 to ``max_plies`` drawn legal moves (the last state of :func:`playouts`).

    Example: ``states(game="pacru", players=2, max_plies=100)``; terminal
    states are reached too when play ends within the bound.
    """
    return playouts(
        game, players, max_plies=max_plies, options=options, specs=specs, starts=starts
    ).map(lambda p: p.final)


@st.composite
def _board(draw: st.DrawFn, game: str, players: int) -> ChevronState:
    names = new_game(game, players).players
    density = draw(st.integers(0, 10))
    markers: list[list[str]] = [[] for _ in names]
    for f in range(81):
        if draw(st.integers(0, 9)) < density:
            markers[draw(st.integers(0, players - 1))].append(FIELD_NAMES[f])
    if game == "pacru":  # at most one short of the supply: none has won already {R16b}
        for own in markers:
            del own[SUPPLY[players] - 1 :]
    free = st.integers(0, 80)
    taken: set[int] = set()
    chevrons: list[str] = []
    for seat in range(players):
        fields = draw(st.lists(free.filter(lambda f: f not in taken), min_size=1, max_size=4))
        items = []
        for f in dict.fromkeys(fields):
            if f not in taken:
                taken.add(f)
                items.append(FIELD_NAMES[f] + draw(st.sampled_from(Direction)).name)
        chevrons.append(f"{names[seat]}:{','.join(items)}")
    marks = ";".join(f"{c}:{','.join(m)}" for c, m in zip(names, markers, strict=True) if m)
    text = f"{game} players={','.join(names)} markers={marks or '-'} chevrons={';'.join(chevrons)}"
    state = from_position(text)
    assert isinstance(state, ChevronState)
    return state


def boards(
    game: str | Iterable[str] | None = None,
    players: int | Iterable[int] | None = None,
) -> st.SearchStrategy[ChevronState]:
    """Chevron-game states set up directly: random markers and 1..4 chevrons per player.

    Not necessarily reachable in play, but valid (:func:`pacru.from_position`
    accepts them), so every rule holds in them; they reach what random play
    rarely does: full borderlands {R10}, meetings with 9 opponent markers
    {R12, D22}, a Pacru player one marker short of the target {R16b}. Marker
    density varies from an empty board to a full one; Pacru players hold at
    most one marker fewer than the supply. Only chevron games.

    Example: ``boards("pacru", 4)``.
    """
    names = _names(game, CHEVRON_GAMES)
    if "lsd" in names:
        raise ValueError("boards() draws chevron-game states only")
    counts = _counts(players)

    @st.composite
    def board(draw: st.DrawFn) -> ChevronState:
        return draw(_board(draw(st.sampled_from(names)), draw(st.sampled_from(counts))))

    return board()


def legal_moves(state: GameState[Any]) -> st.SearchStrategy[Any]:
    """The legal moves of ``state`` (move objects), family first for chevron games.

    ``st.nothing()`` when the state has none (the game is over). Use with
    ``st.data()``: ``move = data.draw(legal_moves(state))``.
    """
    if not state.legal_moves():
        return st.nothing()

    @st.composite
    def move(draw: st.DrawFn) -> Any:
        return _draw_move(draw, state)

    return move()
