# SPDX-License-Identifier: GPL-2.0
"""Unit tests for scripts/peer.py: the comparison of the kernel's own mm
tests between vanilla and the series' flavours.  Each case writes job
outputs as guest/jobs/mmtests.sh prints them and pins the verdict lines
that scripts/test.sh tallies."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(HERE), "peer.py")

spec = importlib.util.spec_from_file_location("peer", SCRIPT)
peer = importlib.util.module_from_spec(spec)
spec.loader.exec_module(peer)

SUITES = ["--suite", "modules=test_meminit,test_free_pages", "--suite", "selftests="]


def job(*results, plan=True):
    """The job output of a mmtests run with the given (verdict, name)."""
    lines = ["=== HOTCOLD-JOB-BEGIN mmtests ===", "TAP version 13"]
    for i, (verdict, name) in enumerate(results, 1):
        lines.append({"ok": "ok %d - %s",
                      "fail": "not ok %d - %s # exit 1",
                      "skip": "ok %d - %s # SKIP exit 4"}[verdict] % (i, name))
    if plan:
        lines.append("1..%d" % len(results))
    lines.append("=== HOTCOLD-JOB-END mmtests rc=0 ===")
    return "\n".join(lines) + "\n"


GOOD = [("ok", "test_free_pages"), ("fail", "test_meminit: test_pages"),
        ("ok", "cow: Basic COW"), ("ok", "cow: Basic COW"), ("ok", "cow"),
        ("ok", "mremap_test")]


class Peer(unittest.TestCase):
    def run_peer(self, **outs):
        with tempfile.TemporaryDirectory() as d:
            args = []
            for flavour, text in outs.items():
                path = os.path.join(d, flavour + ".out")
                if text is not None:
                    with open(path, "w") as f:
                        f.write(text)
                args.append("%s=%s" % (flavour, path))
            p = subprocess.run([sys.executable, SCRIPT] + SUITES + args,
                               capture_output=True, text=True)
        return p.returncode, p.stdout.splitlines()

    def verdicts(self, lines):
        return [x for x in lines if not x.startswith("INFO")]

    def test_same_results_pass(self):
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=job(*GOOD))
        self.assertEqual(rc, 0)
        self.assertEqual(self.verdicts(out), [
            "ok peer modules on hotcold: all 1 tests that pass on vanilla pass",
            "ok peer selftests on hotcold: all 4 tests that pass on vanilla pass"])
        self.assertIn("INFO modules on vanilla: 1 passed, 1 failed, 0 skipped", out)

    def test_regression_is_named(self):
        bad = list(GOOD)
        bad[3] = ("fail", "cow: Basic COW")     # the second of two same names
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=job(*GOOD), debug=job(*bad))
        self.assertEqual(rc, 1)
        self.assertIn("FAIL peer selftests on debug: cow: Basic COW #2 "
                      "(failed on debug, passed on vanilla)", out)
        self.assertIn("ok peer selftests on hotcold: all 4 tests that pass on vanilla pass", out)

    def test_skip_where_vanilla_passed_fails(self):
        bad = list(GOOD)
        bad[5] = ("skip", "mremap_test")
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=job(*bad))
        self.assertEqual(rc, 1)
        self.assertIn("FAIL peer selftests on hotcold: mremap_test "
                      "(skipped on hotcold, passed on vanilla)", out)

    def test_crash_midway_names_the_missing_tests(self):
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=job(*GOOD[:3], plan=False))
        self.assertEqual(rc, 1)
        self.assertIn("FAIL peer selftests on hotcold: cow (never reported on hotcold, "
                      "passed on vanilla)", out)
        self.assertIn("INFO selftests on hotcold: 1 passed, 0 failed, 0 skipped "
                      "(output incomplete)", out)

    def test_no_output_is_not_run(self):
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=None)
        self.assertEqual(rc, 1)
        self.assertIn("FAIL peer modules: NOT RUN on hotcold (no TAP: see its log)", out)

    def test_reference_missing_is_not_run(self):
        rc, out = self.run_peer(vanilla="", hotcold=job(*GOOD))
        self.assertEqual(rc, 1)
        self.assertEqual(self.verdicts(out), [
            "FAIL peer modules: NOT RUN on vanilla (no complete TAP: see its log)",
            "FAIL peer selftests: NOT RUN on vanilla (no complete TAP: see its log)"])

    def test_reference_with_nothing_passing_is_not_run(self):
        rc, out = self.run_peer(vanilla=job(("fail", "test_free_pages"), ("ok", "cow")),
                                hotcold=job(("fail", "test_free_pages"), ("ok", "cow")))
        self.assertEqual(rc, 1)
        self.assertIn("FAIL peer modules: NOT RUN (no test passed on vanilla)", out)

    def test_failure_on_reference_is_not_held(self):
        better = [("ok", n) for _, n in GOOD]
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=job(*better))
        self.assertEqual(rc, 0)

    # uffd-unit-tests stops at its first error: the later cases are never
    # reported, and the job runs the binary again as "retry ..."
    FLAKY = GOOD[:3] + [("fail", "cow"), ("ok", "retry cow: Basic COW"),
                        ("ok", "retry cow: Basic COW"), ("ok", "retry cow"),
                        ("ok", "mremap_test")]

    def test_pass_on_retry_counts_and_is_named_flaky(self):
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=job(*self.FLAKY))
        self.assertEqual(rc, 0)
        self.assertIn("INFO flaky on hotcold: cow: Basic COW #2 "
                      "(did not pass, then passed on the retry)", out)
        self.assertIn("INFO flaky on hotcold: cow (did not pass, then passed on the retry)",
                      out)
        self.assertIn("ok peer selftests on hotcold: all 4 tests that pass on vanilla pass", out)

    def test_failing_twice_fails(self):
        twice = list(self.FLAKY)
        twice[5] = ("fail", "retry cow: Basic COW")
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=job(*twice))
        self.assertEqual(rc, 1)
        self.assertIn("FAIL peer selftests on hotcold: cow: Basic COW #2 "
                      "(failed on hotcold, passed on vanilla)", out)
        self.assertNotIn("INFO flaky on hotcold: cow: Basic COW #2 "
                         "(did not pass, then passed on the retry)", out)

    def test_pass_on_a_later_retry_counts(self):
        later = GOOD[:3] + [("fail", "cow"), ("fail", "retry cow: Basic COW"),
                            ("fail", "retry cow"), ("ok", "retry2 cow: Basic COW"),
                            ("ok", "retry2 cow: Basic COW"), ("ok", "retry2 cow"),
                            ("ok", "mremap_test")]
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=job(*later))
        self.assertEqual(rc, 0, out)
        self.assertIn("INFO flaky on hotcold: cow (did not pass, then passed on the retry)",
                      out)
        never = [x for x in later if not x[1].startswith("retry2")]
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=job(*never))
        self.assertEqual(rc, 1)

    def test_skip_on_retry_is_no_pass(self):
        skipped = list(self.FLAKY)
        skipped[6] = ("skip", "retry cow")
        rc, out = self.run_peer(vanilla=job(*GOOD), hotcold=job(*skipped))
        self.assertEqual(rc, 1)
        self.assertIn("FAIL peer selftests on hotcold: cow (failed on hotcold, "
                      "passed on vanilla)", out)

    def test_flaky_reference_still_holds_the_others(self):
        rc, out = self.run_peer(vanilla=job(*self.FLAKY), hotcold=job(*GOOD[:4]))
        self.assertEqual(rc, 1)
        self.assertIn("INFO flaky on vanilla: cow (did not pass, then passed on the retry)",
                      out)
        self.assertIn("FAIL peer selftests on hotcold: mremap_test (never reported on "
                      "hotcold, passed on vanilla)", out)

    def test_bad_argument(self):
        p = subprocess.run([sys.executable, SCRIPT, "vanilla"], capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        p = subprocess.run([sys.executable, SCRIPT, "vanilla", "hotcold"],
                           capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("FLAVOUR=JOB_OUTPUT", p.stderr)


if __name__ == "__main__":
    unittest.main()
