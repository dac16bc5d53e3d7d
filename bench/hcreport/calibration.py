# SPDX-License-Identifier: GPL-2.0
"""Calibration of the primary family's verdicts (verdicts.py): simulated
runs of the family's shape, through the same code, with nothing
different (null) or with a known miss cost planted, and the archived A/A
pairs (the layout A/A, vanilla-b, or the shifted vanilla-layout of
runs before it, against vanilla) as empirical nulls.

A simulated run: per cell the per-round sd of its log ratio is the
archive's (each cell's within-run variances pooled over the archived
runs, docs/results/2026*/det.csv); the configurations of one workload
and metric share their base's per-round noise (hotcold/vanilla and
single/vanilla move together through vanilla, as in a real run); and
each mode and metric of the family gets background cells, their sds
drawn from the archive's other cells of that metric, which the
moderation's prior falls back to as in a real run without exchangeable
archived runs."""
import collections
import math
import os
import random
import statistics
import sys

from . import archive, family, plan, verdicts, workloads
from .ingest import BASE, LAYOUT, SHIFTED
from .settings import ICOUNT_MORE

# the planted cost: memory accesses of the series (hotcold/vanilla) up by
# this share, on the family's cells whose archived sd lets the planned
# rounds resolve the SESOI (PLANT_SD; the others are printed, not judged:
# docs/bench.md, "Verdicts")
PLANT = 0.20
PLANT_SD = 0.05
BACKGROUND = 60
Rates = collections.namedtuple("Rates", "families false_alarms planted detected covered "
                                        "null_cells null_covered undetectable short short_names")


def archive_sds(paths=None):
    """(per-cell sd {(mode, workload, metric, config, base): sd}, the
    background pools {(mode, metric): [sd]}): within-run variances of the
    per-round log ratios pooled over the archived runs"""
    sesoi = family.sesoi_table()
    cells = family.primary_table()
    acc = collections.defaultdict(lambda: [0.0, 0])
    for _, _, det in archive.archived(paths):
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
                            a = acc[(mode, wl, key, c, b)]
                            a[0] += statistics.variance(logs) * (len(logs) - 1)
                            a[1] += len(logs) - 1
    sds = {k: math.sqrt(v / d) for k, (v, d) in acc.items() if d}
    pools = collections.defaultdict(list)
    for (mode, _, key, _, b), sd in sds.items():
        if b == BASE:
            pools[(mode, key)].append(sd)
    return sds, pools


def cell_sd(cell, sds, pools, sesoi):
    """a cell's sd: the archive's, else its metric's median"""
    k = (cell.mode, cell.workload, cell.metric, cell.config, cell.base)
    return sds.get(k) or statistics.median(pools[(cell.mode, cell.metric)])


def planted(cells, sds, pools, sesoi):
    """the cells the cost is planted in: the series' memory accesses
    against the base, where the archive's sd is at most PLANT_SD"""
    return [c for c in cells if c.metric == "mem" and c.base == BASE and c.config != BASE
            and cell_sd(c, sds, pools, sesoi) <= PLANT_SD]


def normal(rng, sd):
    return rng.gauss(0, sd)


def t3(rng, sd):
    """Student's t on 3 df scaled to sd: heavy tails, as the archive's
    rounds that jump between modes"""
    return sd * rng.gauss(0, 1) / math.sqrt(rng.gammavariate(1.5, 2) / 3) / math.sqrt(3)


def simulate(rng, cells, sds, pools, sesoi, rounds, plant=(), noise=normal):
    """one run's det (load_det's shape: per-round values, ops 1, ten
    thousand events a round); noise(rng, sd): a round's deviation"""
    det = collections.defaultdict(dict)
    groups = collections.defaultdict(list)
    for c in cells:
        groups[(c.mode, c.workload, c.metric)].append(c)
    for (mode, wl, key), cs in groups.items():
        n = rounds.get((mode, wl), rounds[mode])
        sd = {c: cell_sd(c, sds, pools, sesoi) for c in cs}
        # the base's share of each pair's variance: half the smallest
        var = {}
        for c in cs:
            var[c.base] = min(var.get(c.base, math.inf), sd[c] ** 2 / 2)
        for c in cs:
            var[c.config] = max(var.get(c.config, 0.0), sd[c] ** 2 - var[c.base])
        per = det[mode].setdefault(wl, {})
        for cfg, v in var.items():
            shift = math.log1p(PLANT) if any(c.config == cfg and c in plant for c in cs) else 0
            rs = per.setdefault(cfg, {"rounds": {}})["rounds"]
            for r in range(1, n + 1):
                rs.setdefault(r, {"ops": 1})[key] = 1e4 * math.exp(shift + noise(rng, math.sqrt(v)))
    # (sorted: a set's order moves with the process's hash seed, and the
    # draws must follow the seed alone)
    for mode, key in sorted({(c.mode, c.metric) for c in cells}):
        for i in range(BACKGROUND):
            sd = rng.choice(pools[(mode, key)])
            per = det[mode].setdefault("background%d_%s" % (i, key), {})
            for cfg, s in ((BASE, 0.0), ("other", sd)):
                rs = per.setdefault(cfg, {"rounds": {}})["rounds"]
                for r in range(1, rounds[mode] + 1):
                    rs.setdefault(r, {"ops": 1})[key] = 1e4 * math.exp(noise(rng, s))
    return det


def plan_rounds(cells):
    """the rounds the default plan (bench/hcreport/plan.py, every suite)
    gives each cell: {mode: the mode's rounds (the background cells'),
    (mode, workload): the rounds in which the cell's boot runs for its
    configuration and its base} -- the real programs and ccd8prog boot
    only in the first PROG_ROUNDS"""
    p = plan.Plan({"SUITE": "both", "RUN_SEED": "fixed"})
    out = {"cachesim": p.det_rounds, "icount": p.icount_rounds}
    for c in cells:
        boots = [b for b in workloads.VALUES["boot"] if c.workload in p.boot_list(b)]
        top = p.icount_rounds if c.mode == "icount" and ICOUNT_MORE in boots else p.det_rounds
        out[(c.mode, c.workload)] = sum(
            1 for r in range(1, top + 1)
            if all(any(b in p.det_parts(k, r, c.mode) for b in boots) for k in (c.config, c.base)))
    return out


def covers(j, truth):
    return j.lo is not None and j.lo <= truth <= j.hi


def run(families=40, seed=1, rounds=None, sds=None, pools=None, adjust=verdicts.holm,
        moderate=True, cells=None, noise=normal):
    """Rates over FAMILIES null runs and as many with the cost planted"""
    cells = cells or family.primary_table()
    rounds = rounds or plan_rounds(cells)
    sesoi = family.sesoi_table()
    if sds is None:
        sds, pools = archive_sds()
    plant = planted(cells, sds, pools, sesoi)
    # planted cells whose rounds the 4-round rule refuses: never called
    short = [c for c in plant if rounds.get((c.mode, c.workload), rounds[c.mode]) <
             verdicts.MIN_ROUNDS]
    rng = random.Random(seed)
    alarms = null_cells = null_cov = 0
    for _ in range(families):
        js, _ = verdicts.family_verdicts(simulate(rng, cells, sds, pools, sesoi, rounds,
                                                  noise=noise),
                                         cells, sesoi, BASE, adjust, moderate)
        alarms += any(j.verdict in ("better", "worse") for j in js)
        null_cells += sum(1 for j in js if j.lo is not None)
        null_cov += sum(1 for j in js if covers(j, 0.0))
    det_n = cov = n_pl = n_short = 0
    for _ in range(families):
        js, _ = verdicts.family_verdicts(simulate(rng, cells, sds, pools, sesoi, rounds, plant,
                                                  noise),
                                         cells, sesoi, BASE, adjust, moderate)
        for j in js:
            if j.cell in plant:
                n_pl += 1
                n_short += j.cell in short
                det_n += j.verdict == "worse"
                cov += covers(j, math.log1p(PLANT))
    other = [c for c in cells if c.metric == "mem" and c.base == BASE and c not in plant]
    return Rates(families, alarms, n_pl, det_n, cov, null_cells, null_cov,
                 ["%s %s/%s" % (c.workload, c.config, c.base) for c in other],
                 n_short, ["%s %s/%s" % (c.workload, c.config, c.base) for c in short])


def aa_nulls(paths=None, waive_rounds=False):
    """The archived A/A pairs as empirical nulls: per run with a layout
    A/A (the layout line's of bench/configs.tsv, or the shifted base's,
    the layout A/A of runs before it), the family's cells with it in the
    config's place against vanilla; [(run, cells with an interval, with
    a verdict, the false alarms, intervals that miss 1)].  waive_rounds: judge 3 rounds too
    (what the rule refuses, to see the test itself)."""
    sesoi = family.sesoi_table()
    out = []
    runs = archive.archived(paths)
    for d, plan, det in runs:
        aa = [c for c in (LAYOUT, SHIFTED) if c and
              any(c in per for t in det.values() for per in t.values())]
        if not aa:
            continue
        cells = list(dict.fromkeys(c._replace(config=aa[0], base=BASE, where="A/A")
                                   for c in family.primary_table()))
        js, _ = verdicts.family_verdicts(det, cells, sesoi, BASE,
                                         min_rounds=3 if waive_rounds else verdicts.MIN_ROUNDS,
                                         history=archive.history(plan, runs))
        iv = [j for j in js if j.lo is not None]
        out.append((os.path.basename(d), len(iv), sum(1 for j in js if j.verdict),
                    ["%s %s %s %.4f" % (j.cell.workload, j.cell.metric, j.verdict,
                                      math.exp(j.est))
                     for j in js if j.verdict in ("better", "worse")],
                    sum(1 for j in iv if not covers(j, 0.0))))
    return out


USAGE = "usage: report.py calibrate [--families N] [--seed S]  (N >= 20 null families)"


def parse_args(argv):
    """{families, seed}, or ValueError naming the bad value"""
    opts = {"families": 200, "seed": 1}
    it = iter(argv)
    for a in it:
        k = a[2:] if a.startswith("--") else None
        if k not in opts:
            raise ValueError("unknown argument %r" % a)
        v = next(it, None)
        if v is None or not v.isdigit():
            raise ValueError("%s %r: expected a whole number" % (a, v))
        opts[k] = int(v)
    if opts["families"] < 20:
        raise ValueError("--families %d: fewer than 20 null families say little about a "
                         "5 %% rate" % opts["families"])
    return opts


def rate(k, n):
    return "%d of %d (%.1f %%)" % (k, n, 100 * k / n if n else 0)


def main(argv):
    try:
        opts = parse_args(argv)
    except ValueError as e:
        print("report.py: calibrate: %s\n%s" % (e, USAGE), file=sys.stderr)
        return 2
    sds, pools = archive_sds()
    r = run(opts["families"], opts["seed"], sds=sds, pools=pools)
    # the detection rate is judged on the planted cells that can get a
    # word at the plan's rounds; those that cannot are a limit of the
    # budget (docs/bench.md, "A run's budget"), printed apart below
    ok = (r.false_alarms <= 0.05 * r.families and
          r.detected >= 0.9 * (r.planted - r.short))
    rounds = plan_rounds(family.primary_table())
    print("calibration of the primary family's verdicts (seed %d; each cell at the default "
          "plan's rounds: %d cache-model, %d icount, %d for the real programs and ccd8prog; "
          "per-cell sds pooled from the archive):" % (
              opts["seed"], rounds["cachesim"], rounds["icount"], min(rounds.values())))
    print("- null families with a false better/worse: %s (at most 5 %%)" %
          rate(r.false_alarms, r.families))
    print("- planted +%.0f %% memory accesses (cells whose archived sd is at most %.0f %%): "
          "called worse in %s (at least 90 %%); the interval covers the planted size in %s "
          "(nominal 95 %%)" % (100 * PLANT, 100 * PLANT_SD, rate(r.detected, r.planted),
                               rate(r.covered, r.planted)))
    if r.short:
        print("  (of those, the %d in %s can get no verdict word: fewer rounds than the rule's "
              "%d in the default plan -- PROG_ROUNDS; called worse in %s of the others)" % (
                  r.short, ", ".join(r.short_names), verdicts.MIN_ROUNDS,
                  rate(r.detected, r.planted - r.short)))
    print("- null cells: the interval covers 1 in %s (nominal 95 %%)" %
          rate(r.null_covered, r.null_cells))
    print("- not planted (sd above %.0f %%: no affordable rounds resolve the SESOI): %s" % (
        100 * PLANT_SD, ", ".join(r.undetectable)))
    h = run(opts["families"], opts["seed"] + 1, sds=sds, pools=pools, noise=t3)
    print("- the same with t(3) tails in place of normal rounds (not judged): false "
          "better/worse in %s of null families; the plant called worse in %s, covered in %s"
          % (rate(h.false_alarms, h.families), rate(h.detected, h.planted),
             rate(h.covered, h.planted)))
    for waive in (False, True):
        print("- archived A/A pairs (%s against vanilla, the family's cells)%s:" % (
            " or ".join(c for c in (LAYOUT, SHIFTED) if c),
            ", the 4-round rule waived (3 rounds judged)" if waive else ""))
        for name, n, judged, alarms, miss in aa_nulls(waive_rounds=waive):
            print("  %s: %d cells with an interval, %d with a verdict, %d better/worse%s; "
                  "%d intervals miss 1" % (name, n, judged, len(alarms), "".join(
                      " (%s)" % ", ".join(alarms) if alarms else ""), miss))
    print(("met" if ok else "MISSED") + (
        " (detection judged on the planted cells that can get a word; %s cannot, at the "
        "plan's rounds)" % ", ".join(r.short_names) if r.short else ""))
    return 0 if ok else 1
