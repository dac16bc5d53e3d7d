# SPDX-License-Identifier: GPL-2.0
"""Verdicts for the primary family (bench/primary.tsv): each cell's
per-round log ratios, their variance moderated over the cells of its
metric class in the run (moderate.py), a 95 % interval, and, where the
cell has the rounds and the counts, one of four words:

- worse / better: the ratio lies beyond 1 + SESOI (1 / (1 + SESOI)),
  one-sided t test on the moderated variance;
- equivalent: within the SESOI, two one-sided tests (TOST);
- inconclusive: neither.

Multiplicity: each cell enters Holm's step-down as two hypotheses, (a)
"the log ratio lies within +-log(1 + SESOI)", p = twice the smaller of
the two one-sided p values (rejected: worse or better by the sign), and
(b) "it lies outside", p = the larger of TOST's two p values (rejected:
equivalent).  At 5 % their rejection regions do not overlap, so a cell
makes at most one claim; Holm runs over 2 x the cells that are tested."""
import collections
import functools
import math
import statistics

from .family import MODE_METRICS
from .moderate import fit_prior, posterior
from .stats import beta_inc

ALPHA = 0.05
# no verdict word below these: a variance from 1-2 df is mostly luck,
# and a log ratio of a few events is not the model
MIN_ROUNDS = 4
MIN_EVENTS = 50

# a cell judged: its per-round log ratios, fewest events in a round on
# either side, own df, the moderated variance and df, the estimate (mean
# log ratio), the interval (log scale, None: none), SESOI, verdict (None:
# no verdict word), why none, the Holm-adjusted p of the claim (None)
Judgement = collections.namedtuple(
    "Judgement", "cell logs events df s2 df_mod est lo hi sesoi verdict why p_adj")


def t_sf(x, df):
    """P(T > x) for Student's t on DF (> 0, possibly fractional or infinite)"""
    if math.isinf(df):
        return 0.5 * math.erfc(x / math.sqrt(2))
    tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + x * x))
    return tail if x >= 0 else 1 - tail


@functools.lru_cache(maxsize=None)
def t975(df):
    """the 0.975 quantile of t on DF > 0 (fractional, below 1 too: a cell
    of one round takes the prior's d0 alone; or infinite): bisection on
    t_sf"""
    if math.isinf(df):
        return 1.959963984540054
    lo, hi = 0.0, 2.0
    while t_sf(hi, df) > 0.025:
        lo, hi = hi, 2 * hi
    while hi - lo > 1e-10 * hi:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_sf(mid, df) > 0.025 else (lo, mid)
    return (lo + hi) / 2


def pair_logs(per, c, base, key):
    """(per-round log ratios of c over base, fewest events in a round on
    either side), rounds paired by number; (None, why) where a round has
    0 on one side or there is no pair"""
    b = per.get(base, {}).get("rounds", {})
    v = per.get(c, {}).get("rounds", {})
    pairs = [(v[r][key], b[r][key], v[r]["ops"], b[r]["ops"]) for r in sorted(v)
             if r in b and v[r].get(key) is not None and b[r].get(key) is not None]
    if not pairs:
        return None, "not in this run"
    if any(x <= 0 or y <= 0 for x, y, _, _ in pairs):
        return None, "a round with 0 on one side"
    return ([math.log(x / y) for x, y, _, _ in pairs],
            min(min(x * ox, y * oy) for x, y, ox, oy in pairs))


def class_cells(det, mode, key, base_of):
    """(s^2, df) of every cell of one metric in one mode of the run with
    two rounds or more and MIN_EVENTS: each configuration against the
    base (base_of(c): None leaves c out), the moderation's sample"""
    out = []
    for per in det.get(mode, {}).values():
        for c in per:
            b = base_of(c)
            if b is None or b not in per:
                continue
            logs, ev = pair_logs(per, c, b, key)
            if logs is not None and len(logs) >= 2 and ev >= MIN_EVENTS:
                out.append((statistics.variance(logs), len(logs) - 1))
    return out


def priors(det, cells, sesoi, base_of):
    """{(mode, class): Prior or None}: a class's metrics' cells pooled
    (each configuration against base_of's base), plus the family's own
    cells whose base is another"""
    pools = collections.defaultdict(list)
    for mode in det:
        for key, s in sesoi.items():
            if key in MODE_METRICS.get(mode, ()):
                pools[(mode, s.cls)] += class_cells(det, mode, key, base_of)
    for cell in cells:
        if cell.base != base_of(cell.config):
            per = det.get(cell.mode, {}).get(cell.workload, {})
            logs, ev = pair_logs(per, cell.config, cell.base, cell.metric)
            if logs is not None and len(logs) >= 2 and ev >= MIN_EVENTS:
                pools[(cell.mode, sesoi[cell.metric].cls)].append(
                    (statistics.variance(logs), len(logs) - 1))
    return {k: fit_prior(v) for k, v in pools.items()}


def estimate(cell, logs, events, prior, sesoi):
    """a Judgement without its verdict: the moderated interval"""
    n = len(logs)
    est = math.fsum(logs) / n
    s2 = statistics.variance(logs) if n > 1 else 0.0
    s2m, dfm = posterior(s2, n - 1, prior)
    lo = hi = None
    if dfm > 0 and s2m > 0:
        h = t975(dfm) * math.sqrt(s2m / n)
        lo, hi = est - h, est + h
    return Judgement(cell, logs, events, n - 1, s2m, dfm, est, lo, hi, sesoi, None, None, None)


def tests(j):
    """(p of 'beyond the SESOI', its direction, p of 'equivalent')"""
    se = math.sqrt(j.s2 / len(j.logs))
    m = math.log1p(j.sesoi)
    p_worse = t_sf((j.est - m) / se, j.df_mod)
    p_better = t_sf(-(j.est + m) / se, j.df_mod)
    p_eq = max(t_sf((j.est + m) / se, j.df_mod), t_sf((m - j.est) / se, j.df_mod))
    direction = "worse" if p_worse <= p_better else "better"
    return min(1.0, 2 * min(p_worse, p_better)), direction, p_eq


def holm(ps):
    """Holm's step-down adjusted p values, in PS's order"""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj, run = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        run = max(run, min(1.0, (len(ps) - rank) * ps[i]))
        adj[i] = run
    return adj


def judge(judgements, adjust=holm):
    """the verdicts of the cells that are tested (enough rounds and
    events), their p values adjusted together (adjust: holm) over the
    whole committed family: two hypotheses per cell, an untested cell's at
    p = 1, so that a verdict never gains from cells a run did not test"""
    tested = [i for i, j in enumerate(judgements) if j.why is None and j.lo is not None]
    ps, dirs = [], []
    for i in tested:
        p_d, d, p_e = tests(judgements[i])
        ps += [p_d, p_e]
        dirs.append(d)
    adj = adjust(ps + [1.0] * 2 * (len(judgements) - len(tested)))
    out = list(judgements)
    for k, i in enumerate(tested):
        a_d, a_e = adj[2 * k], adj[2 * k + 1]
        if a_d <= ALPHA:
            out[i] = out[i]._replace(verdict=dirs[k], p_adj=a_d)
        elif a_e <= ALPHA:
            out[i] = out[i]._replace(verdict="equivalent", p_adj=a_e)
        else:
            out[i] = out[i]._replace(verdict="inconclusive", p_adj=min(a_d, a_e))
    return out


def family_verdicts(det, cells, sesoi, base, adjust=holm, moderate=True, min_rounds=MIN_ROUNDS):
    """([Judgement] of the family's CELLS in det (load_det's), the
    moderation's priors fitted per mode and class over every cell against
    BASE); min_rounds: the fewest rounds a verdict needs (MIN_ROUNDS: the
    rule; lower only to re-read an archived run, saying so)"""
    pri = priors(det, cells, sesoi, lambda c: base if c != base else None) if moderate else {}
    out = []
    for cell in cells:
        per = det.get(cell.mode, {}).get(cell.workload, {})
        logs, ev = pair_logs(per, cell.config, cell.base, cell.metric)
        s = sesoi[cell.metric]
        if logs is None:
            out.append(Judgement(cell, None, None, None, None, None, None, None, None,
                                 s.sesoi, None, ev, None))
            continue
        j = estimate(cell, logs, ev, pri.get((cell.mode, s.cls)), s.sesoi)
        why = None
        if len(logs) < min_rounds:
            why = "%d round%s, below %d" % (len(logs), "s"[len(logs) == 1:], min_rounds)
        elif ev < MIN_EVENTS:
            why = "too few events (%.0f in a round)" % ev
        elif j.lo is None:
            why = "no variance"
        elif len(set(logs)) < 3:
            # rounds that barely vary: the variance lives at a level the
            # rounds do not sample (a history, a binary), which the prior
            # cannot stand in for
            why = "%d distinct round%s of %d" % (len(set(logs)), "s"[len(set(logs)) == 1:],
                                                len(logs))
        out.append(j._replace(why=why))
    return judge(out, adjust), pri

