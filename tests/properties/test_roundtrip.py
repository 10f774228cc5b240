"""Round trips: moves, positions, reprs, records and AbstractPlay strings.

* ``Move.parse(str(m)) == m`` and ``str(Move.parse(t)) == t`` for canonical
  text, in any case and with surrounding blanks (the grammar of
  :mod:`pacru.chevron.move`); LSD moves likewise (:mod:`pacru.lsd.moves`);
* ``from_position(s.to_position()) == s``, with the same string, outcome and
  legal moves; ``eval(repr(s)) == s``;
* a record written from a game reads back to the same moves and final state
  (:mod:`pacru.records`);
* AbstractPlay: ``parse_move(s, format_move(s, m)) == m`` and a played game
  replays from its AP strings (:mod:`pacru.abstractplay`).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import pacru
from pacru import ChevronState, Game, Move, from_position
from pacru.base import GameState
from pacru.chevron.move import Move as ChevronMove
from pacru.strategies import GameSpec, legal_moves, move_texts, playouts

from .support import CHEVRON, GAMES, budget, cases, game_playouts, game_states, move_signature


@cases(GAMES)
@budget(8)
@given(data=st.data())
def test_move_text_round_trip(game: str, players: int, data: st.DataObject) -> None:
    """Every legal move's text parses back to it, also upper-cased and padded; every
    well-formed text is canonical after one parse {chevron.move grammar, LSD 2.1}."""
    state = data.draw(game_states(game, players))
    moves = [data.draw(legal_moves(state)) for _ in range(5)] if state.legal_moves() else []
    for move in moves:
        text = str(move)
        assert state.parse_move(text) == move
        assert state.parse_move(f"  {text.upper()}\t") == move
        if isinstance(move, ChevronMove):  # a move of either engine's class
            assert Move.parse(text) == move
            assert repr(move) == f"Move.parse({text!r})"
            assert eval(repr(move), {"Move": Move}) == move
        else:
            assert type(move).from_text(text) == move
    for text in data.draw(st.lists(move_texts(state), max_size=5)):
        if isinstance(state, ChevronState):
            move = Move.parse(text)
            assert str(move) == text
            assert Move.parse(text.upper()) == move


@cases(GAMES)
@budget(8)
@given(data=st.data())
def test_position_round_trip(game: str, players: int, data: st.DataObject) -> None:
    """``from_position(to_position())`` gives an equal state with the same string, outcome,
    player to move and legal moves; ``repr`` evaluates back to an equal state."""
    state = data.draw(game_states(game, players))
    text = state.to_position()
    again = from_position(text)
    assert again == state
    assert again.to_position() == text
    assert again.outcome == state.outcome
    assert again.current_player == state.current_player
    assert dict(again.scores) == dict(state.scores)
    assert again.options() == state.options()
    if isinstance(state, ChevronState):
        assert move_signature(again) == move_signature(state)  # type: ignore[arg-type]
        assert eval(repr(state), {"pacru": pacru}) == state
    else:
        assert list(again.legal_moves()) == list(state.legal_moves())
    assert "\n" not in text
    assert text.split()[0] == game


@cases(GAMES, [2, 3, 4])
@budget(5)
@given(data=st.data())
def test_record_round_trip(game: str, players: int, data: st.DataObject) -> None:
    """``read_record(write_record(record_from_game(g)))`` replays to ``g.state`` with the
    same moves, result and set-up, from a standard start or a ``Position`` tag."""
    from pacru.records import read_record, record_from_game, write_record

    p = data.draw(game_playouts(game, players, max_plies=80))
    record = record_from_game(Game(p.start, p.moves), Event="property test")
    text = write_record(record)
    again = read_record(text)
    assert again.moves == tuple(str(m) for m in p.moves)
    final = again.replay()
    assert final == p.final
    assert final.to_position() == p.final.to_position()
    assert again.start() == p.start
    assert again.states() == p.states
    assert write_record(again) == text
    assert again.tag("Event") == "property test"


@cases(["pacru", "azacru"])
@budget(6)
@given(data=st.data())
def test_abstractplay_round_trip(game: str, players: int, data: st.DataObject) -> None:
    """Every move of a game started as AbstractPlay starts it converts to AP text and back
    to itself, and the AP strings replay to the same final state (NOTATION-AP, B.4)."""
    from pacru import abstractplay as ap

    spec = GameSpec(game, players, (("start_layout", "abstractplay"),))
    p = data.draw(playouts(specs=st.just(spec), max_plies=60))
    assert p.start == ap.new_game(game, players)
    texts = []
    for state, move in zip(p.states, p.moves, strict=False):
        assert isinstance(state, ChevronState)
        text = ap.format_move(state, move)
        assert ap.parse_move(state, text) == move
        assert ap.parse_move(state, f" {text.upper()} ") == move
        texts.append(text)
    assert ap.replay(game, players, texts) == p.final


def _random_game(spec: GameSpec, seed: int, plies: int) -> list[Any]:
    import random

    rng = random.Random(seed)
    state = spec.new()
    states = [state]
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.apply_move(moves[rng.randrange(len(moves))])
        states.append(state)
    return states


@cases(GAMES)
@budget(6)
@given(seed=st.integers(0, 2**32 - 1))
def test_seeded_random_play_is_deterministic(game: str, players: int, seed: int) -> None:
    """The same seed gives the same game: legal move lists are in a fixed order that depends
    only on the position (the same after reloading it), never on history or caches."""
    spec = GameSpec(game, players)
    first = _random_game(spec, seed, 120)
    second = _random_game(spec, seed, 120)
    assert [s.to_position() for s in first] == [s.to_position() for s in second]
    assert [s.last_move for s in first] == [s.last_move for s in second]
    for state in first[:: max(1, len(first) // 6)]:
        reloaded = from_position(state.to_position())
        moves, again = state.legal_moves(), reloaded.legal_moves()
        assert len(moves) == len(again)
        n = len(moves)
        for i in {0, n // 3, n // 2, n - 1} if n else ():
            assert moves[i] == again[i]


@cases(CHEVRON)
@budget(8)
@given(data=st.data())
def test_legal_move_order_is_documented(game: str, players: int, data: st.DataObject) -> None:
    """Legal moves come in the documented order (pacru.chevron.movelist): steps by chevron
    (ascending field), reorientations after them by chevron then turn, and indexing agrees
    with iteration."""
    state = data.draw(game_states(game, players))
    moves = state.legal_moves()
    assert isinstance(state, ChevronState)
    fields = [code >> 3 for code in state.chevrons[state.to_move]]
    step_origins = [fam.origin for fam in moves.steps]
    assert step_origins == sorted(step_origins, key=fields.index)
    turns = [(fields.index(r.origin), (-2, -1, 1, 2).index(r.turn)) for r in moves.reorientations]
    assert turns == sorted(turns)
    n = len(moves)
    if n <= 2000:
        listed = list(moves)
        assert [moves[i] for i in range(n)] == listed
        assert [moves[i - n] for i in range(n)] == listed
        firsts = [m.origin for m in listed if m.target is not None or m.origin is None]
        assert firsts == sorted(firsts, key=lambda f: -1 if f is None else fields.index(f))


@cases(GAMES, [2, 4])
@budget(4)
@given(seed=st.integers(0, 2**32 - 1), bot=st.sampled_from(["random", "greedy"]))
def test_seeded_bots_replay_the_same_game(game: str, players: int, seed: int, bot: str) -> None:
    """Bots built with the same seeds play the same game, also from a reloaded position (the
    determinism pacru.bots documents)."""
    from pacru.bots import make_bot, play_game

    def bots() -> list[Any]:
        return [make_bot(bot, seed=seed + i) for i in range(players)]

    start = GameSpec(game, players).new()
    loaded: GameState[Any] = from_position(start.to_position())
    first, second = Game(start), Game(loaded)
    play_game(first, bots(), max_plies=60)
    play_game(second, bots(), max_plies=60)
    assert first.moves == second.moves
    assert first.state.to_position() == second.state.to_position()
