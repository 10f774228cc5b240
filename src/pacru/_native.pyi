"""Types of the extension module ``pacru._native`` (the Rust crate ``rust/python``)."""

from collections.abc import Iterator
from typing import Any, Final, Self, SupportsIndex, final, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from pacru.base import Outcome
from pacru.chevron.families import ReorientationFamily as _ReorientationFamily
from pacru.chevron.families import StepFamily as _StepFamily
from pacru.chevron.move import Move as _Move
from pacru.chevron.move import MoveKind
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.rules import Rules
from pacru.chevron.state import ChevronState
from pacru.encoding.base import Encoding

__all__ = [
    "COMPLETE",
    "GAMES",
    "NETWORK_SPARSE_INPUTS",
    "SEARCH_DEFAULT_WEIGHTS",
    "SEARCH_FEATURES",
    "Batch",
    "DecisionLayout",
    "FamilyIter",
    "LsdBatch",
    "LsdMoves",
    "LsdPosition",
    "LsdRules",
    "Move",
    "MovesIter",
    "NativeDecision",
    "NativeLegalMoves",
    "Network",
    "Position",
    "ReorientationFamily",
    "State",
    "StepFamily",
    "network_inputs",
    "random_rollouts",
    "search_features",
    "search_move",
    "search_selfplay",
    "use_python_types",
]

#: True when the engine implements every chevron game (then pacru.ENGINE is "native").
COMPLETE: Final[bool]
#: The chevron games the engine implements.
GAMES: Final[tuple[str, ...]]

def use_python_types(
    move_class: type[_Move],
    kinds: tuple[MoveKind, MoveKind, MoveKind, MoveKind],
    legal_moves: type[LegalMoves],
    engine_class: type[_Move],
) -> None: ...
@final
class Move(_Move):
    """The native engine's move (``pacru.Move`` on the native engine): a ``Move`` of
    ``pacru.chevron.move`` by registration (not by inheritance; declared a subclass here
    so that it types as one), with the same API."""

    def __new__(
        cls,
        origin: SupportsIndex | None = None,
        target: SupportsIndex | None = None,
        capture: bool = False,
        twist: SupportsIndex = 0,
        turn: SupportsIndex = 0,
        connection: bool = False,
        marker: SupportsIndex | None = None,
        meeting: SupportsIndex | None = None,
        relinquished: tuple[SupportsIndex, ...] | list[SupportsIndex] = (),
    ) -> Self: ...
    @classmethod
    def parse(cls, text: str) -> Self: ...
    @classmethod
    def pass_move(cls) -> Self: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[_Move], tuple[Any, ...]]: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: Any, /) -> Self: ...

def random_rollouts(
    position: Position,
    n: int,
    seed: int,
    max_plies: int | None,
    families: bool,
    record: bool,
    threads: int = 1,
) -> tuple[bytes, bytes, bytes | None]: ...

#: The names of the search's evaluation features, in order (``pacru_search``).
SEARCH_FEATURES: Final[list[str]]
#: The search's hand-set bootstrap weights, one per feature.
SEARCH_DEFAULT_WEIGHTS: Final[list[float]]

def search_move(
    fields: tuple[Any, ...],
    weights: list[float],
    nodes: int | None,
    time_limit: float | None,
    depth: int | None,
    seed: int,
    network: Network | None = None,
) -> (
    tuple[
        tuple[int | None, int | None, bool, int, int, bool, int | None, int | None, list[int]],
        int,
        int,
        int,
    ]
    | None
): ...
def search_features(fields: tuple[Any, ...]) -> list[list[float]]: ...
def search_selfplay(
    game: str,
    players: int,
    seed: int,
    nodes: int,
    epsilon: float,
    weights: list[float],
    every: int,
    max_plies: int,
    network: Network | None = None,
    offset: int = 0,
) -> tuple[list[list[float]], list[list[int]], list[float], list[float], int, str]: ...

#: The sparse inputs of the search's network (board, seat to move, game and players).
NETWORK_SPARSE_INPUTS: Final[int]

def network_inputs(fields: tuple[Any, ...], seat: int) -> tuple[list[int], list[float]]: ...
@final
class Network:
    """A network evaluation of the search (``pacru_search::network``), immutable."""

    @staticmethod
    def from_bytes(data: bytes) -> Network: ...
    @property
    def hidden(self) -> int: ...
    @property
    def hidden2(self) -> int: ...
    def evaluate(self, fields: tuple[Any, ...], seat: int, weights: list[float]) -> float: ...

@final
class Position:
    def __new__(
        cls,
        game: str,
        meeting_rule: str,
        move_cap: int | None,
        idle_rounds: int,
        markers: tuple[int, ...],
        chevrons: tuple[tuple[int, ...], ...],
        to_move: int,
        out: int,
        trigger: int,
        idle: int,
        ply: int,
        termination: str | None,
        winners: int,
    ) -> Position: ...
    def perft(self, depth: int) -> int: ...
    @property
    def markers(self) -> tuple[int, ...]: ...
    @property
    def chevrons(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def options(self) -> tuple[str, str, int | None, int]: ...
    def generator_args(
        self,
    ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, int, bool]: ...

@disjoint_base
class State:
    """The native engine's state (``pacru.chevron.native.NativeChevronState`` adds the
    shared methods of ``pacru.ChevronState``)."""

    def __new__(
        cls,
        rules: Rules | None = None,
        players: tuple[str, ...] | None = None,
        markers: tuple[SupportsIndex, ...] | None = None,
        chevrons: tuple[tuple[SupportsIndex, ...], ...] | None = None,
        to_move: SupportsIndex | None = None,
        out: SupportsIndex | None = None,
        trigger: SupportsIndex | None = None,
        idle: SupportsIndex | None = None,
        ply: SupportsIndex | None = None,
        outcome: Outcome | None = None,
        occupied: SupportsIndex | None = None,
        last: _Move | None = None,
    ) -> Self: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def markers(self) -> tuple[int, ...]: ...
    @property
    def chevrons(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def occupied(self) -> int: ...
    @property
    def to_move(self) -> int: ...
    @property
    def out(self) -> int: ...
    @property
    def trigger(self) -> int: ...
    @property
    def idle(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def is_terminal(self) -> bool: ...
    @property
    def _outcome_parts(self) -> tuple[str, int] | None: ...
    def _keep_outcome(self, made: Outcome) -> Outcome: ...
    @property
    def _kept_outcome(self) -> Outcome | None: ...
    @property
    def _last(self) -> _Move | None: ...
    @property
    def _moves(self) -> NativeLegalMoves | None: ...
    def legal_moves(self) -> NativeLegalMoves: ...
    def apply_move(self, move: _Move | str) -> ChevronState: ...
    def _position(self) -> Position: ...
    def _check(self, move: _Move, text: str | None = None) -> None: ...

@final
class NativeLegalMoves(LegalMoves):
    """The native engine's move list: a ``LegalMoves`` by registration (not by inheritance;
    declared a subclass here so that it types as one)."""

    @overload
    def __getitem__(self, index: int, /) -> _Move: ...
    @overload
    def __getitem__(self, index: slice, /) -> tuple[_Move, ...]: ...
    def __contains__(self, move: object, /) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def index(self, value: Any, /, *bounds: SupportsIndex) -> int: ...
    def count(self, value: Any) -> int: ...
    def _issue(self, move: _Move) -> None: ...
    def family_count(self) -> int: ...
    def family_range(self, family: int) -> tuple[int, int]: ...
    @property
    def issued(self) -> _Move | None: ...

@final
class StepFamily(_StepFamily):
    """A step family of a ``NativeLegalMoves``: a ``pacru.chevron.families.StepFamily`` by
    registration (declared a subclass here so that it types as one); its moves are native."""

    def get(self, index: SupportsIndex) -> _Move: ...
    def contains(self, move: _Move) -> bool: ...
    def __iter__(self) -> FamilyIter: ...

@final
class ReorientationFamily(_ReorientationFamily):
    """A reorientation family of a ``NativeLegalMoves``: a
    ``pacru.chevron.families.ReorientationFamily`` by registration; its moves are native."""

    def get(self, index: SupportsIndex) -> _Move: ...
    def contains(self, move: _Move) -> bool: ...
    def __iter__(self) -> FamilyIter: ...

@final
class FamilyIter(Iterator[_Move]):
    """An iterator over the moves of a native family, in order."""

    def __next__(self) -> _Move: ...

@final
class MovesIter(Iterator[_Move]):
    """An iterator over a ``NativeLegalMoves``, in order or reversed."""

    def __next__(self) -> _Move: ...

@final
class DecisionLayout:
    """The fixed parts of one chevron encoding, for the native decisions."""

    def __new__(
        cls,
        players: int,
        game_index: int,
        ply_scale: float,
        idle_scale: float,
        supply: int,
        state_class: type[ChevronState],
        meeting_rule: str,
        move_cap: int | None,
        idle_rounds: int,
    ) -> DecisionLayout: ...
    def start(self, encoding: Encoding, state: ChevronState) -> NativeDecision | None: ...
    def start_checked(self, encoding: Encoding, state: ChevronState) -> NativeDecision | None: ...

@final
class NativeDecision:
    """A chevron decision of the native engine (a ``Decision`` by registration)."""

    @property
    def encoding(self) -> Encoding: ...
    @property
    def state(self) -> ChevronState: ...
    @property
    def player(self) -> int: ...
    @property
    def prefix(self) -> tuple[int, ...]: ...
    @property
    def legal_actions(self) -> tuple[int, ...]: ...
    @property
    def kind(self) -> str: ...
    @property
    def move(self) -> _Move | None: ...
    @property
    def done(self) -> bool: ...
    # legal_action_mask() is set on the class by pacru.encoding._native, around this:
    def legal_action_mask(self) -> npt.NDArray[np.bool_]: ...
    def choose(self, action: SupportsIndex) -> NativeDecision: ...
    def _stage(self) -> tuple[int, int]: ...
    def _observation(self, player: int) -> bytearray: ...
    def __copy__(self) -> NativeDecision: ...
    def __deepcopy__(self, memo: object) -> NativeDecision: ...

#: A frame's arrays are one bytearray (``Batch.advance`` gives the offsets): mask (bool),
#: player (int32), rewards (float32), terminated and truncated (bool). The observation is
#: ``Batch.observation``'s.

@final
class Batch:
    @staticmethod
    def create(
        start: Position,
        n: int,
        game_index: int,
        ply_scale: float,
        idle_scale: float,
        supply: int,
        threads: int = 1,
    ) -> tuple[Batch, bytearray]: ...
    def advance(
        self,
        actions: bytes,
        restart: bytes,
        renew: bool,
        steps: bytes,
        episodes: bytes,
        threads: int = 1,
    ) -> tuple[Batch, bytearray, Batch]: ...
    def advance_in_place(
        self,
        actions: bytes,
        restart: bytes,
        renew: bool,
        steps: bytes,
        episodes: bytes,
        threads: int = 1,
    ) -> tuple[bytearray, Batch]: ...
    def step(
        self,
        rows: list[int],
        actions: list[int],
        restart: list[bool],
        starts: list[Position | None],
        threads: int = 1,
    ) -> tuple[Batch, bytearray]: ...
    def play_bots(
        self,
        seats: bytes,
        bot: str,
        base: int,
        episodes: bytes,
        budgets: bytes,
        threads: int = 1,
    ) -> tuple[Batch, bytearray, bytearray]: ...
    def play_bots_in_place(
        self,
        seats: bytes,
        bot: str,
        base: int,
        episodes: bytes,
        budgets: bytes,
        threads: int = 1,
    ) -> tuple[bytearray, bytearray]: ...
    def learner_step(
        self,
        actions: bytes,
        restart: bytes,
        steps: bytes,
        episodes: bytes,
        mask: npt.NDArray[np.uint8],
        observation: npt.NDArray[np.uint8],
        same_step: bool,
        max_steps: int | None,
        seat: int,
        seat_base: int,
        bot: str,
        bot_base: int,
        dtype: str = "float32",
        threads: int = 1,
    ) -> tuple[Batch, bytearray, Batch]: ...
    def learner_step_in_place(
        self,
        actions: bytes,
        restart: bytes,
        steps: bytes,
        episodes: bytes,
        mask: npt.NDArray[np.uint8],
        observation: npt.NDArray[np.uint8],
        same_step: bool,
        max_steps: int | None,
        seat: int,
        seat_base: int,
        bot: str,
        bot_base: int,
        dtype: str = "float32",
        threads: int = 1,
    ) -> tuple[bytearray, Batch]: ...
    def random_actions(self, base: int, shown: bytes, threads: int = 1) -> bytearray: ...
    def legal_action_mask(self, shown: bytes, threads: int = 1) -> bytearray: ...
    def observation(self, threads: int = 1, dtype: str = "float32") -> bytearray: ...
    def observation_into(
        self, out: npt.NDArray[np.uint8], threads: int = 1, dtype: str = "float32"
    ) -> None: ...
    def __len__(self) -> int: ...
    def position(
        self, row: int
    ) -> tuple[
        tuple[int, ...], tuple[tuple[int, ...], ...], int, int, int, int, int, int, str | None, int
    ]: ...
    def prefix(self, row: int) -> tuple[int, ...]: ...

# An LSD position as the native engine takes it: field (cell code, face | seat << 6) pairs,
# supplies and captured tiles by kind per seat, the seat to move (-1 once over), the end
# (0 none, 1 a row, 2 blocked), the winners as a bit set of seats, the last (face, cell).
_LsdParts = tuple[
    list[tuple[int, int]],
    list[list[int]],
    list[list[int]],
    int,
    int,
    int,
    tuple[int, int] | None,
]

@final
class LsdBatch:
    @staticmethod
    def create(
        kinds: list[list[int]],
        initial: list[list[int]],
        allow_rotation: bool,
        strict: bool,
        row_length: int,
        start: _LsdParts,
        n: int,
    ) -> tuple[LsdBatch, bytearray]: ...
    def step(
        self,
        rows: list[int],
        actions: list[int],
        restart: list[bool],
        starts: list[_LsdParts | None],
        threads: int = 1,
    ) -> tuple[LsdBatch, bytearray]: ...
    def random_actions(self, base: int, shown: bytes, threads: int = 1) -> bytearray: ...
    def observation(self, threads: int = 1, dtype: str = "float32") -> bytearray: ...
    def observation_into(
        self, out: npt.NDArray[np.uint8], threads: int = 1, dtype: str = "float32"
    ) -> None: ...
    def __len__(self) -> int: ...
    def position(
        self, row: int
    ) -> tuple[
        list[tuple[int, int]],
        list[tuple[int, int]],
        list[list[int]],
        list[list[int]],
        int,
        int,
        int,
        tuple[int, int] | None,
    ]: ...
    def prefix(self, row: int) -> list[int]: ...
    def moves(self, row: int) -> list[tuple[int, int]]: ...
    def illegal(self, row: int, face: int, cell: int) -> tuple[str, str, int] | None: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_shape(self) -> tuple[int, int, int]: ...

# One pacru.LsdState's engine (rust/python/src/lsd_state.rs): the rules of a set of options,
# a position under them, and its legal moves as move keys (cell code << 6 | face).
@final
class LsdRules:
    def __new__(
        cls,
        kinds: list[list[int]],
        initial: list[list[int]],
        allow_rotation: bool,
        strict: bool,
        row_length: int,
    ) -> Self: ...
    def position(self, parts: _LsdParts) -> LsdPosition: ...

@final
class LsdPosition:
    def legal_moves(self) -> LsdMoves: ...
    def play(self, face: int, cell: int) -> LsdPosition | None: ...
    @property
    def bounds(self) -> tuple[tuple[int, int], tuple[int, int]] | None: ...
    @property
    def turn(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def winners(self) -> int: ...
    def parts(
        self,
    ) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[list[int]], list[list[int]]]: ...
    def window(self, radius: int) -> tuple[int, int] | None: ...
    def illegal(self, face: int, cell: int) -> tuple[str, str] | None: ...

@final
class LsdMoves:
    def __len__(self) -> int: ...
    def __getitem__(self, key: int, /) -> int: ...
    def keys(self) -> list[int]: ...
    def cell_actions(self, x0: int, y0: int, width: int) -> tuple[int, ...]: ...
    def cell_tiles(self, cell: int, base: int) -> tuple[int, ...]: ...
