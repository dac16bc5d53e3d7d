# SPDX-License-Identifier: GPL-2.0
"""Charts: gnuplot PNGs of the deterministic modes (one per instrument,
first) and of wall mode (last, noise-bound)."""
import math
import os
import subprocess
import sys

from .ingest import BASE


# the wall chart: clustered bars with error bars (per-round min-max), a
# line at 1 (vanilla), the y range from the data
HISTOGRAM = """set key outside top center horizontal font ',9'
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -45 font ',8'
set grid ytics
set autoscale y
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black'
"""

# the deterministic charts: one PNG per instrument, a panel per metric,
# each panel titled short enough to fit its width (the long explanation
# is the report's text beside the chart, render.py)
DET_PANELS = {
    "icount": [("insn1", "instructions per op")],
    "cachesim": [("l1m", "L1D misses per op"), ("l2m", "L2 misses per op"),
                 ("l3m", "L3 misses per op"),
                 ("cost", "cycles per op (RFO string stores)"),
                 ("cost_line", "cycles per op (full-line string stores)")],
}
# the text beside the ratio charts in the report (render.py): what a
# mark means
CHART_TEXT = ("Log scale.  A dot: the geometric mean of the paired rounds' ratios; its "
              "whisker: the 95 % interval; the grey band around 1: the metric's SESOI "
              "(bench/sesoi.tsv).  The axis covers every dot, at least 0.9-1.1 and at most "
              "0.25-4; a whisker (or a dot) beyond it is drawn to the edge and marked there "
              "with a triangle (or < >).")
PANEL_TEXT = {"icount": "Instructions per op count each rep string instruction once.",
              "cachesim": "Simulated misses per op; cycles per op are the cost model's, "
                          "string stores read for ownership (RFO) or as full-line writes."}
# a ratio axis: at least AXIS_MIN, widened to every point estimate, never
# beyond AXIS_CAP (log scale); an interval reaching past it is cut at the
# edge and marked there, so one wide interval cannot flatten the rest
AXIS_MIN = (0.9, 1.1)
AXIS_CAP = (0.25, 4.0)
# the marks (gnuplot point types): filled triangles up and down for a
# vertical axis, '>' and '<' for a horizontal one
CLIP_LEGEND = "interval cut at the axis"
VERDICT_COLOURS = (("better", "#1a9850"), ("worse", "#d73027"),
                   ("equivalent", "#4575b4"), ("inconclusive", "#e08214"),
                   ("no verdict", "#888888"))


def axis_range(points):
    """(lo, hi) of a ratio axis covering POINTS (None, NaN skipped)"""
    lo, hi = AXIS_MIN
    for p in points:
        if p is not None and p > 0 and math.isfinite(p):
            lo, hi = min(lo, p / 1.02), max(hi, p * 1.02)
    return max(lo, AXIS_CAP[0]), min(hi, AXIS_CAP[1])


# the labelled ratios of an axis, the most useful first (1, then its two
# ends, rounded inward to 0.01); a label is kept while it is at least
# 1/12 of the axis from every one kept before
TICS = (1, 2, 0.5, 4, 0.25, 1.1, 0.9, 1.5, 0.67, 1.25, 0.8, 1.05, 0.95, 3, 0.33,
        1.02, 0.98, 1.01, 0.99)


def tics(rng):
    """gnuplot's tic list for a log axis over RNG"""
    span = math.log(rng[1] / rng[0])
    ends = (math.ceil(rng[0] * 100) / 100, math.floor(rng[1] * 100) / 100)
    kept = []
    for t in TICS[:1] + ends + TICS[1:]:
        if rng[0] <= t <= rng[1] and all(abs(math.log(t / k)) >= span / 12 for k in kept):
            kept.append(t)
    return "(%s)" % ", ".join("'%g' %g" % (t, t) for t in sorted(kept))


def clip(ratio, lo, hi, rng):
    """'ratio lo hi below above' for a .dat row: each value within RNG,
    below/above the edge where the interval (or point) went past it, else
    NaN; lo, hi None: the point alone"""
    if ratio is None:
        return " ".join(["NaN"] * 5)
    lo = ratio if lo is None else lo
    hi = ratio if hi is None else hi
    a, b = rng
    vals = [min(max(x, a), b) for x in (ratio, lo, hi)]
    marks = [a if lo < a else None, b if hi > b else None]
    return " ".join("NaN" if x is None else "%.5f" % x for x in vals + marks)


def gnuplot(script):
    """run gnuplot on SCRIPT: 0, or 1 with the reason on stderr"""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print("report.py: no chart: %s %s" % (e, getattr(e, "stderr", "") or ""),
              file=sys.stderr)
        return 1
    return 0


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
set title 'wall clock (noise-bound): ratio to vanilla, median; bars: min-max of the rounds'
%splot %s
""" % (png, HISTOGRAM, cols)
    return gnuplot(script)




def stale(outdir, name):
    """OUTDIR/NAME's path, a previous run's chart removed (never one
    beside this run's report)"""
    png = os.path.join(outdir, name)
    if os.path.exists(png):
        os.unlink(png)
    return png


def det_panel(dat, key, title, rows, others, sesoi):
    """one panel's .dat (per workload, each configuration's ratio, its 95 %
    interval and clip marks) and its gnuplot lines"""
    from .stats import paired_ratio
    ivs = [[paired_ratio(per, c, key) for c in others] for _, per in rows]
    rng = axis_range(iv.ratio for row in ivs for iv in row if iv is not None)
    clipped = False
    with open(dat, "w") as f:
        f.write("# workload " + " ".join("%s %s_lo %s_hi %s_below %s_above" % ((c,) * 5)
                                         for c in others) + "\n")
        for (wl, _), row in zip(rows, ivs):
            cells = [clip(*(iv[1:4] if iv is not None else (None,) * 3), rng) for iv in row]
            clipped |= any(c.split()[3:] != ["NaN", "NaN"] for c in cells)
            f.write(wl + " " + " ".join(cells) + "\n")
    k = len(others)
    cols = []
    for i, c in enumerate(others):
        x = "($0%+.3f)" % ((i - (k - 1) / 2) * min(0.8 / k, 0.25))
        base = 2 + 5 * i
        cols.append("'%s' using %s:%d:%d:%d with yerrorbars pt 7 ps 1.0 lc %d title '%s/%s'" % (
            dat, x, base, base + 1, base + 2, i + 1, c, BASE))
        if clipped:
            for j, pt in ((3, 11), (4, 9)):
                cols.append("'%s' using %s:%d with points pt %d ps 1.2 lc %d notitle" % (
                    dat, x, base + j, pt, i + 1))
    band = (1 / (1 + sesoi), 1 + sesoi)
    cols.append("NaN with boxes fs solid 1.0 noborder lc rgb 'gray85' title 'SESOI %g %%'"
                % (100 * sesoi))
    if clipped:
        cols.append("NaN with points pt 9 lc rgb 'black' title '%s'" % CLIP_LEGEND)
    return ("set title '%s'\nset yrange [%.5f:%.5f]\nset ytics %s\n"
            "set object 1 rect from graph 0, first %.5f to graph 1, first %.5f behind "
            "fc rgb 'gray85' fs solid 1.0 noborder\nplot %s" % (
                title, rng[0], rng[1], tics(rng), band[0], band[1], ", ".join(cols)))


DET_STYLE = """set key below horizontal font ',9'
set logscale y
set grid ytics
set xtics rotate by -45 font ',8'
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black' front
"""


def det_chart(outdir, mode, table, configs, levels=3):
    """OUTDIR/MODE.png: per workload, each configuration's paired ratio to
    vanilla (the geometric mean of its per-round ratios) as a dot, its 95 %
    interval as the whisker, on a log axis (axis_range: intervals beyond
    it cut at the edge and marked), and the metric's SESOI drawn around
    1.  0, 1 if gnuplot failed, or None when there is nothing to compare
    (no chart, and no stale one left)."""
    from .family import sesoi_table
    # the configurations this mode has rows of (not every one: power
    # boots icount alone)
    others = [c for c in configs if c != BASE and any(c in per for per in table.values())]
    panels = [p for p in DET_PANELS[mode] if p[0] != "l3m" or levels == 3]
    rows = [(wl, per) for wl, per in table.items() if per.get(BASE)]
    png = stale(outdir, "%s.png" % mode)
    if not rows or not others:
        return None
    plots = [det_panel(os.path.join(outdir, "%s-%s.dat" % (mode, key)), key, title, rows,
                       others, sesoi_table()[key].sesoi) for key, title in panels]
    # a workload's slot wide enough for its dots; two panels a row while
    # they fit
    width = max(900, 150 + len(rows) * max(40, 12 * len(others)))
    ncol = 2 if len(plots) > 1 and width <= 1200 else 1
    nrow = (len(plots) + ncol - 1) // ncol
    xtics = ", ".join("'%s' %d" % (wl, i) for i, (wl, _) in enumerate(rows))
    script = """set terminal png size %d,%d noenhanced
set output '%s'
%sset xtics (%s)
set xrange [-0.6:%.1f]
set multiplot layout %d,%d title '%s: each configuration over vanilla (log scale)'
%s
unset multiplot
""" % (width * ncol, 560 * nrow, png, DET_STYLE, xtics, len(rows) - 0.4, nrow, ncol, mode,
       "\n".join(plots))
    return gnuplot(script)


def primary_label(cell):
    return "%s %s %s/%s" % (cell.workload, cell.metric, cell.config, cell.base)


def primary_chart(outdir, judgements):
    """OUTDIR/primary.png: a row per primary cell (verdicts.py's
    Judgements, in the family's order, first at the top), its ratio and
    95 % interval on a log axis (cut at the edge and marked as det_chart's),
    its SESOI drawn around 1, the dot coloured by its verdict.  0, 1 if
    gnuplot failed, None without cells."""
    png = stale(outdir, "primary.png")
    if not judgements:
        return None
    dat = os.path.join(outdir, "primary.dat")
    pts = [math.exp(j.est) for j in judgements if j.est is not None]
    rng = axis_range(pts)
    n = len(judgements)
    with open(dat, "w") as f:
        f.write("# label y ratio lo hi below above sesoi_lo sesoi_hi verdict\n")
        for i, j in enumerate(judgements):
            ex = [None if x is None else math.exp(x) for x in (j.est, j.lo, j.hi)]
            f.write('"%s" %d %s %.5f %.5f %s\n' % (
                primary_label(j.cell), n - 1 - i, clip(*ex, rng), 1 / (1 + j.sesoi),
                1 + j.sesoi, (j.verdict or "no verdict").replace(" ", "_")))
    cols = ["'%s' using (1):2:8:9:($2-0.35):($2+0.35) with boxxyerror fs solid 1.0 noborder "
            "lc rgb 'gray85' title 'SESOI'" % dat]
    for word, rgb in VERDICT_COLOURS:
        cols.append("'%s' using (strcol(10) eq '%s' ? $3 : NaN):2:4:5 with xerrorbars "
                    "pt 7 ps 1.4 lc rgb '%s' title '%s'" % (dat, word.replace(" ", "_"), rgb,
                                                            word))
    cols.append("'%s' using 6:2 with points pt '<' lc rgb 'black' notitle" % dat)
    cols.append("'%s' using 7:2 with points pt '>' lc rgb 'black' title '> <: %s'" % (
        dat, CLIP_LEGEND))
    ytics = ", ".join("'%s' %d" % (primary_label(j.cell), n - 1 - i)
                      for i, j in enumerate(judgements))
    script = """set terminal png size 1300,%d noenhanced
set output '%s'
set title 'primary family: ratio to base, 95 %% interval, verdict (log scale)'
set key outside right top vertical Left reverse width 2 font ',9'
set logscale x
set xrange [%.5f:%.5f]
set xtics %s
set yrange [-0.7:%.1f]
set ytics (%s) font ',8'
set grid xtics
set arrow from first 1, graph 0 to first 1, graph 1 nohead lc rgb 'black' front
plot %s
""" % (220 + 20 * n, png, rng[0], rng[1], tics(rng), n - 0.3, ytics, ", ".join(cols))
    return gnuplot(script)
