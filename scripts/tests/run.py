#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the harness's Python unit tests: scripts/tests and bench/tests
(files test_*.py, python3's unittest, fixtures in each data/ folder).
Exits non-zero when any test fails or errors, or when none was found.
With --results FILE, also writes one line per test case to FILE: "ok
python: ID" or "FAIL python: ID" (scripts/unit.sh counts them).

usage: scripts/tests/run.py [-v] [--results FILE]
"""
import os
import sys
import unittest

# no __pycache__ in the source tree
sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIRS = ["scripts/tests", "bench/tests"]


class Recorder(unittest.TextTestResult):
    """The runner's result, which also keeps every case's verdict."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.verdicts = []

    def addSuccess(self, test):
        super().addSuccess(test)
        self.verdicts.append(("ok", test.id()))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.verdicts.append(("FAIL", test.id()))

    def addError(self, test, err):
        super().addError(test, err)
        self.verdicts.append(("FAIL", test.id()))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.verdicts.append(("ok", "%s (skipped: %s)" % (test.id(), reason)))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.verdicts.append(("ok", "%s (expected failure)" % test.id()))

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.verdicts.append(("FAIL", "%s (unexpected success)" % test.id()))

    def addSubTest(self, test, subtest, err):
        # a failing subtest fails without its case's addSuccess
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.verdicts.append(("FAIL", subtest.id()))


def main():
    args = sys.argv[1:]
    verbosity = 2 if "-v" in args else 1
    results = None
    if "--results" in args:
        i = args.index("--results")
        if i + 1 >= len(args):
            print(__doc__.strip().splitlines()[-1], file=sys.stderr)
            return 2
        results = args[i + 1]
    suite = unittest.TestSuite()
    for d in DIRS:
        suite.addTests(unittest.TestLoader().discover(os.path.join(ROOT, d), pattern="test_*.py",
                                       top_level_dir=os.path.join(ROOT, d)))
    if not suite.countTestCases():
        print("no unit tests found under %s" % ", ".join(DIRS), file=sys.stderr)
        return 1
    result = unittest.TextTestRunner(verbosity=verbosity, resultclass=Recorder).run(suite)
    if results:
        with open(results, "w") as f:
            for verdict, name in result.verdicts:
                f.write("%s python: %s\n" % (verdict, name))
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
