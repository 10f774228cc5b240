"""A pentanomial SPRT of a 2-player match, computed as fishtest computes it.

Two bots A and B play games in *pairs*: the same start position and options
twice, the seats swapped (games ``2k`` and ``2k + 1`` of
:func:`pacru.bots.arena.run_match`). A game scores 1 for A's sole win, 0.5
for a shared win or a game without winner, 0 for B's win, so a pair scores
0, 0.5, 1, 1.5 or 2; the *pentanomial* counts how many pairs scored each
(fishtest's ``LL, LD+DL, LW+DD+WL, DW+WD, WW``). Counting pairs rather than
games removes the seat advantage from the variance.

The sequential probability ratio test weighs H0 (A is ``elo0`` stronger
than B) against H1 (``elo1`` stronger) by Michel Van den Bergh's generalized
SPRT: the log-likelihood ratio of the two hypotheses, each at the maximum
likelihood distribution of pair scores that satisfies it (the multinomial MLE
under a constraint, solved with a Lagrange multiplier, the root of a
"secular" equation). The test stops for H1 once the LLR exceeds
``log((1 - beta) / alpha)`` and for H0 once it falls below
``log(beta / (1 - alpha))``, so that it wrongly accepts H1 with probability
about ``alpha`` and wrongly accepts H0 with probability about ``beta``.
Two Elo models fix what ``elo0`` and ``elo1`` mean:

* ``"normalized"`` (fishtest's default): normalized Elo (nElo), a multiple of
  the t-value ``(score - 1/2) / sigma`` of the per-game score, ``sigma``
  estimated from the pairs: ``nElo = 800 / ln 10 * t``; the constraint on the
  distribution is its t-value, solved by a fixed-point iteration (each step a
  secular equation of the constraint linearized at the last estimate).
* ``"logistic"``: logistic Elo, the expected score being
  ``1 / (1 + 10 ** (-elo / 400))``; the constraint is the distribution's mean.

As in fishtest, a pair score never seen counts as 0.001 pairs (a small
prior, so that no probability is zero). fishtest also shifts the bounds by an
estimate of how far the LLR overshoots them between its updates; this module
uses the plain bounds (it updates after every pair).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from pacru._integers import integer

if TYPE_CHECKING:
    from pacru.bots.arena import GameResult

__all__ = [
    "ELO_MODELS",
    "NELO_PER_T",
    "SPRTResult",
    "bounds",
    "elo_estimate",
    "game_score",
    "llr",
    "llr_logistic",
    "llr_normalized",
    "logistic_score",
    "pair_scores",
    "pentanomial",
    "sprt",
]

#: The Elo models of :func:`llr`; the first is the default (fishtest's).
ELO_MODELS = ("normalized", "logistic")

#: Normalized Elo per unit of t-value, ``800 / ln 10`` (about 347.44).
NELO_PER_T = 800 / math.log(10)

#: The count given to a pair score never seen (fishtest's regularization).
_PRIOR = 1e-3

#: The two-sided 95% normal quantile.
_Z95 = 1.959963984540054

#: The pair scores, 0 to 2 points in half points, as the mean score of a game.
_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)


def game_score(result: GameResult, entry: int = 0) -> float:
    """Entry ``entry``'s score in one game: 1 for a sole win, 0.5 for a shared win (D35) or
    a game without winner, 0 when another entry won."""
    seat = result.seats.index(entry)
    if not result.winners or (seat in result.winners and len(result.winners) > 1):
        return 0.5
    return 1.0 if seat in result.winners else 0.0


def pair_scores(games: Iterable[GameResult], entry: int = 0) -> list[float]:
    """Entry ``entry``'s points in each complete pair of a 2-player match (0 to 2 each).

    Games ``2k`` and ``2k + 1`` (:attr:`GameResult.index <pacru.bots.arena.GameResult>`)
    form pair ``k``; a pair missing a game (a match interrupted) is left out.
    The pairs come in pair order.

    Raises:
        ValueError: a game that is not a 2-player game.
    """
    by_index: dict[int, GameResult] = {}
    for g in games:
        if len(g.seats) != 2:
            raise ValueError(f"an SPRT needs 2-player games, not {len(g.seats)} players")
        by_index[g.index] = g
    out = []
    for first in sorted(i for i in by_index if i % 2 == 0):
        if first + 1 in by_index:
            out.append(game_score(by_index[first], entry) + game_score(by_index[first + 1], entry))
    return out


def pentanomial(scores: Iterable[float]) -> tuple[int, int, int, int, int]:
    """How many pairs scored 0, 0.5, 1, 1.5 and 2 points: the pentanomial frequencies.

    Raises:
        ValueError: a score that is not one of those five.
    """
    counts = [0] * 5
    for score in scores:
        slot = score * 2
        if slot not in (0, 1, 2, 3, 4):
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {score!r}")
        counts[int(slot)] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def logistic_score(elo: float) -> float:
    """The expected score (0 to 1) of a player ``elo`` logistic Elo stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


def _elo_of_score(score: float) -> float:
    """Logistic Elo of an expected score, the score kept within [0.001, 0.999] (fishtest's)."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def _checked_counts(counts: Sequence[object]) -> list[int]:
    """The five pentanomial counts as ints.

    Raises:
        ValueError: not five counts, or a negative one.
        TypeError: a count that is not an integer.
    """
    if len(counts) != 5:
        raise ValueError(f"a pentanomial has 5 counts (pairs scoring 0 to 2), not {len(counts)}")
    out = []
    for c in counts:
        number = integer(c)
        if number is None:
            raise TypeError(f"pentanomial counts are integers, not {c!r}")
        if number < 0:
            raise ValueError(f"pentanomial counts are not negative: {number}")
        out.append(number)
    return out


def _distribution(counts: Sequence[object]) -> tuple[float, list[float]]:
    """(pairs, empirical probability of each pair score), unseen scores given the prior."""
    regular = [float(c) if c else _PRIOR for c in _checked_counts(counts)]
    total = math.fsum(regular)
    return total, [c / total for c in regular]


def _mean_var(probs: Sequence[float]) -> tuple[float, float]:
    """Mean and variance of the pair score (as a game's mean, 0 to 1) under ``probs``."""
    mean = math.fsum(p * a for p, a in zip(probs, _VALUES, strict=True))
    return mean, math.fsum(p * (a - mean) ** 2 for p, a in zip(probs, _VALUES, strict=True))


def _secular_root(probs: Sequence[float], shifted: Sequence[float]) -> float:
    """The Lagrange multiplier ``x`` of the MLE: the root of ``sum p b / (1 + x b) = 0``.

    ``b`` (``shifted``) must take both signs; the left side falls strictly
    with ``x`` between the poles ``-1 / max b`` and ``-1 / min b`` (where every
    ``1 + x b`` is positive), so bisection finds the root to the last bit.

    Raises:
        ValueError: ``b`` does not take both signs: no distribution meets the
            hypothesis (a bound far outside what the results allow).
    """
    low_b, high_b = min(shifted), max(shifted)
    if not low_b < 0 < high_b:
        raise ValueError("the Elo bound is out of reach of these results: no distribution has it")
    lo, hi = -1 / high_b, -1 / low_b
    for _ in range(2000):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        side = math.fsum(p * b / (1 + mid * b) for p, b in zip(probs, shifted, strict=True))
        if side > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _mle_mean(probs: Sequence[float], mean: float) -> list[float]:
    """The distribution nearest ``probs`` (maximum likelihood) whose mean is ``mean``."""
    shifted = [a - mean for a in _VALUES]
    x = _secular_root(probs, shifted)
    return [p / (1 + x * b) for p, b in zip(probs, shifted, strict=True)]


def _mle_t_value(probs: Sequence[float], t: float) -> list[float]:
    """The distribution nearest ``probs`` whose t-value ``(mean - 1/2) / sigma`` is ``t``.

    The constraint ``mean - 1/2 - t sigma = 0`` is linearized at the current
    estimate (mean ``m``, deviation ``s``): ``sum q b = 0`` with
    ``b = a - 1/2 - t s (1 + ((a - m) / s)^2) / 2``, which is the constraint
    itself once the estimate stops moving, and whose gradient is the
    constraint's; each step is one secular equation. It starts from the
    uniform distribution (fishtest's start) and stops when no probability
    moves by more than 1e-12.
    """
    q = [0.2] * 5
    for _ in range(100):
        mean, var = _mean_var(q)
        sigma = math.sqrt(var)
        shifted = [a - 0.5 - t * sigma * (1 + ((a - mean) / sigma) ** 2) / 2 for a in _VALUES]
        x = _secular_root(probs, shifted)
        new = [p / (1 + x * b) for p, b in zip(probs, shifted, strict=True)]
        moved = max(abs(u - v) for u, v in zip(new, q, strict=True))
        q = new
        if moved < 1e-12:
            break
    return q


def _log_ratio(probs: Sequence[float], q0: Sequence[float], q1: Sequence[float]) -> float:
    return math.fsum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1, strict=True))


def _real(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} is a number, not {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, not {number}")
    return number


def llr_logistic(counts: Sequence[object], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``),
    both in logistic Elo, for the pentanomial ``counts`` (natural log, no unit).

    ``pairs * sum p log(q1 / q0)`` where ``p`` is the observed distribution of
    the pair scores and ``q0``, ``q1`` the maximum-likelihood distributions with
    the expected scores of ``elo0`` and ``elo1`` (:func:`logistic_score`).

    Raises:
        ValueError, TypeError: bad counts (see :func:`pentanomial`) or a bound
            that is not a finite number.
    """
    s0, s1 = (logistic_score(_real(e, n)) for e, n in ((elo0, "elo0"), (elo1, "elo1")))
    pairs, probs = _distribution(counts)
    return pairs * _log_ratio(probs, _mle_mean(probs, s0), _mle_mean(probs, s1))


def llr_normalized(counts: Sequence[object], nelo0: float, nelo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (``nelo1``) against H0 (``nelo0``),
    both in normalized Elo, for the pentanomial ``counts`` (natural log, no unit).

    nElo ``e`` is the per-game t-value ``e / (800 / ln 10)``; a pair (two games)
    has ``sqrt 2`` times the t-value of a game, which constrains the
    distribution of pair scores.

    Raises:
        ValueError, TypeError: bad counts, a bound that is not a finite number,
            or one so far out that no distribution reaches it.
    """
    bounds_named = ((nelo0, "elo0"), (nelo1, "elo1"))
    # A pair's score has sqrt(2) times a game's t-value (two independent games).
    t0, t1 = (_real(e, n) / NELO_PER_T * math.sqrt(2) for e, n in bounds_named)
    pairs, probs = _distribution(counts)
    return pairs * _log_ratio(probs, _mle_t_value(probs, t0), _mle_t_value(probs, t1))


def llr(counts: Sequence[object], elo0: float, elo1: float, model: str = "normalized") -> float:
    """:func:`llr_normalized` or :func:`llr_logistic`, by ``model`` (:data:`ELO_MODELS`).

    Raises:
        ValueError: an unknown model; or as those functions.
    """
    if model == "normalized":
        return llr_normalized(counts, elo0, elo1)
    if model == "logistic":
        return llr_logistic(counts, elo0, elo1)
    raise ValueError(f"unknown Elo model {model!r}: one of {', '.join(ELO_MODELS)}")


def bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The SPRT's stopping bounds on the LLR:
    ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``.

    Raises:
        ValueError: ``alpha`` or ``beta`` not in (0, 1), or ``alpha + beta >= 1``.
    """
    a, b = _real(alpha, "alpha"), _real(beta, "beta")
    if not (0 < a < 1 and 0 < b < 1 and a + b < 1):
        raise ValueError(f"alpha and beta lie in (0, 1) with alpha + beta < 1, not {a}, {b}")
    return math.log(b / (1 - a)), math.log((1 - b) / a)


def elo_estimate(counts: Sequence[object]) -> tuple[float, float, float, float, float]:
    """(Elo, its 95% half-width, LOS, nElo, its 95% half-width) from pentanomial ``counts``.

    As fishtest reports "Elo: x ± y": the mean score per game ``m`` with the
    standard error ``se`` of the pair scores' mean, Elo is the logistic Elo of
    ``m`` and the half-width half the Elo distance between ``m ± 1.96 se``
    (scores kept within [0.001, 0.999]); LOS (0 to 1) is the normal
    probability that ``m`` exceeds 1/2. nElo is ``800 / ln 10 * (m - 1/2) /
    sigma`` with ``sigma`` the per-game deviation (``sqrt 2`` times that of the
    pair mean), its half-width ``1.96 * 800 / ln 10 / sqrt(games)`` (sigma
    taken as known). NaN for every value when there are no pairs.

    Raises:
        ValueError, TypeError: bad counts.
    """
    if sum(_checked_counts(counts)) == 0:
        return (math.nan,) * 5
    pairs, probs = _distribution(counts)
    mean, var = _mean_var(probs)
    se = math.sqrt(var / pairs)
    elo = _elo_of_score(mean)
    error = (_elo_of_score(mean + _Z95 * se) - _elo_of_score(mean - _Z95 * se)) / 2
    los = 0.5 * (1 + math.erf((mean - 0.5) / se / math.sqrt(2)))
    nelo = NELO_PER_T * (mean - 0.5) / math.sqrt(2 * var)
    return elo, error, los, nelo, _Z95 * NELO_PER_T / math.sqrt(2 * pairs)


@attrs.frozen
class SPRTResult:
    """Where an SPRT stands (see :func:`sprt`).

    Attributes:
        pentanomial: pairs scoring 0, 0.5, 1, 1.5, 2 points for the first bot.
        pairs: the pairs counted (the sum of ``pentanomial``); ``games`` twice that.
        model: the Elo model of ``elo0``, ``elo1`` (:data:`ELO_MODELS`).
        elo0, elo1: the hypotheses H0 and H1, in the model's Elo.
        alpha, beta: the error rates the test was set for.
        llr: the log-likelihood ratio; ``lower``, ``upper``: its bounds.
        verdict: ``"H1 accepted"`` (``llr > upper``), ``"H0 accepted"``
            (``llr < lower``) or ``"continue"``.
        elo, elo_error: logistic Elo with its 95% half-width; ``los``: the
            likelihood of superiority (0 to 1); ``nelo``, ``nelo_error``:
            normalized Elo with its 95% half-width (:func:`elo_estimate`).
    """

    pentanomial: tuple[int, int, int, int, int]
    pairs: int
    games: int
    model: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    llr: float
    lower: float
    upper: float
    verdict: str
    elo: float
    elo_error: float
    los: float
    nelo: float
    nelo_error: float


def sprt(
    counts: Sequence[object],
    elo0: float = 0.0,
    elo1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    model: str = "normalized",
) -> SPRTResult:
    """The SPRT of H1 (``elo1``) against H0 (``elo0``) for the pentanomial ``counts``.

    With no pairs the LLR is 0 (the test has not begun) and the Elo values NaN.

    Raises:
        ValueError: bad counts; ``elo0 >= elo1``; an unknown ``model``; bad
            ``alpha``, ``beta`` (:func:`bounds`).
        TypeError: a count or bound of the wrong type.
    """
    if model not in ELO_MODELS:
        raise ValueError(f"unknown Elo model {model!r}: one of {', '.join(ELO_MODELS)}")
    e0, e1 = _real(elo0, "elo0"), _real(elo1, "elo1")
    if not e0 < e1:
        raise ValueError(f"elo0 must be below elo1, not {e0} and {e1}")
    lower, upper = bounds(alpha, beta)
    checked = _checked_counts(counts)
    penta = (checked[0], checked[1], checked[2], checked[3], checked[4])
    pairs = sum(penta)
    ratio = llr(penta, e0, e1, model) if pairs else 0.0
    verdict = "H1 accepted" if ratio > upper else "H0 accepted" if ratio < lower else "continue"
    elo, error, los, nelo, nelo_error = elo_estimate(penta)
    return SPRTResult(
        pentanomial=penta,
        pairs=pairs,
        games=2 * pairs,
        model=model,
        elo0=e0,
        elo1=e1,
        alpha=float(alpha),
        beta=float(beta),
        llr=ratio,
        lower=lower,
        upper=upper,
        verdict=verdict,
        elo=elo,
        elo_error=error,
        los=los,
        nelo=nelo,
        nelo_error=nelo_error,
    )
