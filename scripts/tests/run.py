#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the harness's Python unit tests: scripts/tests and bench/tests
(files test_*.py, python3's unittest, fixtures in each data/ folder).
Exits non-zero when any test fails or errors, or when none was found.

usage: scripts/tests/run.py [-v]
"""
import os
import sys
import unittest

# no __pycache__ in the source tree
sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIRS = ["scripts/tests", "bench/tests"]


def main():
    verbosity = 2 if "-v" in sys.argv[1:] else 1
    suite = unittest.TestSuite()
    for d in DIRS:
        suite.addTests(unittest.TestLoader().discover(os.path.join(ROOT, d), pattern="test_*.py",
                                       top_level_dir=os.path.join(ROOT, d)))
    if not suite.countTestCases():
        print("no unit tests found under %s" % ", ".join(DIRS), file=sys.stderr)
        return 1
    result = unittest.TextTestRunner(verbosity=verbosity).run(suite)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
