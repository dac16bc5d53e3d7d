# SPDX-License-Identifier: GPL-2.0
"""Unit tests for bench/calibrate's ping-pong (calibrate.c built with gcc
and run with --pingpong --quick): a probe thread that cannot pin itself
or stops answering ends the measurement, not make bench.  The threads are
made to fail by calibrate.c's planted faults, so no hand-off is timed."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "calibrate", "calibrate.c")


@unittest.skipUnless(shutil.which("gcc"), "no gcc")
@unittest.skipUnless(len(os.sched_getaffinity(0)) > 1, "one CPU: calibrate measures no ping-pong")
class PingPong(unittest.TestCase):

    def run_planted(self, *defines):
        """calibrate --pingpong --quick built with DEFINES: its output"""
        with tempfile.TemporaryDirectory() as d:
            exe = os.path.join(d, "calibrate")
            subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-pthread"] +
                           ["-D" + x for x in defines] + ["-o", exe, SRC], check=True)
            # a hang is the failure this guards against: 20 s is far past
            # the planted faults' milliseconds
            p = subprocess.run([exe, "--pingpong", "--quick"], capture_output=True, text=True,
                               timeout=20)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_a_probe_thread_that_cannot_pin_itself_ends_it(self):
        self.assertEqual(self.run_planted("CALIBRATE_PLANT_PONG_UNPINNED"),
                         "calibrate xfer_ns pingpong=none cpus=unpinned\n")

    def test_a_probe_thread_that_stops_answering_ends_it(self):
        # the thread gone without a word: the main thread's wait times out
        self.assertEqual(self.run_planted("CALIBRATE_PLANT_PONG_SILENT",
                                          "CALIBRATE_WAIT_NS=20e6"),
                         "calibrate xfer_ns pingpong=none cpus=stalled\n")


if __name__ == "__main__":
    unittest.main()
