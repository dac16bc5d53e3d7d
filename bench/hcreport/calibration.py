# SPDX-License-Identifier: GPL-2.0
"""Calibration of the primary family's verdicts (verdicts.py): simulated
runs of the family's shape, through the same code, in five scenarios --
nothing different; the series' cells at their SESOI (the equivalence
test's boundary, where `equivalent` is false); a known miss cost planted
at 1.5, 2 and 4 SESOIs -- and the archived A/A pairs (vanilla-b, or the
shifted vanilla-layout of runs before it, against vanilla) as empirical
nulls where the rule gives them a word.

A simulated run:
- per cell the per-round sd of its log ratio is the archive's (each
  cell's within-run variances pooled over the archived runs,
  docs/results/2026*/det.csv); the configurations of one workload and
  metric share their base's per-round noise (hotcold/vanilla and
  single/vanilla move together through vanilla, as in a real run);
- every configuration the default plan boots is there, not only the
  family's (hotcold-off, nopcp, vanilla-b, power: the moderation's pool
  per workload takes them), each at the rounds the plan gives it;
- a run random effect: each configuration's rounds in one run share a
  shift, drawn with the cell's between-run sd in the archive (the spread
  of its run means less what its rounds explain; where fewer than 3 runs
  have the cell, its metric's median ratio of that to the within-run
  sd) -- the history a run's rounds do not sample.  v3's runs differ in
  their code too, so this is an upper bound;
- each mode and metric of the family gets background cells (the run's
  pool, which the moderation falls back to), their sds drawn from the
  archive's other cells of that metric;
- HISTORY earlier runs simulated alike stand for the exchangeable
  archived runs of the pool per workload (3: the fewest that make its 20
  cells; 0: as a v4 run has them today)."""
import collections
import math
import os
import random
import re
import statistics
import sys

from . import archive, family, plan, verdicts, workloads
from .ingest import BASE, LAYOUT, SERIES, SHIFTED
from .settings import ICOUNT_MORE

# the planted cost: memory accesses of the series and of single against
# vanilla up by k SESOIs (on the log scale), on the family's cells whose
# archived sd lets the planned rounds resolve the SESOI (PLANT_SD; the
# others are printed, not judged: docs/bench.md, "Verdicts"); the
# acceptance is judged at the largest
PLANTS = (1.5, 2, 4)
PLANT_KEY = "mem"
PLANT_SD = 0.05
BACKGROUND = 60
# the earlier runs of the pool per workload: the fewest that make its
# FLOOR with the default plan's six or seven cells a run
HISTORY = 3
# a cell's between-run sd is estimated where this many runs have it
TAU_RUNS = 3
# the acceptance (issue 46): at most this share of null families with a
# false word, at least this share of runs catching the plant
ALARMS = 0.05
CAUGHT = 0.9
NOMINAL = 0.95

# what the simulation is drawn from: per-cell within-run sds {(mode,
# workload, metric, config, base): sd}, the background pools {(mode,
# metric): [sd]}, between-run sds {cell key: tau}, the median ratio of
# tau to sd per (mode, metric), and the rounds (plan_rounds')
Model = collections.namedtuple("Model", "sds pools taus tau_ratio rounds")


def archive_model(paths=None, cells=None, since=""):
    """the Model from the archived runs (PATHS: a tuple of det.csv files;
    default every one under docs/results/; SINCE: only those whose plan
    is dated then or later)"""
    sesoi = family.sesoi_table()
    cells = cells or family.primary_table()
    acc = collections.defaultdict(lambda: [0.0, 0])
    runs = collections.defaultdict(list)
    for _, p, det in archive.archived(paths):
        if p.get("date", "") < since:
            continue
        for mode, table in det.items():
            for wl, per in table.items():
                # every configuration against the base, and the family's
                # pairs against another
                pairs = [(c, BASE) for c in per if c != BASE] + \
                    [(c.config, c.base) for c in cells if c.base != BASE and c.workload == wl]
                for c, b in pairs:
                    for key in family.MODE_METRICS.get(mode, ()):
                        if key not in sesoi:
                            continue
                        logs, ev = verdicts.pair_logs(per, c, b, key)
                        if logs and len(logs) >= 2 and ev >= verdicts.MIN_EVENTS:
                            k = (mode, wl, key, c, b)
                            a = acc[k]
                            a[0] += verdicts.variance(logs) * (len(logs) - 1)
                            a[1] += len(logs) - 1
                            runs[(k, tuple(verdicts.ops(per, b)))].append(
                                (statistics.fmean(logs), verdicts.variance(logs), len(logs)))
    sds = {k: math.sqrt(v / d) for k, (v, d) in acc.items() if d}
    pools = collections.defaultdict(list)
    for (mode, _, key, _, b), sd in sds.items():
        if b == BASE:
            pools[(mode, key)].append(sd)
    # the between-run sd at the scale with the most runs
    taus, ratios = {}, collections.defaultdict(list)
    for (k, _), rs in sorted(runs.items(), key=lambda x: len(x[1])):
        if len(rs) < TAU_RUNS:
            continue
        taus[k] = between_run_sd(rs)
        sd = math.sqrt(statistics.fmean(s2 for _, s2, _ in rs))
        if sd > 0:
            ratios[(k[0], k[2])].append(taus[k] / sd)
    ratio = {mk: statistics.median(v) for mk, v in ratios.items()}
    return Model(sds, pools, taus, ratio, plan_rounds(cells))


def between_run_sd(runs):
    """the sd of a cell's run effect from RUNS, [(mean, s^2, n)] of its
    per-round log ratios in each run: the variance of the run means less
    what the rounds explain (the mean of s^2 / n), 0 where that is not
    positive (the method of moments of a one-way random effects model)"""
    within = statistics.fmean(s2 / n for _, s2, n in runs)
    return math.sqrt(max(0.0, statistics.variance(m for m, _, _ in runs) - within))


def group_pairs(cells, m):
    """{(mode, workload, metric): [(config, base, sd, tau)]}: the family's
    pairs, and every other configuration the plan boots there against
    the base, with their sds and between-run sds"""
    out = collections.defaultdict(list)
    for c in cells:
        out[(c.mode, c.workload, c.metric)].append((c.config, c.base))
    for (mode, wl, key), pairs in out.items():
        for cfg in m.rounds["configs"]:
            if cfg != BASE and (cfg, BASE) not in pairs and \
                    m.rounds.get((mode, wl, cfg), 0) >= 2:
                pairs.append((cfg, BASE))
        pairs[:] = [(c, b, pair_sd(m, mode, wl, key, c, b), pair_tau(m, mode, wl, key, c, b))
                    for c, b in pairs]
    return out


def pair_sd(m, mode, wl, key, c, b):
    """a pair's sd: the archive's, else the median of its workload's other
    pairs against the base in the archive, else its metric's median"""
    sd = m.sds.get((mode, wl, key, c, b))
    if sd:
        return sd
    near = [s for (mo, w, k, _, bb), s in m.sds.items()
            if (mo, w, k, bb) == (mode, wl, key, BASE) and s > 0]
    return statistics.median(near) if near else statistics.median(m.pools[(mode, key)])


def pair_tau(m, mode, wl, key, c, b):
    """a pair's between-run sd: the archive's, else its metric's ratio"""
    k = (mode, wl, key, c, b)
    if k in m.taus:
        return m.taus[k]
    return m.tau_ratio.get((mode, key), 0.0) * pair_sd(m, mode, wl, key, c, b)


def planted(cells, m):
    """the family cells the cost is planted in: the series' and single's
    memory accesses against the base, where the archive's sd is at most
    PLANT_SD"""
    return [c for c in cells if c.metric == PLANT_KEY and c.base == BASE and c.config != BASE
            and pair_sd(m, c.mode, c.workload, c.metric, c.config, c.base) <= PLANT_SD]


def normal(rng, sd):
    return rng.gauss(0, sd)


def t3(rng, sd):
    """Student's t on 3 df scaled to sd: heavy tails, as the archive's
    rounds that jump between modes"""
    return sd * rng.gauss(0, 1) / math.sqrt(rng.gammavariate(1.5, 2) / 3) / math.sqrt(3)


def simulate(rng, cells, m, shift=None, noise=normal, run_effect=True, groups=None):
    """one run's det (load_det's shape: per-round values, ops 1, ten
    thousand events a round); shift: {(mode, workload, metric, config):
    its true log ratio to what it is compared with}, noise(rng, sd): a
    round's deviation, run_effect: each configuration's rounds shifted
    alike by a draw of its between-run sd; groups: group_pairs' (computed
    when not given)"""
    shift = shift or {}
    det = collections.defaultdict(dict)
    for (mode, wl, key), pairs in sorted((groups or group_pairs(cells, m)).items()):
        # the base's share of each pair's variance: half the smallest
        var, tau = {}, {}
        for c, b, sd, _ in pairs:
            var[b] = min(var.get(b, math.inf), sd ** 2 / 2)
        for c, b, sd, t in pairs:
            var[c] = max(var.get(c, 0.0), sd ** 2 - var[b])
            if b == BASE:
                tau[c] = t if run_effect else 0.0
        # the configurations' run effects share a factor, its weight rho
        # such that a pair against another base (hotcold/single) has its
        # own between-run sd: one history moves both
        rho = 0.0
        for c, b, _, t in pairs:
            if b != BASE and tau.get(c, 0.0) * tau.get(b, 0.0) > 0:
                rho = min(1.0, max(0.0, (tau[c] ** 2 + tau[b] ** 2 - t ** 2) /
                                   (2 * tau[c] * tau[b])))
        z = rng.gauss(0, 1)
        per = det[mode].setdefault(wl, {})
        top = max(m.rounds.get((mode, wl, c), m.rounds[mode]) for c in var)
        for cfg, v in var.items():
            n = m.rounds.get((mode, wl, cfg), top)
            u = tau.get(cfg, 0.0) * (math.sqrt(rho) * z + math.sqrt(1 - rho) * rng.gauss(0, 1))
            u += shift.get((mode, wl, key, cfg), 0.0)
            rs = per.setdefault(cfg, {"rounds": {}})["rounds"]
            for r in range(1, n + 1):
                rs.setdefault(r, {"ops": 1})[key] = 1e4 * math.exp(u + noise(rng, math.sqrt(v)))
    # (sorted: a set's order moves with the process's hash seed, and the
    # draws must follow the seed alone)
    for mode, key in sorted({(c.mode, c.metric) for c in cells}):
        for i in range(BACKGROUND):
            sd = rng.choice(m.pools[(mode, key)])
            per = det[mode].setdefault("background%d_%s" % (i, key), {})
            for cfg, s in ((BASE, 0.0), ("other", sd)):
                rs = per.setdefault(cfg, {"rounds": {}})["rounds"]
                for r in range(1, m.rounds[mode] + 1):
                    rs.setdefault(r, {"ops": 1})[key] = 1e4 * math.exp(noise(rng, s))
    return det


def plan_rounds(cells):
    """the rounds the default plan (bench/hcreport/plan.py, every suite)
    gives: {mode: the mode's rounds (the background cells'), (mode,
    workload): those in which a family cell's boot runs for its
    configuration and its base, (mode, workload, config): those in which
    the configuration boots it, "configs": the plan's configurations} --
    the real programs and ccd8prog boot only in the first PROG_ROUNDS,
    nopcp in 3"""
    p = plan.Plan({"SUITE": "both", "RUN_SEED": "fixed"})
    out = {"cachesim": p.det_rounds, "icount": p.icount_rounds, "configs": list(p.configs)}

    def booted(name, mode, wl):
        boots = [b for b in workloads.VALUES["boot"] if wl in p.boot_list(b)]
        top = p.icount_rounds if mode == "icount" and ICOUNT_MORE in boots else p.det_rounds
        return {r for r in range(1, top + 1) if any(b in p.det_parts(name, r, mode) for b in boots)}
    for c in cells:
        out[(c.mode, c.workload)] = len(booted(c.config, c.mode, c.workload) &
                                        booted(c.base, c.mode, c.workload))
        for cfg in p.configs:
            out[(c.mode, c.workload, cfg)] = len(booted(cfg, c.mode, c.workload))
    return out


def covers(j, truth):
    return j.lo is not None and j.lo <= truth <= j.hi


def scenario_shift(cells, m, name, sign):
    """the true shifts of scenario NAME: 'null' none; 'sesoi' the series'
    configuration by SIGN x its metric's log margin in every group (so
    the series against vanilla and against single lie at the boundary);
    a number k: the planted cells' configurations up by k log margins"""
    sesoi = family.sesoi_table()
    if name == "null":
        return {}
    if name == "sesoi":
        return {(c.mode, c.workload, c.metric, SERIES): sign * math.log1p(sesoi[c.metric].sesoi)
                for c in cells}
    return {(c.mode, c.workload, c.metric, c.config): name * math.log1p(sesoi[c.metric].sesoi)
            for c in planted(cells, m)}


def terciles(cells, m):
    """{cell: 0, 1 or 2}: its archived sd's third among the family's cells
    of its mode and metric"""
    out, by = {}, collections.defaultdict(list)
    for c in cells:
        by[(c.mode, c.metric)].append(c)
    for cs in by.values():
        cs = sorted(cs, key=lambda c: pair_sd(m, c.mode, c.workload, c.metric, c.config, c.base))
        for i, c in enumerate(cs):
            out[c] = 3 * i // len(cs)
    return out


def run(families=40, seed=1, model=None, scenarios=("null", "sesoi") + PLANTS,
        history=0, adjust=verdicts.holm, moderate=True, cells=None, noise=normal,
        run_effect=True):
    """{scenario: Counter of its rates} over FAMILIES simulated runs each,
    with HISTORY earlier runs as the exchangeable archive:
    families; alarms (families with a better or worse where the truth is
    within the SESOI, its boundary included), alarm_cells; boundary and
    eq_families, eq_cells (`equivalent` at the boundary); planted, short
    (those the rule's rounds refuse), caught, caught_runs (every planted
    cell that can get a word called worse), covered (the planted size
    inside); null_cells, null_covered and per sd tercile t0..t2 and
    t0_covered..t2_covered (cells whose truth is 1); sim_all (runs whose
    simultaneous intervals all cover the truth)"""
    cells = cells or family.primary_table()
    m = model or archive_model(cells=cells)
    sesoi = family.sesoi_table()
    third = terciles(cells, m)
    groups = group_pairs(cells, m)
    rng = random.Random(seed)
    out = {}
    for name in scenarios:
        k = collections.Counter(families=families)
        for f in range(families):
            shift = scenario_shift(cells, m, name, 1 if f % 2 == 0 else -1)
            hist = [("h%d" % i, simulate(rng, cells, m, noise=noise, run_effect=run_effect,
                                         groups=groups)) for i in range(history)]
            js, _ = verdicts.family_verdicts(
                simulate(rng, cells, m, shift, noise, run_effect, groups), cells, sesoi, BASE,
                adjust, moderate, history=hist)
            alarm = eq = False
            plant_ok, plant_any = True, False
            for j in js:
                c = j.cell
                t = shift.get((c.mode, c.workload, c.metric, c.config), 0.0) - \
                    shift.get((c.mode, c.workload, c.metric, c.base), 0.0)
                margin = math.log1p(sesoi[c.metric].sesoi)
                if j.verdict in ("better", "worse") and abs(t) <= margin * (1 + 1e-9):
                    alarm = True
                    k["alarm_cells"] += 1
                if abs(t) >= margin * (1 - 1e-9):
                    k["boundary"] += abs(t) <= margin * (1 + 1e-9)
                    if j.verdict == "equivalent":
                        eq = True
                        k["eq_cells"] += 1
                if t > margin * (1 + 1e-9):
                    k["planted"] += 1
                    k["covered"] += covers(j, t)
                    if j.logs is not None and len(j.logs) < verdicts.MIN_ROUNDS:
                        k["short"] += 1
                    else:
                        plant_any = True
                        k["caught"] += j.verdict == "worse"
                        plant_ok = plant_ok and j.verdict == "worse"
                if t == 0.0 and j.lo is not None:
                    k["null_cells"] += 1
                    k["null_covered"] += covers(j, 0.0)
                    k["t%d" % third[c]] += 1
                    k["t%d_covered" % third[c]] += covers(j, 0.0)
            k["alarms"] += alarm
            k["eq_families"] += eq
            k["sim_all"] += all(
                j.slo <= shift.get((j.cell.mode, j.cell.workload, j.cell.metric, j.cell.config),
                                   0.0) -
                shift.get((j.cell.mode, j.cell.workload, j.cell.metric, j.cell.base), 0.0) <= j.shi
                for j in js if j.slo is not None)
            k["caught_runs"] += plant_any and plant_ok
        out[name] = k
    return out


def aa_nulls(paths=None, waive_rounds=False):
    """The archived A/A pairs as empirical nulls: per run with a layout
    A/A (the layout line's of bench/configs.tsv, or the shifted base's,
    the layout A/A of runs before it), the family's cells with it in the
    config's place against vanilla; [(run, cells with an interval, with
    a verdict, the false alarms, intervals that miss 1)].  waive_rounds:
    judge 3 rounds too (what the rule refuses: not counted)."""
    sesoi = family.sesoi_table()
    out = []
    runs = archive.archived(paths)
    for d, plan_, det in runs:
        aa = [c for c in (LAYOUT, SHIFTED) if c and
              any(c in per for t in det.values() for per in t.values())]
        if not aa:
            continue
        cells = list(dict.fromkeys(c._replace(config=aa[0], base=BASE, where="A/A")
                                   for c in family.primary_table()))
        js, _ = verdicts.family_verdicts(det, cells, sesoi, BASE,
                                         min_rounds=3 if waive_rounds else verdicts.MIN_ROUNDS,
                                         history=archive.history(plan_, runs))
        iv = [j for j in js if j.lo is not None]
        out.append((os.path.basename(d), len(iv), sum(1 for j in js if j.verdict),
                    ["%s %s %s %.4f" % (j.cell.workload, j.cell.metric, j.verdict,
                                      math.exp(j.est))
                     for j in js if j.verdict in ("better", "worse")],
                    sum(1 for j in iv if not covers(j, 0.0))))
    return out


USAGE = ("usage: report.py calibrate [--families N] [--seed S] [--since YYYY-MM-DD]\n"
         "  (N >= 20 simulated runs a scenario; --since: size the model from the archived\n"
         "  runs of that date or later)")


def parse_args(argv):
    """{families, seed, since}, or ValueError naming the bad value"""
    opts = {"families": 200, "seed": 1, "since": ""}
    it = iter(argv)
    for a in it:
        k = a[2:] if a.startswith("--") else None
        if k not in opts:
            raise ValueError("unknown argument %r" % a)
        v = next(it, None)
        if k == "since":
            if v is None or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
                raise ValueError("%s %r: expected a date, YYYY-MM-DD" % (a, v))
            opts[k] = v
            continue
        if v is None or not v.isdigit():
            raise ValueError("%s %r: expected a whole number" % (a, v))
        opts[k] = int(v)
    if opts["families"] < 20:
        raise ValueError("--families %d: fewer than 20 null families say little about a "
                         "5 %% rate" % opts["families"])
    return opts


def rate(k, n):
    return "%d of %d (%.1f %%)" % (k, n, 100 * k / n if n else 0)


def coverage_floor(n):
    """the least planted coverage taken as nominal: 95 % less two binomial
    standard errors of N cells"""
    return NOMINAL - 2 * math.sqrt(NOMINAL * (1 - NOMINAL) / n) if n else NOMINAL


def judged(rates):
    """[(criterion, met)] of one set of run()'s rates (issue 46's
    acceptance)"""
    nul, sesoi, top = rates["null"], rates["sesoi"], rates[max(PLANTS)]
    return [("null false better/worse at most 5 %", nul["alarms"] <= ALARMS * nul["families"]),
            ("`equivalent` at the SESOI at most 5 %",
             sesoi["eq_families"] <= ALARMS * sesoi["families"]),
            ("the %g-SESOI plant caught in at least 90 %% of runs" % max(PLANTS),
             top["caught_runs"] >= CAUGHT * top["families"]),
            ("the planted size inside the interval at the nominal rate",
             top["covered"] >= coverage_floor(top["planted"]) * top["planted"])]


def rate_lines(rates):
    """the printout of one set of run()'s rates"""
    sesoi = family.sesoi_table()
    nul, bnd = rates["null"], rates["sesoi"]
    out = ["  - null (every ratio 1): a false better/worse in %s of families (at most 5 %%)"
           % rate(nul["alarms"], nul["families"]),
           "  - null at the SESOI (the series' cells at +-SESOI, its sign alternating): "
           "`equivalent` in %s of families (at most 5 %%), %s of boundary cells; a false "
           "better/worse in %s of families" % (
               rate(bnd["eq_families"], bnd["families"]), rate(bnd["eq_cells"], bnd["boundary"]),
               rate(bnd["alarms"], bnd["families"]))]
    for k in PLANTS:
        p = rates[k]
        size = math.expm1(k * math.log1p(sesoi[PLANT_KEY].sesoi))
        out.append("  - plant %g SESOI (+%.1f %% memory accesses): called worse in %s of the "
                   "cells that can get a word, in every such cell of %s of runs%s; the interval "
                   "covers the planted size in %s (nominal 95 %%, at least %.1f %%)" % (
                       k, 100 * size, rate(p["caught"], p["planted"] - p["short"]),
                       rate(p["caught_runs"], p["families"]),
                       " (at least 90 %)" if k == max(PLANTS) else "",
                       rate(p["covered"], p["planted"]), 100 * coverage_floor(p["planted"])))
    out.append("  - null cells: the interval covers 1 in %s; by the cell's sd, in thirds of "
               "each metric's cells: low %s, middle %s, high %s; the simultaneous intervals "
               "cover every cell at once in %s of null runs (nominally 97.5 %% at least)" % (
                   rate(nul["null_covered"], nul["null_cells"]),
                   *(rate(nul["t%d_covered" % i], nul["t%d" % i]) for i in range(3)),
                   rate(nul["sim_all"], nul["families"])))
    return out


def aa_lines(aa):
    """the printout of aa_nulls()'s AA: a run counts as a null family only
    where the rule gives its A/A cells a word (4 rounds at least)"""
    counted = [x for x in aa if x[2]]
    return ["- archived A/A pairs (%s against vanilla, the family's cells), counted where the "
            "rule gives a word: %s" % (
                " or ".join(c for c in (LAYOUT, SHIFTED) if c), "; ".join(
                    "%s: %d cells with a word, %d better/worse%s" % (
                        name, words, len(alarms), " (%s)" % ", ".join(alarms) if alarms else "")
                    for name, _, words, alarms, _ in counted) or "none"),
            "  not counted (fewer rounds than the rule's %d: no word): %s" % (
                verdicts.MIN_ROUNDS, ", ".join(
                    "%s (%d intervals, %d miss 1)" % (name, iv, miss)
                    for name, iv, words, _, miss in aa if not words) or "none")]


def main(argv):
    try:
        opts = parse_args(argv)
    except ValueError as e:
        print("report.py: calibrate: %s\n%s" % (e, USAGE), file=sys.stderr)
        return 2
    cells = family.primary_table()
    m = archive_model(cells=cells, since=opts["since"])
    n, seed = opts["families"], opts["seed"]
    short = sorted({"%s %s/%s" % (c.workload, c.config, c.base) for c in planted(cells, m)
                    if m.rounds[(c.mode, c.workload)] < verdicts.MIN_ROUNDS})
    other = [c for c in cells if c.metric == PLANT_KEY and c.base == BASE and
             c not in planted(cells, m)]
    print("calibration of the primary family's verdicts (seed %d, %d simulated runs a "
          "scenario; each cell at the default plan's rounds: %d cache-model, %d icount, %d for "
          "the real programs and ccd8prog; per-cell sds pooled from the archive%s; a run "
          "random effect per configuration, its sd the archive's between-run spread, median "
          "ratio to the within-run sd %s):" % (
              seed, n, m.rounds["cachesim"], m.rounds["icount"],
              min(v for k, v in m.rounds.items() if len(k) == 2),
              " (the runs of %s or later)" % opts["since"] if opts["since"] else "",
              ", ".join("%s %s %.2f" % (mo, k, r) for (mo, k), r in sorted(m.tau_ratio.items())
                        if k in {c.metric for c in cells})))
    print("- planted in the memory accesses of the cells whose archived sd is at most %.0f %%; "
          "not planted (no affordable rounds resolve the SESOI): %s; planted, but with fewer "
          "rounds than the rule's %d in the default plan (PROG_ROUNDS), no word: %s" % (
              100 * PLANT_SD, ", ".join("%s %s/%s" % (c.workload, c.config, c.base)
                                        for c in other),
              verdicts.MIN_ROUNDS, ", ".join(short) or "none"))
    verdict = []
    for hist, what in ((0, "the pools a v4 run has today (no exchangeable archived run: the "
                           "run's cells of each metric)"),
                       (HISTORY, "with %d exchangeable earlier runs (the pool per workload and "
                                 "metric)" % HISTORY)):
        r = run(n, seed, m, history=hist, cells=cells)
        print("- %s:" % what)
        print("\n".join(rate_lines(r)))
        verdict += [("%s (%d earlier runs)" % (c, hist), ok) for c, ok in judged(r)]
    for what, kw in (("without the run effect", {"run_effect": False}),
                     ("with t(3) tails in place of normal rounds", {"noise": t3})):
        r = run(n, seed + 1, m, scenarios=("null", "sesoi", max(PLANTS)), cells=cells, **kw)
        nul, bnd, top = r["null"], r["sesoi"], r[max(PLANTS)]
        print("- %s (no earlier runs; not judged): a false better/worse in %s of null "
              "families; `equivalent` at the SESOI in %s; the %g-SESOI plant caught in every "
              "cell of %s of runs, covered in %s; null cells covered in %s (thirds by sd: %s), "
              "all at once by the simultaneous intervals in %s of runs" % (
                  what, rate(nul["alarms"], n), rate(bnd["eq_families"], n), max(PLANTS),
                  rate(top["caught_runs"], n), rate(top["covered"], top["planted"]),
                  rate(nul["null_covered"], nul["null_cells"]), ", ".join(
                      "%.1f %%" % (100 * nul["t%d_covered" % i] / max(1, nul["t%d" % i]))
                      for i in range(3)), rate(nul["sim_all"], n)))
    print("\n".join(aa_lines(aa_nulls())))
    for c, ok in verdict:
        print("%s: %s" % ("met" if ok else "MISSED", c))
    return 0 if all(ok for _, ok in verdict) else 1
