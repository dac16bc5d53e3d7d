# SPDX-License-Identifier: GPL-2.0
"""Charts: gnuplot PNGs of the deterministic modes (one per instrument,
first) and of wall mode (last, noise-bound)."""
import os
import subprocess
import sys

from .ingest import BASE


# every chart: clustered bars with error bars (per-round min-max), a line
# at 1 (vanilla), the y range from the data (no clipping)
HISTOGRAM = """set key outside top center horizontal font ',9'
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -45 font ',8'
set grid ytics
set autoscale y
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black'
"""


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
set title 'wall clock (noise-bound: TCG timing, 10-80 %% spreads; the deterministic charts are the result): ratio to vanilla, median; bars: min-max of per-round ratios (alloc_* rows are ns per op: lower is better)'
%splot %s
""" % (png, HISTOGRAM, cols)
    return gnuplot(script)


# the deterministic charts: one PNG per instrument, a panel per metric
DET_PANELS = {
    "icount": [("insn1", "instructions per op (each rep string instruction once)")],
    "cachesim": [("l1m", "simulated L1D misses per op"), ("l2m", "simulated L2 misses per op"),
                 ("l3m", "simulated L3 misses per op"),
                 ("cost", "estimated cycles per op (model; string stores read for ownership)"),
                 ("cost_line", "estimated cycles per op (model; full-line string stores)")],
}


def det_chart(outdir, mode, table, configs, levels=3):
    """OUTDIR/MODE.png: per workload, each configuration's paired ratio to
    vanilla (the geometric mean of its per-round ratios) with its 95 %
    interval as the bar, and the targets' margin drawn around 1 (0.5 %, or
    the layout A/A where its own interval excludes 1).  No clipping.  0,
    1 if gnuplot failed, or None when there is nothing to compare (no
    chart, and no stale one left)."""
    from .stats import margin, paired_ratio
    # the configurations this mode has rows of (det.csv joins each
    # mode's latest results: MODES=icount after a full run keeps the
    # cachesim rows of configurations this icount run did not boot)
    others = [c for c in configs if c != BASE and any(c in per for per in table.values())]
    panels = [p for p in DET_PANELS[mode] if p[0] != "l3m" or levels == 3]
    rows = [(wl, per) for wl, per in table.items() if per.get(BASE)]
    png = os.path.join(outdir, "%s.png" % mode)
    # never a previous run's chart beside this run's report
    if os.path.exists(png):
        os.unlink(png)
    if not rows or not others:
        return None
    plots = []
    for key, title in panels:
        dat = os.path.join(outdir, "%s-%s.dat" % (mode, key))
        with open(dat, "w") as f:
            f.write("# workload " + " ".join("%s %s_lo %s_hi" % (c, c, c) for c in others) +
                    " margin_lo margin_hi\n")
            for wl, per in rows:
                cells = [wl]
                for c in others:
                    iv = paired_ratio(per, c, key)
                    if iv is None or iv.ratio is None:
                        cells += ["NaN"] * 3
                    elif iv.lo is None:
                        # one round: the point, no bar
                        cells += ["%.5f" % iv.ratio] * 3
                    else:
                        cells += ["%.5f" % x for x in (iv.ratio, iv.lo, iv.hi)]
                m = margin(per, key)
                cells += ["%.5f" % (1 / (1 + m)), "%.5f" % (1 + m)]
                f.write(" ".join(cells) + "\n")
        cols = ", ".join(
            "'%s' using %d:%d:%d%s title '%s/%s'" % (dat, 2 + 3 * i, 3 + 3 * i, 4 + 3 * i,
                                                     ":xtic(1)" if i == 0 else "", c, BASE)
            for i, c in enumerate(others))
        n = 2 + 3 * len(others)
        cols += (", '%s' using 0:(1):%d:%d with yerrorbars lc rgb 'gray40' lw 4 pt 0 "
                 "title 'margin: 0.5 %%, or the layout A/A where resolved'" % (dat, n, n + 1))
        plots.append("set title '%s: %s, ratio to vanilla (geometric mean of the paired "
                     "rounds; bars: 95 %% interval)'\nplot %s" % (mode, title, cols))
    nrow = (len(plots) + 1) // 2 if len(plots) > 1 else 1
    ncol = 2 if len(plots) > 1 else 1
    script = """set terminal png size %d,%d noenhanced
set output '%s'
%sset multiplot layout %d,%d title '%s (deterministic; simulated where it says so)'
%s
unset multiplot
""" % (900 * ncol, 520 * nrow, png, HISTOGRAM, nrow, ncol, mode, "\n".join(plots))
    return gnuplot(script)
