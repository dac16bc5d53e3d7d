# SPDX-License-Identifier: GPL-2.0
"""Statistics: ratios to vanilla, their per-round spread, and the A/A
checks (rounds, repeat boot, shifted layout) that are the noise a
difference has to beat."""
import math
import statistics

from .ingest import BASE, LAYOUT, REPEAT

# below this, a difference is within what two boots of one kernel differ
# by in any case (the deterministic modes' floor)
FLOOR = 0.005

def ratio(per, c):
    base = per.get(BASE, {})
    rs = [per[c][r] / base[r] for r in per.get(c, {}) if base.get(r)]
    if not rs or not base:
        return None
    med = statistics.median(per[c].values()) / statistics.median(base.values())
    return med, min(rs), max(rs)

def rel(per, c, key):
    """ratio of c's median to vanilla's"""
    b = per.get(BASE, {}).get(key)
    v = per.get(c, {}).get(key)
    if v is None or not b:
        return None
    return v / b

def rel_spread(per, c, key):
    """(min, max) of the per-round ratios of c to vanilla, rounds paired"""
    b = per.get(BASE, {}).get("rounds", {})
    v = per.get(c, {}).get("rounds", {})
    rs = [v[r][key] / b[r][key] for r in v if r in b and b[r][key]]
    return (min(rs), max(rs)) if rs else None

def aa(per, key):
    """vanilla's largest round over its smallest: the noise the histories
    add, None with fewer than two rounds"""
    vs = [m[key] for m in per.get(BASE, {}).get("rounds", {}).values()]
    if len(vs) < 2 or not min(vs):
        return None
    return max(vs) / min(vs)

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

def aa_layout(per, key):
    """vanilla built with a shifted layout against vanilla, medians,
    larger over smaller: the noise of comparing two binaries"""
    return larger_over_smaller(per.get(BASE, {}).get(key), per.get(LAYOUT, {}).get(key))


def noise(per, key):
    """the distance from 1 a ratio must exceed: the largest of the floor,
    vanilla's rounds against each other and the layout A/A (max, not a
    sum: each is an estimate of the same noise)"""
    return max([FLOOR] + [x - 1 for x in (aa(per, key), aa_layout(per, key)) if x is not None])


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
