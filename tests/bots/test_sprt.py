"""The pentanomial SPRT: :mod:`pacru.bots.sprt`.

The reference values are computed here another way: the logistic LLR from the
dual of the constrained likelihood (a concave maximum found by golden-section
search, not the root the module finds by bisection), the normalized one by
checking that the module's distributions are stationary points of the
constrained likelihood (Lagrange conditions) and meet the constraint.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from pacru.bots.arena import GameResult
from pacru.bots.sprt import (
    NELO_PER_T,
    _mle_t_value,
    bounds,
    elo_estimate,
    game_score,
    llr,
    llr_logistic,
    llr_normalized,
    logistic_score,
    pair_scores,
    pentanomial,
    sprt,
)

VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)
COUNTS = [(1, 5, 10, 6, 2), (3, 0, 7, 2, 1), (0, 1, 3, 8, 20), (30, 1, 0, 0, 0), (2, 2, 2, 2, 2)]


def probabilities(counts: Sequence[int]) -> tuple[float, list[float]]:
    """fishtest's empirical distribution: an unseen pair score counts 0.001 pairs."""
    regular = [c if c else 1e-3 for c in counts]
    return sum(regular), [c / sum(regular) for c in regular]


def golden_max(f: Callable[[float], float], lo: float, hi: float) -> float:
    """The maximum of a concave ``f`` on (lo, hi), by golden-section search."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    for _ in range(200):
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        if f(c) > f(d):
            b = d
        else:
            a = c
    return f((a + b) / 2)


def dual_log_likelihood(probs: Sequence[float], mean: float) -> float:
    """max sum p log q over distributions q with mean ``mean``, minus sum p log p:
    the dual is ``-max_x sum p log(1 + x (a - mean))`` (concave in x)."""
    shifted = [a - mean for a in VALUES]
    lo, hi = -1 / max(shifted), -1 / min(shifted)
    margin = (hi - lo) * 1e-12

    def h(x: float) -> float:
        return sum(p * math.log(1 + x * b) for p, b in zip(probs, shifted, strict=True))

    return -golden_max(h, lo + margin, hi - margin)


@pytest.mark.parametrize("counts", COUNTS)
@pytest.mark.parametrize(("elo0", "elo1"), [(0, 10), (-3, 1), (0, 200)])
def test_logistic_llr_is_the_dual_maximum(counts: tuple[int, ...], elo0: int, elo1: int) -> None:
    pairs, probs = probabilities(counts)
    expected = pairs * (
        dual_log_likelihood(probs, logistic_score(elo1))
        - dual_log_likelihood(probs, logistic_score(elo0))
    )
    assert llr_logistic(counts, elo0, elo1) == pytest.approx(expected, rel=1e-7, abs=1e-9)
    assert llr(counts, elo0, elo1, "logistic") == llr_logistic(counts, elo0, elo1)


@pytest.mark.parametrize("counts", COUNTS)
@pytest.mark.parametrize("nelo", [-10.0, 0.0, 5.0, 40.0])
def test_normalized_mle_is_stationary_and_meets_its_t_value(
    counts: tuple[int, ...], nelo: float
) -> None:
    """The MLE q under (mean - 1/2) / sigma = t: p_i / q_i is affine in the constraint's
    gradient a_i - t (a_i - mean)^2 / (2 sigma) (Lagrange), and q has that t-value."""
    _, probs = probabilities(counts)
    t = nelo / NELO_PER_T * math.sqrt(2)
    q = _mle_t_value(probs, t)
    mean = sum(p * a for p, a in zip(q, VALUES, strict=True))
    sigma = math.sqrt(sum(p * (a - mean) ** 2 for p, a in zip(q, VALUES, strict=True)))
    assert sum(q) == pytest.approx(1.0, abs=1e-9)
    assert (mean - 0.5) / sigma == pytest.approx(t, abs=1e-9)
    gradient = np.array([a - t * (a - mean) ** 2 / (2 * sigma) for a in VALUES])
    ratio = np.array(probs) / np.array(q)
    design = np.column_stack([np.ones(5), gradient])
    fit, *_ = np.linalg.lstsq(design, ratio, rcond=None)
    assert np.abs(design @ fit - ratio).max() < 1e-8


@pytest.mark.parametrize("counts", COUNTS)
def test_normalized_llr_from_its_distributions(counts: tuple[int, ...]) -> None:
    pairs, probs = probabilities(counts)
    q0, q1 = (_mle_t_value(probs, e / NELO_PER_T * math.sqrt(2)) for e in (0.0, 10.0))
    expected = pairs * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1, strict=True))
    assert llr_normalized(counts, 0, 10) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_llr_hand_checks() -> None:
    """Symmetric results have mean 1/2, so H0 (elo 0) is the data itself: the LLR is minus
    the pair count times the Kullback-Leibler divergence to H1's distribution, below 0."""
    counts = (1, 2, 3, 2, 1)
    pairs, probs = probabilities(counts)
    for model in ("logistic", "normalized"):
        assert llr(counts, 0, 10, model) < 0
        assert llr(counts, 5, 5, model) == 0.0
    h1 = dual_log_likelihood(probs, logistic_score(10))
    assert llr_logistic(counts, 0, 10) == pytest.approx(pairs * h1, rel=1e-7)
    # Swapping the bots mirrors the pair scores and the bounds: the LLR changes sign.
    for counts in COUNTS:
        mirror = counts[::-1]
        for model in ("logistic", "normalized"):
            assert llr(mirror, -7, 7, model) == pytest.approx(-llr(counts, -7, 7, model), abs=1e-9)


def test_pinned_values_agree_with_fishtest() -> None:
    """Values that fishtest's LLRcalc gives for the same counts (checked once against it);
    its own example pairs logistic bounds 0.2, 0.9 with their nElo 0.764, 3.439."""
    assert llr_logistic((1, 5, 10, 6, 2), 0, 10) == pytest.approx(0.14026131322558846, rel=1e-9)
    assert llr_normalized((1, 5, 10, 6, 2), 0, 10) == pytest.approx(0.10546642673635924, rel=1e-9)
    big = (39, 2226, 31451, 2412, 40)
    assert llr_logistic(big, 0.2, 0.9) == pytest.approx(2.1625425800476834, rel=1e-9)
    assert llr_normalized(big, 0.764, 3.439) == pytest.approx(2.1629408695861474, rel=1e-9)
    assert llr_normalized((0, 0, 0, 0, 3), 0, 10) == pytest.approx(0.11961381671656492, rel=1e-9)


def test_bounds_and_verdicts() -> None:
    lower, upper = bounds()
    assert (lower, upper) == (math.log(0.05 / 0.95), math.log(0.95 / 0.05))
    assert upper == pytest.approx(2.944438979, abs=1e-9)
    assert bounds(0.1, 0.2) == (math.log(0.2 / 0.9), math.log(0.8 / 0.1))
    # All pairs won: the LLR of (nElo 0, 10) grows by about 0.04 a pair.
    assert sprt((0, 0, 0, 0, 73)).verdict == "continue"
    assert sprt((0, 0, 0, 0, 73)).llr == pytest.approx(2.9101898, abs=1e-6)
    assert sprt((0, 0, 0, 0, 74)).verdict == "H1 accepted"
    assert sprt((70, 0, 0, 0, 0)).verdict == "continue"
    assert sprt((71, 0, 0, 0, 0)).verdict == "H0 accepted"
    for n in range(60, 80):
        for counts in ((0, 0, 0, 0, n), (n, 0, 0, 0, 0), (n // 4, 3, n, 2, n // 3)):
            test = sprt(counts)
            assert test.verdict == (
                "H1 accepted"
                if test.llr > upper
                else "H0 accepted"
                if test.llr < lower
                else "continue"
            )


def test_sprt_result_fields() -> None:
    test = sprt((1, 1, 1, 1, 1), elo0=-5, elo1=5, alpha=0.1, beta=0.2, model="logistic")
    assert (test.pentanomial, test.pairs, test.games, test.model) == ((1,) * 5, 5, 10, "logistic")
    assert (test.elo0, test.elo1, test.alpha, test.beta) == (-5.0, 5.0, 0.1, 0.2)
    assert test.llr == llr_logistic((1,) * 5, -5, 5) == pytest.approx(0.0, abs=1e-12)
    assert (test.lower, test.upper) == bounds(0.1, 0.2)
    empty = sprt((0, 0, 0, 0, 0))
    assert (empty.llr, empty.verdict, empty.pairs) == (0.0, "continue", 0)
    assert math.isnan(empty.elo)
    assert math.isnan(empty.nelo)


def test_elo_estimate_by_hand() -> None:
    """Uniform pair scores: mean 1/2, variance of the pair mean 0.125 over 5 pairs."""
    elo, error, los, nelo, nelo_error = elo_estimate((1, 1, 1, 1, 1))
    se = math.sqrt(0.125 / 5)
    high = 0.5 + 1.959963984540054 * se
    assert (elo, los, nelo) == (0.0, 0.5, 0.0)
    assert error == pytest.approx(-400 * math.log10(1 / high - 1), rel=1e-12)
    assert error == pytest.approx(251.77, abs=0.01)
    assert nelo_error == pytest.approx(1.959963984540054 * 800 / math.log(10) / math.sqrt(10))
    # Mostly won: the mean score (with 0.001 for each unseen pair score) is 9.001 / 10.003,
    # near 0.9, so about 400 log10(9) Elo.
    elo, _, los, nelo, _ = elo_estimate((0, 0, 2, 0, 8))
    mean = (2 * 0.5 + 8 + 1e-3 * (0.25 + 0.75)) / 10.003
    assert elo == pytest.approx(400 * math.log10(mean / (1 - mean)), rel=1e-12)
    assert elo == pytest.approx(381.37, abs=0.01)
    assert los > 0.999
    assert nelo > 0


def result(index: int, seats: tuple[int, ...], winners: tuple[int, ...]) -> GameResult:
    colours = ("green", "yellow", "red")[: len(seats)]
    return GameResult(index, seats, colours, winners, (0,) * len(seats), "x", 10, 0.0)


def test_game_and_pair_scores() -> None:
    # Entry 0 on seat 0 in game 0, on seat 1 in game 1 (seats swapped).
    assert game_score(result(0, (0, 1), (0,))) == 1.0
    assert game_score(result(1, (1, 0), (0,))) == 0.0
    assert game_score(result(1, (1, 0), (0,)), entry=1) == 1.0
    assert game_score(result(0, (0, 1), ())) == 0.5  # no winner
    assert game_score(result(0, (0, 1), (0, 1))) == 0.5  # shared win
    games = [
        result(0, (0, 1), (0,)),
        result(1, (1, 0), (1,)),  # pair 0: 2 points
        result(2, (0, 1), ()),
        result(3, (1, 0), (0,)),  # pair 1: 0.5
        result(5, (1, 0), (1,)),  # pair 2 lacks game 4: left out
    ]
    assert pair_scores(games) == [2.0, 0.5]
    assert pair_scores(games, entry=1) == [0.0, 1.5]
    assert pentanomial([2.0, 0.5, 0.5, 1.0, 0.0]) == (1, 2, 1, 0, 1)
    with pytest.raises(ValueError, match=r"not 0\.25"):
        pentanomial([0.25])
    with pytest.raises(ValueError, match="2-player games, not 3 players"):
        pair_scores([result(0, (0, 1, 2), ())])


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"elo0 must be below elo1, not 10\.0 and 0\.0"):
        sprt((1, 1, 1, 1, 1), elo0=10, elo1=0)
    with pytest.raises(ValueError, match=r"alpha \+ beta < 1"):
        sprt((1, 1, 1, 1, 1), alpha=0.6, beta=0.5)
    with pytest.raises(ValueError, match="unknown Elo model 'bayes'"):
        sprt((1, 1, 1, 1, 1), model="bayes")
    with pytest.raises(ValueError, match="unknown Elo model"):
        llr((1, 1, 1, 1, 1), 0, 10, "bayes")
    with pytest.raises(ValueError, match="5 counts"):
        sprt((1, 1, 1))
    with pytest.raises(ValueError, match="not negative"):
        sprt((1, -1, 1, 1, 1))
    with pytest.raises(TypeError, match=r"integers, not 1\.5"):
        sprt((1, 1.5, 1, 1, 1))
    with pytest.raises(ValueError, match="elo1 must be finite"):
        sprt((1, 1, 1, 1, 1), elo1=math.inf)
    with pytest.raises(TypeError, match="elo0 is a number"):
        sprt((1, 1, 1, 1, 1), elo0="0")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="out of reach"):
        llr_normalized((0, 0, 5, 0, 0), 0, 5000)
    # Any integer type counts.
    numpy_counts = tuple(np.int64(c) for c in (1, 5, 10, 6, 2))
    assert sprt(numpy_counts).llr == sprt((1, 5, 10, 6, 2)).llr
