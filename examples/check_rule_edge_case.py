"""
Check a rule edge case
======================

Type a position from a rules diagram and check what the engine allows.

:ref:`Worked example 2 <example-2>` (the Shacru rulebook's diagram "cannot
move ahead or to the left; only move is across the border"): in Shacru a red chevron on f5
faces N, any chevron stands on f6 and e6 is yellow. Ahead (f6) is occupied and
left (e6) is another player's colour {S-R5}, so the only step is f5-g6, which
crosses from the e5 borderland into h5: the chevron may keep facing NE or
twist 45 degrees to N or E {S-R4}, three distinct moves.

Run from the repository root (with pacru installed, or ``PYTHONPATH=src``)::

    python examples/check_rule_edge_case.py
"""

from __future__ import annotations

import pacru

POSITION = "shacru players=red,yellow markers=yellow:e6 chevrons=red:f5N;yellow:f6N"


def main() -> None:
    state = pacru.from_position(POSITION)
    assert isinstance(state, pacru.ChevronState)
    print(state)
    moves = [str(m) for m in state.legal_moves()]
    print("legal moves:", ", ".join(moves))
    assert moves == ["f5-g6", "f5-g6<", "f5-g6>"]

    for text in ("f5-f6", "f5-e6", "f5-g7"):
        try:
            state.apply_move(text)
        except pacru.IllegalMoveError as err:
            # err.rule names the rule, err.reason is a stable code for programs.
            print(f"{text}: illegal, rule {err.rule} ({err.reason}): {err.detail}")
        else:
            raise AssertionError(f"{text} should be illegal")

    for text in moves:
        after = state.apply_move(text)
        chevron = after.chevron_at("g6")
        assert chevron is not None
        print(f"{text}: the red chevron ends on g6 facing {chevron.facing.name}")
    print("the original state is unchanged: f5 holds", state.chevron_at("f5"))


if __name__ == "__main__":
    main()
