# SPDX-License-Identifier: GPL-2.0
"""Verdicts for the primary family (bench/primary.tsv): each cell's
per-round log ratios, their variance moderated (moderate.py) over a pool
of cells (pool(): the workload's cells of that metric in the run and the
exchangeable archived runs, else the metric's in the run), a 95 %
interval, and, where the
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

from .moderate import fit_prior, posterior
from .stats import beta_inc

ALPHA = 0.05
# no verdict word below these: a variance from 1-2 df is mostly luck,
# and a log ratio of a few events is not the model
MIN_ROUNDS = 4
MIN_EVENTS = 50

# the moderation's pools (pool()): the fewest cells a prior is fitted to
# (with fewer the moment estimates are mostly noise: at 2 df a cell and a
# true d0 of 4, d0 comes out infinite in 38 % of fits of 10 cells, 25 %
# of 20), and the cap on d0 (the moment estimate is infinite where the
# cells' variances spread no more than sampling gives; the cells of a
# pool share their base's rounds and, in runs of fixed seeds, their
# seeds, so they say less than their count)
FLOOR = 20
D0_MAX = 10
# a prior and where it came from: "workload" (the workload's cells of
# the metric in the run and the archive), "run" (the metric's cells of
# the run) or None (none: fewer than FLOOR cells), the cells and the runs
Pool = collections.namedtuple("Pool", "prior level cells runs")

# a cell judged: its per-round log ratios, fewest events in a round on
# either side, own df, the moderated variance and df, the estimate (mean
# log ratio), the interval (log scale, None: none), SESOI, verdict (None:
# no verdict word), why none, the Holm-adjusted p of the claim (None)
Judgement = collections.namedtuple(
    "Judgement", "cell logs events df s2 df_mod est lo hi sesoi verdict why p_adj slo shi",
    defaults=(None, None))


def t_sf(x, df):
    """P(T > x) for Student's t on DF (> 0, possibly fractional or infinite)"""
    if math.isinf(df):
        return 0.5 * math.erfc(x / math.sqrt(2))
    tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + x * x))
    return tail if x >= 0 else 1 - tail


@functools.lru_cache(maxsize=None)
def t_upper(tail, df):
    """the t on DF > 0 (fractional, below 1 too: a cell of one round takes
    the prior's d0 alone; or infinite) with P(T > t) = TAIL (0 < TAIL <
    0.5): bisection on t_sf"""
    lo, hi = 0.0, 2.0
    while t_sf(hi, df) > tail:
        lo, hi = hi, 2 * hi
    while hi - lo > 1e-10 * hi:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_sf(mid, df) > tail else (lo, mid)
    return (lo + hi) / 2


def t975(df):
    """the 0.975 quantile of t on DF"""
    return 1.959963984540054 if math.isinf(df) else t_upper(0.025, df)


def simultaneous(j, k):
    """J's interval (log scale) at 1 - ALPHA / (2 K), K the family's cells:
    Bonferroni over Holm's 2 K hypotheses.  Its words -- worse (better)
    where it lies beyond +-log(1 + SESOI), equivalent where within --
    are words Holm gives: the interval beyond the margin means the
    directional p is below ALPHA / (2 K), within it both TOST p values
    below ALPHA / (4 K), and Holm rejects whatever Bonferroni over its
    2 K hypotheses rejects.  Holm may say more (its later steps are
    laxer).  Every cell's interval covers its truth at once with
    probability 1 - ALPHA / 2 at least where the per-cell intervals are
    exact (calibration.py measures it).  (None, None) without an
    interval."""
    if j.lo is None:
        return None, None
    h = t_upper(ALPHA / (4 * k), j.df_mod) * math.sqrt(j.s2 / len(j.logs))
    return j.est - h, j.est + h


def interval_word(lo, hi, sesoi):
    """the word an interval (log scale) says against SESOI: worse, better,
    equivalent or None (it crosses a margin)"""
    m = math.log1p(sesoi)
    if lo > m:
        return "worse"
    if hi < -m:
        return "better"
    if -m < lo and hi < m:
        return "equivalent"
    return None


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


def variance(xs):
    """the sample variance of XS (two or more), in floating point
    (statistics.variance's exact fractions cost the calibration most of
    its time)"""
    mean = math.fsum(xs) / len(xs)
    return math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1)


def cell_vars(per, key, pairs):
    """(s^2, df) of the PAIRS (config, base) of one workload's rows PER on
    KEY with two rounds or more and MIN_EVENTS"""
    out = []
    for c, b in pairs:
        logs, ev = pair_logs(per, c, b, key)
        if logs is not None and len(logs) >= 2 and ev >= MIN_EVENTS:
            out.append((variance(logs), len(logs) - 1))
    return out


def pairs_in(per, mode, wl, base, cells):
    """the pairs of one workload's rows PER that a pool takes: every
    configuration against BASE, and the family's CELLS of that mode and
    workload against another base"""
    return [(c, base) for c in per if c != base] + [
        (c.config, c.base) for c in cells
        if c.base != base and c.mode == mode and c.workload == wl]


def ops(per, base):
    """the operations per round of BASE's rounds (the workload's scale)"""
    return sorted({m.get("ops") for m in per.get(base, {}).get("rounds", {}).values()})


def pool(det, key3, base, cells, history=(), cache=None):
    """the Pool of (mode, workload, metric) KEY3 (docs/bench.md,
    "Verdicts"): the workload's cells of that metric in DET and in the
    HISTORY runs ([(name, det)], archive.history's) whose base rounds
    have the same operations, when they make FLOOR cells; else the
    metric's cells of every workload in DET (FLOOR of them); else none.
    One metric: cost and cost_line, insn and insn1, mem and l3m count the
    same events twice, and a pool of both counts each cell twice."""
    mode, wl, key = key3
    per = det.get(mode, {}).get(wl, {})
    vs = cell_vars(per, key, pairs_in(per, mode, wl, base, cells))
    runs = 1
    for _, h in history:
        hp = h.get(mode, {}).get(wl, {})
        if ops(hp, base) and ops(hp, base) == ops(per, base):
            got = cell_vars(hp, key, pairs_in(hp, mode, wl, base, cells))
            vs += got
            runs += bool(got)
    if len(vs) >= FLOOR:
        return Pool(fit_prior(vs, D0_MAX), "workload", len(vs), runs)
    cache = {} if cache is None else cache
    if (mode, key) not in cache:
        vs = [v for w, p in det.get(mode, {}).items()
              for v in cell_vars(p, key, pairs_in(p, mode, w, base, cells))]
        cache[(mode, key)] = (Pool(fit_prior(vs, D0_MAX), "run", len(vs), 1)
                              if len(vs) >= FLOOR else Pool(None, None, len(vs), 1))
    return cache[(mode, key)]


def priors(det, keys, base, cells, history=()):
    """{(mode, workload, metric): Pool} for each of KEYS"""
    cache = {}
    return {k: pool(det, k, base, cells, history, cache) for k in dict.fromkeys(keys)}


def prior_of(pri, cell):
    """the moderate.Prior of CELL in priors()'s PRI (None: none)"""
    p = pri.get((cell.mode, cell.workload, cell.metric))
    return p.prior if p else None


def estimate(cell, logs, events, prior, sesoi):
    """a Judgement without its verdict: the moderated interval"""
    n = len(logs)
    est = math.fsum(logs) / n
    s2 = variance(logs) if n > 1 else 0.0
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


def family_verdicts(det, cells, sesoi, base, adjust=holm, moderate=True, min_rounds=MIN_ROUNDS,
                    history=()):
    """([Judgement] of the family's CELLS in det (load_det's), {(mode,
    workload, metric): Pool}: each cell's prior, pooled over the run and
    the exchangeable archived runs HISTORY (archive.history's)); min_rounds:
    the fewest rounds a verdict needs (MIN_ROUNDS: the rule; lower only to
    re-read an archived run, saying so)"""
    pri = priors(det, [(c.mode, c.workload, c.metric) for c in cells], base, cells,
                 history) if moderate else {}
    out = []
    for cell in cells:
        per = det.get(cell.mode, {}).get(cell.workload, {})
        logs, ev = pair_logs(per, cell.config, cell.base, cell.metric)
        s = sesoi[cell.metric]
        if logs is None:
            out.append(Judgement(cell, None, None, None, None, None, None, None, None,
                                 s.sesoi, None, ev, None))
            continue
        j = estimate(cell, logs, ev, prior_of(pri, cell), s.sesoi)
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
    return [j._replace(**dict(zip(("slo", "shi"), simultaneous(j, len(cells)))))
            for j in judge(out, adjust)], pri

