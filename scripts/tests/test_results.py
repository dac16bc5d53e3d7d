# SPDX-License-Identifier: GPL-2.0
"""Unit tests for scripts/results.py, on fixture logs in data/ (after
tools/testing/kunit/kunit_tool_test.py).  Each fixture is one way the
boot-time KUnit run or the guest job can go wrong; the test pins the
"ok|FAIL" lines and the COUNT line that scripts/test.sh tallies.

Fixtures (data/):
  results-pass.log/.out      the pcp_hotcold suite passes (22 cases), the
                             job output appended as run-guest.sh does;
                             results-pass.expected: the old results.py's
                             output for it, which must not change
  results-missing-suite.log  top-level plan 1..2, one suite printed
  results-missing-case.log   suite plan 1..22, case 6 missing, suite "ok"
  results-no-ktap.log        a boot without any KUnit output
  results-crash.log          an oops and panic in case 7: output stops
  results-failing-case.log   case 3 "not ok", suite "not ok"
  results-skip.log           cases 13 and 21 "# SKIP"
  results-suite-init-failed.log  "not ok 1 pcp_hotcold", no cases
  results-guest-short-plan.out   guest TAP: 3 results, plan 1..5
  results-guest-no-plan.out      guest TAP stopping before its plan
  results-real-hotcold-test.log/.out  a real hotcold test-job log and job
                             output (make test, 16 cases), .expected: the
                             old results.py's output for it
"""
import importlib.util
import os
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
SCRIPT = os.path.join(os.path.dirname(HERE), "results.py")

spec = importlib.util.spec_from_file_location("results", SCRIPT)
results = importlib.util.module_from_spec(spec)
spec.loader.exec_module(results)


def data(name):
    return os.path.join(DATA, name)


def lines(name):
    with open(data(name)) as f:
        return f.readlines()


def run(*args):
    """results.py's output lines for ARGS (fixture names resolved)."""
    argv = [data(a) if os.path.exists(data(a)) else a for a in args]
    p = subprocess.run([sys.executable, SCRIPT] + argv, capture_output=True,
                       text=True, check=True)
    return p.stdout.splitlines()


def fails(out):
    return [line for line in out if line.startswith("FAIL ")]


EXPECT = ("--expect-suite", "pcp_hotcold", "--expect-tap")
NO_JOB = "/nonexistent/job.out"


class PassingLog(unittest.TestCase):
    def test_output_unchanged(self):
        # byte for byte what the old results.py printed for a passing log,
        # with or without the expectations test.sh now passes
        with open(data("results-pass.expected")) as f:
            want = f.read().splitlines()
        self.assertEqual(run("hotcold", "results-pass.log"), want)
        self.assertEqual(run(*EXPECT, "hotcold", "results-pass.log"), want)

    def test_counts(self):
        out = run(*EXPECT, "hotcold", "results-pass.log")
        self.assertEqual(out[-1], "COUNT 27 0")
        self.assertEqual(fails(out), [])
        self.assertIn("ok   hotcold: kunit pcp_hotcold.random_mix_loses_no_page", out)
        self.assertIn("ok   hotcold: guest vmstat_has_pcp_hot_cold_counters", out)

    def test_appended_job_output_is_not_ktap(self):
        # run-guest.sh appends the job's TAP to the console log: read once,
        # as guest tests, not as a second top-level KTAP document
        r = results.kunit(lines("results-pass.log"), ["pcp_hotcold"])
        self.assertEqual(len(r), 22)
        self.assertTrue(all(ok for _, ok, _ in r))

    def test_without_timestamps_or_hyphens(self):
        log = ["KTAP version 1\n", "1..1\n", "    KTAP version 1\n",
               "    # Subtest: example\n", "    1..2\n",
               "    ok 1 - example_simple_test\n", "    ok 2 example_other\n",
               "ok 1 - example\n"]
        self.assertEqual(results.kunit(log, ["example"]),
                         [("kunit example.example_simple_test", True, False),
                          ("kunit example.example_other", True, False)])


class MissingSuite(unittest.TestCase):
    def test_top_level_plan_short(self):
        out = run(*EXPECT, "hotcold", "results-missing-suite.log", NO_JOB)
        self.assertIn("FAIL hotcold: kunit <suite 2 of 2 never reported>", out)

    def test_count(self):
        r = results.kunit(lines("results-missing-suite.log"), ["pcp_hotcold"])
        self.assertEqual(sum(ok for _, ok, _ in r), 22)
        self.assertEqual([n for n, ok, _ in r if not ok],
                         ["kunit <suite 2 of 2 never reported>"])

    def test_second_document_short(self):
        # a module's suites come as a second top-level KTAP document
        log = lines("results-pass.log")[:36] + [
            "[    5.000000] KTAP version 1\n", "[    5.000001] 1..2\n",
            "[    5.000002]     # Subtest: mod_suite\n", "[    5.000003]     1..1\n",
            "[    5.000004]     ok 1 mod_case\n", "[    5.000005] ok 1 mod_suite\n"]
        r = results.kunit(log)
        self.assertEqual([n for n, ok, _ in r if not ok],
                         ["kunit <suite 2 of 2 never reported>"])

    def test_more_suites_than_plan(self):
        log = ["KTAP version 1\n", "1..1\n",
               "    # Subtest: a\n", "    1..1\n", "    ok 1 x\n", "ok 1 a\n",
               "    # Subtest: b\n", "    1..1\n", "    ok 1 y\n", "ok 2 b\n"]
        r = results.kunit(log)
        self.assertEqual([n for n, ok, _ in r if not ok],
                         ["kunit <2 suites for a top-level plan of 1>"])


class MissingCase(unittest.TestCase):
    def test_case_plan_short(self):
        out = run(*EXPECT, "hotcold", "results-missing-case.log", NO_JOB)
        self.assertIn("FAIL hotcold: kunit pcp_hotcold.<case 22 never reported>", out)
        self.assertNotIn("ok   hotcold: kunit pcp_hotcold.refill_is_one_lock_hold", out)

    def test_count(self):
        r = results.kunit(lines("results-missing-case.log"), ["pcp_hotcold"])
        self.assertEqual((sum(ok for _, ok, _ in r), sum(not ok for _, ok, _ in r)),
                         (21, 1))

    def test_more_cases_than_plan(self):
        log = ["KTAP version 1\n", "1..1\n", "    # Subtest: a\n", "    1..1\n",
               "    ok 1 x\n", "    ok 2 y\n", "ok 1 a\n"]
        r = results.kunit(log)
        self.assertEqual([n for n, ok, _ in r if not ok],
                         ["kunit a.<2 results for a plan of 1>"])


class NoKtap(unittest.TestCase):
    def test_expected_suite_missing(self):
        out = run(*EXPECT, "hotcold", "results-no-ktap.log", "results-pass.out")
        self.assertEqual(fails(out), [
            "FAIL hotcold: kunit pcp_hotcold.<suite never ran: no KTAP output on the console>"])
        self.assertEqual(out[-1], "COUNT 5 1")

    def test_other_suite_only(self):
        log = ["KTAP version 1\n", "1..1\n", "    # Subtest: other\n", "    1..1\n",
               "    ok 1 x\n", "ok 1 other\n"]
        r = results.kunit(log, ["pcp_hotcold"])
        self.assertEqual([n for n, ok, _ in r if not ok],
                         ["kunit pcp_hotcold.<suite never ran: not in the KTAP output>"])

    def test_nothing_expected(self):
        # the reliability jobs boot with kunit.enable=0: no KTAP, no failure
        self.assertEqual(results.kunit(lines("results-no-ktap.log")), [])


class Crash(unittest.TestCase):
    def test_output_stops_mid_suite(self):
        out = run(*EXPECT, "hotcold", "results-crash.log", NO_JOB)
        self.assertIn("FAIL hotcold: kunit pcp_hotcold.<case 7 never reported: crash?>", out)
        self.assertIn("FAIL hotcold: kunit pcp_hotcold.<case 22 never reported: crash?>", out)

    def test_count(self):
        r = results.kunit(lines("results-crash.log"), ["pcp_hotcold"])
        # 6 cases passed, 16 never reported; the open suite counts once
        self.assertEqual((sum(ok for _, ok, _ in r), sum(not ok for _, ok, _ in r)),
                         (6, 16))

    def test_crash_before_the_suite_plan(self):
        log = ["KTAP version 1\n", "1..1\n", "    KTAP version 1\n",
               "    # Subtest: pcp_hotcold\n", "Kernel panic - not syncing: x\n"]
        r = results.kunit(log, ["pcp_hotcold"])
        self.assertEqual(r, [("kunit pcp_hotcold.<case 1 never reported: crash?>",
                              False, False)])


class FailingCase(unittest.TestCase):
    def test_not_ok_case(self):
        out = run(*EXPECT, "hotcold", "results-failing-case.log", "results-pass.out")
        self.assertEqual(fails(out),
                         ["FAIL hotcold: kunit pcp_hotcold.cold_alloc_takes_cold_queue"])
        self.assertEqual(out[-1], "COUNT 26 1")

    def test_suite_not_ok_without_cases(self):
        out = run(*EXPECT, "hotcold", "results-suite-init-failed.log", "results-pass.out")
        self.assertEqual(fails(out), [
            "FAIL hotcold: kunit pcp_hotcold.<suite not ok before any case ran>"])

    def test_suite_not_ok_with_passing_cases(self):
        log = ["KTAP version 1\n", "1..1\n", "    # Subtest: a\n", "    1..1\n",
               "    ok 1 x\n", "not ok 1 a\n"]
        self.assertEqual([n for n, ok, _ in results.kunit(log) if not ok],
                         ["kunit a.<suite reported not ok>"])


class Skipped(unittest.TestCase):
    def test_skipped_cases_pass(self):
        out = run(*EXPECT, "hotcold", "results-skip.log", "results-pass.out")
        self.assertIn("ok   hotcold: kunit pcp_hotcold.thp_cold_free_and_alloc (skipped)", out)
        self.assertIn("ok   hotcold: kunit pcp_hotcold.counters_move_exactly (skipped)", out)
        self.assertIn("ok   hotcold: kunit pcp_hotcold.cold_zero_alloc_is_zeroed", out)
        self.assertEqual(out[-1], "COUNT 27 0")

    def test_not_ok_skip_is_a_skip(self):
        log = ["KTAP version 1\n", "1..1\n", "    # Subtest: a\n", "    1..1\n",
               "    not ok 1 x # SKIP no hardware\n", "ok 1 a # SKIP\n"]
        self.assertEqual(results.kunit(log), [("kunit a.x", True, True)])


class GuestTap(unittest.TestCase):
    def test_short_plan(self):
        out = run(*EXPECT, "hotcold", "results-pass.log", "results-guest-short-plan.out")
        self.assertEqual(fails(out), ["FAIL hotcold: guest <2 tests never reported>"])
        self.assertEqual(out[-1], "COUNT 25 1")

    def test_no_plan(self):
        r = results.guest_tap(lines("results-guest-no-plan.out"))
        self.assertEqual([n for n, ok, _ in r if not ok],
                         ["guest <no plan after 2 results: the job stopped?>"])

    def test_more_results_than_plan(self):
        job = ["=== HOTCOLD-JOB-BEGIN test ===\n", "TAP version 13\n",
               "ok 1 - a\n", "ok 2 - b\n", "1..1\n", "=== HOTCOLD-JOB-END test rc=0 ===\n"]
        self.assertEqual([n for n, ok, _ in results.guest_tap(job) if not ok],
                         ["guest <2 results for a plan of 1>"])

    def test_no_tap_expected(self):
        out = run(*EXPECT, "hotcold", "results-pass.log", NO_JOB)
        self.assertEqual(fails(out), ["FAIL hotcold: guest <no TAP output>"])
        self.assertEqual(results.guest_tap([]), [])

    def test_output_outside_the_job_ignored(self):
        job = ["ok 9 - before\n", "=== HOTCOLD-JOB-BEGIN test ===\n", "TAP version 13\n",
               "not ok 1 - a\n", "1..1\n", "=== HOTCOLD-JOB-END test rc=1 ===\n"]
        self.assertEqual(results.guest_tap(job), [("guest a", False, False)])


class RealLog(unittest.TestCase):
    """A real hotcold test-job log (build/logs/hotcold-test.log from make
    test: 16 cases, a "# module:" line, a console message between the
    suite's plan and its first result), and faults planted in it."""

    def setUp(self):
        self.log = lines("results-real-hotcold-test.log")
        self.end = next(i for i, l in enumerate(self.log) if l.startswith("----- job output"))

    def kunit_fails(self, log):
        return [n for n, ok, _ in results.kunit(log, ["pcp_hotcold"]) if not ok]

    def test_real_log_output_unchanged(self):
        with open(data("results-real-hotcold-test.expected")) as f:
            want = f.read().splitlines()
        out = run(*EXPECT, "hotcold", "results-real-hotcold-test.log",
                  "results-real-hotcold-test.out")
        self.assertEqual(out, want)
        self.assertEqual(out[-1], "COUNT 29 0")

    def test_planted_missing_suite(self):
        log = [l.replace("] 1..1\n", "] 1..2\n") for l in self.log]
        self.assertEqual(self.kunit_fails(log), ["kunit <suite 2 of 2 never reported>"])

    def test_planted_missing_case(self):
        log = [l.replace("]     1..16\n", "]     1..17\n") for l in self.log]
        self.assertEqual(self.kunit_fails(log), ["kunit pcp_hotcold.<case 17 never reported>"])

    def test_planted_crash(self):
        # the console stops after case 7: no job output either
        cut = next(i for i, l in enumerate(self.log) if "    ok 7 " in l) + 1
        self.assertEqual(self.kunit_fails(self.log[:cut]),
                         ["kunit pcp_hotcold.<case %d never reported: crash?>" % i
                          for i in range(8, 17)])

    def test_planted_no_ktap(self):
        log = [l for l in self.log[:self.end]
               if not results.TS.sub("", l).startswith(("KTAP", "1..", "    ", "ok ", "# "))]
        self.assertEqual(self.kunit_fails(log),
                         ["kunit pcp_hotcold.<suite never ran: no KTAP output on the console>"])

    def test_planted_guest_stop(self):
        job = lines("results-real-hotcold-test.out")
        cut = next(i for i, l in enumerate(job) if l.startswith("ok 7 ")) + 1
        self.assertEqual([n for n, ok, _ in results.guest_tap(job[:cut], True) if not ok],
                         ["guest <no plan after 7 results: the job stopped?>"])


if __name__ == "__main__":
    unittest.main()
