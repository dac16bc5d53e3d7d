# SPDX-License-Identifier: GPL-2.0
"""The residency meter (issue 46 item 2): of the pages each rule frees cold,
the share of their lines the modelled caches still held at the free; of
the pages freed hot, the share they no longer held.

The meter boots (jobs.py: mode resid, round 1's mem boot of each
configuration of bench/configs.tsv's residency set) load
bench/module/hotcold_resid.c, which marks every page the kernel frees,
and every page readahead allocates, with its class (its rule and label:
bench/module/resid_rules.h); the cache plugin counts, for each, the lines
of the page each level of the freeing vCPU's hierarchy holds
(bench/cachesim/residency.h).  The module first counts a page it has
just written as if a rule had freed it cold (the plant): nearly all its
lines are cached, and the meter must read that label as wrong.

  rows(config, rnd, jobout, phases)  one meter boot's rows (report.py
                                     resid-rows; scripts/bench-boot.sh)
  load(outdir)                       the run's resid.csv
  section(outdir, plan)              report.md's section, and what is
                                     NOT RUN or FAILED
"""
import csv
import os
import sys
from collections import defaultdict

from .ingest import InputError, read_input, read_lines

# bench/module/resid_rules.h's enum resid_rule, in its order: a class is
# rule * 2 + label (0 hot, 1 cold)
RULES = ("default", "reclaim", "exit", "readahead", "plant")
LABELS = ("hot", "cold")
# the rules the series labels, in the report's order (the plant is the
# meter's own check, default everything else)
LABELLED = ("reclaim", "exit", "readahead")
PLANT_WORKLOAD = "resid_plant"
# the plant's page was written just before: at least this share of its
# lines must read as cached, or the meter does not see a wrong label
PLANT_MIN = 0.9
PAGE = 4096
# page markers a phase may lose (an interrupt between a marker and its
# load, whose own marker comes first: the plugin counts the interrupt's
# page and drops the other), as a share of its pages; more, and the
# channel is broken
LOST_MAX = 0.001
FIELDS = ["workload", "config", "round", "rule", "label", "pages", "lines", "l1", "l2", "l3",
          "any", "levels"]
COUNTS = ("pages", "lines", "l1", "l2", "l3", "any")


def label_of(cls):
    """(rule, label) of a plugin class, or None for one no rule gives"""
    if not 0 <= cls < 2 * len(RULES):
        return None
    return RULES[cls // 2], LABELS[cls % 2]


def parse_phases(phases):
    """the plugin's output: ({phase: {(rule, label): {count: n}}}, the
    phases closed, the model's levels, its line size).  ValueError naming
    what is wrong: a class no rule gives, more lost markers than LOST_MAX
    of a phase's pages (the channel lost pages), a batch page the plugin
    could not label, a line that does not parse"""
    resid = defaultdict(lambda: defaultdict(lambda: dict.fromkeys(COUNTS, 0)))
    lost = defaultdict(int)
    closed, levels, line = 0, None, None
    for text in read_lines(phases):
        f = text.split()
        if text.startswith("config "):
            kv = dict(x.split("=", 1) for x in f[1:] if "=" in x)
            levels, line = int(kv.get("levels", 0)), int(kv.get("line", 0))
        elif text.startswith("phase="):
            closed = max(closed, int(f[0].split("=")[1]))
        elif text.startswith("resid "):
            try:
                kv = {k: int(v) for k, v in (x.split("=") for x in f[1:])}
                phase = kv["phase"]
            except (KeyError, ValueError):
                raise ValueError("%s: not a resid line: %s" % (phases, text.strip())) from None
            if "lost" in kv:
                lost[phase] += kv["lost"]
                continue
            if "unlabelled" in kv:
                raise ValueError("%s: phase %d: %d batch pages without a label (the plugin saw "
                                 "no batch wrapper enter: resid_hot= and resid_cold= not "
                                 "given?)" % (phases, phase, kv["unlabelled"]))
            key = label_of(kv.get("class", -1))
            if key is None:
                raise ValueError("%s: phase %d: class %s, which no rule of "
                                 "bench/module/resid_rules.h gives" %
                                 (phases, phase, kv.get("class")))
            c = resid[phase][key]
            c["pages"] += kv["pages"]
            for k in ("l1", "l2", "l3", "any"):
                c[k] += kv[k]
    if not levels or not line:
        raise ValueError("%s: no config line with the model's levels and line size" % phases)
    for phase, n in sorted(lost.items()):
        pages = sum(c["pages"] for c in resid[phase].values())
        if n > LOST_MAX * pages:
            raise ValueError("%s: phase %d: %d page markers lost of %d pages (a second marker "
                             "came before the first one's load; at most %g of them): the "
                             "meter's channel dropped pages" % (phases, phase, n, pages, LOST_MAX))
    for per in resid.values():
        for c in per.values():
            c["lines"] = c["pages"] * (PAGE // line)
    return resid, closed, levels, line


def guest_phases(jobout):
    """the workloads of the guest's hotcold-phase lines, in order"""
    return [line.split()[1] for line in read_lines(jobout) if line.startswith("hotcold-phase ")]


def rows(config, rnd, jobout, phases, out=None):
    """One meter boot's rows, CSV (FIELDS, no header) on OUT (stdout): per
    workload, rule and label, the pages counted and their lines each
    level held.  Prints what is wrong and returns 1 when the guest's
    phases and the plugin's disagree, the plant phase is missing or
    counted no planted page, or the plugin's lines do not parse."""
    out = out or sys.stdout
    try:
        resid, closed, levels, _ = parse_phases(phases)
    except (ValueError, OSError) as e:
        print("report.py: resid-rows: %s" % e, file=sys.stderr)
        return 1
    names = guest_phases(jobout)
    if len(names) != closed:
        print("report.py: resid-rows: %s: %d phases in the guest output, %d in %s" %
              (jobout, len(names), closed, phases), file=sys.stderr)
        return 1
    if PLANT_WORKLOAD not in names or not resid[names.index(PLANT_WORKLOAD) + 1].get(
            ("plant", "cold"), {}).get("pages"):
        print("report.py: resid-rows: %s: no planted page counted (phase %s): the meter's "
              "module did not load, or its markers did not reach the plugin" %
              (phases, PLANT_WORKLOAD), file=sys.stderr)
        return 1
    w = csv.writer(out, lineterminator="\n")
    for i, wl in enumerate(names, 1):
        for (rule, label), c in sorted(resid[i].items()):
            w.writerow([wl, config, rnd, rule, label] + [c[k] for k in COUNTS] + [levels])
    return 0


def load(outdir):
    """OUTDIR/resid.csv: a list of rows (dicts, the counts ints), None
    without the file.  InputError naming the line for a header or a row
    that is not the meter's."""
    path = os.path.join(outdir, "resid.csv")
    if not os.path.exists(path):
        return None
    reader = csv.reader(read_input(path, "residency rows"))
    out = []
    for row in reader:
        if reader.line_num == 1:
            if row != FIELDS:
                raise InputError("%s:1: header %s, expected %s" % (path, ",".join(row),
                                                                   ",".join(FIELDS)))
            continue
        try:
            r = dict(zip(FIELDS, row, strict=True))
            for k in COUNTS + ("round", "levels"):
                r[k] = int(r[k])
            if r["rule"] not in RULES or r["label"] not in LABELS or \
                    any(r[k] < 0 for k in COUNTS) or \
                    any(r[k] > r["lines"] for k in ("l1", "l2", "l3", "any")):
                raise ValueError
        except (ValueError, TypeError):
            raise InputError("%s:%d: not a row of the meter (%s): %s" % (
                path, reader.line_num, ",".join(FIELDS), ",".join(row))) from None
        out.append(r)
    return out


def totals(rows, by=("rule", "config", "label"), plant=False):
    """the counts summed per BY: with PLANT the plant's rows, else the
    workloads' (not the plant phase's, whose frees are the module's)"""
    t = defaultdict(lambda: dict.fromkeys(COUNTS, 0))
    for r in rows:
        ours = r["rule"] == "plant" or r["workload"] == PLANT_WORKLOAD
        if (r["rule"] != "plant") if plant else ours:
            continue
        c = t[tuple(r[k] for k in by)]
        for k in COUNTS:
            c[k] += r[k]
    return t


def share(n, of):
    return "-" if not of else "%.1f %%" % (100.0 * n / of)


def cold_cell(c):
    """a cold label's lines still cached: L1D / L2 / L3 / any"""
    if not c or not c["pages"]:
        return "-", "-"
    return "%d" % c["pages"], " / ".join(share(c[k], c["lines"]) for k in ("l1", "l2", "l3",
                                                                              "any"))


def hot_cell(c):
    """a hot label's lines no longer cached (in no level)"""
    if not c or not c["pages"]:
        return "-", "-"
    return "%d" % c["pages"], share(c["lines"] - c["any"], c["lines"])


def plant_check(rows):
    """(lines, failures): the plant's page read as cached in each meter
    boot, or a failure where it was not"""
    lines, bad = [], []
    for (config,), c in sorted(totals(rows, ("config",), plant=True).items()):
        got = c["any"] / c["lines"] if c["lines"] else 0.0
        lines.append("%s %s of %d" % (config, share(c["any"], c["lines"]), c["lines"]))
        if got < PLANT_MIN:
            bad.append("FAILED: residency meter: the plant's just-written page, labelled "
                       "cold, had %s of its lines cached in %s's meter boot (at least %.0f %% "
                       "expected): the meter does not see a wrong label" %
                       (share(c["any"], c["lines"]), config, 100 * PLANT_MIN))
    return lines, bad


def section(outdir, plan):
    """report.md's residency section and what it leaves NOT RUN or FAILED:
    (lines, not_run).  Nothing when the plan asked for no meter boot."""
    want = plan.get("residency") or []
    if not want:
        return [], []
    head = ["## residency: shares of lines still cached at a cold/hot free, per rule", ""]
    rows_ = load(outdir)
    have = sorted({r["config"] for r in rows_ or []})
    missing = [c for c in want if c not in have]
    if missing:
        return head + ["NOT RUN: no meter rows (resid.csv) for %s." % ", ".join(missing), ""], \
            ["residency meter: no rows in resid.csv for %s" % ", ".join(missing)]
    plant, bad = plant_check(rows_)
    levels = max(r["levels"] for r in rows_)
    lines = head + [
        "One meter boot per configuration (round 1's `mem` boot again, with "
        "bench/module/hotcold_resid.c loaded): at every page the kernel frees, and every "
        "page readahead allocates, the cache model counts how many of the page's lines "
        "the freeing vCPU's %s hold (docs/bench.md, \"The residency meter\").  The "
        "rules are the call sites the series labels, found the same way on every kernel: "
        "reclaim (`shrink_folio_list()`'s batch frees), exit (the batch frees under "
        "`exit_mmap()`), readahead (its allocations: at the allocation, not a free) and "
        "default (every other free); a page is cold when the kernel freed it through "
        "`free_unref_folios_cold()` or readahead asked `__GFP_COLD`, and the switch was "
        "on.  Vanilla frees every page hot.  A cold label is wrong by the share of its "
        "lines still cached; a hot one by the share no longer cached.  Summed over the "
        "boot's workloads, in the measured phases; cached: L1D / L2 / L3 / any of them." %
        ("L1D, private L2 and shared L3" if levels == 3 else "L1D and shared L2"), "",
        "The meter's check: a page the module has just written, counted as freed cold, "
        "must read at least %.0f %% cached: %s.%s" % (
            100 * PLANT_MIN, "; ".join(plant),
            "" if not bad else "  **FAILED**: the meter did not read the planted label "
            "as wrong; the shares below are not to be trusted."), "",
        "| rule | configuration | pages freed cold | their lines still cached (L1D / L2 / "
        "L3 / any) | pages freed hot | their lines no longer cached |",
        "|---|---|---|---|---|---|"]
    t = totals(rows_)
    for rule in LABELLED + ("default",):
        for config in want:
            cold, hot = t.get((rule, config, "cold")), t.get((rule, config, "hot"))
            if not (cold or hot):
                continue
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                (rule, config) + cold_cell(cold) + hot_cell(hot)))
    lines += ["", "Per workload, the labelled rules (pages, then the share of their lines "
              "a label got wrong: cached when cold, not cached when hot):", "",
              "| workload | rule | " + " | ".join(want) + " |",
              "|---|---|" + "---|" * len(want)]
    per = totals(rows_, ("workload", "rule", "config", "label"))
    for wl in sorted({r["workload"] for r in rows_ if r["rule"] in LABELLED}):
        for rule in LABELLED:
            cells = []
            for config in want:
                cold, hot = per.get((wl, rule, config, "cold")), per.get((wl, rule, config, "hot"))
                parts = []
                if cold:
                    parts.append("%d cold, %s cached" % (cold["pages"],
                                                        share(cold["any"], cold["lines"])))
                if hot:
                    parts.append("%d hot, %s not cached" % (
                        hot["pages"], share(hot["lines"] - hot["any"], hot["lines"])))
                cells.append("; ".join(parts) or "-")
            if any(c != "-" for c in cells):
                lines.append("| %s | %s | %s |" % (wl, rule, " | ".join(cells)))
    return lines + [""], bad


def main(args):
    """report.py resid-rows CONFIG ROUND JOBOUT PHASES"""
    if len(args) != 4:
        print("usage: report.py resid-rows CONFIG ROUND JOBOUT PHASES", file=sys.stderr)
        return 2
    return rows(*args)


def header():
    return ",".join(FIELDS)
