# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench-collect.sh's det.csv: with icount and
cachesim both asked for, each cachesim boot's icount rows derived from
it (the base's round 1 checked against its icount boot), and the rows
of a configuration of icount alone (bench/configs.tsv's modes icount:
real icount boots, no cachesim boot) and of one of fewer rounds kept as
they are; and resid.csv, the residency meter's boots' rows, one boot at
least of every configuration the plan names.  The report's commands are
stood in for."""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# python3 of the stand-in: the header, and an icount row naming the
# cachesim boot it is derived from (and whether it was checked)
PYTHON = """#!/bin/bash
case $2 in
det-header) echo header ;;
resid-header) echo resid-header ;;
icount-rows) echo "derived ${3##*/}${4:+ checked}" ;;
*) exit 9 ;;
esac
"""


class Collect(unittest.TestCase):
    def collect(self, files, plan=""):
        with tempfile.TemporaryDirectory() as d:
            run, bin_dir = os.path.join(d, "run"), os.path.join(d, "bin")
            os.makedirs(run)
            os.makedirs(bin_dir)
            with open(os.path.join(bin_dir, "python3"), "w") as f:
                f.write(PYTHON)
            os.chmod(os.path.join(bin_dir, "python3"), 0o755)
            files = dict(files, **{"plan.sh": 'DET=1\nBOTH=1\nWALL=0\nBASE=vanilla\n'
                                              'BOOT_ORDER="mem 2cpu"\n' + plan})
            for name, text in files.items():
                with open(os.path.join(run, name), "w") as f:
                    f.write(text + "\n")
            p = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench-collect.sh"), run],
                               env=dict(PATH=bin_dir + ":" + os.environ["PATH"],
                                        BUILD=os.path.join(d, "build")),
                               capture_output=True, text=True, timeout=60)
            det = ""
            if os.path.exists(os.path.join(run, "det.csv")):
                with open(os.path.join(run, "det.csv")) as f:
                    det = f.read()
            self.resid = None
            if os.path.exists(os.path.join(run, "resid.csv")):
                with open(os.path.join(run, "resid.csv")) as f:
                    self.resid = f.read().splitlines()
            return p.returncode, p.stderr, det.splitlines()

    def test_icount_alone_and_fewer_rounds(self):
        rc, err, det = self.collect({
            "icount-vanilla-1-mem.csv": "vanilla 1 booted",
            "cachesim-vanilla-1-mem.csv": "cachesim vanilla 1",
            "cachesim-vanilla-4-mem.csv": "cachesim vanilla 4",
            "cachesim-vanilla-1-2cpu.csv": "cachesim vanilla 1 2cpu",
            # a configuration of fewer rounds: its first only
            "cachesim-nopcp-1-mem.csv": "cachesim nopcp 1",
            # icount alone: no cachesim boot, its icount boots' rows
            "icount-power-1-mem.csv": "power 1 booted",
            "icount-power-7-mem.csv": "power 7 booted"})
        self.assertEqual(rc, 0, err)
        self.assertEqual(det, [
            "header",
            "derived cachesim-nopcp-1-mem.csv", "power 1 booted", "power 7 booted",
            "derived cachesim-vanilla-1-mem.csv checked", "derived cachesim-vanilla-4-mem.csv",
            "derived cachesim-vanilla-1-2cpu.csv",
            "cachesim nopcp 1", "cachesim vanilla 1", "cachesim vanilla 4",
            "cachesim vanilla 1 2cpu"])
        self.assertIn("icount: 4 boots' rows from the cachesim boots", err)

    def test_the_base_check_boot_is_needed(self):
        rc, err, _ = self.collect({"cachesim-vanilla-1-mem.csv": "cachesim vanilla 1",
                                   "icount-power-1-mem.csv": "power 1 booted"})
        self.assertNotEqual(rc, 0)
        self.assertIn("the icount check boot (vanilla, round 1) wrote no rows", err)


    BOOTS = {"icount-vanilla-1-mem.csv": "vanilla 1 booted",
             "cachesim-vanilla-1-mem.csv": "cachesim vanilla 1"}

    def test_the_meters_rows_apart(self):
        rc, err, det = self.collect(dict(self.BOOTS, **{
            "resid-vanilla-1-mem.csv": "resid vanilla",
            "resid-hotcold-1-mem.csv": "resid hotcold"}), 'RESID="vanilla hotcold"\n')
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.resid, ["resid-header", "resid vanilla", "resid hotcold"])
        self.assertNotIn("resid vanilla", det)

    def test_a_meter_boot_without_rows_fails(self):
        rc, err, _ = self.collect(dict(self.BOOTS, **{"resid-vanilla-1-mem.csv": "resid"}),
                                  'RESID="vanilla hotcold"\n')
        self.assertNotEqual(rc, 0)
        self.assertIn("no rows of the residency meter's boot of hotcold", err)

    def test_no_meter_no_resid_csv(self):
        rc, err, _ = self.collect(self.BOOTS, 'RESID=""\n')
        self.assertEqual(rc, 0, err)
        self.assertIsNone(self.resid)


if __name__ == "__main__":
    unittest.main()
