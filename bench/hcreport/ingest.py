# SPDX-License-Identifier: GPL-2.0
"""Ingest: the files of a make bench run (OUTDIR, build/bench): the plan,
results.csv and vmstat.csv (wall), calibrate.txt, and det.csv, whose rows
det_rows() makes from one boot's guest output and plugin phases."""
import csv
import os
import statistics
import sys
from collections import defaultdict

from . import workloads


BASE = "vanilla"
# vanilla's first round booted again: the A/A of the instrument itself
# (deterministic modes), or vanilla booted twice per round (wall)
REPEAT = "vanilla-repeat"
# vanilla built with its layout shifted (bench/alternatives/layout.patch):
# the noise of comparing two binaries of the same code
LAYOUT = "vanilla-layout"
# configurations that are vanilla's A/A, not compared as configurations
AA_CONFIGS = (REPEAT, LAYOUT)


def read_lines(path):
    """the lines of a file, read whole and closed"""
    with open(path) as f:
        return f.read().splitlines(True)

def load_plan(outdir):
    """What the run asked for (scripts/bench.sh writes OUTDIR/plan):
    {"modes": [...], "configs": [...], "repeat": bool, "workloads": [...]
    (empty: all), "sweep_configs": [...], ...}, or None for a run without a plan (every target is then
    judged on the data present)."""
    path = os.path.join(outdir, "plan")
    if not os.path.exists(path):
        return None
    kv = dict(line.rstrip("\n").partition("=")[::2] for line in read_lines(path) if "=" in line)
    return {"modes": kv.get("modes", "").split(), "configs": kv.get("configs", "").split(),
            "geometry": (kv.get("geometry", "").split() or [None])[0],
            "repeat": kv.get("repeat", "0") == "1",
            "det_rounds": int(kv["det_rounds"]) if kv.get("det_rounds", "").isdigit() else None,
            "workloads": kv.get("workloads", "").split(),
            # the configurations that boot the sweeps (scripts/bench.sh's
            # SWEEP_CONFIGS; a plan from before it: these)
            "sweep_configs": kv.get("sweep_configs", "vanilla hotcold single").split(),
            "date": kv.get("date", ""), "commit": kv.get("commit", ""),
            "command": kv.get("command", "")}

def load(path):
    data = defaultdict(lambda: defaultdict(dict))
    if not os.path.exists(path):
        return data, []
    configs = []
    for row in csv.DictReader(read_lines(path)):
        key = (row["workload"], row["metric"])
        data[key][row["config"]][int(row["round"])] = float(row["value"])
        if row["config"] not in configs:
            configs.append(row["config"])
    return data, configs

def load_vm(path):
    vm = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    if not os.path.exists(path):
        return vm
    for row in csv.DictReader(read_lines(path)):
        try:
            v = float(row["delta"])
        except ValueError:
            continue
        vm[row["workload"]][row["config"]][row["counter"]].append(v)
    return vm

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
# guest kernel read from CPUID (guest/jobs/bench.sh's hotcold-caches);
# stamp: the run's patches and SCALE (scripts/bench.sh's BENCH_STAMP)
# What the workload exercises: cold_free, cold_request (the guest's
# vmstat pcp_cold_free and pcp_cold_request around the whole workload,
# its setup too: pages freed to a cold list, pages readahead asked for
# cold; 0 on a kernel without the counters) and the calls the plugin
# counted in the phase (calls=, from scripts/bench.sh's CALL_SYMS, in
# this order): page-table pages allocated (pte_alloc_one, __pmd_alloc,
# __pud_alloc: one page each), mms
# torn down (exit_mmap: exits and execs) and reclaim passes
# (shrink_folio_list: the only caller that frees cold besides the exit
# path)
CALL_SYMS = ("pte_alloc_one", "__pmd_alloc", "__pud_alloc", "exit_mmap", "shrink_folio_list")
# exits in the phase of a workload that is not a sweep (guest/jobs/bench.sh:
# flood exit 40 4), reclaim passes at least (flood reclaim 96 4: a
# MADV_PAGEOUT each, in batches), and workloads that must allocate page
# tables (forks): what checks that each address of calls= counts
KNOWN_EXITS = {"exit_flood": 4}
KNOWN_RECLAIMS = {"reclaim_flood": 4}
KNOWN_PT = ("pagefault_fork",)
EXERCISE = ["cold_free", "cold_request", "pt_pages", "mm_exits", "shrinks"]
DET_FIELDS = ["mode", "workload", "config", "round", "boot", "cpu", "ops", "rate"] + \
    COUNTS + SPLIT + DMA + REP + ["hc_events"] + EXERCISE + ["geometry", "caches", "stamp"]
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


def load_calibration(outdir):
    """Latencies in cycles from OUTDIR/calibrate.txt (bench/calibrate), with
    the string stores' extra cost per line when the page is in L3 or in
    DRAM (a 4 KB memset() less a warm one, over 64 lines), or None."""
    path = os.path.join(outdir, "calibrate.txt")
    if not os.path.exists(path):
        return None
    kv = {}
    for line in read_lines(path):
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
    for line in read_lines(phases):
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
    vm = {}
    caches = ""
    for line in read_lines(jobout):
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
            vm[f[1]] = kv
    recs = defaultdict(dict)
    for line in read_lines(phases):
        if line.startswith("phase="):
            kv = dict(x.split("=") for x in line.split())
            recs[int(kv["phase"])][int(kv["vcpu"])] = {k: int(v) for k, v in kv.items()
                                                       if v.isdigit()}
    if len(recs) != len(guest):
        print("report.py: %s: %d phases in the guest output, %d in %s" %
              (jobout, len(guest), len(recs), phases), file=sys.stderr)
        return 1
    geometry = phases_geometry(phases)
    # what the run measured: the patches' hash and SCALE (scripts/bench.sh)
    stamp = os.environ.get("BENCH_STAMP", "")
    w = csv.writer(sys.stdout, lineterminator="\n")
    for i, (wl, ops, cpu) in enumerate(guest, 1):
        vcpus = [recs[i][0]] if cpu == "0" else list(recs[i].values())
        if not ops:
            print("report.py: %s: workload %s did no work" % (jobout, wl), file=sys.stderr)
            return 1
        # the calls are the whole guest's, every vCPU's (a page table or
        # an exit on the other vCPU is the workload's too)
        calls = [sum(v.get("call%d" % k, 0) for v in recs[i].values())
                 for k in range(len(CALL_SYMS))]
        counted = all("call%d" % k in recs[i][0] for k in range(len(CALL_SYMS)))
        # the exits of exit_flood and of the exit sweeps are known: N mms
        # torn down in the phase, which checks that calls= counted the
        # functions it names
        sp = workloads.sweep_params(wl)
        exits = sp[1] if sp and sp[0] == "exit" else KNOWN_EXITS.get(wl)
        if counted and exits is not None and calls[3] != exits:
            print("report.py: %s: %s: the plugin counted %d calls of exit_mmap, the "
                  "workload made %d exits: calls= does not count what CALL_SYMS names" %
                  (jobout, wl, calls[3], exits), file=sys.stderr)
            return 1
        reclaims = sp[1] if sp and sp[0] == "reclaim" else KNOWN_RECLAIMS.get(wl)
        if counted and reclaims is not None and calls[4] < reclaims:
            print("report.py: %s: %s: the plugin counted %d calls of shrink_folio_list, "
                  "the workload reclaimed %d times: calls= does not count what CALL_SYMS "
                  "names" % (jobout, wl, calls[4], reclaims), file=sys.stderr)
            return 1
        if counted and wl in KNOWN_PT and not sum(calls[:3]):
            print("report.py: %s: %s: the plugin counted no page-table page in a "
                  "workload that forks: calls= does not count what CALL_SYMS names" %
                  (jobout, wl), file=sys.stderr)
            return 1
        kv = vm.get(wl, {})
        exercise = [kv.get("pcp_cold_free", ""), kv.get("pcp_cold_request", "")] + (
            [sum(calls[:3]), calls[3], calls[4]] if counted else ["", "", ""])
        w.writerow([mode, wl, config, rnd, boot, cpu, ops, rates.get(wl, "")] +
                   [sum(v.get(k, 0) for v in vcpus) for k in COUNTS] +
                   [sum(v.get(k + "_k", 0) + v.get(k + "_u", 0) for v in vcpus) for k in SPLIT] +
                   [sum(v.get(k, 0) for v in vcpus) for k in DMA] +
                   [sum(v.get(k + "_k", 0) + v.get(k + "_u", 0) for v in vcpus) for k in REP] +
                   [events.get(wl, "")] + exercise + [geometry, caches, stamp])
    return 0


# the allocator each configuration of scripts/bench.sh names: the
# switch's value ("none": a kernel without the series) and whether its
# pcp lists are off (nopcp: high 0, batch 1).  By name, not from the
# command line the configuration boots with: a mistyped parameter there
# must not change what is expected.
EXPECTED_STATE = {"vanilla": ("none", False), REPEAT: ("none", False),
                  LAYOUT: ("none", False), "hotcold": ("1", False),
                  "hotcold-off": ("0", False), "single": ("1", False),
                  "nopcp": ("none", True)}


def boot_state(config, flavour, append, jobout):
    """Check that the boot of CONFIG ran the allocator the configuration
    names: a mistyped parameter, a kernel without the series or a nopcp
    kernel whose lists are still on would otherwise give rows under the
    wrong name.  Prints what is wrong and returns 1, or returns 0."""
    if config not in EXPECTED_STATE:
        print("report.py: %s: no expected allocator state for configuration %s "
              "(bench/hcreport/ingest.py EXPECTED_STATE)" % (jobout, config), file=sys.stderr)
        return 1
    switch, nopcp = EXPECTED_STATE[config]
    info = None
    for line in read_lines(jobout):
        if line.startswith("hotcold-info "):
            info = dict(x.split("=", 1) for x in line.split()[1:] if "=" in x)
    problems = []
    if info is None:
        problems.append("no hotcold-info line")
    else:
        if info.get("switch") != switch:
            problems.append("vm.percpu_pagelist_hot_cold is %s, expected %s" %
                            (info.get("switch"), switch))
        high = info.get("pcp_high_max", "")
        batch = info.get("pcp_batch", "").split("-")
        if not high.isdigit() or len(batch) != 2 or not all(b.isdigit() for b in batch):
            problems.append("no pcp state (pcp_high_max=%s pcp_batch=%s)" %
                            (high, info.get("pcp_batch")))
        elif nopcp and (int(high) != 0 or batch != ["1", "1"]):
            problems.append("the pcp lists are on (largest high %s, batch %s), expected "
                            "high 0 and batch 1 everywhere" % (high, "-".join(batch)))
        elif not nopcp and int(high) == 0:
            problems.append("every pcp list has high 0, as on nopcp")
    for p in problems:
        print("report.py: %s: %s (%s kernel, command line '%s'): %s" %
              (jobout, config, flavour, append, p), file=sys.stderr)
    return 1 if problems else 0


# what an icount row and the cachesim row of the same boot must share:
# under -icount the guest's clock counts instructions, so the cache model
# running or not changes nothing the guest does
SAME_IN_BOTH = ["workload", "config", "round", "boot", "cpu", "ops", "insn_k", "insn_u",
                "rep", "repx", "hc_events"] + EXERCISE + ["caches", "stamp"]


def icount_rows(cachesim_csv, check_csv=None):
    """det.csv rows of the icount mode derived from the cachesim mode's
    rows of the same boots (the instruction counts, the cache counts
    zeroed), printed.  With check_csv, the rows of an icount boot that
    the run made as well: every one of its rows must equal the derived
    row of its workload in the columns SAME_IN_BOTH, or nothing is
    printed and 1 is returned (the two instruments disagree)."""
    derived = []
    for row in csv.DictReader(read_lines(cachesim_csv), fieldnames=DET_FIELDS):
        if row["mode"] != "cachesim":
            print("report.py: %s: a %s row, expected cachesim rows only" %
                  (cachesim_csv, row["mode"]), file=sys.stderr)
            return 1
        row = dict(row, mode="icount", geometry="no cache model")
        for k in [c for c in COUNTS if not c.startswith("insn")] + SPLIT + DMA:
            row[k] = "0"
        derived.append(row)
    if not derived:
        print("report.py: %s: no rows to derive icount rows from" % cachesim_csv,
              file=sys.stderr)
        return 1
    if check_csv is not None:
        booted = list(csv.DictReader(read_lines(check_csv), fieldnames=DET_FIELDS))
        by_wl = {r["workload"]: r for r in derived}
        bad = []
        for r in booted:
            d = by_wl.get(r["workload"])
            diff = [k for k in SAME_IN_BOTH if d is None or r[k] != d[k]]
            if diff:
                bad.append("%s (%s)" % (r["workload"], ", ".join(diff)))
        if not booted or len(booted) != len(derived) or bad:
            print("report.py: the icount boot (%s, %d rows) and the cachesim boot (%s, %d "
                  "rows) disagree: %s" % (check_csv, len(booted), cachesim_csv, len(derived),
                                          "; ".join(bad) or "a different number of rows"),
                  file=sys.stderr)
            return 1
    w = csv.writer(sys.stdout, lineterminator="\n")
    for row in derived:
        w.writerow([row[k] for k in DET_FIELDS])
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
    for row in csv.DictReader(read_lines(path)):
        if None in row.values() or None in row or any(k not in row for k in DET_FIELDS):
            # a row from an older harness, without the newer columns
            stale.add(row["mode"])
            continue
        rows.append(row)
    def stamp(row):
        # the machine: the model and the caches the guest read (not how
        # many vCPUs shared the last level in that boot: the 2-vCPU
        # boot's kernel sees half the slice of one machine)
        guest = " ".join(x for x in row["caches"].split() if x.startswith("L"))
        return "%s; guest: %s; %s" % (row["geometry"], guest or "no cache line",
                                      row["stamp"] or "no stamp")

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
            # per op; None: not counted
            **{k: float(row[k]) / ops if row[k] != "" else None for k in EXERCISE},
            "levels": 3 if three else 2,
            "dma_lost": int(c["dma_lost"]),
            "dma": int(c["dma"]),
            "geometry": row["geometry"],
            "caches": row["caches"],
        }
        for k in SPLIT:
            m[k] = c[k] / ops
        # the last level's misses: the accesses that went to memory
        m["mem"] = m["l3m"] if three else m["l2m"]
        m["cost"], m["cost_line"] = price(m, lat)
        rounds[row["mode"]][row["workload"]][row["config"]][int(row["round"])] = m
        if row["config"] not in configs and row["config"] not in AA_CONFIGS:
            configs.append(row["config"])
    for mode in sorted(stale):
        print("report.py: %s: %s rows from an older harness left out; run "
              "MODES=%s make bench to refresh them" % (path, mode, mode), file=sys.stderr)
    for mode, wls in rounds.items():
        for wl, per in wls.items():
            for c, rs in per.items():
                ms = list(rs.values())
                med = dict(ms[0])
                for k in METRICS + tuple(SPLIT):
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
