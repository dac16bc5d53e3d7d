# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/tally.sh, the count make test and make unit end
with: its readers must fail a step that gives fewer results than it owes.
checkpatch_tests runs stubs in place of scripts/checkpatch.sh (one that
prints nothing, one that stops early, one that exits 1 with only ok
lines); guest_tests reads empty, missing and short job outputs with
scripts/results.py."""
import os
import subprocess
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "scripts", "tests", "data")
SERIES = ["0001-mm-one.patch", "0002-mm-two.patch", "0003-mm-three.patch"]


class Tally(unittest.TestCase):
    def setUp(self):
        tmpdir = tempfile.TemporaryDirectory()
        self.addCleanup(tmpdir.cleanup)
        self.tmp = tmpdir.name

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, text, mode=None):
        with open(self.path(name), "w") as f:
            f.write(text)
        if mode:
            os.chmod(self.path(name), mode)
        return self.path(name)

    def bash(self, script):
        """Run script after lib.sh and tally.sh; the counts and the results."""
        results = self.path("results.txt")
        cmd = '. "%s/scripts/lib.sh"; RESULTS="%s"; : >"$RESULTS"; . "%s/scripts/tally.sh"\n%s\n' \
              'echo "COUNTS $PASSED $FAILED"' % (ROOT, results, ROOT, script)
        env = dict(os.environ, BUILD=self.path("build"))
        p = subprocess.run(["bash", "-c", cmd], env=env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        counts = [l for l in p.stdout.splitlines() if l.startswith("COUNTS ")][-1].split()
        with open(results) as f:
            lines = f.read().splitlines()
        return int(counts[1]), int(counts[2]), lines

    def failures(self, lines):
        return [l[len("FAIL "):] for l in lines if l.startswith("FAIL ")]


class CheckpatchTests(Tally):
    """checkpatch_tests SERIES LOG CMD: one result per patch, and CMD's
    exit status honoured."""

    def run_stub(self, body, series=None):
        series = self.write("series", "# the series\n" + "\n".join(
            SERIES if series is None else series) + "\n")
        stub = self.write("checkpatch", "#!/bin/bash\n" + textwrap.dedent(body), 0o755)
        return self.bash('checkpatch_tests "%s" "%s" "%s"' % (series, self.path("log"), stub))

    def test_every_patch_ok(self):
        passed, failed, lines = self.run_stub("""\
            echo "ok 0001-mm-one.patch"
            echo "ok 0002-mm-two.patch"
            echo "ok 0003-mm-three.patch"
            """)
        self.assertEqual((passed, failed), (3, 0), lines)
        self.assertEqual(lines[0], "ok   checkpatch 0001-mm-one.patch")

    def test_a_failing_patch_fails_once(self):
        passed, failed, lines = self.run_stub("""\
            echo "ok 0001-mm-one.patch"
            echo "FAIL 0002-mm-two.patch"
            echo "    ok this line is checkpatch's report, indented"
            echo "    total: 1 errors, 0 warnings, 0 checks"
            echo "ok 0003-mm-three.patch"
            exit 1
            """)
        self.assertEqual((passed, failed), (2, 1), lines)
        self.assertTrue(self.failures(lines)[0].startswith("checkpatch 0002-mm-two.patch"))

    def test_no_output_exit_0_fails_every_patch(self):
        passed, failed, lines = self.run_stub("exit 0\n")
        self.assertEqual((passed, failed), (0, 3), lines)
        for p, f in zip(SERIES, self.failures(lines)):
            self.assertTrue(f.startswith("checkpatch %s: no result" % p), f)

    def test_stopped_early_names_the_patch(self):
        passed, failed, lines = self.run_stub("""\
            echo "ok 0001-mm-one.patch"
            echo "ok 0002-mm-two.patch"
            """)
        self.assertEqual((passed, failed), (2, 1), lines)
        self.assertIn("checkpatch 0003-mm-three.patch: no result", self.failures(lines)[0])

    def test_exit_1_with_only_ok_lines_fails(self):
        passed, failed, lines = self.run_stub("""\
            echo "ok 0001-mm-one.patch"
            echo "ok 0002-mm-two.patch"
            echo "ok 0003-mm-three.patch"
            exit 1
            """)
        self.assertEqual((passed, failed), (3, 1), lines)
        self.assertIn("exit status 1 without a FAIL line", self.failures(lines)[0])

    def test_a_second_result_fails(self):
        passed, failed, lines = self.run_stub("""\
            echo "ok 0001-mm-one.patch"
            echo "ok 0001-mm-one.patch"
            echo "ok 0002-mm-two.patch"
            echo "ok 0003-mm-three.patch"
            """)
        self.assertEqual((passed, failed), (3, 1), lines)
        self.assertIn("0001-mm-one.patch: a second result", self.failures(lines)[0])

    def test_a_patch_not_in_the_series_fails(self):
        passed, failed, lines = self.run_stub("""\
            echo "ok 0001-mm-one.patch"
            echo "ok 0002-mm-two.patch"
            echo "ok 0003-mm-three.patch"
            echo "ok 0004-mm-stale.patch"
            """)
        self.assertEqual((passed, failed), (3, 1), lines)
        self.assertIn("0004-mm-stale.patch: a result for a patch", self.failures(lines)[0])

    def test_an_empty_series_fails(self):
        passed, failed, lines = self.run_stub("exit 0\n", series=[])
        self.assertEqual((passed, failed), (0, 1), lines)
        self.assertIn("lists no patch", self.failures(lines)[0])

    def test_the_real_script_without_a_tree_fails_every_patch(self):
        # scripts/checkpatch.sh itself, with no build/linux: it stops at once
        series = self.write("series", "\n".join(SERIES) + "\n")
        passed, failed, lines = self.bash('checkpatch_tests "%s" "%s" "%s/scripts/checkpatch.sh"'
                                          % (series, self.path("log"), ROOT))
        self.assertEqual((passed, failed), (0, 4), lines)
        self.assertIn("exit status 1 without a FAIL line", self.failures(lines)[-1])


class GuestTests(Tally):
    """guest_tests NAME LABEL LOG OUT RESULTS: results.py --expect-tap."""

    def run_guest(self, out_text=None, log=True):
        log_path = self.path("debug-stress.log")
        if log:
            self.write("debug-stress.log", "[    0.000000] Linux version 6.12\n")
        out_path = self.path("debug-stress.out")
        if out_text is not None:
            self.write("debug-stress.out", out_text)
        return self.bash('guest_tests debug-stress debug "%s" "%s" "%s"'
                         % (log_path, out_path, self.path("debug-stress.results")))

    def test_passing_job(self):
        with open(os.path.join(DATA, "results-pass.out")) as f:
            out = f.read()
        passed, failed, lines = self.run_guest(out)
        self.assertEqual(failed, 0, lines)
        self.assertGreater(passed, 0)
        self.assertTrue(all(l.startswith("ok   debug: debug-stress ") for l in lines), lines)

    def test_empty_job_output_fails(self):
        passed, failed, lines = self.run_guest("")
        self.assertEqual((passed, failed), (0, 1), lines)
        self.assertEqual(self.failures(lines), ["debug: debug-stress <no TAP output>"])

    def test_missing_job_output_fails(self):
        passed, failed, lines = self.run_guest(None)
        self.assertEqual((passed, failed), (0, 1), lines)
        self.assertEqual(self.failures(lines), ["debug: debug-stress <no TAP output>"])

    def test_missing_console_log_fails(self):
        passed, failed, lines = self.run_guest("", log=False)
        self.assertEqual((passed, failed), (0, 1), lines)
        self.assertIn("debug-stress: no console log", self.failures(lines)[0])

    def test_job_stopped_before_its_plan_fails(self):
        passed, failed, lines = self.run_guest(
            "=== HOTCOLD-JOB-BEGIN stress\nTAP version 13\nok 1 - stress_ng_completed\n")
        self.assertEqual((passed, failed), (1, 1), lines)
        self.assertIn("<no plan after 1 results", self.failures(lines)[0])


class TallyStatus(Tally):
    """tally_status NAME FILE STATUS: a step's results and its exit status."""

    def run_status(self, text, status):
        f = self.write("step.results", text)
        return self.bash('tally_status step "%s" %d' % (f, status))

    def test_results_and_success(self):
        self.assertEqual(self.run_status("ok a\nok b\n", 0)[:2], (2, 0))

    def test_a_fail_line_and_failure(self):
        self.assertEqual(self.run_status("ok a\nFAIL b\n", 1)[:2], (1, 1))

    def test_no_result_fails(self):
        passed, failed, lines = self.run_status("", 0)
        self.assertEqual((passed, failed), (0, 1))
        self.assertEqual(self.failures(lines), ["step: no result (exit status 0)"])

    def test_failure_without_a_fail_line_fails(self):
        passed, failed, lines = self.run_status("ok a\n", 2)
        self.assertEqual((passed, failed), (1, 1))
        self.assertEqual(self.failures(lines), ["step: exit status 2 without a FAIL line"])


if __name__ == "__main__":
    unittest.main()
