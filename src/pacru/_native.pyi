"""Types of the extension module ``pacru._native`` (the Rust crate ``rust/python``)."""

from collections.abc import Callable, Iterator
from typing import Final

from pacru.base import Outcome
from pacru.chevron.move import Move
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.native import NativeLegalMoves
from pacru.chevron.state import ChevronState

#: True when the engine implements every chevron game (then pacru.ENGINE is "native").
COMPLETE: Final[bool]
#: The chevron games the engine implements.
GAMES: Final[tuple[str, ...]]

def init(
    make_move: Callable[..., Move],
    list_class: type[NativeLegalMoves],
    outcome: Callable[[str, int, tuple[str, ...]], Outcome],
    position: Callable[[ChevronState], Position],
    empty: LegalMoves,
) -> None: ...
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

class Moves:
    def __len__(self) -> int: ...
    def get(self, index: int) -> Move: ...
    def __iter__(self) -> Iterator[Move]: ...
    def contains(self, move: Move) -> bool: ...
    def apply_state(self, state: ChevronState, move: Move) -> ChevronState: ...
    @property
    def position(self) -> Position: ...
    @property
    def issued(self) -> Move | None: ...
    @property
    def is_pass(self) -> bool: ...
    def family_count(self) -> int: ...
    def family_range(self, family: int) -> tuple[int, int]: ...

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
