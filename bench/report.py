#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise a make bench run.

Deterministic modes (det.csv, icount and cachesim): per workload and
configuration, instructions and simulated L1D/L2/L3 misses per operation
inside the measured phase, and estimated cycles per operation (a model:
the misses priced with the latencies bench/calibrate measured on this
host, OUTDIR/calibrate.txt), the median over the rounds (a fresh boot each,
interleaved), its ratio to vanilla's median with the min-max of the
per-round ratios, and two A/A checks: vanilla's first round against the
same boot repeated (vanilla-repeat: the instruments' repeatability), and
vanilla's largest round over its smallest (the spread the rounds' different
histories add: the noise a comparison has to beat).

Wall mode (results.csv, vmstat.csv): for each workload and metric the
median and min-max of each configuration over the rounds, and each
configuration's ratio to vanilla (ratio of medians) with its spread (min
and max of the per-round ratios, rounds being interleaved).  A ratio whose
spread crosses 1.0 is flagged "spread crosses 1" (a description: a few
paired rounds support no significance test).  The pcp counters give, for
the hotcold configurations, the share of allocations served cold and the
pages moved per zone->lock hold.

Targets: each is checked on the data, "met" or "missed" with the rows
that missed.  A target without data is NOT RUN, and report exits 1, when
the run's plan (OUTDIR/plan, written by scripts/bench.sh) asked for that
data; a target whose data the run did not ask for (QUICK's missing
repeat boot, a configuration left out of CONFIGS) says so instead.

usage: report.py report OUTDIR        writes OUTDIR/report.md, ratios.png
       report.py summary OUTDIR       the compact deterministic table (README)
       report.py compare OUTDIR       every configuration against vanilla (cover letter)
       report.py det-header           the header of det.csv
       report.py det-rows MODE CONFIG ROUND BOOT JOB.out PLUGIN.phases
                                      det.csv rows of one boot: the guest's
                                      hotcold-phase lines matched, in order,
                                      with the plugin's phase records
"""
import csv
import os
import statistics
import subprocess
import sys
from collections import defaultdict

BASE = "vanilla"
# vanilla's first round booted again: the A/A of the instrument itself
REPEAT = "vanilla-repeat"


def load_plan(outdir):
    """What the run asked for (scripts/bench.sh writes OUTDIR/plan):
    {"modes": [...], "configs": [...], "repeat": bool, "workloads": [...]
    (empty: all)}, or None for a run without a plan (every target is then
    judged on the data present)."""
    path = os.path.join(outdir, "plan")
    if not os.path.exists(path):
        return None
    kv = dict(line.rstrip("\n").partition("=")[::2] for line in open(path) if "=" in line)
    return {"modes": kv.get("modes", "").split(), "configs": kv.get("configs", "").split(),
            "geometry": (kv.get("geometry", "").split() or [None])[0],
            "repeat": kv.get("repeat", "0") == "1",
            "workloads": kv.get("workloads", "").split(),
            "date": kv.get("date", ""), "commit": kv.get("commit", ""),
            "command": kv.get("command", "")}


def asked(plan, mode=None, config=None, workloads=None):
    """None if the plan asked for that data, else why not (for the
    target's line): a target the run did not ask for is not NOT RUN."""
    if plan is None:
        return None
    if mode and mode not in plan["modes"]:
        return "not in this run (MODES)"
    if config and config not in plan["configs"]:
        return "not in this run (CONFIGS)"
    if workloads and plan["workloads"] and not set(workloads) & set(plan["workloads"]):
        return "not in this run (WORKLOADS)"
    return None


class Targets:
    """The lines of a targets section.  A target with no data is NOT RUN,
    unless the run did not ask for its data; NOT RUN fails the report."""

    def __init__(self, title):
        self.lines = [title, ""]
        self.not_run = []

    def add(self, text, verdict):
        self.lines.append("- %s: %s" % (text, verdict))

    def check(self, text, checked, bad, unit, why_not_asked, what):
        """met on CHECKED UNIT, missed on BAD, or, with nothing checked,
        missing()"""
        if checked:
            self.add(text, "met on %d %s" % (checked, unit) if not bad else
                     "missed on " + ", ".join(bad))
        else:
            self.missing(text, why_not_asked, what)

    def missing(self, text, why_not_asked, what):
        if why_not_asked:
            self.add(text, why_not_asked)
        else:
            self.add(text, "NOT RUN (%s)" % what)
            self.not_run.append(text)


def load(path):
    data = defaultdict(lambda: defaultdict(dict))
    if not os.path.exists(path):
        return data, []
    configs = []
    for row in csv.DictReader(open(path)):
        key = (row["workload"], row["metric"])
        data[key][row["config"]][int(row["round"])] = float(row["value"])
        if row["config"] not in configs:
            configs.append(row["config"])
    return data, configs


def load_vm(path):
    vm = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    if not os.path.exists(path):
        return vm
    for row in csv.DictReader(open(path)):
        try:
            v = float(row["delta"])
        except ValueError:
            continue
        vm[row["workload"]][row["config"]][row["counter"]].append(v)
    return vm


def ratio(per, c):
    base = per.get(BASE, {})
    rs = [per[c][r] / base[r] for r in per.get(c, {}) if base.get(r)]
    if not rs or not base:
        return None
    med = statistics.median(per[c].values()) / statistics.median(base.values())
    return med, min(rs), max(rs)


def fmt(x):
    return "%.0f" % x if abs(x) >= 1000 else "%.4g" % x


def wall_section(outdir):
    res = os.path.join(outdir, "results.csv")
    vmcsv = os.path.join(outdir, "vmstat.csv")
    data, configs = load(res)
    vm = load_vm(vmcsv)
    others = [c for c in configs if c != BASE]
    rounds = max((len(v) for per in data.values() for v in per.values()), default=0)
    lines = [
        "## wall: timed runs", "",
        "Configurations: %s; %d rounds, interleaved, a fresh boot per "
        "configuration per round." % (", ".join(configs), rounds), "",
        "The guests run under QEMU TCG (2 vCPUs) on a 2-core host: absolute "
        "rates are emulator-bound and cache/TLB misses cost more than on "
        "hardware, so the ratios between configurations of the same run are "
        "the result.  Wall-clock ratios under about 15 % are within the "
        "emulator's noise unless the spread says otherwise.", "",
        "Ratio columns: median(config) / median(vanilla) [min-max of the "
        "per-round ratios]; above 1 is better, except for ns_per_op "
        "(the in-kernel alloc microbenchmark), where below 1 is better.", "",
        "| workload | metric | " + " | ".join("%s median (min-max)" % c for c in configs)
        + " | " + " | ".join("%s/%s" % (c, BASE) for c in others) + " |",
        "|---|---|" + "---|" * (len(configs) + len(others)),
    ]
    plot = []
    for (wl, metric), per in data.items():
        cells = []
        for c in configs:
            v = list(per.get(c, {}).values())
            cells.append("%s (%s-%s)" % (fmt(statistics.median(v)), fmt(min(v)), fmt(max(v)))
                         if v else "-")
        rcells = []
        prow = [wl]
        for c in others:
            r = ratio(per, c)
            if r is None:
                rcells.append("-")
                prow += ["1", "1", "1"]
                continue
            # (a description, not a test: 2-5 paired rounds cannot reach
            # significance)
            flag = " spread crosses 1" if r[1] <= 1.0 <= r[2] else ""
            rcells.append("%.3f [%.3f-%.3f]%s" % (r[0], r[1], r[2], flag))
            prow += ["%.4f" % x for x in r]
        lines.append("| %s | %s | %s | %s |" % (wl, metric, " | ".join(cells), " | ".join(rcells)))
        plot.append(prow)

    if vm:
        lines += ["", "## Per-CPU page counters (wall mode: timed runs, medians over rounds)", "",
                  "cold %: allocations served from a cold list; pages/lock: "
                  "pages moved per zone->lock hold by refills and drains.", "",
                  "| workload | config | allocs | cold % | cold frees | "
                  "refill pages/lock | drain pages/lock |",
                  "|---|---|---|---|---|---|---|"]
        for wl, per in vm.items():
            for c in configs:
                d = per.get(c)
                if not d:
                    continue
                m = {k: statistics.median(v) for k, v in d.items()}
                allocs = m.get("pgalloc_dma32", 0) + m.get("pgalloc_normal", 0)
                cold = 100.0 * m.get("pcp_cold_alloc", 0) / allocs if allocs else 0
                rl = m.get("pcp_refill_pages", 0) / m["pcp_refill"] if m.get("pcp_refill") else 0
                dl = m.get("pcp_drain_pages", 0) / m["pcp_drain"] if m.get("pcp_drain") else 0
                lines.append("| %s | %s | %d | %.1f | %d | %s | %s |" % (
                    wl, c, allocs, cold, m.get("pcp_cold_free", 0),
                    "%.1f" % rl if rl else "-", "%.1f" % dl if dl else "-"))
        lines += ["", "vanilla has no pcp_* counters (they come with the series); "
                  "its allocation count is pgalloc."]

    # The targets of the benchmark issue, checked, not asserted.
    t = Targets("### Wall-clock targets")
    plan = load_plan(outdir)
    off_bad, hc_bad, off_n, hc_n = [], [], 0, 0
    for (wl, metric), per in data.items():
        lower_is_better = metric.startswith("ns_")
        r = ratio(per, "hotcold-off")
        if r:
            off_n += 1
            if abs(r[0] - 1.0) > 0.02:
                off_bad.append("%s %.3f%s" % (wl, r[0], " (spread %.2f-%.2f crosses 1)"
                                              % (r[1], r[2]) if r[1] <= 1.0 <= r[2] else ""))
        r = ratio(per, "hotcold")
        if r:
            hc_n += 1
            worse = r[2] < 1.0 if not lower_is_better else r[1] > 1.0
            if worse:
                hc_bad.append("%s %.3f [%.3f-%.3f]" % (wl, r[0], r[1], r[2]))
    text = "hotcold-off within +-2 % of vanilla (median ratio)"
    t.check(text, off_n, off_bad, "rows",
            asked(plan, "wall", "hotcold-off"), "no wall rows of hotcold-off and vanilla")
    text = ("hotcold not worse than vanilla beyond the spread (every per-round "
            "ratio on the wrong side of 1.0)")
    t.check(text, hc_n, hc_bad, "rows",
            asked(plan, "wall", "hotcold"), "no wall rows of hotcold and vanilla")
    # batching: a refill or drain moves more than one page per zone->lock hold
    few, n = [], 0
    for wl, per in vm.items():
        d = per.get("hotcold")
        if not d:
            continue
        for ev in ("refill", "drain"):
            holds = statistics.median(d.get("pcp_" + ev, [0]))
            pages = statistics.median(d.get("pcp_%s_pages" % ev, [0]))
            if holds:
                n += 1
                if pages / holds <= 1:
                    few.append("%s %s %.2f" % (wl, ev, pages / holds))
    text = ("hotcold's refills and drains move more than one page per zone->lock "
            "hold (pcp_refill_pages / pcp_refill, pcp_drain_pages / pcp_drain)")
    t.check(text, n, few, "workload counters",
            asked(plan, "wall", "hotcold"), "no pcp_refill or pcp_drain counts of hotcold")
    lines += [""] + t.lines
    lines += ["", "![wall-clock ratios to vanilla](ratios.png)", ""]
    return lines, plot, others, t.not_run


def wall_chart(outdir, plot, others):
    dat = os.path.join(outdir, "ratios.dat")
    with open(dat, "w") as f:
        f.write("# workload " + " ".join("%s %s_lo %s_hi" % (c, c, c) for c in others) + "\n")
        for row in plot:
            f.write(" ".join(row) + "\n")
    png = os.path.join(outdir, "ratios.png")
    cols = ", ".join(
        "'%s' using %d:%d:%d%s title '%s/%s'" % (dat, 2 + 3 * i, 3 + 3 * i, 4 + 3 * i,
                                                 ":xtic(1)" if i == 0 else "", c, BASE)
        for i, c in enumerate(others))
    script = """set terminal png size 1400,600 noenhanced
set output '%s'
set title 'wall clock: ratio to vanilla, median; bars: min-max of per-round ratios (alloc_* rows are ns per op: lower is better)'
set key outside top center horizontal
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -45 font ',9'
set grid ytics
set yrange [0.5:1.5]
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black'
plot %s
""" % (png, cols)
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print("report.py: no chart: %s" % e, file=sys.stderr)
        return 1
    return 0


# ---- deterministic modes ----

COUNTS = ["insn_k", "insn_u", "acc_k", "l1m_k", "l2m_k", "l3m_k", "acc_u", "l1m_u",
          "l2m_u", "l3m_u"]
# summed over kernel and user: store misses (s) and rep string store
# misses (x) per level, DMA markers applied and lost (the plugin's keys
# with _k and _u, or without)
SPLIT = ["sl1m", "sl2m", "sl3m", "xl1m", "xl2m", "xl3m"]
DMA = ["dma", "dma_lost"]
# rep string instructions: iterations (each one counted in insn_k/_u, as
# TCG runs them) and instructions executed, kernel and user summed
REP = ["rep", "repx"]
# boot: mem (no disk), disk, 2cpu (scripts/bench.sh)
# hc_events: the workload's pcp_cold_alloc + pcp_cold_request +
# pcp_cold_free (the guest's vmstat around it): 0 means the
# series made no hot/cold decision there and ran upstream's code
# geometry: the plugin's cache model (its config line); caches: what the
# guest kernel read from CPUID (guest/jobs/bench.sh's hotcold-caches)
DET_FIELDS = ["mode", "workload", "config", "round", "boot", "cpu", "ops", "rate"] + \
    COUNTS + SPLIT + DMA + REP + ["hc_events", "geometry", "caches"]
HC_EVENTS = ("pcp_cold_alloc", "pcp_cold_request", "pcp_cold_free")
METRICS = ("insn", "insn1", "l1m", "l2m", "l3m", "mem", "cost", "cost_line", "rate")
# Latencies in cycles when bench/calibrate did not run (assumed, for a
# current x86 core at 3 GHz: L2 hit 14, L3 hit 50, memory 80 ns).
ASSUMED = {"l2": 14.0, "l3": 50.0, "dram": 250.0, "line_l3": 0.0, "line_dram": 0.0,
           "source": "assumed (bench/calibrate did not run)"}
# bench/calibrate's L1 figure is a dependent load's latency, which is 4
# cycles on every Zen core (and on Intel's since Skylake): the clock the
# nanoseconds are converted with
L1_CYCLES = 4.0
# workloads whose counts include a background reader sharing the CPU: how
# far the reader gets follows the scheduler, so two kernels' counts hold
# different amounts of its work (not like for like; they repeat boot for
# boot, since the reader's device completes on a guest timer)
SHARED = ("mixed_", "reader_beside_")


def load_calibration(outdir):
    """Latencies in cycles from OUTDIR/calibrate.txt (bench/calibrate), with
    the string stores' extra cost per line when the page is in L3 or in
    DRAM (a 4 KB memset() less a warm one, over 64 lines), or None."""
    path = os.path.join(outdir, "calibrate.txt")
    if not os.path.exists(path):
        return None
    kv = {}
    for line in open(path):
        f = line.split()
        if len(f) > 2 and f[0] == "calibrate":
            for x in f[2:]:
                k, _, v = x.partition("=")
                kv["%s.%s" % (f[1], k)] = v
    try:
        ghz = L1_CYCLES / float(kv["load_ns.l1"])
        pw = {k: float(kv["page_write_ns." + k]) for k in ("warm", "l3", "dram")}
        return {"l2": float(kv["load_ns.l2"]) * ghz, "l3": float(kv["load_ns.l3"]) * ghz,
                "dram": float(kv["load_ns.dram"]) * ghz,
                "line_l3": max(0.0, pw["l3"] - pw["warm"]) / 64 * ghz,
                "line_dram": max(0.0, pw["dram"] - pw["warm"]) / 64 * ghz,
                "ghz": ghz, "ns": {k: float(kv["load_ns." + k]) for k in ("l1", "l2", "l3", "dram")},
                "page_write_ns": pw, "source": "measured on this host (bench/calibrate)"}
    except (KeyError, ValueError, ZeroDivisionError):
        print("report.py: %s: not bench/calibrate's output" % path, file=sys.stderr)
        return None


def price(m, lat):
    """Estimated cycles per op, a model: one instruction per cycle, plus
    each miss at the latency of the level that served it, as a dependent
    load.  cost prices every miss so (a rep string store's too: a read for
    ownership); cost_line prices a string store's misses below L1 by the
    measured cost of writing a whole page that is in L3 or in DRAM
    (full-line stores that need no read).  The truth is between them."""
    three = m["levels"] == 3
    l2hit = m["l1m"] - m["l2m"]
    l3hit = m["l2m"] - m["l3m"] if three else 0.0
    mem = m["mem"]
    cost = m["insn"] + l2hit * lat["l2"] + l3hit * lat["l3"] + mem * lat["dram"]
    x1, x2, x3 = m["xl1m"], m["xl2m"], m["xl3m"]
    xmem = x3 if three else x2
    x_l3hit = (x2 - x3) if three else 0.0
    as_loads = (x1 - x2) * lat["l2"] + x_l3hit * lat["l3"] + xmem * lat["dram"]
    as_lines = x_l3hit * lat["line_l3"] + xmem * lat["line_dram"]
    return cost, cost - as_loads + as_lines


def phases_geometry(phases):
    """The plugin's cache model, from its config line: "L1D 32K/8w, L2
    512K/0w, L3 32768K/0w shared" (0w: fully associative)."""
    for line in open(phases):
        if line.startswith("config "):
            kv = dict(x.split("=", 1) for x in line.split()[1:] if "=" in x)
            if kv.get("sim") == "0":
                return "no cache model"
            lv = ["L1D %dK/%sw" % (int(kv["l1size"]) // 1024, kv["l1ways"]),
                  "L2 %dK/%sw" % (int(kv["l2size"]) // 1024, kv["l2ways"])]
            if kv.get("levels") == "3":
                lv.append("L3 %dK/%sw shared" % (int(kv["l3size"]) // 1024, kv["l3ways"]))
            else:
                lv[-1] += " shared"
            return ", ".join(lv) + ("" if kv.get("strfill", "1") == "1" else ", no string fill")
    return "unknown"


def det_rows(mode, config, rnd, boot, jobout, phases):
    """Match the guest's hotcold-phase lines with the plugin's records."""
    guest = []
    rates = {}
    events = {}
    caches = ""
    for line in open(jobout):
        f = line.split()
        if line.startswith("hotcold-caches"):
            caches = " ".join(f[1:])
        elif line.startswith("hotcold-phase "):
            kv = dict(x.split("=") for x in f[2:])
            guest.append((f[1], int(kv["ops"]), kv["cpu"]))
        elif line.startswith("hotcold-result "):
            rates[f[1]] = f[2].split("=")[1]
        elif line.startswith("hotcold-vmstat "):
            kv = dict(x.split("=") for x in f[2:])
            events[f[1]] = sum(int(kv.get(k, 0)) for k in HC_EVENTS)
    recs = defaultdict(dict)
    for line in open(phases):
        if line.startswith("phase="):
            kv = dict(x.split("=") for x in line.split())
            recs[int(kv["phase"])][int(kv["vcpu"])] = {k: int(v) for k, v in kv.items()
                                                       if v.isdigit()}
    if len(recs) != len(guest):
        print("report.py: %s: %d phases in the guest output, %d in %s" %
              (jobout, len(guest), len(recs), phases), file=sys.stderr)
        return 1
    geometry = phases_geometry(phases)
    w = csv.writer(sys.stdout, lineterminator="\n")
    for i, (wl, ops, cpu) in enumerate(guest, 1):
        vcpus = [recs[i][0]] if cpu == "0" else list(recs[i].values())
        if not ops:
            print("report.py: %s: workload %s did no work" % (jobout, wl), file=sys.stderr)
            return 1
        w.writerow([mode, wl, config, rnd, boot, cpu, ops, rates.get(wl, "")] +
                   [sum(v.get(k, 0) for v in vcpus) for k in COUNTS] +
                   [sum(v.get(k + "_k", 0) + v.get(k + "_u", 0) for v in vcpus) for k in SPLIT] +
                   [sum(v.get(k, 0) for v in vcpus) for k in DMA] +
                   [sum(v.get(k + "_k", 0) + v.get(k + "_u", 0) for v in vcpus) for k in REP] +
                   [events.get(wl, ""), geometry, caches])
    return 0


def load_det(path, lat=None, geometry=None):
    """{mode: {workload: {config: per-op metrics}}}, configs in order.

    Each configuration's metrics are the medians over its rounds; the
    per-round values are kept under "rounds" ({round: metrics}).  lat:
    the latencies to price misses with (load_calibration()), else
    ASSUMED.  Rows of one mode from two cache models, or from another
    model than geometry (the plan's), are never mixed: those rows are left
    out, with a message, and det["_mixed"] lists the modes."""
    rounds = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    det = defaultdict(lambda: defaultdict(dict))
    configs = []
    mixed = {}
    lat = lat or ASSUMED
    if not os.path.exists(path):
        return det, configs, mixed
    stale = set()
    rows = []
    for row in csv.DictReader(open(path)):
        if None in row.values() or None in row:
            # a row from an older harness, without the newer columns
            stale.add(row["mode"])
            continue
        rows.append(row)
    def stamp(row):
        # the machine: the model and the caches the guest read (not how
        # many vCPUs shared the last level in that boot: the 2-vCPU
        # boot's kernel sees half the slice of one machine)
        guest = " ".join(x for x in row["caches"].split() if x.startswith("L"))
        return "%s; guest: %s" % (row["geometry"], guest or "no cache line")

    stamps = defaultdict(set)
    for row in rows:
        stamps[row["mode"]].add(stamp(row))
    keep = {}
    for mode, gs in stamps.items():
        if geometry is not None:
            # the plan's machine: three levels for zen3, two for v1
            gs_ok = {g for g in gs if mode != "cachesim" or ("L3 " in g) == (geometry == "zen3")}
        else:
            gs_ok = gs
        keep[mode] = gs_ok if len(gs_ok) == 1 else set()
        if keep[mode] != gs:
            print("report.py: %s: %s rows from %d machines (%s) are not compared with "
                  "each other%s; run MODES=%s make bench to refresh them" % (
                      path, mode, len(gs), " / ".join(sorted(gs)),
                      "" if geometry is None else " or with GEOMETRY=" + geometry, mode),
                  file=sys.stderr)
            mixed[mode] = sorted(gs)
    for row in rows:
        if stamp(row) not in keep.get(row["mode"], ()):
            continue
        ops = float(row["ops"])
        c = {k: float(row[k]) for k in COUNTS + SPLIT + DMA + REP}
        three = "L3 " in row["geometry"]
        m = {
            "insn": (c["insn_k"] + c["insn_u"]) / ops,
            # each rep string instruction once, not once per iteration
            "insn1": (c["insn_k"] + c["insn_u"] - c["rep"] + c["repx"]) / ops,
            "rep": c["rep"] / ops,
            "l1m": (c["l1m_k"] + c["l1m_u"]) / ops,
            "l2m": (c["l2m_k"] + c["l2m_u"]) / ops,
            "l3m": (c["l3m_k"] + c["l3m_u"]) / ops,
            "cpu": row["cpu"],
            "boot": row["boot"],
            "rate": float(row["rate"]) if row["rate"] else 0,
            "ops": int(ops),
            "hc_events": int(row["hc_events"]) if row["hc_events"] else None,
            "levels": 3 if three else 2,
            "dma_lost": int(c["dma_lost"]),
            "geometry": row["geometry"],
            "caches": row["caches"],
        }
        for k in SPLIT:
            m[k] = c[k] / ops
        # the last level's misses: the accesses that went to memory
        m["mem"] = m["l3m"] if three else m["l2m"]
        m["cost"], m["cost_line"] = price(m, lat)
        rounds[row["mode"]][row["workload"]][row["config"]][int(row["round"])] = m
        if row["config"] not in configs and row["config"] != REPEAT:
            configs.append(row["config"])
    for mode in sorted(stale):
        print("report.py: %s: %s rows from an older harness left out; run "
              "MODES=%s make bench to refresh them" % (path, mode, mode), file=sys.stderr)
    for mode, wls in rounds.items():
        for wl, per in wls.items():
            for c, rs in per.items():
                ms = list(rs.values())
                med = dict(ms[0])
                for k in METRICS:
                    med[k] = statistics.median(x[k] for x in ms)
                med["ops"] = int(statistics.median(x["ops"] for x in ms))
                med["rounds"] = rs
                det[mode][wl][c] = med
    return det, configs, mixed


def load_all(outdir, plan=None):
    """det.csv of OUTDIR priced with its calibration, for the plan's
    machine: (det, configs, mixed, latencies or None)."""
    lat = load_calibration(outdir)
    det, configs, mixed = load_det(os.path.join(outdir, "det.csv"), lat,
                                   plan.get("geometry") if plan else None)
    return det, configs, mixed, lat


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


def aa_repeat(per, key):
    """vanilla's first round against its repeat (one kernel, one history,
    two boots), larger over smaller: the instrument's repeatability"""
    a = per.get(BASE, {}).get("rounds", {}).get(1, {}).get(key)
    b = per.get(REPEAT, {}).get("rounds", {}).get(1, {}).get(key)
    if a is None or b is None:
        return None
    if a == b:
        return 1.0
    return max(a, b) / min(a, b) if min(a, b) else None


def boot_tags(b):
    """the workload's boot, when it had the disk or two vCPUs"""
    return {"disk": ["disk"], "2cpu": ["2 vCPUs"]}.get(b.get("boot"), [])


def rfmt(r):
    return "-" if r is None else "%.4f" % r


def sfmt(per, c, key):
    """median ratio [min-max of the per-round ratios]"""
    r, sp = rel(per, c, key), rel_spread(per, c, key)
    if r is None:
        return "-"
    if sp is None or sp[0] == sp[1]:
        return "%.4f" % r
    return "%.4f [%.3f-%.3f]" % (r, sp[0], sp[1])


def wall_summary(outdir):
    """{workload: "vanilla median, hotcold/vanilla [spread]"} from results.csv"""
    res = os.path.join(outdir, "results.csv")
    if not os.path.exists(res):
        return {}
    data, _ = load(res)
    out = {}
    for (wl, metric), per in data.items():
        if BASE not in per:
            continue
        r = ratio(per, "hotcold")
        out[wl] = "%s %s, %s" % (fmt(statistics.median(per[BASE].values())), metric,
                                 "%.2f [%.2f-%.2f]" % r if r else "-")
    return out


def same_binary(per):
    """hotcold against hotcold-off: one kernel, only the decisions differ"""
    a, b = per.get("hotcold", {}).get("mem"), per.get("hotcold-off", {}).get("mem")
    return "%.3f" % (a / b) if a is not None and b else "-"


def base_rows(table):
    """(name, per-config metrics, vanilla's) of each workload vanilla ran"""
    for wl, per in table.items():
        if per.get(BASE):
            tags = (["shared CPU"] if wl.startswith(SHARED) else []) + boot_tags(per[BASE])
            yield wl + (" (%s)" % ", ".join(tags) if tags else ""), per, per[BASE]


def det_section(det, configs, wall=None, lat=None):
    wall = wall or {}
    lines = []
    others = [c for c in configs if c != BASE]
    nrounds = max((len(p.get(BASE, {}).get("rounds", {})) for t in det.values()
                   for p in t.values()), default=0)
    if "icount" in det:
        lines += [
            "## icount: instructions per operation", "",
            "Fixed work under `-icount shift=0` (guest time counts instructions), "
            "counted by the cachesim plugin inside each workload's measured "
            "phase, on one vCPU (readahead_other_cpu: two, the reader on the "
            "other); the vCPU column says whose instructions (0: the "
            "foreground's; all: every vCPU's).  `rate` is the workload's own "
            "metric over guest time, i.e. work per 10^9 guest instructions.  "
            "%d rounds, interleaved, a fresh boot each, round r starting "
            "with warm-up r in every configuration (the state earlier work "
            "leaves sets small miss counts; guest/jobs/bench.sh); values are medians, "
            "ratios are medians with [min-max of the per-round ratios].  "
            "A/A repeat: vanilla's first round booted twice (one kernel, one "
            "history), larger over smaller: the instrument's repeatability.  "
            "A/A rounds: vanilla's largest round over its smallest, the "
            "spread the histories add: the noise a difference has to beat.  "
            "`(disk)`: the workload needed the virtio disk, whose completions "
            "land at host-timed points, so its boots are not repeatable; the "
            "others boot without one (the streaming readers read a null_blk "
            "device that completes on a guest timer).  Counts are repeatable, "
            "not exact: TCG counts a faulting block whole.  A rep string "
            "instruction runs one iteration per TCG execution and is counted "
            "once per iteration (4096 for one clear_page() by rep stosb): "
            "`rep` is those iterations per op, and `insn, rep once` counts "
            "each such instruction once, the figure the overhead target "
            "judges." % nrounds, "",
            "| workload | vCPU | ops | vanilla insn/op | vanilla rep/op | vanilla insn, rep once | "
            "A/A repeat | A/A rounds | " +
            " | ".join("%s/vanilla, rep once" % c for c in others) + " | vanilla rate | " +
            " | ".join("%s rate/vanilla" % c for c in others) + " |",
            "|---|---|---|---|---|---|---|---|" + "---|" * (2 * len(others) + 1),
        ]
        for name, per, b in base_rows(det["icount"]):
            lines.append("| %s | %s | %s | %.0f | %.0f | %.0f | %s | %s | %s | %s | %s |" % (
                name, b["cpu"], b["ops"], b["insn"], b["rep"], b["insn1"],
                rfmt(aa_repeat(per, "insn1")), rfmt(aa(per, "insn1")),
                " | ".join("%s, %s" % (sfmt(per, c, "insn"), sfmt(per, c, "insn1"))
                           for c in others),
                fmt(b["rate"]) if b["rate"] else "-",
                " | ".join(rfmt(rel(per, c, "rate")) for c in others)))
        lines.append("")
    if "cachesim" in det:
        any_row = next(iter(next(iter(det["cachesim"].values())).values()))
        three = any_row["levels"] == 3
        lines += [
            "## cachesim: simulated data-cache misses per operation", "",
            "The same fixed work with the plugin's cache model, %s (0w: fully "
            "associative, capacity misses only; set-associative, the conflict "
            "misses follow where each boot places pages in physical memory), "
            "64-byte lines, LRU, physical addresses, every level filled on a "
            "miss, counting only inside the measured phase.  The guest kernel "
            "read these caches from CPUID: %s.  `memory`: the accesses that "
            "missed the last level.  hotcold/hotcold-off compares one kernel "
            "binary with itself: only the allocator's decisions differ, not "
            "the code or the kernel's physical layout." % (
                any_row["geometry"], any_row["caches"] or "not reported"), "",
            "Estimated cycles per op (`cycles`), a model, not a measurement: "
            "one instruction per cycle plus each miss at the latency of the "
            "level that served it, as a dependent load; %s.  `cycles, line "
            "stores`: the same, but the misses below L1 of rep string stores "
            "(clear_page(), copy_page()) priced as the measured extra cost of "
            "writing a whole 4 KB page that is in L3 or in DRAM, per line: "
            "such stores need no read on hardware.  The truth lies between "
            "the two." % latency_text(lat), "",
            "| workload | vCPU | vanilla L1D miss/op | vanilla L2 miss/op | " +
            ("vanilla L3 miss/op | " if three else "") +
            "vanilla cycles/op | A/A repeat L1D, memory | A/A rounds L1D, memory | " +
            " | ".join("%s/vanilla L1D, memory, cycles, cycles line stores" % c
                       for c in others) +
            " | hotcold/hotcold-off memory | wall: vanilla median, hotcold/vanilla [spread] |",
            "|---|---|---|---|---|---|---|" + ("---|" if three else "") +
            "---|" * (len(others) + 2),
        ]
        for name, per, b in base_rows(det["cachesim"]):
            lines.append("| %s | %s | %.1f | %.1f | %s%.0f | %s, %s | %s, %s | %s | %s | %s |" % (
                name, b["cpu"], b["l1m"], b["l2m"],
                "%.1f | " % b["l3m"] if three else "", b["cost"],
                rfmt(aa_repeat(per, "l1m")), rfmt(aa_repeat(per, "mem")),
                rfmt(aa(per, "l1m")), rfmt(aa(per, "mem")),
                " | ".join("%s, %s, %s, %s" % (
                    rfmt(rel(per, c, "l1m")), sfmt(per, c, "mem"), rfmt(rel(per, c, "cost")),
                    rfmt(rel(per, c, "cost_line"))) for c in others),
                same_binary(per), wall.get(name.split()[0], "-")))
        lines.append("")
    return lines


def latency_text(lat):
    if lat is None or "ghz" not in lat:
        return ("latencies assumed, not measured (bench/calibrate did not run): L2 "
                "%.0f, L3 %.0f, memory %.0f cycles" % (ASSUMED["l2"], ASSUMED["l3"],
                                                       ASSUMED["dram"]))
    n, pw = lat["ns"], lat["page_write_ns"]
    return ("latencies measured on this host (bench/calibrate; a dependent load's "
            "L1 latency taken as %d cycles, so %.2f GHz): L2 %.1f ns (%.0f cycles), "
            "L3 %.1f ns (%.0f), memory %.1f ns (%.0f); a 4 KB page written with "
            "memset() %.0f ns warm, %.0f ns in L3, %.0f ns in DRAM, so %.1f and %.1f "
            "extra cycles per line" % (
                L1_CYCLES, lat["ghz"], n["l2"], lat["l2"], n["l3"], lat["l3"], n["dram"],
                lat["dram"], pw["warm"], pw["l3"], pw["dram"], lat["line_l3"],
                lat["line_dram"]))


def det_targets(det, plan=None, lat=None):
    """The targets of the deterministic modes, checked, not asserted:
    (lines, targets that had no data although the run asked for it)."""
    t = Targets("### Deterministic targets")
    aa_bad, aa_disk, hist, off_bad, insn_bad, worse = [], [], [], [], [], []
    undecided = []
    scen_wins, scen_all = [], []
    n_repeat, n_off, n_insn, n_worse = 0, 0, 0, 0
    noise = 0.005
    for mode, keys in (("icount", ["insn1"]), ("cachesim", ["insn", "l1m", "l2m", "l3m"])):
        for wl, per in det.get(mode, {}).items():
            disk = per.get(BASE, {}).get("boot") == "disk"
            for k in keys:
                r = aa_repeat(per, k)
                if r is not None:
                    n_repeat += not disk
                    if r - 1 > 0.005:
                        (aa_disk if disk else aa_bad).append("%s %s %s %.4f" % (mode, wl, k, r))
                r = aa(per, k)
                if r is not None:
                    hist.append((r, "%s %s %s %.4f" % (mode, wl, k, r)))
    for wl, per in det.get("icount", {}).items():
        if wl.startswith(SHARED):
            continue
        r = rel(per, "hotcold-off", "insn1")
        if r is not None:
            n_off += 1
            if abs(r - 1) > 0.001:
                off_bad.append("%s %.4f" % (wl, r))
        r = rel(per, "hotcold", "insn1")
        if r is not None:
            n_insn += 1
            if r > 1.003:
                insn_bad.append("%s %.4f" % (wl, r))
    for wl, per in det.get("cachesim", {}).items():
        if wl.startswith(SHARED):
            continue
        for k in ("l1m", "l2m", "l3m"):
            r = rel(per, "hotcold", k)
            if r is None:
                continue
            n_worse += 1
            # the noise: vanilla against itself, at least 0.5 %.  What
            # the series' binary changes by itself (hotcold-off's distance
            # from vanilla: code and data layout) is shown, not allowed
            # for: a regression hotcold and hotcold-off share is still one
            a, o = aa(per, k), rel(per, "hotcold-off", k)
            n = max(noise, abs(a - 1) if a is not None else 0)
            base = per.get(BASE, {}).get(k, 0)
            sp = rel_spread(per, "hotcold", k)
            # below one miss per op a ratio says little, unless the
            # series adds at least one; and every round must be worse
            if r > 1 + n and (base >= 1 or (r - 1) * base >= 1) \
                    and (sp is None or sp[0] > 1):
                hc = per.get("hotcold", {}).get("rounds", {}).values()
                what = "%s %s %.3f%s" % (wl, k, r, "" if o is None else
                                         " (hotcold-off %.3f)" % o)
                # no hot/cold event in any round: the series ran
                # upstream's code there, so the difference is the boot's
                # state (which pages sit where), not its decisions
                if hc and all(x.get("hc_events") == 0 for x in hc):
                    undecided.append(what)
                else:
                    worse.append(what)
        if wl in SCENARIOS:
            r = rel(per, "hotcold", "mem")
            if r is not None:
                scen_all.append("%s %.3f" % (wl, r))
                if r <= 0.85:
                    scen_wins.append(wl)

    text = ("A/A repeat (vanilla's first round booted twice) within 0.5 % on every "
            "deterministic metric of the workloads that boot without a disk")
    if n_repeat:
        t.add(text, "met on %d metrics" % n_repeat if not aa_bad else "missed on " + ", ".join(aa_bad))
    else:
        why = None
        if plan is not None and not plan["repeat"]:
            why = "not in this run (QUICK: no repeat boot)"
        elif plan is not None and not set(plan["modes"]) & {"icount", "cachesim"}:
            why = "not in this run (MODES)"
        t.missing(text, why, "no vanilla-repeat rows")
    if aa_disk:
        t.add("the same for the workloads that needed the disk (its completions land "
              "at host-timed points)", "beyond 0.5 % on " + ", ".join(aa_disk))
    within = sum(1 for r, _ in hist if r - 1 <= 0.005)
    text = ("A/A rounds (vanilla's histories against each other; the noise a "
            "difference has to beat) within 0.5 %")
    if hist:
        t.add(text, "on %d of %d metrics%s" % (
            within, len(hist), "" if within == len(hist) else "; beyond: " +
            ", ".join(x for r, x in sorted(hist, reverse=True) if r - 1 > 0.005)))
    else:
        why = None
        if plan is not None and not set(plan["modes"]) & {"icount", "cachesim"}:
            why = "not in this run (MODES)"
        t.missing(text, why, "fewer than two rounds of vanilla")
    text = ("hotcold-off within 0.1 % of vanilla in instructions per op (icount, each "
            "rep string instruction once)")
    t.check(text, n_off, off_bad, "workloads",
            asked(plan, "icount", "hotcold-off"), "no icount rows of hotcold-off")
    text = ("hotcold at most 0.3 % more instructions per op than vanilla (icount, each "
            "rep string instruction once)")
    t.check(text, n_insn, insn_bad, "workloads",
            asked(plan, "icount", "hotcold"), "no icount rows of hotcold")
    text = ("hotcold's memory accesses (last-level misses) per op at least 15 % below "
            "vanilla's on two scenarios")
    if scen_all:
        t.add(text, "%s (hotcold/vanilla memory accesses: %s)" % (
            "met on " + ", ".join(scen_wins) if len(scen_wins) >= 2 else "missed",
            ", ".join(scen_all)))
    else:
        t.missing(text, asked(plan, "cachesim", "hotcold", SCENARIOS),
                  "no cachesim rows of hotcold on a scenario")
    text = ("hotcold never worse than vanilla in simulated misses per op beyond "
            "the noise (the larger of 0.5 % and vanilla's A/A rounds; worse in "
            "every round; workloads with at least one miss per op, or one more)")
    if n_worse:
        t.add(text, ("met on %d metrics" % n_worse if not worse else "missed on " + ", ".join(worse)) +
              ("" if not undecided else
               "; beyond it, but where the series made no hot/cold decision in "
               "any round (pcp_cold_alloc, _request and _free all 0: upstream's "
               "code ran, so the difference is the boot's state): " + ", ".join(undecided)))
    else:
        t.missing(text, asked(plan, "cachesim", "hotcold"), "no cachesim rows of hotcold")
    lost = ["%s %s round %d: %d" % (wl, c, r, m["dma_lost"])
            for wl, per in det.get("cachesim", {}).items() for c, med in per.items()
            for r, m in med["rounds"].items() if m["dma_lost"]]
    n_dma = sum(len(med["rounds"]) for per in det.get("cachesim", {}).values()
                for med in per.values())
    t.check("every DMA marker applied to the page it names (dma_lost=0)", n_dma, lost,
            "boots", asked(plan, "cachesim"), "no cachesim rows")
    text = "simulated misses priced with latencies measured on this host (bench/calibrate)"
    if det.get("cachesim"):
        if lat is not None:
            t.add(text, "met: " + latency_text(lat))
        else:
            t.missing(text, None if plan is None or "cachesim" in plan["modes"]
                      else "not in this run (MODES)", "no calibrate.txt")
    t.lines.append("")
    return t.lines, t.not_run


SCENARIOS = ("exit_flood", "reclaim_flood", "readahead_same_cpu", "readahead_other_cpu",
             "big_hot_list", "reader_beside_hot_list")

INTRO = """# hotcold benchmark report

Three instruments, each for the claims it can support:

- **cachesim** (simulated data misses per operation, exact; repeatable
  boot for boot, since no workload does host I/O): cache warmth, i.e.
  whether the series hands hot pages to hot users.
- **icount** (guest instructions per operation, exact; repeatable likewise):
  the cost of the series' code paths, and that the switch at 0 costs
  nothing.
- **wall** (timed runs under QEMU TCG): real-time effects, with the
  emulator's noise (10-80 % spreads); TCG models no cache, so warmth does
  not show here.

Workloads: the 2002 hot-n-cold workloads (80 KB write + ftruncate loops,
a sweep of sizes, an SDET-like shell mix, page-fault loops, the same with
a streaming reader: `mixed_*`) and scenarios in which vanilla hands cold
pages to a hot foreground (guest/jobs/bench.sh, guest/src/flood.c):
`exit_flood` (large processes whose memory is long cold exit on the
foreground's CPU), `reclaim_flood` (page cache read long ago is reclaimed
on the foreground's CPU), `readahead_same_cpu` and `readahead_other_cpu`
(a streaming reader on the same or the other CPU), `big_hot_list` (per-cpu
lists of thousands of pages, allocation bursts larger than the cache) and
`reader_beside_hot_list` (the same with a streaming reader on its CPU).
Configurations: `vanilla`, `hotcold` (the series), `hotcold-off` (the
series at vm.percpu_pagelist_hot_cold=0), and the bench-only alternatives
under bench/alternatives/ when CONFIGS asks for them: `single` (the
series' callers, cold pages at the tail of one list as in 2.6.25-4.14)
and `nopcp` (no per-cpu lists, as before 2.5.45).
"""


def summary(outdir):
    """The compact table of README.md and the cover letter: instructions
    (icount) and L2 misses (cachesim) per op, ratios to vanilla."""
    det, _, _, _ = load_all(outdir, load_plan(outdir))
    ic, cs = det.get("icount", {}), det.get("cachesim", {})
    print("| workload | vanilla insn/op | A/A repeat, rounds | hotcold | hotcold-off | "
          "vanilla memory accesses/op | A/A repeat, rounds | hotcold | hotcold-off | "
          "hotcold / hotcold-off |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, per, b in base_rows(ic):
        wl = name.split()[0]
        c = cs.get(wl, {})
        mem = c.get(BASE, {}).get("mem")
        print("| %s | %.0f | %s, %s | %s | %s | %s | %s, %s | %s | %s | %s |" % (
            name, b["insn"], rfmt(aa_repeat(per, "insn")), rfmt(aa(per, "insn")),
            rfmt(rel(per, "hotcold", "insn")), rfmt(rel(per, "hotcold-off", "insn")),
            "-" if mem is None else "%.1f" % mem, rfmt(aa_repeat(c, "mem")), rfmt(aa(c, "mem")),
            sfmt(c, "hotcold", "mem"), sfmt(c, "hotcold-off", "mem"), same_binary(c)))
    return 0


def compare_lines(det, configs):
    """Every configuration against vanilla, per workload: instructions
    (icount), simulated L1D and L2 misses (cachesim) per op, medians
    [min-max of the per-round ratios]; vanilla's own rounds (A/A) are the
    noise.  The table of the cover letter's first screen."""
    ic, cs = det.get("icount", {}), det.get("cachesim", {})
    others = [c for c in configs if c != BASE]
    if not ic and not cs:
        return []
    head = "| workload | metric | vanilla | A/A rounds | " + " | ".join(others) + " |"
    lines = [head, "|---|---|---|---|" + "---|" * len(others)]
    for wl in list(dict.fromkeys(list(ic) + list(cs))):
        for mode, key, label in (("cachesim", "cost", "estimated cycles/op (model)"),
                                 ("cachesim", "mem", "simulated memory accesses/op"),
                                 ("cachesim", "l1m", "simulated L1D misses/op"),
                                 ("icount", "insn", "instructions/op")):
            per = det.get(mode, {}).get(wl)
            if not per or BASE not in per:
                continue
            b = per[BASE][key]
            lines.append("| %s | %s | %s | %s | %s |" % (
                wl, label, "%.1f" % b if b < 1000 else "%.0f" % b, rfmt(aa(per, key)),
                " | ".join(sfmt(per, c, key) for c in others)))
    return lines


def compare(outdir):
    det, configs, _, _ = load_all(outdir, load_plan(outdir))
    lines = compare_lines(det, configs)
    if not lines:
        print("report.py: compare: no icount or cachesim rows in %s -- NOT RUN"
              % os.path.join(outdir, "det.csv"), file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


def report(outdir):
    """Writes OUTDIR/report.md; 1 if a target the run asked for had no
    data (NOT RUN) or the chart failed."""
    lines = [INTRO]
    plan = load_plan(outdir)
    if plan is not None:
        lines += ["Run of %s, commit %s: `%s`." % (plan["date"] or "an unknown date",
                                                  plan["commit"] or "unknown",
                                                  plan["command"] or "make bench"), ""]
    not_run = []
    det, dconfigs, _, lat = load_all(outdir, plan)
    if not det and plan is not None and set(plan["modes"]) & {"icount", "cachesim"}:
        lines += ["## Deterministic modes: NOT RUN (no rows in det.csv)", ""]
        not_run.append("deterministic modes (%s): no rows in det.csv" %
                       " ".join(m for m in plan["modes"] if m != "wall"))
    if det:
        lines += det_section(det, dconfigs, wall_summary(outdir), lat)
        if len(dconfigs) > 3 or any(c not in (BASE, "hotcold", "hotcold-off") for c in dconfigs):
            lines += ["## Every configuration against vanilla", "",
                      "Median ratio to vanilla [min-max of the per-round ratios]; "
                      "`single` and `nopcp` are bench-only kernels "
                      "(bench/alternatives/).", ""]
            lines += compare_lines(det, dconfigs) + [""]
        tl, tn = det_targets(det, plan, lat)
        lines += tl
        not_run += tn
        lines += ["`shared CPU`: the foreground shares vCPU 0 with a streaming "
                  "reader whose progress follows the scheduler, so each kernel's "
                  "counts hold a different amount of the reader's work (the same "
                  "in every boot of one kernel): not like for like; they are left "
                  "out of the targets (readahead_same_cpu is the controlled "
                  "case).", ""]
    rc = 0
    data, _ = load(os.path.join(outdir, "results.csv"))
    if data:
        wl, plot, others, tn = wall_section(outdir)
        lines += wl
        not_run += tn
        rc = wall_chart(outdir, plot, others)
    elif plan is None or "wall" in plan["modes"]:
        lines += ["## wall: NOT RUN (no rows in results.csv)", ""]
        not_run.append("wall mode: no rows in results.csv")
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    for x in not_run:
        print("report.py: NOT RUN: %s" % x, file=sys.stderr)
    return 1 if not_run else rc


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "det-header":
        print(",".join(DET_FIELDS))
        return 0
    if cmd == "det-rows" and len(sys.argv) == 8:
        return det_rows(*sys.argv[2:8])
    if cmd == "summary" and len(sys.argv) == 3:
        return summary(sys.argv[2])
    if cmd == "compare" and len(sys.argv) == 3:
        return compare(sys.argv[2])
    if cmd == "report" and len(sys.argv) == 3:
        return report(sys.argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
