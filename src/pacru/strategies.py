"""Hypothesis strategies for pacru games: specs, reachable states, moves and texts.

For testing code built on pacru (bots, front ends, importers) with
`Hypothesis <https://hypothesis.readthedocs.io>`_, and used by pacru's own
property tests (``tests/properties``). Needs Hypothesis (``pip install
pacru[test]``); importing this module without it raises :class:`ImportError`.

============================  =====================================================
strategy                      draws
============================  =====================================================
:func:`games`                 a :class:`GameSpec`: game, player count, options
:func:`playouts`              a :class:`Playout`: a game played on from a start
:func:`states`                a state reached by bounded random play
:func:`boards`                a chevron-game state set up directly (random board)
:func:`legal_moves`           a legal move of one state
:func:`move_texts`            well-formed move text, legal or not
:func:`illegal_move_texts`    well-formed move text that is *not* legal there
:func:`position_strings`      position strings, valid, invalid or either
:func:`mutated_texts`         strings mutated from another strategy's strings
============================  =====================================================

Every choice is drawn from Hypothesis, so failing examples shrink: towards
fewer plies, the first chevron, the first legal move. Chevron moves are
drawn family first (:attr:`pacru.LegalMoves.steps`), then a choice within it,
so that Pacru's many reorientations {R14} do not swamp the chevron steps.

Example::

    from hypothesis import given
    from pacru.strategies import states

    @given(states(game="pacru", players=4, max_plies=30))
    def test_scores_are_markers(state):
        assert sum(state.scores.values()) == len(state.marker_map())
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import attrs

try:
    from hypothesis import strategies as st
except ImportError as _err:  # pragma: no cover - exercised by a test that hides Hypothesis
    raise ImportError(
        "pacru.strategies needs Hypothesis: install it with `pip install hypothesis` "
        "or `pip install pacru[test]`"
    ) from _err

from pacru.base import GameState
from pacru.chevron.move import Move
from pacru.chevron.movelist import LegalMoves, ReorientationFamily, StepFamily
from pacru.chevron.rules import SUPPLY
from pacru.chevron.setup import LAYOUTS
from pacru.chevron.state import ChevronState
from pacru.errors import IllegalMoveError, PacruError
from pacru.games import CHEVRON_GAMES, GAMES, from_position, new_game
from pacru.geometry import FIELD_NAMES, Direction

__all__ = [
    "GameSpec",
    "Playout",
    "available_games",
    "boards",
    "games",
    "illegal_move_texts",
    "legal_moves",
    "move_texts",
    "mutated_texts",
    "playouts",
    "position_strings",
    "states",
]

#: Characters that mutations insert: the move and position grammars' own, white
#: space, and a few that are outside ASCII.
MUTATION_ALPHABET: Final = (
    "abcdefghijklmnopqrstuvwxyz0123456789-x<>*+@(),;:=_ \t\nNESW\u00e9\u2192\x00"
)
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
            layout of that player count, B.5), ``colours``, ``first_player`` or
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


_fields = st.integers(0, 80)


@st.composite
def _chevron_move_texts(draw: st.DrawFn, origins: tuple[int, ...]) -> str:
    """Any text of the chevron move grammar, origins biased towards ``origins``."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return "pass"
    biased = bool(origins) and draw(st.booleans())
    origin = draw(st.sampled_from(origins)) if biased else draw(_fields)
    if kind == 1:
        turn = draw(st.sampled_from((-2, -1, 1, 2)))
        fields = draw(st.sets(_fields, min_size=1, max_size=6))
        return str(Move(origin, None, turn=turn, relinquished=tuple(fields)))
    target = draw(_fields.filter(lambda t: t != origin))
    return str(
        Move(
            origin,
            target,
            capture=draw(st.integers(0, 5)) == 0,
            twist=draw(st.sampled_from((0, 0, -1, 1))),
            connection=draw(st.integers(0, 3)) == 0,
            marker=draw(st.none() | _fields),
            meeting=draw(st.none() | st.none() | _fields),
        )
    )


@st.composite
def _perturbed(draw: st.DrawFn, move: Move) -> str:
    """A legal move with one choice changed: the near misses a player writes."""
    change = draw(st.integers(0, 7))
    if move.origin is None:
        return draw(_chevron_move_texts(()))
    if move.target is None:
        if change < 4:
            return str(attrs.evolve(move, turn=draw(st.sampled_from((-2, -1, 1, 2)))))
        rel = draw(st.sets(_fields, min_size=1, max_size=5))
        return str(attrs.evolve(move, relinquished=tuple(rel)))
    edits: list[Callable[[], Move]] = [
        lambda: attrs.evolve(move, twist=draw(st.sampled_from((-1, 0, 1)))),
        lambda: attrs.evolve(move, connection=not move.connection),
        lambda: attrs.evolve(move, marker=draw(st.none() | _fields)),
        lambda: attrs.evolve(move, meeting=draw(st.none() | _fields)),
        lambda: attrs.evolve(move, capture=not move.capture),
        lambda: attrs.evolve(move, target=draw(_fields.filter(lambda t: t != move.origin))),
        lambda: attrs.evolve(move, origin=draw(_fields.filter(lambda f: f != move.target))),
        lambda: Move(move.origin, None, turn=1, relinquished=(move.target or 0,)),
    ]
    return str(edits[change]())


def move_texts(state: GameState[Any]) -> st.SearchStrategy[str]:
    """Well-formed move texts for ``state``, legal or not (the candidates of illegal_move_texts).

    Chevron games: texts in the move grammar (:mod:`pacru.chevron.move`), half
    of them a legal move with one choice changed (twist, ``*``, ``+f``, ``@f``,
    capture, target, origin, relinquished fields), the rest any move, with
    origins biased to the mover's chevrons. LSD: legal move texts with a
    changed cell or tile (:mod:`pacru.lsd.moves`).
    """
    if isinstance(state, ChevronState):
        own = tuple(code >> 3 for code in state.chevrons[state.to_move])
        candidates = _chevron_move_texts(own)
        if state.legal_moves():
            return st.one_of(candidates, legal_moves(state).flatmap(_perturbed))
        return candidates
    return _lsd_move_texts(state)


def illegal_move_texts(state: GameState[Any]) -> st.SearchStrategy[str]:
    """Well-formed move texts that are not legal in ``state`` (see :func:`move_texts`).

    Each is rejected by ``state.apply_move`` and ``state.parse_move`` with
    :class:`~pacru.IllegalMoveError` (a :class:`~pacru.GameOverError` once the
    game is over), never with :class:`~pacru.NotationError`.

    Example: ``text = data.draw(illegal_move_texts(state))`` inside a
    ``@given(st.data())`` test.
    """

    def illegal(text: str) -> bool:
        try:
            state.parse_move(text)
        except IllegalMoveError:
            return True
        return False

    return move_texts(state).filter(illegal)


def _lsd_move_texts(state: GameState[Any]) -> st.SearchStrategy[str]:
    texts = sorted({str(m) for m in state.legal_moves()} | {"B+NESW@0,0", "WxN@1,0", "B+0@0,2"})

    @st.composite
    def text(draw: st.DrawFn) -> str:
        tile, _, cell = draw(st.sampled_from(texts)).partition("@")
        if draw(st.booleans()):
            cell = f"{draw(st.integers(-4, 4))},{draw(st.integers(-4, 4))}"
        else:
            shade = draw(st.sampled_from("BW"))
            shape = draw(st.sampled_from("+x"))
            sides = "".join(s for s in "NESW" if draw(st.booleans())) or "0"
            tile = shade + shape + sides
        return f"{tile}@{cell}"

    return text()


@st.composite
def _mutate(draw: st.DrawFn, text: str, max_mutations: int, max_size: int = 100_000) -> str:
    chars = st.sampled_from(MUTATION_ALPHABET) | st.characters()
    for _ in range(draw(st.integers(1, max_mutations))):
        n = len(text)
        op = draw(st.integers(0, 9))
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, n))
        if op <= 1:  # insert
            text = text[:i] + draw(chars) + text[i:]
        elif op == 2 and n:  # delete a run
            text = text[:i] + text[j:]
        elif op == 3 and i < n:  # replace one character
            text = text[:i] + draw(chars) + text[i + 1 :]
        elif op == 4:  # duplicate a slice
            text = text[:j] + text[i:j] + text[j:]
        elif op == 5:  # truncate
            text = text[:i]
        elif op == 6:  # change case
            text = text[:i] + text[i:j].swapcase() + text[j:]
        elif op == 7 and n:  # repeat the whole text, often past every length limit
            text = text * draw(st.integers(2, max(2, max_size // n)))
        elif op == 8:  # splice in a whitespace-separated word
            text = text[:i] + " " + draw(st.sampled_from(text.split() or [text])) + text[i:]
        else:  # a number that is huge, or written with digits that are not ASCII
            digits = draw(st.sampled_from(("9", "0", "\u00b2", "\u0663", "\uff17")))
            text = text[:i] + digits * draw(st.integers(1, 6000)) + text[j:]
    return text


def mutated_texts(
    base: st.SearchStrategy[str], max_mutations: int = 4, *, max_size: int = 100_000
) -> st.SearchStrategy[str]:
    """Strings from ``base`` with 1 to ``max_mutations`` random edits, for fuzzing parsers.

    Edits: insert, delete or replace characters (from the grammars' own
    characters and arbitrary Unicode), duplicate a slice, truncate, swap case,
    put in a number of up to 6000 digits (``9``, or ``²``, ``٣`` and other non-ASCII digits),
    repeat the whole text (up to about ``max_size`` characters, past the
    parsers' length limits: :data:`pacru.chevron.move.MAX_MOVE_TEXT`,
    :data:`pacru.chevron.notation.MAX_POSITION_TEXT`) and splice in a word of
    the text. Example: ``mutated_texts(legal_moves(state).map(str))``.
    """
    return base.flatmap(lambda text: _mutate(text, max_mutations, max_size))


def _rejected(text: str) -> bool:
    try:
        from_position(text)
    except PacruError:
        return True
    return False


@st.composite
def _broken_positions(draw: st.DrawFn, valid: st.SearchStrategy[str]) -> str:
    """Positions broken on purpose: mostly well-formed words with impossible values."""
    text = draw(valid)
    words = text.split()
    kind = draw(st.integers(0, 5))
    if kind == 0:  # a key given twice
        return " ".join([*words, draw(st.sampled_from(words[1:]))])
    if kind == 1:  # a turn for nobody
        return " ".join(w if not w.startswith("turn=") else "turn=nobody" for w in words)
    if kind == 2:  # a field marked by two colours, or two chevrons on one field
        field = draw(st.sampled_from(("e5", "a1", "i9")))
        extra = f"markers=zz:{field}" if draw(st.booleans()) else f"chevrons=zz:{field}N"
        return " ".join([*words, extra])
    if kind == 3:  # an unknown key
        return " ".join([*words, "colour=green"])
    if kind == 4:  # too many players
        return text.replace("players=", "players=p1,p2,p3,p4,p5,", 1)
    return draw(_mutate(text, 3))


def position_strings(
    valid: bool | None = None,
    game: str | Iterable[str] | None = None,
    players: int | Iterable[int] | None = None,
    *,
    max_plies: int = 40,
) -> st.SearchStrategy[str]:
    """Position strings (:meth:`pacru.GameState.to_position`) of reachable states, or broken ones.

    Args:
        valid: ``True``: strings :func:`pacru.from_position` reads (positions
            of states from :func:`states`); ``False``: strings it rejects with
            :class:`~pacru.NotationError` or :class:`~pacru.InvalidPositionError`
            (a repeated or unknown key, an unknown colour, a doubly marked or
            occupied field, too many players, random mutations); ``None``:
            either, unchecked.
        game, players, max_plies: as for :func:`states`.

    Example: ``@given(position_strings(valid=False))`` checks that a reader
    rejects bad input cleanly.
    """
    good = states(game, players, max_plies=max_plies).map(lambda s: s.to_position())
    if valid:
        return good
    bad = st.one_of(_broken_positions(good), mutated_texts(good))
    if valid is None:
        return st.one_of(good, bad)
    return bad.filter(_rejected)
