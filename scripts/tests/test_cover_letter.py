# SPDX-License-Identifier: GPL-2.0
"""Unit tests for scripts/cover-letter.py.

Fixtures (data/):
  cover-old.patch        the committed cover letter: folded Subject, a
                         blurb, the old shortlog (2 patches) and diffstat
  cover-new/             a fresh 'git format-patch --cover-letter' export:
                         0000-cover-letter.patch with the placeholders and
                         the new shortlog (3 patches), 0001..0003 patches
                         whose last Date is Fri, 4 Dec 2026 17:21:09
  cover-expected.patch   cover-new/0000 after the script: old subject and
                         blurb, new shortlog and diffstat, the last Date
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
SCRIPT = os.path.join(os.path.dirname(HERE), "cover-letter.py")

spec = importlib.util.spec_from_file_location("cover_letter", SCRIPT)
cover = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cover)


def read(path):
    with open(path) as f:
        return f.read()


class CoverLetter(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.out = os.path.join(self.tmp, "export")
        shutil.copytree(os.path.join(DATA, "cover-new"), self.out)
        self.new = os.path.join(self.out, "0000-cover-letter.patch")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_script(self, old):
        subprocess.run([sys.executable, SCRIPT, old, self.new], check=True)
        return read(self.new)

    def test_export(self):
        got = self.run_script(os.path.join(DATA, "cover-old.patch"))
        self.assertEqual(got, read(os.path.join(DATA, "cover-expected.patch")))

    def test_stable(self):
        # an unchanged series exports byte-identically: run on its own output
        first = self.run_script(os.path.join(DATA, "cover-old.patch"))
        again = os.path.join(self.tmp, "again.patch")
        shutil.copy(self.new, again)
        shutil.copy(os.path.join(DATA, "cover-new", "0000-cover-letter.patch"), self.new)
        self.assertEqual(self.run_script(again), first)

    def test_no_old_cover_keeps_placeholders(self):
        got = self.run_script(os.path.join(self.tmp, "missing.patch"))
        self.assertIn("Subject: [PATCH 0/3] *** SUBJECT HERE ***\n", got)
        self.assertIn("\n*** BLURB HERE ***\n\nHotcold Developers (3):\n", got)
        self.assertIn("\nDate: Fri, 4 Dec 2026 17:21:09 +0000\n", got)

    def test_date_from_the_last_patch(self):
        got = self.run_script(os.path.join(DATA, "cover-old.patch"))
        self.assertEqual([line for line in got.split("\n") if line.startswith("Date:")],
                         ["Date: Fri, 4 Dec 2026 17:21:09 +0000"])

    def test_no_patches_keeps_date(self):
        for f in os.listdir(self.out):
            if f != "0000-cover-letter.patch":
                os.unlink(os.path.join(self.out, f))
        got = self.run_script(os.path.join(DATA, "cover-old.patch"))
        self.assertIn("\nDate: Sat, 5 Dec 2026 09:00:00 +0000\n", got)

    def test_old_parts(self):
        subj, blurb = cover.old_parts(os.path.join(DATA, "cover-old.patch"))
        self.assertEqual(subj, "mm: hot and cold per-cpu page queues, again, with a "
                         "subject long enough to be folded")
        self.assertTrue(blurb.startswith("Linux 2.5.45 put two"))
        self.assertTrue(blurb.endswith("  sdet  +0.26 %\n"))
        self.assertNotIn("Hotcold Developers (2):", blurb)


if __name__ == "__main__":
    unittest.main()
