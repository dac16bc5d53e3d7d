# SPDX-License-Identifier: GPL-2.0
"""Statistics: ratios to vanilla, the deterministic modes' paired 95 %
intervals (rounds paired by round number: round r of every configuration
boots with the same seed), their verdicts, vanilla's spread over its
rounds, and the A/A checks (repeat boot, shifted layout)."""
import collections
import functools
import math
import statistics

from .ingest import BASE, LAYOUT, REPEAT

# a difference the targets do not call a regression (or a win) whatever
# its interval: an interval of zero width (every round the same ratio)
# resolves any difference, however small
FLOOR = 0.005

# the t distribution's 0.975 quantile for 1..30 degrees of freedom: a
# two-sided 95 % interval of the mean of df + 1 values (checked against
# a numerical integral of the density in bench/tests/test_report.py)
T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)
Z975 = 1.959964


def t975(df):
    """the 0.975 quantile of Student's t with df degrees of freedom: the
    table to 30, then its expansion around the normal quantile (within
    1e-4 of the exact value beyond 30)"""
    if df < 1:
        raise ValueError("t975: %r degrees of freedom" % df)
    if df <= len(T975):
        return T975[df - 1]
    z = Z975
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


# A configuration's paired ratio to a base: n rounds paired, the ratio
# (the geometric mean of the per-round ratios), the 95 % interval [lo, hi]
# (None when there is none) and why there is none ("1 round", "a round
# with 0 on one side": then ratio is the ratio of the paired rounds' sums)
Interval = collections.namedtuple("Interval", "n ratio lo hi why")


def paired_ratio(per, c, key, base=BASE):
    """c against base on KEY, rounds paired by their number: a t interval
    on the per-round log ratios, back-transformed (the geometric mean
    ratio and its 95 % interval).  None when the two share no round with
    the value; a round where both are 0 counts as a ratio of 1."""
    b = per.get(base, {}).get("rounds", {})
    v = per.get(c, {}).get("rounds", {})
    pairs = [(v[r][key], b[r][key]) for r in sorted(v) if r in b and
             v[r].get(key) is not None and b[r].get(key) is not None]
    if not pairs:
        return None
    n = len(pairs)
    if any((x == 0) != (y == 0) or x < 0 or y < 0 for x, y in pairs):
        sx, sy = math.fsum(x for x, _ in pairs), math.fsum(y for _, y in pairs)
        return Interval(n, sx / sy if sy else None, None, None, "a round with 0 on one side")
    logs = [math.log(x / y) if y else 0.0 for x, y in pairs]
    mean = math.fsum(logs) / n
    if n == 1:
        return Interval(1, math.exp(mean), None, None, "1 round")
    h = t975(n - 1) * statistics.stdev(logs) / math.sqrt(n)
    return Interval(n, math.exp(mean), math.exp(mean - h), math.exp(mean + h), None)


def change(a_logs, b_logs):
    """Run B against run A, two independent samples of per-round logs
    (a metric's logs, or a configuration's per-round log ratios to
    vanilla in each run): exp(mean B - mean A) and its 95 % interval,
    Welch's t (the runs' rounds do not pair, and their spreads may
    differ; the Welch-Satterthwaite degrees of freedom, rounded down).
    None when a run has no value; no interval with one round in a run."""
    a, b = list(a_logs), list(b_logs)
    if not a or not b:
        return None
    d = math.fsum(b) / len(b) - math.fsum(a) / len(a)
    n = min(len(a), len(b))
    if n < 2:
        return Interval(n, math.exp(d), None, None, "1 round")
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    if va + vb == 0:
        return Interval(n, math.exp(d), math.exp(d), math.exp(d), None)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    h = t975(max(1, int(df))) * math.sqrt(va + vb)
    return Interval(n, math.exp(d), math.exp(d - h), math.exp(d + h), None)


def verdict(iv, higher_is_better=False):
    """better, worse or not resolved: whether the interval excludes 1, and
    on which side (the deterministic metrics are costs, lower is better;
    a rate is the other way)"""
    if iv is None or iv.lo is None:
        return "not resolved"
    if iv.lo > 1:
        return "better" if higher_is_better else "worse"
    if iv.hi < 1:
        return "worse" if higher_is_better else "better"
    return "not resolved"


def half_width(iv):
    """the smallest effect the interval resolves, as a fraction: a ratio
    further from 1 than this (in either direction) with the same rounds
    would have been resolved; None without an interval"""
    if iv is None or iv.lo is None:
        return None
    return math.sqrt(iv.hi / iv.lo) - 1


def ifmt(iv, higher_is_better=False, digits=4):
    """a cell: ratio [lo-hi]; n/a (why) where there is no interval.  No
    verdict word: only the primary family's cells carry one
    (verdicts.py); higher_is_better is kept for the callers' tables"""
    if iv is None or iv.ratio is None:
        return "-"
    r = "%.*f" % (digits, iv.ratio)
    if iv.lo is None:
        return "%s [n/a (%s)]" % (r, iv.why)
    d = min(digits, 3)
    return "%s [%.*f-%.*f]" % (r, d, iv.lo, d, iv.hi)


def point(per, c, key, base=BASE):
    """c's ratio to base: the paired geometric mean where the rounds pair
    (the figure the intervals are about), else the ratio of the medians"""
    iv = paired_ratio(per, c, key, base)
    if iv is not None and iv.ratio is not None:
        return iv.ratio
    b = per.get(base, {}).get(key)
    v = per.get(c, {}).get(key)
    return v / b if v is not None and b else None


def spread(per, key, c=BASE):
    """c's spread over its rounds (the seeds): (geometric standard
    deviation as a fraction, rounds, min, max), the deviation None with
    fewer than two rounds or a value of 0; None without rounds"""
    vs = [m[key] for m in per.get(c, {}).get("rounds", {}).values() if m.get(key) is not None]
    if not vs:
        return None
    gsd = None
    if len(vs) > 1 and min(vs) > 0:
        gsd = math.exp(statistics.stdev(math.log(x) for x in vs)) - 1
    return gsd, len(vs), min(vs), max(vs)


def resolvable(gsd, n):
    """the smallest ratio n paired rounds resolve (as a fraction) for a
    configuration whose rounds vary as much as vanilla's (geometric
    standard deviation gsd) and independently of them: the half-width
    exp(t * sqrt(2) * s / sqrt(n)) - 1.  Pairing by seed narrows it where
    the seed moves both kernels alike.  None below two rounds."""
    if gsd is None or n < 2:
        return None
    return math.exp(t975(n - 1) * math.sqrt(2) * math.log1p(gsd) / math.sqrt(n)) - 1


def margin(per, key):
    """the distance from 1 (a fraction) a target asks of an interval: the
    floor, or the layout A/A's ratio where its own interval (vanilla-b's;
    vanilla-layout's in runs before it) excludes 1 (the binary's layout moves the metric in every round, a
    bias the rounds cannot average out)"""
    lay = paired_ratio(per, LAYOUT, key)
    m = FLOOR
    if lay is not None and verdict(lay) != "not resolved":
        m = max(m, max(lay.ratio, 1 / lay.ratio) - 1)
    return m


def _beta_cf(a, b, x):
    """the continued fraction of the incomplete beta function (modified
    Lentz), for x below (a + 1) / (a + b + 2)"""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        for aa in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                   -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + aa * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def beta_inc(a, b, x):
    """the regularized incomplete beta function I_x(a, b)"""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) +
                     a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_cf(a, b, x) / a
    return 1 - front * _beta_cf(b, a, 1 - x) / b


@functools.lru_cache(maxsize=None)
def t_quantile(p, df):
    """the P quantile (0.5 <= P < 1) of Student's t with DF degrees of
    freedom: bisection on its two-sided tail, P(|T| > t) = I_x(df/2, 1/2)
    at x = df / (df + t^2) (t975's table is its 0.975 quantile)"""
    if df < 1 or not 0.5 <= p < 1:
        raise ValueError("t_quantile: p %r, %r degrees of freedom" % (p, df))
    tail = 2 * (1 - p)
    lo, hi = 0.0, 1.0
    while beta_inc(df / 2, 0.5, df / (df + hi * hi)) > tail:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if beta_inc(df / 2, 0.5, df / (df + mid * mid)) > tail:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2


def simultaneous(iv, m, alpha=0.025):
    """IV as one of a family of M intervals that all hold their true ratios
    in at least 1 - ALPHA of runs, whatever their dependence (Bonferroni:
    each at 1 - ALPHA / M), from the same rounds: IV's log half-width
    times t(1 - ALPHA / 2M) over t(0.975)"""
    if iv.lo is None or m < 1:
        return iv
    k = t_quantile(1 - alpha / (2 * m), iv.n - 1) / t975(iv.n - 1)
    c = math.log(iv.ratio)
    h = (math.log(iv.hi) - c) * k
    return Interval(iv.n, iv.ratio, math.exp(c - h), math.exp(c + h), None)


def chance_bound(n, p=0.05, level=0.95):
    """the most of N intervals that exclude a true ratio of 1 by chance,
    each with probability P, at LEVEL: the smallest k with
    P(Binomial(n, p) > k) <= 1 - LEVEL (41 intervals of 95 %: 5).  The
    rows of one workload are not independent (its L1D, L2 and L3 misses
    move together), which makes more of them than this likelier."""
    if n < 0 or not 0 < p < 1:
        raise ValueError("chance_bound: %r intervals, p %r" % (n, p))
    below = 0.0
    for k in range(n + 1):
        below += math.comb(n, k) * p ** k * (1 - p) ** (n - k)
        if 1 - below <= 1 - level + 1e-12:
            return k
    return n


def beyond(iv, m):
    """+1 if the interval lies above 1 + m, -1 if below 1 / (1 + m), else 0"""
    if iv is None or iv.lo is None:
        return 0
    if math.log(iv.lo) > math.log1p(m):
        return 1
    if math.log(iv.hi) < -math.log1p(m):
        return -1
    return 0


def ratio(per, c):
    """wall mode: c's median over vanilla's, with the min and max of the
    per-round ratios"""
    base = per.get(BASE, {})
    rs = [per[c][r] / base[r] for r in per.get(c, {}) if base.get(r)]
    if not rs or not base:
        return None
    med = statistics.median(per[c].values()) / statistics.median(base.values())
    return med, min(rs), max(rs)


def larger_over_smaller(a, b):
    """an A/A ratio: 1.0 for equal values, None without both or with 0"""
    if a is None or b is None:
        return None
    if a == b:
        return 1.0
    return max(a, b) / min(a, b) if min(a, b) else None


def aa_repeat(per, key):
    """vanilla's first round against its repeat (one kernel, one history,
    two boots), larger over smaller: the instrument's repeatability"""
    return larger_over_smaller(per.get(BASE, {}).get("rounds", {}).get(1, {}).get(key),
                               per.get(REPEAT, {}).get("rounds", {}).get(1, {}).get(key))


def cv(values):
    """coefficient of variation (sample standard deviation over the
    mean), None with fewer than two values"""
    values = list(values)
    if len(values) < 2 or not statistics.mean(values):
        return None
    return statistics.stdev(values) / abs(statistics.mean(values))


def sign_test(diffs):
    """two-sided exact sign test on paired differences (ties dropped):
    (p, smallest p these many pairs can reach)"""
    d = [x for x in diffs if x]
    n = len(d)
    if not n:
        return 1.0, 1.0
    k = min(sum(1 for x in d if x > 0), sum(1 for x in d if x < 0))
    p = min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)
    return p, min(1.0, 2 / 2 ** n)


def paired(per, c, base=BASE):
    """per-round differences c - base over the rounds both have"""
    b = per.get(base, {})
    v = per.get(c, {})
    return [v[r] - b[r] for r in v if r in b]
