# SPDX-License-Identifier: GPL-2.0
"""Render: report.md's sections, the compact tables of docs/results/ and the
cover letter (summary, compare), and report(), which writes report.md and
the charts."""
import os
import statistics
import sys

from . import archive, charts, family, residency, silicon, sweeps, workloads
from .ingest import (BASE, HC_EVENTS, LAYOUT, NO_LISTS, REPEAT, SERIES, SWITCH_OFF, InputError,
                     latency_text, load, load_all, load_plan, load_vm, prices_text)
from .stats import (aa_repeat, cv, ifmt, paired_ratio, point, ratio, resolvable,
                    sign_test, spread)
from .targets import asked, det_targets, selected, significance, wall_targets
from .primary import primary_lines

def fmt(x):
    return "%.0f" % x if abs(x) >= 1000 else "%.4g" % x


def boot_tags(b):
    """the workload's boot, when it had the disk or more than one vCPU
    (a shape of bench/shapes.tsv)"""
    boot = b.get("boot")
    if boot == "disk":
        return ["disk"]
    n = workloads.vcpus(boot) if boot else 1
    return ["%d vCPUs" % n] if n > 1 else []


def rfmt(r):
    return "-" if r is None else "%.4f" % r


def sfmt(per, c, key, higher_is_better=False):
    """c's paired ratio to vanilla: geometric mean [95 % interval]"""
    return ifmt(paired_ratio(per, c, key), higher_is_better)


def pfmt(per, c, key):
    """c's ratio to vanilla, the point alone (the paired geometric mean)"""
    return rfmt(point(per, c, key))


def spfmt(per, key):
    """vanilla's spread over its rounds: geometric standard deviation
    (rounds), or its one round"""
    sp = spread(per, key)
    if sp is None:
        return "-"
    if sp[0] is None:
        return "n/a (%d round%s)" % (sp[1], "" if sp[1] == 1 else "s, a 0")
    return "%.1f %% (%d)" % (100 * sp[0], sp[1])


def resfmt(per, key):
    """the smallest ratio vanilla's spread lets its rounds resolve"""
    sp = spread(per, key)
    if sp is None:
        return "-"
    if sp[1] < 2:
        return "n/a (1 round)"
    x = resolvable(sp[0], sp[1])
    return "n/a (a round with 0)" if x is None else "+-%.1f %%" % (100 * x)


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
        r = ratio(per, SERIES)
        out[wl] = "%s %s, %s" % (fmt(statistics.median(per[BASE].values())), metric,
                                 "%.2f [%.2f-%.2f]" % r if r else "-")
    return out


def transfers(*pers):
    """did any round of any configuration count a cross-core transfer?
    (only boots of two vCPUs can: with one the model has no coherence)"""
    return any(r.get("xfer") for per in pers for m in per.values() if isinstance(m, dict)
               for r in m.get("rounds", {}).values())


def coherent(table):
    """does any row of the table (workload: {config: metrics}) come from a
    model with coherence, which counts transfers?  (An older det.csv's
    rows have None: its model had none, ingest.DET_LATER.)"""
    return any(m.get("xfer") is not None for per in table.values() for m in per.values()
               if isinstance(m, dict))


# a transfer cell of a row whose model had no coherence
NO_COHERENCE = "n/a (no coherence)"


def xfer_fmt(m, text="%.1f"):
    """m's transfers per op, or NO_COHERENCE"""
    return NO_COHERENCE if m.get("xfer") is None else text % m["xfer"]


def xfer_cell(per, c):
    """c's transfers per op against vanilla's, or "-" where neither
    transferred a line (NO_COHERENCE: neither's model could)"""
    if not transfers({c: per.get(c, {}), BASE: per.get(BASE, {})}):
        return "-" if coherent({"": {c: per.get(c, {}), BASE: per.get(BASE, {})}}) \
            else NO_COHERENCE
    return sfmt(per, c, "xfer")


def same_binary(per):
    """hotcold against hotcold-off: one kernel, only the decisions differ
    (the geometric mean of the paired rounds)"""
    r = point(per, SERIES, "mem", base=SWITCH_OFF)
    return "-" if r is None else "%.3f" % r


def undecided(per):
    """hotcold made no hot/cold decision in any round (its pcp_cold_*
    counters stayed 0): it ran upstream's code there"""
    rs = per.get(SERIES, {}).get("rounds", {}).values()
    return bool(rs) and all(r.get("hc_events") == 0 for r in rs)


def base_rows(table):
    """(name, per-config metrics, vanilla's) of each workload vanilla ran"""
    for wl, per in table.items():
        if per.get(BASE):
            tags = (["shared CPU"] if workloads.is_shared(wl) else []) + boot_tags(per[BASE])
            if undecided(per):
                tags.append("no hot/cold decision")
            yield wl + (" (%s)" % ", ".join(tags) if tags else ""), per, per[BASE]


def wall_section(outdir, plan, vm):
    res = os.path.join(outdir, "results.csv")
    data, configs = load(res)
    others = [c for c in configs if c != BASE]
    tested = [c for c in others if c != REPEAT]
    rounds = max((len(v) for per in data.values() for v in per.values()), default=0)
    reach = sign_test([1] * rounds)[1]
    lines = [
        "## wall: timed runs (noise-bound)", "",
        "Configurations: %s; %d rounds, interleaved, a fresh boot per "
        "configuration per round%s." % (
            ", ".join(configs), rounds,
            "; vanilla-repeat is vanilla booted a second time in each round: "
            "the A/A, the spread two boots of one kernel show" if REPEAT in configs else ""), "",
        "The guests run under QEMU TCG (2 vCPUs) on a 2-core host: absolute "
        "rates are emulator-bound and cache/TLB misses cost more than on "
        "hardware, so the ratios between configurations of the same run are "
        "the result.  Wall-clock ratios under about 15 % are within the "
        "emulator's noise unless the spread says otherwise.", "",
        "Cells: median (min-max) over the rounds, and the coefficient of "
        "variation (CV: standard deviation over mean).  Ratio columns: "
        "median(config) / median(vanilla) [min-max of the per-round ratios]; "
        "above 1 is better, except for ns_per_op (the in-kernel alloc "
        "microbenchmark), where below 1 is better.  Sign test: the "
        "two-sided exact sign test on the paired rounds; with %d rounds its "
        "smallest possible p is %.3f, so %s." % (
            rounds, reach, "no row can be called significant (\"-\"), however "
            "large its difference: that takes 6 rounds or more" if reach >= 0.05 else
            "a row is called significant where p < 0.05"), "",
        "| workload | metric | " + " | ".join("%s median (min-max), CV" % c for c in configs)
        + " | " + " | ".join("%s/%s%s" % (c, BASE, " (A/A)" if c == REPEAT else "")
                             for c in others)
        + "".join(" | %s sign test" % c for c in tested) + " |",
        "|---|---|" + "---|" * (len(configs) + len(others) + len(tested)),
    ]
    plot = []
    for (wl, metric), per in data.items():
        cells = []
        for c in configs:
            v = list(per.get(c, {}).values())
            x = cv(v)
            cells.append("%s (%s-%s), %s" % (fmt(statistics.median(v)), fmt(min(v)), fmt(max(v)),
                                             "-" if x is None else "%.1f %%" % (100 * x))
                         if v else "-")
        rcells = []
        prow = [wl]
        for c in others:
            r = ratio(per, c)
            if r is None:
                rcells.append("-")
                prow += ["1", "1", "1"]
                continue
            flag = " spread crosses 1" if r[1] <= 1.0 <= r[2] else ""
            rcells.append("%.3f [%.3f-%.3f]%s" % (r[0], r[1], r[2], flag))
            prow += ["%.4f" % x for x in r]
        scells = [significance(per, c) for c in tested]
        lines.append("| %s | %s | %s | %s |" % (wl, metric, " | ".join(cells),
                                                " | ".join(rcells + scells)))
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

    tl, not_run = wall_targets(data, vm, plan)
    lines += [""] + tl
    lines += ["", "![wall-clock ratios to vanilla (noise-bound)](ratios.png)", "",
              "TCG timing, 10-80 % spreads: the deterministic charts are the result.  "
              "Bars: the median ratio to vanilla, whiskers the min-max of the per-round "
              "ratios (alloc_* rows are ns per op: lower is better).", ""]
    return lines, plot, others, not_run


def split_table(table, configs, three):
    """load and store misses per op at each level, per configuration
    (medians), the cross-core transfers (where some row's model counted
    them: not from an older det.csv alone), and the DMA markers the plugin
    applied and lost"""
    levels = [("L1D", "l1m", "sl1m", "xl1m"), ("L2", "l2m", "sl2m", "xl2m")] + \
        ([("L3", "l3m", "sl3m", "xl3m")] if three else [])
    coh = coherent(table)
    lines = [
        "### cachesim: load and store misses per operation", "",
        "Simulated, medians over the rounds.  Stores: misses of store "
        "accesses (a read for ownership on hardware); in brackets, those of "
        "`rep` string stores (clear_page(), copy_page(): full-line writes that need no "
        "read on current hardware).  " + (
            "Transfers: misses of the private levels "
            "that another vCPU's modified copy served (two-vCPU boots only), in "
            "brackets those of `rep` string stores; they are not misses of the "
            "shared level (`%s`: a row of a model without coherence, from an "
            "older det.csv).  " % NO_COHERENCE if coh else
            "No transfer column: every row comes from a model without coherence "
            "(an older det.csv).  ") + "DMA: pages marked as written by a "
        "device (the streaming readers), applied and lost (a marker that "
        "found no access of its page: the DMA target misses).", "",
        "| workload | config | " + " | ".join("%s loads | %s stores (rep)" % (n, n)
                                              for n, _, _, _ in levels) +
        (" | cross-core transfers (rep)" if coh else "") + " | DMA markers, lost |",
        "|---|---|" + "---|---|" * len(levels) + ("---|" if coh else "") + "---|",
    ]
    for wl, per in table.items():
        for c in [BASE] + [x for x in configs if x != BASE]:
            m = per.get(c)
            if not m:
                continue
            cells = ["%.1f | %.1f (%.1f)" % (m[k] - m[sk] - m[xk], m[sk] + m[xk], m[xk])
                     for _, k, sk, xk in levels]
            dma = sum(r["dma"] for r in m["rounds"].values())
            lost = sum(r["dma_lost"] for r in m["rounds"].values())
            xfer = (["%.1f (%.1f)" % (m["xfer"], m["xxfer"]) if m["xfer"] is not None
                     else NO_COHERENCE] if coh else [])
            lines.append("| %s | %s | %s | %d, %d |" % (
                wl, c, " | ".join(cells + xfer), dma, lost))
    return lines + [""]


def rounds_text():
    """how the ratios pair, what their intervals and verdicts say, and what
    a few rounds can resolve"""
    return (
        "Rounds: round r of every configuration boots with the same seed and warm-up "
        "(scripts/bench.sh), and the report pairs the rounds by that number: each "
        "configuration's ratio to vanilla is the geometric mean of its per-round "
        "ratios, with a 95 %% interval (Student's t on the per-round log ratios, n - 1 "
        "degrees of freedom; every figure here is a cost, lower is better, except "
        "`rate`), and `n/a` with one round (or a round with 0 on one side); no verdict "
        "word: only the primary family's cells carry one (its section, first).  The interval holds whether or not two kernels' round r "
        "share a boot state (each kernel also mixes its version and command line into "
        "its random numbers): the per-round ratios are independent either way.  "
        "Vanilla's spread: the geometric standard deviation of its rounds (how many in "
        "brackets).  A configuration that varies as much as vanilla, independently of "
        "it, is resolved only beyond +-(exp(t x sqrt(2) x s / sqrt(n)) - 1): at a 2 %% "
        "spread, +-%.1f %% with 3 rounds, +-%.1f %% with 5." % (
            100 * resolvable(0.02, 3), 100 * resolvable(0.02, 5)))


def det_section(det, configs, wall=None, prices=None, cal=None):
    wall = wall or {}
    lines = []
    others = [c for c in configs if c != BASE]
    # icount's own rounds: its one-vCPU mem boot may have more than the
    # cachesim rounds (ICOUNT_ROUNDS)
    nrounds = sorted({len(p.get(BASE, {}).get("rounds", {}))
                      for p in det.get("icount", {}).values()} - {0})
    rounds = "-".join(str(n) for n in (nrounds[:1] + nrounds[-1:] if len(nrounds) > 1
                                       else nrounds)) or "no"
    crounds = max({len(p.get(BASE, {}).get("rounds", {}))
                   for p in det.get("cachesim", {}).values()} | {0})
    if crounds and nrounds and nrounds[-1] > crounds:
        rounds += (" (%d on the one-vCPU mem boot's workloads, whose rounds beyond the "
                   "cache model's %d boot for icount alone: scripts/bench.sh's "
                   "ICOUNT_ROUNDS)" % (nrounds[-1], crounds))
    if "icount" in det:
        lines += [
            "## icount: instructions per operation", "",
            "Fixed work under `-icount shift=0` (guest time counts instructions), "
            "counted by the cachesim plugin inside each workload's measured "
            "phase, on one vCPU (readahead_other_cpu: two, the reader on the "
            "other); the vCPU column says whose instructions (0: the "
            "foreground's; all: every vCPU's).  `rate` is the workload's own "
            "metric over guest time, i.e. work per 10^9 guest instructions.  "
            "%s rounds, a fresh boot each; values are vanilla's medians.  " % rounds +
            rounds_text() + "  "
            "A/A repeat: vanilla's first round booted twice (one kernel, one "
            "history), larger over smaller: the instrument's repeatability.  "
            "`(disk)`: the workload needed the virtio disk, whose completions "
            "land at host-timed points, so its boots are not repeatable; the "
            "others boot without one (the streaming readers read a null_blk "
            "device that completes on a guest timer).  Counts are repeatable, "
            "not exact: TCG counts a faulting block whole.  A rep string "
            "instruction runs one iteration per TCG execution and is counted "
            "once per iteration (4096 for one clear_page() by rep stosb): "
            "`rep` is those iterations per op, and `insn, rep once` counts "
            "each such instruction once, the figure the overhead target "
            "judges.  A/A layout: %s (vanilla's code in a binary of its own, "
            "bench/configs.tsv) against vanilla, paired likewise: the noise of "
            "comparing two binaries.  With the " % LAYOUT +
            "seeded rounds every kernel boots each round relinked at a layout of "
            "its own (seeded pads of 0-63 cache lines of .data, .bss, __read_mostly and "
            "per-CPU data at the heads of kernel/, mm/ and fs/ and after page_alloc.o; the "
            "run's layouts.tsv), so a layout effect is a spread the rounds sample, "
            "not a bias one binary carries into every round.", "",
            "| workload | vCPU | ops | vanilla insn/op | vanilla rep/op | vanilla insn, rep once | "
            "A/A repeat | vanilla spread | A/A layout | " +
            " | ".join("%s/vanilla, rep once" % c for c in others) + " | vanilla rate | " +
            " | ".join("%s rate/vanilla" % c for c in others) + " |",
            "|---|---|---|---|---|---|---|---|---|" + "---|" * (2 * len(others) + 1),
        ]
        for name, per, b in base_rows(det["icount"]):
            lines.append("| %s | %s | %s | %.0f | %.0f | %.0f | %s | %s | %s | %s | %s | %s |" % (
                name, b["cpu"], b["ops"], b["insn"], b["rep"], b["insn1"],
                rfmt(aa_repeat(per, "insn1")), spfmt(per, "insn1"),
                sfmt(per, LAYOUT, "insn1"),
                " | ".join("%s, %s" % (pfmt(per, c, "insn"), sfmt(per, c, "insn1"))
                           for c in others),
                fmt(b["rate"]) if b["rate"] else "-",
                " | ".join(pfmt(per, c, "rate") for c in others)))
        lines.append("")
    if "cachesim" in det:
        any_row = next(iter(next(iter(det["cachesim"].values())).values()))
        three = any_row["levels"] == 3
        coh = coherent(det["cachesim"])
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
            "the code or the kernel's physical layout.  Values are vanilla's "
            "medians; `memory` ratios with their 95 %% interval, the "
            "others the geometric mean alone (every metric's interval: the "
            "table of every metric below)." % (
                any_row["geometry"], any_row["caches"] or "not reported"), "",
            "Estimated cycles per op (`cycles`), a model, not a measurement: "
            "one instruction per cycle plus each miss at the latency of the "
            "level that served it, as a dependent load (`RFO`: a rep string "
            "store's miss too, a read for ownership), a cross-core transfer "
            "(`transfers`: with two vCPUs the model is coherent, and a miss of "
            "the private levels that another vCPU's modified copy served is a "
            "transfer, not a hit or miss of the shared level%s) at the published "
            "core-to-core latency; `cycles, line stores`: the "
            "misses below L1 of rep string stores (clear_page(), copy_page()) "
            "priced as the time a whole line takes to move into L3 or to DRAM: "
            "such stores need no read on hardware.  The silicon check "
            "(docs/results/2026-12-07-v4-silicon.md) puts a cold page near the line "
            "pricing and refutes RFO's (30-60x too high); both share a base that "
            "overstates a hot clear.  Prices: %s." % (
                "; no transfer column: these rows come from a model without coherence, "
                "an older det.csv" if not coh else
                "; `%s`: a row of a model without coherence, an older det.csv" % NO_COHERENCE,
                prices_text(prices) if prices else "none"), "",
            "Cross-check: %s." % latency_text(cal, prices), "",
            "| workload | vCPU | vanilla L1D miss/op | vanilla L2 miss/op | " +
            ("vanilla L3 miss/op | " if three else "") +
            ("vanilla transfers/op | " if coh else "") +
            "vanilla cycles/op | A/A repeat L1D, memory | vanilla spread L1D, memory | "
            "A/A layout L1D, memory | " +
            " | ".join("%s/vanilla L1D, memory, cycles, cycles line stores" % c
                       for c in others) +
            " | hotcold/hotcold-off memory | wall: vanilla median, hotcold/vanilla [spread] |",
            "|---|---|---|---|---|---|---|---|" + ("---|" if three else "") +
            ("---|" if coh else "") + "---|" * (len(others) + 2),
        ]
        for name, per, b in base_rows(det["cachesim"]):
            lines.append("| %s | %s | %.1f | %.1f | %s%s%.0f | %s, %s | %s, %s | %s, %s | %s | %s | %s |" % (
                name, b["cpu"], b["l1m"], b["l2m"],
                "%.1f | " % b["l3m"] if three else "",
                xfer_fmt(b) + " | " if coh else "", b["cost"],
                rfmt(aa_repeat(per, "l1m")), rfmt(aa_repeat(per, "mem")),
                spfmt(per, "l1m"), spfmt(per, "mem"),
                sfmt(per, LAYOUT, "l1m"), sfmt(per, LAYOUT, "mem"),
                " | ".join("%s, %s, %s, %s" % (
                    pfmt(per, c, "l1m"), sfmt(per, c, "mem"), pfmt(per, c, "cost"),
                    pfmt(per, c, "cost_line")) for c in others),
                same_binary(per), wall.get(name.split()[0], "-")))
        lines.append("")
        lines += split_table(det["cachesim"], configs, three)
    return lines


INTRO = """# hotcold benchmark report

Two instruments by default, each for the claims it can support, and a
third on request:

- **cachesim** (simulated data misses per operation, exact; repeatable
  boot for boot, since no workload does host I/O): cache warmth, i.e.
  whether the series hands hot pages to hot users.
- **icount** (guest instructions per operation, exact; repeatable likewise):
  the cost of the series' code paths, and that the switch at 0 costs
  nothing.
- **wall** (timed runs under QEMU TCG; only with MODES=wall): real-time
  effects, with the emulator's noise (10-80 % spreads); TCG models no
  cache, so warmth does not show here.

Configurations (bench/configs.tsv): `vanilla`, `hotcold` (the series),
`hotcold-off` (the series at vm.percpu_pagelist_hot_cold=0), and the
bench-only kernels under bench/alternatives/: `single` (the series'
callers on 6.12 alone, cold pages at the tail of one list as in
2.6.25-4.14) and `nopcp` (no per-cpu lists, as before 2.5.45), compared
with vanilla like the series; `power`, vanilla with a known small cost
(every 50th order-0 page cleared once more), which the power check must
call worse.  Two A/A configurations are vanilla against itself:
`vanilla-repeat` (the same kernel booted again: round 1 in the
deterministic modes, every round in wall mode) and `vanilla-b`
(vanilla's kernel relinked each round at pads drawn under its own name:
the noise of comparing two binaries of the same code, whose true ratio
is 1).  In the seeded rounds every kernel boots each round relinked at
a seeded layout of its own (layouts.tsv).  `vanilla-layout` (vanilla
with its code and data shifted by bench/alternatives/layout.patch, the
layout A/A of runs before vanilla-b) is booted when CONFIGS names it.
QUICK runs vanilla, hotcold and hotcold-off.
"""


# The seed's table: each benchmark of the 2002 hot-n-cold patch, the gain
# it published (against a kernel with no per-CPU lists), and the workload
# here that stands for it
SEED = (("kernel compile", "+1-2 %", "compile"),
        ("autoconf regression tests", "+4 %", "configure"),
        ("SPECweb", "+2.5 %", "web"),
        ("SDET", "+12 %", "sdet_8"),
        ("80 KB create-delete", "+60 %", "trunc80k_tmpfs_1"))


def seed_steps(per, key):
    """nopcp -> vanilla, vanilla -> hotcold, nopcp -> hotcold: the later
    kernel's paired ratio to the earlier one's on KEY (per operation, a
    cost: below 1 is less, and better), 95 % interval"""
    return [ifmt(paired_ratio(per, b, key, base=a), digits=3)
            for a, b in ((NO_LISTS, BASE), (BASE, SERIES), (NO_LISTS, SERIES))]


def seed_rounds(ic, cs):
    """the rounds the row's deterministic figures rest on, vanilla's: its
    instructions' (IC, icount) and its misses' (CS, cachesim), one figure
    where they are the same"""
    ns = [len(p.get(BASE, {}).get("rounds", {})) for p in (ic, cs)]
    if not any(ns):
        return "-"
    if ns[0] and ns[1] and ns[0] != ns[1]:
        return "%d insn, %d misses" % tuple(ns)
    return str(max(ns))


def wall_undecided(vm, wl):
    """undecided() from the wall mode's vmstat: True if hotcold's
    pcp_cold_* deltas were 0 in every round, False if one was not, None
    without the counters"""
    hc = vm.get(wl, {}).get(SERIES, {}) if vm else {}
    counts = [hc.get(k) for k in HC_EVENTS]
    if not all(counts):
        return None
    return all(v == 0 for c in counts for v in c)


def decision_mark(det_none, wall_none):
    """the seed table's mark: whether hotcold made hot/cold decisions in
    the deterministic boots (det_none) and in the wall boots (wall_none),
    each True (none), False (some) or None (no data); the two boot
    different CPU models, so they can disagree"""
    if det_none is False and wall_none is True:
        return " (no hot/cold decision in the wall boots)"
    if det_none is True and wall_none is False:
        return " (no hot/cold decision in the deterministic boots; the wall boots made some)"
    if det_none or (det_none is None and wall_none):
        return " (no hot/cold decision)"
    return ""


def seed_section(det, wall_data, vm=None):
    """The seed's table re-measured: one row per 2002 benchmark, the
    published gain beside the three steps in instructions, simulated
    memory accesses and estimated cycles per operation, and the wall
    rate's medians; VM: the wall mode's vmstat, for the "no hot/cold
    decision" mark of a run without deterministic rows"""
    lines = ["## The seed's table, re-measured", "",
             "The 2002 patch's published gains were measured against a kernel "
             "with no per-CPU lists; 6.12's vanilla already has LIFO per-CPU "
             "lists.  Per operation, the later kernel's ratio to the earlier "
             "one's: `nopcp` (bench-only: no per-CPU lists, every page through "
             "zone->lock, as in 2.5.44) to vanilla, vanilla to hotcold, and nopcp "
             "to hotcold; the geometric mean of the per-round ratios (rounds "
             "paired: the same seed) and its 95 % interval (below 1 is "
             "less; `rounds`: "
             "how many the row rests on).  Instructions count each rep string "
             "instruction once; memory accesses and cycles are simulated (the "
             "cache model; cycles a model, the line pricing the silicon check "
             "supports).  Wall: each "
             "configuration's median rate (higher is better) over the rounds "
             "[min-max], TCG time: noise-bound; the wall boots run QEMU's "
             "`-cpu max` with 2 vCPUs, the deterministic ones EPYC-Milan with "
             "one, so the kernel's cache slice (the exit threshold) differs "
             "between them, and with it which exits free cold.  `-`: not measured in this run "
             "(a configuration or workload left out).", "",
             "| 2002 benchmark | workload | published | rounds | insn: nopcp>vanilla | "
             "vanilla>hotcold | nopcp>hotcold | mem: nopcp>vanilla | vanilla>hotcold | "
             "nopcp>hotcold | cycles: nopcp>vanilla | vanilla>hotcold | nopcp>hotcold | "
             "wall rate nopcp | vanilla | hotcold |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for bench, gain, wl in SEED:
        # instructions from the icount rows, else the cachesim rows (the
        # same counts)
        ic = det.get("icount", {}).get(wl) or det.get("cachesim", {}).get(wl, {})
        cs = det.get("cachesim", {}).get(wl, {})
        det_none = undecided(cs or ic) if (cs or ic).get(SERIES) else None
        name = wl + decision_mark(det_none, wall_undecided(vm, wl))
        walls = []
        rates = wall_data.get((wl, workloads.metric(wl)), {})
        for c in (NO_LISTS, BASE, SERIES):
            v = sorted(rates.get(c, {}).values())
            walls.append("%s [%s-%s]" % (fmt(statistics.median(v)), fmt(v[0]), fmt(v[-1]))
                         if v else "-")
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            bench, name, gain, seed_rounds(ic, cs), " | ".join(seed_steps(ic, "insn1")),
            " | ".join(seed_steps(cs, "mem")), " | ".join(seed_steps(cs, "cost_line")),
            " | ".join(walls)))
    return lines + [""]


# the 2002 benchmarks that have workloads on the machine shapes: the
# one-vCPU workload, whose named shapes' workloads are BASE_SHAPE
SEED_WIDTHS = (("80 KB create-delete, a task per vCPU", "trunc80k_tmpfs_n"),
               ("SDET, 8 scripts", "sdet_8"),
               ("compile, make -jN (N the vCPUs, at least 2)", "compile"))
# the rows of each: (mode, key, label); instructions and zone->lock holds
# from the icount rows where the run has them, else the cachesim rows
# (the same counts)
WIDTH_METRICS = (("icount", "insn1", "instructions, rep once"),
                 ("icount", "locks", "page_alloc.c's zone->lock holds"),
                 ("icount", "refills", "of those, batch refills"),
                 ("icount", "drains", "of those, batch drains"),
                 ("cachesim", "l1m", "L1D misses"),
                 ("cachesim", "l2m", "L2 misses"),
                 ("cachesim", "l3m", "L3 misses"),
                 ("cachesim", "xfer", "cross-core transfers"),
                 ("cachesim", "cost_line", "estimated cycles (line stores)"))


# the counts of events per op (zone->lock holds), which vanilla may
# make none of in a phase
COUNT_KEYS = ("locks", "refills", "drains")


def shape_columns(det, base):
    """[(title, workload)]: BASE on one vCPU, then BASE_SHAPE on each named
    shape of bench/shapes.tsv that the run measured"""
    ran = set(det.get("icount", {})) | set(det.get("cachesim", {}))
    cols = [("1 vCPU", base)] if base in ran else []
    for b, row in workloads.SHAPES.items():
        if row["named"] == "yes" and "%s_%s" % (base, b) in ran:
            cols.append(("%s vCPUs (%s)" % (row["vcpus"], b), "%s_%s" % (base, b)))
    return cols


def width_cell(per, c, key):
    """c's paired ratio to vanilla on KEY; for a count vanilla made 0 of
    in some round (a phase without a drain), c's own median per op
    instead, which no ratio can stand for; "-" where either was not
    measured"""
    m, b = per.get(c, {}), per.get(BASE, {})
    if m.get(key) is None or b.get(key) is None:
        return "-"
    if key in COUNT_KEYS and any(r.get(key) == 0 for r in b.get("rounds", {}).values()):
        return "%s per op (vanilla 0 in a round)" % fmt(m[key])
    return sfmt(per, c, key)


def widths_section(det, configs):
    """The seed's SMP benchmarks at 1, 4 and 8 vCPUs side by side: per
    operation, vanilla's figure and every other configuration's paired
    ratio to it, with its interval and verdict; [] if no benchmark ran on
    a shape"""
    others = [c for c in configs if c != BASE]
    lines = []
    for bench, base in SEED_WIDTHS:
        cols = shape_columns(det, base)
        if len(cols) < 2:
            continue
        if not lines:
            lines = [
                "## The seed's table at 1, 4 and 8 vCPUs", "",
                "The seed's SMP benchmarks on the machine shapes of bench/shapes.tsv "
                "(docs/bench.md, \"Machine shapes\"): per operation, every vCPU's "
                "counts summed (create-delete: a task per vCPU, each its own loops; "
                "SDET: 8 scripts at once; compile: one build, make -jN).  Per operation: "
                "vanilla's median, then each configuration's paired ratio to "
                "vanilla and 95 % interval (below 1 is less; where vanilla "
                "counted none in a round, the configuration's own count per op).  "
                "zone->lock holds: the page allocator's acquisitions of a zone's lock "
                "(bench/hcreport/locks.py: every call site in mm/page_alloc.c, "
                "counted by the cache plugin; compaction's and page isolation's are "
                "not counted), of which batch refills and drains of the per-CPU "
                "lists; nopcp takes one for every page.  Misses, "
                "transfers and cycles are simulated (the Zen 3 model, coherent "
                "with two vCPUs or more; cycles a model, line pricing).  `-`: not "
                "measured (a mode, a configuration or an older plugin without the "
                "lock counters).", ""]
        lines += ["### %s (`%s`)" % (bench, base), "",
                  "| metric | configuration | " + " | ".join(t for t, _ in cols) + " |",
                  "|---|---|" + "---|" * len(cols)]
        for mode, key, label in WIDTH_METRICS:
            pers = []
            for _, wl in cols:
                ic = det.get("icount", {}).get(wl)
                cs = det.get("cachesim", {}).get(wl, {})
                pers.append((ic if mode == "icount" and ic else cs) or {})
            bases = [p.get(BASE, {}).get(key) for p in pers]
            if all(b is None for b in bases):
                continue
            if key == "l3m" and not any(p.get(BASE, {}).get("levels") == 3 for p in pers):
                continue
            # (one vCPU has no other cache to transfer a line from)
            one = [key == "xfer" and workloads.vcpus(p.get(BASE, {}).get("boot")) == 1
                   for p in pers]
            lines.append("| %s | vanilla | %s |" % (label, " | ".join(
                "n/a (1 vCPU)" if o else "-" if b is None else fmt(b)
                for b, o in zip(bases, one))))
            for c in others:
                if not any(c in p for p in pers):
                    continue
                lines.append("| | %s/vanilla | %s |" % (c, " | ".join(
                    "n/a (1 vCPU)" if o else width_cell(p, c, key)
                    for p, o in zip(pers, one))))
        lines.append("")
    return lines


def slice_pages(m):
    """the CPU's slice of the last level, in pages, from the guest's
    hotcold-caches (its slice_pages=), or None"""
    for x in (m.get("caches") or "").split():
        if x.startswith("slice_pages="):
            return int(x.split("=")[1])
    return None


def lists_section(det, configs):
    """The per-CPU lists against each CPU's cache slice: per workload and
    configuration, the largest high, list and hot part of a list over the
    CPUs as the workload left them (medians over the rounds), and the hot
    part over the slice; [] where no row has them"""
    rows = []
    for wl, per in (det.get("cachesim") or det.get("icount") or {}).items():
        for c in [BASE] + [x for x in configs if x != BASE]:
            m = per.get(c)
            if not m or m.get("pcp_count") is None:
                continue
            sl = slice_pages(m)
            rows.append("| %s | %d | %s | %s | %.0f | %.0f | %.0f | %s |" % (
                wl, workloads.vcpus(m.get("boot")), c, "-" if sl is None else sl,
                m["pcp_high"], m["pcp_count"], m["pcp_hot"],
                "-" if not sl else "%.2f" % (m["pcp_hot"] / sl)))
    if not rows:
        return []
    return ["## The per-CPU lists against each CPU's cache slice", "",
            "The seed bounded the hot list by the cache: \"if the hot list grows "
            "larger than the processor's cache, the chances of those pages actually "
            "being hot start to get pretty small\".  Per workload, as it left the "
            "lists (read from /proc/zoneinfo after its measured phase; medians over "
            "the rounds): over the CPUs, the largest `high` (every zone's, summed per "
            "CPU: PCP auto-tuning moves it), the largest list and the largest hot "
            "part of one (the series' `hot:`; a kernel without a cold list: the "
            "whole list), in pages.  The slice is the guest's: its last level over "
            "the CPUs that share it (hotcold-caches `slice_pages`).  `hot/slice` "
            "above 1: a CPU's hot list outgrew its share of the cache.  One reading "
            "after the phase, not the largest during it.", "",
            "| workload | vCPUs | config | slice (pages) | high | largest list | "
            "largest hot part | hot/slice |",
            "|---|---|---|---|---|---|---|---|"] + rows + [""]


def med_of(per, c, key):
    """the median over c's rounds of a per-op count, None if not counted"""
    vs = [r.get(key) for r in per.get(c, {}).get("rounds", {}).values()]
    vs = [v for v in vs if v is not None]
    return statistics.median(vs) if vs else None


def cold_source(cold, exits, shrinks):
    """where hotcold's cold frees came from: the exit path and reclaim
    (shrink_folio_list) are the only callers that free cold"""
    if cold is None or exits is None or shrinks is None:
        return "-"
    if not cold:
        return "none"
    if not exits and not shrinks:
        return "outside the phase (setup)"
    if not shrinks:
        return "exits"
    if not exits:
        return "reclaim"
    return "exits and reclaim (not split)"


def exercise_section(det):
    """what each workload exercises, from the cachesim boots: hotcold's
    cold frees and cold requests (its vmstat), and the calls the plugin
    counted (page-table pages, mms torn down, reclaim passes)"""
    t = det.get("cachesim") or det.get("icount") or {}
    rows = [(wl, per) for wl, per in t.items() if per.get(SERIES) or per.get(BASE)]
    if not rows:
        return []
    g = lambda x: "-" if x is None else fmt(x)  # noqa: E731
    lines = ["## What each workload exercises", "",
             "Per operation, medians over the rounds of the deterministic boots.  "
             "Cold frees and cold requests: hotcold's vmstat around the workload, "
             "its setup included (`pcp_cold_free`: pages freed to a cold list; "
             "`pcp_cold_request`: pages readahead asked for cold).  Page-table pages "
             "(calls of `pte_alloc_one`, `__pmd_alloc` and `__pud_alloc`, one page "
             "each), mms torn down (`exit_mmap`: exits and execs) and reclaim passes "
             "(`shrink_folio_list`): calls the cache plugin counted in the measured "
             "phase, every vCPU's.  The exit path and reclaim are the only callers "
             "that free cold, so a workload with no reclaim pass got its cold frees "
             "from exits (or from its setup, when the phase had neither).", "",
             "| workload | hotcold cold frees/op | cold requests/op | source of the cold "
             "frees | page-table pages/op (vanilla, hotcold) | mms torn down/op | "
             "reclaim passes/op |",
             "|---|---|---|---|---|---|---|"]
    for wl, per in rows:
        c = {k: med_of(per, SERIES, k) for k in ("cold_free", "cold_request", "pt_pages",
                                                     "mm_exits", "shrinks")}
        name = wl + (" (no hot/cold decision)" if undecided(per) else "")
        lines.append("| %s | %s | %s | %s | %s, %s | %s | %s |" % (
            name, g(c["cold_free"]), g(c["cold_request"]),
            cold_source(c["cold_free"], c["mm_exits"], c["shrinks"]),
            g(med_of(per, BASE, "pt_pages")), g(c["pt_pages"]), g(c["mm_exits"]),
            g(c["shrinks"])))
    return lines + [""]


def workload_table():
    """the workload table (bench/workloads.tsv) as markdown"""
    lines = ["Workloads (bench/workloads.tsv; guest/jobs/bench.sh runs them):", "",
             "| workload | kind | modes | boot | fixed work per SCALE (a program's and a "
             "sweep's: whatever SCALE) | what it exercises |",
             "|---|---|---|---|---|---|"]
    for r in workloads.table():
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            r["name"], r["kind"], {"det": "wall, icount, cachesim", "fixed": "icount, cachesim",
                                   "wall": "wall"}[r["modes"]],
            r["boot"], r["amount"], r["what"]))
    return lines + [""]


def summary(outdir):
    """The compact table of the published results (docs/results/): per workload, the rounds it rests
    on, instructions (icount, each rep string instruction once), simulated
    memory accesses (last-level misses), cross-core transfers (two-vCPU
    boots; "-" where no round transferred a line) and estimated cycles
    (cachesim, a model priced with bench/prices.tsv, under both store
    pricings) per op,
    vanilla's value and spread, and every configuration's paired ratio to
    vanilla with its 95 % interval.  1, with the reason, when
    det.csv has no cachesim rows or a file does not parse."""
    try:
        plan = load_plan(outdir)
        det, configs, _, _, _ = load_all(outdir, plan)
    except InputError as e:
        return refused(e)
    ic, cs = det.get("icount", {}), det.get("cachesim", {})
    if not any(per.get(BASE) for per in cs.values()):
        print("report.py: summary: no cachesim rows of vanilla in %s -- NOT RUN"
              % os.path.join(outdir, "det.csv"), file=sys.stderr)
        return 1
    others = [c for c in configs if c != BASE]
    cyc = [c for c in others if c != SWITCH_OFF]
    # transfer columns only where some row's model counted them
    coh = coherent(cs)
    head = (["workload", "rounds", "vanilla insn/op", "hotcold insn",
             "vanilla memory accesses/op", "vanilla spread", "resolvable"] +
            ["%s memory" % c for c in others] +
            (["vanilla transfers/op", "%s transfers" % SERIES] if coh else []) +
            ["vanilla cycles/op"] +
            ["%s cycles (%s)" % (c, p) for c in cyc for p in ("RFO", "line")])
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, c, b in base_rows(cs):
        wl = name.split()[0]
        i = ic.get(wl, {})
        insn = i.get(BASE, {}).get("insn1")
        cells = ([name, str(len(b.get("rounds", {}))),
                  "-" if insn is None else "%.0f" % insn, sfmt(i, SERIES, "insn1"),
                  "%.1f" % b["mem"], spfmt(c, "mem"), resfmt(c, "mem")] +
                 [sfmt(c, x, "mem") for x in others] +
                 ([xfer_fmt(b), xfer_cell(c, SERIES)] if coh else []) +
                 ["%.0f" % b["cost"]] +
                 [sfmt(c, x, k) for x in cyc for k in ("cost", "cost_line")])
        print("| " + " | ".join(cells) + " |")
    return 0


# every metric of the deterministic modes: (mode, key, label, higher is better)
DET_METRICS = (("icount", "insn1", "instructions/op, rep once", False),
               ("icount", "insn", "instructions/op", False),
               ("icount", "rate", "rate (work per 10^9 instructions)", True),
               ("icount", "bg_rate", "background's rate (MB per 10^9 instructions)", True),
               ("icount", "locks", "page_alloc.c's zone->lock holds/op", False),
               ("cachesim", "l1m", "simulated L1D misses/op", False),
               ("cachesim", "l2m", "simulated L2 misses/op", False),
               ("cachesim", "l3m", "simulated L3 misses/op", False),
               ("cachesim", "xfer", "simulated cross-core transfers/op", False),
               ("cachesim", "cost", "estimated cycles/op (model; RFO)", False),
               ("cachesim", "cost_line", "estimated cycles/op (model; line stores)", False))


def compare_lines(det, configs):
    """Every metric of every workload against vanilla: the rounds it rests
    on, vanilla's median and its spread over the rounds, the smallest
    ratio that spread lets the rounds resolve, and each configuration's
    paired ratio with its 95 % interval (LAYOUT's: the
    layout A/A).  The table of the cover letter's first screen."""
    ic, cs = det.get("icount", {}), det.get("cachesim", {})
    if not ic and not cs:
        return []
    others = [c for c in configs if c != BASE]
    if any(LAYOUT in per for t in (ic, cs) for per in t.values()):
        others.append(LAYOUT)
    head = ("| workload | metric | rounds | vanilla | vanilla spread | resolvable | " +
            " | ".join("%s/vanilla%s" % (c, " (A/A)" if c == LAYOUT else "") for c in others) +
            " |")
    lines = [head, "|---|---|---|---|---|---|" + "---|" * len(others)]
    for wl in list(dict.fromkeys(list(ic) + list(cs))):
        for mode, key, label, higher in DET_METRICS:
            per = det.get(mode, {}).get(wl)
            if not per or BASE not in per:
                continue
            if key == "l3m" and per[BASE].get("levels") != 3:
                continue
            if key == "xfer" and not transfers(per):
                continue
            b = per[BASE][key]
            if (key in ("rate", "bg_rate") and not b) or (key == "locks" and b is None):
                continue
            lines.append("| %s | %s | %d | %s | %s | %s | %s |" % (
                wl, label, len(per[BASE].get("rounds", {})), fmt(b), spfmt(per, key),
                resfmt(per, key), " | ".join(sfmt(per, c, key, higher) for c in others)))
    return lines


def compare(outdir):
    try:
        plan = load_plan(outdir)
        det, configs, _, _, _ = load_all(outdir, plan)
    except InputError as e:
        return refused(e)
    lines = compare_lines(det, configs)
    if not lines:
        print("report.py: compare: no icount or cachesim rows in %s -- NOT RUN"
              % os.path.join(outdir, "det.csv"), file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


def refused(e):
    """a file of the run missing or not parsing (InputError): say so, 1"""
    print("report.py: FAILED: %s" % e, file=sys.stderr)
    return 1


def report(outdir):
    """Writes OUTDIR/report.md; 1 if a target the run asked for had no
    data (NOT RUN) or the chart failed, or if the plan or vmstat.csv is
    missing or does not parse (InputError: then report.md says only that,
    and no chart is drawn)."""
    try:
        plan = load_plan(outdir)
        vm = load_vm(os.path.join(outdir, "vmstat.csv"))
        det, dconfigs, _, prices, cal = load_all(outdir, plan)
        residency.load(outdir)
    except InputError as e:
        # (an earlier run's report.md must not pass for this run's)
        with open(os.path.join(outdir, "report.md"), "w") as f:
            f.write("# make bench: no report\n\nFAILED: %s\n" % e)
        return refused(e)
    lines = [INTRO]
    pl, js = [], []
    if any(det.get(m) for m in ("icount", "cachesim")):
        pl, js = primary_lines(det, family.primary_table(), family.sesoi_table(), BASE,
                               history=archive.history(plan))
    # the family's chart first, under its section's heading (without the
    # family, none, and no stale one)
    crc = charts.primary_chart(outdir, js)
    if crc is not None:
        pl[2:2] = ["![the primary family: each cell's ratio, 95 % interval and verdict]"
                   "(primary.png)", "", charts.CHART_TEXT + "  The interval is the table's "
                   "(moderated); the dot's colour the cell's verdict (grey: no verdict word).",
                   ""]
    chart_rc = crc or 0
    lines += pl
    lines += workload_table()
    lines += ["Run of %s, commit %s: `%s`." % (plan["date"] or "an unknown date",
                                              plan["commit"] or "unknown",
                                              plan["command"] or "make bench"), ""]
    not_run = []
    if not det and set(plan["modes"]) & {"icount", "cachesim"}:
        lines += ["## Deterministic modes: NOT RUN (no rows in det.csv)", ""]
        not_run.append("deterministic modes (%s): no rows in det.csv" %
                       " ".join(m for m in plan["modes"] if m != "wall"))
    # the sweeps (the directed tests' curves) have a section of their own
    sweep_det = {w: per for w, per in det.get("cachesim", {}).items()
                 if workloads.kind(w) == "sweep"}
    full_det = det
    det = {m: {w: per for w, per in t.items() if workloads.kind(w) != "sweep"}
           for m, t in det.items() if not m.startswith("_")}
    det = {m: t for m, t in det.items() if t}
    if det:
        lines += det_section(det, dconfigs, wall_summary(outdir), prices, cal)
        # the deterministic charts first: one per instrument
        for mode in ("icount", "cachesim"):
            if det.get(mode):
                any_row = next(iter(next(iter(det[mode].values())).values()))
                crc = charts.det_chart(outdir, mode, det[mode], dconfigs,
                                       any_row.get("levels", 3))
                if crc is not None:
                    chart_rc |= crc
                    lines += ["![%s: every configuration over vanilla, with 95 %% intervals "
                              "and each metric's SESOI](%s.png)" % (mode, mode), "",
                              charts.CHART_TEXT + "  " + charts.PANEL_TEXT[mode], ""]
        every = {m: t for m, t in full_det.items() if not m.startswith("_") and t}
        lines += ["## Every metric against vanilla: paired ratios, 95 % intervals", "",
                  "Every workload (the sweeps too) and every metric of the deterministic "
                  "modes.  " + rounds_text() + "  `resolvable`: that smallest ratio at "
                  "vanilla's own spread.  `single` and `nopcp` are bench-only kernels "
                  "(bench/alternatives/); %s/vanilla is the layout A/A, " % LAYOUT +
                  "judged as a family (its target, below).", ""]
        lines += compare_lines(every, dconfigs) + [""]
        tl, tn = det_targets(det, plan, prices, cal)
        lines += tl
        not_run += tn
        lines += ["`shared CPU`: the foreground shares vCPU 0 with a streaming "
                  "reader whose progress follows the scheduler, so each kernel's "
                  "counts hold a different amount of the reader's work (the same "
                  "in every boot of one kernel): not like for like; they are left "
                  "out of the targets (readahead_same_cpu is the controlled "
                  "case).", ""]
    if "cachesim" in full_det or "cachesim" in plan["modes"]:
        why = asked(plan, "cachesim", None, workloads.sweeps())
        # a curve needs vanilla and one more configuration that boots them
        if why is None and not any(
                c != BASE and c in plan["configs"] for c in plan["sweep_configs"]):
            why = "not in this run (CONFIGS: the sweeps boot in %s only)" % \
                ", ".join(plan["sweep_configs"])
        want, want_curves = (), ()
        if why is None:
            want = [c for c in plan["sweep_configs"] if c in plan["configs"]]
            want_curves = list(sweeps.curves(selected(plan["workloads"], workloads.sweeps())))
        sl, src, sn = sweeps.sweep_section(sweep_det, dconfigs, outdir, why, want, want_curves)
        lines += sl
        not_run += sn
        chart_rc |= src
    rc = chart_rc
    data, _ = load(os.path.join(outdir, "results.csv"))
    if det or data:
        lines += seed_section(det or {}, data, vm)
    lines += widths_section(det, dconfigs)
    lines += lists_section(det, dconfigs)
    lines += exercise_section(det)
    sl, sn = silicon.section(outdir, plan["silicon"])
    lines += sl
    not_run += sn
    rl, rn = residency.section(outdir, plan)
    lines += rl
    not_run += rn
    if data:
        wl, plot, others, tn = wall_section(outdir, plan, vm)
        lines += wl
        not_run += tn
        rc |= charts.wall_chart(outdir, plot, others)
    elif "wall" in plan["modes"]:
        lines += ["## wall: NOT RUN (no rows in results.csv)", ""]
        not_run.append("wall mode: no rows in results.csv")
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    for x in not_run:
        print("report.py: %s%s" % ("" if x.startswith("FAILED: ") else "NOT RUN: ", x),
              file=sys.stderr)
    return 1 if not_run else rc
