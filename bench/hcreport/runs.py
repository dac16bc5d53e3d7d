# SPDX-License-Identifier: GPL-2.0
"""Runs: make bench's saved runs (scripts/bench.sh writes each to
build/bench/STAMP/, build/bench/latest the newest): finding one by its
name, comparing two (compare_runs: per workload, metric and
configuration, run A's figure beside run B's and the change between
them) and archiving the files a run's report is rendered from
(archive: for committing a published run)."""
import csv
import glob
import math
import os
import shutil
import statistics
import sys

from . import workloads
from .ingest import (BASE, LAYOUT, REPEAT, InputError, load, load_all, load_plan,
                     read_input, run_prices, shown_path)
from .render import DET_METRICS, NO_COHERENCE, coherent, fmt, refused, transfers
from .stats import change, ifmt, paired_ratio, ratio

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# what a run's report is rendered from (bench/report.py report): the plan,
# the rows of every mode and the host's calibration.  Not the guest
# outputs (build/logs/), the plugin's phase records and each boot's rows
# (det.csv and resid.csv hold them all), the job lists, the calibrate binary, nor
# report.md and its charts, which the report writes.
# (the three tables: what each boot was, as the run read them, kept with
# its data; the report reads this checkout's)
# (and layouts.tsv, each kernel's pads in each round with SHUFFLE=1: what
# each round's binary was)
ARCHIVE = ("plan", "det.csv", "resid.csv", "results.csv", "vmstat.csv", "calibrate.txt",
           "prices.tsv", "shapes.tsv", "configs.tsv", "workloads.tsv", "layouts.tsv",
           # the boots as planned and GNU parallel's log of them
           "jobs", "jobs.log", "wall.jobs", "wall.jobs.log",
           # the silicon check's table, its native timings and the
           # model's counts (bench/silicon.py; not the replay's binary)
           "silicon.txt", "silicon/native.csv", "silicon/*.phases")


def runs_dir():
    """build/bench of this checkout ($BUILD/bench, as scripts/lib.sh)"""
    return os.path.join(os.environ.get("BUILD") or os.path.join(REPO, "build"), "bench")


def run_path(arg):
    """A run named on the command line: a directory, or the name of one
    under build/bench/ (20261206-0130-quick, latest)"""
    if os.path.isdir(arg):
        return arg
    named = os.path.join(runs_dir(), arg)
    return named if os.path.isdir(named) else arg


def det_stamps(path):
    """the stamps of a run's det.csv rows (patches, SCALE, seeds), in order"""
    out = []
    if os.path.exists(path):
        for row in csv.DictReader(read_input(path, "det.csv")):
            s = row.get("stamp") or "no stamp"
            if s not in out:
                out.append(s)
    return out


def load_run(path):
    """a run's plan, deterministic rows (priced) and wall rows; InputError
    if its plan or price table does not parse"""
    plan = load_plan(path)
    det, configs, _, _, _ = load_all(path, plan)
    wall, wconfigs = load(os.path.join(path, "results.csv"))
    det = {m: t for m, t in det.items() if not m.startswith("_") and t}
    cs = det.get("cachesim", {})
    models = sorted({m["geometry"] for per in cs.values() for m in per.values()})
    return {"path": path, "plan": plan, "det": det, "configs": configs, "wall": wall,
            "wconfigs": wconfigs, "stamps": det_stamps(os.path.join(path, "det.csv")),
            "models": models,
            # the model's coherence (None: no cachesim rows)
            "coherence": coherent(cs) if cs else None,
            # the workloads that booted more than one vCPU, where
            # coherence counts
            "smp": {wl for wl, per in cs.items()
                    if any(workloads.vcpus(m.get("boot")) > 1 for m in per.values())}}


def coherence_text(r):
    """the run's model's coherence, for its description"""
    if r["coherence"] is None:
        return ""
    return ("; coherent with two vCPUs (cross-core transfers counted)" if r["coherence"] else
            "; no coherence (a det.csv from before it: no transfer counted, its 2-vCPU "
            "boots' misses those of a model without coherence)")


def logs(per, c, key):
    """c's per-round logs of KEY in one run: vanilla's values, another
    configuration's ratios to vanilla (rounds paired by number; a round
    where both are 0 a ratio of 1, as paired_ratio); None with a value of
    0 (no log), [] without rounds"""
    rounds = per.get(c, {}).get("rounds", {})
    if c == BASE:
        vs = [m[key] for m in rounds.values() if m.get(key) is not None]
    else:
        b = per.get(BASE, {}).get("rounds", {})
        vs = [rounds[r][key] / b[r][key] if b[r][key] else (0.0 if rounds[r][key] else 1.0)
              for r in sorted(rounds)
              if r in b and rounds[r].get(key) is not None and b[r].get(key) is not None]
    return None if any(v <= 0 for v in vs) else [math.log(v) for v in vs]


def det_cell(per, c, key, higher):
    """one run's cell: vanilla's median (rounds), or c's paired ratio to
    vanilla with its 95 % interval; None: not in the run;
    NO_COHERENCE: a transfer count a model without coherence never had"""
    if not per or c not in per or BASE not in per:
        return None
    if per[c].get(key) is None or per[BASE].get(key) is None:
        # (not counted: a transfer by a model without coherence, a lock
        # hold by a plugin run without the lock sites)
        return NO_COHERENCE if key == "xfer" else "-"
    if c == BASE:
        return "%s (%d)" % (fmt(per[BASE][key]), len(per[BASE].get("rounds", {})))
    iv = paired_ratio(per, c, key)
    return None if iv is None else ifmt(iv, higher)


def point(per, c, key):
    """c's figure in one run, the one the change compares without an
    interval: vanilla's median, another's paired ratio"""
    if c == BASE:
        return per[BASE][key]
    iv = paired_ratio(per, c, key)
    return None if iv is None else iv.ratio


def det_change(pa, pb, c, key, higher):
    """B against A: Welch's interval on the per-round logs, or the ratio
    of the two figures alone where a round has 0"""
    la, lb = logs(pa, c, key), logs(pb, c, key)
    if la is not None and lb is not None:
        iv = change(la, lb)
        return "-" if iv is None else ifmt(iv, higher)
    a, b = point(pa, c, key), point(pb, c, key)
    if a is None or b is None or not a:
        return "-"
    return "%.4f [n/a (a round with 0)]" % (b / a)


def label(c):
    if c == BASE:
        return BASE
    return "%s/%s%s" % (c, BASE, " (A/A)" if c in (LAYOUT, REPEAT) else "")


def det_lines(ra, rb, skip_modes, other_model=()):
    """the rows of the deterministic metrics: (workload, metric, config,
    A, B, B/A); other_model: the workloads whose cachesim rows come from
    models that differ between the runs (coherence), their B/A marked"""
    configs = [BASE] + list(dict.fromkeys(c for r in (ra, rb) for c in r["configs"]
                                          if c != BASE))
    if any(LAYOUT in per for r in (ra, rb) for t in r["det"].values() for per in t.values()):
        configs.append(LAYOUT)
    wls = list(dict.fromkeys(w for r in (ra, rb) for m in ("icount", "cachesim")
                             for w in r["det"].get(m, {})))
    rows = []
    for wl in wls:
        for mode, key, name, higher in DET_METRICS:
            if mode in skip_modes:
                continue
            pa = ra["det"].get(mode, {}).get(wl, {})
            pb = rb["det"].get(mode, {}).get(wl, {})
            bases = [p[BASE] for p in (pa, pb) if BASE in p]
            if not bases:
                continue
            if key == "l3m" and not any(b.get("levels") == 3 for b in bases):
                continue
            if key == "xfer" and not transfers(pa, pb):
                continue
            if key in ("rate", "bg_rate") and not any(b.get(key) for b in bases):
                continue
            if key == "locks" and all(b.get(key) is None for b in bases):
                continue
            for c in configs:
                a, b = det_cell(pa, c, key, higher), det_cell(pb, c, key, higher)
                if a is None and b is None:
                    continue
                d = det_change(pa, pb, c, key, higher) if a is not None and b is not None \
                    else "-"
                if mode == "cachesim" and wl in other_model:
                    d += " (models differ: coherence)"
                rows.append((wl, name, label(c), a or "-", b or "-", d))
    return rows


def wall_cell(per, c):
    """one run's wall cell: vanilla's median (rounds), or c's ratio of
    medians [min-max of the per-round ratios]"""
    if not per.get(c) or not per.get(BASE):
        return None, None
    if c == BASE:
        v = statistics.median(per[BASE].values())
        return "%s (%d)" % (fmt(v), len(per[BASE])), v
    r = ratio(per, c)
    return (None, None) if r is None else ("%.3f [%.3f-%.3f]" % r, r[0])


def wall_lines(ra, rb):
    """the rows of the wall metrics: medians and ratios of medians, no
    interval (wall mode claims no significance: docs/decisions.md)"""
    configs = [BASE] + list(dict.fromkeys(c for r in (ra, rb) for c in r["wconfigs"]
                                          if c != BASE))
    rows = []
    for wl, metric in dict.fromkeys(list(ra["wall"]) + list(rb["wall"])):
        pa, pb = ra["wall"].get((wl, metric), {}), rb["wall"].get((wl, metric), {})
        for c in configs:
            (a, xa), (b, xb) = wall_cell(pa, c), wall_cell(pb, c)
            if a is None and b is None:
                continue
            d = "%.4f (wall: no interval)" % (xb / xa) if xa and xb is not None else "-"
            rows.append((wl, "wall " + metric, label(c), a or "-", b or "-", d))
    return rows


def describe(name, r):
    p = r["plan"]
    return "- run %s: %s: %s, %s, commit %s: `%s`; det.csv rows' stamp: %s; cache model: %s%s" % (
        name, r["path"], p["run"] or "a run from before saved runs",
        p["date"] or "an unknown date", p["commit"] or "unknown", p["command"] or "make bench",
        " / ".join(r["stamps"]) or "no det.csv rows", " / ".join(r["models"]) or "none",
        coherence_text(r))


def compare_runs(a, b):
    """Two runs side by side, as compare-mmtests sets two mmtests runs: one
    table, a row per workload, metric and configuration, run A's figure,
    run B's and B over A with its 95 % interval (the deterministic
    metrics; the wall ones without).  1, with the reason, when a plan
    does not parse or neither run has rows."""
    try:
        ra, rb = load_run(a), load_run(b)
    except InputError as e:
        return refused(e)
    notes, skip = [], set()
    if ra["stamps"] and rb["stamps"] and ra["stamps"] != rb["stamps"]:
        notes.append("The runs' det.csv stamps differ: the patches, the workload or "
                     "configuration table, the kernel config fragments, the guest's "
                     "workload code or image (runs before 2026-12-07's harness hashed "
                     "fewer of these), SCALE or the seeds changed between them, and B/A "
                     "includes that change.")
    pa, pb = run_prices(a), run_prices(b)
    if open(pa, "rb").read() != open(pb, "rb").read():
        notes.append("The runs were priced with different tables (A: %s; B: %s): the "
                     "estimated cycles' B/A includes the price change." % (
                         shown_path(pa), shown_path(pb)))
    other_model = set()
    if ra["models"] and rb["models"] and ra["models"] != rb["models"]:
        skip.add("cachesim")
        notes.append("The runs simulated different caches (A: %s; B: %s): their cachesim "
                     "metrics are not compared." % (" / ".join(ra["models"]),
                                                     " / ".join(rb["models"])))
    elif None not in (ra["coherence"], rb["coherence"]) and ra["coherence"] != rb["coherence"]:
        # one model with coherence, one without: the same counts with one
        # vCPU (bench/cachesim/test.c), not with two
        other_model = ra["smp"] | rb["smp"]
        notes.append("Run %s's cache model has no coherence, run %s's has: with one vCPU they "
                     "count alike, but the cachesim rows of the workloads that boot two vCPUs "
                     "(%s) come from different models, and B/A includes that change (marked "
                     "`models differ: coherence`)." % (
                         "A" if rb["coherence"] else "B", "B" if rb["coherence"] else "A",
                         ", ".join(sorted(other_model)) or "none in these runs"))
    for name, r in (("A", ra), ("B", rb)):
        for mode in ("icount", "cachesim", "wall"):
            has = bool(r["wall"]) if mode == "wall" else mode in r["det"]
            if not has:
                notes.append("Run %s has no %s rows." % (name, mode))
    rows = det_lines(ra, rb, skip, other_model) + wall_lines(ra, rb)
    if not rows:
        print("report.py: compare: no rows to compare in %s and %s -- NOT RUN" % (a, b),
              file=sys.stderr)
        return 1
    out = [describe("A", ra), describe("B", rb), ""] + notes + ([""] if notes else []) + [
        "Per workload, metric and configuration, run A's figure and run B's: vanilla's "
        "median over its rounds (how many in brackets), and each other configuration's "
        "ratio to vanilla in that run, the geometric mean of its per-round ratios with "
        "its 95 % interval (as `report.py compare RUN`).  B/A: run B's "
        "figure over run A's, the geometric mean of B's per-round values (or ratios) "
        "over A's, with a 95 % interval (Welch's t on the per-round logs: two runs' "
        "rounds do not pair; no verdict word: lower is better but for `rate`).  Wall rows: medians and ratios of "
        "medians [min-max of the per-round ratios], and B/A without an interval "
        "(noise-bound).  `-`: not in that run.", "",
        "| workload | metric | configuration | run A | run B | B/A |",
        "|---|---|---|---|---|---|"]
    out += ["| %s |" % " | ".join(r) for r in rows]
    print("\n".join(out))
    return 0


def archive(run, dest):
    """Copies the files a run's report is rendered from (ARCHIVE) to DEST,
    a new or empty directory, so that report.py report DEST renders the
    run's report from them alone (priced with the prices.tsv the run
    copied at its start, or this checkout's bench/prices.tsv for a run
    older than that; with this checkout's bench/workloads.tsv and report
    code: those of the plan's commit reproduce it; the run's own copies
    of the three tables go with it, for the record; and the silicon
    check's table, timings and counts, under the names the run gave
    them).  1, copying nothing, when the run's plan does not parse, a
    file its modes or its silicon check write is missing (a run that
    failed before its end), or DEST holds anything."""
    try:
        plan = load_plan(run)
    except InputError as e:
        return refused(e)
    need = ["plan"]
    if set(plan["modes"]) & {"icount", "cachesim"}:
        need.append("det.csv")
    if "wall" in plan["modes"]:
        need += ["results.csv", "vmstat.csv"]
    if "cachesim" in plan["modes"]:
        need.append("calibrate.txt")
    if plan["silicon"]:
        need.append("silicon.txt")
    if plan["residency"]:
        need.append("resid.csv")
    missing = [f for f in need if not os.path.isfile(os.path.join(run, f))]
    if missing:
        print("report.py: FAILED: %s: no %s, which its plan's modes (%s%s) write -- a run "
              "that did not finish? nothing archived" % (
                  run, ", ".join(missing), " ".join(plan["modes"]),
                  ", the silicon check" if plan["silicon"] else ""), file=sys.stderr)
        return 1
    if os.path.exists(dest) and (not os.path.isdir(dest) or os.listdir(dest)):
        print("report.py: FAILED: %s: exists and is not an empty directory -- an archive is "
              "written to a new one, never over another" % dest, file=sys.stderr)
        return 1
    os.makedirs(dest, exist_ok=True)
    copied = []
    for pattern in ARCHIVE:
        for src in sorted(glob.glob(os.path.join(glob.escape(run), pattern))):
            f = os.path.relpath(src, run)
            if os.path.isfile(src):
                os.makedirs(os.path.dirname(os.path.join(dest, f)), exist_ok=True)
                shutil.copyfile(src, os.path.join(dest, f))
                copied.append(f)
    size = sum(os.path.getsize(os.path.join(dest, f)) for f in copied)
    print("report.py: archived %s of %s in %s (%d KB); render it with report.py report %s" % (
        ", ".join(copied), run, dest, (size + 1023) // 1024, dest))
    return 0
