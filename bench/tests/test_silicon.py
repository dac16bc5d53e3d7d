# SPDX-License-Identifier: GPL-2.0
"""Unit tests for the silicon check: bench/replay's arguments and
determinism (built with gcc, run small), the refusal to time on a busy
host (a planted /proc/loadavg and /proc/stat), and the table's arithmetic
on fixed inputs (bench/hcreport/silicon.py)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)
from hcreport import silicon as si  # noqa: E402
from hcreport.stats import Interval  # noqa: E402

SRC = os.path.join(BENCH, "replay", "replay.c")
# a small replay: a 4 MB page cache, 60 iterations of 8 cold pages
SMALL = ["--cache-mb", "4", "--iters", "50", "--warm", "10", "--ws", "16"]


@unittest.skipUnless(shutil.which("gcc"), "no gcc")
class Replay(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.exe = os.path.join(cls.dir.name, "replay")
        subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", cls.exe, SRC],
                       check=True)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def run_replay(self, *args):
        return subprocess.run([self.exe] + list(args), capture_output=True, text=True, timeout=20)

    def replay(self, *args):
        p = self.run_replay(*(list(args) + SMALL))
        self.assertEqual(p.returncode, 0, p.stderr)
        return si.parse_replay(p.stdout)

    def test_bad_arguments_are_named_and_nothing_runs(self):
        for args, named in ((["--side", "middle"], "--side middle: expected head or tail"),
                            (["--order", "random"], "--order random: expected addr or scatter"),
                            (["--map", "1g"], "--map 1g: expected 4k or 2m"),
                            (["--iters", "0"], "--iters 0: expected a whole number from 1"),
                            (["--evict", "8x"], "--evict 8x: expected a whole number"),
                            (["--seed"], "--seed (missing)"),
                            (["--fast"], "unknown argument --fast"),
                            (["--cache-mb", "1", "--iters", "1000"],
                             "--cache-mb 1: expected at least (iters + warm) * evict pages")):
            with self.subTest(args=args):
                p = self.run_replay(*args)
                self.assertEqual(p.returncode, 2)
                self.assertEqual(p.stdout, "")
                self.assertIn("replay: " + named, p.stderr)
                self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)

    def test_the_arguments_are_what_it_ran(self):
        r = self.replay("--side", "tail", "--order", "scatter", "--read", "--seed", "7")
        self.assertEqual((r["side"], r["order"], r["read"], r["seed"], r["iters"], r["cache_mb"]),
                         ("tail", "scatter", 1, 7, 50, 4))

    def test_head_clears_the_cold_pages_and_tail_none(self):
        head, tail = self.replay("--side", "head"), self.replay("--side", "tail")
        self.assertEqual((head["cleared"], head["cold"]), (50 * 32, 50 * 8))
        self.assertEqual((tail["cleared"], tail["cold"]), (50 * 32, 0))

    def test_the_same_seed_makes_the_same_accesses(self):
        for order in ("addr", "scatter"):
            with self.subTest(order=order):
                a = self.replay("--order", order, "--seed", "3")
                b = self.replay("--order", order, "--seed", "3")
                self.assertEqual((a["trace"], a["cleared"], a["cold"]),
                                 (b["trace"], b["cleared"], b["cold"]))

    def test_another_seed_scatters_other_pages(self):
        a = self.replay("--order", "scatter", "--seed", "3")
        b = self.replay("--order", "scatter", "--seed", "4")
        self.assertNotEqual(a["trace"], b["trace"])
        self.assertEqual(a["cold"], b["cold"])


class Refusal(unittest.TestCase):

    def loadavg(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix="loadavg", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_a_busy_load_average_is_refused_and_named(self):
        path = self.loadavg("2.37 1.90 1.10 3/140 4242\n")
        why = si.load_refusal(path)
        self.assertIn("2.37", why)
        self.assertIn(path, why)

    def test_a_quiet_load_average_is_not(self):
        self.assertIsNone(si.load_refusal(self.loadavg("0.08 0.20 0.30 1/120 4242\n")))

    def test_busy_cpus_between_rounds_are_refused(self):
        # (busy, total) jiffies: 60 of 100 busy, then 5 of 100
        self.assertIn("60 %", si.busy_refusal((1000, 5000), (1060, 5100)))
        self.assertIsNone(si.busy_refusal((1000, 5000), (1005, 5100)))

    def check(self, load, *args):
        """bench/silicon.py run on a planted load average: its stderr,
        after checking that it failed and wrote nothing"""
        with tempfile.TemporaryDirectory() as d:
            build, out = os.path.join(d, "build"), os.path.join(d, "out")
            os.makedirs(os.path.join(build, "cachesim"))
            os.makedirs(out)
            open(os.path.join(build, "cachesim", "cachesim.so"), "w").close()
            p = subprocess.run([sys.executable, os.path.join(BENCH, "silicon.py"), "run", out,
                                "--loadavg", self.loadavg(load)] + list(args),
                               capture_output=True, text=True, timeout=20,
                               env=dict(os.environ, BUILD=build))
            self.assertEqual(p.returncode, 1)
            self.assertEqual(os.listdir(out), [])
            return p.stderr

    @unittest.skipUnless(shutil.which("gcc") and shutil.which("qemu-x86_64"),
                         "no gcc or qemu-x86_64")
    def test_the_check_refuses_before_writing_anything(self):
        self.assertIn("load average is 3.50", self.check("3.50 2.00 1.00 3/140 4242\n"))
        # (make bench's wait: the load never falls)
        err = self.check("3.50 2.00 1.00 3/140 4242\n", "--wait", "1")
        self.assertIn("silicon.py: waiting for a quiet host (0 of at most 1 s)", err)
        self.assertIn("load average is 3.50 (", err)
        self.assertIn("still so after waiting 1 s (at most 1) for the host to get quiet", err)
        self.assertIn("--wait -1: expected seconds, 0 or more",
                      self.check("0.01 0.01 0.01 1/140 4242\n", "--wait", "-1"))
        self.assertIn("--rounds 1: expected at least 2",
                      self.check("0.01 0.01 0.01 1/140 4242\n", "--rounds", "1"))
        # (the planted plugin is an empty file: it does not load)
        self.assertIn("the cache model does not load with --sim-args l1size=32768",
                      self.check("0.01 0.01 0.01 1/140 4242\n", "--sim-args", "l1size=32768"))


class Wait(unittest.TestCase):
    """make bench's wait for a quiet host: a stand-in load source (one
    reading per call) and a clock the stand-in sleep moves"""

    def wait(self, loads, timeout, step=15):
        clock, said, left = [0.0], [], list(loads)

        def refusal():
            return si.load_refusal(self.loadavg(left.pop(0) if len(left) > 1 else left[0]))
        why = si.wait_quiet(refusal, timeout, step, sleep=lambda s: clock.__setitem__(
            0, clock[0] + s), clock=lambda: clock[0], say=said.append)
        return why, clock[0], said

    def loadavg(self, load):
        f = tempfile.NamedTemporaryFile("w", suffix="loadavg", delete=False)
        f.write("%.2f 1.00 1.00 1/140 4242\n" % load)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_a_quiet_host_is_not_waited_for(self):
        self.assertEqual(self.wait([0.2], 600), (None, 0.0, []))

    def test_it_waits_until_the_load_falls(self):
        why, waited, said = self.wait([2.0, 1.4, 0.9, 0.45], 600)
        self.assertIsNone(why)
        self.assertEqual(waited, 45)
        self.assertEqual(len(said), 3)
        self.assertIn("waiting for a quiet host (30 of at most 600 s): host busy: the 1-minute "
                      "load average is 0.90", said[2])

    def test_it_gives_up_at_the_timeout_naming_the_cause(self):
        why, waited, said = self.wait([1.2], 100, step=30)
        self.assertEqual(waited, 100)
        self.assertEqual(len(said), 4)
        self.assertIn("the 1-minute load average is 1.20", why)
        self.assertIn("above 0.50: another job is running; still so after waiting 100 s (at "
                      "most 100)", why)

    def test_no_wait_refuses_at_once(self):
        why, waited, said = self.wait([0.8], 0)
        self.assertIn("load average is 0.80", why)
        self.assertEqual((waited, said), (0.0, []))


class Section(unittest.TestCase):
    """report.md's section: the table as written, NOT RUN when the plan
    asked for it and it is missing, a note when the run did not ask"""

    def test_the_table_is_printed_as_written(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, si.TABLE), "w") as f:
                f.write("host CPU: AMD EPYC, family 26 model 2\naddr/4k/store 0.700\n")
            lines, not_run = si.section(d, True)
        self.assertEqual(not_run, [])
        self.assertEqual(lines[0], si.HEAD)
        self.assertEqual(lines[lines.index("```") + 1:-2],
                         ["host CPU: AMD EPYC, family 26 model 2", "addr/4k/store 0.700"])

    def test_asked_and_missing_is_not_run(self):
        with tempfile.TemporaryDirectory() as d:
            lines, not_run = si.section(d, True)
        self.assertEqual(lines[0], si.HEAD + ": NOT RUN")
        self.assertEqual(len(not_run), 1)
        self.assertIn("no silicon.txt: bench/silicon.py did not finish", not_run[0])

    def test_not_asked_is_not_in_this_run(self):
        with tempfile.TemporaryDirectory() as d:
            for asked, why in ((False, "SILICON=0"), (None, "a run from before make bench ran it")):
                lines, not_run = si.section(d, asked)
                self.assertEqual((lines[0], not_run), (si.HEAD + ": not in this run (%s)" % why,
                                                       []))


# a page cache's cold page (64 lines from DRAM) against none, at round prices
PRICES = {"l2": 12.0, "l3": 46.0, "dram": 315.0, "xfer": 80.0, "line_l3": 2.0,
          "line_dram": 8.75, "ghz": 3.5}
BASE = {"insn": 1000.0, "l1m": 0.0, "l2m": 0.0, "l3m": 0.0, "mem": 0.0, "xfer": 0.0,
        "xxfer": 0.0, "xl1m": 0.0, "xl2m": 0.0, "xl3m": 0.0, "levels": 3}
COLDPAGE = dict(BASE, **{k: 64.0 for k in ("l1m", "l2m", "l3m", "mem", "xl1m", "xl2m", "xl3m")})
# one 4 KB variant timed as the line pricing has it at 3.5 GHz: 446 ns
# against 286 (1560 and 1000 cycles), tail/head about 0.64
ROUNDS = {0: {"head": 446.0, "tail": 286.0}, 1: {"head": 460.0, "tail": 300.0},
          2: {"head": 430.0, "tail": 280.0}, 3: {"head": 450.0, "tail": 285.0},
          4: {"head": 440.0, "tail": 290.0}, 5: {"head": 445.0, "tail": 283.0}}
V = ("addr", "4k", 0)


class Table(unittest.TestCase):

    def test_each_pricing_predicts_from_the_report_price(self):
        p = si.predicted(COLDPAGE, BASE, PRICES, 1)
        # RFO: 1000 against 1000 + 64 * 315; line: against 1000 + 64 * 8.75
        self.assertAlmostEqual(p["cost"][0], 1000 / 21160)
        self.assertAlmostEqual(p["cost_line"][0], 1000 / 1560)
        self.assertAlmostEqual(p["cost"][1], 64 * 90)
        self.assertAlmostEqual(p["cost_line"][1], 160)

    def test_the_line_pricing_is_inside_and_rfo_is_not(self):
        rs = si.rows({V: ROUNDS}, {V: (COLDPAGE, BASE)}, PRICES, 1)
        self.assertEqual(len(rs), 1)
        name, iv, _, per_cold, _, ins, ins_cold = rs[0]
        self.assertEqual(name, "addr/4k/store")
        self.assertEqual(iv.n, 6)
        self.assertLess(iv.lo, 1000 / 1560)
        self.assertGreater(iv.hi, 1000 / 1560)
        self.assertEqual(ins, ["cost_line"])
        self.assertEqual(ins_cold, ["cost_line"])
        self.assertLess(per_cold[0], per_cold[1])
        text = "\n".join(si.table(rs, "AMD EPYC, family 26 model 2"))
        self.assertIn("host CPU: AMD EPYC, family 26 model 2", text)
        self.assertIn("verdict, ratio: cycles, line inside the native interval in every variant",
                      text)
        self.assertNotIn("not a measurement", text)

    def test_a_busy_host_marks_the_table(self):
        rs = si.rows({V: ROUNDS}, {V: (COLDPAGE, BASE)}, PRICES, 1)
        self.assertIn("*** host busy: load 2.5: not a measurement ***",
                      si.table(rs, "cpu", "host busy: load 2.5"))

    def test_no_interval_no_verdict(self):
        self.assertFalse(si.inside(Interval(1, 0.65, None, None, "1 round"), 0.65))
        self.assertEqual(si.verdict([]), "verdict: none (0 rounds; a verdict needs at least 6)")
        few = {r: ROUNDS[r] for r in range(5)}
        rs = si.rows({V: few}, {V: (COLDPAGE, BASE)}, PRICES, 1)
        self.assertEqual(si.verdict(rs), "verdict: none (5 rounds; a verdict needs at least 6)")

    def test_the_plugin_counts_per_iteration(self):
        keys = ["insn", "acc", "l1m", "l2m", "l3m", "xfer", "xxfer", "xl1m", "xl2m", "xl3m"]
        rec = " ".join("%s_%s=%d" % (k, m, 10 if m == "u" else 0) for k in keys for m in "ku")
        m = si.model_metrics("config sim=1 levels=3 user=1\nphase=1 vcpu=0 " + rec +
                             "\nend phases=1\n", 5)
        self.assertEqual((m["insn"], m["xl3m"], m["mem"], m["levels"]), (2.0, 2.0, 2.0, 3))

    def test_the_rep_string_stores_counts_are_read(self):
        keys = ["insn", "acc", "l1m", "l2m", "l3m", "xfer", "xxfer", "xl1m", "xl2m", "xl3m"]
        rec = " ".join("%s_%s=%d" % (k, m, 10 if m == "u" else 0) for k in keys for m in "ku")
        text = "config sim=1 levels=3 user=1\nphase=1 vcpu=0 %s%s\nend phases=1\n"
        m = si.model_metrics(text % (rec, " xrep_k=0 xline_k=0 xrep_u=4097 xline_u=64"), 1)
        self.assertEqual((m["xrep"], m["xline"]), (4097, 64))
        # a plugin from before them: None, priced as before
        m = si.model_metrics(text % (rec, ""), 1)
        self.assertEqual((m["xrep"], m["xline"]), (None, None))

    def test_the_line_pricing_prices_a_clear_per_line(self):
        # 32 pages cleared by rep stosb in each side (4097 passes and 64
        # lines each), 8 of them cold at the head: the line pricing's base
        # loses 32 x (4097 - 128) cycles, the cold pages' price stays
        clears = {"xrep": 32 * 4097.0, "xline": 32 * 64.0}
        head = dict(COLDPAGE, insn=BASE["insn"] + clears["xrep"], **clears)
        tail = dict(BASE, insn=BASE["insn"] + clears["xrep"], **clears)
        old = si.predicted(dict(head, xline=None), dict(tail, xline=None), PRICES, 1)
        new = si.predicted(head, tail, dict(PRICES, rep_line=2.0), 1)
        base = BASE["insn"] + 32 * 128
        self.assertAlmostEqual(new["cost_line"][0], base / (base + 64 * 8.75))
        self.assertLess(new["cost_line"][0], old["cost_line"][0])
        self.assertAlmostEqual(new["cost_line"][1], old["cost_line"][1])
        self.assertEqual(new["cost"], old["cost"])

    def native_csv(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_an_earlier_runs_timings_are_read(self):
        rows = ["%s,%d,%s,%.1f,%s,0" % (si.variant_name(v), r, side, 100.0 + r, v[1], )
                for r in range(2) for v in si.VARIANTS for side in ("head", "tail")]
        path = self.native_csv("\n".join([",".join(si.NATIVE)] + rows) + "\n")
        res, got = si.read_native(path)
        self.assertEqual(res[V], {0: {"head": 100.0, "tail": 100.0},
                                  1: {"head": 101.0, "tail": 101.0}})
        self.assertEqual(len(got), len(rows))
        for text, says in (
                ("variant,round\n", ":1: header variant,round, expected variant,round,side"),
                ("\n".join([",".join(si.NATIVE)] + rows[:-1]) + "\n",
                 "no head and tail for scatter/2m/store+read round 1"),
                ("\n".join([",".join(si.NATIVE)] + rows + ["addr/1g/store,0,head,1,4k,0"]),
                 ":%d: not a timing of bench/silicon.py: addr/1g/store" % (len(rows) + 2))):
            with self.subTest(says=says):
                with self.assertRaises(si.InputError) as e:
                    si.read_native(self.native_csv(text))
                self.assertIn(says, str(e.exception))

    def test_the_host_cpu_is_read(self):
        with tempfile.NamedTemporaryFile("w") as f:
            f.write("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n"
                    "model name\t: AMD EPYC 7763 64-Core Processor\n\nprocessor\t: 1\n")
            f.flush()
            self.assertEqual(si.host_cpu(f.name),
                             "AMD EPYC 7763 64-Core Processor, family 25 model 1")


if __name__ == "__main__":
    unittest.main()
