"""Types of the extension module ``pacru._native`` (the Rust crate ``rust/python``)."""

from collections.abc import Callable
from typing import Any, Final

from pacru.base import Outcome
from pacru.chevron.move import Move
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.rules import Rules
from pacru.chevron.state import ChevronState
from pacru.encoding.base import Decision, Encoding

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
def decision_class(
    base: type[Decision],
    doc: str,
    docs: list[str],
    checked_choose: Callable[..., Decision],
    choose_doc: str | None,
    encoding_class: type[Encoding],
    checked_start: Callable[..., Decision],
    start_doc: str | None,
) -> tuple[type[Decision], Any]: ...
def decision_choose(decision: Decision, action: int) -> Decision: ...
def decision_stage(decision: Decision) -> tuple[int, int]: ...
def decision_observation(decision: Decision, player: int) -> bytearray: ...
def legal_moves(state: ChevronState) -> LegalMoves: ...
def apply(state: ChevronState, move: Move) -> ChevronState: ...
def random_rollouts(
    position: Position,
    n: int,
    seed: int,
    max_plies: int | None,
    families: bool,
    record: bool,
    threads: int = 1,
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
        rules: Rules,
        players: int,
        game_index: int,
        ply_scale: float,
        idle_scale: float,
        supply: int,
    ) -> DecisionLayout: ...
    def start(self, encoding: Encoding, state: ChevronState) -> Decision | None: ...

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
        threads: int = 1,
    ) -> tuple[Batch, FrameBytes]: ...
    def step(
        self,
        rows: list[int],
        actions: list[int],
        restart: list[bool],
        starts: list[Position | None],
        threads: int = 1,
    ) -> tuple[Batch, FrameBytes]: ...
    def play_bots(
        self,
        seats: list[int],
        bot: str,
        seeds: list[int],
        budgets: list[int],
        threads: int = 1,
    ) -> tuple[Batch, FrameBytes, bytearray]: ...
    def observation(self, threads: int = 1) -> bytearray: ...
    def position(
        self, row: int
    ) -> tuple[
        tuple[int, ...], tuple[tuple[int, ...], ...], int, int, int, int, int, int, str | None, int
    ]: ...
    def prefix(self, row: int) -> tuple[int, ...]: ...
