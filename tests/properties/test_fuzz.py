"""Fuzzing every parser: only the documented errors, never another exception, never a hang.

Inputs are random text and mutations of valid strings (inserted, deleted and
replaced characters, duplicated slices, case swaps, repetition far past every
length limit) from a corpus built once from seeded games, so each example is
cheap and ``--hypothesis-profile=long`` runs 100,000 of them per parser.

================================  ===========================================
parser                            documented errors
================================  ===========================================
``Move.parse``                    NotationError
``ChevronState.parse_move``       NotationError, IllegalMoveError (GameOverError)
``from_position``                 NotationError, InvalidPositionError
``parse_field``, ``Direction``    NotationError
``records.read_records``          RecordError (a NotationError)
``abstractplay.parse_move``       NotationError, IllegalMoveError
LSD moves and positions           NotationError, IllegalMoveError, InvalidPositionError
================================  ===========================================
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacru import (
    ChevronState,
    Direction,
    Game,
    GameState,
    IllegalMoveError,
    InvalidPositionError,
    Move,
    NotationError,
    from_position,
    parse_field,
)
from pacru import abstractplay as ap
from pacru.chevron.move import MAX_MOVE_TEXT
from pacru.chevron.notation import MAX_POSITION_TEXT
from pacru.lsd import LsdMove
from pacru.records import (
    MAX_RECORD_TEXT,
    MAX_TOKEN,
    RecordError,
    read_records,
    record_from_game,
    write_record,
)
from pacru.strategies import GameSpec, mutated_texts

from .support import GAMES


def _corpus_games() -> list[list[GameState[Any]]]:
    """Seeded random games of every game and player count, kept whole."""
    rng = random.Random(20250301)
    out = []
    for game in GAMES:
        for players in (2, 3, 4):
            state = GameSpec(game, players).new()
            states = [state]
            for _ in range(rng.randrange(20, 120)):
                moves = state.legal_moves()
                if not moves:
                    break
                state = state.apply_move(moves[rng.randrange(len(moves))])
                states.append(state)
            out.append(states)
    return out


GAMES_PLAYED: Final = _corpus_games()
STATES: Final = [s for game in GAMES_PLAYED for s in game[:: max(1, len(game) // 5)]]
CHEVRON_STATES: Final = [s for s in STATES if isinstance(s, ChevronState)]
LSD_STATES: Final = [s for s in STATES if s.game == "lsd"]
MOVES: Final = sorted(
    {str(m) for s in STATES for m in list(s.legal_moves())[:40]}
    | {"pass", "e5>(a1,a2)", "d9>>(a7,b5,b7,c4)", "e3xe4+e6@i9", "g9-e7*", "a3-b4>"}
)
CHEVRON_MOVES: Final = [m for m in MOVES if "@" not in m or "+" in m or m[0] in "abcdefghi"]
POSITIONS: Final = sorted({s.to_position() for s in STATES})


def _texts(corpus: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        mutated_texts(st.sampled_from(corpus)),
        st.text(max_size=80),
        st.sampled_from(corpus),
    )


def _only(errors: tuple[type[Exception], ...], call: Callable[[], Any]) -> Any:
    """``call()``, or None if it raised one of ``errors``; any other exception fails."""
    try:
        return call()
    except errors:
        return None


@given(_texts(MOVES))
def test_fuzz_move_parse(text: str) -> None:
    """Move.parse raises only NotationError; what it parses prints canonically and parses back."""
    move = _only((NotationError,), lambda: Move.parse(text))
    if move is not None:
        assert len(text) <= MAX_MOVE_TEXT
        assert Move.parse(str(move)) == move


@given(st.sampled_from(CHEVRON_STATES), _texts(MOVES))
def test_fuzz_state_parse_move(state: ChevronState, text: str) -> None:
    """parse_move and apply_move raise only NotationError or IllegalMoveError, and change
    nothing; an accepted text is a listed move."""
    before = state.to_position()
    move = _only((NotationError, IllegalMoveError), lambda: state.parse_move(text))
    after = _only((NotationError, IllegalMoveError), lambda: state.apply_move(text))
    assert (move is None) == (after is None)
    if move is not None:
        assert move in state.legal_moves()
    assert state.to_position() == before


@given(_texts(POSITIONS))
def test_fuzz_from_position(text: str) -> None:
    """from_position raises only NotationError or InvalidPositionError; a position it reads
    writes itself back in canonical form, which reads to the same state."""
    state = _only((NotationError, InvalidPositionError), lambda: from_position(text))
    if state is not None:
        assert len(text) <= MAX_POSITION_TEXT
        assert from_position(state.to_position()) == state


@given(st.text(max_size=12) | mutated_texts(st.sampled_from(["e5", "a1", "i9", "NE", "sw"])))
def test_fuzz_fields_and_directions(text: str) -> None:
    """parse_field and Direction.parse raise only NotationError {G1, G3}."""
    field = _only((NotationError,), lambda: parse_field(text))
    if field is not None:
        assert 0 <= field <= 80
    _only((NotationError,), lambda: Direction.parse(text))


@pytest.mark.parametrize("value", [None, 5, b"e4-e5", ["e4-e5"], 4.5])
def test_parsers_reject_non_strings(value: Any) -> None:
    """A non-string is a NotationError, not a TypeError or AttributeError."""
    with pytest.raises(NotationError):
        Move.parse(value)
    with pytest.raises(NotationError):
        from_position(value)


def test_move_parser_length_limit() -> None:
    """MAX_MOVE_TEXT (64) characters are read; one more is a NotationError at once."""
    at_limit = "e4-e5".center(MAX_MOVE_TEXT)
    assert Move.parse(at_limit) == Move.parse("e4-e5")
    with pytest.raises(NotationError, match="longer than 64"):
        Move.parse(at_limit + " ")
    with pytest.raises(NotationError, match="longer than 64"):
        CHEVRON_STATES[0].parse_move("e4-e5" * 10**6)


def test_position_parser_length_limit() -> None:
    """MAX_POSITION_TEXT (4096) characters are read; one more is a NotationError at once."""
    text = POSITIONS[0]
    padded = text + " " * (MAX_POSITION_TEXT - len(text))
    assert from_position(padded) == from_position(text)
    with pytest.raises(NotationError, match="longer than 4096"):
        from_position(padded + " ")
    with pytest.raises(NotationError, match="longer than 4096"):
        from_position(text * 10**4)


RECORDS: Final = [
    write_record(record_from_game(Game(g[0], [s.last_move for s in g[1:]]), Event="fuzz"))
    for g in GAMES_PLAYED
]


@given(_texts(RECORDS) | mutated_texts(st.sampled_from(RECORDS)).map(lambda t: t[:4000]))
def test_fuzz_read_records(text: str) -> None:
    """read_records raises only RecordError; what it reads writes back and reads again."""
    records = _only((RecordError,), lambda: read_records(text))
    for record in records or ():
        assert read_records(write_record(record)) == [record]


def test_record_reader_limits() -> None:
    """Texts over MAX_RECORD_TEXT and moves over MAX_TOKEN are RecordErrors ("too-long")."""
    with pytest.raises(RecordError) as err:
        read_records(" " * (MAX_RECORD_TEXT + 1))
    assert err.value.reason == "too-long"
    record = RECORDS[0].rstrip().rsplit("\n", 1)[0]
    with pytest.raises(RecordError):
        read_records(record + "\n\n" + "e" * (MAX_TOKEN + 1) + " *\n")


AP_STATES: Final = [s for s in CHEVRON_STATES if s.game in ap.AP_GAMES]
AP_MOVES: Final = sorted(
    {ap.format_move(s, m) for s in AP_STATES for m in list(s.legal_moves())[:40]}
    | {"e3xe4(e6,i9)", "a4-a6(*,i9)", "d9>>(a7,b7,b5,c4)", "a3-b4^", "pass"}
)


@given(st.sampled_from(AP_STATES), _texts(AP_MOVES))
def test_fuzz_abstractplay_parse_move(state: ChevronState, text: str) -> None:
    """abstractplay.parse_move raises only NotationError or IllegalMoveError (NOTATION-AP);
    what it reads is a legal move that formats back to text it reads the same way."""
    move = _only((NotationError, IllegalMoveError), lambda: ap.parse_move(state, text))
    if move is not None:
        assert len(text) <= ap.MAX_AP_MOVE_TEXT
        assert move in state.legal_moves()
        assert ap.parse_move(state, ap.format_move(state, move)) == move


def test_abstractplay_length_limit() -> None:
    """AP move texts over MAX_AP_MOVE_TEXT (200) are a NotationError."""
    state = ap.new_game("pacru", 2)
    with pytest.raises(NotationError, match="longer than"):
        ap.parse_move(state, "a3-b3" + " " * ap.MAX_AP_MOVE_TEXT)


def test_numbers_in_chevron_positions_are_ascii() -> None:
    """Counters take ASCII digits only: ``²`` and ``٣`` pass str.isdigit() but are no
    number of the format (a NotationError, not int()'s ValueError)."""
    base = "pacru players=a,b chevrons=a:e4N;b:e6S"
    for bad in ("ply=\u00b2", "ply=\u0663", "idle=\uff17"):
        with pytest.raises(NotationError, match="must be a whole number"):
            from_position(f"{base} {bad}")
    with pytest.raises(InvalidPositionError, match=r"ply is too large: .*\(3000 characters\)"):
        from_position(f"{base} ply={'9' * 3000}")


@pytest.mark.parametrize(
    "text",
    ["B+NESW@" + "9" * 5000 + ",0", "B+NESW@\u0660,\u0660", "B+NESW@\u00b2,0"],
)
def test_lsd_move_numbers_are_ascii_and_bounded(text: str) -> None:
    """A huge coordinate or one in non-ASCII digits is a NotationError like any other
    bad move text (not int()'s ValueError, and no silent reading of other scripts)."""
    with pytest.raises(NotationError):
        LsdMove.from_text(text)


@pytest.mark.parametrize("option", ["row=\u00b2", "row=" + "9" * 5000, "row=\u0663"])
def test_lsd_position_numbers_are_ascii_and_bounded(option: str) -> None:
    """A row length in non-ASCII digits or of thousands of digits is a NotationError."""
    with pytest.raises(NotationError):
        from_position(f"lsd red:B,yellow:W - - red {option}")


LSD_MOVES: Final = sorted({str(m) for s in LSD_STATES for m in s.legal_moves()[:60]})
LSD_POSITIONS: Final = sorted({s.to_position() for s in LSD_STATES})


@given(st.sampled_from(LSD_STATES), _texts(LSD_MOVES))
def test_fuzz_lsd_moves(state: Any, text: str) -> None:
    """LSD move texts: LsdMove.from_text raises only NotationError; parse_move and
    apply_move only NotationError or IllegalMoveError (LSD moves grammar)."""
    move = _only((NotationError,), lambda: LsdMove.from_text(text))
    if move is not None:
        assert LsdMove.from_text(str(move)) == move
    legal = _only((NotationError, IllegalMoveError), lambda: state.parse_move(text))
    if legal is not None:
        assert legal in state.legal_moves()
    _only((NotationError, IllegalMoveError), lambda: state.apply_move(text))


@given(_texts(LSD_POSITIONS))
def test_fuzz_lsd_positions(text: str) -> None:
    """LSD position strings: only NotationError or InvalidPositionError; round trip."""
    state = _only((NotationError, InvalidPositionError), lambda: from_position(text))
    if state is not None:
        assert from_position(state.to_position()) == state


# -- regressions: crashes found by fuzzing (issue 16) --------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"origin": 4.0, "target": 5},
        {"origin": 4, "target": 5.0},
        {"origin": True, "target": 5},
        {"origin": 4, "turn": 1, "relinquished": (3, 3)},
        {"origin": 4, "turn": 1, "relinquished": (3, 81)},
        {"origin": 4, "turn": 1, "relinquished": (-1, 3)},
        {"origin": 4, "turn": 1, "relinquished": "ab"},
        {"origin": 4, "target": 5, "twist": True},
        {"origin": 4, "target": 5, "capture": 1},
        {"origin": 4, "turn": 1.0, "relinquished": (1, 2)},
    ],
)
def test_move_constructor_refuses_what_it_cannot_write(fields: dict[str, Any]) -> None:
    """Move() refuses non-int, out-of-range or repeated fields and non-bool flags with a
    ValueError at once, so every Move it builds satisfies Move.parse(str(m)) == m."""
    with pytest.raises(ValueError, match=r"field|twist|turn|capture"):
        Move(**fields)


def test_move_constructor_round_trips_what_it_accepts() -> None:
    """A reorientation built from a list of fields is sorted and reads back."""
    move = Move(origin=40, turn=-1, relinquished=[9, 0])
    assert move.relinquished == (0, 9)
    assert Move.parse(str(move)) == move == Move.parse("e5<(a1,a2)")


def test_large_ply_reads_back_after_a_move() -> None:
    """ply=999999999 loads and, one move later, the position written (ply=1000000000)
    reads back to the same state."""
    state = from_position("shacru players=green,yellow chevrons=green:e4N;yellow:e6S ply=999999999")
    assert isinstance(state, ChevronState)
    after = state.apply_move(state.legal_moves()[0])
    assert after.ply == 10**9
    assert from_position(after.to_position()) == after


def test_non_ascii_colours_are_refused_by_new_game() -> None:
    """new_game refuses colours the position string cannot write, like "grün"."""
    from pacru import new_game

    with pytest.raises(ValueError, match="ASCII, a letter first"):
        new_game("pacru", colours=["grün", "yellow"])
    with pytest.raises(ValueError, match="colour names"):
        new_game("pacru", colours=[1, 2])  # type: ignore[list-item]
    state = new_game("pacru", colours=["Red", "yel-1"])
    assert from_position(state.to_position()) == state


@pytest.mark.parametrize(
    "final",
    [
        {"chevrons": [[]]},
        {"chevrons": [["e1", 1]]},
        {"chevrons": 5},
        {"markers": [1]},
        {"markers": {"1": [3]}},
        {"markers": {"1": "e1"}},
    ],
)
def test_compare_final_refuses_malformed_final(final: dict[str, Any]) -> None:
    """A malformed "final" is a ValueError naming the key, not an IndexError."""
    with pytest.raises(ValueError, match="must"):
        ap.compare_final(ap.new_game("pacru", 2), final)


def test_lsd_tiles_near_the_coordinate_limit_are_refused() -> None:
    """A tile so far out that play could leave the coordinate range is an
    InvalidPositionError on reading, not a bare ValueError from legal_moves()."""
    with pytest.raises(InvalidPositionError, match="from \\(0, 0\\)"):
        from_position("lsd red:B,yellow:W 0B+N@0,-2047 - yellow")
    far = from_position("lsd red:B,yellow:W 0B+N@0,-2000 - yellow")
    assert len(far.legal_moves()) == 16


def test_lsd_rule_tables_are_read_only() -> None:
    """Rules are shared by every game with the same options: their tables cannot change."""
    import pickle

    from pacru import new_game

    state = new_game("lsd")
    with pytest.raises((AttributeError, TypeError)):
        state.rules.kind_of[0].clear()  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        state.rules.kind_of[0][0] = 1  # type: ignore[index]
    assert len(new_game("lsd").legal_moves()) == 30
    assert pickle.loads(pickle.dumps(state)) == state


# -- the entry points of issue 16: SAN, lookups, diagrams, tolerant records ----------------------


@given(st.sampled_from(STATES), _texts(MOVES))
def test_fuzz_san_and_lookups(state: GameState[Any], text: str) -> None:
    """parse_san raises only NotationError or IllegalMoveError and gives a listed move whose
    SAN reads back; ``in`` and is_legal never raise."""
    moves = state.legal_moves()
    move = _only((NotationError, IllegalMoveError), lambda: state.parse_san(text))
    if move is not None:
        assert move in moves
        assert state.parse_san(state.san(move)) == move
    assert (text in moves) == state.is_legal(text)


@given(st.sampled_from(STATES), st.text(max_size=12) | st.sampled_from(["e4", "a1", "0,0", "1,0"]))
def test_fuzz_from_field(state: GameState[Any], text: str) -> None:
    """from_field takes a field (chevron games) or cell (LSD) text; else a NotationError or
    ValueError; every move it gives is legal."""
    found = _only((NotationError, ValueError), lambda: state.legal_moves().from_field(text))  # type: ignore[attr-defined]
    for move in found or ():
        assert move in state.legal_moves()


@given(_texts(POSITIONS))
def test_fuzz_unadjudicated_positions(text: str) -> None:
    """from_position(..., adjudicate=False) raises only NotationError or InvalidPositionError;
    status() and legal_moves() never raise; the position reads back unadjudicated."""
    state = _only(
        (NotationError, InvalidPositionError), lambda: from_position(text, adjudicate=False)
    )
    if state is not None:
        state.status()
        state.legal_moves()
        if not state.is_terminal:
            assert from_position(state.to_position(), adjudicate=False) == state


@given(mutated_texts(st.sampled_from(RECORDS)).map(lambda t: t[:4000]))
def test_fuzz_tolerant_records(text: str) -> None:
    """The tolerant reader never raises on text within the limits; the moves it keeps
    before an illegal one (or of a good game) write back and read back strictly."""
    for record in read_records(text, strict=False):
        if any(error.ply is None for error in record.errors):
            continue  # unreadable text, a bad set-up or result: kept as found
        assert read_records(write_record(record)) == [record]
