"""Helpers of the encoding tests: walk every action sequence of a position."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

import pacru
from pacru.base import GameState
from pacru.encoding import Decision, Encoding

#: Positions with more legal moves than this are checked on a sample (see check_exact).
FULL_WALK_LIMIT = 3000


def leaves(decision: Decision) -> Iterator[Decision]:
    """Every finished decision reachable from ``decision``, depth first."""
    if decision.done:
        yield decision
        return
    assert decision.legal_actions, "a decision that is not done has a legal action"
    assert list(decision.legal_actions) == sorted(set(decision.legal_actions))
    mask = decision.legal_action_mask()
    assert mask.dtype == np.bool_
    assert mask.shape == (decision.encoding.num_actions,)
    assert np.flatnonzero(mask).tolist() == list(decision.legal_actions)
    if decision.prefix:  # later decisions with one action are taken automatically
        assert len(decision.legal_actions) > 1
    for action in decision.legal_actions:
        yield from leaves(decision.choose(action))


def check_exact(state: GameState[Any], limit: int = FULL_WALK_LIMIT) -> int:
    """Assert that the moves reached through decisions are exactly the legal moves.

    Walks every action sequence when the position has at most ``limit`` legal
    moves: each leaf is a legal move, no move is reached twice, every legal
    move is reached, ``actions``/``move`` invert each other, and no sequence is
    longer than ``max_decisions``. Larger positions (Pacru reorientations run
    to hundreds of thousands) are checked on every 97th legal move and on
    random descents. Returns the number of moves checked.
    """
    enc = Encoding.of(state)
    legal = state.legal_moves()
    if state.is_terminal:
        assert not legal
        return 0
    n = len(legal)
    root = enc.start(state)
    assert root.prefix == ()
    assert state.current_player is not None
    assert root.player == state.players.index(state.current_player)
    if n <= limit:
        seen: set[Any] = set()
        for leaf in leaves(root):
            move = leaf.move
            assert move in legal, move
            assert move not in seen, f"{move} reached twice"
            seen.add(move)
            assert 1 <= len(leaf.prefix) <= enc.max_decisions
            assert enc.actions(state, move) == leaf.prefix
            assert enc.move(state, leaf.prefix) == move
        assert len(seen) == n, f"{n - len(seen)} legal moves unreachable"
        return n
    for index in range(0, n, 97):
        move = legal[index]
        actions = enc.actions(state, move)
        assert 1 <= len(actions) <= enc.max_decisions
        assert enc.move(state, actions) == move
    rng = random.Random(n)
    for _ in range(200):
        decision = root
        while not decision.done:
            assert len(decision.legal_actions) > (1 if decision.prefix else 0)
            decision = decision.choose(rng.choice(decision.legal_actions))
        assert decision.move in legal
        assert enc.actions(state, decision.move) == decision.prefix
    return len(range(0, n, 97)) + 200


def scenario_positions() -> list[str]:
    """Every chevron position string typed in tests/chevron/*.py (rulebook scenarios)."""
    texts: list[str] = []
    heads = tuple(f"{g} " for g in pacru.CHEVRON_GAMES)
    for path in sorted((Path(__file__).parents[1] / "chevron").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.startswith(heads)
                and " players=" in node.value
                and "{" not in node.value
            ):
                texts.append(node.value)
    return list(dict.fromkeys(texts))


def valid_positions(texts: list[str]) -> list[GameState[Any]]:
    """The positions among ``texts`` that parse (some tests type invalid ones on purpose)."""
    out: list[GameState[Any]] = []
    for text in texts:
        try:
            out.append(pacru.from_position(text))
        except pacru.PacruError:
            continue
    return out
