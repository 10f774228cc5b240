"""64-bit Zobrist hashing of game positions, stable across runs and processes.

:func:`zobrist_hash` gives a position an ``int`` in ``[0, 2**64)``, for
transposition tables, opening books and deduplicating positions across
processes. Unlike Python's ``hash()`` (salted per process for strings, and
for ``None`` on CPython 3.11), the value is the same on every machine and in
every run: each key is the first 8 bytes of the BLAKE2b digest of its name
(:func:`key`), with no random generator involved.

Chevron games (Lilacru, Shacru, Azacru, Pacru): the XOR of one key per

* marker: ``marker:<seat>:<field>`` for each field in a seat's colour;
* chevron: ``chevron:<seat>:<field>:<facing>``;
* side to move: ``to-move:<seat>``;
* Pacru eliminated player: ``out:<seat>`` {R15};
* Azacru end trigger: ``trigger:<seat>`` {A-R10};
* game: ``game:<name>:<players>``, so the same layout in two games differs.

Seats are indices in turn order (``state.players``); colour names are not
hashed. The ply count, the idle count of ruling D33 and the last move are left
out, so two states with the same board and side to move hash equal even
when they compare unequal (a transposition). Because the hash is a XOR of
keys, it can be updated incrementally: XOR out the keys of what a move
removes and XOR in those it adds (:func:`chevron_keys` lists them all).

Other games (LSD): the BLAKE2b digest of :meth:`pacru.GameState.to_position`,
cut to 64 bits; it hashes everything in the position string.

**Collisions.** Distinct positions can share a hash. For ``n`` distinct
positions the chance that any two collide is about ``n**2 / 2**65`` (the
birthday bound): about 3e-8 for a million positions, 3% for a billion. A
transposition table must therefore keep the state (or its position string)
in each entry and compare it with ``==`` before trusting the entry; equality,
not the hash, is the transposition-safe check.

>>> import pacru
>>> from pacru.zobrist import zobrist_hash
>>> s = pacru.new_game("shacru")
>>> zobrist_hash(s) == zobrist_hash(pacru.from_position(s.to_position()))
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, Final

from pacru.chevron.state import ChevronState

if TYPE_CHECKING:
    from pacru.base import GameState

__all__ = ["MASK64", "chevron_keys", "key", "zobrist_hash"]

#: All 64 bits set: every hash lies in ``[0, MASK64]``.
MASK64: Final = (1 << 64) - 1
_MAX_SEATS: Final = 4


@cache
def key(name: str) -> int:
    """The 64-bit key named ``name``: the first 8 bytes of BLAKE2b(``pacru-zobrist:`` + name).

    >>> from pacru.zobrist import key
    >>> hex(key("to-move:0"))
    '0xecfbbad031bddf42'
    """
    digest = hashlib.blake2b(f"pacru-zobrist:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _byte_tables(prefix: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per seat, per byte of an 81-bit board, per byte value: the XOR of its fields' keys."""
    seats = []
    for seat in range(_MAX_SEATS):
        per_byte = []
        for j in range(11):
            table = [0] * 256
            for v in range(1, 256):
                low = v & -v
                f = 8 * j + low.bit_length() - 1
                table[v] = table[v ^ low] ^ (key(f"{prefix}:{seat}:{f}") if f < 81 else 0)
            per_byte.append(tuple(table))
        seats.append(tuple(per_byte))
    return tuple(seats)


@cache
def _game_key(game: str, players: int) -> int:
    return key(f"game:{game}:{players}")


_TABLES: list[Any] = []


def _tables() -> list[Any]:
    """The key tables, built on first use (about 14,000 keys, a few milliseconds)."""
    markers = _byte_tables("marker")
    chevrons = tuple(
        tuple(key(f"chevron:{seat}:{code >> 3}:{code & 7}") for code in range(81 * 8))
        for seat in range(_MAX_SEATS)
    )
    to_move = tuple(key(f"to-move:{seat}") for seat in range(_MAX_SEATS))
    out = tuple(key(f"out:{seat}") for seat in range(_MAX_SEATS))
    trigger = tuple(key(f"trigger:{seat}") for seat in range(_MAX_SEATS))
    _TABLES[:] = [markers, chevrons, to_move, out, trigger]
    return _TABLES


def _chevron_hash(state: ChevronState) -> int:
    markers, chevrons, to_move, out, trigger = _TABLES or _tables()
    h: int = _game_key(state.rules.game, len(state.players)) ^ to_move[state.to_move]
    for seat, marked in enumerate(state.markers):
        tables = markers[seat]
        board = marked
        j = 0
        while board:  # one table look-up per byte of the bitboard
            h ^= tables[j][board & 0xFF]
            board >>= 8
            j += 1
    for seat, codes in enumerate(state.chevrons):
        table = chevrons[seat]
        for code in codes:
            h ^= table[code]
    if state.out:
        for seat in range(len(state.players)):
            if state.out >> seat & 1:
                h ^= out[seat]
    if state.trigger >= 0:
        h ^= trigger[state.trigger]
    return h


def chevron_keys(state: ChevronState) -> Iterator[str]:
    """The names of the keys whose XOR is the hash of a chevron ``state`` (see the module)."""
    yield f"game:{state.rules.game}:{len(state.players)}"
    yield f"to-move:{state.to_move}"
    for seat, board in enumerate(state.markers):
        for f in range(81):
            if board >> f & 1:
                yield f"marker:{seat}:{f}"
    for seat, codes in enumerate(state.chevrons):
        for code in codes:
            yield f"chevron:{seat}:{code >> 3}:{code & 7}"
    for seat in range(len(state.players)):
        if state.out >> seat & 1:
            yield f"out:{seat}"
    if state.trigger >= 0:
        yield f"trigger:{state.trigger}"


def zobrist_hash(state: GameState[Any]) -> int:
    """The 64-bit Zobrist hash of ``state``'s position, in ``[0, 2**64)``.

    Stable across runs, processes and machines. Equal states hash equal;
    unequal states usually, but not always, differ (see the module docstring
    on collisions: compare states with ``==`` to be sure).
    """
    if isinstance(state, ChevronState):
        return _chevron_hash(state)
    digest = hashlib.blake2b(state.to_position().encode(), digest_size=8, person=b"pacru-pos")
    return int.from_bytes(digest.digest(), "big")
