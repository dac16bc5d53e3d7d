# SPDX-License-Identifier: GPL-2.0
"""The directed tests as curves (bench/workloads.tsv's sweeps): exit_flood
over exits per 1000 foreground pages and over the exit's size,
reclaim_flood over the MB reclaimed per 1000 foreground pages; the
foreground's simulated misses per page against the rate, for vanilla,
hotcold and single, and the invariant: the misses each exit (or each MB
reclaimed) adds to the foreground's, over the curve's zero (the
foreground alone), as a table column and the chart's last row."""
import os

from . import workloads
from . import charts
from .ingest import BASE

# flood's foreground: 1 MB, 256 pages, per loop
FG_PAGES_PER_LOOP = 256
# a page the foreground gets cold costs it about one miss per line when
# clear_page() writes it: 64 lines of 64 bytes
LINES_PER_PAGE = 64
# the curves: (key, title, x axis, what an event is)
CURVES = (("exit_rate", "exit_flood: exits per 1000 foreground pages",
           "exits per 1000 foreground pages", "exit"),
          ("exit_size", "exit_flood: the size of each exit",
           "MB per exit", "exit"),
          ("reclaim_rate", "reclaim_flood: MB reclaimed per 1000 foreground pages",
           "MB reclaimed per 1000 foreground pages", "MB reclaimed"))
# the panels: (metric, what)
METRICS = (("l2m", "L2 misses per foreground page"),
           ("mem", "memory accesses (L3 misses) per foreground page"))


def curves(names):
    """{curve: [(x, name, events)]}, each sorted by x, its zero (N 0)
    first.  The exit rate curve holds the exits of the zero point's size,
    the size curve those of its loops; reclaim_rate every reclaim point.
    A curve without its zero or without another point is left out."""
    zero = {}
    pts = {"exit": [], "reclaim": []}
    for name in names:
        p = workloads.sweep_params(name)
        if p is None:
            continue
        what, n, mb, loops = p
        if n == 0:
            zero[what] = (name, mb, loops)
        else:
            pts[what].append((name, n, mb, loops))
    out = {}
    if "exit" in zero:
        zname, zmb, zloops = zero["exit"]
        rate = [(n * 1000.0 / (loops * FG_PAGES_PER_LOOP), name, n)
                for name, n, mb, loops in pts["exit"] if mb == zmb]
        size = [(float(mb), name, n) for name, n, mb, loops in pts["exit"] if loops == zloops]
        if rate:
            out["exit_rate"] = [(0.0, zname, 0)] + sorted(rate)
        if size:
            out["exit_size"] = [(0.0, zname, 0)] + sorted(size)
    if "reclaim" in zero and pts["reclaim"]:
        zname = zero["reclaim"][0]
        out["reclaim_rate"] = [(0.0, zname, 0)] + sorted(
            (mb * 1000.0 / (loops * FG_PAGES_PER_LOOP), name, mb)
            for name, n, mb, loops in pts["reclaim"])
    return out


def extra_per_event(table, zero, name, events, config, key):
    """the misses (KEY) one event adds to the foreground's: the point's
    count over the zero point's per page, times the point's pages, over
    its events (medians); None without the data"""
    z = table.get(zero, {}).get(config)
    p = table.get(name, {}).get(config)
    if not z or not p or not events:
        return None
    return (p[key] - z[key]) * p["ops"] / events


def cell(per, c, key):
    """median [min-max over the rounds]"""
    m = per.get(c)
    if not m:
        return "-"
    vs = [r[key] for r in m.get("rounds", {}).values()]
    if len(vs) > 1 and min(vs) != max(vs):
        return "%.2f [%.2f-%.2f]" % (m[key], min(vs), max(vs))
    return "%.2f" % m[key]


def sweep_section(det, configs, outdir, asked_why=None, want=(), want_curves=()):
    """(report lines, chart status, NOT RUN reasons).  det: the
    cachesim mode's {workload: {config: metrics}}; asked_why: None if the
    run asked for the sweeps, else why not; want: the configurations the
    run booted them in, want_curves: the curves its workloads make, each
    NOT RUN without its rows."""
    png = os.path.join(outdir, "sweeps.png")
    if os.path.exists(png):
        os.unlink(png)
    cs = curves([w for w in det if workloads.kind(w) == "sweep"])
    # vanilla first, then the others in the run's order
    shown = [c for c in [BASE] + [c for c in configs if c != BASE]
             if any(c in det.get(w, {}) for w in workloads.sweeps())]
    lines = ["## Directed tests as curves (cachesim)", ""]
    if not cs or BASE not in shown or len(shown) < 2:
        if asked_why:
            how = (" The sweeps are asked for by name (bench/workloads.tsv's runs column): "
                   "WORKLOADS=\"$(python3 bench/report.py workloads kind=sweep)\" make bench "
                   "runs them alone." if "WORKLOADS" in asked_why else "")
            return lines + ["%s.%s" % (asked_why[0].upper() + asked_why[1:], how), ""], 0, []
        return (lines + ["NOT RUN: no cachesim rows of vanilla and another configuration "
                         "for the sweeps (bench/workloads.tsv).", ""], 0,
                ["the sweeps: no cachesim rows of vanilla and another configuration"])
    missing = ["the sweeps: no cachesim rows of %s" % c for c in want if c not in shown]
    missing += ["the sweeps: no points of the curve %s" % k for k in want_curves if k not in cs]
    lines += ["NOT RUN: %s." % m for m in missing] + ([""] if missing else [])
    lines += [
        "Directed tests, not programs: exit_flood and reclaim_flood with "
        "their rate (and the exit's size) swept, so that a gain reads as a "
        "function of how often the scenario hands cold pages to a hot task, "
        "not as one number whose size the scenario chose.  Simulated misses "
        "per foreground page (medians, [min-max over the rounds]), and the "
        "invariant: the misses each exit (or each MB reclaimed) adds to the "
        "foreground's over the curve's zero (the foreground alone), and "
        "that over %d, the pages' worth of lines it stands for (a page "
        "written by clear_page() misses once per line).  The guest's exit "
        "threshold is its L3 slice, 32 MB: exits below it free hot in every "
        "kernel." % LINES_PER_PAGE, ""]
    for key, title, xlabel, event in CURVES:
        pts = cs.get(key)
        if not pts:
            continue
        zero = pts[0][1]
        lines += ["### %s" % title, "",
                  "| %s | workload | " % xlabel +
                  " | ".join("%s L2/page" % c for c in shown) + " | " +
                  " | ".join("%s memory/page" % c for c in shown) + " | " +
                  " | ".join("%s L2 per %s (pages)" % (c, event) for c in shown) + " |",
                  "|---|---|" + "---|" * (3 * len(shown))]
        for x, name, events in pts:
            per = det.get(name, {})
            extra = []
            for c in shown:
                e = extra_per_event(det, zero, name, events, c, "l2m")
                extra.append("-" if e is None else "%.0f (%.1f)" % (e, e / LINES_PER_PAGE))
            lines.append("| %.3g | %s | %s | %s | %s |" % (
                x, name, " | ".join(cell(per, c, "l2m") for c in shown),
                " | ".join(cell(per, c, "mem") for c in shown), " | ".join(extra)))
        lines.append("")
    rc = sweep_chart(outdir, det, cs, shown)
    if rc == 0:
        lines += ["![the directed tests' curves: misses per foreground page against the "
                  "rate, and the invariant](sweeps.png)", ""]
    return lines, rc, missing


def sweep_chart(outdir, det, cs, shown):
    """OUTDIR/sweeps.png: a column per curve, a row per metric, a line
    per configuration with the rounds' min-max as error bars"""
    plots = []
    for mkey, mtitle in METRICS:
        for ckey, ctitle, xlabel, _ in CURVES:
            pts = cs.get(ckey)
            if not pts:
                continue
            dat = os.path.join(outdir, "sweeps-%s-%s.dat" % (ckey, mkey))
            with open(dat, "w") as f:
                f.write("# x " + " ".join("%s %s_lo %s_hi" % (c, c, c) for c in shown) + "\n")
                for x, name, _ in pts:
                    cells = ["%.5g" % x]
                    for c in shown:
                        m = det.get(name, {}).get(c)
                        if not m:
                            cells += ["NaN"] * 3
                            continue
                        vs = [r[mkey] for r in m.get("rounds", {}).values()] or [m[mkey]]
                        cells += ["%.5f" % v for v in (m[mkey], min(vs), max(vs))]
                    f.write(" ".join(cells) + "\n")
            cols = ", ".join("'%s' using 1:%d:%d:%d with yerrorlines title '%s'" % (
                dat, 2 + 3 * i, 3 + 3 * i, 4 + 3 * i, c) for i, c in enumerate(shown))
            plots.append("set title '%s'\nset xlabel '%s'\nset ylabel '%s'\nplot %s" % (
                ctitle, xlabel, mtitle, cols))
    # the invariant: the pages' worth of L2 misses each event adds to the
    # foreground's, over the curve's zero (medians; the zero has no event)
    for ckey, ctitle, xlabel, event in CURVES:
        pts = cs.get(ckey)
        if not pts:
            continue
        dat = os.path.join(outdir, "sweeps-%s-invariant.dat" % ckey)
        with open(dat, "w") as f:
            f.write("# x " + " ".join(shown) + "\n")
            for x, name, events in pts[1:]:
                cells = ["%.5g" % x]
                for c in shown:
                    e = extra_per_event(det, pts[0][1], name, events, c, "l2m")
                    cells.append("NaN" if e is None else "%.5f" % (e / LINES_PER_PAGE))
                f.write(" ".join(cells) + "\n")
        cols = ", ".join("'%s' using 1:%d with linespoints title '%s'" % (dat, 2 + i, c)
                         for i, c in enumerate(shown))
        plots.append("set title 'the invariant: L2 misses each %s adds'\nset xlabel '%s'\n"
                     "set ylabel 'in pages (64 lines)'\nplot %s" % (event, xlabel, cols))
    if not plots:
        return 0
    rows = len(METRICS) + 1
    ncol = len(plots) // rows
    script = """set terminal png size %d,%d noenhanced
set output '%s'
set key top left
set yrange [0:*]
set grid
set multiplot layout %d,%d title 'directed tests as curves (cachesim: simulated misses; medians, bars: min-max over the rounds)'
%s
unset multiplot
""" % (520 * ncol, 420 * rows, os.path.join(outdir, "sweeps.png"), rows, ncol,
       "\n".join(plots))
    return charts.gnuplot(script)
