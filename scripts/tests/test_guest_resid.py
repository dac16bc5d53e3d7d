# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the guest's residency meter load (guest/jobs/bench.sh's
resid_load): the module loaded with the plant, inside a phase of its own
that the guest names resid_plant; cold hints honoured unless the series'
switch reads 0 (a kernel without the switch honours them); a module
missing or refused fails with the reason, the phase closed.  Run under
busybox's sh (the guest's shell) when the host has busybox, else the
host's sh; taskset, insmod and the phase tool are stand-ins that log."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shfunc import shell_function  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHELL = ["busybox", "sh"] if shutil.which("busybox") else ["sh"]
with open(os.path.join(ROOT, "guest/jobs/bench.sh")) as f:
    RESID_LOAD = shell_function(f.read(), "resid_load", "guest/jobs/bench.sh")

DRIVER = """set -u
B=%(tmp)s
LOG=%(tmp)s/log
taskset() { shift 2; "$@"; }
insmod() { echo "insmod $*" >>$LOG; return %(insmod_rc)s; }
%(function)s
out=$(resid_load %(ko)s %(switch)s) || { echo "FAILED: $out"; cat $LOG; exit 1; }
echo "$out"
cat $LOG
"""


class ResidLoad(unittest.TestCase):
    def run_guest(self, switch=None, ko=True, insmod_rc=0):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "phase"), "w") as f:
                f.write('#!/bin/sh\necho "phase $1" >>%s/log\n' % tmp)
            os.chmod(os.path.join(tmp, "phase"), 0o755)
            path = os.path.join(tmp, "hotcold_resid.ko")
            if ko:
                with open(path, "w") as f:
                    f.write("")
            sw = os.path.join(tmp, "percpu_pagelist_hot_cold")
            if switch is not None:
                with open(sw, "w") as f:
                    f.write(switch + "\n")
            p = subprocess.run(SHELL + ["-c", DRIVER % dict(
                tmp=tmp, function=RESID_LOAD, ko=path, switch=sw, insmod_rc=insmod_rc)],
                capture_output=True, text=True, timeout=30)
            return p.returncode, p.stdout.replace(tmp, "T")

    def test_loaded_in_its_own_phase_with_the_plant(self):
        rc, out = self.run_guest("1")
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.splitlines(), [
            "hotcold-phase resid_plant ops=1 cpu=0", "phase begin",
            "insmod T/hotcold_resid.ko honoured=1 plant=1", "phase end"])

    def test_the_switch_at_0_frees_every_page_hot(self):
        rc, out = self.run_guest("0")
        self.assertEqual(rc, 0, out)
        self.assertIn("insmod T/hotcold_resid.ko honoured=0 plant=1", out)

    def test_a_kernel_without_the_switch_honours_cold_hints(self):
        rc, out = self.run_guest(None)
        self.assertEqual(rc, 0, out)
        self.assertIn("honoured=1", out)

    def test_no_module_fails(self):
        rc, out = self.run_guest("1", ko=False)
        self.assertEqual(rc, 1)
        self.assertIn("FAILED: no T/hotcold_resid.ko", out)

    def test_a_module_refused_fails_the_phase_closed(self):
        rc, out = self.run_guest("1", insmod_rc=1)
        self.assertEqual(rc, 1)
        self.assertEqual(out.splitlines(), [
            "FAILED: insmod T/hotcold_resid.ko failed", "phase begin",
            "insmod T/hotcold_resid.ko honoured=1 plant=1", "phase end"])


if __name__ == "__main__":
    unittest.main()
