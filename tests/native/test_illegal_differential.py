"""The reason of an illegal move from both engines: the same error, word for word.

The native engine names the rule a refused move breaks itself (``pacru_engine::check``,
rust/engine/src/legality.rs), with no call into the Python rules; the Python engine's
diagnosis (:mod:`pacru.chevron.legality`) is the reference. For every refused move both
engines raise the same exception class with the same message, ``rule``, ``reason``,
``move`` and ``detail``, from ``apply_move`` (a move or its text) and ``parse_move``:

* near-miss texts of :func:`pacru.strategies.move_texts` (a legal move with one choice
  changed, or any move of the grammar) in states of play and on random boards (the
  rare rules: full borderlands, meetings, an exhausted supply);
* every legal move of positions of random games, mutated one part at a time;
* the states at the end of those games (``GameOverError``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacru import ChevronState, GameOverError, IllegalMoveError, Move, new_game
from pacru.chevron import legality
from pacru.chevron.engine import python_apply, python_legal_moves
from pacru.chevron.rules import SUPPLY
from pacru.geometry import BORDERLAND, BORDERLAND_FIELDS, FORWARD, LINE, NEIGHBOUR
from pacru.strategies import boards, games, move_texts, playouts

from .support import CONFIGS, native, python_copy, start

#: Examples per game and player count: the profile's count, capped so that the twelve
#: configurations run in CI time.
EXAMPLES = min(settings().max_examples, 15)
#: Random games per configuration whose moves are mutated, and the plies between samples.
GAMES = 2
EVERY = 9
#: Random boards per configuration whose moves are tried.
BOARDS = 20

Signature = tuple[type, str, str, str, str, str] | None


def _signature(call: Callable[[], Any]) -> Signature:
    """What ``call`` raised (class, message, rule, reason, move, detail), or None."""
    try:
        call()
    except IllegalMoveError as error:  # GameOverError included
        return (type(error), str(error), error.rule, error.reason, error.move, error.detail)
    return None


def _agree(py: ChevronState, nat: ChevronState, move: Move | str) -> Signature:
    """Both engines refuse ``move`` (or both take it) alike; the Python engine's error."""
    where = f"{move!s} in {py.to_position()}"
    expected = _signature(lambda: py.apply_move(move))
    assert _signature(lambda: nat.apply_move(move)) == expected, where
    if isinstance(move, str):
        assert _signature(lambda: nat.parse_move(move)) == _signature(
            lambda: py.parse_move(move)
        ), where
    return expected


def _pair(state: ChevronState) -> tuple[ChevronState, ChevronState]:
    return python_copy(state), native.native_state(state)


@pytest.mark.parametrize(("game", "players"), CONFIGS)
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_near_miss_texts_are_refused_alike(game: str, players: int, data: st.DataObject) -> None:
    played = playouts(specs=games(game, players), max_plies=60)
    on_boards = playouts(starts=boards(game, players), max_plies=15)
    state = data.draw(st.one_of(played, on_boards)).final
    assert isinstance(state, ChevronState)
    py, nat = _pair(state)
    for text in data.draw(st.lists(move_texts(py), min_size=1, max_size=12)):
        _agree(py, nat, text)
    # Each part of a few listed moves changed: the boards' rare rules, mutated.
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    moves = python_legal_moves(py)
    for move in rng.sample(list(moves), min(len(moves), 4)) if len(moves) < 5000 else []:
        for wrong in _mutations(move, rng):
            _agree(py, nat, wrong)


def _fields(rng: random.Random, *keep: int | None) -> list[int | None]:
    """``keep`` (the move's own fields), None and three random fields."""
    return [*keep, None, *rng.sample(range(81), 3)]


def _changed(move: Move, **changes: Any) -> Move:
    """``move`` with some parts changed: a move of the engine's class (a native move is no
    attrs class: its parts are read, not evolved)."""
    parts = {name: getattr(move, name) for name in Move.__match_args__}
    return Move(**{**parts, **changes})


def _mutations(move: Move, rng: random.Random) -> Iterator[Move]:
    """``move`` with one part changed at a time (the parts a player gets wrong), and
    with the parts a player leaves out or adds; combinations ``Move`` refuses are left out."""
    if move.origin is None:
        edits: list[dict[str, Any]] = [{"origin": f, "target": rng.randrange(81)} for f in (0, 40)]
        edits.append({"origin": rng.randrange(81), "turn": 1, "relinquished": (1, 2)})
        base = Move(origin=40, target=49)
    elif move.target is None:
        base = move
        edits = [{"turn": t} for t in (-2, -1, 1, 2)]
        rel = list(move.relinquished)
        edits += [
            {"relinquished": tuple(rel[1:])},
            {"relinquished": (*rel, rng.randrange(81))},
            {"relinquished": (*rel[1:], rng.randrange(81))},
            {"relinquished": tuple(rng.sample(range(81), len(rel)))},
            {"origin": rng.randrange(81)},
        ]
    else:
        base = move
        edits = [{"twist": t} for t in (-1, 0, 1)]
        edits += [{"connection": not move.connection}, {"capture": not move.capture}]
        edits += [{"marker": f} for f in _fields(rng, move.target, move.origin)]
        edits += [{"meeting": f} for f in _fields(rng, move.marker, move.target)]
        edits += [{"target": f} for f in rng.sample(range(81), 4)]
        edits += [{"origin": f} for f in rng.sample(range(81), 2)]
        edits += [
            {"marker": None, "meeting": None, "connection": False},
            {"connection": True, "marker": move.target},
            {"twist": 1, "connection": True},
        ]
        yield Move.pass_move()
        # The chevron reoriented instead, paying with the target and other fields.
        for turn, paid in ((2, {move.target, 0, 1, 80}), (-1, set(rng.sample(range(81), 2)))):
            yield Move(move.origin, None, turn=turn, relinquished=tuple(paid))
    for edit in edits:
        try:
            yield _changed(base, **edit)
        except ValueError:
            continue  # parts no move has (a pass with a field, a step onto its origin)


def _positions(game: str, players: int, seed: int) -> Iterator[ChevronState]:
    """Every ``EVERY``-th state of a random game played by the Python engine, and its end."""
    rng = random.Random(seed)
    state = python_copy(start(game, players))
    while True:
        moves = python_legal_moves(state)
        if not moves or state.ply % EVERY == 0:
            yield state
        if not moves or state.ply >= 3000:
            return
        state = python_apply(state, moves[rng.randrange(len(moves))])


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_mutated_legal_moves_are_refused_alike(game: str, players: int) -> None:
    refused: set[str] = set()
    for seed in range(GAMES):
        rng = random.Random(seed)
        for state in _positions(game, players, seed):
            py, nat = _pair(state)
            moves = python_legal_moves(py)
            listed = list(moves) if len(moves) <= 40 else rng.sample(list(moves), 40)
            for move in listed or [Move.pass_move()]:
                for wrong in _mutations(move, rng):
                    error = _agree(py, nat, wrong)
                    if error is not None:
                        refused.add(error[3])
                        _agree(py, nat, str(wrong))
    # The mutations reach the common reasons of the game (a check that they ran).
    assert {"not-forward", "not-straight", "no-chevron", "game-over"} <= refused, refused


def _board(rng: random.Random, game: str, players: int) -> ChevronState:
    """A random position set up directly (valid, not necessarily reachable): crowded, so
    that pincers, jumps and meetings arise, and in Pacru the mover's supply often one or
    two markers from empty {R11, R12, R16b, D18, D29}."""
    original = game == "pacru" and rng.random() < 0.5  # meetings without D22's threshold
    state = new_game(game, players, meeting_rule="original") if original else start(game, players)
    assert isinstance(state, ChevronState)
    fields = rng.sample(range(81), 81)
    chevrons: list[list[int]] = []
    for _ in range(players):
        count = rng.randint(2, 6)
        chevrons.append([f * 8 + rng.randrange(8) for f in fields[:count]])
        del fields[:count]
    density = rng.random()
    markers = [0] * players
    for f in range(81):
        if rng.random() < density:
            markers[rng.randrange(players)] |= 1 << f
    seat = rng.randrange(players)
    _pair_up(rng, chevrons, markers, seat)
    if game == "pacru":  # at most one short of the supply {R16b}, often just that
        cap = SUPPLY[players] - 1 - rng.choice((0, 0, 1, 4, 10))
        markers = [_first(m, cap) for m in markers]
    codes = tuple(tuple(sorted(seat_codes)) for seat_codes in chevrons)
    return ChevronState(state.rules, state.players, tuple(markers), codes, seat)


def _pair_up(rng: random.Random, chevrons: list[list[int]], markers: list[int], seat: int) -> None:
    """Turns the mover's first chevron and the one two fields ahead of it into a pair that
    meets when the first steps forward (on the mover's fields, facing each other) {R12}."""
    code = chevrons[seat][0]
    origin, facing = code >> 3, code & 7
    middle = NEIGHBOUR[origin][facing]
    partner = NEIGHBOUR[middle][facing] if middle >= 0 else -1
    taken = {c >> 3 for codes in chevrons for c in codes}
    if partner < 0 or middle in taken or partner in taken or rng.random() < 0.3:
        return
    chevrons[seat].append(partner * 8 + (facing + 4) % 8)
    for f in (middle, partner):
        markers[:] = [m & ~(1 << f) for m in markers]
        markers[seat] |= 1 << f


def _first(board: int, count: int) -> int:
    """The lowest ``count`` fields of ``board``."""
    kept = 0
    for f in range(81):
        if board >> f & 1 and kept.bit_count() < count:
            kept |= 1 << f
    return kept


def _attempts(state: ChevronState, rng: random.Random) -> Iterator[Move]:
    """Steps and pincers of the mover's chevrons along every line, with choices."""
    for code in state.chevrons[state.to_move]:
        origin, forward = code >> 3, FORWARD[code & 7]
        for target in range(81):
            line = LINE.get(origin * 81 + target)
            # Forwards mostly: the other directions all stop at the same rule.
            if line is None or (line[0] not in forward and rng.random() < 0.8):
                continue
            land = BORDERLAND_FIELDS[BORDERLAND[target]]
            for parts in (
                {},
                {"capture": True},
                {"connection": True},
                {"marker": target},
                {"marker": rng.choice(land)},
                {"capture": True, "marker": rng.choice(land), "meeting": rng.randrange(81)},
                {"meeting": rng.randrange(81)},
                {"connection": True, "meeting": rng.randrange(81)},
                {"twist": rng.choice((-1, 1))},
            ):
                yield Move(origin, target, **parts)
        yield Move(origin, None, turn=rng.choice((-2, -1, 1, 2)), relinquished=(0, 1))


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_crowded_boards_refuse_alike(game: str, players: int) -> None:
    rng = random.Random(f"{game}{players}")
    refused: set[str] = set()
    for _ in range(BOARDS):
        py, nat = _pair(_board(rng, game, players))
        attempts = list(_attempts(py, rng))
        legal = python_legal_moves(py)
        moves = list(legal) if len(legal) < 5000 else []
        # The meetings first: their fields are the choice a player most often gets wrong.
        meetings = [m for m in moves if m.meeting is not None][:5]
        listed = meetings + rng.sample(moves, min(5, len(moves)))
        mutated = [wrong for move in listed for wrong in _mutations(move, rng)]
        for move in [*rng.sample(attempts, min(len(attempts), 300)), *mutated]:
            error = _agree(py, nat, move)
            if error is not None:
                refused.add(error[3])
    # The boards reach the rare rules (a check that they did).
    assert {"not-forward", "beyond-power", "occupied"} <= refused, refused
    if game == "pacru":
        rare = {"single-attacker", "no-victim", "meeting-required", "bad-meeting-field"}
        assert rare | {"no-meeting", "bad-marker-field", "marker-required"} <= refused, refused


def test_a_finished_game_refuses_every_move_alike() -> None:
    for game, players in CONFIGS:
        *_, end = _positions(game, players, seed=1)
        assert end.outcome is not None
        py, nat = _pair(end)
        for move in (Move.pass_move(), Move(origin=40, target=49), "e5>(a1,b1)", "a1-a2*+b2"):
            error = _agree(py, nat, move)
            assert error is not None
            assert error[0] is GameOverError
            assert error[1:4] == (
                f"end: {move!s}: the game is over ({end.outcome.result()})",
                "end",
                "game-over",
            )


def test_the_native_engine_names_the_rule_without_the_python_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``apply_move``, ``parse_move`` and ``is_legal`` of a native state never reach the
    Python diagnosis (nor ``is_legal`` the Python move parser)."""

    def forbidden(*args: object) -> None:
        raise AssertionError("the Python rules were called")

    state = native.native_state(start("shacru", 2))
    legal = str(state.legal_moves()[0])
    monkeypatch.setattr(legality, "diagnose", forbidden)
    monkeypatch.setattr(ChevronState, "_check", forbidden)
    for attempt in (state.apply_move, state.parse_move):
        with pytest.raises(IllegalMoveError) as refused:
            attempt("a1-i9")
        assert (refused.value.rule, refused.value.reason) == ("S-R3", "not-your-chevron")
    with pytest.raises(IllegalMoveError, match=r"^S-R3: a1-i9: the chevron on a1 belongs"):
        state.apply_move(Move(origin=0, target=80))
    monkeypatch.setattr(Move, "parse", forbidden)
    assert state.is_legal(legal)
    assert not state.is_legal("a1-i9")
    assert not state.is_legal("no move")
