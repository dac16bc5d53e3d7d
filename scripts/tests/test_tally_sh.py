# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/tally.sh, the count make test and make unit end
with: its readers must fail a step that gives fewer results than it owes.
checkpatch_tests runs stubs in place of scripts/checkpatch.sh (one that
prints nothing, one that stops early, one that exits 1 with only ok
lines); guest_tests reads empty, missing and short job outputs with
scripts/results.py.  summary's KTAP file (make test's
build/logs/test-results.ktap) is read with ktapcheck.py, and with the
kernel tree's tools/testing/kunit/kunit.py parse when build/linux holds
one."""
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "scripts", "tests", "data")
SERIES = ["0001-mm-one.patch", "0002-mm-two.patch", "0003-mm-three.patch"]
# the tree make test unpacks and patches: its KUnit tool reads KTAP
KUNIT_PY = os.path.join(ROOT, "build", "linux", "tools", "testing", "kunit", "kunit.py")

spec = importlib.util.spec_from_file_location(
    "ktapcheck", os.path.join(ROOT, "scripts", "tests", "ktapcheck.py"))
ktapcheck = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ktapcheck)


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


# two stages as test.sh counts them: checkpatch with a failure, then a
# boot whose results (as results.py prints them) hold two skips
TWO_STAGES = """\
STAGE_NAME=checkpatch
pass "checkpatch 0001-mm-one.patch"
failed "checkpatch 0002-mm-two.patch (build/logs/checkpatch.txt)"
pass "checkpatch 0003-mm-three.patch"
STAGE_NAME="boot hotcold"
pass "boot hotcold: clean console"
tally "%s"
"""
BOOT_RESULTS = """\
ok   hotcold: pcp_hotcold.pcp_hotcold_refill
ok   hotcold: pcp_hotcold.pcp_hotcold_drain (skipped)
COUNT 3 0
ok   hotcold: guest swap_test (skipped: no swap device)
"""


class KtapFile(Tally):
    """summary with RESULTS_KTAP set: one test per stage (STAGE_NAME when a test
    was counted), one subtest per test counted in it."""

    def run_ktap(self, script):
        """Run script and summary; the counts, its KTAP file's text and
        that read by ktapcheck."""
        ktap = self.path("test-results.ktap")
        passed, failed, _ = self.bash('RESULTS_KTAP="%s"\n%s\nsummary || :' % (ktap, script))
        with open(ktap) as f:
            text = f.read()
        try:
            return passed, failed, text, ktapcheck.parse(text)
        except ktapcheck.KtapError as e:
            error = e
        self.fail("ktapcheck.py: %s\n%s" % (error, text))

    def two_stages(self):
        return self.run_ktap(TWO_STAGES % self.write("boot.results", BOOT_RESULTS))

    def test_two_stages(self):
        passed, failed, text, top = self.two_stages()
        self.assertEqual((passed, failed), (4, 1), text)
        self.assertEqual(text.splitlines()[:3],
                         ["KTAP version 1", "# hotcold: 4 passed, 1 failed, 2 skipped", "1..2"])
        self.assertEqual([(t.name, t.ok) for t in top.subtests],
                         [("checkpatch", False), ("boot hotcold", True)])
        self.assertEqual([t.counts() for t in top.subtests], [(2, 1, 0), (2, 0, 2)])
        # the text's count: a skip is not a pass
        self.assertEqual(top.counts(), (passed, failed, 2))

    def test_a_failure_keeps_its_name_and_says_why(self):
        text, top = self.two_stages()[2:]
        case = top.subtests[0].subtests[1]
        self.assertEqual((case.name, case.ok), ("checkpatch 0002-mm-two.patch", False))
        self.assertEqual(case.diagnostics, ["# checkpatch 0002-mm-two.patch: build/logs/checkpatch.txt"])
        self.assertIn("  # checkpatch 0002-mm-two.patch: build/logs/checkpatch.txt\n"
                      "  not ok 2 checkpatch 0002-mm-two.patch\n"
                      "  ok 3 checkpatch 0003-mm-three.patch\n"
                      "not ok 1 checkpatch\n", text)

    def test_skips(self):
        text = self.two_stages()[2]
        self.assertIn("  ok 3 hotcold: pcp_hotcold.pcp_hotcold_drain # SKIP\n", text)
        self.assertIn("  ok 4 hotcold: guest swap_test # SKIP no swap device\n", text)

    def last_line(self, script):
        cmd = '. "%s/scripts/lib.sh"; RESULTS="%s"; : >"$RESULTS"; . "%s/scripts/tally.sh"\n' \
              '%s\nsummary' % (ROOT, self.path("results.txt"), ROOT, script)
        p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True,
                           env=dict(os.environ, BUILD=self.path("build")))
        return p.stdout.splitlines()[-1], p.returncode

    def test_the_last_line_counts_skips_apart(self):
        self.assertEqual(self.last_line('pass a\npass "b (skipped)"\n'
                                        'pass "c (skipped: no swap)"\npass "d (skippedx)"\n'
                                        'pass "e (skipped: no kunit.py (the tree\'s tool))"'),
                         ("2 passed, 0 failed, 3 skipped", 0))
        # without a skip, the line make test has always ended with
        self.assertEqual(self.last_line('pass a\nfailed b'), ("1 passed, 1 failed", 1))

    def test_a_stage_of_skips_is_skipped(self):
        text, top = self.run_ktap('STAGE_NAME=a\npass "x (skipped)"\npass "y (skipped: why)"')[2:]
        self.assertEqual(text.splitlines()[-1], "ok 1 a # SKIP")
        self.assertTrue(top.subtests[0].skip)

    def test_names_kunit_would_misread(self):
        # "#" would start a directive; blanks; no name; a case named as its
        # stage would end the stage for kunit.py
        top = self.run_ktap('STAGE_NAME="a  #1"\npass "b #2\tc"\nfailed " "\n'
                            'failed "d (why # not)"\nfailed "(e)"\npass "a _1"')[3]
        stage = top.subtests[0]
        self.assertEqual(stage.name, "a _1")
        self.assertEqual([t.name for t in stage.subtests],
                         ["b _2 c", "unnamed", "d", "(e)", "a _1 (test)"])
        self.assertEqual(stage.subtests[2].diagnostics, ["# d: why _ not"])

    def test_no_stage(self):
        top = self.run_ktap('pass a\nfailed b')[3]
        self.assertEqual([(t.name, t.counts()) for t in top.subtests], [("tests", (1, 1, 0))])

    def test_a_stage_again_adds_to_it(self):
        top = self.run_ktap('STAGE_NAME=a\npass 1\nSTAGE_NAME=b\npass 2\nSTAGE_NAME=a\npass 3')[3]
        self.assertEqual([(t.name, [c.name for c in t.subtests]) for t in top.subtests],
                         [("a", ["1", "3"]), ("b", ["2"])])

    def test_nothing_counted(self):
        text = self.run_ktap(":")[2]
        self.assertEqual(text, "KTAP version 1\n# hotcold: 0 passed, 0 failed\n1..0\n")

    def test_no_file_without_ktap(self):
        self.bash("pass a\nsummary")
        self.assertEqual(sorted(os.listdir(self.tmp)), ["build", "results.txt"])

    def kunit_parse(self):
        """kunit.py parse of the KTAP file: its exit status, stdout, JSON."""
        if not os.path.exists(KUNIT_PY):
            self.skipTest("no kernel tree at build/linux (make test unpacks it): "
                          "kunit.py parse not run, ktapcheck.py only")
        out = self.path("kunit.json")
        # -B: nothing written into the tree
        p = subprocess.run([sys.executable, "-B", KUNIT_PY, "parse", "--json=" + out,
                            self.path("test-results.ktap")], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        # it reads every line: not one parse error
        self.assertNotIn("[ERROR]", p.stdout)
        with open(out) as f:
            return p.returncode, p.stdout, json.load(f)

    def test_kunit_parse_reads_it(self):
        self.two_stages()
        status, out, tree = self.kunit_parse()
        # it exits 1 for the failed test
        self.assertEqual(status, 1, out)
        self.assertRegex(out, r"Testing complete\. Ran 7 tests: passed: 4, failed: 1, skipped: 2\n")
        self.assertEqual([(g["name"], [c["status"] for c in g["test_cases"]])
                          for g in tree["sub_groups"]],
                         [("checkpatch", ["PASS", "FAIL", "PASS"]),
                          ("boot hotcold", ["PASS", "PASS", "SKIP", "SKIP"])])

    def test_kunit_parse_reads_odd_names(self):
        self.run_ktap('STAGE_NAME="a  #1"\npass "b #2\tc"\nfailed " "\n'
                      'failed "d (why # not)"\npass "- e"\npass "a _1"')
        status, out, tree = self.kunit_parse()
        self.assertEqual(status, 1, out)
        self.assertRegex(out, r"Ran 5 tests: passed: 3, failed: 2\n")
        self.assertEqual([(g["name"], [c["name"] for c in g["test_cases"]])
                          for g in tree["sub_groups"]],
                         [("a _1", ["b _2 c", "unnamed", "d", "e", "a _1 (test)"])])

    def test_kunit_parse_passing_run(self):
        self.run_ktap('STAGE_NAME=a\npass 1\nSTAGE_NAME="b c"\npass 2\npass "3 (skipped)"')
        status, out, _ = self.kunit_parse()
        self.assertEqual(status, 0, out)
        self.assertRegex(out, r"Ran 3 tests: passed: 2, skipped: 1\n")

if __name__ == "__main__":
    unittest.main()
