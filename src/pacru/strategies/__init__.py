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

try:
    import hypothesis as _hypothesis  # noqa: F401
except ImportError as _err:  # pragma: no cover - exercised by a test that hides Hypothesis
    raise ImportError(
        "pacru.strategies needs Hypothesis: install it with `pip install hypothesis` "
        "or `pip install pacru[test]`"
    ) from _err

from pacru.strategies.play import (
    GameSpec,
    Playout,
    available_games,
    boards,
    games,
    legal_moves,
    playouts,
    states,
)
from pacru.strategies.texts import (
    MUTATION_ALPHABET as MUTATION_ALPHABET,
)
from pacru.strategies.texts import (
    illegal_move_texts,
    move_texts,
    mutated_texts,
    position_strings,
)

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
