"""The Zobrist keys of the chevron games and the hash of a chevron position.

The scheme (one key per marker, chevron, side to move, eliminated player and
end trigger, XORed) is described in :mod:`pacru.zobrist`, the public entry
point; :meth:`pacru.ChevronState.zobrist_hash` calls :func:`chevron_hash` here.
This module reads the state's plain values and imports no state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from pacru.chevron.state import ChevronState

__all__ = ["chevron_hash", "chevron_keys", "key"]

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


def chevron_hash(state: ChevronState) -> int:
    """The 64-bit Zobrist hash of a chevron ``state``: the XOR of its :func:`chevron_keys`."""
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
