"""A learner's puzzle rating: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012).

A rating is an estimate with its uncertainty: ``rating`` (1500 at the start), ``deviation`` (RD:
the standard deviation of the estimate, 350 at the start, shrinking with each result) and
``volatility`` (how erratic the learner is). A puzzle is an opponent with a rating from its
difficulty (:func:`puzzle_rating`); solving it on the first try is a win, anything else a loss,
and each first attempt is its own rating period, as on Lichess.

Glickman's worked example (his paper rounds the steps and prints 1464.06 and 151.52):

>>> after = Rating(1500, 200).after([(1400, 30, 1.0), (1550, 100, 0.0), (1700, 300, 0.0)])
>>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 5)
(1464.05, 151.52, 0.06)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from gintutor.text.i18n import number

SCALE = 173.7178
"""Glicko-2's scale: ratings are ``1500 + SCALE * mu`` (Glickman's constant, 400 / ln 10)."""
START = 1500.0
START_DEVIATION = 350.0
"""A new learner: 1500 ± 700 (95%), the Glicko defaults (Lichess starts puzzles the same way)."""
START_VOLATILITY = 0.06
TAU = 0.5
"""How much the volatility may change: Glickman advises 0.3 to 1.2; 0.5 is his example's."""
PROVISIONAL = 110.0
"""A rating whose deviation is above this is provisional (shown with a ``?``, as Lichess does)."""
EPSILON = 1e-6
"""The volatility iteration's tolerance (Glickman's)."""

PUZZLE_RATINGS = {1: 1100.0, 2: 1300.0, 3: 1500.0, 4: 1700.0, 5: 1900.0}
PUZZLE_DEVIATION = 150.0
"""A puzzle's rating comes from its difficulty (1 to 5, 200 points apart around 1500), a
coarse guess until puzzles are rated by how often learners or the bots solve them: hence
a deviation of 150, which keeps one puzzle from moving a learner's rating too far."""

Result = tuple[float, float, float]
"""An opponent's rating and deviation, and the score against it (1 win, 0.5 draw, 0 loss)."""


def puzzle_rating(difficulty: int) -> tuple[float, float]:
    """A puzzle's rating and deviation, from its difficulty (1 to 5).

    >>> puzzle_rating(3)
    (1500.0, 150.0)
    """
    return PUZZLE_RATINGS[max(1, min(5, difficulty))], PUZZLE_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: the estimate, its deviation (RD) and the volatility."""

    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        """True while the deviation is above :data:`PROVISIONAL`."""
        return self.deviation > PROVISIONAL

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the rating: two deviations either side."""
        return self.rating - 2 * self.deviation, self.rating + 2 * self.deviation

    def expected(self, opponent: float, deviation: float) -> float:
        """The chance to beat an opponent of this rating and deviation (to solve a puzzle)."""
        mu, mu_j = (self.rating - START) / SCALE, (opponent - START) / SCALE
        return _expected(mu, mu_j, deviation / SCALE)

    def after(self, results: Iterable[Result], tau: float = TAU) -> Rating:
        """The rating after one rating period with these results (none: only the deviation
        grows, up to the starting one). Glickman's steps 2 to 8."""
        mu = (self.rating - START) / SCALE
        phi = self.deviation / SCALE
        sigma = self.volatility
        games = [((r - START) / SCALE, rd / SCALE, s) for r, rd, s in results]
        if not games:
            grown = min(math.sqrt(phi * phi + sigma * sigma), START_DEVIATION / SCALE)
            return Rating(self.rating, grown * SCALE, sigma)
        v_inverse = 0.0
        gain = 0.0
        for mu_j, phi_j, score in games:
            g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
            v_inverse += g * g * e * (1.0 - e)
            gain += g * (score - e)
        v = 1.0 / v_inverse
        delta = v * gain
        sigma = _volatility(delta, phi, v, sigma, tau)
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
        new_mu = mu + new_phi * new_phi * gain
        return Rating(START + SCALE * new_mu, SCALE * new_phi, sigma)

    def text(self) -> str:
        """``1532 ± 196`` (the 95% interval's half-width), ``?`` while provisional.

        >>> Rating().text()
        '1500? ± 700'
        """
        mark = "?" if self.provisional else ""
        return f"{number(self.rating)}{mark} ± {number(2 * self.deviation)}"


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """The new volatility: the root of Glickman's f by the Illinois algorithm (step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
