# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/test.sh's first stages, run for real with stubs
in place of the scripts they call (ROOT points at a scratch tree whose
scripts/ holds the stubs beside links to lib.sh and tally.sh): a step the
later stages need that fails stops the run with a failed test of its
stage, in test-results.txt and in test-results.ktap; a run that dies
before its summary leaves no KTAP file from an earlier run."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location(
    "ktapcheck", os.path.join(ROOT, "scripts", "tests", "ktapcheck.py"))
ktapcheck = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ktapcheck)

PATCHES = ["0001-mm-one.patch", "0002-mm-two.patch"]


class FirstStages(unittest.TestCase):
    def setUp(self):
        tmpdir = tempfile.TemporaryDirectory()
        self.addCleanup(tmpdir.cleanup)
        self.root = tmpdir.name
        os.makedirs(os.path.join(self.root, "scripts"))
        os.makedirs(os.path.join(self.root, "patches"))
        for f in ["scripts/lib.sh", "scripts/tally.sh", "source.conf"]:
            os.symlink(os.path.join(ROOT, f), os.path.join(self.root, f))
        with open(os.path.join(self.root, "patches", "series"), "w") as f:
            f.write("\n".join(PATCHES) + "\n")
        self.logs = os.path.join(self.root, "build", "logs")
        self.stub("deps.sh")
        self.stub("source.sh")
        self.stub("tree.sh")
        self.stub("checkpatch.sh", 'echo "ok 0001-mm-one.patch"\necho "FAIL 0002-mm-two.patch"\nexit 1')

    def stub(self, name, body="exit 0"):
        path = os.path.join(self.root, "scripts", name)
        with open(path, "w") as f:
            f.write("#!/bin/bash\n%s\n" % body)
        os.chmod(path, 0o755)

    def run_test_sh(self):
        env = dict(os.environ, ROOT=self.root, BUILD=os.path.join(self.root, "build"))
        env.pop("HOTCOLD_BUILD_LOCK", None)
        return subprocess.run(["bash", os.path.join(ROOT, "scripts", "test.sh")], env=env,
                              capture_output=True, text=True, timeout=60)

    def last_line(self, p):
        self.assertTrue(p.stdout, "no summary; stderr:\n" + p.stderr)
        return p.stdout.splitlines()[-1]

    def read(self, name):
        with open(os.path.join(self.logs, name)) as f:
            return f.read()

    def test_a_failed_build_stops_the_run_in_its_stage(self):
        self.stub("build-kernel.sh", 'echo "hotcold: build: FAILED: $1" >&2\nexit 1')
        p = self.run_test_sh()
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(self.last_line(p), "1 passed, 2 failed")
        self.assertEqual(self.read("test-results.txt").splitlines(), [
            "ok   checkpatch 0001-mm-one.patch",
            "FAIL checkpatch 0002-mm-two.patch (build/logs/checkpatch.txt)",
            "FAIL build hotcold: scripts/build-kernel.sh hotcold (failed; the run stops here)"])
        ktap = self.read("test-results.ktap")
        top = ktapcheck.parse(ktap)
        self.assertEqual([(t.name, t.ok, t.counts()) for t in top.subtests],
                         [("checkpatch", False, (1, 1, 0)), ("build hotcold", False, (0, 1, 0))])
        self.assertIn("  # build hotcold: scripts/build-kernel.sh hotcold: failed; the run stops here\n"
                      "  not ok 1 build hotcold: scripts/build-kernel.sh hotcold\n"
                      "not ok 2 build hotcold\n", ktap)

    def test_a_failed_first_step(self):
        self.stub("deps.sh", "exit 1")
        p = self.run_test_sh()
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(self.last_line(p), "0 passed, 1 failed")
        top = ktapcheck.parse(self.read("test-results.ktap"))
        self.assertEqual([(t.name, [c.name for c in t.subtests]) for t in top.subtests],
                         [("deps", ["deps: scripts/deps.sh"])])

    def test_no_ktap_from_an_earlier_run(self):
        os.makedirs(self.logs)
        with open(os.path.join(self.logs, "test-results.ktap"), "w") as f:
            f.write("KTAP version 1\n1..0\n")
        # the run dies before its summary
        self.stub("deps.sh", "kill -KILL $PPID")
        self.assertEqual(self.run_test_sh().returncode, -9)
        self.assertFalse(os.path.exists(os.path.join(self.logs, "test-results.ktap")))


if __name__ == "__main__":
    unittest.main()
