# SPDX-License-Identifier: GPL-2.0
"""Unit tests for the residency meter's report side (bench/hcreport/residency.py):
a meter boot's guest output and plugin lines turned into resid.csv rows,
the rows read back, and report.md's section (the per-rule table, the
per-workload table, the plant's check).  The fixtures are written per
case.  The meter's facts that live in C (the rules' order, the markers'
magics) are checked against their one place each."""
import contextlib
import csv
import io
import os
import re
import sys
import tempfile
import unittest
from unittest import mock

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)

from hcreport import residency  # noqa: E402
from hcreport.ingest import InputError  # noqa: E402

CONFIG = ("config sim=1 phases=1 levels=3 l1size=32768 l1ways=8 l2size=524288 l2ways=0 "
          "l3size=33554432 l3ways=0 line=64 strfill=1 vcpus=1 calls=8 coherence=0 user=0\n")
# the plant (class 9: plant, cold) and its page's own free (class 0:
# default, hot), then reclaim_flood (reclaim: 200 pages cold, 10 % of
# their lines cached; 10 hot, all cached) and exit_flood (exit: 1000
# cold, 10 % cached; 50 hot, half cached), and default frees in each
PHASES = CONFIG + """phase=1 vcpu=0 insn_k=10 insn_u=0
resid phase=1 vcpu=0 class=0 pages=1 l1=64 l2=64 l3=64 any=64
resid phase=1 vcpu=0 class=9 pages=1 l1=64 l2=64 l3=64 any=64
host phase=1 at_ms=1 ms=1
phase=2 vcpu=0 insn_k=10 insn_u=10
resid phase=2 vcpu=0 class=0 pages=100 l1=640 l2=1280 l3=3200 any=3300
resid phase=2 vcpu=0 class=2 pages=10 l1=64 l2=128 l3=640 any=640
resid phase=2 vcpu=0 class=3 pages=200 l1=0 l2=10 l3=1280 any=1280
host phase=2 at_ms=2 ms=1
phase=3 vcpu=0 insn_k=10 insn_u=10
resid phase=3 vcpu=0 class=4 pages=50 l1=0 l2=0 l3=1600 any=1600
resid phase=3 vcpu=0 class=5 pages=1000 l1=0 l2=0 l3=6400 any=6400
host phase=3 at_ms=3 ms=1
host total_ms=3 phases_ms=3
end phases=3
"""
JOBOUT = """hotcold-info kernel=6.12 vcpus=1 switch=1
hotcold-phase resid_plant ops=1 cpu=0
hotcold-result reclaim_flood pages_per_s=100
hotcold-phase reclaim_flood ops=100 cpu=0
hotcold-result exit_flood pages_per_s=100
hotcold-phase exit_flood ops=100 cpu=0
"""


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def rows_of(config="hotcold", phases=PHASES, jobout=JOBOUT):
    """resid-rows on the fixture: (exit status, rows as lists, stderr)"""
    with tempfile.TemporaryDirectory() as d:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = residency.rows(config, "1", write(d, "job.out", jobout),
                                write(d, "p.phases", phases), out)
    return rc, list(csv.reader(io.StringIO(out.getvalue()))), err.getvalue()


def vanilla_phases():
    """PHASES as vanilla makes them: every page of the rules hot"""
    return re.sub(r"class=([35]) ", lambda m: "class=%d " % (int(m.group(1)) - 1),
                  PHASES.replace("class=2 pages=10 ", "class=2 pages=7 ")
                  .replace("class=4 pages=50 ", "class=4 pages=9 "))


class Rows(unittest.TestCase):

    def test_each_workload_rule_and_label_a_row(self):
        rc, rows, err = rows_of()
        self.assertEqual(rc, 0, err)
        self.assertEqual(rows, [
            ["resid_plant", "hotcold", "1", "default", "hot", "1", "64", "64", "64", "64",
             "64", "3"],
            ["resid_plant", "hotcold", "1", "plant", "cold", "1", "64", "64", "64", "64", "64",
             "3"],
            ["reclaim_flood", "hotcold", "1", "default", "hot", "100", "6400", "640", "1280",
             "3200", "3300", "3"],
            ["reclaim_flood", "hotcold", "1", "reclaim", "cold", "200", "12800", "0", "10",
             "1280", "1280", "3"],
            ["reclaim_flood", "hotcold", "1", "reclaim", "hot", "10", "640", "64", "128", "640",
             "640", "3"],
            ["exit_flood", "hotcold", "1", "exit", "cold", "1000", "64000", "0", "0", "6400",
             "6400", "3"],
            ["exit_flood", "hotcold", "1", "exit", "hot", "50", "3200", "0", "0", "1600",
             "1600", "3"]])

    def test_vcpus_summed(self):
        two = PHASES.replace("resid phase=3 vcpu=0 class=5 pages=1000 l1=0 l2=0 l3=6400 "
                             "any=6400\n", "resid phase=3 vcpu=0 class=5 pages=1000 l1=0 l2=0 "
                             "l3=6400 any=6400\nresid phase=3 vcpu=1 class=5 pages=24 l1=1 "
                             "l2=2 l3=3 any=4\n")
        rc, rows, err = rows_of(phases=two)
        self.assertEqual(rc, 0, err)
        self.assertIn(["exit_flood", "hotcold", "1", "exit", "cold", "1024", "65536", "1", "2",
                       "6403", "6404", "3"], rows)

    def test_lost_markers_fail_beyond_a_few(self):
        # phase 2 counted 310 pages: none may be lost; phase 3, 1050: one
        rc, _, err = rows_of(phases=PHASES.replace("host phase=2", "resid phase=2 vcpu=0 "
                                                   "lost=1\nhost phase=2"))
        self.assertEqual(rc, 1)
        self.assertIn("phase 2: 1 page markers lost of 310 pages", err)
        rc, rows, err = rows_of(phases=PHASES.replace("host phase=3", "resid phase=3 vcpu=0 "
                                                      "lost=1\nhost phase=3"))
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(rows), 7)

    def test_unlabelled_batch_pages_fail(self):
        rc, _, err = rows_of(phases=PHASES.replace("host phase=3", "resid phase=3 vcpu=0 "
                                                   "unlabelled=2\nhost phase=3"))
        self.assertEqual(rc, 1)
        self.assertIn("phase 3: 2 batch pages without a label", err)

    def test_a_class_no_rule_gives_fails(self):
        rc, _, err = rows_of(phases=PHASES.replace("class=4 ", "class=10 "))
        self.assertEqual(rc, 1)
        self.assertIn("class 10, which no rule", err)

    def test_phases_that_do_not_match_fail(self):
        rc, _, err = rows_of(jobout=JOBOUT + "hotcold-phase web ops=1 cpu=0\n")
        self.assertEqual(rc, 1)
        self.assertIn("4 phases in the guest output, 3 in", err)

    def test_no_plant_counted_fails(self):
        rc, _, err = rows_of(phases=PHASES.replace("class=9 ", "class=8 "))
        self.assertEqual(rc, 1)
        self.assertIn("no planted page counted", err)

    def test_no_model_line_fails(self):
        rc, _, err = rows_of(phases=PHASES.replace(CONFIG, ""))
        self.assertEqual(rc, 1)
        self.assertIn("no config line", err)

    def test_a_swap_of_hot_and_cold_is_caught(self):
        # the plant of the report's side: its labels swapped, the plant's
        # page reads hot and the boot's rows are refused
        with mock.patch.object(residency, "LABELS", ("cold", "hot")):
            rc, _, err = rows_of()
        self.assertEqual(rc, 1)
        self.assertIn("no planted page counted", err)


class Section(unittest.TestCase):

    def run_dir(self, configs=("vanilla", "hotcold"), plant_any=64, extra=""):
        """a run's directory with resid.csv from the fixture's meter boots"""
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        lines = [residency.header()]
        for c in configs:
            phases = vanilla_phases() if c == "vanilla" else PHASES
            phases = phases.replace("class=9 pages=1 l1=64 l2=64 l3=64 any=64",
                                    "class=9 pages=1 l1=0 l2=0 l3=%d any=%d" %
                                    (plant_any, plant_any))
            rc, rows, err = rows_of(c, phases)
            self.assertEqual(rc, 0, err)
            lines += [",".join(r) for r in rows]
        write(self.tmp.name, "resid.csv", "\n".join(lines) + "\n" + extra)
        return self.tmp.name

    def section(self, d, want=("vanilla", "hotcold")):
        return residency.section(d, {"residency": list(want)})

    def test_the_rules_table(self):
        lines, bad = self.section(self.run_dir())
        self.assertEqual(bad, [])
        text = "\n".join(lines)
        self.assertIn("## residency: shares of lines still cached at a cold/hot free, per rule",
                      text)
        # hotcold's reclaim: 200 cold, 1280 of 12800 lines cached (10 %,
        # L2 10 of 12800); 10 hot, all 640 lines cached (0 % not)
        self.assertIn("| reclaim | hotcold | 200 | 0.0 % / 0.1 % / 10.0 % / 10.0 % | 10 | 0.0 % |",
                      text)
        # vanilla frees the same pages hot: 207 hot, 1920 of 13248 cached
        self.assertIn("| reclaim | vanilla | - | - | 207 | 85.5 % |", text)
        self.assertIn("| exit | hotcold | 1000 | 0.0 % / 0.0 % / 10.0 % / 10.0 % | 50 | 50.0 % |",
                      text)
        self.assertIn("| default | hotcold | - | - | 100 | 48.4 % |", text)
        # the plant's rows are not a rule's
        self.assertNotIn("| plant |", text)

    def test_the_per_workload_table(self):
        text = "\n".join(self.section(self.run_dir())[0])
        self.assertIn("| workload | rule | vanilla | hotcold |", text)
        self.assertIn("| reclaim_flood | reclaim | 207 hot, 85.5 % not cached | 200 cold, "
                      "10.0 % cached; 10 hot, 0.0 % not cached |", text)
        self.assertIn("| exit_flood | exit | 1009 hot, 87.6 % not cached | 1000 cold, 10.0 % "
                      "cached; 50 hot, 50.0 % not cached |", text)
        self.assertNotIn("| resid_plant |", text)

    def test_the_plant_read_as_wrong(self):
        text = "\n".join(self.section(self.run_dir())[0])
        self.assertIn("must read at least 90 % cached: hotcold 100.0 % of 64; vanilla 100.0 % "
                      "of 64.", text)

    def test_a_plant_not_read_as_wrong_fails_the_report(self):
        lines, bad = self.section(self.run_dir(plant_any=40))
        self.assertEqual(len(bad), 2, bad)
        self.assertTrue(bad[0].startswith("FAILED: residency meter: the plant's just-written "
                                          "page, labelled cold, had 62.5 % of its lines "
                                          "cached in hotcold's meter boot"), bad)
        self.assertIn("**FAILED**", "\n".join(lines))

    def test_a_configuration_without_rows_is_not_run(self):
        lines, bad = self.section(self.run_dir(configs=("vanilla",)))
        self.assertEqual(bad, ["residency meter: no rows in resid.csv for hotcold"])
        self.assertIn("NOT RUN", "\n".join(lines))

    def test_no_resid_csv_is_not_run(self):
        with tempfile.TemporaryDirectory() as d:
            _, bad = self.section(d)
        self.assertEqual(bad, ["residency meter: no rows in resid.csv for vanilla, hotcold"])

    def test_a_plan_without_meter_boots_has_no_section(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(residency.section(d, {"residency": []}), ([], []))

    def test_a_row_that_is_not_the_meters_is_refused(self):
        for extra, why in (("exit_flood,hotcold,1,exit,tepid,1,64,0,0,0,0,3\n", "label"),
                           ("exit_flood,hotcold,1,exit,cold,1,64,0,0,0,65,3\n", "any > lines"),
                           ("exit_flood,hotcold,1,exit,cold,1,64,0,0,0\n", "short"),
                           ("exit_flood,hotcold,x,exit,cold,1,64,0,0,0,0,3\n", "round")):
            with self.subTest(why=why):
                d = self.run_dir(extra=extra)
                with self.assertRaisesRegex(InputError, r"resid\.csv:\d+: not a row of the "
                                            "meter"):
                    residency.load(d)

    def test_a_header_that_is_not_the_meters_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "resid.csv", "workload,config\n")
            with self.assertRaisesRegex(InputError, "resid.csv:1: header"):
                residency.load(d)


class OnePlace(unittest.TestCase):
    """the facts the C side holds, as the report reads them"""

    def read(self, *path):
        with open(os.path.join(BENCH, *path)) as f:
            return f.read()

    def test_the_rules_in_the_modules_order(self):
        enum = re.search(r"enum resid_rule \{(.*?)\};", self.read("module", "resid_rules.h"),
                         re.S).group(1)
        names = [x.strip().lower().replace("resid_", "") for x in enum.split(",")]
        self.assertEqual(tuple(n for n in names if n and n != "nr_rules"), residency.RULES)

    def test_the_markers_the_module_emits_are_the_plugins(self):
        plugin = dict(re.findall(r"#define (RESID_MAGIC_\w+)\s+(0x[0-9a-f]+)u",
                                 self.read("cachesim", "residency.h")))
        module = re.findall(r"\.long (0x[0-9a-f]+)", self.read("module", "hotcold_resid.c"))
        self.assertEqual(sorted(module), sorted(plugin.values()))
        self.assertEqual(len(plugin), 3)

    def test_the_batch_flag_is_the_same_on_both_sides(self):
        flag = r"#define RESID_LABEL_BATCH (\d+)"
        ours = re.findall(flag, self.read("cachesim", "residency.h"))
        theirs = re.findall(flag, self.read("module", "resid_rules.h"))
        self.assertEqual(len(ours), 1)
        self.assertEqual(ours, theirs)
        # (above every class a rule gives)
        self.assertGreaterEqual(int(ours[0]), 2 * len(residency.RULES))


if __name__ == "__main__":
    unittest.main()
