# SPDX-License-Identifier: GPL-2.0
"""The report's ratio charts (hcreport/charts.py): a log axis that one
huge interval cannot stretch (it is cut at the edge and marked), panel
titles short enough to fit, and the primary family's chart a row per
cell.  The gnuplot scripts are captured, not run (fast); one test runs
gnuplot when the machine has it."""
import math
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from hcreport import charts, family  # noqa: E402
from hcreport.verdicts import Judgement  # noqa: E402

# a title this long still fits a 900-pixel panel (about 7 pixels a
# character at gnuplot's default font); the chart's own title spans it all
PANEL_TITLE_MAX = 45
CHART_TITLE_MAX = 75
METRICS = ("l1m", "l2m", "l3m", "cost", "cost_line", "insn1")


def per_workload(hot):
    """a workload's rows: vanilla 100 of every metric in 3 rounds, hotcold
    HOT(metric, round)"""
    def rounds(f):
        return {"rounds": {r: {k: f(k, r) for k in METRICS} for r in (1, 2, 3)}}
    return {"vanilla": rounds(lambda k, r: 100.0), "hotcold": rounds(hot)}


# w_huge: L3 misses a thousandfold apart round to round (an interval over
# ten decades); w_small: within a percent
TABLE = {
    "w_huge": per_workload(lambda k, r: 100.0 * (1000.0 ** (r - 2) if k == "l3m" else 1.0)),
    "w_small": per_workload(lambda k, r: 100.0 + r / 2),
}


def numbers(path):
    """the numeric fields of a .dat file's rows (its labels and NaN left out)"""
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            for x in re.sub(r'"[^"]*"', "", line).split():
                try:
                    v = float(x)
                except ValueError:
                    continue
                if not math.isnan(v):
                    out.append(v)
    return out


def titles(script):
    """a chart's panel titles"""
    return re.findall(r"set title '([^']*)'", script)


class Charts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = self.tmp.name
        self.scripts = []
        self.real = charts.gnuplot
        charts.gnuplot = lambda s: self.scripts.append(s) or 0
        self.addCleanup(setattr, charts, "gnuplot", self.real)

    def det(self):
        self.assertEqual(charts.det_chart(self.dir, "cachesim", TABLE, ["vanilla", "hotcold"]), 0)
        return self.scripts[-1]

    def test_huge_interval_cut_and_marked(self):
        script = self.det()
        # every panel's axis: at least 0.9-1.1, within 1/4-4
        ranges = [tuple(map(float, r)) for r in
                  re.findall(r"set yrange \[([0-9.]+):([0-9.]+)\]", script)]
        self.assertEqual(len(ranges), 5, script)
        for lo, hi in ranges:
            self.assertTrue(0.25 <= lo <= 0.9 and 1.1 <= hi <= 4, (lo, hi))
        lo, hi = ranges[2]
        with open(os.path.join(self.dir, "cachesim-l3m.dat")) as f:
            huge = next(r.split() for r in f if r.startswith("w_huge "))
        # ratio lo hi below above: the interval cut at both edges, marked
        self.assertEqual([float(x) for x in huge[1:]], [1.0, lo, hi, lo, hi])
        for v in numbers(os.path.join(self.dir, "cachesim-l3m.dat")):
            self.assertTrue(lo <= v <= hi, v)
        self.assertIn("title '%s'" % charts.CLIP_LEGEND, script)
        # a panel with nothing cut has no mark in its legend
        l1 = script.split("set title 'L1D misses per op'")[1].split("set title")[0]
        self.assertNotIn(charts.CLIP_LEGEND, l1)

    def test_titles_short(self):
        script = self.det()
        ts = titles(script)
        self.assertEqual(len(ts), 5, script)
        for t in ts:
            self.assertLessEqual(len(t), PANEL_TITLE_MAX, t)
        for mode, panels in charts.DET_PANELS.items():
            for _, t in panels:
                self.assertLessEqual(len(t), PANEL_TITLE_MAX, t)
        chart = re.findall(r"layout \d+,\d+ title '([^']*)'", script)
        self.assertEqual(len(chart), 1, script)
        self.assertLessEqual(len(chart[0]), CHART_TITLE_MAX, chart[0])
        # the SESOI of each metric drawn (bench/sesoi.tsv: L3 5 %)
        self.assertIn("SESOI 5 %", script)

    def primary(self):
        cells = family.primary_table()
        js = []
        for i, c in enumerate(cells):
            est = [None, 0.0, math.log(1.3), math.log(0.999)][i % 4]
            half = [None, 0.01, 30.0, None][i % 4]
            js.append(Judgement(c, None, None, None, None, None, est,
                                None if half is None or est is None else est - half,
                                None if half is None or est is None else est + half,
                                0.05, ["better", "equivalent", None, "worse"][i % 4],
                                None, None))
        self.assertEqual(charts.primary_chart(self.dir, js), 0)
        return cells, self.scripts[-1]

    def test_primary_row_per_cell(self):
        cells, script = self.primary()
        with open(os.path.join(self.dir, "primary.dat")) as f:
            rows = [r for r in f if not r.startswith("#")]
        self.assertEqual(len(rows), len(cells))
        self.assertTrue(rows[0].startswith('"%s %s %s/%s" ' % (
            cells[0].workload, cells[0].metric, cells[0].config, cells[0].base)))
        lo, hi = map(float, re.search(r"set xrange \[([0-9.]+):([0-9.]+)\]", script).groups())
        self.assertTrue(lo <= 0.9 and hi >= 1.3 * 1.01, (lo, hi))
        for v in numbers(os.path.join(self.dir, "primary.dat")):
            if not v.is_integer():  # (the rows' y positions)
                self.assertTrue(lo <= v <= hi, v)
        for word, _ in charts.VERDICT_COLOURS:
            self.assertIn("title '%s'" % word, script)
        for t in titles(script):
            self.assertLessEqual(len(t), CHART_TITLE_MAX, t)

    @unittest.skipUnless(shutil.which("gnuplot"), "no gnuplot")
    def test_gnuplot_draws_them(self):
        self.det()
        self.primary()
        for script in self.scripts:
            self.assertEqual(self.real(script), 0, script)
        for png in ("cachesim.png", "primary.png"):
            self.assertTrue(os.path.getsize(os.path.join(self.dir, png)) > 0, png)

if __name__ == "__main__":
    unittest.main()
