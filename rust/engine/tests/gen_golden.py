"""Golden files for the Rust engine: seeded random games played by the Python engine.

Run from the repository root (it imports pacru from src/):

    PYTHONPATH=$PWD/src python rust/engine/tests/gen_golden.py OUT_DIR GAMES_PER_CONFIG [SEED]

For each game (lilacru, shacru, azacru, pacru) and player count (2, 3, 4) it writes
``OUT_DIR/<game>-<players>.txt`` with GAMES_PER_CONFIG games, their options varied by
seed (start layout, first player, meeting rule, move cap, idle rounds). Per game:

    game <game> <players> <meeting_rule> <move_cap|-> <idle_rounds> <seed>
    start <position key>
    <number of legal moves> <chosen index> <hash of the move list> <hash of the next position>
    ...
    end <outcome key>

The position key is ``players to_move out trigger idle ply outcome markers chevrons``
(markers hex per seat, comma-separated; chevrons' codes ``field * 8 + facing`` dot-joined
per seat, seats slash-joined; outcome ``-`` or ``<termination>:<winner seat mask>``).
The move-list hash is FNV-1a 64 (printed as 12 hex digits, its low 48 bits) of
``str(move) + "\\n"`` for every move in order; a list longer than ``FULL_LIMIT`` hashes
``f"{i}={move}\\n"`` for the indices of :func:`sample` only. The Rust test
(tests/golden.rs) replays each game and checks every ply.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pacru
from pacru import ChevronState
from pacru.chevron.rules import SUPPLY
from pacru.geometry import NEIGHBOUR

FULL_LIMIT = 3000
GAMES = ("lilacru", "shacru", "azacru", "pacru")
_MASK64 = (1 << 64) - 1


def fnv(text: str, h: int = 0xCBF29CE484222325) -> int:
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) & _MASK64
    return h


def sample(n: int) -> list[int]:
    """The indices hashed of a long list: the first 1000, the last 500, 500 spread out."""
    return [*range(1000), *range(n - 500, n), *(i * n // 500 for i in range(500))]


def list_hash(moves: pacru.LegalMoves) -> str:
    h = 0xCBF29CE484222325
    n = len(moves)
    if n <= FULL_LIMIT:
        for m in moves:
            h = fnv(f"{m}\n", h)
    else:
        for i in sample(n):
            h = fnv(f"{i}={moves[i]}\n", h)
    return f"{h & 0xFFFFFFFFFFFF:012x}"


def outcome_key(state: ChevronState) -> str:
    o = state.outcome
    if o is None:
        return "-"
    mask = sum(1 << state.players.index(w) for w in o.winners)
    return f"{o.termination.value}:{mask}"


def position_key(state: ChevronState) -> str:
    markers = ",".join(f"{m:x}" for m in state.markers)
    chevrons = "/".join(".".join(str(c) for c in codes) for codes in state.chevrons)
    return (
        f"{len(state.players)} {state.to_move} {state.out} {state.trigger} {state.idle} "
        f"{state.ply} {outcome_key(state)} {markers} {chevrons}"
    )


def position_hash(state: ChevronState) -> str:
    return f"{fnv(position_key(state)) & 0xFFFFFFFFFFFF:012x}"


def options_for(game: str, players: int, rng: random.Random) -> dict[str, object]:
    options: dict[str, object] = {}
    layouts = ["standard", "abstractplay"] + (["ap-legacy-2p"] if players == 2 else [])
    options["start_layout"] = rng.choice(layouts)
    if rng.random() < 0.3:
        options["first_player"] = None  # filled in below, once the colours are known
    if game == "pacru":
        if rng.random() < 0.3:
            options["meeting_rule"] = "original"
        options["move_cap"] = rng.choice([None, None, 400, 60])
    elif game == "azacru":
        options["move_cap"] = rng.choice([300, 300, 40])
    elif rng.random() < 0.25:
        options["idle_rounds"] = rng.choice([1, 2, 4])
    return options


def dense(state: ChevronState, rng: random.Random) -> ChevronState:
    """The start with many fields marked at random (at most the supply less 3 per Pacru
    player), so that meetings, reorientations, transformations, the supply win and the
    D33 end come early; the chevrons stay as they start."""
    n = len(state.players)
    cap = SUPPLY[n] - 3 if state.rules.pacru else 81
    markers = [0] * n
    density = rng.choice([0.3, 0.5, 0.8])
    for field in range(81):
        seat = rng.randrange(n)
        if rng.random() < density and markers[seat].bit_count() < cap:
            markers[seat] |= 1 << field
    return ChevronState(
        state.rules, state.players, tuple(markers), state.chevrons, 0, occupied=state.occupied
    )


def scatter(state: ChevronState, rng: random.Random) -> ChevronState:
    """A dense start whose chevrons are also placed at random (3 to 8 a player, any
    facing), so that chevrons meet {R12}, pincers {R11} and jumps {R9} come often."""
    state = dense(state, rng)
    n = len(state.players)
    fields = rng.sample(range(81), 8 * n)
    chevrons = []
    for seat in range(n):
        mine = fields[8 * seat : 8 * seat + rng.randint(3, 8)]
        chevrons.append(tuple(sorted(f * 8 + rng.randrange(8) for f in mine)))
    occupied = 0
    for codes in chevrons:
        for code in codes:
            occupied |= 1 << (code >> 3)
    return ChevronState(
        state.rules, state.players, state.markers, tuple(chevrons), 0, occupied=occupied
    )


def facing_pairs(state: ChevronState, rng: random.Random) -> ChevronState:
    """A dense Pacru start with pairs of own chevrons two fields apart facing each other on
    own fields, so that a step between them makes a meeting {R12, D21-D23}."""
    state = dense(state, rng)
    n = len(state.players)
    markers = list(state.markers)
    chevrons: list[list[int]] = [[] for _ in range(n)]
    used = 0
    for seat in range(n):
        for _ in range(rng.randint(1, 3)):
            f, d = rng.randrange(81), rng.randrange(8)
            mid, far = NEIGHBOUR[f][d], -1
            if mid >= 0:
                far = NEIGHBOUR[mid][d]
            if far < 0 or used & ((1 << f) | (1 << mid) | (1 << far)):
                continue
            used |= (1 << f) | (1 << far)
            chevrons[seat] += [f * 8 + d, far * 8 + (d ^ 4)]
            for field in (f, mid, far):
                markers = [m & ~(1 << field) for m in markers]
                markers[seat] |= 1 << field
    if not all(chevrons):
        return state
    return ChevronState(
        state.rules,
        state.players,
        tuple(markers),
        tuple(tuple(sorted(c)) for c in chevrons),
        0,
        occupied=used,
    )


def pick(state: ChevronState, rng: random.Random) -> int:
    moves = state.legal_moves()
    n = len(moves)
    if n <= FULL_LIMIT and rng.random() < 0.9:
        meetings = [i for i, m in enumerate(moves) if m.meeting is not None]
        if meetings:
            return rng.choice(meetings)
    steps = sum(f.size for f in moves.steps)
    # Mostly steps: uniform choice would almost always reorient in a late Pacru game.
    if 0 < steps < n and rng.random() < 0.85:
        return rng.randrange(steps)
    return rng.randrange(n)


def play(game: str, players: int, seed: int, out: list[str]) -> int:
    rng = random.Random(seed)
    options = options_for(game, players, rng)
    if "first_player" in options:
        colours = pacru.new_game(game, players, start_layout=options["start_layout"]).players
        options["first_player"] = rng.choice(colours)
    state = pacru.new_game(game, players, **options)
    assert isinstance(state, ChevronState)
    start = rng.random()
    if start < 0.3:
        state = dense(state, rng)
    elif start < 0.6:
        state = scatter(state, rng)
    elif start < 0.8 and game == "pacru":
        state = facing_pairs(state, rng)
    rules = state.rules
    cap = "-" if rules.move_cap is None else str(rules.move_cap)
    out.append(f"game {game} {players} {rules.meeting_rule} {cap} {rules.idle_rounds} {seed}")
    out.append(f"start {position_key(state)}")
    plies = 0
    while state.outcome is None:
        moves = state.legal_moves()
        if not moves:  # a dense start may leave a Pacru player blocked at once
            break
        i = pick(state, rng)
        nxt = state.apply_move(moves[i])
        out.append(f"{len(moves)} {i} {list_hash(moves)} {position_hash(nxt)}")
        state = nxt
        plies += 1
    out.append(f"end {outcome_key(state)}")
    return plies


def main() -> None:
    out_dir = Path(sys.argv[1])
    per_config = int(sys.argv[2])
    base = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    out_dir.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        for players in (2, 3, 4):
            lines: list[str] = []
            plies = 0
            for g in range(per_config):
                seed = base * 1_000_003 + GAMES.index(game) * 100_000 + players * 10_000 + g
                plies += play(game, players, seed, lines)
            (out_dir / f"{game}-{players}.txt").write_text("\n".join(lines) + "\n")
            print(f"{game}-{players}: {per_config} games, {plies} plies", flush=True)


if __name__ == "__main__":
    main()
