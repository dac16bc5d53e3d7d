# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the one WORKLOADS rule (bench/hcreport/workloads.py's
selected()) and of the workloads each boot of make bench runs by it
(boot_workloads(), which scripts/bench.sh asks through report.py
boot-workloads; the report judges what a run asked for with selected()),
for lists of names, of exclusions (-NAME) and of both, with a workload
table of its own and with the real one."""
import contextlib
import io
import os
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from hcreport import plan, workloads  # noqa: E402
from hcreport.workloads import boot_workloads, run_workloads, selected  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))

# name, boot, modes; in the table's order
TABLE = [("sdet_1", "mem", "det"), ("sdet_2", "mem", "det"), ("readahead", "2cpu", "det"),
         ("alloc", "mem", "wall"), ("compile", "prog", "det"), ("web", "prog", "det"),
         ("sweep_a", "sweep", "fixed"), ("sweep_b", "sweep", "fixed")]
ROWS = [dict(name=n, boot=b, modes=m) for n, b, m in TABLE]


class Selected(unittest.TestCase):
    NAMES = ["a", "b", "c"]

    def sel(self, listed):
        return selected(listed.split(), self.NAMES)

    def test_nothing_selects_everything(self):
        self.assertEqual(self.sel(""), ["a", "b", "c"])

    def test_names(self):
        self.assertEqual(self.sel("b"), ["b"])
        self.assertEqual(self.sel("c a"), ["a", "c"])
        self.assertEqual(self.sel("x"), [])

    def test_exclusions_only_mean_all_but_those(self):
        self.assertEqual(self.sel("-b"), ["a", "c"])
        self.assertEqual(self.sel("-a -b -c"), [])
        self.assertEqual(self.sel("-x"), ["a", "b", "c"])

    def test_names_less_exclusions(self):
        self.assertEqual(self.sel("a b -b"), ["a"])
        self.assertEqual(self.sel("-b b"), [])
        self.assertEqual(self.sel("a -c"), ["a"])


def wall(listed):
    return (" ".join(boot_workloads("wall", listed.split(), ROWS)),
            " ".join(boot_workloads("wall-prog", listed.split(), ROWS)))


def det(listed, boot):
    return " ".join(boot_workloads(boot, listed.split(), ROWS))


class WallBoots(unittest.TestCase):
    def test_everything(self):
        self.assertEqual(wall(""), ("sdet_1 sdet_2 readahead alloc", "compile web"))

    def test_names_go_to_their_boot(self):
        self.assertEqual(wall("web sdet_2"), ("sdet_2", "web"))
        self.assertEqual(wall("sdet_1"), ("sdet_1", ""))
        self.assertEqual(wall("compile"), ("", "compile"))

    def test_exclusions_only_mean_all_but_those(self):
        self.assertEqual(wall("-web -sdet_1"), ("sdet_2 readahead alloc", "compile"))

    def test_names_and_exclusions(self):
        # a boot gets names only: an exclusion alone would read as "all but"
        self.assertEqual(wall("sdet_1 -web"), ("sdet_1", ""))
        self.assertEqual(wall("web -sdet_1"), ("", "web"))
        self.assertEqual(wall("sdet_1 sdet_2 -sdet_2"), ("sdet_1", ""))

    def test_whitespace(self):
        self.assertEqual(wall(" -web\t-compile "), ("sdet_1 sdet_2 readahead alloc", ""))

    def test_no_sweep_in_wall_mode(self):
        # the sweeps run in the fixed modes only, even when named
        self.assertEqual(wall("sweep_a sdet_1"), ("sdet_1", ""))
        self.assertEqual(wall("-sweep_b"), ("sdet_1 sdet_2 readahead alloc", "compile web"))


class DetBoots(unittest.TestCase):
    def test_parts(self):
        self.assertEqual(det("", "mem"), "sdet_1 sdet_2")
        self.assertEqual(det("", "prog"), "compile web")
        self.assertEqual(det("web", "mem"), "")
        self.assertEqual(det("-web", "prog"), "compile")
        self.assertEqual(det("sdet_1 sdet_2 -sdet_2", "mem"), "sdet_1")
        self.assertEqual(det("-sdet_1", "mem"), "sdet_2")
        self.assertEqual(det("", "disk"), "")

    def test_sweep_boot(self):
        self.assertEqual(det("", "sweep"), "sweep_a sweep_b")
        self.assertEqual(det("-sweep_a", "sweep"), "sweep_b")
        self.assertEqual(det("sdet_1", "sweep"), "")

    def test_an_unknown_boot(self):
        with self.assertRaises(ValueError):
            boot_workloads("swap", [], ROWS)


class TheTable(unittest.TestCase):
    """The rule on bench/workloads.tsv: each workload in one boot of each
    kind of mode, whatever list selects it, and the command line."""

    DET = workloads.VALUES["boot"]

    def boots(self, listed, which):
        return {b: boot_workloads(b, listed) for b in which}

    def test_every_workload_in_one_boot(self):
        rows = workloads.table()
        for listed in ([], ["-web"], ["-sdet_1", "-sweep_exit_0_40_16"]):
            want = selected(listed, workloads.names())
            with self.subTest(listed=listed):
                walls = self.boots(listed, ("wall", "wall-prog"))
                dets = self.boots(listed, self.DET)
                run_wall = [n for b in walls.values() for n in b]
                run_det = [n for b in dets.values() for n in b]
                self.assertEqual(sorted(run_wall), sorted(
                    r["name"] for r in rows if r["modes"] != "fixed" and r["name"] in want))
                self.assertEqual(sorted(run_det), sorted(
                    r["name"] for r in rows if r["modes"] != "wall" and r["name"] in want))
                boot_of = {r["name"]: r["boot"] for r in rows}
                for n in run_det:
                    self.assertIn(n, dets[boot_of[n]])
                for n in walls["wall-prog"]:
                    self.assertEqual(boot_of[n], "prog")

    def test_a_name_runs_in_its_boots_only(self):
        walls = self.boots(["web"], ("wall", "wall-prog"))
        self.assertEqual(walls, {"wall": [], "wall-prog": ["web"]})
        dets = self.boots(["web"], self.DET)
        self.assertEqual({b: w for b, w in dets.items() if w}, {"prog": ["web"]})

    def test_command_line(self):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = workloads.boot_main(["prog", "-web", " -configure"])
            bad = workloads.boot_main(["swap", "web"])
            none = workloads.boot_main([])
        self.assertEqual((rc, bad, none), (0, 2, 2))
        self.assertEqual(out.getvalue(), "compile fileserver sqlite backup_beside_compile\n")
        self.assertIn("expected BOOT [WORKLOADS...]", err.getvalue())


class RunSets(unittest.TestCase):
    """The workloads a run asks for (the runs column): QUICK's set, the
    default run's (QUICK's and the default ones), or the names WORKLOADS
    lists; never an asked workload unless named."""
    LINE = "w1\t2002\tdet\tmem\tquick\tno\t10\tops_per_s\tw\n"

    def setUp(self):
        self.rows = workloads.parse(
            self.LINE + self.LINE.replace("w1", "w2").replace("quick", "default") +
            self.LINE.replace("w1", "w3").replace("quick", "asked"))

    def run_(self, run, listed):
        return run_workloads(run, listed.split(), self.rows)

    def test_each_run_its_set(self):
        self.assertEqual(self.run_("quick", ""), ["w1"])
        self.assertEqual(self.run_("default", ""), ["w1", "w2"])

    def test_exclusions_only_leave_the_runs_set_less_those(self):
        self.assertEqual(self.run_("default", "-w1"), ["w2"])
        self.assertEqual(self.run_("quick", "-w1"), [])
        self.assertEqual(self.run_("default", "-w3"), ["w1", "w2"])

    def test_a_name_listed_runs_whatever_its_set(self):
        self.assertEqual(self.run_("quick", "w3"), ["w3"])
        self.assertEqual(self.run_("default", "w3 w2 -w2"), ["w3"])

    def lists(self, quick, listed, suite=""):
        """the run's lists as the plan makes them (bench/hcreport/plan.py:
        the run's set, before the deterministic modes leave out the
        wall-only workloads), with the real table: (status, (the
        deterministic list, wall's), the errors)"""
        p = plan.Plan({"QUICK": "1" if quick == "quick" else "0", "WORKLOADS": listed,
                       "SUITE": suite})
        if p.errors:
            return 1, ("", ""), "\n".join(p.errors)
        return 0, (" ".join(p.wall_list), " ".join(p.wall_list)), ""

    def test_the_harness_asks_the_default_set_of_the_real_table(self):
        rc, (det_, wall_), err = self.lists("default", "", suite="both")
        self.assertEqual(rc, 0, err)
        asked = workloads.names(runs="asked")
        self.assertTrue(asked, "no asked workload in bench/workloads.tsv to test with")
        self.assertEqual(det_.split(), [n for n in workloads.names() if n not in asked])
        self.assertEqual(wall_.split(), det_.split())
        # the suites take turns: the first (no previous run) the programs,
        # without the named shapes' workloads
        rc, (det_, _), err = self.lists("default", "")
        shapes = [n for b in ("ccd4", "ccd8", "ccd8prog") for n in workloads.names(boot=b)]
        self.assertEqual(det_.split(), [n for n in workloads.names()
                                        if n not in asked and n not in shapes])
        rc, (det_, _), err = self.lists("quick", "")
        self.assertEqual((rc, det_.split()), (0, workloads.names(runs="quick")), err)
        # an asked workload, named: it runs
        self.assertIn("sdet_2", asked)
        rc, (det_, _), err = self.lists("quick", "sdet_2 -web")
        self.assertEqual((rc, det_), (0, "sdet_2"), err)

    def test_the_harness_refuses_a_run_of_nothing(self):
        rc, _, err = self.lists("quick", " ".join("-" + n for n in workloads.names(runs="quick")))
        self.assertEqual(rc, 1)
        self.assertIn("leaves no workload to run", err)


if __name__ == "__main__":
    unittest.main()

