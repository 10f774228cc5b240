"""``str(state)``: a plain-text drawing of a chevron-game position.

Each field is three characters: the marker (a lower-case player letter, or
``·`` if neutral), then a chevron if one stands there (its owner's upper-case
letter and an arrow for its facing). Thick borderland borders are drawn as
``|`` and ``-`` lines, rank 9 at the top as in the rules reference. A legend
names each letter with its score (and Pacru supply) and whose turn it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacru.geometry import FILES, Direction

if TYPE_CHECKING:
    from pacru.chevron.state import ChevronState

__all__ = ["player_letters", "render_spans", "render_text"]


def player_letters(players: tuple[str, ...]) -> tuple[str, ...]:
    """One letter per player: the colour's initial if the initials differ, else 1..4."""
    initials = tuple(p[0].upper() for p in players)
    if len(set(initials)) == len(initials):
        return initials
    return tuple(str(i + 1) for i in range(len(players)))


def render_text(state: ChevronState) -> str:
    """The board, legend and status of ``state`` as text (ranks 9..1 top to bottom)."""
    letters = player_letters(state.players)
    cells = [["·  "] * 9 for _ in range(9)]
    for seat, m in enumerate(state.markers):
        for f in range(81):
            if m >> f & 1:
                cells[f // 9][f % 9] = letters[seat].lower() + "  "
    for seat, codes in enumerate(state.chevrons):
        for code in codes:
            f = code >> 3
            cell = cells[f // 9][f % 9]
            cells[f // 9][f % 9] = cell[0] + letters[seat] + Direction(code & 7).arrow
    rule = "    +" + "+".join(["-" * 13] * 3) + "+"
    lines = ["      " + "   ".join(FILES), rule]
    for rank in range(8, -1, -1):
        row = cells[rank]
        blocks = [" ".join(row[i : i + 3]) for i in (0, 3, 6)]
        lines.append(f" {rank + 1}  | " + " | ".join(blocks) + f" | {rank + 1}")
        if rank in (6, 3, 0):
            lines.append(rule)
    lines.append("      " + "   ".join(FILES))
    supply = state.supply if state.rules.pacru else None
    for seat, player in enumerate(state.players):
        count = state.markers[seat].bit_count()
        notes = [f"{count} marker{'' if count == 1 else 's'}"]
        if supply is not None:
            notes.append(f"supply {supply[player]}")
        if state.out >> seat & 1:
            notes.append("out")
        if seat == state.trigger:
            notes.append("triggered the end")
        turn = "  <- to move" if state.current_player == player else ""
        lines.append(f"  {letters[seat]} {player}: {', '.join(notes)}{turn}")
    status = f"{state.game}, ply {state.ply}"
    if state.outcome is not None:
        status += f": game over, {state.outcome.result()} ({state.outcome.termination.value})"
    lines.append("  " + status)
    return "\n".join(lines)


def _field_place(field: int) -> tuple[int, int]:
    """The line and column of ``field``'s three characters in :func:`render_text`'s text."""
    rank, file = divmod(field, 9)
    down = 8 - rank  # rank 9 is drawn first
    # Two heading lines, one line per rank, a border line after every third rank; each
    # line starts " 9  | ", a borderland is "c c c" and borderlands are joined by " | ".
    return 2 + down + down // 3, 6 + (file // 3) * 14 + (file % 3) * 4


def render_spans(state: ChevronState) -> list[tuple[int, int, int, int, bool]]:
    """Where each player's pieces stand in ``str(state)``, for colouring it.

    Returns:
        ``(line, start, stop, seat, chevron)`` per marker (one character, the
        lower-case letter) and per chevron (two: the letter and the arrow):
        ``str(state).splitlines()[line][start:stop]`` is that piece's text.
        Each player's letter and colour name under the board come last
        (``chevron`` True).
    """
    # The player lines follow the 15 lines of the board (9 ranks, 4 borders, 2 file rows).
    names = [(15 + seat, 2, 4 + len(p), seat, True) for seat, p in enumerate(state.players)]
    spans = []
    for seat, m in enumerate(state.markers):
        for f in range(81):
            if m >> f & 1:
                line, column = _field_place(f)
                spans.append((line, column, column + 1, seat, False))
    for seat, codes in enumerate(state.chevrons):
        for code in codes:
            line, column = _field_place(code >> 3)
            spans.append((line, column + 1, column + 3, seat, True))
    return spans + names
