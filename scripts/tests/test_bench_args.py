# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench.sh's settings checks: a bad setting (a
CONFIGS list, ROUNDS, QUICK, L2WAYS, ...) fails at once, naming the
setting, its value and the values it takes, and writes nothing to the
build directory (a temporary one here).

No run can get further than the checks: the build directory's lock file
is a directory, so lock_build, the first thing bench.sh does once every
setting is checked, fails ("cannot open .../.lock").  A good value fails
there, a bad one that got past its check too, with the wrong message.
The environment is PATH and BUILD only (and no bytecode written, as
scripts/tests/run.py): no setting of the caller's leaks in."""
import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from hcreport import plan  # noqa: E402

# what a run that passed every check fails with
PASSED = "FAILED: cannot open "
WAYS = "expected 0, 1, 2, 4, 8, 16, 32 or 64"


def bench(**settings):
    """bench.sh run with these settings: (process, files written under
    the build directory, whether build/bench exists)"""
    tmp = tempfile.TemporaryDirectory()
    try:
        os.mkdir(os.path.join(tmp.name, ".lock"))
        e = dict(settings, PATH=os.environ["PATH"], BUILD=tmp.name, PYTHONDONTWRITEBYTECODE="1")
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench.sh")], env=e,
                           capture_output=True, text=True, timeout=60)
        files = [os.path.join(d, f) for d, _, fs in os.walk(tmp.name) for f in fs]
        return p, files, os.path.exists(os.path.join(tmp.name, "bench"))
    finally:
        tmp.cleanup()


def check(**settings):
    """bench/report.py plan check, in this process (bench.sh's first
    step, which checks every setting but BIG_MB): (status, its output)"""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = plan.main(["check"], dict(settings))
    return rc, out.getvalue() + err.getvalue()


class Refusals(unittest.TestCase):
    """A setting refused or passed by the plan's check; E2E (bench.sh
    itself, slower) for the settings bench.sh checks before the plan
    (BIG_MB), and to show that bench.sh stops at the plan's refusal
    with nothing written and goes on (to its lock) after a pass"""
    E2E = ("BIG_MB",)

    def assert_refused(self, says, **settings):
        if not any(k in self.E2E for k in settings):
            rc, err = check(**settings)
            self.assertEqual(rc, 1, err)
            self.assertIn("FAILED: " + says if "=" in says.split(":")[0] else says, err)
            return
        p, files, out = bench(**settings)
        err = p.stdout + p.stderr
        self.assertNotEqual(p.returncode, 0, err)
        self.assertIn(says, err)
        self.assertNotIn(PASSED, err)
        self.assertEqual(files, [])
        self.assertFalse(out, "build/bench was made")

    def assert_passes(self, **settings):
        if not any(k in self.E2E for k in settings):
            rc, err = check(**settings)
            self.assertEqual(rc, 0, err)
            return
        p, files, out = bench(**settings)
        self.assertIn(PASSED, p.stdout + p.stderr)
        self.assertEqual(files, [])


class EndToEnd(Refusals):
    """through scripts/bench.sh"""
    E2E = ("CONFIGS", "QUICK", "MODES", "HOTCOLD_KERNEL", "WORKLOADS")

    def test_a_refusal_stops_bench_sh_with_nothing_written(self):
        self.assert_refused("unknown configuration 'bogus'", CONFIGS="vanilla bogus")
        self.assert_refused("HOTCOLD_KERNEL=x: run-guest.sh's override", HOTCOLD_KERNEL="x")

    def test_a_pass_goes_on_to_the_lock(self):
        self.assert_passes(QUICK="1")
        self.assert_passes(MODES="")


class BenchConfigs(Refusals):
    def test_an_unknown_name(self):
        self.assert_refused("unknown configuration 'bogus'", CONFIGS="vanilla bogus")

    def test_a_name_is_not_a_pattern(self):
        self.assert_refused("unknown configuration 'hotcold.off'", CONFIGS="vanilla hotcold.off")

    def test_a_prefix_is_not_a_name(self):
        self.assert_refused("unknown configuration 'hot'", CONFIGS="vanilla hot")

    def test_a_name_twice(self):
        self.assert_refused("'hotcold-off' twice", CONFIGS="vanilla hotcold-off hotcold-off")

    def test_without_vanilla(self):
        self.assert_refused("vanilla is the baseline", CONFIGS="hotcold single")

    def test_good_names_pass_the_check(self):
        self.assert_passes(CONFIGS="vanilla hotcold-off nopcp")


class BenchSettings(Refusals):
    """One case per setting (test_<its name>), each with bad values; the
    last test checks that every setting bench.sh checks has its case."""

    def refused(self, name, *values_says):
        for value, says in values_says:
            with self.subTest(value=value):
                self.assert_refused("%s=%s: %s" % (name, value, says), **{name: value})

    def test_modes(self):
        says = "expected one or more of: wall icount cachesim (each once)"
        self.refused("MODES", ("wall bogus", says), ("wall wall", says), (" ", says), ("*", says))

    def test_quick(self):
        self.refused("QUICK", ("yes", "expected 0 or 1"), ("2", "expected 0 or 1"))

    def test_rounds(self):
        says = "expected a whole number from 1 to 20"
        self.refused("ROUNDS", ("abc", says), ("0", says), ("21", says), ("-1", says))

    def test_secs(self):
        says = "expected a whole number from 1 to 30"
        self.refused("SECS", ("1.5", says), ("31", says))

    def test_scale(self):
        says = "expected a whole number from 1 to 10"
        self.refused("SCALE", ("0", says), ("02", says), ("99999999999999999999", says))

    def test_det_rounds(self):
        self.refused("DET_ROUNDS", ("x", "expected a whole number from 1 to 20"))

    def test_icount_rounds(self):
        self.refused("ICOUNT_ROUNDS", ("x", "expected a whole number from 1 to 20"),
                     ("21", "expected a whole number from 1 to 20"),
                     ("2", "below DET_ROUNDS=6, and the instructions have every round"))
        self.assert_refused("ICOUNT_ROUNDS=8: MODES (cachesim) has no icount",
                            MODES="cachesim", ICOUNT_ROUNDS="8")
        # unset: 10, or DET_ROUNDS if more; QUICK's rounds its own, what
        # ever was asked; as many as DET_ROUNDS change nothing, icount or not
        self.assert_passes(DET_ROUNDS="12")
        self.assert_passes(QUICK="1", ICOUNT_ROUNDS="8")
        self.assert_passes(QUICK="1", DET_ROUNDS="5", ICOUNT_ROUNDS="4")
        self.assert_passes(DET_ROUNDS="5", ICOUNT_ROUNDS="5")
        self.assert_passes(MODES="cachesim", ICOUNT_ROUNDS="6")
        self.assert_refused("ICOUNT_ROUNDS=3: below DET_ROUNDS=6", MODES="cachesim",
                            ICOUNT_ROUNDS="3")

    def test_icount_rounds_without_their_boot(self):
        """no workload of the run in the boot that takes icount's rounds
        beyond DET_ROUNDS: DET_ROUNDS rounds, said when they were asked"""
        p, files, _ = bench(ICOUNT_ROUNDS="8", WORKLOADS="compile")
        self.assertIn("ICOUNT_ROUNDS=8: no workload of the run is in the boot that takes "
                      "icount's rounds beyond DET_ROUNDS (mem) -- 6 rounds", p.stdout + p.stderr)
        self.assertIn(PASSED, p.stdout + p.stderr)
        p, files, _ = bench(ICOUNT_ROUNDS="8", WORKLOADS="pagefault_anon")
        self.assertNotIn("no workload of the run is in the boot", p.stdout + p.stderr)

    def test_prog_rounds(self):
        self.refused("PROG_ROUNDS", ("two", "expected a whole number from 1 to 20"))

    def test_sweep_rounds(self):
        self.refused("SWEEP_ROUNDS", ("0", "expected a whole number from 1 to 20"))

    def test_geometry(self):
        self.refused("GEOMETRY", ("zen4", "expected zen3 or v1"))

    def test_l2ways(self):
        # (the plugin reads 010 as octal and 0x10 as hex: refused too)
        self.refused("L2WAYS", ("12", WAYS), ("010", WAYS), ("0x10", WAYS), ("abc", WAYS))

    def test_l3ways(self):
        self.refused("L3WAYS", ("full", WAYS), ("128", WAYS))

    def test_shuffle(self):
        says = "expected 0 or 1"
        self.refused("SHUFFLE", ("yes", says), ("on", says), ("2", says), ("01", says))

    def test_big_mb(self):
        # scripts/disk.sh's, checked before bench.sh starts
        says = "expected a whole number from 384 to 4096"
        self.refused("BIG_MB", ("64", says), ("1G", says))

    def test_run_name(self):
        # (the run directory's name after its date and time: no path, no
        # space, no glob, no option)
        says = ("expected a name of 1 to 40 letters, digits, '.', '_' or '-', starting with "
                "a letter or digit")
        self.refused("RUN_NAME", ("a/b", says), ("../x", says), ("-x", says), (".x", says),
                     ("a b", says), ("a*", says), ("r\u00e9sultat", says), ("x" * 41, says))

    def test_jobs(self):
        says = "expected a whole number from 1 to 64"
        self.refused("JOBS", ("0", says), ("65", says), ("two", says), ("-1", says), ("02", says))

    def test_run_guest_overrides(self):
        for name in ("HOTCOLD_KERNEL", "HOTCOLD_ICOUNT"):
            with self.subTest(name=name):
                self.assert_refused("%s=x: run-guest.sh's override, not for make bench" % name,
                                    **{name: "x"})

    def test_workloads(self):
        self.assert_refused("unknown workload 'bogus' in WORKLOADS", WORKLOADS="pagefault_anon bogus")
        # the in-kernel microbenchmark alone, and MODES has a deterministic mode
        self.assert_refused("WORKLOADS=alloc: only wall-mode workloads", WORKLOADS="alloc")
        # a sweep alone (deterministic modes only), and MODES has wall
        self.assert_refused("WORKLOADS=sweep_exit_0_40_16: only workloads of the deterministic modes",
                            WORKLOADS="sweep_exit_0_40_16", MODES="wall icount cachesim")
        # the default modes are the deterministic ones: a sweep alone runs
        self.assert_passes(WORKLOADS="sweep_exit_0_40_16")

    def test_bounds_and_defaults_pass(self):
        self.assert_passes()
        self.assert_passes(QUICK="1")
        # empty: the default
        self.assert_passes(ROUNDS="", QUICK="", MODES="", SHUFFLE="")
        self.assert_passes(MODES="cachesim wall", ROUNDS="20", SECS="30", SCALE="10",
                           DET_ROUNDS="20", PROG_ROUNDS="20", SWEEP_ROUNDS="20",
                           GEOMETRY="v1", L2WAYS="64", L3WAYS="0", BIG_MB="4096", QUICK="0",
                           SHUFFLE="0", RUN_NAME="x" * 40, JOBS="64")
        self.assert_passes(MODES="icount", ROUNDS="1", SECS="1", SCALE="1", DET_ROUNDS="1",
                           ICOUNT_ROUNDS="20", PROG_ROUNDS="1", SWEEP_ROUNDS="1", L2WAYS="1", L3WAYS="16",
                           BIG_MB="384", WORKLOADS="pagefault_anon", SHUFFLE="1",
                           RUN_NAME="v3_rc1-full.2", JOBS="1")
        self.assert_passes(RUN_NAME="", JOBS="")

    def test_hosts(self):
        with tempfile.TemporaryDirectory() as tmp:
            empty, bad, good = (os.path.join(tmp, n) for n in ("empty", "bad", "good"))
            with open(empty, "w") as f:
                f.write("# no login\n\n")
            with open(bad, "w") as f:
                f.write("4/host1\nhost2; rm -rf x\n")
            with open(good, "w") as f:
                f.write(":\n2/user@host1\n")
            self.refused("HOSTS", (os.path.join(tmp, "none"), "cannot read it"),
                         (empty, "no login in it"),
                         (bad, "'host2; rm -rf x': expected [N/]HOST"))
            self.assert_passes(HOSTS=good)

    def test_run_seed(self):
        says = "expected a whole number from 0 to 2^64-1"
        self.refused("RUN_SEED", ("abc", says), ("-1", says), ("012", says),
                     (str(2 ** 64), says), ("1.5", says))
        self.assert_passes(RUN_SEED="0")
        self.assert_passes(RUN_SEED="fixed")
        self.assert_passes(RUN_SEED=str(2 ** 64 - 1))

    def test_config_base(self):
        self.refused("CONFIG_BASE", ("debian", "expected lean or distro"),
                     ("Distro", "expected lean or distro"))

    def test_suite(self):
        self.refused("SUITE", ("programs shapes", "expected auto, shapes, programs or both"),
                     ("all", "expected auto, shapes, programs or both"))

    def test_silicon(self):
        self.refused("SILICON", ("yes", "expected 0 or 1"), ("off", "expected 0 or 1"))
        self.assert_passes(SILICON="0")

    def test_silicon_wait(self):
        says = "expected a whole number from 0 to 3600"
        self.refused("SILICON_WAIT", ("10m", says), ("3601", says), ("-1", says))
        self.assert_passes(SILICON_WAIT="0")

    def test_residency(self):
        self.refused("RESIDENCY", ("yes", "expected 0 or 1"), ("2", "expected 0 or 1"))

    def test_dry_run(self):
        self.refused("DRY_RUN", ("yes", "expected 0 or 1"), ("2", "expected 0 or 1"))

    def test_every_bad_value_is_named(self):
        """one error line per bad value, all of them, nothing written"""
        p, files, out = bench(MODES="bogus", SCALE="0", JOBS="x")
        err = p.stdout + p.stderr
        for says in ("MODES=bogus: expected", "SCALE=0: expected", "JOBS=x: expected"):
            self.assertIn(says, err)
        self.assertEqual(err.count("FAILED"), 3, err)
        self.assertEqual(files, [])

    def test_table_names_checked_beside_a_bad_setting(self):
        """a bad simple setting does not hide a bad CONFIGS or WORKLOADS"""
        rc, err = check(ROUNDS="x", CONFIGS="vanilla bogus", WORKLOADS="nope")
        self.assertEqual(rc, 1, err)
        for says in ("ROUNDS=x: expected", "unknown configuration 'bogus'",
                     "unknown workload 'nope'"):
            self.assertIn(says, err)
        self.assertEqual(err.count("FAILED"), 3, err)

    def test_notes_of_rounds_the_run_cannot_use(self):
        """DET_ROUNDS below a verdict's 4, and QUICK's rounds over those
        asked: passed, with a note"""
        for settings, says in (({"DET_ROUNDS": "3"}, "DET_ROUNDS=3: below the 4 rounds a "
                                "verdict needs -- no cell gets a verdict word"),
                               ({"QUICK": "1", "ICOUNT_ROUNDS": "12"},
                                "QUICK=1: ICOUNT_ROUNDS=12 ignored")):
            with self.subTest(settings=settings):
                rc, out = check(**settings)
                self.assertEqual(rc, 0, out)
                self.assertIn(says, out)
        rc, out = check(DET_ROUNDS="4")
        self.assertNotIn("hotcold: ", out)

    def test_every_setting_has_a_case(self):
        names = []
        with open(os.path.join(ROOT, "scripts", "disk.sh")) as f:
            names += re.findall(r"^\s*setting_[a-z]+ ([A-Z0-9_]+)", f.read(), re.M)
        with open(os.path.join(ROOT, "bench", "hcreport", "plan.py")) as f:
            plan = f.read()
        names += re.findall(r"\bs\.(?:int|choice|words|name)\(\"([A-Z0-9_]+)\"", plan)
        names += re.findall(r"\bhosts_of\(s, s\.get\(\"([A-Z0-9_]+)\"", plan)
        names += re.findall(r"\"(RUN_SEED)\"", plan)
        self.assertGreaterEqual(len(names), 18)
        for name in names:
            self.assertTrue(hasattr(self, "test_" + name.lower()), "%s has no test" % name)


if __name__ == "__main__":
    unittest.main()
