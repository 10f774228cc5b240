"""The lazy move list: counting without building, decoding, immutability (issue 12).

Everything here runs the same on both engines (``.ci/run`` runs the suite on each).
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
from attrs.exceptions import FrozenInstanceError

import pacru
from pacru.chevron.families import options_size
from pacru.chevron.move import Move
from pacru.chevron.movelist import LegalMoves, ReorientationFamily, StepFamily
from pacru.chevron.rules import SUPPLY, rules_for
from pacru.geometry import BETWEEN, LINE


def _random_states(game: str, players: int, count: int, seed: int) -> list[pacru.ChevronState]:
    """``count`` positions of uniformly random games (``rng.choice`` over every move)."""
    rng = random.Random(seed)
    out: list[pacru.ChevronState] = []
    state = pacru.new_game(game, players)
    assert isinstance(state, pacru.ChevronState)
    while len(out) < count:
        if state.outcome is not None:
            state = pacru.new_game(game, players)
            assert isinstance(state, pacru.ChevronState)
        out.append(state)
        state = state.apply_move(rng.choice(state.legal_moves()))
    return out


@pytest.mark.parametrize(
    ("game", "players"),
    [("pacru", 2), ("pacru", 4), ("azacru", 3), ("shacru", 2), ("lilacru", 2)],
)
def test_counted_sizes_match_the_built_choices(game: str, players: int) -> None:
    """A step's size is counted without its choices; building them gives the same count,
    and the list decodes, iterates and contains exactly those moves {R4-R14}."""
    for state in _random_states(game, players, 150, seed=12):
        moves = state.legal_moves()
        n = len(moves)  # counted: no family built yet
        families = moves.steps
        assert [f.size for f in families] == [options_size(f.options) for f in families]
        listed = list(moves)
        assert len(listed) == n
        rng = random.Random(n)
        for i in {0, n - 1, *(rng.randrange(n) for _ in range(5))}:
            assert moves[i] == listed[i]
            assert Move.parse(str(listed[i])) in moves  # an equal move, not the one handed out
        assert moves[-1] == listed[-1]


def test_pacru_start_counts() -> None:
    # Green's opening moves in 2-player Pacru: 12 steps, two crossings into the
    # neutral b5 and h5 borderlands with 9 marker fields each {R4, R6}, no reorientation.
    state = pacru.new_game("pacru", 2)
    assert isinstance(state, pacru.ChevronState)
    moves = state.legal_moves()
    assert len(moves) == 28
    assert [f.size for f in moves.steps] == [1, 1, 1, 9, 1, 1, 1, 1, 9, 1, 1, 1]
    assert moves.reorientations == ()
    assert str(moves[3]) == "a3-b4+a4"
    assert str(moves[11]) == "a3-b4+c6"


def test_a_move_handed_out_is_legal_without_a_second_check() -> None:
    state = pacru.new_game("pacru", 2)
    moves = state.legal_moves()
    move = moves[5]
    assert move in moves
    assert state.apply_move(move) == state.apply_move(str(move))


def test_negative_index_and_slices() -> None:
    moves = pacru.new_game("shacru", 2).legal_moves()
    assert moves[-1] == list(moves)[-1]
    assert moves[1:4] == tuple(list(moves)[1:4])
    with pytest.raises(IndexError):
        moves[len(moves)]


def test_not_a_virtual_subclass_of_its_sequence_base() -> None:
    # Compiled, a Sequence subclass must not share Sequence's registry of virtual subclasses.
    assert not isinstance((), LegalMoves)
    assert not isinstance([], LegalMoves)
    assert isinstance(pacru.new_game("pacru", 2).legal_moves(), LegalMoves)


def _assignments(obj: Any, names: list[str]) -> list[str]:
    """The names among ``names`` that ``obj`` let be assigned or deleted."""
    changed = []
    for name in names:
        try:
            setattr(obj, name, ())
            changed.append(name)
        except (AttributeError, TypeError):
            pass
        try:
            delattr(obj, name)
            changed.append(f"del {name}")
        except (AttributeError, TypeError):
            pass
    return changed


def test_legal_moves_and_families_refuse_assignment() -> None:
    state = pacru.from_position(
        "pacru players=red,blue markers=red:a1,a2,a3,b1,b2 chevrons=red:e5N,c3E;blue:i9S"
    )
    assert isinstance(state, pacru.ChevronState)
    moves = state.legal_moves()
    assert moves.steps
    assert moves.reorientations
    public = ["steps", "reorientations", "families", "is_pass", "anything", "_impl"]
    assert _assignments(moves, public) == []
    with pytest.raises(FrozenInstanceError):
        moves.anything = ()  # type: ignore[attr-defined]
    step = moves.steps[0]
    with pytest.raises(AttributeError):
        step.origin = 3  # type: ignore[misc]
    assert _assignments(step, ["origin", "target", "capture", "options", "size", "anything"]) == []
    turn = moves.reorientations[0]
    with pytest.raises(AttributeError):
        turn.fields = ()  # type: ignore[misc]
    names = ["origin", "turn", "fields", "mask", "cost", "size", "anything"]
    assert _assignments(turn, names) == []
    # The list still holds what it held: a legal step stays legal, an illegal one illegal.
    assert "e5-e6" in [str(m) for m in moves]
    assert state.is_legal("e5-e6")
    assert not state.is_legal("e5-e4")


def test_moves_handed_out_are_frozen_moves_like_constructed_ones() -> None:
    """Steps, pincers and reorientations (with relinquished fields) come out of the list
    as the engine's move class (``pacru.Move``), frozen, equal and hashing equal to a Move
    built by its constructor."""
    state = pacru.from_position(
        "pacru players=red,blue markers=red:a1,a2,a3,b1,b2,e6 chevrons=red:e5N,c3E;blue:i9S"
    )
    assert isinstance(state, pacru.ChevronState)
    moves = state.legal_moves()
    assert any(m.relinquished for m in moves)
    assert any(m.target is not None for m in moves)
    fields = ["origin", "target", "capture", "twist", "turn", "connection", "marker"]
    fields += ["meeting", "relinquished"]
    for move in moves:
        assert type(move) is pacru.Move
        assert _assignments(move, [*fields, "anything"]) == []
        built = Move(**{name: getattr(move, name) for name in fields})
        assert built == move
        assert hash(built) == hash(move)


def test_families_built_by_hand() -> None:
    fam = StepFamily(60, 69, False, ((0, False, 71, (1 << 3) | (1 << 5)), (0, True, -1, 0)))
    assert fam.size == 3
    assert [str(m) for m in fam] == ["g7-g8+i8@d1", "g7-g8+i8@f1", "g7-g8*"]
    assert fam.get(2) == Move.parse("g7-g8*")
    assert fam.contains(Move.parse("g7-g8+i8@f1"))
    with pytest.raises(IndexError):
        fam.get(3)
    with pytest.raises(TypeError):
        StepFamily(60, 69, False)
    turn = ReorientationFamily(40, -1, (7, 9, 11))
    assert (turn.cost, turn.size, turn.mask) == (2, 3, (1 << 7) | (1 << 9) | (1 << 11))
    listed = LegalMoves.from_families([fam])
    assert list(listed) == list(fam)
    assert len(listed) == 3


def test_a_move_list_copies_as_itself_and_does_not_pickle() -> None:
    """A list is an immutable value (a copy is the list itself); it does not pickle, with
    the same message on either engine: its state pickles and makes it again."""
    state = pacru.new_game("pacru", players=2)
    moves = state.legal_moves()
    assert copy.copy(moves) is moves
    assert copy.deepcopy(moves) is moves
    assert copy.deepcopy({"moves": [moves]})["moves"][0] is moves
    with pytest.raises(TypeError, match=r"^a LegalMoves does not pickle: pickle its state"):
        pickle.dumps(moves)
    assert pickle.loads(pickle.dumps(state)).legal_moves() == moves


def test_rule_tables_are_read_only() -> None:
    with pytest.raises(TypeError):
        SUPPLY[2] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        LINE[0] = (0, 1)  # type: ignore[index]
    with pytest.raises(TypeError):
        BETWEEN[0] = 0  # type: ignore[index]
    with pytest.raises(FrozenInstanceError):
        rules_for("pacru").power = False  # type: ignore[misc]
    assert SUPPLY == {2: 42, 3: 28, 4: 24}


def test_a_list_of_reorientations_alone_is_true() -> None:
    """from_field() may keep one chevron's reorientations without steps {R14, D25}.

    The chevron on e1 (code 32: field 4, facing N) with 3 free own fields
    a1, b1, c1 may turn 45 degrees either way, giving up 2 of the 3: 6 moves.
    """
    moves = LegalMoves.from_families((), (32,), 0b111)
    assert len(moves) == 6
    assert bool(moves)
    assert [str(m) for m in moves] == [
        "e1<(a1,b1)",
        "e1<(a1,c1)",
        "e1<(b1,c1)",
        "e1>(a1,b1)",
        "e1>(a1,c1)",
        "e1>(b1,c1)",
    ]


def test_meeting_partner_table() -> None:
    """A chevron arriving on a field meets the own chevron on the next field ahead that
    faces back {R12, D21}; at the edge or facing elsewhere, nobody."""
    from pacru.chevron.movegen import _meeting_partner

    e5, e6, f5, e9 = 40, 49, 41, 76
    codes = (e6 * 8 + 4, f5 * 8 + 6)  # e6 facing S, f5 facing W
    met = {(t, d): _meeting_partner(codes, t, d) for t in range(81) for d in range(8)}
    assert {k: v for k, v in met.items() if v >= 0} == {(e5, 0): e6, (e5, 2): f5}
    assert _meeting_partner((e9 * 8 + 4,), e9, 0) == -1  # off the board northwards


def test_connection_change_is_one_rule_for_azacru_and_pacru() -> None:
    """A long unjumped move from an own field to an own field is a connection change
    {A-R7, R8, D13}; a jump {A-R8, R9, D11}, a one-field step or a pincer is not."""
    from pacru.chevron.movegen import _connection

    a1, a3, a4 = 0, 18, 27
    own = (1 << a1) | (1 << a3)
    assert _connection(own, a1, a3, 2, False, False)
    assert not _connection(own, a1, a3, 2, True, False)  # a connection jump (D11)
    assert not _connection(own, a1, a3, 2, False, True)  # a pincer
    assert not _connection(own, a1, a4, 3, False, False)  # a4 is not own
    assert not _connection(own | (1 << 9), a1, 9, 1, False, False)  # one field


def test_benefit_fields_are_the_markers_a_benefit_takes() -> None:
    """A connection change colours the intervening fields not yet own {R8}; a crossing
    marker its field {R4}; each takes a marker from the supply (D29)."""
    from pacru.chevron.movegen import benefit_fields

    a1, a2, a3, a4, e5 = 0, 9, 18, 27, 40
    own = (1 << a1) | (1 << a2) | (1 << a4)
    assert benefit_fields(own, a1, a4, True, -1) == 1 << a3  # a2 is already own
    assert benefit_fields(own, a1, a4, False, e5) == 1 << e5
    assert benefit_fields(own, a1, a4, False, -1) == 0
