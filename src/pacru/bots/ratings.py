"""Elo ratings of a ladder's games: a Bradley-Terry fit with bootstrap intervals, and its picture.

Each game counts as pairwise results between its seats: a winner beats every
seat that did not win, winners who share a win (D35) draw, and in a game
without winner (an LSD block, a move cap, ruling D32, a ply limit) every
pair draws. Two seats that both lost say nothing about each other and are
not counted (3 and 4 players).

:func:`fit_elo` finds the Bradley-Terry strengths ``g`` that maximise the
likelihood of those results, ``P(i beats j) = g_i / (g_i + g_j)``, a draw
counting half a win each way (the Elo convention), by Hunter's MM iteration
(Hunter 2004, *MM algorithms for generalized Bradley-Terry models*). Every
pair that met gets ``prior`` virtual drawn games as well, so a bot that won
or lost every game still has a finite rating (BayesElo's device). The
ratings are ``400 * log10(g)``, shifted so that the anchor (``random`` in a
ladder) is 0: a 200-point gap means the stronger bot scores about 76%.

:func:`bootstrap_elo` gives 95% intervals by a parametric bootstrap, as
Ordo does: every pairwise result is drawn again from the fitted ratings (a
draw with the ladder's share of draws, else a win with the probability that
makes the expected score the model's), the ratings are refitted, and the
2.5% and 97.5% points of each bot's rating over ``samples`` draws bound its
interval. Resampling the games themselves would give a bot that won all its
games an interval of zero width; drawn from the model, a clean sweep still
leaves room (the virtual draws keep every probability below 1). The
anchor's interval is 0 to 0: the others' are differences to it.

Why not openskill's ratings (which ``pacru ladder`` also shows): openskill
rates the games one after another, so its numbers depend on their order, and
its ``sigma`` is not an interval of the strength; a maximum-likelihood fit
of all games at once is what rating lists of chess engines (BayesElo, Ordo)
publish, on the Elo scale people read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import attrs

__all__ = [
    "EloRating",
    "Pairwise",
    "bootstrap_elo",
    "fit_elo",
    "pairwise",
    "ratings_svg",
]

#: ``(i, j, points of i)`` for one pairwise result: 1 a win of ``i``, 0.5 a draw, 0 a loss.
Pairwise = tuple[int, int, float]


@attrs.frozen
class EloRating:
    """One bot's Elo rating with its 95% bootstrap interval.

    Attributes:
        label: the bot's name.
        elo: the rating, the anchor being 0.
        low, high: the 2.5% and 97.5% points of the bootstrap ratings.
    """

    label: str
    elo: float
    low: float
    high: float


def pairwise(entries: Sequence[int], winners: Sequence[int]) -> list[Pairwise]:
    """The pairwise results of one game: ``entries`` per seat, ``winners`` as seats.

    >>> from pacru.bots.ratings import pairwise
    >>> pairwise([0, 1, 2], [1])
    [(1, 0, 1.0), (1, 2, 1.0)]
    >>> pairwise([0, 1], [])
    [(0, 1, 0.5)]
    """
    out: list[Pairwise] = []
    won = set(winners)
    for a in range(len(entries)):
        for b in range(a + 1, len(entries)):
            if not won or (a in won and b in won):
                out.append((entries[a], entries[b], 0.5))
            elif a in won:
                out.append((entries[a], entries[b], 1.0))
            elif b in won:
                out.append((entries[b], entries[a], 1.0))
    return out


def fit_elo(
    bots: int,
    results: Sequence[Pairwise],
    *,
    anchor: int | None = None,
    prior: float = 1.0,
    tolerance: float = 1e-10,
) -> list[float]:
    """Maximum-likelihood Bradley-Terry ratings on the Elo scale (see the module docstring).

    Args:
        bots: how many bots (indices ``0 .. bots - 1``).
        results: pairwise results.
        anchor: the bot rated 0; ``None`` makes the mean 0.
        prior: virtual drawn games added to every pair that met.
        tolerance: stop when no strength changes by more than this fraction.

    Returns:
        One rating per bot; a bot without games is rated as the anchor.
    """
    games = [[0.0] * bots for _ in range(bots)]
    points = [0.0] * bots
    for i, j, p in results:
        games[i][j] += 1.0
        games[j][i] += 1.0
        points[i] += p
        points[j] += 1.0 - p
    for i in range(bots):
        for j in range(bots):
            if games[i][j]:
                games[i][j] += prior
                points[i] += prior / 2
    strength = [1.0] * bots
    for _ in range(10_000):
        new = []
        for i in range(bots):
            denom = math.fsum(n / (strength[i] + strength[j]) for j, n in enumerate(games[i]) if n)
            # A bot without a point (possible only with prior=0) stays finite, far below.
            new.append(max(points[i], 1e-12) / denom if denom else strength[i])
        # Scale to a geometric mean of 1, so the iteration cannot drift.
        scale = math.exp(-math.fsum(math.log(g) for g in new) / bots)
        new = [g * scale for g in new]
        done = max(abs(a - b) / b for a, b in zip(new, strength, strict=True)) < tolerance
        strength = new
        if done:
            break
    elo = [400.0 * math.log10(g) for g in strength]
    zero = math.fsum(elo) / bots if anchor is None else elo[anchor]
    return [e - zero for e in elo]


def bootstrap_elo(
    labels: Sequence[str],
    results: Sequence[Pairwise],
    *,
    anchor: int | None = None,
    samples: int = 200,
    seed: int = 0,
    prior: float = 1.0,
) -> list[EloRating]:
    """Ratings of every bot with 95% bootstrap intervals, in ``labels`` order.

    Args:
        labels: the bots' names.
        results: the pairwise results of every game.
        anchor: the bot rated 0 (``None``: the mean is 0).
        samples: bootstrap draws (0: no intervals, each is the rating itself).
        seed: the draws' seed; the same seed gives the same intervals.
        prior: as for :func:`fit_elo`.
    """
    n = len(labels)
    elo = fit_elo(n, results, anchor=anchor, prior=prior)
    drawn = sum(1 for r in results if r[2] == 0.5) / len(results) if results else 0.0
    wins = {}
    for i, j, _ in results:
        p = 1.0 / (1.0 + 10.0 ** ((elo[j] - elo[i]) / 400.0))
        # A win's probability outside draws, so that the expected score is p.
        wins[i, j] = min(max((p - drawn / 2) / (1 - drawn), 0.0), 1.0) if drawn < 1 else 0.0
    rng = random.Random(f"pacru-elo:{seed}")
    random_ = rng.random
    draws: list[list[float]] = [[] for _ in range(n)]
    for _ in range(samples):
        sample = [
            (i, j, 0.5 if random_() < drawn else 1.0 if random_() < wins[i, j] else 0.0)
            for i, j, _ in results
        ]
        for i, e in enumerate(fit_elo(n, sample, anchor=anchor, prior=prior)):
            draws[i].append(e)
    out = []
    for i, label in enumerate(labels):
        if draws[i]:
            ordered = sorted(draws[i])
            low = ordered[int(0.025 * (len(ordered) - 1) + 0.5)]
            high = ordered[int(0.975 * (len(ordered) - 1) + 0.5)]
        else:
            low = high = elo[i]
        out.append(EloRating(label, elo[i], min(low, elo[i]), max(high, elo[i])))
    return out


def ratings_svg(ratings: Sequence[EloRating], title: str = "", *, zero: str = "") -> str:
    """The ratings as an SVG picture: one line per bot, best first, a dot and its interval.

    ``zero`` says what 0 is on the scale (``"random = 0"``), in the axis title.

    Returns:
        A standalone SVG document (text).
    """
    from xml.sax.saxutils import escape

    rows = sorted(ratings, key=lambda r: -r.elo)
    lo = min([r.low for r in rows] + [0.0])
    hi = max([r.high for r in rows] + [0.0])
    step = _tick_step(hi - lo)
    lo = math.floor(lo / step) * step
    hi = math.ceil(hi / step) * step
    if hi == lo:
        hi = lo + step
    left, right, top, line = 200, 40, 50 if title else 20, 28
    width = 720
    plot = width - left - right
    height = top + line * len(rows) + 50

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * plot

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    if title:
        parts.append(
            f'<text x="{width / 2:.1f}" y="28" text-anchor="middle" font-size="15">'
            f"{escape(title)}</text>"
        )
    bottom = top + line * len(rows)
    tick = lo
    while tick <= hi + step / 2:
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="{top}" x2="{x(tick):.1f}" y2="{bottom}" '
            f'stroke="{"#888" if tick == 0 else "#ddd"}"/>'
        )
        parts.append(
            f'<text x="{x(tick):.1f}" y="{bottom + 18}" text-anchor="middle">{tick:g}</text>'
        )
        tick += step
    parts.append(
        f'<text x="{left + plot / 2:.1f}" y="{bottom + 38}" text-anchor="middle">'
        f"Elo{escape(', ' + zero) if zero else ''} (95% bootstrap interval)</text>"
    )
    for k, r in enumerate(rows):
        y = top + line * k + line / 2
        parts.append(
            f'<text x="{left - 10}" y="{y + 4:.1f}" text-anchor="end">{escape(r.label)}</text>'
        )
        parts.append(
            f'<line x1="{x(r.low):.1f}" y1="{y:.1f}" x2="{x(r.high):.1f}" y2="{y:.1f}" '
            'stroke="#1f5f99" stroke-width="2"/>'
        )
        parts.append(f'<circle cx="{x(r.elo):.1f}" cy="{y:.1f}" r="5" fill="#1f5f99"/>')
        parts.append(
            f'<text x="{x(r.elo):.1f}" y="{y - 8:.1f}" text-anchor="middle" font-size="11">'
            f"{r.elo:.0f}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _tick_step(span: float) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving 4 to 10 ticks over ``span``."""
    if span <= 0:
        return 100.0
    step = 10.0 ** math.floor(math.log10(span / 5))
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= 8:
            return step * factor
    return step * 10
