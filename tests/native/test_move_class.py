"""The native engine's move class ``pacru._native.Move`` against the Python ``Move``.

Both classes have one API: the constructor with its checks and messages, the getters,
``kind``, ``parse`` with its errors, the text, ``repr``, copies, pickles and the refusal
to change. Moves of the two classes with the same parts are equal and hash alike, by the
packed key (``pacru.chevron.move.packed_key``); the native class is a ``Move`` by
registration. Every test that builds moves runs on both classes.
"""

from __future__ import annotations

import copy
import json
import operator
import os
import pickle
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any, Final

import attrs
import numpy as np
import pytest

import pacru
from pacru import MoveKind, NotationError, abstractplay
from pacru.chevron.engine import OPS, native_module
from pacru.chevron.move import MAX_MOVE_TEXT, packed_key
from pacru.chevron.move import Move as PythonMove

from .support import native, start

_EXTENSION = native_module()
assert _EXTENSION is not None  # support.py skips this folder without the extension
NativeMove: Final[type[PythonMove]] = _EXTENSION.Move
#: Both move classes, for the tests that run on each.
CLASSES: Final = pytest.mark.parametrize("cls", [PythonMove, NativeMove], ids=["python", "native"])
#: The parts of a move, in the constructor's order.
FIELDS: Final = (
    "origin",
    "target",
    "capture",
    "twist",
    "turn",
    "connection",
    "marker",
    "meeting",
    "relinquished",
)
DATA: Final = Path(__file__).parents[1] / "data" / "abstractplay"

#: Constructor arguments each class refuses, with the same error and message.
BAD_ARGUMENTS: Final[list[tuple[tuple[Any, ...], dict[str, Any]]]] = [
    ((81, 2), {}),
    ((-1, 2), {}),
    ((True, 2), {}),
    ((1.0, 2), {}),
    (("a1", 2), {}),
    ((2**70, 3), {}),
    ((np.bool_(True), 3), {}),
    ((1, 81), {}),
    ((1, 2), {"marker": 90}),
    ((1, 2), {"meeting": "e5"}),
    ((1, 2), {"capture": 1}),
    ((1, 2), {"capture": None}),
    ((1, 2), {"capture": np.bool_(True)}),
    ((1, 2), {"connection": "yes"}),
    ((1, 2), {"twist": 2}),
    ((1, 2), {"twist": True}),
    ((1, 2), {"twist": None}),
    ((1, 2), {"twist": 1.0}),
    ((1, 2), {"twist": 2**80}),
    ((1, None), {"turn": 3}),
    ((1, None), {"turn": False}),
    ((1, None), {"turn": 1, "relinquished": 5}),
    ((1, None), {"turn": 1, "relinquished": "ab"}),
    ((1, None), {"turn": 1, "relinquished": {1, 2}}),
    ((1, None), {"turn": 1, "relinquished": (1, 81)}),
    ((1, None), {"turn": 1, "relinquished": [1, True]}),
    ((1, None), {"turn": 1, "relinquished": (3, 4, 3)}),
    ((None, 2), {}),
    ((), {"capture": True}),
    ((), {"turn": 1}),
    ((), {"relinquished": (1,)}),
    ((4, 4), {}),
    ((4,), {}),
    ((4, None), {"capture": True, "turn": 1}),
    ((4, None), {"turn": 1, "twist": 1}),
    ((4, None), {"turn": 1, "marker": 5}),
    ((4, 5), {"turn": 1}),
    ((4, 5), {"relinquished": (1,)}),
    ((1, 2, False, 0, 0, False, None, None, (), 1), {}),
    ((1,), {"origin": 2}),
    ((1, 2), {"colour": "red"}),
]


def _error(call: Any) -> tuple[type[Exception], str]:
    with pytest.raises((TypeError, ValueError)) as caught:
        call()
    return type(caught.value), str(caught.value)


def _parts(move: PythonMove) -> tuple[Any, ...]:
    return tuple(getattr(move, name) for name in FIELDS)


def _ap_states() -> list[pacru.ChevronState]:
    """Positions of the AbstractPlay Pacru games in tests/data, every 15th ply."""
    out = []
    for name in ("abstractplay-pacru-2p-a.json", "abstractplay-pacru-2p-b.json"):
        data = json.loads((DATA / name).read_text(encoding="utf-8"))
        state = abstractplay.new_game(
            "pacru", 2, legacy_2p=data["start_layout"] == "ap-legacy-2p"
        )
        for ply, text in enumerate(data["moves"]):
            if ply % 15 == 7:
                out.append(state)
            state = state.apply_move(abstractplay.parse_move(state, text))
    return out


@pytest.mark.parametrize(("args", "kwargs"), BAD_ARGUMENTS)
def test_the_constructors_refuse_alike(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Each bad argument is the same exception with the same message on both classes
    (the argument-count errors: a TypeError on each)."""
    python = _error(lambda: PythonMove(*args, **kwargs))
    made = _error(lambda: NativeMove(*args, **kwargs))
    if python[0] is TypeError:
        assert made[0] is TypeError
    else:
        assert made == python
        assert python[0] is ValueError


def test_a_message_names_the_argument() -> None:
    """A sample of the messages, word for word (shared by both classes, above)."""
    messages = {
        "field index must be 0..80 (an int), not 81": lambda: NativeMove(81, 2),
        "'capture' must be True or False as bool (got 1)": lambda: NativeMove(1, 2, 1),  # type: ignore[arg-type]
        "'twist' must be in (-1, 0, 1) as int (got True)": lambda: NativeMove(1, 2, twist=True),
        "'turn' must be in (-2, -1, 0, 1, 2) as int (got 3)": lambda: NativeMove(1, turn=3),
        "a relinquished field is named twice: (3, 4, 3)": lambda: NativeMove(
            1, turn=1, relinquished=(3, 4, 3)
        ),
        "a move must leave its field": lambda: NativeMove(4, 4),
        "a pass has no fields or choices": lambda: NativeMove(capture=True),
    }
    for message, call in messages.items():
        assert _error(call) == (ValueError, message)


@CLASSES
def test_any_integer_type_is_taken_as_its_int(cls: type[PythonMove]) -> None:
    """numpy integers and other ``operator.index`` types, stored as int; relinquished
    sorted; positional and keyword arguments alike."""

    class Index:
        def __init__(self, n: int) -> None:
            self.n = n

        def __index__(self) -> int:
            return self.n

    given: tuple[Any, ...] = (40, 41, False, -1, 0, True, Index(3), 4)
    given = tuple(np.int64(v) if type(v) is int else v for v in given)
    move = cls(*given)
    assert _parts(move) == (40, 41, False, -1, 0, True, 3, 4, ())
    assert all(type(getattr(move, n)) is int for n in ("origin", "target", "twist", "marker"))
    fields: Any = [np.int64(9), 2, Index(5)]
    turned = cls(origin=Index(40), turn=np.int8(-2), relinquished=fields)  # type: ignore[arg-type]
    assert _parts(turned) == (40, None, False, 0, -2, False, None, None, (2, 5, 9))
    assert type(turned.relinquished) is tuple
    assert str(turned) == "e5<<(c1,f1,a2)"
    assert cls() == cls.pass_move() == PythonMove.parse("pass")
    assert cls.parse(" PASS ") is cls.pass_move()  # one pass object, as the Python class's


@CLASSES
def test_parse_refuses_alike(cls: type[PythonMove]) -> None:
    """NotationError with the Python parser's message and text, on both classes."""
    texts: list[object] = [
        "e4-e4",
        " E4xE4 ",
        "e5>(a1,a1)",
        "e5>(a1,b1,a1)",
        "e4-e5 junk",
        "z9-e5",
        "",
        "pass pass",
        "e4\ud800-e5",
        "x" * 100,
        " " * MAX_MOVE_TEXT + "e4-e5",
        None,
        b"e4-e5",
        7,
    ]
    for text in texts:
        with pytest.raises(NotationError) as python:
            PythonMove.parse(text)  # type: ignore[arg-type]
        with pytest.raises(NotationError) as made:
            cls.parse(text)  # type: ignore[arg-type]
        assert str(made.value) == str(python.value), text
        assert made.value.text == python.value.text, text
    padded = " " * (MAX_MOVE_TEXT - 5) + "e4-e5"
    assert cls.parse(padded) == cls(31, 40)
    assert type(cls.parse(padded)) is cls


@CLASSES
def test_every_legal_move_reads_back_from_its_text(cls: type[PythonMove]) -> None:
    """``cls.parse(str(m)) == m`` for every legal move of AbstractPlay positions, with
    the parts, kind, text, repr and hash of the Python class's move."""
    states = _ap_states()
    assert len(states) > 4
    count = 0
    for state in states:
        moves = state.legal_moves()
        for move in moves[:: max(1, len(moves) // 300)]:
            text = str(move)
            read = cls.parse(text)
            python = PythonMove.parse(text)
            assert type(read) is cls
            assert read == move == python == read
            assert _parts(read) == _parts(python)
            assert read.kind is python.kind
            assert (str(read), repr(read)) == (text, repr(python))
            assert hash(read) == hash(python) == hash(packed_key(*_parts(python)))
            count += 1
    assert count > 500


def test_moves_of_both_classes_are_equal_and_hash_alike() -> None:
    """Equal parts: equal whichever class is on either side, in lists and sets too; the
    hash is CPython's int hash of the packed key (its value mod 2**61 - 1)."""
    texts = ["e4-e6", "e3xe4+e6@i9", "a3-b4>*+c5@d6", "d9>>(c4,b5,a7,b7)", "i9<(a1,i9)", "pass"]
    for text in texts:
        python, made = PythonMove.parse(text), NativeMove.parse(text)
        key = packed_key(*_parts(python))
        assert made._key == python._key == key
        assert hash(made) == hash(python) == key % (2**61 - 1)
        assert made == python
        assert python == made
        assert not made != python  # noqa: SIM202 (the != slot itself)
        assert [made, python] == [python, made]
        assert len({made, python}) == 1
        assert made != PythonMove.parse("e4-e5")
        assert PythonMove.parse("e4-e5") != made
        assert made not in (text, key, None)
    assert packed_key(None, None, False, 0, 0, False, None, None, ()) == (
        81 | 81 << 7 | 81 << 14 | 81 << 21 | 1 << 30 | 2 << 32
    )
    assert NativeMove.parse("i9<(a1,i9)")._key >> 35 == 1 | 1 << 80
    with pytest.raises(TypeError):
        _ = NativeMove.parse("e4-e5") < NativeMove.parse("e4-e6")  # type: ignore[operator]


def test_the_native_class_is_a_move() -> None:
    """A ``Move`` by registration, named ``pacru.Move``, frozen, a value to copy; its kind
    is a MoveKind member; attrs still builds the Python class."""
    made = NativeMove.parse("e9xe7")
    assert isinstance(made, PythonMove)
    assert issubclass(NativeMove, PythonMove)
    assert (NativeMove.__module__, NativeMove.__qualname__) == ("pacru", "Move")
    assert made.kind is MoveKind.PINCER
    assert NativeMove.parse("e5>(a1)").kind is MoveKind.REORIENTATION
    assert NativeMove.pass_move().kind is MoveKind.PASS
    assert NativeMove(1, 2).kind is MoveKind.STEP
    assert copy.copy(made) is made
    assert copy.deepcopy(made) is made
    assert weakref.ref(made)() is made
    assert NativeMove.__match_args__ == PythonMove.__match_args__ == FIELDS
    assert attrs.evolve(PythonMove.parse("e9xe7"), twist=1) == NativeMove.parse("e9xe7>")
    assert attrs.has(PythonMove)
    assert not attrs.has(NativeMove)


@CLASSES
def test_a_move_refuses_to_change(cls: type[PythonMove]) -> None:
    move = cls.parse("e4-e6")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        move.origin = 3  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        move.colour = "red"  # type: ignore[attr-defined]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del move.target
    assert move == cls(31, 49)
    assert copy.deepcopy(move) == move
    assert copy.copy(move) == move


def test_the_engine_in_use_hands_out_its_move_class() -> None:
    """``pacru.Move`` is the engine's move class, the class of the moves its lists hand
    out and its states parse."""
    assert pacru.Move is OPS.move_class
    assert (pacru.Move is NativeMove) == (pacru.ENGINE == "native")
    state = pacru.new_game("pacru", players=2)
    assert type(state.legal_moves()[0]) is pacru.Move
    assert type(state.parse_move("e1-e2")) is pacru.Move
    assert type(pacru.Move.parse("e1-e2")) is pacru.Move
    assert type(native.legal_moves(start("shacru", 2))[0]) is NativeMove
    after = state.apply_move("e1-e2")
    assert type(after.last_move) is pacru.Move
    assert after.last_move == pacru.Move(4, 13)


_LOAD: Final = """
import pickle, sys, pacru
move = pickle.loads(sys.stdin.buffer.read())
print(type(move) is pacru.Move, move == pacru.Move.parse("d9>>(c4,b5,a7,b7)"), hash(move))
"""


@pytest.mark.parametrize("maker", ["python", "native"])
@pytest.mark.parametrize("loader", ["python", "native"])
def test_a_pickled_move_loads_on_either_engine(maker: str, loader: str) -> None:
    """A move pickled on either engine, of either class, loads on either engine as that
    engine's class (a Python move pickled as before loads as a Python move)."""
    dump = (
        "import pickle, sys, pacru\n"
        "from pacru import _native\n"
        "from pacru.chevron.move import Move\n"
        "text = 'd9>>(c4,b5,a7,b7)'\n"
        "moves = [pacru.Move.parse(text), _native.Move.parse(text), Move.parse(text)]\n"
        "sys.stdout.buffer.write(pickle.dumps([pickle.dumps(m) for m in moves]))\n"
    )
    made = subprocess.run(
        [sys.executable, "-c", dump],
        env={**os.environ, "PACRU_ENGINE": maker},
        capture_output=True,
        check=True,
    ).stdout
    expected = hash(PythonMove.parse("d9>>(c4,b5,a7,b7)"))
    blobs: list[bytes] = pickle.loads(made)
    for i, blob in enumerate(blobs):
        out = subprocess.run(
            [sys.executable, "-c", _LOAD],
            input=blob,
            env={**os.environ, "PACRU_ENGINE": loader},
            capture_output=True,
            check=True,
        ).stdout.decode()
        # A native move pickles as its engine's pacru.Move (the Python class on the
        # Python engine); a Python move as the Python class.
        engine_class = (maker == "native" and i < 2) or loader == "python"
        assert out.split() == [str(engine_class), "True", str(expected)], (i, out)


#: Pickles of Python moves made by the version before the native Move (attrs' state by
#: field name, protocols 4 and 2): ``e3xe4+e6@i9`` and ``d9>>(c4,b5,a7,b7)``.
OLD_PICKLES: Final = (
    b"\x80\x04\x95\x90\x00\x00\x00\x00\x00\x00\x00\x8c\x12pacru.chevron.move\x94\x8c\x04Move"
    b"\x94\x93\x94)\x81\x94}\x94(\x8c\x06origin\x94K\x16\x8c\x06target\x94K\x1f\x8c\x07capture"
    b"\x94\x88\x8c\x05twist\x94K\x00\x8c\x04turn\x94K\x00\x8c\nconnection\x94\x89\x8c\x06marker"
    b"\x94K1\x8c\x07meeting\x94KP\x8c\x0crelinquished\x94)ub.",
    b"\x80\x02cpacru.chevron.move\nMove\nq\x00)\x81q\x01}q\x02(X\x06\x00\x00\x00originq\x03KKX"
    b"\x06\x00\x00\x00targetq\x04NX\x07\x00\x00\x00captureq\x05\x89X\x05\x00\x00\x00twistq\x06K"
    b"\x00X\x04\x00\x00\x00turnq\x07K\x02X\n\x00\x00\x00connectionq\x08\x89X\x06\x00\x00\x00marker"
    b"q\tNX\x07\x00\x00\x00meetingq\nNX\x0c\x00\x00\x00relinquishedq\x0b(K\x1dK%K6K7tq\x0cub.",
)


def test_a_python_move_pickled_by_an_earlier_version_still_loads() -> None:
    """Pickles of the attrs-made Python moves load as Python moves, equal (hash too) to
    the moves of both classes; a state tuple (older attrs) loads too."""
    for blob, text in zip(OLD_PICKLES, ("e3xe4+e6@i9", "d9>>(c4,b5,a7,b7)"), strict=True):
        loaded = pickle.loads(blob)
        assert type(loaded) is PythonMove
        assert loaded == PythonMove.parse(text) == NativeMove.parse(text)
        assert hash(loaded) == hash(NativeMove.parse(text))
        assert str(loaded) == text
    move = PythonMove.parse("e3xe4+e6@i9")
    loaded = PythonMove.__new__(PythonMove)
    loaded.__setstate__(_parts(move))
    assert loaded == NativeMove.parse("e3xe4+e6@i9")


def test_the_issued_move_is_applied_as_given() -> None:
    """The move the list handed out last is the state's last move, as given; a native
    move equal to it (not handed out) is checked and taken too."""
    state = native.native_state(start("pacru", 2))
    moves = state.legal_moves()
    move = moves[3]
    assert moves._impl.issued is move
    assert state.apply_move(move).last_move is move
    again = NativeMove(*_parts(move))
    assert state.apply_move(again).last_move is again
    assert operator.countOf(moves, again) == 1
    assert again in moves
    assert PythonMove(*_parts(move)) in moves
    assert moves.index(PythonMove(*_parts(move))) == 3
