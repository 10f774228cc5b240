"""A seeded fuzz campaign over every pacru parser and decoder.

Each parser gets ``--count`` inputs: mutations of valid inputs (records,
positions, moves, SAN and AbstractPlay strings of seeded random games of every
game and player count, plus the AbstractPlay games in ``tests/data``) and, for
the encodings, random action integers. Anything a parser raises that is not
one of its documented exception classes is a finding: it is printed with a
short traceback and the input is saved to ``--out`` for a regression test.

Usage (too slow for CI at a million inputs; ``tests/test_fuzz_campaign.py``
runs a small seeded campaign)::

    PYTHONPATH=src nice -n 19 python scripts/fuzz_parsers.py --count 1000000 --seed 1

Exit status 1 when anything undocumented was raised.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pacru
from pacru import Game, GameState, from_position
from pacru.errors import IllegalMoveError, InvalidPositionError, NotationError, PacruError

#: Characters the grammars use, tried more often than arbitrary Unicode.
_ALPHABET = (
    "abcdefghiABCDEFGHIjklmnopqrstuvwxyz0123456789"
    "-+x*@><()[]{},;:=./\\\"' \t\n\r^#!?NESWnesw_|~%&"
)
_ODD = ("\u00b2", "\u0663", "\uff17", "\u0660", "\x00", "\u200b", "\ud800", "é", "\u2028", "\x85")


def _games(rng: random.Random, max_plies: int) -> list[list[GameState[Any]]]:
    """Seeded random lines of play of every game and player count."""
    lines = []
    for game in pacru.GAMES:
        for players in (2, 3, 4):
            try:
                state = pacru.new_game(game, players)
            except (ValueError, ImportError):
                continue
            states = [state]
            for _ in range(rng.randrange(0, max_plies)):
                moves = state.legal_moves()
                if not moves or state.outcome is not None:
                    break
                state = state.apply_move(moves[rng.randrange(len(moves))])
                states.append(state)
            lines.append(states)
    return lines


def mutate(rng: random.Random, text: str, corpus: Sequence[str], max_size: int) -> str:
    """``text`` with 1 to 4 random edits (see the module docstring)."""
    for _ in range(rng.randint(1, 4)):
        n = len(text)
        op = rng.randrange(14)
        i = rng.randint(0, n)
        if op == 0:  # insert a grammar character
            text = text[:i] + rng.choice(_ALPHABET) + text[i:]
        elif op == 1:  # insert an odd character
            text = text[:i] + rng.choice(_ODD) + text[i:]
        elif op == 2 and n:  # delete a slice
            j = min(n, i + rng.randint(1, 8))
            text = text[:i] + text[j:]
        elif op == 3 and n:  # replace a character
            i = min(i, n - 1)
            text = text[:i] + rng.choice(_ALPHABET) + text[i + 1 :]
        elif op == 4 and n:  # duplicate a slice
            j = min(n, i + rng.randint(1, 40))
            text = text[:j] + text[i:j] * rng.randint(1, 3) + text[j:]
        elif op == 5:  # truncate
            text = text[:i]
        elif op == 6:  # swap case
            text = text.swapcase()
        elif op == 7:  # a number, ASCII or not, possibly huge
            digit = rng.choice("9" * 6 + "0\u00b2\u0663")
            size = rng.choice((1, 2, 5, 10, 31, 400, 4301, 6000))
            text = text[:i] + rng.choice(("", "-")) + digit * size + text[i:]
        elif op == 8 and n:  # repeat the whole text, often past the length limits
            times = rng.choice((2, 3, 10, 100, max_size // max(n, 1)))
            text = (text * max(1, times))[:max_size]
        elif op == 9:  # splice in a word of another corpus text
            words = rng.choice(corpus).split() or [""]
            text = text[:i] + " " + rng.choice(words) + " " + text[i:]
        elif op == 10:  # splice in a slice of another corpus text
            other = rng.choice(corpus)
            k = rng.randint(0, len(other))
            text = text[:i] + other[k : k + rng.randint(1, 60)] + text[i:]
        elif op == 11:  # structure characters, repeated
            unit = rng.choice(("[", "[\n", "{", "}", "(", ")", ",", ";", ":", "=", '"', "\\", " "))
            text = text[:i] + unit * rng.choice((1, 2, 50, 5000)) + text[i:]
        elif op == 12 and n:  # swap two characters
            j = rng.randrange(n)
            i = min(i, n - 1)
            chars = list(text)
            chars[i], chars[j] = chars[j], chars[i]
            text = "".join(chars)
        else:  # arbitrary Unicode
            text = text[:i] + chr(rng.randrange(0x20, 0x3000)) + text[i:]
    return text


class Target:
    """One parser: its corpus, how to call it and the exceptions it may raise."""

    def __init__(
        self,
        name: str,
        corpus: Sequence[Any],
        call: Callable[[Any, random.Random], Any],
        allowed: tuple[type[BaseException], ...],
    ) -> None:
        self.name, self.corpus, self.call, self.allowed = name, corpus, call, allowed


#: The last text drawn by a target that draws its own (for the report of a finding).
_LAST: dict[str, Any] = {}


def _pick(rng: random.Random, items: Sequence[Any]) -> Any:
    return items[rng.randrange(len(items))]


def targets(seed: int, max_size: int, max_plies: int = 40) -> list[Target]:
    """Every parser and decoder with its corpus (built from seeded games of up to
    ``max_plies`` plies: replaying records costs in proportion)."""
    from pacru.records import RecordError, read_records, record_from_game, write_record

    rng = random.Random(seed)
    lines = _games(rng, max_plies)
    states = [s for line in lines for s in line[:: max(1, len(line) // 6)]]
    chevron = [s for s in states if s.game != "lsd"]
    lsd = [s for s in states if s.game == "lsd"]
    records = [
        write_record(record_from_game(Game(line[0], [s.last_move for s in line[1:]]), Event="x"))
        for line in lines
    ]
    text = (RecordError,)
    position = (NotationError, InvalidPositionError)
    move = (NotationError, IllegalMoveError)

    def texts(pool: Sequence[str]) -> Callable[[random.Random], str]:
        def draw(r: random.Random) -> str:
            base = _pick(r, pool)
            text = base if r.random() < 0.02 else mutate(r, base, pool, max_size)
            _LAST["text"] = text
            return text

        return draw

    def on_states(pool: Sequence[GameState[Any]], method: str, corpus: Sequence[str]) -> Any:
        draw = texts(corpus)

        def call(_: Any, r: random.Random) -> Any:
            state = _pick(r, pool)
            return getattr(state, method)(draw(r))

        return call

    chevron_moves = sorted({str(m) for s in chevron for m in list(s.legal_moves())[:30]})
    lsd_moves = sorted({str(m) for s in lsd for m in list(s.legal_moves())[:30]})
    chevron_san = sorted({s.san(m) for s in chevron for m in list(s.legal_moves())[:30]})
    chevron_san += chevron_moves
    lsd_san = sorted({s.san(m) for s in lsd for m in list(s.legal_moves())[:30]})
    out = [
        Target("records-strict", records, lambda t, r: read_records(t), text),
        Target("records-tolerant", records, lambda t, r: read_records(t, strict=False), text),
        Target("position-chevron", [s.to_position() for s in chevron], _position, position),
        Target("move-chevron", chevron_moves, _chevron_move, (NotationError,)),
        Target("parse_move-chevron", [], on_states(chevron, "parse_move", chevron_moves), move),
        Target("san-chevron", [], on_states(chevron, "parse_san", chevron_san), move),
    ]
    if lsd:
        from pacru.lsd import LsdMove

        out += [
            Target("position-lsd", [s.to_position() for s in lsd], _position, position),
            Target("move-lsd", lsd_moves, lambda t, r: LsdMove.from_text(t), (NotationError,)),
            Target("parse_move-lsd", [], on_states(lsd, "parse_move", lsd_moves), move),
            Target("san-lsd", [], on_states(lsd, "parse_san", lsd_san + lsd_moves), move),
        ]
    out.append(_abstractplay(chevron, texts))
    out.extend(_encodings(states))
    return out


def _position(text: str, _: random.Random) -> Any:
    return from_position(text)


def _chevron_move(text: str, _: random.Random) -> Any:
    from pacru import Move

    return Move.parse(text)


def _abstractplay(chevron: Sequence[Any], texts: Any) -> Target:
    from pacru import abstractplay as ap

    pool = [s for s in chevron if s.game in ap.AP_GAMES]
    corpus = sorted({ap.format_move(s, m) for s in pool for m in list(s.legal_moves())[:30]})
    for path in sorted(Path("tests/data/abstractplay").glob("*.json")):
        data = json.loads(path.read_text())
        corpus.extend(str(m) for m in data.get("moves", []) if isinstance(m, str))
    draw = texts(corpus)

    def call(_: Any, r: random.Random) -> Any:
        return ap.parse_move(_pick(r, pool), draw(r))

    return Target("abstractplay", [], call, (NotationError, IllegalMoveError))


def _encodings(states: Sequence[GameState[Any]]) -> list[Target]:
    try:
        from pacru.encoding import Encoding
    except ImportError:  # numpy missing
        return []
    live = [s for s in states if s.outcome is None]

    def number(r: random.Random, size: int) -> int:
        kind = r.randrange(6)
        if kind == 0:
            return r.randrange(-(2**70), 2**70)
        if kind == 1:
            return r.randrange(-3, 3)
        return r.randrange(0, size)

    def choose(_: Any, r: random.Random) -> Any:
        state = _pick(r, live)
        encoding = Encoding.of(state)
        decision = encoding.start(state)
        for _ in range(r.randint(1, 6)):
            if r.random() < 0.6 and decision.legal_actions:
                action = _pick(r, decision.legal_actions)
            else:
                action = number(r, encoding.num_actions)
            decision = decision.choose(action)
        return decision

    def decode(_: Any, r: random.Random) -> Any:
        state = _pick(r, live)
        encoding = Encoding.of(state)
        actions = [number(r, encoding.num_actions) for _ in range(r.randint(0, 6))]
        if r.random() < 0.5 and state.legal_moves():
            actions = list(encoding.actions(state, _pick(r, state.legal_moves())))
            if actions and r.random() < 0.7:
                actions[r.randrange(len(actions))] = number(r, encoding.num_actions)
        return encoding.move(state, actions)

    errors = (IllegalMoveError,)
    return [
        Target("encoding-choose", [], choose, errors),
        Target("encoding-move", [], decode, (PacruError,)),
    ]


def run(
    count: int,
    seed: int,
    only: set[str] | None,
    max_size: int,
    out: Path | None,
    max_plies: int = 40,
    every: int = 20_000,
) -> int:
    """Run ``count`` inputs per target; the number of undocumented exceptions found.

    Progress is printed every ``every`` inputs (a stopped run's count is the last one).
    """
    found = 0
    seen: set[tuple[str, str, str]] = set()
    for target in targets(seed, max_size, max_plies):
        if only and target.name not in only:
            continue
        rng = random.Random(f"{seed}/{target.name}")
        draw = (lambda r, t=target: mutate(r, _pick(r, t.corpus), t.corpus, max_size)) if (
            target.corpus
        ) else (lambda r: None)
        start, errors, raised = time.monotonic(), 0, 0
        for i in range(count):
            _LAST.clear()
            data = draw(rng)
            try:
                target.call(data, rng)
            except target.allowed:
                raised += 1
            except Exception as err:  # every other exception is a finding
                errors += 1
                frame = traceback.extract_tb(err.__traceback__)[-1]
                key = (target.name, type(err).__name__, f"{frame.filename}:{frame.lineno}")
                if key not in seen:
                    seen.add(key)
                    found_text = f"FOUND {target.name} #{i}: {type(err).__name__}: {err}"
                    print(found_text[:300], flush=True)
                    print("".join(traceback.format_exception(err)[-4:]), flush=True)
                    data = data if data is not None else _LAST.get("text")
                    print(f"    input {data!r}"[:400], flush=True)
                    if out is not None and data is not None:
                        out.mkdir(parents=True, exist_ok=True)
                        (out / f"{target.name}-{len(seen)}.txt").write_text(
                            data, encoding="utf-8", errors="surrogatepass"
                        )
            if (i + 1) % every == 0:
                print(f"  {target.name}: {i + 1} ({time.monotonic() - start:.0f} s)", flush=True)
        found += errors
        took = time.monotonic() - start
        print(
            f"{target.name}: {count} inputs, {raised} documented errors, {errors} undocumented "
            f"({len({k for k in seen if k[0] == target.name})} distinct), {took:.0f} s",
            flush=True,
        )
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000, help="inputs per parser")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated target names")
    parser.add_argument("--max-size", type=int, default=200_000, help="longest mutated input")
    parser.add_argument("--out", type=Path, default=None, help="folder for the failing inputs")
    parser.add_argument("--max-plies", type=int, default=40, help="longest corpus game")
    parser.add_argument("--every", type=int, default=20_000, help="progress interval")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    found = run(args.count, args.seed, only, args.max_size, args.out, args.max_plies, args.every)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
