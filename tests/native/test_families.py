"""The native list's families (``steps``, ``reorientations``, ``families``, ``family_of``,
``from_field``) are made in Rust: the extension's ``StepFamily`` and
``ReorientationFamily``, with the attributes, sizes, moves, ``contains`` and errors of the
Python engine's families, compared at sampled plies of random games of every game and
player count."""

from __future__ import annotations

import os
import random

import pytest

from pacru import ChevronState, LegalMoves, Move, NotationError, from_position
from pacru.chevron.engine import python_apply, python_legal_moves
from pacru.chevron.families import ReorientationFamily, StepFamily

from .support import CONFIGS, native, sample, start

#: Random games per game and player count (a fifth of the differential suite's).
GAMES = max(1, int(os.environ.get("PACRU_NATIVE_GAMES", "100")) // 20)
#: Plies compared per game, spread over it.
PLIES = 12


def _raised(call: object, *args: object) -> tuple[type[BaseException], tuple[object, ...]]:
    """The class and arguments of the exception ``call(*args)`` raises."""
    assert callable(call)
    with pytest.raises(Exception) as info:  # noqa: PT011 - the class itself is compared
        call(*args)
    return type(info.value), info.value.args


def _native_class(family: object) -> str:
    """The name of the extension's class of ``family`` (an error for any other class)."""
    assert type(family).__module__ == "pacru._native"
    return type(family).__name__


def _same_family(py: object, nat: object, rng: random.Random, where: str) -> None:
    """Two families of one position, one per engine, hold the same moves alike."""
    assert repr(nat) == repr(py), where
    if isinstance(py, StepFamily):
        assert isinstance(nat, StepFamily), where
        assert _native_class(nat) == "StepFamily", where
        assert (nat.origin, nat.target, nat.capture) == (py.origin, py.target, py.capture)
        assert nat.options == py.options, where
    else:
        assert isinstance(py, ReorientationFamily), where
        assert isinstance(nat, ReorientationFamily), where
        assert _native_class(nat) == "ReorientationFamily", where
        assert (nat.origin, nat.turn, nat.cost) == (py.origin, py.turn, py.cost), where
        assert (nat.fields, nat.mask) == (py.fields, py.mask), where
    assert nat.size == py.size, where
    if py.size <= 200:
        assert list(nat) == list(py), where
    for i in sample(py.size, rng)[:: 1 if py.size <= 200 else 50]:
        nat_move, py_move = nat.get(i), py.get(i)
        assert type(nat_move) is native.NativeEngine.move_class, where
        assert nat_move == py_move, (where, i)
        assert str(nat_move) == str(py_move), (where, i)
        assert nat.contains(py_move), (where, i)
        assert nat.contains(nat_move), (where, i)
        assert py.contains(nat_move), (where, i)
    for bad in (py.size, py.size + 7, -1, 1 << 70, -(1 << 70)):
        assert _raised(nat.get, bad) == _raised(py.get, bad), (where, bad)
    assert _raised(nat.contains, "a1-a2") == _raised(py.contains, "a1-a2"), where


def _compare(state: ChevronState, others: list[Move], rng: random.Random, where: str) -> None:
    """Every family of ``state``'s lists (one per engine), ``family_of`` and
    ``from_field``; ``others`` are moves of other positions (most of them unlisted)."""
    py_moves = python_legal_moves(state)
    nat_moves = native.native_state(state).legal_moves()
    assert isinstance(nat_moves, native.NativeLegalMoves)
    assert len(nat_moves.steps) == len(py_moves.steps), where
    assert len(nat_moves.reorientations) == len(py_moves.reorientations), where
    families = nat_moves.families
    assert families == (*nat_moves.steps, *nat_moves.reorientations), where
    assert nat_moves.steps is nat_moves.steps, where  # kept, as the Python list keeps them
    assert len(families) == len(py_moves.families), where
    for nat, py in zip(families, py_moves.families, strict=True):
        _same_family(py, nat, rng, where)
    py_families = py_moves.families
    probes = [py_moves[i] for i in sample(len(py_moves), rng)[::97]] + others
    for move in probes:
        py_found = py_moves.family_of(move)
        nat_found = nat_moves.family_of(move)
        if py_found is None:
            assert nat_found is None, (where, move)
        else:
            k = next(i for i, f in enumerate(py_families) if f is py_found)
            assert nat_found is families[k], (where, move)
        for nat, py in zip(families, py_families, strict=True):
            if nat.size and rng.random() < 0.2:
                assert nat.contains(move) == py.contains(move), (where, move)
    # A value that is no move: the AttributeError of reading its origin, on both.
    assert _raised(nat_moves.family_of, "e1-e2") == _raised(py_moves.family_of, "e1-e2")
    for field in range(81):
        nat_field, py_field = nat_moves.from_field(field), py_moves.from_field(field)
        _same_chevron_list(py_field, nat_field, others, rng, f"{where} field {field}")
        assert (nat_field == nat_moves) == (len(nat_field) == len(nat_moves)), where


def _same_chevron_list(
    py: LegalMoves, nat: LegalMoves, others: list[Move], rng: random.Random, where: str
) -> None:
    """One chevron's list (``from_field``) of each engine: the native one is a native
    list, made without the Python class, with every public reading of the Python one:
    length, truth, moves in order (indexing, slices, iteration both ways), ``==``,
    ``repr``, ``in`` (a move, its text, moves of other chevrons and positions),
    ``index``, ``count``, the families and ``family_of``, the family bounds and draw,
    and its own ``from_field``."""
    assert isinstance(nat, native.NativeLegalMoves), where
    assert isinstance(nat, LegalMoves), where
    n = len(py)
    assert len(nat) == n, where
    assert bool(nat) == bool(py), where
    assert nat.is_pass is py.is_pass is False, where
    assert repr(nat) == repr(py), where
    assert nat == py, where
    assert py == nat, where
    assert not nat != py  # noqa: SIM202 (__ne__ is its own slot)
    assert nat == list(py), where
    assert nat[-3:] == py[-3:], where
    if n <= 400:
        assert list(nat) == list(py), where
        assert list(reversed(nat)) == list(reversed(py)), where
    assert [repr(f) for f in nat.steps] == [repr(f) for f in py.steps], where
    assert [repr(f) for f in nat.reorientations] == [repr(f) for f in py.reorientations], where
    for nat_family, py_family in zip(nat.families, py.families, strict=True):
        _same_family(py_family, nat_family, rng, where)
    assert nat._family_bounds() == py._family_bounds(), where
    assert nat.family_count() == len(py.families), where
    seed = rng.randrange(1 << 30)
    drawn = nat._family_draw(random.Random(seed).randrange)
    assert drawn == py._family_draw(random.Random(seed).randrange), where
    for i in sample(n, rng)[:: 1 if n <= 200 else 37]:
        move = py[i]
        assert nat[i] == move, (where, i)
        assert move in nat, (where, i)
        assert str(move) in nat, (where, i)
        assert nat.index(move) == i, (where, i)
        assert nat.count(move) == 1, (where, i)
        assert repr(nat.family_of(move)) == repr(py.family_of(move)), (where, i)
    for move in others:
        assert (move in nat) == (move in py), (where, move)
        assert (str(move) in nat) == (str(move) in py), (where, move)
        assert repr(nat.family_of(move)) == repr(py.family_of(move)), (where, move)
        assert _raised_or(nat.index, move) == _raised_or(py.index, move), (where, move)
    if n:
        origin = py[0].origin
        assert origin is not None, where
        assert nat.from_field(origin) == nat, where
        assert isinstance(nat.from_field(origin), native.NativeLegalMoves), where
        assert nat.from_field((origin + 1) % 81) == py.from_field((origin + 1) % 81), where


def _raised_or(call: object, *args: object) -> object:
    """What ``call(*args)`` returns, or the class and arguments of what it raises."""
    assert callable(call)
    try:
        return call(*args)
    except ValueError as err:
        return (type(err), err.args)


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_families_are_the_python_engines(game: str, players: int) -> None:
    """At plies spread over random games: the native families have the Python families'
    attributes, sizes, moves (by ``get`` and iteration, native moves), ``contains`` of
    listed and unlisted moves, errors of ``get``; ``family_of`` finds the same family and
    ``from_field`` the same moves, for every field."""
    compared = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = start(game, players)
        others: list[Move] = []
        plies = rng.randrange(4, 20)
        for ply in range(400):
            py_moves = python_legal_moves(state)
            if ply % plies == 0 or not py_moves:
                _compare(state, others[-40:], rng, f"{game} {players}p seed {seed} ply {ply}")
                compared += 1
                if compared % PLIES == 0:
                    break
            if not py_moves:
                break
            others.extend(py_moves[i] for i in sample(len(py_moves), rng)[::53])
            state = python_apply(state, py_moves[rng.randrange(len(py_moves))])
            if state.outcome is not None:
                break
    assert compared >= GAMES


#: Pacru positions random play seldom reaches: meetings {R12, D23} (E.1-13 of the
#: rules), and 29 own unoccupied fields, whose 90-degree reorientations number 20,475 {R14}.
_RED = ",".join(f"{c}{r}" for c in "abc" for r in range(1, 10))
POSITIONS = (
    (
        "pacru players=red,yellow markers=red:g9,g8,g7;yellow:d4,d5,d6,e4,e5,e6,f4,f5,f6 "
        "chevrons=red:g9S,g7N;yellow:a1N",
        True,
    ),
    (
        f"pacru players=red,yellow markers=red:g9,g8,g7,{_RED};yellow:i1 "
        "chevrons=red:g9S,g7N;yellow:i1N",
        False,
    ),
)


@pytest.mark.parametrize(("text", "meets"), POSITIONS)
def test_meetings_and_large_families_are_the_python_engines(text: str, meets: bool) -> None:
    """Step families with meeting fields and reorientation families of thousands of moves
    (sampled by ``get``, iterated whole) are the Python engine's, with ``family_of`` and
    ``from_field``."""
    state = from_position(text)
    assert isinstance(state, ChevronState)
    py_moves = python_legal_moves(state)
    assert any(o[3] for f in py_moves.steps for o in f.options) == meets
    assert (max(f.size for f in py_moves.families) > 10_000) == (not meets)
    _compare(state, [], random.Random(0), text)
    nat_moves = native.native_state(state).legal_moves()
    for nat, py in zip(nat_moves.families, py_moves.families, strict=True):
        assert list(nat) == list(py), text


@pytest.mark.parametrize("field", ["e5", " E5 ", "i9", 0, 80, 40])
def test_from_field_reads_fields_as_the_python_list(field: int | str) -> None:
    """``from_field`` takes a field's name (case and spaces ignored) or index as the
    Python list does."""
    state = start("pacru", 2)
    nat_moves = native.native_state(state).legal_moves()
    assert nat_moves.from_field(field) == python_legal_moves(state).from_field(field)


@pytest.mark.parametrize("field", ["z9", "a10", "", "x" * 30, 81, -1, True, 1.5, None, 1 << 80])
def test_from_field_refuses_fields_as_the_python_list(field: object) -> None:
    """``from_field`` refuses what the Python list refuses, with its ``NotationError``
    (and its ``text``) or ``ValueError`` and the same message."""
    state = start("pacru", 2)
    nat_moves = native.native_state(state).legal_moves()
    py_moves = python_legal_moves(state)
    expected = _raised(py_moves.from_field, field)
    assert expected[0] in (NotationError, ValueError)
    assert _raised(nat_moves.from_field, field) == expected
    if expected[0] is NotationError:
        with pytest.raises(NotationError) as py_info:
            py_moves.from_field(field)  # type: ignore[arg-type]
        with pytest.raises(NotationError) as nat_info:
            nat_moves.from_field(field)  # type: ignore[arg-type]
        assert nat_info.value.text == py_info.value.text


@pytest.mark.parametrize("game", ["lilacru", "shacru", "azacru"])
def test_a_pass_has_no_families_on_either_engine(game: str) -> None:
    """A pass-only list {S-R2, A-R10} has no family, finds none, and has no move of any
    chevron, on both engines (seed 0 of a 3-player game reaches a pass)."""
    rng = random.Random(0)
    state = start(game, 3)
    for _ in range(2000):
        moves = python_legal_moves(state)
        if not moves or moves.is_pass:
            break
        state = python_apply(state, moves[rng.randrange(len(moves))])
    py_moves = python_legal_moves(state)
    nat_moves = native.native_state(state).legal_moves()
    assert py_moves.is_pass
    assert nat_moves.is_pass
    for moves in (py_moves, nat_moves):
        assert moves.steps == ()
        assert moves.reorientations == ()
        assert moves.families == ()
        assert moves.family_of(moves[0]) is None
        assert [len(moves.from_field(f)) for f in range(81)] == [0] * 81
