"""The :class:`Bot` protocol and the helpers every bot shares.

A bot sees only the common :class:`pacru.GameState` protocol, so every bot
plays every game: Lilacru, Shacru, Azacru, Pacru and LSD, with 2 to 4
players. The one game-specific shortcut is optional: when ``legal_moves()``
is a chevron :class:`pacru.LegalMoves`, bots may sample by *family* (one
chevron step or pincer with its choices, or one chevron's reorientation by
one turn) instead of by complete move; see :func:`sample_move`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from pacru.base import GameState, Termination
from pacru.chevron.move import Move
from pacru.chevron.movelist import LegalMoves
from pacru.game import Game

__all__ = [
    "Bot",
    "Forfeit",
    "Uniform",
    "outcome_rewards",
    "play_game",
    "sample_move",
    "score_rewards",
]

MoveT = TypeVar("MoveT")

#: How :func:`sample_move` draws: ``"families"`` (a family first, then a
#: move within it) or ``"moves"`` (uniformly over every complete move).
Uniform = Literal["families", "moves"]


@runtime_checkable
class Bot(Protocol):
    """A player: given a position, it chooses one legal move.

    Implementations take their randomness from a ``seed`` given to the
    constructor (``None`` draws a fresh seed), so a bot built with the same
    seed and shown the same positions in the same order chooses the same
    moves. ``time_limit`` (seconds, optional) bounds the thinking time of
    bots that search; a time-bounded search is no longer deterministic.

    ``Bot`` is a protocol and a base class at once: any object with ``name``
    and ``choose_move`` is a bot (``isinstance(obj, Bot)`` checks for the
    two members), and the built-in bots subclass it explicitly, so that
    ``[RandomBot(), MCTSBot()]`` is inferred as ``list[Bot]`` by type
    checkers. Your own bots may do either.

    Attributes:
        name: a short label for tables and records, e.g. ``"mcts(iterations=400)"``.
    """

    name: str

    def choose_move(self, state: GameState[MoveT]) -> MoveT:
        """A legal move of ``state`` (a position that is not over).

        Raises:
            GameOverError: ``state`` is over (no move to choose).
        """
        ...


class Forfeit(Exception):
    """Raised by a bot's ``choose_move`` that gives the game up: its seat loses.

    :func:`pacru.bots.arena.play_task` ends the game there: the bot's seat
    loses and the other seats share the win (termination ``"forfeit"``, the
    message as the game's ``reason``). :class:`pacru.bots.engine.EngineBot`
    raises it when its program misbehaves (an illegal move, silence past the
    budget, an exit); your own bot may raise it to resign.
    """


def sample_move(
    state: GameState[MoveT], rng: random.Random, uniform: Uniform = "families"
) -> MoveT:
    """A random legal move of ``state``.

    With ``uniform="families"`` (the default) and a chevron game, a family
    is drawn uniformly among ``moves.steps + moves.reorientations``, then a
    move uniformly within it (``family.get(rng.randrange(family.size))``).
    The reason is Pacru's reorientations {R14}: a chevron's reorientation by
    one turn is one family holding every set of relinquished own fields, so
    a position with 20 free own fields has 4 x C(20, 4) + 4 x C(20, 2) moves
    per chevron, thousands of reorientations against a few dozen steps. A
    uniform draw over complete moves would almost always reorient and
    random games would hardly move. ``uniform="moves"`` draws uniformly over
    every complete move instead (``moves[rng.randrange(len(moves))]``).
    Games whose ``legal_moves()`` is a plain sequence (LSD), and a chevron
    player whose only move is ``pass``, always draw uniformly over moves.

    Raises:
        GameOverError: ``state`` is over.
        ValueError: ``uniform`` is neither ``"families"`` nor ``"moves"``.
    """
    moves = state.legal_moves()
    if uniform == "families":
        if isinstance(moves, LegalMoves):
            move: Any = moves._family_draw(rng.randrange)
            if move is not None:
                return move  # type: ignore[no-any-return]
    elif uniform != "moves":
        raise ValueError(f"uniform must be 'families' or 'moves', not {uniform!r}")
    if not moves:
        from pacru.errors import GameOverError

        raise GameOverError("no legal move: the game is over")
    return moves[rng.randrange(len(moves))]


def sample_reorientations(moves: LegalMoves, draws: int, rng: random.Random) -> list[Move]:
    """Up to ``draws`` distinct reorientations {R14}, each a family then a field set.

    Bots that weigh moves one by one cannot look at every reorientation (a
    position can have thousands), so they consider this sample.
    """
    return draw_reorientations(moves, moves._family_bounds()[1], draws, rng)


def draw_reorientations(
    moves: LegalMoves, turns: Sequence[tuple[int, int]], draws: int, rng: random.Random
) -> list[Move]:
    """:func:`sample_reorientations` given the ``(start, size)`` of each reorientation
    family in ``moves``: the same draws pick the same moves, by index."""
    return [moves[i] for i in reorientation_indexes(turns, draws, rng)]


def reorientation_indexes(
    turns: Sequence[tuple[int, int]], draws: int, rng: random.Random
) -> list[int]:
    """The indexes of the moves :func:`draw_reorientations` draws, in its order."""
    chosen: dict[int, None] = {}
    if turns:
        randrange = rng.randrange
        for _ in range(draws):
            start, size = turns[randrange(len(turns))]
            chosen[start + randrange(size)] = None
    return list(chosen)


def score_rewards(state: GameState[Any]) -> tuple[float, ...]:
    """Rewards in turn order from the scores: the top scorers share 1 (ruling D35's tie rule).

    Used to judge a game cut short, e.g. at a rollout's move cap (ruling D32).
    """
    scores = list(state.scores.values())
    best = max(scores)
    leaders = scores.count(best)
    return tuple(1.0 / leaders if s == best else 0.0 for s in scores)


def outcome_rewards(state: GameState[Any]) -> tuple[float, ...]:
    """Rewards in turn order of a finished game: 1 split equally among the winners.

    A game ended by a move cap (Termination.MOVE_CAP, ruling D32) has no
    winner; it is judged by :func:`score_rewards`. Any other game without
    winner (an LSD block) gives every player ``1 / players``.

    Raises:
        ValueError: the game is not over.
    """
    outcome = state.outcome
    if outcome is None:
        raise ValueError("the game is not over")
    players = state.players
    if outcome.winners:
        share = 1.0 / len(outcome.winners)
        return tuple(share if p in outcome.winners else 0.0 for p in players)
    if outcome.termination is Termination.MOVE_CAP:
        return score_rewards(state)
    return tuple(1.0 / len(players) for _ in players)


def play_game(
    state: GameState[Any] | Game[Any],
    bots: Sequence[Bot] | Mapping[str, Bot],
    *,
    max_plies: int | None = None,
) -> GameState[Any]:
    """Play ``state`` out with ``bots`` and return the last state.

    Args:
        state: the starting position; or a :class:`pacru.Game`, played on
            from its current state, which then holds the moves played.
        bots: one bot per player, in turn order (``state.players``), or a
            mapping colour -> bot.
        max_plies: stop after this many plies even if the game goes on
            (the returned state then has no outcome).

    Raises:
        ValueError: not one bot per player.
        IllegalMoveError: a bot chose an illegal move.
    """
    game = state if isinstance(state, Game) else None
    position: GameState[Any] = state.state if isinstance(state, Game) else state
    players = position.players
    table = dict(bots) if isinstance(bots, Mapping) else dict(zip(players, bots, strict=False))
    if len(bots) != len(players) or set(table) != set(players):
        raise ValueError(f"need one bot per player ({', '.join(players)}), got {len(bots)}")
    plies = 0
    while max_plies is None or plies < max_plies:
        player = position.current_player
        if player is None:  # the game is over
            break
        move = table[player].choose_move(position)
        position = position.apply_move(move) if game is None else game.push(move)
        plies += 1
    return position
