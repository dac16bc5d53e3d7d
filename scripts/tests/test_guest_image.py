# SPDX-License-Identifier: GPL-2.0
"""Every file a guest script sources (". /guest/X") or runs ("sh
/guest/X") is packed into the guest image, and so is every job:
scripts/initramfs.sh's stage_guest_scripts, run into a temporary stage
(the rest of the image, busybox, the ext4 image and the programs, needs
tools a unit test does not).  A file left out would fail only in the
guest, after the kernels are built and booted."""
import glob
import os
import re
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USES = re.compile(r"^\s*(?:\.|sh)\s+/guest/([\w/.-]+\.sh)\b", re.M)


def stage_function():
    """initramfs.sh's stage_guest_scripts() definition"""
    with open(os.path.join(ROOT, "scripts", "initramfs.sh")) as f:
        m = re.search(r"^stage_guest_scripts\(\) \{\n.*?^\}\n", f.read(), re.M | re.S)
    if not m:
        raise AssertionError("scripts/initramfs.sh has no function stage_guest_scripts()")
    return m.group(0)


def guest_scripts():
    """the guest's shell scripts in the tree"""
    paths = [os.path.join(ROOT, "guest", "init")]
    paths += glob.glob(os.path.join(ROOT, "guest", "*.sh"))
    paths += glob.glob(os.path.join(ROOT, "guest", "*", "*.sh"))
    return sorted(paths)


def used(paths):
    """(script, path under /guest) of each file a script sources or runs"""
    out = []
    for p in paths:
        with open(p) as f:
            out += [(os.path.relpath(p, ROOT), u) for u in USES.findall(f.read())]
    return out


class GuestImage(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.stage = tmp.name
        os.makedirs(os.path.join(self.stage, "guest"))
        subprocess.run(["bash", "-c", 'set -eu\n%s\nstage_guest_scripts "$1"' % stage_function(),
                        "stage", self.stage], env=dict(os.environ, ROOT=ROOT), check=True,
                       capture_output=True, timeout=30)

    def test_every_sourced_file_is_packed(self):
        uses = used(guest_scripts())
        # (the bench job's workload families among them: the test sees them)
        self.assertGreaterEqual(len([u for s, u in uses if s == "guest/jobs/bench.sh"]), 6)
        missing = [(s, "/guest/" + u) for s, u in uses
                   if not os.path.isfile(os.path.join(self.stage, "guest", u))]
        self.assertEqual(missing, [], "script, a file it sources or runs that the image lacks")

    def test_every_job_is_packed(self):
        jobs = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "guest", "jobs", "*.sh")))
        self.assertEqual(sorted(os.listdir(os.path.join(self.stage, "guest", "jobs"))), jobs)

    def test_a_file_left_out_is_found(self):
        os.remove(os.path.join(self.stage, "guest", "bench", "w2002.sh"))
        missing = [u for _, u in used(guest_scripts())
                   if not os.path.isfile(os.path.join(self.stage, "guest", u))]
        self.assertEqual(missing, ["bench/w2002.sh"])


if __name__ == "__main__":
    unittest.main()
