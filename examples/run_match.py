"""
Run a match between bots
========================

Run a small match between reference bots, as ``pacru match`` does.

:func:`pacru.bots.arena.run_match` plays the games with the seats rotated
(each bot takes each seat equally often), in worker processes if asked, with
every game seeded from the match seed so a match is reproducible. Here MCTS
(60 iterations per move) meets the greedy bot at Shacru; the command line
equivalent is::

    pacru match shacru --players 2 --bot mcts:iterations=60 --bot greedy --games 4

Run from the repository root (with pacru installed, or ``PYTHONPATH=src``)::

    python examples/run_match.py
"""

from __future__ import annotations

from pacru.bots.arena import run_match


def main() -> None:
    result = run_match("shacru", ["mcts:iterations=60", "greedy"], games=4, workers=1, seed=7)
    for entry in result.entry_stats():
        print(
            f"{entry.label}: {entry.wins} won, {entry.shared} shared, {entry.draws} drawn, "
            f"{entry.losses} lost of {entry.games}; win rate {entry.win_rate:.0%} "
            f"(95% interval {entry.win_low:.0%}-{entry.win_high:.0%}), "
            f"mean score {entry.score:.1f}"
        )


if __name__ == "__main__":
    main()
