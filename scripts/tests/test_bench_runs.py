# SPDX-License-Identifier: GPL-2.0
"""Unit tests of make bench's saved runs (scripts/lib.sh's bench_run_dir,
which scripts/bench.sh calls once every setting is checked): each run
gets a directory of its own under build/bench/, named by its start (UTC)
and NAME, and build/bench/latest points at the newest; a second run of
the same minute and name gets -2; the files of a run from before saved
runs (straight in build/bench/) move into a directory of their own.
The functions run in a temporary directory; no kernel, no boot."""
import os
import re
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def lib(script, build):
    """script run after sourcing scripts/lib.sh with BUILD=build: (status,
    stdout, stderr)"""
    p = subprocess.run(["bash", "-c", 'set -u; . "%s/scripts/lib.sh"; %s' % (ROOT, script)],
                       env=dict(PATH=os.environ["PATH"], BUILD=build),
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


class RunDirs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build = self.tmp.name
        self.base = os.path.join(self.build, "bench")

    def tearDown(self):
        self.tmp.cleanup()

    def run_dir(self, name, when, ok=True):
        """bench_run_dir BASE NAME WHEN: the path it printed"""
        rc, out, err = lib('bench_run_dir "%s" "%s" "%s"' % (self.base, name, when), self.build)
        if ok:
            self.assertEqual(rc, 0, err)
            self.assertEqual(out.count("\n"), 1, out)
        else:
            self.assertNotEqual(rc, 0, out)
        return out.strip(), err

    def top(self):
        """what sits directly in build/bench"""
        return sorted(os.listdir(self.base))

    def latest(self):
        link = os.path.join(self.base, "latest")
        self.assertTrue(os.path.islink(link))
        return os.readlink(link)

    def write(self, path, text=""):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def test_a_run_gets_its_directory_and_latest(self):
        path, _ = self.run_dir("quick", "20261206-0130")
        self.assertEqual(path, os.path.join(self.base, "20261206-0130-quick"))
        self.assertTrue(os.path.isdir(path))
        self.assertEqual(os.listdir(path), [])
        # relative: build/ can move
        self.assertEqual(self.latest(), "20261206-0130-quick")
        self.assertEqual(self.top(), ["20261206-0130-quick", "latest"])

    def test_the_next_run_moves_latest_and_keeps_the_first(self):
        first, _ = self.run_dir("quick", "20261206-0130")
        self.write(os.path.join(first, "det.csv"), "rows\n")
        second, _ = self.run_dir("bench", "20261206-0245")
        self.assertEqual(self.latest(), "20261206-0245-bench")
        self.assertEqual(self.top(), ["20261206-0130-quick", "20261206-0245-bench", "latest"])
        with open(os.path.join(first, "det.csv")) as f:
            self.assertEqual(f.read(), "rows\n")
        self.assertEqual(os.listdir(second), [])

    def test_a_run_of_the_same_minute_and_name_gets_another(self):
        paths = [self.run_dir("quick", "20261206-0130")[0] for _ in range(3)]
        self.assertEqual([os.path.basename(p) for p in paths],
                         ["20261206-0130-quick", "20261206-0130-quick-2",
                          "20261206-0130-quick-3"])
        self.assertEqual(self.latest(), "20261206-0130-quick-3")

    def test_a_run_before_saved_runs_moves_into_its_own(self):
        # the layout before: every file straight in build/bench
        old = {"plan": "modes=wall\nconfigs=vanilla hotcold\ndate=2026-12-05 14:32 UTC\n",
               "det.csv": "mode,workload\n", "report.md": "# report\n",
               "cachesim-vanilla-1-mem.phases": "phase=1\n"}
        for name, text in old.items():
            self.write(os.path.join(self.base, name), text)
        path, err = self.run_dir("bench", "20261206-0900")
        self.assertIn("bench/20261205-1432-flat/", err)
        self.assertEqual(self.top(), ["20261205-1432-flat", "20261206-0900-bench", "latest"])
        flat = os.path.join(self.base, "20261205-1432-flat")
        self.assertEqual(sorted(os.listdir(flat)), sorted(old))
        for name, text in old.items():
            with open(os.path.join(flat, name)) as f:
                self.assertEqual(f.read(), text)
        self.assertEqual(self.latest(), "20261206-0900-bench")
        self.assertEqual(os.listdir(path), [])

    def test_a_run_before_saved_runs_without_a_plan(self):
        self.write(os.path.join(self.base, "calibrate.txt"), "calibrate load_ns l1=1\n")
        self.run_dir("bench", "20261206-0900")
        self.assertEqual(self.top(), ["00000000-0000-flat", "20261206-0900-bench", "latest"])

    def test_runs_are_not_moved(self):
        self.run_dir("quick", "20261206-0130")
        self.run_dir("quick", "20261206-0131")
        self.assertEqual(self.top(), ["20261206-0130-quick", "20261206-0131-quick", "latest"])

    def test_latest_that_is_a_directory_fails(self):
        os.makedirs(os.path.join(self.base, "latest", "x"))
        _, err = self.run_dir("quick", "20261206-0130", ok=False)
        self.assertIn("cannot point %s/latest at" % self.base, err)


BENCH = open(os.path.join(ROOT, "scripts/bench.sh")).read()


class BenchUsesIt(unittest.TestCase):
    """scripts/bench.sh writes every result under the run's directory:
    OUT comes from bench_run_dir alone, once the settings are checked
    and the build locked, and the plan names the run."""

    def test_out_is_the_run_directory(self):
        sets = [s for s in re.findall(r"^\s*OUT=.*$", BENCH, re.M) if "bench_run_dir" in s]
        self.assertEqual(len(sets), 1, sets)
        self.assertIn('$(bench_run_dir "$BUILD/bench" "$RUN_NAME" ', sets[0])
        self.assertLess(BENCH.index("\nlock_build\n"), BENCH.index(sets[0]))
        # (the dry run's plan goes elsewhere, never under build/bench)
        others = [s for s in re.findall(r"^\s*OUT=.*$", BENCH, re.M) if s not in sets]
        self.assertEqual([s.strip() for s in others], ["OUT=$BUILD/plan-dry-run"])

    def test_nothing_else_writes_to_build_bench(self):
        # every path under build/bench goes through $OUT (messages aside)
        for n, line in enumerate(BENCH.splitlines(), 1):
            if "BUILD/bench" in line or "BUILD}/bench" in line:
                # (or the previous run's plan, read: SUITE=auto's)
                self.assertTrue("bench_run_dir" in line or line.lstrip().startswith("msg ") or
                                line.startswith("PREVIOUS_PLAN=$(readlink -f "),
                                "bench.sh:%d: %s" % (n, line))

    def test_the_plan_names_the_run(self):
        with open(os.path.join(ROOT, "bench/hcreport/planfiles.py")) as f:
            plan = f.read()
        self.assertIn('("run", run)', plan)
        self.assertIn('("bench_stamp", stamp)', plan)
        self.assertIn('"patches=%s scale=%d seeds=%s" % (\n        env.get("BENCH_INPUTS"', plan)
        self.assertIn("BENCH_INPUTS=$(bench_inputs_hash) ", BENCH)


class InputsHash(unittest.TestCase):
    """lib.sh's bench_inputs_hash, the stamp's "patches=": every file a
    row's figures follow moves it"""

    FILES = ("patches/0001-a.patch", "bench/alternatives/b.patch", "bench/qemu/c.patch",
             "bench/workloads.tsv", "bench/shapes.tsv", "bench/configs.tsv", "configs/base.config", "configs/debug.config",
             "guest/jobs/bench.sh", "guest/bench/common.sh", "guest/bench/pressure.sh", "guest/lib.sh",
             "guest/sdet.sh", "guest/src/flood.c",
             "guest/src/benchutil.h", "scripts/initramfs.sh", "scripts/programs.sh")

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = tmp.name
        for f in self.FILES:
            os.makedirs(os.path.join(self.root, os.path.dirname(f)), exist_ok=True)
            with open(os.path.join(self.root, f), "w") as fh:
                fh.write(f + "\n")

    def hash(self):
        p = subprocess.run(["bash", "-c", '. "%s/scripts/lib.sh"; bench_inputs_hash' % ROOT],
                           env=dict(os.environ, ROOT=self.root), capture_output=True,
                           text=True, check=True)
        self.assertRegex(p.stdout, r"^[0-9a-f]{12}\n$")
        return p.stdout

    def test_every_input_moves_it(self):
        before = self.hash()
        self.assertEqual(self.hash(), before)
        for f in self.FILES:
            with open(os.path.join(self.root, f), "a") as fh:
                fh.write("one more line\n")
            now = self.hash()
            self.assertNotEqual(now, before, f)
            before = now


if __name__ == "__main__":
    unittest.main()
