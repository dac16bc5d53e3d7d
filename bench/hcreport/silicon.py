# SPDX-License-Identifier: GPL-2.0
"""The silicon check's arithmetic (bench/silicon.py runs it): the host's
load and CPU, bench/replay's output, the cache model's counts of the
same replay priced by the report's own price() (ingest.py) with
bench/prices.tsv, and the table that sets each pricing's predicted
tail/head ratio against the native one's paired 95 % interval
(stats.paired_ratio(): rounds paired by number, head as the base);
the wait for a quiet host, and report.md's section of the table.
"""
import csv
import math
import os
import time

from .ingest import InputError, price
from .stats import paired_ratio

# the replay's variants: where the page cache's pages lie, the arena's
# page size, and whether the foreground reads a cleared page back
VARIANTS = [(order, mapping, read) for mapping in ("4k", "2m")
            for order in ("addr", "scatter") for read in (0, 1)]
# the two pricings of the report (ingest.price(): cost, cost_line)
PRICINGS = (("cost", "cycles, RFO"), ("cost_line", "cycles, line"))
# a host whose 1-minute load average is above this runs another job: two
# CPUs, and one replay at a time is the whole of a quiet host's load
LOAD_MAX = 0.5
# make bench waits for the load to fall below LOAD_MAX (SILICON_WAIT:
# after the boots the two CPUs' load of 2 takes about 80 s to fall below
# 0.5), reading it every WAIT_STEP seconds
WAIT_STEP = 15
# ... or whose CPUs were busier than this over a sample between rounds
BUSY_MAX = 0.25
# no verdict from fewer rounds: with 1 or 2 degrees of freedom a verdict
# is mostly luck (issue 46)
MIN_ROUNDS = 6


def variant_name(v):
    order, mapping, read = v
    return "%s/%s/%s" % (order, mapping, "store+read" if read else "store")


def variant_args(v):
    order, mapping, read = v
    return ["--order", order, "--map", mapping] + (["--read"] if read else [])


def host_cpu(path="/proc/cpuinfo"):
    """'MODEL NAME, family F model M' of the first CPU (decimal, as
    /proc/cpuinfo gives them), or the fields it lacks, named"""
    kv = {}
    with open(path) as f:
        for line in f:
            if not line.strip():
                break
            k, _, v = line.partition(":")
            kv[k.strip()] = v.strip()
    return "%s, family %s model %s" % (kv.get("model name", "no model name"),
                                       kv.get("cpu family", "?"), kv.get("model", "?"))


def load_refusal(loadavg="/proc/loadavg", limit=LOAD_MAX):
    """None when the host is quiet, else why the timing would not be a
    measurement: the 1-minute load average, named, above limit"""
    with open(loadavg) as f:
        field = f.read().split()[0]
    try:
        load = float(field)
    except ValueError:
        raise InputError("%s: %r is not a load average" % (loadavg, field)) from None
    if load > limit:
        return ("host busy: the 1-minute load average is %.2f (%s), above %.2f: another "
                "job is running" % (load, loadavg, limit))
    return None


def wait_quiet(refusal, timeout, step=WAIT_STEP, sleep=time.sleep, clock=time.monotonic,
               say=None):
    """Waits for a quiet host: refusal() (load_refusal()'s) read every
    step seconds for at most timeout seconds.  None once it says quiet,
    else its last refusal, with the time waited; say(text): a line per
    wait, for the log."""
    start = clock()
    why = refusal()
    while why is not None:
        waited = clock() - start
        if waited >= timeout:
            return "%s; still so after waiting %.0f s (at most %d) for the host to get quiet" % (
                why, waited, timeout)
        if say:
            say("waiting for a quiet host (%.0f of at most %d s): %s" % (waited, timeout, why))
        sleep(min(step, timeout - waited))
        why = refusal()
    return None


def cpu_times(stat="/proc/stat"):
    """(busy, total) jiffies of all CPUs, from /proc/stat's cpu line"""
    with open(stat) as f:
        f = [int(x) for x in f.readline().split()[1:]]
    idle = f[3] + (f[4] if len(f) > 4 else 0)
    return sum(f) - idle, sum(f)


def busy_refusal(before, after, limit=BUSY_MAX):
    """None, or why not: the CPUs' busy share between two cpu_times()
    samples (taken while the check itself waited) above limit"""
    busy, total = after[0] - before[0], after[1] - before[1]
    share = busy / total if total > 0 else 0.0
    if share > limit:
        return ("host busy: the CPUs were %.0f %% busy while the check waited (/proc/stat), "
                "above %.0f %%: another job is running" % (100 * share, 100 * limit))
    return None


def parse_replay(line):
    """one 'replay ...' line of bench/replay: {key: value} (numbers as
    numbers, the rest as text)"""
    f = line.split()
    if not f or f[0] != "replay":
        raise InputError("not a line of bench/replay: %r" % line[:80])
    out = {}
    for x in f[1:]:
        k, _, v = x.partition("=")
        try:
            out[k] = int(v)
        except ValueError:
            try:
                out[k] = float(v)
            except ValueError:
                out[k] = v
    return out


def model_metrics(phases_text, iters):
    """The cachesim plugin's one user-mode phase as the per-iteration
    metrics ingest.price() reads (the names load_det() gives them)"""
    recs = [dict(x.split("=", 1) for x in line.split()) for line in phases_text.splitlines()
            if line.startswith("phase=")]
    cfg = [line for line in phases_text.splitlines() if line.startswith("config ")]
    if len(recs) != 1 or not cfg:
        raise InputError("expected a config line and one phase, got %d phases" % len(recs))
    r = {k: int(v) for k, v in recs[0].items()}
    levels = 3 if " levels=3" in cfg[0] else 2

    def both(k):
        return (r[k + "_k"] + r[k + "_u"]) / iters
    m = {k: both(k) for k in ("insn", "l1m", "l2m", "l3m", "xfer", "xl1m", "xl2m", "xl3m")}
    m.update(levels=levels, xxfer=(r["xxfer_k"] + r["xxfer_u"]) / iters)
    m["mem"] = m["l3m"] if levels == 3 else m["l2m"]
    # the rep string stores' iterations and lines (None: a plugin from
    # before them, whose counts price as before)
    m.update({k: both(k) if k + "_k" in r else None for k in ("xrep", "xline")})
    return m


NATIVE = ["variant", "round", "side", "ns_per_iter", "map", "thp_kb"]


def read_native(path):
    """an earlier run's native.csv (bench/silicon.py's timings): ({variant:
    {round: {side: ns}}}, its rows as written).  InputError, naming the
    file and line, for one that is not whole: every variant's every
    round, head and tail."""
    names = {variant_name(v): v for v in VARIANTS}
    res, rows = {v: {} for v in VARIANTS}, []
    with open(path, newline="") as f:
        for n, row in enumerate(csv.reader(f), 1):
            if n == 1:
                if row != NATIVE:
                    raise InputError("%s:1: header %s, expected %s" % (
                        path, ",".join(row), ",".join(NATIVE)))
                continue
            try:
                name, rnd, side, ns, mapping, thp = row
                rnd, ns, thp = int(rnd), float(ns), int(thp)
                if name not in names or side not in ("head", "tail") or not ns > 0:
                    raise ValueError
            except ValueError:
                raise InputError("%s:%d: not a timing of bench/silicon.py: %s" % (
                    path, n, ",".join(row))) from None
            res[names[name]].setdefault(rnd, {})[side] = ns
            rows.append([name, rnd, side, ns, mapping, thp])
    short = ["%s round %d" % (variant_name(v), r) for v in VARIANTS
             for r, sides in sorted(res[v].items()) if len(sides) != 2]
    short += [variant_name(v) + " (no rounds)" for v in VARIANTS if not res[v]]
    if short:
        raise InputError("%s: no head and tail for %s" % (path, ", ".join(short)))
    return res, rows


def predicted(head, tail, prices, cold):
    """Each pricing's predicted tail/head ratio and extra ns per cold page
    (head's cycles less tail's, over the cold pages per iteration, at
    the prices' clock): {key: (ratio, ns)}"""
    h, t = price(head, prices), price(tail, prices)
    return {key: (t[i] / h[i], (h[i] - t[i]) / cold / prices["ghz"])
            for i, (key, _) in enumerate(PRICINGS)}


def native(rounds):
    """rounds: {round: {"head": ns, "tail": ns}} -> (stats.Interval of
    tail/head, the head's geometric mean in ns)"""
    per = {s: {"rounds": {r: {"ns": v[s]} for r, v in rounds.items()}} for s in ("head", "tail")}
    iv = paired_ratio(per, "tail", "ns", base="head")
    heads = [v["head"] for v in rounds.values()]
    return iv, math.exp(math.fsum(math.log(x) for x in heads) / len(heads))


def inside(iv, ratio):
    return iv is not None and iv.lo is not None and iv.lo <= ratio <= iv.hi


def rows(natives, models, prices, cold):
    """One row per variant: natives {variant: rounds (native())}, models
    {variant: (head metrics, tail metrics)}: (name, Interval, head ns,
    native ns per cold page (lo, point, hi), {pricing: (ratio, ns)},
    [the pricings whose ratio is inside the interval], [those whose ns
    per cold page is inside its interval]).  The ns per cold page is the
    head's geometric mean times 1 - the ratio (and its bounds), over the
    cold pages: the cold page's own price, without the base that the
    ratio divides it by."""
    out = []
    for v in VARIANTS:
        if v not in natives or v not in models:
            continue
        iv, head = native(natives[v])
        pred = predicted(*models[v], prices, cold)
        per_cold = tuple(head * (1 - x) / cold if x is not None else None
                         for x in (iv.hi, iv.ratio, iv.lo))
        out.append((variant_name(v), iv, head, per_cold, pred,
                    [k for k, _ in PRICINGS if inside(iv, pred[k][0])],
                    [k for k, _ in PRICINGS if None not in per_cold and
                     per_cold[0] <= pred[k][1] <= per_cold[2]]))
    return out


def fmt_iv(iv):
    if iv.lo is None:
        return "%.3f (%s)" % (iv.ratio, iv.why)
    return "%.3f [%.3f-%.3f]" % (iv.ratio, iv.lo, iv.hi)


def fmt_ns(x):
    return "-" if x is None else "%.0f" % x


def table(rs, cpu, note=None):
    """The table's text: the host, a note (a busy host's), one line per
    variant and the verdict"""
    names = dict(PRICINGS)
    lines = ["host CPU: %s" % cpu]
    if note:
        lines.append("*** %s: not a measurement ***" % note)
    lines.append("%-22s %-22s %-16s %-13s %-13s %-12s %s" % (
        "variant", "native tail/head [95%]", "native ns/cold", "RFO ratio", "line ratio",
        "ratio inside", "ns/cold inside"))
    for name, iv, _, pc, pred, ins, ins_cold in rs:
        lines.append("%-22s %-22s %-16s %-13s %-13s %-12s %s" % (
            name, fmt_iv(iv), "%s [%s-%s]" % (fmt_ns(pc[1]), fmt_ns(pc[0]), fmt_ns(pc[2])),
            "%.3f (%s)" % (pred["cost"][0], fmt_ns(pred["cost"][1])),
            "%.3f (%s)" % (pred["cost_line"][0], fmt_ns(pred["cost_line"][1])),
            ", ".join(names[k].split(", ")[1] for k in ins) or "none",
            ", ".join(names[k].split(", ")[1] for k in ins_cold) or "none"))
    lines.append("(ratio: the replay's ns per iteration, pages freed at the tail over at "
                 "the head; in parentheses each pricing's extra ns per cold page)")
    lines.append(verdict(rs))
    return lines


def verdict(rs):
    """the pricing whose prediction is inside the native interval in every
    variant, or none"""
    names = dict(PRICINGS)
    n = min((r[1].n for r in rs), default=0)
    if n < MIN_ROUNDS:
        return "verdict: none (%d rounds; a verdict needs at least %d)" % (n, MIN_ROUNDS)
    out = []
    for col, what in ((5, "ratio"), (6, "ns per cold page")):
        every = [names[k] for k, _ in PRICINGS if rs and all(k in r[col] for r in rs)]
        out.append("verdict, %s: %s" % (what, " and ".join(every) + " inside the native "
                                        "interval in every variant" if every else
                                        "no pricing inside the native interval in every variant"))
    return "\n".join(out)


# what bench/silicon.py run OUTDIR writes: the table (report.md prints it)
# and the directory of its timings and counts (archived with it)
TABLE = "silicon.txt"
HEAD = "## The silicon check: the cycle pricings against this host"


def section(outdir, asked):
    """report.md's section of OUTDIR's silicon check: (lines, [why it is
    NOT RUN]).  asked: the plan's silicon (True: the run asked for it,
    False: SILICON=0, None: a plan from before make bench ran it).  The
    table as bench/silicon.py wrote it; asked and missing, NOT RUN."""
    path = os.path.join(outdir, TABLE)
    if os.path.isfile(path):
        with open(path) as f:
            table = f.read().rstrip("\n").splitlines()
        return [HEAD, "", "bench/replay's tail/head natively on this host against each "
                "pricing's prediction from the cache model (docs/bench.md, \"The silicon "
                "check\"; its timings and counts: `silicon/`):", "", "```"] + table + \
            ["```", ""], []
    if asked:
        why = ("no %s: bench/silicon.py did not finish (make bench's output says why: a host "
               "that never got quiet, a tool missing) -- SILICON=0 skips the check" % TABLE)
        return [HEAD + ": NOT RUN", "", why[0].upper() + why[1:] + ".", ""], \
            ["the silicon check: " + why]
    return [HEAD + ": not in this run (%s)" % (
        "SILICON=0" if asked is False else "a run from before make bench ran it"), ""], []
