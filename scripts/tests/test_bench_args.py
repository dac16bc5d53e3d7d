# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench.sh's argument checks: a bad CONFIGS list
fails at once, saying why, and writes nothing to the build directory (a
temporary one here).  Every run has DET_ROUNDS=x, the next check, so
that none goes further: a good list fails there, a bad one that got past
its check too, with the wrong message."""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class BenchConfigs(unittest.TestCase):
    def bench(self, configs):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        e = dict(os.environ, BUILD=tmp.name, CONFIGS=configs, DET_ROUNDS="x")
        for k in ("WORKLOADS", "QUICK", "MODES", "HOTCOLD_BUILD_LOCK"):
            e.pop(k, None)
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench.sh")], env=e,
                           capture_output=True, text=True, timeout=60)
        files = [os.path.join(d, f) for d, _, fs in os.walk(tmp.name) for f in fs]
        return p, [f for f in files if not f.endswith("/.lock")]

    def assert_refused(self, configs, says):
        p, files = self.bench(configs)
        self.assertNotEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn(says, p.stdout + p.stderr)
        self.assertEqual(files, [])

    def test_an_unknown_name(self):
        self.assert_refused("vanilla bogus", "unknown configuration 'bogus'")

    def test_a_name_is_not_a_pattern(self):
        self.assert_refused("vanilla hotcold.off", "unknown configuration 'hotcold.off'")

    def test_a_prefix_is_not_a_name(self):
        self.assert_refused("vanilla hot", "unknown configuration 'hot'")

    def test_a_name_twice(self):
        self.assert_refused("vanilla hotcold-off hotcold-off", "'hotcold-off' twice")

    def test_without_vanilla(self):
        self.assert_refused("hotcold single", "vanilla is the baseline")

    def test_good_names_pass_the_check(self):
        p, _ = self.bench("vanilla hotcold-off nopcp")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("DET_ROUNDS=x", p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main()
