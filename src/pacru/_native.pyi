"""Types of the extension module ``pacru._native`` (the Rust crate ``rust/python``)."""

from collections.abc import Callable
from typing import Any, Final, SupportsIndex, final

import numpy as np
import numpy.typing as npt

from pacru.base import Outcome
from pacru.chevron.move import Move
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.state import ChevronState
from pacru.encoding.base import Encoding

#: True when the engine implements every chevron game (then pacru.ENGINE is "native").
COMPLETE: Final[bool]
#: The chevron games the engine implements.
GAMES: Final[tuple[str, ...]]

def init(
    move_class: type[Move],
    legal_moves: type[LegalMoves],
    outcome: Callable[[str, int, tuple[str, ...]], Outcome],
    position: Callable[[ChevronState], Position],
    python_list: Callable[[Position], LegalMoves],
    empty: LegalMoves,
    move_or_none: Callable[[str], Move | None],
    frozen: type[Exception],
) -> None: ...
def state_methods(
    state_class: type[ChevronState],
    checked_apply: Callable[..., ChevronState],
    legal_moves_doc: str,
    apply_move_doc: str,
) -> tuple[Any, Any]: ...
def legal_moves(state: ChevronState) -> LegalMoves: ...
def apply(state: ChevronState, move: Move) -> ChevronState: ...
def random_rollouts(
    position: Position,
    n: int,
    seed: int,
    max_plies: int | None,
    families: bool,
    record: bool,
) -> tuple[bytes, bytes, bytes | None]: ...

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
        state_rules: object = None,
        players: tuple[str, ...] | None = None,
    ) -> Position: ...
    def legal_moves(self) -> NativeLegalMoves: ...
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

class NativeLegalMoves(LegalMoves):
    """The native engine's move list: a ``LegalMoves`` by registration (not by inheritance;
    declared a subclass here so that it types as one)."""

    def family_count(self) -> int: ...
    def family_range(self, family: int) -> tuple[int, int]: ...
    @property
    def issued(self) -> Move | None: ...
    @property
    def position(self) -> Position: ...

class DecisionLayout:
    """The fixed parts of one chevron encoding, for the native decisions."""

    def __new__(
        cls,
        players: int,
        game_index: int,
        ply_scale: float,
        idle_scale: float,
        supply: int,
    ) -> DecisionLayout: ...
    def start(self, encoding: Encoding, state: ChevronState) -> NativeDecision | None: ...

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
    def move(self) -> Move | None: ...
    @property
    def done(self) -> bool: ...
    def legal_action_mask(self) -> npt.NDArray[np.bool_]: ...
    def choose(self, action: SupportsIndex) -> NativeDecision: ...
    def _stage(self) -> tuple[int, int]: ...
    def _observation(self, player: int) -> bytearray: ...
    def __copy__(self) -> NativeDecision: ...
    def __deepcopy__(self, memo: object) -> NativeDecision: ...

#: The arrays of a frame as bytearrays: mask (bool), player (int32), rewards (float32),
#: terminated and truncated (bool). The observation is ``Batch.observation``'s.
FrameBytes = tuple[bytearray, bytearray, bytearray, bytearray, bytearray]

class Batch:
    @staticmethod
    def create(
        start: Position,
        n: int,
        game_index: int,
        ply_scale: float,
        idle_scale: float,
        supply: int,
    ) -> tuple[Batch, FrameBytes]: ...
    def step(
        self,
        rows: list[int],
        actions: list[int],
        restart: list[bool],
        starts: list[Position | None],
    ) -> tuple[Batch, FrameBytes]: ...
    def observation(self) -> bytearray: ...
    def position(
        self, row: int
    ) -> tuple[
        tuple[int, ...], tuple[tuple[int, ...], ...], int, int, int, int, int, int, str | None, int
    ]: ...
    def prefix(self, row: int) -> tuple[int, ...]: ...
