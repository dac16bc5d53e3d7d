#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the kernel's own tests across flavours: every test that passes
on the reference kernel (vanilla) must pass on each other flavour.

Reads the guest TAP of the mmtests job (guest/jobs/mmtests.sh) from each
flavour's job output, split into suites by the test's name prefix
(SUITE=PREFIX,PREFIX...; a test belongs to the first suite whose prefix
it starts with, else to the last suite).  Prints, for make test's tally:
  * one "INFO" line per suite and flavour: passed, failed, skipped;
  * per suite and compared flavour, "ok peer SUITE on FLAVOUR: ..." when
    every test that passed on the reference passed on it, else one
    "FAIL peer SUITE on FLAVOUR: NAME (...)" per such test that failed,
    was skipped or never reported there;
  * "FAIL peer SUITE: NOT RUN on FLAVOUR" when a job output has no TAP at
    all or its TAP is cut short (then nothing can be compared), or when
    the reference passed no test of a suite (nothing to hold others to).
A test that fails on the reference is not held against the others; the
INFO line counts it.  Repeated names get " #2", " #3" in output order.

The job runs some failing binaries again and names those results "retry
NAME...", "retry2 NAME...", ... (guest/jobs/mmtests.sh).  A test that did
not pass on the first run but passed on a retry counts as passed, on
every flavour alike, and gets one "INFO flaky on FLAVOUR: NAME" line; a
test that fails on every run still fails.

usage: peer.py [--suite NAME=PREFIX,...]... REF=OUT FLAVOUR=OUT...
exits 1 when any FAIL line was printed.
"""
import argparse
import importlib.util
import re
import os
import sys

sys.dont_write_bytecode = True
_spec = importlib.util.spec_from_file_location(
    "results", os.path.join(os.path.dirname(os.path.abspath(__file__)), "results.py"))
results = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(results)


# "retry NAME", "retry2 NAME", ...: the job's second, third... run
RETRY = re.compile(r"^retry([0-9]*) ")


def read_tests(path):
    """{name: "pass"|"fail"|"skip"} in output order, whether the TAP was
    complete (a plan, as many results as planned), and the names that
    passed only on the retry."""
    try:
        with open(path, errors="replace") as f:
            lines = f.readlines()
    except OSError:
        return {}, False, []
    tests, retried = {}, {}
    complete = True
    seen = {}
    for name, ok, skip in results.guest_tap(lines, expect=True):
        if name.startswith("guest <"):
            complete = False            # no TAP, no plan, short plan
            continue
        name = name[len("guest "):]
        attempt = 0
        m = RETRY.match(name)
        if m:
            attempt = int(m.group(1) or 1)
            name = name[m.end():]
        into = tests if not attempt else retried.setdefault(attempt, {})
        key = (name, attempt)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            name = "%s #%d" % (name, seen[key])
        into[name] = "skip" if skip else "pass" if ok else "fail"
    flaky = []
    for attempt in sorted(retried):
        for name, verdict in retried[attempt].items():
            if verdict == "pass" and tests.get(name) != "pass":
                if name not in flaky:
                    flaky.append(name)
                tests[name] = "pass"
            elif name not in tests:
                tests[name] = verdict
    return tests, complete and bool(tests), flaky


def split(tests, suites):
    out = {s: {} for s, _ in suites}
    for name, verdict in tests.items():
        for suite, prefixes in suites:
            if any(name.startswith(p) for p in prefixes):
                break
        else:
            suite = suites[-1][0]
        out[suite][name] = verdict
    return out


def compare(suites, runs):
    """runs: [(flavour, tests, complete, flaky)], the reference first.
    Returns the output lines and the number of FAIL lines."""
    lines = []
    fails = 0
    for flavour, _, _, flaky in runs:
        for name in flaky:
            lines.append("INFO flaky on %s: %s (did not pass, then passed on the retry)"
                         % (flavour, name))
    by = [(f, split(t, suites), c) for f, t, c, _ in runs]
    ref, ref_suites, ref_complete = by[0]
    for suite, _ in suites:
        for flavour, s, complete in by:
            t = s[suite]
            lines.append("INFO %s on %s: %d passed, %d failed, %d skipped%s" % (
                suite, flavour, sum(v == "pass" for v in t.values()),
                sum(v == "fail" for v in t.values()), sum(v == "skip" for v in t.values()),
                "" if complete else " (output incomplete)"))
        want = [n for n, v in ref_suites[suite].items() if v == "pass"]
        if not ref_complete:
            lines.append("FAIL peer %s: NOT RUN on %s (no complete TAP: see its log)"
                         % (suite, ref))
            fails += 1
            continue
        if not want:
            lines.append("FAIL peer %s: NOT RUN (no test passed on %s)" % (suite, ref))
            fails += 1
            continue
        for flavour, s, complete in by[1:]:
            if not complete and not any(s[x] for x, _ in suites):
                lines.append("FAIL peer %s: NOT RUN on %s (no TAP: see its log)"
                             % (suite, flavour))
                fails += 1
                continue
            bad = []
            for name in want:
                got = s[suite].get(name)
                if got != "pass":
                    bad.append("%s (%s on %s, passed on %s)" % (
                        name, {"fail": "failed", "skip": "skipped"}.get(got, "never reported"),
                        flavour, ref))
            for b in bad:
                lines.append("FAIL peer %s on %s: %s" % (suite, flavour, b))
            fails += len(bad)
            if not bad:
                lines.append("ok peer %s on %s: all %d tests that pass on %s pass" % (
                    suite, flavour, len(want), ref))
    return lines, fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", action="append", default=[], metavar="NAME=PREFIX,...",
                    help="a suite and the name prefixes of its tests (repeatable; "
                         "the last one takes every other test)")
    ap.add_argument("runs", nargs="+", metavar="FLAVOUR=OUT")
    args = ap.parse_args()
    suites = []
    for s in args.suite or ["all="]:
        name, _, prefixes = s.partition("=")
        if not name:
            ap.error("--suite %r: no name" % s)
        suites.append((name, [p for p in prefixes.split(",") if p]))
    if len(args.runs) < 2:
        ap.error("give the reference and at least one flavour to compare")
    runs = []
    for r in args.runs:
        flavour, sep, path = r.partition("=")
        if not sep or not flavour or not path:
            ap.error("%r: expected FLAVOUR=JOB_OUTPUT" % r)
        runs.append((flavour,) + read_tests(path))
    lines, fails = compare(suites, runs)
    print("\n".join(lines))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
