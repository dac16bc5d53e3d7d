# SPDX-License-Identifier: GPL-2.0
"""Ingest: the files of a make bench run (OUTDIR, build/bench/STAMP): the plan,
results.csv and vmstat.csv (wall), calibrate.txt (the host's latencies, a
cross-check), and det.csv, whose rows det_rows() makes from one boot's
guest output and plugin phases and load_det() prices with
bench/prices.tsv (load_prices())."""
import csv
import math
import os
import statistics
import sys
from collections import defaultdict

from . import configs, locks, workloads


# the configurations of the roles the report gives a meaning
# (bench/configs.tsv): the baseline every ratio is to
BASE = configs.role("base")
# the base's first round booted again: the A/A of the instrument itself
# (deterministic modes), or the base booted twice per round (wall)
REPEAT = configs.role("repeat")
# the base's kernel relinked apart: the noise of comparing two binaries
# of the same code
LAYOUT = configs.role("layout")
# the layout A/A of runs before LAYOUT's: the base's code shifted (the
# archived A/A pairs, hcreport/calibration.py)
SHIFTED = configs.role("shifted")
# the series, whose targets the report checks; the series' kernel booted
# with its switch at 0; the kernel without per-cpu lists the seed's
# table starts from
SERIES = configs.role("series")
SWITCH_OFF = configs.role("switch-off")
NO_LISTS = configs.role("no-lists")
# the base with a known small cost (a bench-only patch): the power check
POWER = configs.role("power")
# configurations that are the base's A/A, not compared as configurations
AA_CONFIGS = tuple(c for c in (REPEAT, LAYOUT) if c)


def read_lines(path):
    """the lines of a file, read whole and closed"""
    with open(path) as f:
        return f.read().splitlines(True)


class InputError(Exception):
    """A file of the run that is missing or does not parse as what
    scripts/bench.sh writes (the plan, vmstat.csv): the report fails,
    naming the file (and the line), rather than judge less than the run
    asked for."""


def read_input(path, what):
    """read_lines(path), or InputError naming the file"""
    try:
        return read_lines(path)
    except FileNotFoundError:
        raise InputError("%s: no %s" % (path, what)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError("%s: cannot read the %s: %s" % (path, what, e)) from None


def load_plan(outdir):
    """What the run asked for (scripts/bench.sh writes OUTDIR/plan before
    its first boot): {"modes": [...], "configs": [...], "repeat": bool,
    "workloads": [...] (empty: all), "sweep_configs": [...], ...}.  A plan
    missing, unreadable, with a line that is not KEY=VALUE or without its
    modes and configurations raises InputError: without it no target the
    run asked for could be told NOT RUN."""
    path = os.path.join(outdir, "plan")
    lines = read_input(path, "plan (scripts/bench.sh writes it before its first boot: "
                             "what the run asked for, which the targets are judged by)")
    kv = {}
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        k, eq, v = line.partition("=")
        if line and not (eq and k):
            raise InputError("%s:%d: not KEY=VALUE: %r" % (path, n, line))
        if line:
            kv[k] = v
    for k in ("modes", "configs"):
        if not kv.get(k, "").split():
            raise InputError("%s: no %s -- not a plan scripts/bench.sh wrote whole" % (path, k))
    for k in ("det_rounds", "prog_rounds", "sweep_rounds"):
        if not kv.get(k, "0").isdigit():
            raise InputError("%s: %s=%s: not a number of rounds" % (path, k, kv[k]))
    return {"modes": kv["modes"].split(), "configs": kv["configs"].split(),
            "geometry": (kv.get("geometry", "").split() or [None])[0],
            "repeat": kv.get("repeat", "0") == "1",
            "det_rounds": int(kv["det_rounds"]) if "det_rounds" in kv else None,
            # the rounds the real programs and the sweeps boot in (a plan
            # from before the lines: None, not known)
            "prog_rounds": int(kv["prog_rounds"]) if "prog_rounds" in kv else None,
            "sweep_rounds": int(kv["sweep_rounds"]) if "sweep_rounds" in kv else None,
            "workloads": kv.get("workloads", "").split(),
            # the configurations of the residency meter's boots (a plan
            # from before the meter: none)
            "residency": kv.get("residency", "").split(),
            # the configurations that boot the sweeps (the table's sweeps
            # set, as scripts/bench.sh wrote it; a plan from before the
            # line: the table's)
            "sweep_configs": (kv["sweep_configs"].split() if "sweep_configs" in kv
                              else configs.names(sets="sweeps")),
            "date": kv.get("date", ""), "commit": kv.get("commit", ""),
            # how the rounds were drawn (a plan from before issue 46: no
            # run seed, the fixed seeds) and what the kernels' configuration
            # starts from (a plan from before the line: lean)
            "run_seed": kv.get("run_seed", ""), "config_base": kv.get("config_base", "lean"),
            "command": kv.get("command", ""),
            # the run's directory name and its det.csv rows' stamp (a plan
            # from before saved runs: none)
            "run": kv.get("run", ""), "bench_stamp": kv.get("bench_stamp", ""),
            # the silicon check asked for (SILICON=0: False; a plan from
            # before make bench ran it: None)
            "silicon": {"1": True, "0": False}.get(kv.get("silicon"))}

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

VM_FIELDS = ["workload", "config", "round", "counter", "delta"]


def load_vm(path):
    """vmstat.csv (wall mode: scripts/bench.sh writes a row per counter
    of the guest's hotcold-vmstat lines): {workload: {config: {counter:
    [delta of each round]}}}, empty without the file.  A row that does not
    parse raises InputError naming the file and line: left out, it would
    move a median or make a workload look as if it made no hot/cold
    decision."""
    vm = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    if not os.path.exists(path):
        return vm
    rows = csv.reader(read_input(path, "vmstat.csv"))
    for row in rows:
        if rows.line_num == 1:
            if row != VM_FIELDS:
                raise InputError("%s:1: header %s, expected %s" % (path, ",".join(row),
                                                                   ",".join(VM_FIELDS)))
            continue
        try:
            wl, config, rnd, counter, delta = row
            int(rnd)
            v = float(delta)
            if not (wl and config and counter and math.isfinite(v)):
                raise ValueError
        except ValueError:
            raise InputError("%s:%d: a row that does not parse (%s): %s" % (
                path, rows.line_num, ",".join(VM_FIELDS), ",".join(row))) from None
        vm[wl][config][counter].append(v)
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
# cross-core transfers (with two vCPUs or more: misses of the private
# levels another vCPU's modified copy served, in place of the shared
# level), kernel and user; and, summed over kernel and user as SPLIT, the
# rep string stores' among them (the plugin's xxfer_k and _u)
XFER = ["xfer_k", "xfer_u"]
XSPLIT = ["xxfer"]
# columns det.csv gained after runs were archived (docs/results/): last in
# a row, absent from an older det.csv, whose plugin had no coherence: its
# rows' transfers are None ("no coherence", never 0: its 2-vCPU boots
# counted no transfer because the model could not), and they price as
# rows without transfers.  A row of a det.csv that has the column but not
# the value is still from an older harness.
DET_LATER = XFER + XSPLIT
# boot: mem (no disk), disk, prog, sweep or a shape of bench/shapes.tsv
# (2cpu, ccd4, ccd8, ccd8prog; scripts/bench.sh)
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
# counted in the phase (the plugin's calls=: scripts/bench.sh asks for
# these, report.py calls, and passes their System.map addresses in this
# order): page-table pages allocated (pte_alloc_one, which __pte_alloc()
# and the file fault paths call, __pmd_alloc, __pud_alloc: one page
# each), mms torn down (exit_mmap: exits and execs) and reclaim passes
# (shrink_folio_list: the only caller that frees cold besides the exit
# path).  Under -icount the guest runs the same instructions with or
# without them.
CALL_SYMS = ("pte_alloc_one", "__pmd_alloc", "__pud_alloc", "exit_mmap", "shrink_folio_list")
# exits in the phase of a workload that is not a sweep (guest/jobs/bench.sh:
# flood exit 40 4), reclaim passes at least (flood reclaim 96 4: a
# MADV_PAGEOUT each, in batches), and workloads that must allocate page
# tables (forks): what checks that each address of calls= counts
KNOWN_EXITS = {"exit_flood": 4, "exit_flood_other_cpu": 4}
KNOWN_RECLAIMS = {"reclaim_flood": 4, "reclaim_flood_other_cpu": 4}
# the floods on the other CPU (flood's FLOOD_CPU): the index in CALL_SYMS
# of the call their flood makes (exit_mmap, shrink_folio_list), which
# vCPU 0, the foreground's, must make none of in the phase
OTHER_CPU_FLOODS = {"exit_flood_other_cpu": CALL_SYMS.index("exit_mmap"),
                    "reclaim_flood_other_cpu": CALL_SYMS.index("shrink_folio_list")}
KNOWN_PT = ("pagefault_fork",)
EXERCISE = ["cold_free", "cold_request", "pt_pages", "mm_exits", "shrinks"]
# zone->lock acquisitions by the page allocator in the phase, every
# vCPU's: all of them, those of batch refills of the per-CPU lists and
# those of batch drains (the plugin's counters after CALL_SYMS', from the
# call sites report.py lock-sites finds: hcreport/locks.py); "" from a
# plugin run without them.  Every exit of exit_flood frees more than a
# per-CPU list holds (KNOWN_EXITS; its tasks fault their memory in before
# the phase), so its phase drains: what checks that the sites count.
LOCKS = list(locks.GROUPS)
# the per-CPU lists as the workload left them (the guest's hotcold-pcp
# line, after its phase): over the CPUs, the largest list, the largest
# hot part of one and the largest high, in pages; "" without the line
PCP_LISTS = ["pcp_count", "pcp_hot", "pcp_high"]
PCP_KEYS = ("count_max", "hot_max", "high_max")
# the background's rate of a workload that has one (guest/jobs/bench.sh's
# hotcold-background line: backup_beside_compile's backup, MB per second
# of guest time), "" for the others; a det.csv from before it has none
# rep string stores (rep stos, rep movs): their iterations and the lines
# they wrote (the plugin's xrep and xline, kernel and user summed; cache.h's
# string_lines()), which cost_line prices at bench/prices.tsv's rep_line
# a line in place of a cycle an iteration; "" from a plugin without them
REP_LINES = ["xrep", "xline"]
DET_OPTIONAL = ["bg_rate"] + LOCKS + PCP_LISTS + REP_LINES
DET_FIELDS = ["mode", "workload", "config", "round", "boot", "cpu", "ops", "rate"] + \
    COUNTS + SPLIT + DMA + REP + ["hc_events"] + EXERCISE + ["geometry", "caches", "stamp"] + \
    DET_LATER + DET_OPTIONAL
HC_EVENTS = ("pcp_cold_alloc", "pcp_cold_request", "pcp_cold_free")
METRICS = ("insn", "insn1", "l1m", "l2m", "l3m", "xfer", "mem", "cost", "cost_line", "rate",
           "bg_rate", "locks", "refills", "drains")
# the prices of the estimated cycles: the modelled part's published
# latencies, one table for every host (bench/prices.tsv)
PRICES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "prices.tsv")
PRICE_KEYS = ("clock", "l2", "l3", "dram", "xfer", "line_l3", "line_dram")
# prices a table may lack: those added after runs copied theirs (an
# archived run's prices.tsv), which then price as before (None)
PRICE_LATER = ("rep_line",)
PRICE_UNITS = {"clock": ("GHz",)}
# bench/calibrate's L1 figure is a dependent load's latency, which is 4
# cycles on every Zen core (and on Intel's since Skylake): the host's
# clock, for the cross-check's cycles
L1_CYCLES = 4.0


def load_prices(path=None):
    """bench/prices.tsv: {"l2", "l3", "dram", "xfer", "line_l3", "line_dram",
    "rep_line" (None: a table from before it): cycles,
    "ghz": the clock, "rows": [(key, value, unit, source)], "refs": [(tag,
    text)], "path"}.  InputError, naming the line, for a table that is not
    whole: a price missing, unknown or twice, a value that is not a
    positive number, a unit the price cannot have, a source tag no ref
    line names."""
    path = path or PRICES
    rows, refs, seen = [], [], set()
    for n, line in enumerate(read_input(path, "price table (the cycle estimate's latencies)"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        where = "%s:%d" % (path, n)
        if len(f) != 4:
            raise InputError("%s: %d tab-separated fields, expected 4 (key, value, unit, source)"
                             % (where, len(f)))
        key, value, unit, source = f
        if key == "ref":
            if not value or not source or value in dict(refs):
                raise InputError("%s: a ref line needs a tag of its own and a text" % where)
            refs.append((value, source))
            continue
        if key not in PRICE_KEYS + PRICE_LATER:
            raise InputError("%s: unknown price %r, expected one of %s" % (
                where, key, ", ".join(PRICE_KEYS + PRICE_LATER)))
        if key in seen:
            raise InputError("%s: %s priced twice" % (where, key))
        try:
            v = float(value)
            if not (math.isfinite(v) and v > 0):
                raise ValueError
        except ValueError:
            raise InputError("%s: %s=%r is not a positive number" % (where, key, value)) from None
        if unit not in PRICE_UNITS.get(key, ("cycles", "ns")):
            raise InputError("%s: %s in %r, expected %s" % (
                where, key, unit, " or ".join(PRICE_UNITS.get(key, ("cycles", "ns")))))
        if not source.strip():
            raise InputError("%s: %s has no source" % (where, key))
        seen.add(key)
        rows.append((key, v, unit, source))
    missing = [k for k in PRICE_KEYS if k not in seen]
    if missing:
        raise InputError("%s: no price for %s" % (path, ", ".join(missing)))
    tags = dict(refs)
    for key, _, _, source in rows:
        for tag in [x.split("]")[0] for x in source.split("[")[1:]]:
            if tag not in tags:
                raise InputError("%s: %s cites [%s], which no ref line names" % (path, key, tag))
    ghz = next(v for k, v, _, _ in rows if k == "clock")
    out = {k: None for k in PRICE_LATER}
    out.update({k: v * ghz if u == "ns" else v for k, v, u, _ in rows if k != "clock"})
    out.update(ghz=ghz, rows=rows, refs=refs, path=path)
    return out


def load_calibration(outdir):
    """The host's latencies from OUTDIR/calibrate.txt (bench/calibrate):
    a cross-check printed beside the prices, never a price.  In ns, with
    the host's clock (its L1 latency taken as L1_CYCLES) and the string
    stores' extra cost per line when the page is in L3 or in DRAM (a 4 KB
    memset() less a warm one, over 64 lines), and the line's ping-pong
    between two CPUs ("xfer_ns", one way; None when not measured: the
    host gave the probe one CPU, a thread could not be pinned, a hand-off
    stalled, or an older calibrate.txt, which had no such line:
    "xfer_cpus" says which CPUs, or why none, a key of XFER_WHY); None
    without the file."""
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
        xfer = kv.get("xfer_ns.pingpong")
        xfer = float(xfer) if xfer not in (None, "none") else None
        return {"l2": float(kv["load_ns.l2"]) * ghz, "l3": float(kv["load_ns.l3"]) * ghz,
                "dram": float(kv["load_ns.dram"]) * ghz,
                "line_l3": max(0.0, pw["l3"] - pw["warm"]) / 64 * ghz,
                "line_dram": max(0.0, pw["dram"] - pw["warm"]) / 64 * ghz,
                "ghz": ghz, "ns": {k: float(kv["load_ns." + k]) for k in ("l1", "l2", "l3", "dram")},
                "page_write_ns": pw, "xfer_ns": xfer,
                "xfer_cpus": kv.get("xfer_ns.cpus", "older")}
    except (KeyError, ValueError, ZeroDivisionError):
        print("report.py: %s: not bench/calibrate's output" % path, file=sys.stderr)
        return None


def price(m, prices):
    """Estimated cycles per op, a model: one instruction per cycle, plus
    each miss at the latency of the level that served it, as a dependent
    load (PRICES: load_prices()); a cross-core transfer (xfer: the private
    levels missed, another vCPU's modified copy served it, not the shared
    level) at the core-to-core latency.  cost prices every miss so (a rep
    string store's too: a read for ownership); cost_line prices a string
    store's misses below L1 by the time a whole line takes to move into
    L3 or to DRAM (full-line stores that need no read; a transfer's line
    as one written into L3), and their iterations (a cycle each, as TCG
    counts them: 4096 for a page cleared by rep stosb) by the lines they
    wrote, rep_line cycles each.  The silicon check supports the line
    pricing (docs/bench.md).  Rows without transfers (one vCPU, or None:
    an older det.csv, a model without coherence) price as before; so do
    rows without the rep string stores' lines (None: an older det.csv)
    and tables without rep_line (a run priced before it)."""
    lat = prices
    three = m["levels"] == 3
    xfer, xx = m.get("xfer") or 0.0, m.get("xxfer") or 0.0
    # the shared level's hits: its lookups (the misses above it) less
    # its misses and the transfers, which were served in its place
    l2hit = m["l1m"] - m["l2m"] - (0.0 if three else xfer)
    l3hit = m["l2m"] - m["l3m"] - xfer if three else 0.0
    mem = m["mem"]
    cost = (m["insn"] + l2hit * lat["l2"] + l3hit * lat["l3"] + xfer * lat["xfer"] +
            mem * lat["dram"])
    x1, x2, x3 = m["xl1m"], m["xl2m"], m["xl3m"]
    xmem = x3 if three else x2
    x_l2hit = x1 - x2 - (0.0 if three else xx)
    x_l3hit = (x2 - x3 - xx) if three else 0.0
    as_loads = x_l2hit * lat["l2"] + x_l3hit * lat["l3"] + xx * lat["xfer"] + \
        xmem * lat["dram"]
    as_lines = (x_l3hit + xx) * lat["line_l3"] + xmem * lat["line_dram"]
    if lat.get("rep_line") is not None and None not in (m.get("xrep"), m.get("xline")):
        as_lines += m["xline"] * lat["rep_line"] - m["xrep"]
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
    bg = {}
    events = {}
    vm = {}
    pcp = {}
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
        elif line.startswith("hotcold-background "):
            bg[f[1]] = f[2].split("=")[1]
        elif line.startswith("hotcold-pcp "):
            kv = dict(x.split("=") for x in f[2:])
            pcp[f[1]] = [kv.get(k, "") for k in PCP_KEYS]
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
        # a workload of every CPU on more than one vCPU: each vCPU ran
        # some of its user code (make -jN's jobs, a task per vCPU, the
        # server's workers), or the work was not spread over them
        idle = [v for v, r in sorted(recs[i].items()) if not r.get("insn_u")]
        if cpu == "all" and len(recs[i]) > 1 and idle:
            print("report.py: %s: %s: vCPU %s ran no user instruction in the phase (%d "
                  "vCPUs): the work was not spread over the vCPUs" %
                  (jobout, wl, ", ".join(map(str, idle)), len(recs[i])), file=sys.stderr)
            return 1
        k = OTHER_CPU_FLOODS.get(wl)
        if counted and k is not None and (recs[i][0].get("call%d" % k, 0) or len(recs[i]) < 2):
            print("report.py: %s: %s: vCPU 0, the foreground's, made %d of the phase's %d "
                  "calls of %s (%d vCPUs): the flood did not run on the other CPU" %
                  (jobout, wl, recs[i][0].get("call%d" % k, 0), calls[k], CALL_SYMS[k],
                   len(recs[i])), file=sys.stderr)
            return 1
        if counted and wl in KNOWN_PT and not sum(calls[:3]):
            print("report.py: %s: %s: the plugin counted no page-table page in a "
                  "workload that forks: calls= does not count what CALL_SYMS names" %
                  (jobout, wl), file=sys.stderr)
            return 1
        nl = len(CALL_SYMS)
        lk = [sum(v.get("call%d" % k, 0) for v in recs[i].values())
              for k in range(nl, nl + len(LOCKS))]
        locked = all("call%d" % k in recs[i][0] for k in range(nl, nl + len(LOCKS)))
        # (the refill and drain sites are among all sites, so this fails
        # only on counters read in the wrong order or a plugin that did
        # not sum a group; the sites themselves are checked against
        # vmlinux's bytes by report.py lock-sites, and by the drains below)
        if locked and lk[0] < lk[1] + lk[2]:
            print("report.py: %s: %s: %d zone->lock holds, fewer than its %d refills and "
                  "%d drains: the plugin's counters are not the groups report.py "
                  "lock-sites gave, in that order" %
                  (jobout, wl, lk[0], lk[1], lk[2]), file=sys.stderr)
            return 1
        if locked and wl in KNOWN_EXITS and not lk[2]:
            print("report.py: %s: %s: no drain of the per-CPU lists under zone->lock in "
                  "%d exits: the lock sites do not count" % (jobout, wl, exits),
                  file=sys.stderr)
            return 1
        kv = vm.get(wl, {})
        exercise = [kv.get("pcp_cold_free", ""), kv.get("pcp_cold_request", "")] + (
            [sum(calls[:3]), calls[3], calls[4]] if counted else ["", "", ""])
        w.writerow([mode, wl, config, rnd, boot, cpu, ops, rates.get(wl, "")] +
                   [sum(v.get(k, 0) for v in vcpus) for k in COUNTS] +
                   [sum(v.get(k + "_k", 0) + v.get(k + "_u", 0) for v in vcpus) for k in SPLIT] +
                   [sum(v.get(k, 0) for v in vcpus) for k in DMA] +
                   [sum(v.get(k + "_k", 0) + v.get(k + "_u", 0) for v in vcpus) for k in REP] +
                   [events.get(wl, "")] + exercise + [geometry, caches, stamp] +
                   [sum(v.get(k, 0) for v in vcpus) for k in XFER] +
                   [sum(v.get(k + "_k", 0) + v.get(k + "_u", 0) for v in vcpus) for k in XSPLIT] +
                   [bg.get(wl, "")] + (lk if locked else [""] * len(LOCKS)) +
                   pcp.get(wl, [""] * len(PCP_LISTS)) +
                   [sum(v.get(k + "_k", 0) + v.get(k + "_u", 0) for v in vcpus)
                    if k + "_k" in vcpus[0] else "" for k in REP_LINES])
    return 0


def boot_state(config, flavour, append, jobout, vcpus=None):
    """Check that the boot of CONFIG ran the allocator the configuration
    names (bench/configs.tsv's switch and pcp: the switch's value, "none"
    on a kernel without the series, and whether its pcp lists are off,
    high 0 and batch 1), and with VCPUS (a string; None: not checked) the
    machine shape's vCPUs online.  By the configuration, not from the
    command line it booted with: a mistyped parameter, a kernel without
    the series, a kernel without per-cpu lists whose lists are still on,
    or a guest that brought up fewer CPUs than its shape would otherwise
    give rows under the wrong name.  Prints what is wrong and returns 1,
    or returns 0."""
    state = configs.expected_state(config)
    if state is None:
        print("report.py: %s: no expected allocator state for configuration %s "
              "(no such line in bench/configs.tsv)" % (jobout, config), file=sys.stderr)
        return 1
    switch, nopcp = state
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
            problems.append("every pcp list has high 0, as without per-cpu lists")
        if vcpus is not None and "vcpus" not in info:
            problems.append("no vcpus= on the hotcold-info line, expected %s (the machine "
                            "shape's)" % vcpus)
        elif vcpus is not None and info["vcpus"] != vcpus:
            problems.append("%s vCPUs online, expected %s (the machine shape's)" %
                            (info["vcpus"], vcpus))
    for p in problems:
        print("report.py: %s: %s (%s kernel, command line '%s'): %s" %
              (jobout, config, flavour, append, p), file=sys.stderr)
    return 1 if problems else 0


# what an icount row and the cachesim row of the same boot must share:
# under -icount the guest's clock counts instructions, so the cache model
# running or not changes nothing the guest does
SAME_IN_BOTH = ["workload", "config", "round", "boot", "cpu", "ops", "insn_k", "insn_u",
                "rep", "repx", "xrep", "hc_events"] + EXERCISE + ["caches", "stamp"] + LOCKS + \
    PCP_LISTS


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
        for k in [c for c in COUNTS if not c.startswith("insn")] + SPLIT + DMA + DET_LATER:
            row[k] = "0"
        # (the lines written are the cache model's; the iterations are not)
        row["xline"] = "0" if row["xline"] != "" else ""
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


def load_det(path, prices=None, geometry=None):
    """{mode: {workload: {config: per-op metrics}}}, configs in order.

    Each configuration's metrics are the medians over its rounds; the
    per-round values are kept under "rounds" ({round: metrics}).  prices:
    what the misses cost (load_prices(); by default bench/prices.tsv's,
    the same on every host).  Rows of one mode from two cache models, or from another
    model than geometry (the plan's), are never mixed: those rows are left
    out, with a message, and det["_mixed"] lists the modes."""
    rounds = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    det = defaultdict(lambda: defaultdict(dict))
    configs = []
    mixed = {}
    prices = prices or load_prices()
    if not os.path.exists(path):
        return det, configs, mixed
    stale = set()
    rows = []
    for row in csv.DictReader(read_lines(path)):
        if None in row.values() or None in row or \
                any(k not in row for k in DET_FIELDS if k not in DET_LATER + DET_OPTIONAL):
            # a row from an older harness, without the newer columns
            stale.add(row["mode"])
            continue
        # a det.csv from before DET_LATER's columns: a model without
        # coherence, None below
        rows.append({**{k: None for k in DET_LATER}, **{k: "" for k in DET_OPTIONAL}, **row})
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
        coherence = row["xfer_k"] is not None
        if coherence:
            c.update({k: float(row[k]) for k in DET_LATER})
        three = "L3 " in row["geometry"]
        m = {
            "insn": (c["insn_k"] + c["insn_u"]) / ops,
            # each rep string instruction once, not once per iteration
            "insn1": (c["insn_k"] + c["insn_u"] - c["rep"] + c["repx"]) / ops,
            "rep": c["rep"] / ops,
            "l1m": (c["l1m_k"] + c["l1m_u"]) / ops,
            "l2m": (c["l2m_k"] + c["l2m_u"]) / ops,
            "l3m": (c["l3m_k"] + c["l3m_u"]) / ops,
            # cross-core transfers; of those, rep string stores' (None: a
            # model without coherence, an older det.csv)
            "xfer": (c["xfer_k"] + c["xfer_u"]) / ops if coherence else None,
            "xxfer": c["xxfer"] / ops if coherence else None,
            "cpu": row["cpu"],
            "boot": row["boot"],
            "rate": float(row["rate"]) if row["rate"] else 0,
            "bg_rate": float(row["bg_rate"]) if row["bg_rate"] else 0,
            # zone->lock holds per op: all, refills, drains (None: not counted)
            **{k: float(row[c]) / ops if row[c] != "" else None
               for k, c in zip(("locks", "refills", "drains"), LOCKS)},
            # pages on the per-CPU lists after the phase (None: not read)
            **{k: float(row[k]) if row[k] != "" else None for k in PCP_LISTS},
            # rep string stores' iterations and lines per op (None: not counted)
            **{k: float(row[k]) / ops if row[k] != "" else None for k in REP_LINES},
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
        m["cost"], m["cost_line"] = price(m, prices)
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
                for k in METRICS + tuple(SPLIT + XSPLIT + PCP_LISTS):
                    vs = [x[k] for x in ms]
                    med[k] = None if None in vs else statistics.median(vs)
                med["ops"] = int(statistics.median(x["ops"] for x in ms))
                med["rounds"] = rs
                det[mode][wl][c] = med
    return det, configs, mixed


def run_prices(outdir):
    """OUTDIR's prices.tsv, the table the run was priced with (scripts/bench.sh
    copies bench/prices.tsv there at its start), or bench/prices.tsv for a
    run without one (older runs): the path load_prices() reads"""
    path = os.path.join(outdir, "prices.tsv")
    return path if os.path.isfile(path) else PRICES


def load_all(outdir, plan):
    """det.csv of OUTDIR priced with its run's price table (run_prices()),
    for the plan's machine: (det, configs, mixed, prices, the host's
    calibration or None: a cross-check only).  InputError if the price
    table is not whole."""
    prices = load_prices(run_prices(outdir))
    det, configs, mixed = load_det(os.path.join(outdir, "det.csv"), prices, plan["geometry"])
    return det, configs, mixed, prices, load_calibration(outdir)


def shown_path(path):
    """a path in the repository as bench/..., any other as it is"""
    root = os.path.dirname(os.path.dirname(PRICES))
    return os.path.relpath(path, root) if path.startswith(root + os.sep) else path


def prices_text(prices):
    """the prices, named, with their sources"""
    p = prices
    return ("%s, the modelled part's published latencies, the same on every host (an AMD "
            "Zen 3 core at %.2g GHz): L2 %.0f, L3 %.0f, memory %.0f "
            "cycles, a cross-core transfer (a line another core of the CCX holds modified) "
            "%.0f cycles; a rep string store's line written without a read %.3g cycles into "
            "L3, %.3g to DRAM%s.  Sources: %s" % (
                shown_path(p["path"]),
                p["ghz"], p["l2"], p["l3"], p["dram"], p["xfer"], p["line_l3"], p["line_dram"],
                "; the store itself %.3g cycles a line written, in place of a cycle an "
                "iteration (cycles, line)" % p["rep_line"] if p.get("rep_line") else
                "; its iterations a cycle each (a table from before rep_line)",
                "; ".join("[%s] %s" % r for r in p["refs"])))


# why calibrate.txt has no ping-pong figure: its "xfer_ns pingpong=none
# cpus=WHY" (bench/calibrate), or "older" for a file without the line
XFER_WHY = {"one": "the probe had one CPU", "unpinned": "the probe could not pin its threads",
            "stalled": "a hand-off stalled: the probe's other thread stopped answering",
            "unknown": "the probe could not read its CPUs",
            "older": "not measured: an older calibrate"}


def latency_text(cal, prices=None):
    """the host's calibration, a cross-check: never the price"""
    if cal is None:
        return "no host calibration (no calibrate.txt)"
    n, pw = cal["ns"], cal["page_write_ns"]
    text = ("the host's own latencies (bench/calibrate, a cross-check, never the price; a "
            "dependent load's L1 latency taken as %d cycles, so %.2f GHz): L2 %.1f ns, L3 "
            "%.1f ns, memory %.1f ns; a 4 KB page written with memset() %.0f ns warm, %.0f "
            "ns in L3, %.0f ns in DRAM" % (
                L1_CYCLES, cal["ghz"], n["l2"], n["l3"], n["dram"], pw["warm"], pw["l3"],
                pw["dram"]))
    x = cal.get("xfer_ns")
    text += ("; a line's ping-pong between CPUs %s: %.1f ns one way" % (
        cal["xfer_cpus"].replace(",smt", " (threads of one core)"), x)
             if x is not None else "; no ping-pong between CPUs (%s)" %
             XFER_WHY.get(cal["xfer_cpus"], "not measured: " + cal["xfer_cpus"]))
    if prices is not None:
        g = prices["ghz"]
        text += ("; at the model's %.2g GHz the host's figures would price L2 %.0f, L3 %.0f, "
                 "memory %.0f cycles, lines %.1f and %.1f (the table: %.0f, %.0f, %.0f, %.3g, "
                 "%.3g)" % (g, n["l2"] * g, n["l3"] * g, n["dram"] * g,
                            cal["line_l3"] / cal["ghz"] * g, cal["line_dram"] / cal["ghz"] * g,
                            prices["l2"], prices["l3"], prices["dram"], prices["line_l3"],
                            prices["line_dram"]))
        if prices.get("rep_line"):
            text += ", a line of the warm page written %.1f (the table: %.3g)" % (
                pw["warm"] / 64 * g, prices["rep_line"])
        if x is not None:
            text += ", a cross-core transfer %.0f cycles (the table: %.0f)" % (x * g,
                                                                             prices["xfer"])
    return text
