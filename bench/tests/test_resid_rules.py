# SPDX-License-Identifier: GPL-2.0
"""The residency meter's rules (bench/module/resid_rules.h), checked on the
host: bench/module/resid_test.c built with gcc and run (a TAP case per
stack each rule names), and built again with its planted fault, hot and
cold swapped in the class, which every case that gets a class must fail."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "module", "resid_test.c")


@unittest.skipUnless(shutil.which("gcc"), "no gcc")
class Rules(unittest.TestCase):

    def run_test(self, *defines):
        """resid_test built with DEFINES: (exit status, TAP output)"""
        with tempfile.TemporaryDirectory() as d:
            exe = os.path.join(d, "resid_test")
            subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror"] +
                           ["-D" + x for x in defines] + ["-o", exe, SRC], check=True)
            p = subprocess.run([exe], capture_output=True, text=True, timeout=20)
        return p.returncode, p.stdout

    def test_every_rule_classes_its_stacks(self):
        rc, out = self.run_test()
        self.assertEqual(rc, 0, out)
        self.assertNotIn("not ok", out)
        self.assertIn("# residency rules: 25 passed, 0 failed", out)

    def test_the_planted_swap_of_hot_and_cold_fails_every_labelled_case(self):
        rc, out = self.run_test("RESID_PLANT_SWAP_LABELS")
        self.assertNotEqual(rc, 0, out)
        failed = [line for line in out.splitlines() if line.startswith("not ok")]
        self.assertEqual(len(failed), 16, out)
        self.assertTrue(all(("hot" in line or "cold" in line or "label" in line or
                             "rule * 2" in line) for line in failed), failed)


if __name__ == "__main__":
    unittest.main()
