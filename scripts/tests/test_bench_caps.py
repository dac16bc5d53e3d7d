# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the per-configuration caps and the layout A/A's own
relinks in make bench's plan (bench/hcreport/plan.py, jobs.py): a
configuration boots the modes and rounds its line of bench/configs.tsv
allows (modes icount: real icount boots of its mem boot in every icount
round, no cachesim boot; rounds N: its rounds 1 to N in every mode), and
the layout A/A boots the base's kernel relinked at pads drawn under its
own name.  The default run's boots, counted.  No kernel, no boot."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from hcreport import configs, draws  # noqa: E402
from test_bench_plan import POINTS, boots, write  # noqa: E402

BASE, LAYOUT = configs.role("base"), configs.role("layout")
# the default run (the programs suite: no previous run)
DEFAULT = dict(RUN_SEED="7", PREVIOUS_PLAN="/nonexistent/plan")


def capped(mode):
    """the table's configurations of the default set that a mode or the
    rounds column leaves out of some round"""
    return [r for r in configs.table() if "default" in configs.sets_of(r) and
            (r["rounds"] != "-" or not configs.boots_in(r, mode))]


class Caps(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.files = write(**DEFAULT)
        cls.boots = boots(cls.files)

    def rounds(self, name, mode):
        return sorted({r for (m, n, r, _) in self.boots if (m, n) == (mode, name)})

    def test_the_table_caps_something(self):
        # (else the tests below test nothing)
        self.assertTrue(capped("cachesim"))
        self.assertTrue([r for r in configs.table() if r["rounds"] != "-" and
                         "default" in configs.sets_of(r)])
        self.assertTrue([r for r in configs.table() if r["modes"] == "icount" and
                         "default" in configs.sets_of(r)])

    def test_a_configuration_of_fewer_rounds_boots_its_first_rounds(self):
        for r in configs.table():
            if "default" not in configs.sets_of(r) or r["rounds"] == "-":
                continue
            with self.subTest(config=r["name"]):
                # its cachesim boots: its first rounds' (its icount rows
                # derived from them: no icount boot, which would be
                # beyond DET_ROUNDS)
                self.assertEqual(self.rounds(r["name"], "cachesim"),
                                 list(range(1, int(r["rounds"]) + 1)))
                self.assertEqual(self.rounds(r["name"], "icount"), [])
                self.assertEqual({k[3] for k in self.boots if k[1] == r["name"]},
                                 {"mem", "2cpu"})
        # the base: every round, to 6 and 10
        self.assertEqual(self.rounds(BASE, "cachesim"), list(range(1, 7)))
        self.assertEqual(self.rounds(BASE, "icount"), [1] + list(range(7, 11)))

    def test_a_configuration_of_icount_alone_boots_its_mem_boot_each_round(self):
        for r in configs.table():
            if "default" not in configs.sets_of(r) or r["modes"] != "icount":
                continue
            mine = sorted(k for k in self.boots if k[1] == r["name"])
            self.assertEqual(mine, [("icount", r["name"], n, "mem") for n in range(1, 11)])

    def test_the_rounds_beyond_det_rounds_stop_at_the_cap(self):
        b = boots(write(**dict(DEFAULT, DET_ROUNDS="2", ICOUNT_ROUNDS="5")))
        caps = [r for r in capped("cachesim") if r["rounds"] != "-"]
        for r in caps:
            n = int(r["rounds"])
            self.assertEqual(sorted(k[2] for k in b if k[:2] == ("icount", r["name"])),
                             list(range(3, n + 1)))

    def test_a_run_without_icount_leaves_icount_alone_out(self):
        from hcreport import plan
        p = plan.Plan(dict(DEFAULT, MODES="cachesim"))
        alone = [r["name"] for r in configs.table() if r["modes"] == "icount"]
        self.assertTrue(alone)
        self.assertFalse(set(alone) & set(p.configs), p.configs)
        self.assertTrue(any(", ".join(alone) in n and "MODES=cachesim" in n for n in p.s.notes),
                        p.s.notes)

    def test_the_default_runs_boots(self):
        """per configuration and mode: docs/bench.md's budget counts them"""
        count = {}
        for (mode, name, _, _) in self.boots:
            count["%s %s" % (name, mode)] = count.get("%s %s" % (name, mode), 0) + 1
        self.assertEqual(count, {
            "vanilla cachesim": 15, "vanilla icount": 7, "vanilla-repeat cachesim": 2,
            "hotcold cachesim": 15, "hotcold icount": 4, "hotcold-off cachesim": 12,
            "hotcold-off icount": 4, "single cachesim": 15, "single icount": 4,
            "nopcp cachesim": 6, "vanilla-b cachesim": 12, "vanilla-b icount": 4,
            "power icount": 10, "vanilla resid": 1, "hotcold resid": 1, "single resid": 1})


class LayoutAA(unittest.TestCase):
    """the layout A/A: the base's kernel, relinked under its own name"""

    @classmethod
    def setUpClass(cls):
        cls.files = write(**DEFAULT)
        cls.boots = boots(cls.files)
        cls.row = configs.row(LAYOUT)

    def test_it_boots_the_bases_kernel(self):
        self.assertEqual(self.row["kernel"], configs.row(BASE)["kernel"])
        self.assertIn("default", configs.sets_of(self.row))

    def test_its_relinks_are_its_own(self):
        mine = {k: kv for k, (kv, _) in self.boots.items() if k[1] == LAYOUT}
        self.assertTrue(mine)
        for (mode, _, r, part), kv in mine.items():
            with self.subTest(mode=mode, round=r, boot=part):
                base = self.boots[(mode, BASE, r, part)][0]
                self.assertEqual((kv["kernel"], kv["layout"]), (self.row["kernel"], LAYOUT))
                self.assertEqual(kv["image"], "rounds/%s-%d" % (LAYOUT, r))
                self.assertEqual(kv["pad"].replace("/", " "),
                                 draws.pads("7", LAYOUT, r, POINTS.split()))
                self.assertNotEqual(kv["pad"], base["pad"])
                # the round's seed and workload order: the base's
                self.assertEqual((kv["seed"], kv["workloads"]), (base["seed"], base["workloads"]))
        rows = [x.split("\t") for x in self.files["layouts.tsv"][1:]]
        self.assertEqual([(k, f, int(r)) for k, f, r, _ in rows if k == LAYOUT],
                         [(LAYOUT, self.row["kernel"], r) for r in range(1, 11)])
        self.assertEqual(len([1 for k, _, _, _ in rows if k == BASE]), 10)

    def test_distro(self):
        files = write(**dict(DEFAULT, CONFIG_BASE="distro"))
        images = {kv["image"] for (_, n, r, _), (kv, _) in boots(files).items() if n == LAYOUT}
        self.assertEqual(images, {"rounds/%s-distro-%d" % (LAYOUT, r) for r in range(1, 11)})

    def test_bench_boot_takes_its_lines(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "jobs"), "w") as f:
                f.write("".join(x + "\n" for x in self.files["jobs"]))
            with open(os.path.join(d, "plan.sh"), "w") as f:
                f.write("".join(x + "\n" for x in self.files["plan.sh"]))
            p = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench-boot.sh"), "--check", d,
                                os.path.join(d, "jobs")],
                               env=dict(PATH=os.environ["PATH"], BUILD=os.path.join(d, "b")),
                               capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(p.stdout.splitlines()), len(self.files["jobs"]))


if __name__ == "__main__":
    unittest.main()
