# SPDX-License-Identifier: GPL-2.0
"""Moderated variances: empirical Bayes in the manner of limma (Smyth
2004, "Linear models and empirical Bayes methods for assessing
differential expression").  Each cell's per-round log ratios give a
sample variance s^2 on d = n - 1 degrees of freedom; the cells of one
metric class in one run are taken as drawn from a scaled inverse
chi-square prior, sigma^2 ~ d0 s0^2 / chi^2_d0, whose d0 and s0^2 are
estimated by the method of moments on log s^2 (E log s^2 = log s0^2 -
digamma(d0/2) + log(d0/2) + digamma(d/2) - log(d/2), Var log s^2 =
trigamma(d/2) + trigamma(d0/2)).  A cell's posterior variance is
(d0 s0^2 + d s^2) / (d0 + d) on d0 + d degrees of freedom: never 0 while
s0^2 > 0, and its t statistic has a t distribution on d0 + d df under
the prior.  The special functions are here, standard library only."""
import collections
import math
import statistics

EULER = 0.5772156649015329

# a cell's s^2 below this share of the class's median is taken at it
# before the logarithm (a zero variance, every round the same ratio, has
# no log; limma floors its variances the same way)
TINY = 1e-5

# the prior of one pool of cells: d0 (at most the cap fit_prior is given),
# s0^2, how many cells it was estimated from, and the moment estimate of
# d0 before the cap (math.inf: the cells' variances vary no more than
# sampling gives)
Prior = collections.namedtuple("Prior", "d0 s02 cells d0_moment")


def digamma(x):
    """psi(x) for x > 0: the recurrence up to 10, then the asymptotic series"""
    if x <= 0:
        raise ValueError("digamma: %r" % x)
    acc = 0.0
    while x < 10:
        acc -= 1 / x
        x += 1
    x2 = 1 / (x * x)
    return acc + math.log(x) - 0.5 / x - x2 * (1 / 12 - x2 * (1 / 120 - x2 * (
        1 / 252 - x2 * (1 / 240 - x2 * 5 / 660))))


def trigamma(x):
    """psi'(x) for x > 0: the recurrence up to 10, then the asymptotic series"""
    if x <= 0:
        raise ValueError("trigamma: %r" % x)
    acc = 0.0
    while x < 10:
        acc += 1 / (x * x)
        x += 1
    x2 = 1 / (x * x)
    return acc + 1 / x + x2 / 2 + x2 / x * (1 / 6 - x2 * (1 / 30 - x2 * (
        1 / 42 - x2 * (1 / 30 - x2 * 5 / 66))))


def trigamma_inverse(y):
    """the x > 0 with trigamma(x) = y (y > 0): trigamma falls from
    infinity to 0, so a bisection on log x finds it"""
    if not y > 0:
        raise ValueError("trigamma_inverse: %r" % y)
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if trigamma(math.exp(mid)) > y:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13:
            break
    return math.exp((lo + hi) / 2)


def fit_prior(cells, d0_max=math.inf):
    """Prior from CELLS, (s^2, d) pairs (d >= 1): limma's moments on
    log s^2.  None with fewer than 3 cells (no spread to estimate).  Each
    e = log s^2 - digamma(d/2) + log(d/2) estimates log s0^2 - digamma(d0/2)
    + log(d0/2); the sample variance of the e's less the mean of
    trigamma(d/2) estimates trigamma(d0/2).  Where that estimate is not
    positive the moments put d0 at infinity (every cell would take s0^2
    alone); d0_max caps d0 there and wherever the estimate exceeds it,
    s0^2 then taken at the capped d0."""
    cells = [(s2, d) for s2, d in cells if d >= 1 and s2 >= 0]
    if len(cells) < 3:
        return None
    med = statistics.median(s2 for s2, _ in cells)
    if med <= 0:
        # most cells with every round alike: no scale to floor at
        med = max([s2 for s2, _ in cells] + [0.0])
        if med <= 0:
            return None
    e = [math.log(max(s2, TINY * med)) - digamma(d / 2) + math.log(d / 2) for s2, d in cells]
    mean = math.fsum(e) / len(e)
    evar = statistics.variance(e) - math.fsum(trigamma(d / 2) for _, d in cells) / len(cells)
    moment = 2 * trigamma_inverse(evar) if evar > 0 else math.inf
    d0 = min(moment, d0_max)
    if math.isinf(d0):
        return Prior(d0, math.exp(mean), len(cells), moment)
    return Prior(d0, math.exp(mean + digamma(d0 / 2) - math.log(d0 / 2)), len(cells), moment)


def posterior(s2, d, prior):
    """(s~^2, its degrees of freedom): the cell's own variance where there
    is no prior, s0^2 on infinite df where d0 is infinite"""
    if prior is None:
        return s2, d
    if math.isinf(prior.d0):
        return prior.s02, math.inf
    return (prior.d0 * prior.s02 + d * s2) / (prior.d0 + d), prior.d0 + d
