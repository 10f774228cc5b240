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
from typing import TYPE_CHECKING, Any, Final

from pacru.chevron.state import ChevronState
from pacru.chevron.zobrist import chevron_hash, chevron_keys, key

if TYPE_CHECKING:
    from pacru.base import GameState

__all__ = ["MASK64", "chevron_keys", "key", "zobrist_hash"]

#: All 64 bits set: every hash lies in ``[0, MASK64]``.
MASK64: Final = (1 << 64) - 1


def zobrist_hash(state: GameState[Any]) -> int:
    """The 64-bit Zobrist hash of ``state``'s position, in ``[0, 2**64)``.

    Stable across runs, processes and machines. Equal states hash equal;
    unequal states usually, but not always, differ (see the module docstring
    on collisions: compare states with ``==`` to be sure).
    """
    if isinstance(state, ChevronState):
        return chevron_hash(state)
    digest = hashlib.blake2b(state.to_position().encode(), digest_size=8, person=b"pacru-pos")
    return int.from_bytes(digest.digest(), "big")
