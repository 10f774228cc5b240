"""Native alpha-beta search with a learned evaluation: :class:`SearchBot` (``"search"``).

=================  ==========================================================
games              the four chevron games (Lilacru, Shacru, Azacru, Pacru),
                   2 to 4 players; not LSD
search             iterative deepening alpha-beta in the Rust crate
                   ``pacru_search``, run without the GIL; two players:
                   minimax; three or four: *paranoid* (every other player is
                   assumed to play against the bot), so pruning still works
move ordering      transposition-table move (zobrist hash of the position),
                   pincers {R11}, moves gaining a field or a marker, two
                   killer moves per ply, history counts
reorientations     searched by family: one member per chevron and turn, the
                   one giving up the own fields in the borderland of the
                   fewest own chevrons {R5, R14}, instead of every set of
                   relinquished fields (tens of thousands of moves)
evaluation         a logistic model of the chance to win on 15 features per
                   player (markers, chevrons, chevrons that can move, step
                   families, pincers it can make, its chevrons under a pincer
                   threat, power of movement, field-gaining steps, the move,
                   the race to the marker target, the approach to unmarked
                   fields; in Lilacru and Shacru the territory, the neutral
                   fields it reaches first, and the steps to the nearest
                   one), each as the player's count minus the other players'
                   mean; the idle limit (D33) is won by the most markers, so
                   the player behind acquires; the weights were fitted by
                   self-play (``scripts/train_eval.py``) and ship as package
                   data (``pacru/bots/data/search_weights.json``)
budget             ``nodes`` (positions visited) and/or ``time_limit``
                   seconds; the same ``seed`` and ``nodes`` give the same moves
Ctrl-C             the search runs on a thread of its own while the calling
                   thread looks for signals every few milliseconds: it stops
                   at once and ``choose_move`` raises ``KeyboardInterrupt``
=================  ==========================================================

The search runs in the native extension ``pacru._native`` whatever
:data:`pacru.ENGINE` says (the engine boundary hands it over:
:meth:`pacru.chevron.engine.ExtensionSearch.searcher`): with ``PACRU_ENGINE=python``
the states are the Python engine's and the bot still plays (the move it
returns is an ordinary :class:`pacru.Move`). A build of pacru without the
extension cannot run it: the constructor raises :class:`SearchUnavailableError`.
"""

from __future__ import annotations

import json
import random
from functools import cache
from importlib import resources
from typing import Any, Final, TypeVar, cast

from pacru.base import GameState
from pacru.bots._budget import UINT64_MAX, optional_count, optional_seconds
from pacru.bots.base import Bot
from pacru.chevron.engine import SEARCH, SearchMove
from pacru.chevron.move import Move
from pacru.chevron.state import ChevronState
from pacru.errors import GameOverError

__all__ = ["SearchBot", "SearchUnavailableError", "load_weights", "position_fields"]

#: Nodes per move when neither ``nodes`` nor ``time_limit`` is given (about 0.1 s on
#: one core of a 2020s machine in Pacru-2p).
DEFAULT_NODES: Final = 50_000

_WEIGHTS_FILE: Final = "search_weights.json"

MoveT = TypeVar("MoveT")


class SearchUnavailableError(RuntimeError):
    """The native extension ``pacru._native`` that runs the search cannot be imported."""


def _searcher() -> SearchMove:
    """The native search, from the engine boundary (on either engine).

    Raises:
        SearchUnavailableError: pacru was built without its native extension.
    """
    search = SEARCH.searcher()
    if search is None:
        raise SearchUnavailableError(
            "SearchBot needs pacru's native extension (pacru._native), which this build "
            "of pacru lacks; use MCTSBot (--bot mcts), or install a wheel of pacru"
        )
    return search


def position_fields(state: ChevronState) -> tuple[Any, ...]:
    """``state`` as the plain values the native search takes.

    ``(game, meeting_rule, move_cap, idle_rounds, markers, chevrons, to_move,
    out, trigger, idle, ply)``: the game name, its options
    (:class:`pacru.chevron.rules.Rules`), the marker bitboard and the sorted
    chevron codes ``field * 8 + facing`` of each player in turn order, and the
    counters of :class:`pacru.ChevronState`.
    """
    rules = state.rules
    return (
        rules.game,
        rules.meeting_rule,
        rules.move_cap,
        rules.idle_rounds,
        list(state.markers),
        [list(c) for c in state.chevrons],
        state.to_move,
        state.out,
        state.trigger,
        state.idle,
        state.ply,
    )


@cache
def _shipped() -> dict[str, Any]:
    text = resources.files("pacru.bots").joinpath("data", _WEIGHTS_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def load_weights(game: str, players: int) -> tuple[float, ...]:
    """The shipped evaluation weights of ``game`` with ``players`` players.

    One weight per feature, in the order of ``features`` in the weights file
    (logits per unit of the feature). A game and player count without fitted
    weights takes those of the same game at another player count, else the
    hand-set bootstrap weights of the native crate.
    """
    data = _shipped()
    table: dict[str, list[float]] = data["weights"]
    for key in (f"{game}-{players}", *(f"{game}-{n}" for n in (2, 3, 4))):
        if key in table:
            return tuple(table[key])
    return tuple(data["bootstrap"])


class SearchBot(Bot):
    """Alpha-beta search in the native engine with a learned evaluation (module docstring).

    Args:
        seed: seed of the evaluation's noise (a few thousandths of a logit,
            so that games vary); ``None`` draws a fresh one.
        nodes: positions the search may visit per move (an integer, 1 to
            2**64 - 1); default 50,000 when ``time_limit`` is not given either.
        time_limit: seconds of search per move (positive, finite); with
            ``nodes`` too, the search stops at whichever runs out first. A
            timed search is not deterministic. However long, Ctrl-C stops it
            within milliseconds (:meth:`choose_move` raises
            ``KeyboardInterrupt``).
        depth: stop after completing this many plies (1 to 64), if the other
            budget allows.
        weights: evaluation weights (one per feature, see
            :func:`load_weights`); default: the shipped weights of the game
            and player count.
        name: the label in tables (default ``"search(nodes=...)"``).

    Raises:
        ValueError: a budget out of range or of the wrong type (the message
            names it).
        SearchUnavailableError: pacru was built without its native extension.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        nodes: int | None = None,
        time_limit: float | None = None,
        depth: int | None = None,
        weights: tuple[float, ...] | None = None,
        name: str | None = None,
    ) -> None:
        self._search = _searcher()
        if nodes is None and time_limit is None:
            nodes = DEFAULT_NODES
        nodes = optional_count("nodes", nodes, 1, UINT64_MAX)
        time_limit = optional_seconds("time_limit", time_limit)
        depth = optional_count("depth", depth, 1, 64)
        self.nodes = nodes
        self.time_limit = time_limit
        self.depth = depth
        self.weights = weights
        budget = f"nodes={nodes}" if nodes is not None else f"time_limit={time_limit}"
        self.name = name or f"search({budget})"
        self._rng = random.Random(
            seed if seed is not None else random.SystemRandom().randrange(2**63)
        )
        #: (value for the player to move in thousandths of a logit, completed depth,
        #: nodes) of the last :meth:`choose_move`.
        self.last_search: tuple[int, int, int] = (0, 0, 0)
        #: The extension's network that values the leaves instead of the weights
        #: (:class:`pacru.bots.NetworkBot`), or None.
        self._network: Any = None

    def choose_move(self, state: GameState[MoveT]) -> MoveT:
        """The search's move in ``state``.

        Raises:
            GameOverError: ``state`` is over, or its player has no legal move.
            InvalidPositionError: ``state`` has legal moves but none can be
                played, its ply being at its end (2**64 - 1), as applying one
                raises.
            ValueError: ``state`` is not a chevron game (LSD), or ``weights``
                has the wrong length.
            KeyboardInterrupt: Ctrl-C (SIGINT) during the search, which stops
                it within milliseconds.
        """
        if not isinstance(state, ChevronState):
            raise ValueError(f"SearchBot plays the chevron games only, not {type(state).__name__}")
        if state.outcome is not None:
            raise GameOverError("no legal move: the game is over")
        weights = self.weights or load_weights(state.rules.game, len(state.players))
        found = self._search(
            position_fields(state),
            list(weights),
            self.nodes,
            self.time_limit,
            self.depth,
            self._rng.getrandbits(63),
            self._network,
        )
        if found is None:
            raise GameOverError("no legal move: the player to move is blocked")
        fields, value, depth, nodes = found
        self.last_search = (value, depth, nodes)
        # The native tuple lists Move's fields in its order; relinquished (last) is bytes.
        origin, target, capture, twist, turn, connection, marker, meeting, relinquished = fields
        parts = (origin, target, capture, twist, turn, connection, marker, meeting)
        return cast(MoveT, Move(*parts, tuple(relinquished)))
