# SPDX-License-Identifier: GPL-2.0
"""Targets: each is checked on the data, "met" or "missed" with the rows
that missed.  A target without data is NOT RUN, and the report fails,
when the run's plan asked for that data; a target whose data the run did
not ask for says so instead."""
import statistics

from . import configs, workloads
# the one WORKLOADS rule (scripts/bench.sh's boots' too)
from .workloads import selected
from .ingest import BASE, LAYOUT, POWER, REPEAT, SERIES, SWITCH_OFF, latency_text, prices_text
from .stats import (FLOOR, aa_repeat, beyond, chance_bound, margin, paired, paired_ratio, point, ratio,
                    sign_test, simultaneous, spread, verdict)

def asked(plan, mode=None, config=None, workloads=None):
    """None if the plan (ingest.load_plan's: every run has one) asked for
    that data, else why not (for the target's line): a target the run did
    not ask for is not NOT RUN."""
    if mode and mode not in plan["modes"]:
        return "not in this run (MODES)"
    if config and config not in plan["configs"]:
        return "not in this run (CONFIGS)"
    if workloads and plan["workloads"] and not selected(plan["workloads"], workloads):
        return "not in this run (WORKLOADS)"
    return None


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


def one_round_why(plan, det, wls):
    """why the workloads WLS have one round only, when the run's plan gave
    them one (DET_ROUNDS=1, or PROG_ROUNDS=1 for the real programs, as
    QUICK does, SWEEP_ROUNDS=1 for the sweeps): "not in this run (...)";
    None when it asked for more, or when a workload the plan lists has no
    vanilla rows in a deterministic mode it asked for (a boot that wrote
    nothing: then NOT RUN)"""
    if plan["det_rounds"] == 1:
        return "not in this run (DET_ROUNDS=1: one round gives no interval)"
    if not plan["workloads"]:
        return None
    for m in ("icount", "cachesim"):
        if m in plan["modes"] and any(not det.get(m, {}).get(wl, {}).get(BASE)
                                      for wl in plan["workloads"]):
            return None
    why = set()
    for wl in wls:
        k = workloads.kind(wl)
        if k == "program" and plan.get("prog_rounds") == 1:
            why.add("PROG_ROUNDS=1")
        elif k == "sweep" and plan.get("sweep_rounds") == 1:
            why.add("SWEEP_ROUNDS=1")
        else:
            return None
    if not why:
        return None
    return "not in this run (%s: one round gives no interval)" % ", ".join(sorted(why))


def asked_unshared(plan, mode, config):
    """asked(), and not only for workloads the comparisons leave out:
    those that share their CPU with a reader, and the sweeps (a section
    of their own)"""
    why = asked(plan, mode, config)
    if why is None and plan["workloads"] and \
            all(workloads.is_shared(w) or workloads.kind(w) == "sweep"
                for w in selected(plan["workloads"], workloads.names())):
        why = "not in this run (only shared-CPU workloads or sweeps, which the comparisons leave out)"
    return why


class Judged:
    """The metrics a target judged on an interval: checked (each with its
    rounds), missed, and those without an interval (n/a: one round, or a
    round with 0 on one side)."""

    # an interval wider than this (hi/lo) cannot tell a 5 % effect from
    # none: such a metric is not judged "met", it is "too wide to judge"
    WIDE = 1.10

    def __init__(self, det=None):
        self.rounds, self.bad, self.one, self.zero, self.wide = [], [], [], [], []
        # the run's rows (one_round_why)
        self.det = det or {}

    def add(self, iv, what):
        """count IV: False when it has no interval (then listed as n/a)"""
        if iv.lo is None:
            (self.one if iv.n == 1 else self.zero).append(what)
            return False
        self.rounds.append(iv.n)
        if iv.lo <= 0 or iv.hi / iv.lo > self.WIDE:
            self.wide.append(what)
        return True

    def report(self, t, text, plan, why_not_asked, what, chance, unit="metrics"):
        """met on the metrics with an interval narrow enough (WIDE), too
        wide to judge on the wider ones, missed on the bad ones (and
        how many of them CHANCE, the share of intervals that exclude a true
        ratio of 1 on the side judged, would resolve with no difference
        anywhere); no interval at all: not in this run (DET_ROUNDS=1) or
        NOT RUN (one round where the run asked for more); no data:
        t.missing()"""
        na = self.not_judged()
        # a missed metric is judged whatever its width
        wide = [w for w in self.wide if not any(b.startswith(w + " ") for b in self.bad)]
        if wide:
            na += ("; too wide to judge on %d (an interval wider than %.0f %%, which could "
                   "not tell a 5 %% difference from none: %s)" % (
                       len(wide), 100 * (self.WIDE - 1), ", ".join(wide[:10]) +
                       (" and %d more" % (len(wide) - 10) if len(wide) > 10 else "")))
        n = len(self.rounds) - len(wide)
        if n <= 0 and wide and not self.bad:
            t.add(text, "too wide to judge" + na)
        elif n:
            t.add(text, ("met on %d %s (%s)" % (n, unit, self.each()) if not self.bad else
                         "missed on %s (%d of %d %s, %s; with no difference anywhere, "
                         "about %.1f of %d would read so by chance)" % (
                             ", ".join(self.bad), len(self.bad), n, unit, self.each(),
                             chance * n, n))
                  + na)
        else:
            self.no_interval(t, text, plan, why_not_asked, what, na)

    def each(self):
        lo, hi = min(self.rounds), max(self.rounds)
        return "%s rounds each, paired by round" % (lo if lo == hi else "%d-%d" % (lo, hi))

    def not_judged(self):
        """the metrics without an interval, as text"""
        na = ""
        if self.one:
            na += "; n/a (1 round) on %d" % len(self.one)
        if self.zero:
            na += "; n/a (a round with 0 on one side) on %d: %s" % (
                len(self.zero), ", ".join(self.zero))
        return na

    def no_interval(self, t, text, plan, why_not_asked, what, na):
        """no metric judged on an interval: one round, a round with 0 on
        one side, or no data"""
        if self.one and not why_not_asked:
            why = one_round_why(plan, self.det, {w.split()[0] for w in self.one})
            if why:
                t.add(text, why)
            else:
                t.missing(text, None, "one round only: no interval")
        elif self.zero and not why_not_asked:
            t.add(text, "not judged" + na)
        else:
            t.missing(text, why_not_asked, what)


class Family(Judged):
    """An A/A's metrics, judged as a family: a configuration that differs
    from the base in nothing the instruments should see must not be
    called apart from it, in a way that misses in at most 5 % of runs
    where nothing differs (2.5 % for each rule of report()).  The
    metrics judged are fixed before any ratio is seen: every one with an
    interval where the base has at least one event per op, whatever the
    interval's width."""

    # each rule's share of the 5 %
    ALPHA = 0.025

    def __init__(self, det=None):
        super().__init__(det)
        self.judged, self.below, self.zeros = [], [], []

    def add(self, iv, what, base=1):
        """IV of the metric WHAT, whose base has BASE events per op:
        judged (a round with 0 on one side too: apart, in the count), or
        listed as below one per op, or n/a (one round)"""
        if base < 1:
            self.below.append(what)
            return False
        if iv.lo is None and iv.n > 1:
            # a round with 0 on one side where vanilla has one per op:
            # no log ratio, counted as apart
            self.rounds.append(iv.n)
            self.zeros.append((what, iv))
            return True
        if not super().add(iv, what):
            return False
        self.judged.append((what, iv))
        return True

    def report(self, t, text, plan, why_not_asked, what):
        """missed when a metric's simultaneous interval (stats.simultaneous:
        all N together at 97.5 %, Bonferroni, whatever their dependence)
        lies beyond 1 by more than the floor (stats.FLOOR: a zero-width
        interval resolves any difference), or when more of the N 95 % intervals exclude 1 than
        chance gives in 97.5 % of runs (stats.chance_bound, binomial: the
        rows' dependence makes a count this large likelier, the first
        rule does not care); met otherwise"""
        n = len(self.judged) + len(self.zeros)
        if not n:
            na = self.not_judged()
            if self.below and not self.one and not self.zero:
                t.add(text, "not judged (below one event per op on all %d)" % len(self.below))
            else:
                self.no_interval(t, text, plan, why_not_asked, what, na)
            return
        apart = [(w, iv) for w, iv in self.judged if verdict(iv) != "not resolved"] + self.zeros
        # (and beyond the floor: a zero-width interval, every round the
        # same ratio, resolves any difference however small)
        far = [(w, s) for w, s in ((w, simultaneous(iv, n, self.ALPHA)) for w, iv in self.judged)
               if beyond(s, FLOOR)]
        allowed = chance_bound(n, 0.05, 1 - self.ALPHA)
        count = ("%d of %d 95 %% intervals exclude 1%s, where more than %d would in under "
                 "%.1f %% of runs by chance (binomial)" % (
                     len(apart), n, "" if not apart else " (%s)" % ", ".join(
                         "%s %s" % (w, ivtext(iv)) for w, iv in apart),
                     allowed, 100 * self.ALPHA))
        rest = self.not_judged()
        if self.below:
            rest += "; not judged on %d (vanilla below one event per op)" % len(self.below)
        if far or len(apart) > allowed:
            why = []
            if far:
                why.append("apart on %s (simultaneous interval, %d metrics at %.1f %%, beyond "
                           "1 by more than %.1f %%)" % (
                               ", ".join("%s %s" % (w, ivtext(s)) for w, s in far), n,
                               100 * (1 - self.ALPHA), 100 * FLOOR))
            why.append(("more intervals exclude 1 than chance gives: " if len(apart) > allowed
                        else "") + count)
            t.add(text, "missed: %s (%s)%s" % ("; ".join(why), self.each(), rest))
        else:
            t.add(text, "met on %d metrics (%s): no simultaneous interval (%d metrics at "
                  "%.1f %%, Bonferroni) beyond 1 by more than %.1f %%; %s%s" % (
                      n, self.each(), n, 100 * (1 - self.ALPHA), 100 * FLOOR, count, rest))


def ivtext(iv):
    """ratio [lo-hi], or ratio [n/a (why)]"""
    if iv.lo is None:
        return "%s [n/a (%s)]" % ("-" if iv.ratio is None else "%.3f" % iv.ratio, iv.why)
    return "%.3f [%.3f-%.3f]" % (iv.ratio, iv.lo, iv.hi)


def counts(base, r):
    """at least one miss per op, or one more (or fewer): below that a ratio
    says little"""
    return r is not None and (base >= 1 or abs(r - 1) * base >= 1)


def power_workloads():
    """(judged, shown): the workloads the power kernel's cost must show
    on, the 2002 workloads whose op is page allocation (write and
    truncate, page faults: 1-1.6 % more instructions), and those whose
    interval is shown, not judged: SDET, whose op is a shell script
    (fork, exec, small files), where the same cost is a few tenths of a
    percent (0.0-0.5 % in the first full run's round 1), below what
    the run's rounds resolve, and as small as the layout A/A's moves there.
    Only the workloads of boots the power configuration has: a named
    machine shape (bench/shapes.tsv) boots the shapes set's
    configurations alone (plan.py's Plan.parts)."""
    shaped = POWER not in configs.names(sets="shapes")
    wls = [r["name"] for r in workloads.table()
           if r["kind"] == "2002" and not (
               shaped and workloads.SHAPES.get(r["boot"], {}).get("named") == "yes")]
    return ([w for w in wls if not w.startswith("sdet_")],
            [w for w in wls if w.startswith("sdet_")])


def power_check(t, det, plan):
    """The power check: POWER, the base with a known small cost (every
    50th order-0 page cleared once more, bench/alternatives/power.patch),
    must be called worse than the base, its 95 % interval above 1, in
    instructions per op with every rep string iteration counted (icount;
    the cost is string stores, which "rep once" counts as one
    instruction each) on every workload of power_workloads(): rounds
    whose intervals could not see a cost that size in instructions could
    not see one in the series either.  (The misses carry no such known
    cost: the page cleared again is the one its caller writes next.)
    Missed is a finding about the instrument, as the layout A/A's is: the
    report says so, the run's status holds; a workload the run asked for
    without power rows is NOT RUN."""
    text = ("power check: the power kernel (vanilla, every 50th order-0 page cleared once "
            "more) called worse than vanilla, its 95 % interval above 1, in instructions "
            "per op (icount, every rep string iteration counted: the cost is string "
            "stores) on every 2002 workload whose op allocates pages, of the boots it has "
            "(one vCPU: trunc*, pagefault_*; SDET shown, not judged)")
    judged, shown = power_workloads()
    if not POWER:
        t.missing(text, "not in this run (no power configuration)", "")
        return
    why = asked(plan, "icount", POWER, judged)
    want = selected(plan["workloads"], judged) if plan["workloads"] else judged
    checked, bad, na, absent, info = [], [], [], [], []
    for wl in want:
        iv = paired_ratio(det.get("icount", {}).get(wl, {}), POWER, "insn")
        if iv is None:
            absent.append(wl)
        elif iv.lo is None:
            na.append("%s (%s)" % (wl, iv.why))
        else:
            checked.append("%s %s" % (wl, ivtext(iv)))
            if verdict(iv) != "worse":
                # (the side of 1 the interval lies on: no verdict word
                # outside the primary family)
                bad.append("%s %s (%s)" % (wl, ivtext(iv), "holds 1" if iv.lo <= 1 <= iv.hi
                                           else "below 1"))
    for wl in shown:
        iv = paired_ratio(det.get("icount", {}).get(wl, {}), POWER, "insn")
        if iv is not None:
            info.append("%s %s" % (wl, ivtext(iv)))
    rest = ("; n/a on %s" % ", ".join(na) if na else "") + \
        ("; shown, not judged: %s" % ", ".join(info) if info else "")
    if why or not (checked or na):
        t.missing(text, why, "no icount rows of %s on a 2002 workload" % POWER)
    elif absent:
        t.missing(text + " [no rows of %s on %s]" % (POWER, ", ".join(absent)), None,
                  "no icount rows of %s on %s" % (POWER, ", ".join(absent)))
    elif checked:
        t.add(text, ("met on %d workloads: %s" % (len(checked), ", ".join(checked)) if not bad
                     else "missed on " + ", ".join(bad)) + rest)
    elif plan["det_rounds"] == 1:
        t.add(text, "not in this run (DET_ROUNDS=1: one round gives no interval)")
    else:
        t.missing(text, None, "no interval: " + ", ".join(na))


def det_targets(det, plan, prices=None, cal=None):
    """The targets of the deterministic modes, checked, not asserted:
    (lines, targets that had no data although the run asked for it).
    The comparisons are each configuration's paired 95 % interval against
    vanilla (stats.paired_ratio), beyond a margin: 0.5 %, or the layout
    A/A's ratio where its own interval (vanilla-b's; vanilla-layout's in
    runs before it) excludes 1."""
    t = Targets("### Deterministic targets")
    aa_bad, aa_disk, hist, off_bad, insn_bad = [], [], [], [], []
    scen_wins, scen_all, scen_na = [], [], []
    n_repeat, n_off, n_insn = 0, 0, 0
    offm, worse, layout = Judged(det), Judged(det), Family(det)
    undecided = []
    for mode, keys in (("icount", ["insn1"]), ("cachesim", ["insn", "l1m", "l2m", "l3m"])):
        for wl, per in det.get(mode, {}).items():
            disk = per.get(BASE, {}).get("boot") == "disk"
            for k in keys:
                r = aa_repeat(per, k)
                if r is not None:
                    n_repeat += not disk
                    if r - 1 > 0.005:
                        (aa_disk if disk else aa_bad).append("%s %s %s %.4f" % (mode, wl, k, r))
                sp = spread(per, k)
                if sp is not None and sp[0] is not None:
                    hist.append((sp[0], "%s %s %s %.1f %%" % (mode, wl, k, 100 * sp[0])))
    for wl, per in det.get("icount", {}).items():
        if workloads.is_shared(wl):
            continue
        r = point(per, SWITCH_OFF, "insn1")
        if r is not None:
            n_off += 1
            if abs(r - 1) > 0.001:
                off_bad.append("%s %.4f" % (wl, r))
        r = point(per, SERIES, "insn1")
        if r is not None:
            n_insn += 1
            if r > 1.003:
                insn_bad.append("%s %.4f" % (wl, r))
    for wl, per in det.get("cachesim", {}).items():
        if workloads.is_shared(wl):
            continue
        for k in ("l1m", "l2m", "l3m"):
            if k == "l3m" and per.get(BASE, {}).get("levels") != 3:
                continue
            base = per.get(BASE, {}).get(k, 0)
            # the layout A/A: vanilla built with its code and data shifted,
            # under the same seeds, judged as a family (Family)
            iv = paired_ratio(per, LAYOUT, k)
            if iv is not None:
                layout.add(iv, "%s %s" % (wl, k), base)
            # the margin: 0.5 %, or the layout A/A where it is resolved.
            # What the series' binary changes by itself (hotcold-off's
            # distance from vanilla) is shown, not allowed for: a
            # regression hotcold and hotcold-off share is still one
            m = margin(per, k)
            off = paired_ratio(per, SWITCH_OFF, k)
            if off is not None and offm.add(off, "%s %s" % (wl, k)) and \
                    beyond(off, m) and counts(base, off.ratio):
                offm.bad.append("%s %s %s (margin %.3f)" % (wl, k, ivtext(off), m))
            iv = paired_ratio(per, SERIES, k)
            if iv is None or not worse.add(iv, "%s %s" % (wl, k)):
                continue
            # below one miss per op a ratio says little, unless the
            # series adds at least one; and the interval must lie above
            # the margin
            if beyond(iv, m) > 0 and counts(base, iv.ratio):
                hc = per.get(SERIES, {}).get("rounds", {}).values()
                what = "%s %s %s%s" % (wl, k, ivtext(iv), "" if off is None else
                                       " (hotcold-off %.3f)" % off.ratio)
                # no hot/cold event in any round: the series ran
                # upstream's code there, so the difference is the boot's
                # state (which pages sit where), not its decisions
                if hc and all(x.get("hc_events") == 0 for x in hc):
                    undecided.append(what)
                else:
                    worse.bad.append(what)
        if wl in workloads.scenarios():
            iv = paired_ratio(per, SERIES, "mem")
            if iv is not None and iv.ratio is not None:
                hc = per.get(SERIES, {}).get("rounds", {}).values()
                none = bool(hc) and all(x.get("hc_events") == 0 for x in hc)
                m = margin(per, "mem")
                below = beyond(iv, m) < 0
                if iv.lo is None:
                    scen_na.append(iv)
                scen_all.append("%s %s%s" % (
                    wl, ivtext(iv), " (no hot/cold decision)" if none else "" if below else
                    " (not below 1 by more than the margin, %.3f)" % m if iv.lo is not None
                    else ""))
                # a win is the series' decision, resolved beyond the margin
                if iv.ratio <= 0.85 and below and not none:
                    scen_wins.append(wl)
    worse.bad += ["%s (no hot/cold decision in any round: pcp_cold_alloc, _request and "
                  "_free all 0; cause open)" % u for u in undecided]

    text = ("A/A repeat (vanilla's first round booted twice) within 0.5 % on every "
            "deterministic metric of the workloads that boot without a disk")
    if n_repeat:
        t.add(text, "met on %d metrics" % n_repeat if not aa_bad else "missed on " + ", ".join(aa_bad))
        if aa_bad:
            t.failed(text, aa_bad)
    else:
        why = None
        if not plan["repeat"]:
            why = "not in this run (QUICK: no repeat boot)"
        elif not set(plan["modes"]) & {"icount", "cachesim"}:
            why = "not in this run (MODES)"
        t.missing(text, why, "no %s rows" % REPEAT)
    if aa_disk:
        t.add("the same for the workloads that needed the disk (its completions land "
              "at host-timed points)", "beyond 0.5 % on " + ", ".join(aa_disk))
    text = ("vanilla's spread over its rounds (each round its own seed; the geometric "
            "standard deviation of each metric) measured, not a target: what the intervals "
            "are made of")
    if hist:
        top = sorted(hist, reverse=True)
        t.add(text, "on %d metrics, median %.1f %%; largest: %s%s" % (
            len(hist), 100 * statistics.median(g for g, _ in hist),
            ", ".join(x for _, x in top[:10]),
            "" if len(top) <= 10 else " and %d more" % (len(top) - 10)))
    else:
        why = None
        if not set(plan["modes"]) & {"icount", "cachesim"}:
            why = "not in this run (MODES)"
        else:
            # vanilla's rows, each of one round: as the plan gave them?
            wls = {wl for m in ("icount", "cachesim") for wl, per in det.get(m, {}).items()
                   if per.get(BASE)}
            why = one_round_why(plan, det, wls) if wls or plan["det_rounds"] == 1 else None
        t.missing(text, why, "fewer than two rounds of vanilla")
    text = ("hotcold-off within 0.1 % of vanilla in instructions per op (icount, each "
            "rep string instruction once; geometric mean of the paired rounds)")
    t.check(text, n_off, off_bad, "workloads",
            asked_unshared(plan, "icount", SWITCH_OFF), "no icount rows of " + SWITCH_OFF)
    text = ("hotcold at most 0.3 % more instructions per op than vanilla (icount, each "
            "rep string instruction once; geometric mean of the paired rounds)")
    t.check(text, n_insn, insn_bad, "workloads",
            asked_unshared(plan, "icount", SERIES), "no icount rows of " + SERIES)
    text = ("hotcold's memory accesses (last-level misses) per op at least 15 % below "
            "vanilla's, its 95 % interval below 1 by more than the margin, on two "
            "scenarios where it made hot/cold decisions")
    if scen_all and len(scen_na) == len(scen_all) and all(iv.n == 1 for iv in scen_na):
        if plan["det_rounds"] == 1:
            t.add(text, "not in this run (DET_ROUNDS=1: one round gives no interval)")
        else:
            t.missing(text, None, "one round only: no interval")
    elif scen_all:
        t.add(text, "%s (hotcold/vanilla memory accesses: %s)" % (
            "met on " + ", ".join(scen_wins) if len(scen_wins) >= 2 else "missed",
            ", ".join(scen_all)))
    else:
        t.missing(text, asked(plan, "cachesim", SERIES, workloads.scenarios()),
                  "no cachesim rows of %s on a scenario" % SERIES)
    text = ("layout A/A: %s, vanilla's code in a binary of its own (bench/configs.tsv), "
            "under the same seeds (seeded rounds: each round at a layout of its own), " % LAYOUT +
            "not apart from vanilla in simulated L1D, L2 and L3 misses per op (workloads "
            "where vanilla has at least one miss per op), judged as a family: no metric's "
            "simultaneous interval beyond 1 by more than the floor, and no more of the "
            "95 % intervals excluding 1 than chance gives")
    layout.report(t, text, plan, asked_unshared(plan, "cachesim", LAYOUT),
                  "no cachesim rows of " + LAYOUT)
    text = ("hotcold-off not apart from vanilla in simulated L1D, L2 and L3 misses per "
            "op (its 95 % interval neither above nor below 1 by more than the margin: "
            "0.5 %, or the layout A/A where that is resolved; workloads with at least "
            "one miss per op, or one more)")
    offm.report(t, text, plan, asked_unshared(plan, "cachesim", SWITCH_OFF),
                "no cachesim rows of " + SWITCH_OFF, 0.05)
    power_check(t, det, plan)
    # a row where the series made no decision still counts: it is the
    # series' kernel that ran, and the cause is open
    text = ("hotcold never worse than vanilla in simulated misses per op (worse: its "
            "95 % interval above 1 by more than the margin, 0.5 % or the layout A/A where "
            "that is resolved; workloads with at least one miss per op, or one more)")
    worse.report(t, text, plan, asked_unshared(plan, "cachesim", SERIES),
                 "no cachesim rows of " + SERIES, 0.025)
    lost = ["%s %s round %d: %d" % (wl, c, r, m["dma_lost"])
            for wl, per in det.get("cachesim", {}).items() for c, med in per.items()
            for r, m in med["rounds"].items() if m["dma_lost"]]
    n_dma = sum(len(med["rounds"]) for per in det.get("cachesim", {}).values()
                for med in per.values())
    text = "every DMA marker applied to the page it names (dma_lost=0)"
    t.check(text, n_dma, lost, "boots", asked(plan, "cachesim"), "no cachesim rows")
    if n_dma and lost:
        t.failed(text, lost)
    if det.get("cachesim"):
        if prices is not None:
            # a statement, not a target: the report refuses to run without
            # a table that parses, so this could not fail
            t.lines.append("- cycles are priced with the modelled part's published "
                           "latencies, not the host's: " + prices_text(prices))
        text = ("the host's calibration (bench/calibrate) printed beside the prices, a "
                "cross-check that prices nothing")
        if cal is not None:
            t.add(text, latency_text(cal, prices))
        else:
            t.missing(text, None if "cachesim" in plan["modes"]
                      else "not in this run (MODES)", "no calibrate.txt")
    t.lines.append("")
    return t.lines, t.not_run


def wall_targets(data, vm, plan):
    """The wall-clock targets: (lines, NOT RUN targets)."""
    t = Targets("### Wall-clock targets")
    off_bad, hc_bad, off_n, hc_n = [], [], 0, 0
    for (wl, metric), per in data.items():
        lower_is_better = metric.startswith("ns_")
        r = ratio(per, SWITCH_OFF)
        if r:
            off_n += 1
            if abs(r[0] - 1.0) > 0.02:
                off_bad.append("%s %.3f%s" % (wl, r[0], " (spread %.2f-%.2f crosses 1)"
                                              % (r[1], r[2]) if r[1] <= 1.0 <= r[2] else ""))
        r = ratio(per, SERIES)
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
            asked(plan, "wall", SWITCH_OFF), "no wall rows of %s and %s" % (SWITCH_OFF, BASE))
    text = ("hotcold not worse than vanilla beyond the spread (every per-round "
            "ratio on the wrong side of 1.0, and further from 1 than "
            "vanilla-repeat's)")
    t.check(text, hc_n, hc_bad, "rows",
            asked(plan, "wall", SERIES), "no wall rows of %s and %s" % (SERIES, BASE))
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
        if why is None and not plan["repeat"]:
            why = "not in this run (QUICK: no repeat boot)"
        t.missing(text, why, "no wall rows of " + REPEAT)
    # batching: a refill or drain moves more than one page per zone->lock hold
    few, n = [], 0
    for wl, per in vm.items():
        d = per.get(SERIES)
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
            asked(plan, "wall", SERIES), "no pcp_refill or pcp_drain counts of " + SERIES)
    return t.lines, t.not_run


def significance(per, c):
    """the sign test on c's paired rounds against vanilla: a cell, which
    says "significant" only where the test could reach p < 0.05"""
    p, reach = sign_test(paired(per, c))
    if reach >= 0.05:
        return "-"
    return "p=%.3f%s" % (p, " significant" if p < 0.05 else "")

