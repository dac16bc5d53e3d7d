# SPDX-License-Identifier: GPL-2.0
"""Targets: each is checked on the data, "met" or "missed" with the rows
that missed.  A target without data is NOT RUN, and the report fails,
when the run's plan asked for that data; a target whose data the run did
not ask for says so instead."""
import statistics

from . import workloads
from .ingest import BASE, LAYOUT, REPEAT, latency_text
from .stats import (FLOOR, aa, aa_layout, aa_repeat, noise, paired, ratio, rel,
                    rel_spread, sign_test)

def asked(plan, mode=None, config=None, workloads=None):
    """None if the plan asked for that data, else why not (for the
    target's line): a target the run did not ask for is not NOT RUN."""
    if plan is None:
        return None
    if mode and mode not in plan["modes"]:
        return "not in this run (MODES)"
    if config and config not in plan["configs"]:
        return "not in this run (CONFIGS)"
    if workloads and plan["workloads"] and not selected(plan["workloads"], workloads):
        return "not in this run (WORKLOADS)"
    return None


def selected(listed, names):
    """The NAMES a WORKLOADS list selects, by scripts/worklists.sh's rule:
    the names it lists less any it excludes (-NAME); a list of exclusions
    only, every name but those."""
    excluded = {w[1:] for w in listed if w.startswith("-")}
    named = {w for w in listed if not w.startswith("-")}
    return [n for n in names if n not in excluded and (not named or n in named)]


class Targets:
    """The lines of a targets section.  A target with no data is NOT RUN,
    unless the run did not ask for its data; NOT RUN fails the report, and
    so does a missed check of the instruments themselves (failed())."""

    def __init__(self, title):
        self.lines = [title, ""]
        self.not_run = []

    def failed(self, text, bad):
        """an instrument check missed on BAD: the report's numbers cannot
        be trusted, so the run fails (a performance target only says
        missed)"""
        self.not_run.append("FAILED: %s: missed on %s" % (text, ", ".join(bad)))

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


def asked_unshared(plan, mode, config):
    """asked(), and not only for workloads the comparisons leave out:
    those that share their CPU with a reader, and the sweeps (a section
    of their own)"""
    why = asked(plan, mode, config)
    if why is None and plan is not None and plan["workloads"] and \
            all(workloads.is_shared(w) or workloads.kind(w) == "sweep"
                for w in selected(plan["workloads"], workloads.names())):
        why = "not in this run (only shared-CPU workloads or sweeps, which the comparisons leave out)"
    return why


def det_targets(det, plan=None, lat=None):
    """The targets of the deterministic modes, checked, not asserted:
    (lines, targets that had no data although the run asked for it)."""
    t = Targets("### Deterministic targets")
    aa_bad, aa_disk, hist, off_bad, insn_bad, worse = [], [], [], [], [], []
    undecided = []
    scen_wins, scen_all = [], []
    n_repeat, n_off, n_insn, n_worse = 0, 0, 0, 0
    offm_bad, n_offm = [], 0
    layout, n_layout = [], 0
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
        if workloads.is_shared(wl):
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
        for k in ("l1m", "l2m", "l3m"):
            x = aa_layout(per, k)
            if x is not None and (k != "l3m" or per[BASE].get("levels") == 3):
                n_layout += 1
                if x - 1 > FLOOR:
                    layout.append((x, "%s %s %.4f" % (wl, k, x)))
        if workloads.is_shared(wl):
            continue
        for k in ("l1m", "l2m", "l3m"):
            if k == "l3m" and per.get(BASE, {}).get("levels") != 3:
                continue
            # the noise: vanilla against itself (its rounds, and its
            # build with a shifted layout), at least 0.5 %, by max().
            # What the series' binary changes by itself (hotcold-off's
            # distance from vanilla) is shown, not allowed for: a
            # regression hotcold and hotcold-off share is still one
            n = noise(per, k)
            base = per.get(BASE, {}).get(k, 0)
            o = r = rel(per, "hotcold-off", k)
            sp = rel_spread(per, "hotcold-off", k)
            if r is not None:
                n_offm += 1
                if abs(r - 1) > n and (base >= 1 or abs(r - 1) * base >= 1) \
                        and (sp is None or sp[0] > 1 or sp[1] < 1):
                    offm_bad.append("%s %s %.3f (noise %.3f)" % (wl, k, r, n))
            r = rel(per, "hotcold", k)
            if r is None:
                continue
            n_worse += 1
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
        if wl in workloads.scenarios():
            r = rel(per, "hotcold", "mem")
            if r is not None:
                hc = per.get("hotcold", {}).get("rounds", {}).values()
                none = bool(hc) and all(x.get("hc_events") == 0 for x in hc)
                n = noise(per, "mem")
                beyond = r * (1 + n) < 1
                scen_all.append("%s %.3f%s" % (wl, r, " (no hot/cold decision)" if none else
                                               "" if beyond else " (within the noise, %.3f)" % n))
                # a win is the series' decision, beyond vanilla's own noise
                if r <= 0.85 and beyond and not none:
                    scen_wins.append(wl)

    text = ("A/A repeat (vanilla's first round booted twice) within 0.5 % on every "
            "deterministic metric of the workloads that boot without a disk")
    if n_repeat:
        t.add(text, "met on %d metrics" % n_repeat if not aa_bad else "missed on " + ", ".join(aa_bad))
        if aa_bad:
            t.failed(text, aa_bad)
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
            "difference has to beat) measured, not a target: within 0.5 %")
    if hist:
        t.add(text, "on %d of %d metrics%s" % (
            within, len(hist), "" if within == len(hist) else "; beyond: " +
            ", ".join(x for r, x in sorted(hist, reverse=True) if r - 1 > 0.005)))
    else:
        why = None
        if plan is not None and not set(plan["modes"]) & {"icount", "cachesim"}:
            why = "not in this run (MODES)"
        elif plan is not None and plan.get("det_rounds") == 1:
            why = "not in this run (DET_ROUNDS=1)"
        t.missing(text, why, "fewer than two rounds of vanilla")
    text = ("hotcold-off within 0.1 % of vanilla in instructions per op (icount, each "
            "rep string instruction once)")
    t.check(text, n_off, off_bad, "workloads",
            asked_unshared(plan, "icount", "hotcold-off"), "no icount rows of hotcold-off")
    text = ("hotcold at most 0.3 % more instructions per op than vanilla (icount, each "
            "rep string instruction once)")
    t.check(text, n_insn, insn_bad, "workloads",
            asked_unshared(plan, "icount", "hotcold"), "no icount rows of hotcold")
    text = ("hotcold's memory accesses (last-level misses) per op at least 15 % below "
            "vanilla's, and beyond the noise, on two scenarios where it made hot/cold "
            "decisions")
    if scen_all:
        t.add(text, "%s (hotcold/vanilla memory accesses: %s)" % (
            "met on " + ", ".join(scen_wins) if len(scen_wins) >= 2 else "missed",
            ", ".join(scen_all)))
    else:
        t.missing(text, asked(plan, "cachesim", "hotcold", workloads.scenarios()),
                  "no cachesim rows of hotcold on a scenario")
    text = ("layout A/A (vanilla built with its code and data shifted, against "
            "vanilla; simulated misses per op) measured: part of the noise the "
            "comparisons allow for")
    if n_layout:
        t.add(text, "on %d metrics, %d within 0.5 %%%s" % (
            n_layout, n_layout - len(layout), "" if not layout else
            "; beyond: " + ", ".join(x for _, x in sorted(layout, reverse=True))))
    else:
        t.missing(text, asked(plan, "cachesim", LAYOUT), "no cachesim rows of " + LAYOUT)
    text = ("hotcold-off within the noise of vanilla in simulated L1D, L2 and L3 "
            "misses per op (the larger of 0.5 %, vanilla's A/A rounds and the "
            "layout A/A; every round on one side; workloads with at least one "
            "miss per op, or one more)")
    t.check(text, n_offm, offm_bad, "metrics",
            asked_unshared(plan, "cachesim", "hotcold-off"),
            "no cachesim rows of hotcold-off")
    text = ("hotcold never worse than vanilla in simulated misses per op beyond "
            "the noise (the larger of 0.5 %, vanilla's A/A rounds and the layout "
            "A/A; worse in every round; workloads with at least one miss per op, "
            "or one more)")
    if n_worse:
        # a row where the series made no decision still counts: it is the
        # series' kernel that ran, and the cause is open
        t.add(text, ("met on %d metrics" % n_worse if not worse and not undecided else
                     "missed on " + ", ".join(worse + ["%s (no hot/cold decision in any "
                                                       "round: pcp_cold_alloc, _request and "
                                                       "_free all 0; cause open)" % u
                                                       for u in undecided])))
    else:
        t.missing(text, asked_unshared(plan, "cachesim", "hotcold"), "no cachesim rows of hotcold")
    lost = ["%s %s round %d: %d" % (wl, c, r, m["dma_lost"])
            for wl, per in det.get("cachesim", {}).items() for c, med in per.items()
            for r, m in med["rounds"].items() if m["dma_lost"]]
    n_dma = sum(len(med["rounds"]) for per in det.get("cachesim", {}).values()
                for med in per.values())
    text = "every DMA marker applied to the page it names (dma_lost=0)"
    t.check(text, n_dma, lost, "boots", asked(plan, "cachesim"), "no cachesim rows")
    if n_dma and lost:
        t.failed(text, lost)
    text = "simulated misses priced with latencies measured on this host (bench/calibrate)"
    if det.get("cachesim"):
        if lat is not None:
            t.add(text, "met: " + latency_text(lat))
        else:
            t.missing(text, None if plan is None or "cachesim" in plan["modes"]
                      else "not in this run (MODES)", "no calibrate.txt")
    t.lines.append("")
    return t.lines, t.not_run


def wall_targets(data, vm, plan):
    """The wall-clock targets: (lines, NOT RUN targets)."""
    t = Targets("### Wall-clock targets")
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
            # and beyond vanilla's own A/A (vanilla-repeat), when the run has it
            a = ratio(per, REPEAT)
            if worse and a is not None and abs(r[0] - 1) <= abs(a[0] - 1):
                worse = False
            if worse:
                hc_bad.append("%s %.3f [%.3f-%.3f]%s" % (
                    wl, r[0], r[1], r[2], "" if a is None else " (A/A %.3f)" % a[0]))
    text = "hotcold-off within +-2 % of vanilla (median ratio)"
    t.check(text, off_n, off_bad, "rows",
            asked(plan, "wall", "hotcold-off"), "no wall rows of hotcold-off and vanilla")
    text = ("hotcold not worse than vanilla beyond the spread (every per-round "
            "ratio on the wrong side of 1.0, and further from 1 than "
            "vanilla-repeat's)")
    t.check(text, hc_n, hc_bad, "rows",
            asked(plan, "wall", "hotcold"), "no wall rows of hotcold and vanilla")
    # the A/A: vanilla booted twice per round
    aas = [(wl, ratio(per, REPEAT)) for (wl, _), per in data.items()]
    aas = [(wl, r) for wl, r in aas if r is not None]
    text = ("wall A/A (vanilla-repeat against vanilla, median ratio) measured: "
            "the spread a wall difference has to beat")
    if aas:
        far = max(aas, key=lambda x: abs(x[1][0] - 1))
        t.add(text, "on %d rows; furthest %s %.3f [%.3f-%.3f]" % ((len(aas), far[0]) + far[1]))
    else:
        why = asked(plan, "wall")
        if why is None and plan is not None and not plan["repeat"]:
            why = "not in this run (QUICK: no repeat boot)"
        t.missing(text, why, "no wall rows of " + REPEAT)
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
    return t.lines, t.not_run


def significance(per, c):
    """the sign test on c's paired rounds against vanilla: a cell, which
    says "significant" only where the test could reach p < 0.05"""
    p, reach = sign_test(paired(per, c))
    if reach >= 0.05:
        return "-"
    return "p=%.3f%s" % (p, " significant" if p < 0.05 else "")

