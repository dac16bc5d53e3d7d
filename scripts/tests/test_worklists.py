# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/worklists.sh, which scripts/bench.sh sources:
its wall_lists and det_workloads hand the WORKLOADS list to
bench/report.py boot-workloads (the one rule, tested in
bench/tests/test_workloads.py) and give its answer as the boots take it
("none" for a deterministic boot with nothing to run), or fail with it."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from hcreport.workloads import boot_workloads  # noqa: E402


def run(script, root=ROOT, **env):
    e = dict(PATH=os.environ["PATH"], ROOT=root, PYTHONDONTWRITEBYTECODE="1", **env)
    p = subprocess.run(["bash", "-c", 'set -u; . "%s/scripts/worklists.sh"; %s' % (ROOT, script)],
                       env=e, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout.rstrip("\n"), p.stderr


class Wrappers(unittest.TestCase):
    def test_wall_lists(self):
        for listed in ("", "-web -sdet_1", "web pagefault_anon", "sweep_exit_0_40_16"):
            with self.subTest(listed=listed):
                rc, out, err = run('wall_lists; echo "$WALL_MAIN|$WALL_PROG"',
                                   WALL_WORKLOADS=listed)
                self.assertEqual(rc, 0, err)
                self.assertEqual(out.split("|"), [" ".join(boot_workloads(b, listed.split()))
                                                  for b in ("wall", "wall-prog")])

    def test_det_workloads(self):
        for listed, boot in (("", "mem"), ("-web", "prog"), ("web", "mem"), ("", "sweep"),
                             ("compile -compile", "prog")):
            with self.subTest(listed=listed, boot=boot):
                rc, out, err = run("det_workloads %s" % boot, DET_WORKLOADS=listed)
                self.assertEqual(rc, 0, err)
                want = " ".join(boot_workloads(boot, listed.split()))
                self.assertEqual(out, want or "none")

    def test_a_report_that_fails_fails_them(self):
        with tempfile.TemporaryDirectory() as fake:
            os.mkdir(os.path.join(fake, "bench"))
            with open(os.path.join(fake, "bench", "report.py"), "w") as f:
                f.write("import sys\nprint('the table does not parse', file=sys.stderr)\n"
                        "sys.exit(2)\n")
            for script in ("wall_lists", "det_workloads mem"):
                with self.subTest(script=script):
                    rc, out, err = run(script, root=fake, WALL_WORKLOADS="", DET_WORKLOADS="")
                    self.assertNotEqual(rc, 0)
                    self.assertEqual(out, "")
                    self.assertIn("the table does not parse", err)


if __name__ == "__main__":
    unittest.main()
