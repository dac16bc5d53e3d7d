# SPDX-License-Identifier: GPL-2.0
"""Unit tests of bench/report.py's saved runs: compare RUN_A RUN_B (two
runs side by side, one table), archive RUN DEST (the files a run's
report is rendered from) and report DEST (rendered from the archive
alone).  The runs are the synthetic ones under bench/tests/data (run-a,
run-b: bench/tests/data/make_runs.py writes them; no kernel ran), copied
to a temporary directory where a case changes them."""
import contextlib
import importlib.util
import io
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
SCRIPT = os.path.join(os.path.dirname(HERE), "report.py")

spec = importlib.util.spec_from_file_location("report_py", SCRIPT)
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)
# (report.py put bench/ on the path)
from hcreport import render as render_mod, runs, stats  # noqa: E402

TABLE_HEAD = "| workload | metric | configuration | run A | run B | B/A |"


def cli(*args, build=None):
    """bench/report.py ARGS: (status, stdout, stderr)"""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if build is not None:
        env["BUILD"] = build
    p = subprocess.run([sys.executable, SCRIPT] + list(args), env=env, capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def quiet(f, *args):
    """f(*args) with its stdout and stderr kept: (result, stdout, stderr)"""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = f(*args)
    return rc, out.getvalue(), err.getvalue()


def render(outdir):
    """report.py report OUTDIR, the charts' gnuplot left out: (status,
    report.md, stderr)"""
    gnuplot = report.charts.gnuplot
    report.charts.gnuplot = lambda script: 0
    try:
        rc, _, err = quiet(report.report, outdir)
    finally:
        report.charts.gnuplot = gnuplot
    with open(os.path.join(outdir, "report.md")) as f:
        return rc, f.read(), err


def rows(out, wl, metric, config):
    """the table's row of WL, METRIC and CONFIG: [A, B, B/A]"""
    hits = [line.split(" | ")[3:] for line in out.splitlines()
            if line.startswith("| %s | %s | %s | " % (wl, metric, config))]
    assert len(hits) == 1, (wl, metric, config, hits)
    return [c.rstrip(" |") for c in hits[0]]


class Fixtures(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.a = self.copy("run-a")
        self.b = self.copy("run-b")

    def tearDown(self):
        self.tmp.cleanup()

    def copy(self, name, as_name=None):
        d = os.path.join(self.tmp.name, as_name or name)
        shutil.copytree(os.path.join(DATA, name), d)
        return d

    def rewrite(self, path, f):
        """path's lines through f (a line, or None to drop it)"""
        with open(path) as fh:
            lines = fh.read().splitlines(True)
        with open(path, "w") as fh:
            fh.writelines(x for x in (f(line) for line in lines) if x is not None)


class CompareRuns(Fixtures):
    def test_two_runs_side_by_side(self):
        rc, out, err = cli("compare", self.a, self.b)
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertIn(TABLE_HEAD, lines)
        # each run named with its plan's stamp and its rows'
        self.assertTrue(lines[0].startswith("- run A: %s: 20000101-fixture, 2000-01-01 00:00 UTC, "
                                            "commit fixture-a" % self.a), lines[0])
        self.assertIn("det.csv rows' stamp: patches=aaaaaaaaaaaa scale=2", lines[0])
        self.assertTrue(lines[1].startswith("- run B: %s: 20000102-fixture" % self.b), lines[1])
        self.assertIn("The runs' det.csv stamps differ", out)
        # vanilla's median in each run, and the change: the same rounds
        self.assertEqual(rows(out, "exit_flood", "simulated L2 misses/op", "vanilla"),
                         ["12 (3)", "12 (3)", "1.0000 [0.924-1.082]"])
        # hotcold's ratio to vanilla in each run, with its interval, and B
        # against A: 0.80 of vanilla where A had 0.90
        a, b, d = rows(out, "exit_flood", "simulated L2 misses/op", "hotcold/vanilla")
        self.assertEqual(a, "0.9002 [0.888-0.913]")
        self.assertEqual(b, "0.8003 [0.790-0.810]")
        self.assertEqual(d, "0.8890 [0.877-0.902]")
        # a configuration unchanged between the runs
        d = rows(out, "pagefault_anon", "simulated L2 misses/op", "hotcold-off/vanilla")[2]
        lo, hi = map(float, d.split("[")[1].rstrip("]").split("-"))
        self.assertTrue(lo <= 1 <= hi, d)
        # the wall rows: ratios of medians, no interval
        self.assertEqual(rows(out, "exit_flood", "wall ops_per_s", "hotcold/vanilla"),
                         ["1.020 [1.020-1.020]", "1.020 [1.020-1.020]",
                          "1.0000 (wall: no interval)"])

    def test_every_metric_of_every_workload(self):
        _, out, _ = cli("compare", self.a, self.b)
        for wl in ("exit_flood", "pagefault_anon"):
            for _, key, name, _ in render_mod.DET_METRICS:
                if key in ("rate", "xfer", "bg_rate", "locks"):
                    # no rate, no transfer, no background, no lock
                    # count in the fixtures: no row
                    self.assertNotIn("| %s | %s |" % (wl, name), out)
                    continue
                for c in ("vanilla", "hotcold/vanilla", "hotcold-off/vanilla"):
                    self.assertEqual(len(rows(out, wl, name, c)), 3)

    def test_runs_by_name_under_build_bench(self):
        build = os.path.join(self.tmp.name, "build")
        os.makedirs(os.path.join(build, "bench"))
        shutil.move(self.a, os.path.join(build, "bench", "20000101-0000-fixture"))
        shutil.move(self.b, os.path.join(build, "bench", "20000102-0000-fixture"))
        os.symlink("20000102-0000-fixture", os.path.join(build, "bench", "latest"))
        rc, out, err = cli("compare", "20000101-0000-fixture", "latest", build=build)
        self.assertEqual(rc, 0, err)
        self.assertEqual(rows(out, "exit_flood", "simulated L2 misses/op", "hotcold/vanilla")[2],
                         "0.8890 [0.877-0.902]")

    def test_one_run_against_vanilla_as_before(self):
        rc, out, err = cli("compare", self.a)
        self.assertEqual(rc, 0, err)
        self.assertNotIn(TABLE_HEAD, out)
        self.assertIn("| workload | metric | rounds | vanilla | vanilla spread | resolvable | "
                      "hotcold/vanilla | hotcold-off/vanilla |", out)
        self.assertIn("| exit_flood | simulated L2 misses/op | 3 | 12 | 3.6 % (3) | +-13.1 % | "
                      "0.9002 [0.888-0.913] |", out)

    def test_a_configuration_only_one_run_has(self):
        self.rewrite(os.path.join(self.b, "det.csv"),
                     lambda line: None if ",hotcold-off," in line else line)
        rc, out, err = cli("compare", self.a, self.b)
        self.assertEqual(rc, 0, err)
        a, b, d = rows(out, "exit_flood", "simulated L2 misses/op", "hotcold-off/vanilla")
        self.assertTrue(a.startswith("1.0001 ["), a)
        self.assertEqual((b, d), ("-", "-"))

    def test_other_cache_models_are_not_compared(self):
        # run B's L2 16-way
        self.rewrite(os.path.join(self.b, "det.csv"),
                     lambda line: line.replace("L2 512K/0w", "L2 512K/16w"))
        rc, out, err = cli("compare", self.a, self.b)
        self.assertEqual(rc, 0, err)
        self.assertIn("The runs simulated different caches", out)
        self.assertNotIn("simulated L2 misses/op", out)
        self.assertIn("| exit_flood | instructions/op | hotcold/vanilla |", out)

    def coherent_2cpu(self, d, xfer):
        """run D's det.csv with the transfer columns (a coherent model),
        pagefault_anon booted with two vCPUs, XFER transfers per row"""
        later = report.ingest.DET_LATER

        def f(line):
            line = line.rstrip("\n")
            if line.startswith("mode,"):
                return line + "," + ",".join(later) + "\n"
            if ",pagefault_anon," in line:
                line = line.replace(",mem,", ",2cpu,", 1)
            x = xfer if line.startswith("cachesim,pagefault_anon,") else 0
            return line + ",%d,0,0\n" % x
        self.rewrite(os.path.join(d, "det.csv"), f)

    def test_a_model_with_coherence_against_one_without(self):
        # run A's det.csv from before coherence (the fixtures'), run B's
        # coherent: its 2-vCPU workload's rows come from another model
        self.rewrite(os.path.join(self.a, "det.csv"),
                     lambda line: line.replace(",mem,", ",2cpu,", 1)
                     if ",pagefault_anon," in line else line)
        self.coherent_2cpu(self.b, 300)
        rc, out, err = cli("compare", self.a, self.b)
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertIn("; no coherence (a det.csv from before it", lines[0])
        self.assertIn("; coherent with two vCPUs (cross-core transfers counted)", lines[1])
        self.assertIn("Run A's cache model has no coherence, run B's has: with one vCPU they "
                      "count alike, but the cachesim rows of the workloads that boot two vCPUs "
                      "(pagefault_anon) come from different models", out)
        # the 2-vCPU workload's cachesim rows marked, the 1-vCPU one's and
        # the icount rows not
        self.assertTrue(rows(out, "pagefault_anon", "simulated L2 misses/op", "vanilla")[2]
                        .endswith(" (models differ: coherence)"))
        self.assertFalse(rows(out, "exit_flood", "simulated L2 misses/op", "vanilla")[2]
                         .endswith(" (models differ: coherence)"))
        self.assertNotIn("coherence", rows(out, "pagefault_anon", "instructions/op",
                                           "vanilla")[2])
        # transfers: none counted in A, counted in B
        a, b, d = rows(out, "pagefault_anon", "simulated cross-core transfers/op", "vanilla")
        self.assertEqual((a, b), ("n/a (no coherence)", "3 (3)"))
        self.assertEqual(d, "- (models differ: coherence)")

    def test_two_coherent_models_compare_as_before(self):
        for d in (self.a, self.b):
            self.coherent_2cpu(d, 300)
        rc, out, err = cli("compare", self.a, self.b)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("models differ", out)
        self.assertNotIn("has no coherence", out)
        self.assertIn("; coherent with two vCPUs", out.splitlines()[0])
        self.assertEqual(rows(out, "pagefault_anon", "simulated cross-core transfers/op",
                              "vanilla")[:2], ["3 (3)", "3 (3)"])

    def test_a_run_without_a_plan_fails(self):
        os.remove(os.path.join(self.b, "plan"))
        rc, out, err = cli("compare", self.a, self.b)
        self.assertEqual(rc, 1)
        self.assertIn("report.py: FAILED: %s: no plan" % os.path.join(self.b, "plan"), err)
        self.assertEqual(out, "")

    def test_runs_without_rows(self):
        for d in (self.a, self.b):
            for f in ("det.csv", "results.csv", "vmstat.csv"):
                os.remove(os.path.join(d, f))
        rc, out, err = cli("compare", self.a, self.b)
        self.assertEqual(rc, 1)
        self.assertIn("no rows to compare", err)

    def test_a_run_against_itself(self):
        rc, out, err = cli("compare", self.a, self.a)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("stamps differ", out)
        changes = [line.split(" | ")[5] for line in out.splitlines()
                   if line.startswith("| ") and not line.startswith(("| workload", "|---"))]
        self.assertTrue(changes)
        self.assertTrue(all(c.startswith("1.0000 ") for c in changes), changes)


class Logs(unittest.TestCase):
    """runs.logs: the per-round logs the change's interval is made of"""

    PER = {"vanilla": {"rounds": {1: {"m": 2.0}, 2: {"m": 0.0}, 3: {"m": 4.0}}},
           "hotcold": {"rounds": {1: {"m": 1.0}, 2: {"m": 0.0}, 3: {"m": 4.0}}},
           "single": {"rounds": {1: {"m": 1.0}, 2: {"m": 1.0}}}}

    def test_ratios_paired_by_round(self):
        # round 2, 0 on both sides: a ratio of 1, as paired_ratio counts it
        self.assertEqual(runs.logs(self.PER, "hotcold", "m"), [math.log(0.5), 0.0, 0.0])

    def test_a_zero_has_no_log(self):
        self.assertIsNone(runs.logs(self.PER, "vanilla", "m"))
        self.assertIsNone(runs.logs(self.PER, "single", "m"))

    def test_no_rounds(self):
        self.assertEqual(runs.logs(self.PER, "nopcp", "m"), [])


class Change(unittest.TestCase):
    """stats.change: run B against run A, Welch's t on the per-round logs"""

    def test_welch_interval(self):
        a = [math.log(x) for x in (1.00, 1.04, 0.97)]
        b = [math.log(x) for x in (0.90, 0.95, 0.88, 0.92)]
        iv = stats.change(a, b)
        d = statistics.mean(b) - statistics.mean(a)
        va, vb = statistics.variance(a) / 3, statistics.variance(b) / 4
        df = (va + vb) ** 2 / (va ** 2 / 2 + vb ** 2 / 3)
        h = stats.t975(int(df)) * math.sqrt(va + vb)
        self.assertAlmostEqual(iv.ratio, math.exp(d))
        self.assertAlmostEqual(iv.lo, math.exp(d - h))
        self.assertAlmostEqual(iv.hi, math.exp(d + h))
        self.assertEqual(stats.verdict(iv), "better")

    def test_one_round_has_no_interval(self):
        iv = stats.change([0.0], [math.log(2), math.log(2.2)])
        self.assertAlmostEqual(iv.ratio, math.sqrt(2 * 2.2))
        self.assertIsNone(iv.lo)
        self.assertEqual(iv.why, "1 round")

    def test_no_value(self):
        self.assertIsNone(stats.change([], [0.0]))


class Archive(Fixtures):
    def run_with_leftovers(self):
        """run A as scripts/bench.sh leaves a run's directory: besides its
        files, the report and charts, each boot's rows and phases, the job
        file and its log (archived), the calibrate binary"""
        for f in ("report.md", "icount.png", "cachesim.png", "ratios.png", "ratios.dat",
                  "cachesim-vanilla-1-mem.csv", "cachesim-vanilla-1-mem.phases",
                  "jobs", "jobs.log", "calibrate"):
            with open(os.path.join(self.a, f), "w") as fh:
                fh.write("leftover\n")
        return self.a

    def test_archive_then_report_from_it_alone(self):
        run = self.run_with_leftovers()
        # the report the run itself renders
        rc0, want, err0 = render(self.copy("run-a", "rendered"))
        self.assertEqual(rc0, 0, err0)
        dest = os.path.join(self.tmp.name, "results", "2000-01-01")
        rc, out, err = cli("archive", run, dest)
        self.assertEqual(rc, 0, err)
        self.assertIn("archived plan, det.csv, results.csv, vmstat.csv, calibrate.txt, jobs, "
                      "jobs.log of", out)
        # (the fixture is older than the runs' own prices.tsv and tables
        # and the silicon check and the residency meter, and has no wall
        # mode's job file)
        kept = [f for f in runs.ARCHIVE if not f.endswith(".tsv") and
                not f.startswith(("wall.", "silicon")) and f != "resid.csv"]
        self.assertEqual(sorted(os.listdir(dest)), sorted(kept))
        for f in kept:
            if f.startswith("jobs"):
                continue
            with open(os.path.join(dest, f)) as x, open(os.path.join(DATA, "run-a", f)) as y:
                self.assertEqual(x.read(), y.read(), f)
        # the run gone, the archive renders the same report
        shutil.rmtree(run)
        rc, got, err = render(dest)
        self.assertEqual(rc, 0, err)
        self.assertEqual(got, want)
        # and compares like the run
        rc, out, err = cli("compare", dest, self.b)
        self.assertEqual(rc, 0, err)
        self.assertEqual(rows(out, "exit_flood", "simulated L2 misses/op", "hotcold/vanilla")[2],
                         "0.8890 [0.877-0.902]")

    def test_a_run_is_priced_with_its_own_table(self):
        """a run's prices.tsv (scripts/bench.sh copies bench/prices.tsv at
        its start) prices its report and its archive's, whatever the
        checkout's table says later"""
        rc, before, err = render(self.copy("run-a", "before"))
        self.assertEqual(rc, 0, err)
        with open(report.ingest.PRICES) as f:
            table = f.read()
        self.assertIn("\nl3\t46\tcycles\t", table)
        with open(os.path.join(self.a, "prices.tsv"), "w") as f:
            f.write(table.replace("\nl3\t46\tcycles\t", "\nl3\t460\tcycles\t"))
        dest = os.path.join(self.tmp.name, "archived")
        rc, out, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 0, err)
        self.assertIn("calibrate.txt, prices.tsv of", out)
        for where in (self.a, dest):
            rc, got, err = render(where)
            self.assertEqual(rc, 0, err)
            self.assertIn("L3 460", got)
            self.assertNotIn("L3 46,", got)
            self.assertNotEqual(got, before)
        self.assertIn("L3 46,", before)

    def test_the_tables_the_run_read_go_with_its_archive(self):
        """scripts/bench.sh copies bench/shapes.tsv, configs.tsv and
        workloads.tsv into the run: the archive keeps them"""
        for t in ("shapes.tsv", "configs.tsv", "workloads.tsv"):
            with open(os.path.join(self.a, t), "w") as f:
                f.write("# %s as the run read it\n" % t)
        dest = os.path.join(self.tmp.name, "archived")
        rc, out, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 0, err)
        for t in ("shapes.tsv", "configs.tsv", "workloads.tsv"):
            with open(os.path.join(dest, t)) as f:
                self.assertEqual(f.read(), "# %s as the run read it\n" % t)

    def test_compare_says_when_the_price_tables_differ(self):
        rc, out, err = cli("compare", self.a, self.b)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("priced with different tables", out)
        with open(report.ingest.PRICES) as f:
            table = f.read()
        with open(os.path.join(self.a, "prices.tsv"), "w") as f:
            f.write(table.replace("\nl3\t46\tcycles\t", "\nl3\t460\tcycles\t"))
        rc, out, err = cli("compare", self.a, self.b)
        self.assertEqual(rc, 0, err)
        self.assertIn("The runs were priced with different tables (A: %s; B: bench/prices.tsv)"
                      % os.path.join(self.a, "prices.tsv"), out)

    def test_a_wall_run_needs_its_wall_files_only(self):
        self.rewrite(os.path.join(self.a, "plan"),
                     lambda line: "modes=wall\n" if line.startswith("modes=") else line)
        for f in ("det.csv", "calibrate.txt"):
            os.remove(os.path.join(self.a, f))
        dest = os.path.join(self.tmp.name, "wall")
        rc, _, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 0, err)
        self.assertEqual(sorted(os.listdir(dest)), ["plan", "results.csv", "vmstat.csv"])
        rc, got, err = render(dest)
        self.assertEqual(rc, 0, err)
        self.assertIn("## wall: timed runs (noise-bound)", got)

    def test_a_run_that_did_not_finish_is_not_archived(self):
        os.remove(os.path.join(self.a, "det.csv"))
        dest = os.path.join(self.tmp.name, "dest")
        rc, out, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 1)
        self.assertIn("%s: no det.csv, which its plan's modes (wall icount cachesim) write"
                      % self.a, err)
        self.assertFalse(os.path.exists(dest))

    def test_a_run_whose_plan_asked_for_the_meter_needs_its_rows(self):
        with open(os.path.join(self.a, "plan"), "a") as f:
            f.write("residency=vanilla hotcold\n")
        dest = os.path.join(self.tmp.name, "dest")
        rc, out, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 1)
        self.assertIn("%s: no resid.csv, which its plan's modes" % self.a, err)
        with open(os.path.join(self.a, "resid.csv"), "w") as f:
            f.write(report.residency.header() + "\n")
        rc, out, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 0, err)
        self.assertIn("resid.csv", os.listdir(dest))

    def test_no_plan_is_not_archived(self):
        os.remove(os.path.join(self.a, "plan"))
        dest = os.path.join(self.tmp.name, "dest")
        rc, _, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 1)
        self.assertIn("FAILED: %s: no plan" % os.path.join(self.a, "plan"), err)
        self.assertFalse(os.path.exists(dest))

    def test_never_over_another(self):
        dest = os.path.join(self.tmp.name, "dest")
        os.makedirs(dest)
        with open(os.path.join(dest, "det.csv"), "w") as f:
            f.write("another run's\n")
        rc, _, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 1)
        self.assertIn("%s: exists and is not an empty directory" % dest, err)
        self.assertEqual(os.listdir(dest), ["det.csv"])
        with open(os.path.join(dest, "det.csv")) as f:
            self.assertEqual(f.read(), "another run's\n")
        # an empty directory is taken
        os.remove(os.path.join(dest, "det.csv"))
        rc, _, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 0, err)


class Silicon(Fixtures):
    """the silicon check in a run (bench/silicon.py run OUTDIR): its table
    in the report, NOT RUN and a failed report when the plan asked for it
    and it is missing, and archived with the run"""

    def asked(self, value="1"):
        with open(os.path.join(self.a, "plan"), "a") as f:
            f.write("silicon=%s\n" % value)

    def check_written(self):
        """run A's silicon check as bench/silicon.py leaves it"""
        os.makedirs(os.path.join(self.a, "silicon"))
        for f, text in (("silicon.txt", "host CPU: AMD EPYC, family 26 model 2\n"
                         "addr/4k/store          0.700 [0.683-0.717]\n"),
                        ("silicon/native.csv", "variant,round,side,ns_per_iter,map,thp_kb\n"),
                        ("silicon/addr-4k-store-head.phases", "config sim=1\n"),
                        ("silicon/replay", "the replay's binary\n")):
            with open(os.path.join(self.a, f), "w") as fh:
                fh.write(text)

    def test_the_report_prints_the_table(self):
        self.asked()
        self.check_written()
        rc, got, err = render(self.a)
        self.assertEqual(rc, 0, err)
        self.assertIn("## The silicon check: the cycle pricings against this host\n", got)
        self.assertIn("```\nhost CPU: AMD EPYC, family 26 model 2\naddr/4k/store          "
                      "0.700 [0.683-0.717]\n```", got)

    def test_asked_and_missing_is_not_run_and_fails_the_report(self):
        self.asked()
        rc, got, err = render(self.a)
        self.assertEqual(rc, 1)
        self.assertIn("## The silicon check: the cycle pricings against this host: NOT RUN", got)
        self.assertIn("report.py: NOT RUN: the silicon check: no silicon.txt", err)

    def test_skipped_or_older_is_said_and_passes(self):
        for value, why in (("0", "SILICON=0"), (None, "a run from before make bench ran it")):
            with self.subTest(value=value):
                a = self.copy("run-a", "run-%s" % value)
                if value is not None:
                    with open(os.path.join(a, "plan"), "a") as f:
                        f.write("silicon=%s\n" % value)
                rc, got, err = render(a)
                self.assertEqual(rc, 0, err)
                self.assertIn("## The silicon check: the cycle pricings against this host: "
                              "not in this run (%s)" % why, got)

    def test_the_archive_keeps_it(self):
        self.asked()
        self.check_written()
        rc0, want, err0 = render(self.a)
        self.assertEqual(rc0, 0, err0)
        dest = os.path.join(self.tmp.name, "archived")
        rc, out, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 0, err)
        self.assertIn("silicon.txt, silicon/native.csv, silicon/addr-4k-store-head.phases of",
                      out)
        self.assertEqual(sorted(os.listdir(os.path.join(dest, "silicon"))),
                         ["addr-4k-store-head.phases", "native.csv"])
        for f in ("silicon.txt", "silicon/native.csv", "silicon/addr-4k-store-head.phases"):
            with open(os.path.join(dest, f)) as x, open(os.path.join(self.a, f)) as y:
                self.assertEqual(x.read(), y.read(), f)
        rc, got, err = render(dest)
        self.assertEqual(rc, 0, err)
        self.assertEqual(got, want)

    def test_asked_and_missing_is_not_archived(self):
        self.asked()
        dest = os.path.join(self.tmp.name, "dest")
        rc, _, err = cli("archive", self.a, dest)
        self.assertEqual(rc, 1)
        self.assertIn("%s: no silicon.txt, which its plan's modes (wall icount cachesim, the "
                      "silicon check) write" % self.a, err)
        self.assertFalse(os.path.exists(dest))


class FixturesAreMakeRuns(unittest.TestCase):
    def test_the_fixtures_are_what_make_runs_writes(self):
        """bench/tests/data/run-a and run-b are make_runs.py's output, as
        committed (rewrite them with it after changing it)"""
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(os.path.join(DATA, "make_runs.py"), tmp)
            p = subprocess.run([sys.executable, os.path.join(tmp, "make_runs.py")],
                               env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1",
                                        PYTHONPATH=os.path.dirname(HERE)),
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            for run in ("run-a", "run-b"):
                self.assertEqual(sorted(os.listdir(os.path.join(tmp, run))),
                                 sorted(os.listdir(os.path.join(DATA, run))))
                for f in os.listdir(os.path.join(tmp, run)):
                    with open(os.path.join(tmp, run, f)) as x, \
                            open(os.path.join(DATA, run, f)) as y:
                        self.assertEqual(x.read(), y.read(), "%s/%s" % (run, f))


if __name__ == "__main__":
    unittest.main()
