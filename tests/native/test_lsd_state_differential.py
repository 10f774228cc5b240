"""An :class:`~pacru.LsdState` on the native engine (``rust/lsd`` through
``pacru._native.LsdPosition``) against the same state on the Python engine, the reference.

Whatever engine the process chose, both are built here: the Python one with
:func:`pacru.lsd.native.on_python`, the native one from the extension directly
(:func:`on_native`). Seeded random games at 2, 3 and 4 players under several option
sets are played through the public API on both: at every ply the position text, the
legal moves (same order), the outcome, the player to move and the returns must be
equal; refused moves must raise the same error (class, message, rule, reason) on both,
and the extension's own reason must be the Python rules' (LSD 1.5, 2.2, RULINGS 4, 5,
20); and a state pickled on one engine loads and plays on as the other.
"""

from __future__ import annotations

import pickle
import random
from typing import TYPE_CHECKING, Any

import pytest

from pacru import LsdMove, LsdState
from pacru.base import Termination
from pacru.errors import GameOverError, IllegalMoveError, InvalidPositionError
from pacru.lsd import new_game
from pacru.lsd.moves import _move
from pacru.lsd.native import on_python, rules_args
from pacru.lsd.tiles import ORIGIN, decode_cell, encode_cell

from . import support  # noqa: F401 (skips this module without the extension)

if TYPE_CHECKING:
    from pacru import _native

#: Option sets: the defaults, rotation off (RULING 4), loose matching with a short row
#: (RULING 5, 16), a small mixed-shade tile set (RULING 2), and a row no game can make
#: (longer than the extension's 32 bits: games end blocked).
OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"allow_rotation": False},
    {"strict_dot_matching": False, "row_length": 3},
    {"tile_set": "+N*3,xNE*2,W+NS*2,BxNESW*1,+NES*2", "row_length": 5},
    {"row_length": 10**10},
)
_ENDS = {Termination.ROW: 1, Termination.BLOCKED: 2}


def on_native(state: LsdState) -> LsdState:
    """``state`` on the native engine whatever the process chose: the same values with a
    position of the extension, which the states after it carry on."""
    from pacru import _native

    rules = state.rules
    outcome = state.outcome
    winners = 0 if outcome is None else sum(1 << state.players.index(w) for w in outcome.winners)
    last = state.last_move
    made = _native.LsdRules(*rules_args(rules))
    pos = made.position(
        (
            list(state._field.items()),
            [list(s) for s in state._supplies],
            [list(c) for c in state._captured],
            state._turn,
            0 if outcome is None else _ENDS[outcome.termination],
            winners,
            None if last is None else (last._face, last._code),
        )
    )
    parts = (state._field, state._frontier, state._supplies, state._captured)
    return LsdState(state.players, rules, *parts, state._turn, outcome, last, pos)


def native_position(state: LsdState) -> _native.LsdPosition:
    """The extension's position of a state of the native engine."""
    pos = state._pos
    assert pos
    return pos


def _refusal(state: LsdState, move: LsdMove | str) -> tuple[Any, ...]:
    """What ``apply_move`` raises for a refused move: class, message, rule, reason, move."""
    with pytest.raises(IllegalMoveError) as caught:
        state.apply_move(move)
    error = caught.value
    return type(error), str(error), error.rule, error.reason, error.move


def _illegal_candidates(state: LsdState, rng: random.Random, n: int) -> list[LsdMove]:
    """Up to ``n`` moves the Python engine refuses here: any face, or one the mover holds,
    on a cell of the field, next to it, or far from it."""
    legal = set(state.legal_moves())
    cells = [*state._field, *state._frontier, ORIGIN, encode_cell(9, -9)]
    near = [c + step for c in state._field for step in (1, -1, 4096, -4096)]
    pool = [*cells, *near]
    found: list[LsdMove] = []
    faces = [m._face for m in legal]
    for i in range(20 * n):
        # Any face, or one the mover could place, on a cell of the pool.
        face = rng.randrange(64) if i % 2 or not faces else rng.choice(faces)
        move = _move(face, rng.choice(pool))
        if move not in legal and move not in found:
            found.append(move)
            if len(found) == n:
                break
    return found


def assert_same(nat: LsdState, py: LsdState) -> None:
    # The legal moves first: a state the native engine made has read none of its parts yet.
    # The extension's list counts its moves and makes each one read (nth_legal), or all.
    keys = native_position(nat).legal_moves()
    expected = [m._code << 6 | m._face for m in py.legal_moves()]
    n = len(expected)
    assert len(keys) == n
    assert [keys[i] for i in range(n)] == expected == keys.keys()
    assert [keys[i] for i in range(-1, -n - 1, -1)] == expected[::-1]
    for beyond in (n, -n - 1):
        with pytest.raises(IndexError, match="tuple index out of range"):
            keys[beyond]
    for far in (10**30, -(10**30)):  # as a tuple says, not OverflowError
        with pytest.raises(IndexError, match="cannot fit 'int' into an index-sized integer"):
            nat.legal_moves()[far]
    assert [nat.legal_moves()[i] for i in range(n)] == list(py.legal_moves())
    assert list(nat.legal_moves()) == list(py.legal_moves())
    assert len(nat.legal_moves()) == len(py.legal_moves())
    assert nat.outcome == py.outcome
    assert nat.current_player == py.current_player
    assert nat.to_move == py.to_move
    assert nat.returns() == py.returns()
    assert nat.last_move == py.last_move
    assert nat.to_position() == py.to_position()
    assert nat.bounds == py.bounds
    assert nat == py
    assert hash(nat) == hash(py)


@pytest.mark.parametrize("options", OPTIONS, ids=range(len(OPTIONS)))
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_games_agree_ply_by_ply(players: int, options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed * 31 + players)
    start = new_game(players, **options)
    py, nat = on_python(start), on_native(start)
    plies = 0
    while True:
        assert_same(nat, py)
        assert py._pos is False  # each stays on its engine
        assert nat._pos
        if py.outcome is not None:
            break
        moves = py.legal_moves()
        i = rng.randrange(len(moves))
        assert nat.legal_moves()[i] == moves[i]
        # Text on one ply of three, the move object on the others.
        move: LsdMove | str = str(moves[i]) if plies % 3 == 2 else nat.legal_moves()[i]
        py, nat = py.apply_move(move), nat.apply_move(move)
        plies += 1
    assert plies > 0


@pytest.mark.parametrize("options", OPTIONS, ids=range(len(OPTIONS)))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_refused_moves_raise_the_same_errors(players: int, options: dict[str, Any]) -> None:
    rng = random.Random(players * 7 + len(options))
    start = new_game(players, **options)
    py, nat = on_python(start), on_native(start)
    reasons: set[str] = set()
    while py.outcome is None:
        for move in _illegal_candidates(py, rng, 6):
            refusal = _refusal(py, move)
            assert _refusal(nat, move) == refusal
            assert _refusal(nat, str(move)) == _refusal(py, str(move))
            # The extension's own reason, from its typed error, is the Python rules'.
            assert native_position(nat).illegal(move._face, move._code) == (refusal[3], refusal[2])
            reasons.add(refusal[3])
        move = rng.choice(py.legal_moves())
        assert native_position(nat).illegal(move._face, move._code) is None
        py, nat = py.apply_move(move), nat.apply_move(move)
    assert {"occupied", "no-whole-dot", "not-in-supply", "first-tile-not-origin"} <= reasons
    last = py.last_move
    assert last is not None
    assert _refusal(nat, last) == _refusal(py, last)
    assert _refusal(nat, last)[0] is GameOverError
    assert native_position(nat).illegal(last._face, last._code) == ("game-over", "end")


def test_rotation_refusals_and_strict_sides_agree() -> None:
    """The reasons random moves rarely meet: a tile turned with rotation off (RULING 4)
    and a half dot against an empty side (RULING 5), with the side named."""
    rng = random.Random(5)
    reasons: set[str] = set()
    for rotation in (False, True):
        py = on_python(new_game(2, allow_rotation=rotation))
        nat = on_native(py)
        for _ in range(12):
            for face in range(64):
                for cell in list(py._frontier)[:6] or [ORIGIN]:
                    move = _move(face, cell)
                    if move in py.legal_moves():
                        continue
                    refusal = _refusal(py, move)
                    assert _refusal(nat, move) == refusal
                    reasons.add(refusal[3])
            move = rng.choice(py.legal_moves())
            py, nat = py.apply_move(move), nat.apply_move(move)
    assert {"rotation-not-allowed", "obstructs-dot", "dot-against-empty"} <= reasons


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pickles_load_on_either_engine(players: int) -> None:
    rng = random.Random(players)
    py = on_python(new_game(players))
    nat = on_native(py)
    for _ in range(8):
        move = rng.choice(py.legal_moves())
        py, nat = py.apply_move(move), nat.apply_move(move)
        if py.outcome is not None:
            py, nat = on_python(new_game(players)), on_native(new_game(players))
    # A native state pickles to the same bytes as the Python one (its position is not
    # pickled), before and after its parts were read.
    blob = pickle.dumps(nat)
    assert blob == pickle.dumps(py)
    assert pickle.dumps(nat) == blob
    # So does the move list (its moves, not the extension's keys).
    listed = pickle.dumps(on_native(nat).legal_moves())
    assert listed == pickle.dumps(py.legal_moves())
    assert pickle.loads(listed) == py.legal_moves()
    for loaded in (pickle.loads(blob), pickle.loads(pickle.dumps(py))):
        assert loaded == py
        assert loaded.last_move == py.last_move
        # Loaded, each plays on as either engine, move for move.
        a, b = on_python(loaded), on_native(loaded)
        for _ in range(6):
            assert_same(b, a)
            if a.outcome is not None:
                break
            move = rng.choice(a.legal_moves())
            a, b = a.apply_move(move), b.apply_move(move)


def test_a_native_state_reads_its_parts_once_and_only_when_asked() -> None:
    py = on_python(new_game(2))
    nat = on_native(py).apply_move("B+NESW@0,0")
    assert nat._pos
    assert nat._legal is None
    assert nat.bounds == ((0, 0), (0, 0))  # the extension's: no part read for it
    with pytest.raises(AttributeError):
        nat._cells  # noqa: B018 (the slot behind _field: not read yet)
    assert len(nat.legal_moves()) == len(py.apply_move("B+NESW@0,0").legal_moves())
    field = nat._field
    assert nat._field is field
    assert {decode_cell(c) for c in field} == {(0, 0)}
    assert nat._cells is field
    assert (nat._frontier, nat._supplies, nat._captured) == (nat._open, nat._left, nat._lost)


@pytest.mark.parametrize("players", [2, 3])
def test_decisions_on_a_native_list_are_the_python_lists(players: int) -> None:
    """The LSD decisions read a native list's move keys (only the chosen cell's moves are
    made): the same actions, kinds and moves as on the Python engine's list."""
    from pacru.encoding import Encoding

    rng = random.Random(players)
    py = on_python(new_game(players, tile_set="+N*3,xNE*2,W+NS*2,BxNESW*1,+NES*2"))
    nat = on_native(py)
    enc = Encoding.of(py)
    while py.outcome is None:
        d_py, d_nat = enc.start(py), enc.start(nat)
        assert nat._legal is not None
        assert nat._legal._move_keys() is not None  # the moves are not all made
        while d_py.move is None:
            assert (d_nat.kind, d_nat.legal_actions) == (d_py.kind, d_py.legal_actions)
            action = rng.choice(d_py.legal_actions)
            d_py, d_nat = d_py.choose(action), d_nat.choose(action)
        assert (d_nat.move, d_nat.prefix) == (d_py.move, d_py.prefix)
        py, nat = py.apply_move(d_py.move), nat.apply_move(d_nat.move)


def _window(bounds: tuple[tuple[int, int], tuple[int, int]] | None, r: int) -> Any:
    """The LSD window's corner as ``pacru.encoding.lsd`` defines it, None once outgrown."""
    if bounds is None:
        return (-r, -r)
    (min_x, min_y), (max_x, max_y) = bounds
    x0, y0 = (min_x + max_x) // 2 - r, (min_y + max_y) // 2 - r
    inside = x0 <= min_x - 1 and y0 <= min_y - 1 and max_x + 1 <= x0 + 2 * r
    return (x0, y0) if inside and max_y + 1 <= y0 + 2 * r else None


@pytest.mark.parametrize("options", OPTIONS[:4])
def test_a_native_lists_cells_and_tiles_are_its_keys(options: dict[str, Any]) -> None:
    """``LsdMoves.cell_actions`` and ``cell_tiles`` (what the LSD decisions read on the
    native engine) are the cells and faces of the list's keys: each cell's action in a
    window once, ascending; a cell's tile actions ascending; none on a cell without a move.
    ``LsdPosition.window`` is the window's corner, None for a window the tiles outgrow."""
    rng = random.Random(7)
    nat = on_native(new_game(2, **options))
    x0, y0, width = -3, 2, 17
    while nat.outcome is None:
        listed = nat.legal_moves()._native_keys()
        assert listed is not None
        keys = listed.keys()
        cells = {decode_cell(key >> 6) for key in keys}
        actions = sorted({(y - y0) * width + x - x0 for x, y in cells})
        assert listed.cell_actions(x0, y0, width) == tuple(actions)
        for code in {key >> 6 for key in keys}:
            faces = sorted(key & 63 for key in keys if key >> 6 == code)
            assert listed.cell_tiles(code, 1000) == tuple(1000 + face for face in faces)
        assert listed.cell_tiles(encode_cell(300, -300), 7) == ()
        assert nat._pos
        for radius in (1, 2, 20):
            assert nat._pos.window(radius) == _window(nat.bounds, radius)
        nat = nat.apply_move(rng.choice(nat.legal_moves()))
    listed = nat.legal_moves()._native_keys()
    assert listed is not None
    assert (listed.cell_actions(0, 0, 5), listed.cell_tiles(ORIGIN, 0)) == ((), ())


_OTHER_ENGINE = """
import pickle, random, sys
import pacru
state = pickle.loads(sys.stdin.buffer.read())
assert type(state) is pacru.LsdState and bool(state._native()) == (pacru.ENGINE == "native")
rng = random.Random(3)
for _ in range(6):
    if state.outcome is not None:
        break
    state = state.apply_move(rng.choice(state.legal_moves()))
print(pacru.ENGINE, state.to_position())
"""


def test_a_pickle_loads_in_a_process_of_the_other_engine() -> None:
    """Pickled by this process's engine, loaded by the other's (``PACRU_ENGINE``), which
    plays on as the Python engine does here."""
    import os
    import subprocess
    import sys

    import pacru

    rng = random.Random(8)
    state = new_game(3)
    for _ in range(5):
        state = state.apply_move(rng.choice(state.legal_moves()))
    other = "python" if pacru.ENGINE == "native" else "native"
    env = {**os.environ, "PACRU_ENGINE": other}
    done = subprocess.run(
        [sys.executable, "-c", _OTHER_ENGINE],
        input=pickle.dumps(state),
        capture_output=True,
        env=env,
        check=True,
    )
    py, rng = on_python(state), random.Random(3)
    for _ in range(6):
        if py.outcome is not None:
            break
        py = py.apply_move(rng.choice(py.legal_moves()))
    assert done.stdout.decode().split(maxsplit=1) == [other, py.to_position() + "\n"]


def test_the_extension_refuses_tables_and_parts_with_pacru_errors() -> None:
    """Its typed errors (``RulesError``, ``PartsError``) become pacru's classes: tables the
    engine refuses a ``ValueError``, parts an ``InvalidPositionError``; the Python engine
    validates both first, so only a state built by hand meets them."""
    from pacru import _native

    with pytest.raises(ValueError, match=r"2, 3 or 4 players \(LSD 1.3\), not 1"):
        _native.LsdRules([[1]], [[2]], True, True, 4)
    start = new_game(2)
    made = _native.LsdRules(*rules_args(start.rules))
    supplies = [list(s) for s in start._supplies]
    captured = [list(c) for c in start._captured]
    for field, turn, message in (
        ([(-1, 1)], 0, "cell -1 is beyond"),
        ([(ORIGIN, 1), (ORIGIN, 1)], 0, "a cell holds two tiles"),
        ([], -1, "turn -1 does not fit the outcome"),
    ):
        with pytest.raises(InvalidPositionError, match=message):
            made.position((field, supplies, captured, turn, 0, 0, None))
