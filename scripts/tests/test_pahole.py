# SPDX-License-Identifier: GPL-2.0
"""scripts/pahole.sh's checks, which come before it installs or compiles
anything: each kernel asked for must be a flavour, be built, and have
kbuild's recorded command for mm/page_alloc.o.  A stand-in BUILD; nothing
is installed or compiled, and no build/pahole is made."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CMD = ("savedcmd_mm/page_alloc.o := ccache gcc -Wp,-MMD,mm/.page_alloc.o.d -O2 "
       "-c -o mm/page_alloc.o ../mm/page_alloc.c\n")


class Checks(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def kernel(self, flavour, cmd=CMD):
        d = os.path.join(self.build, "kernel-%s" % flavour, "mm")
        os.makedirs(d)
        with open(os.path.join(d, ".page_alloc.o.cmd"), "w") as f:
            f.write(cmd)
        open(os.path.join(d, "page_alloc.o"), "w").close()

    def pahole(self, *flavours):
        env = dict(os.environ, BUILD=self.build)
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts/pahole.sh")] + list(flavours),
                           env=env, capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertFalse(os.path.exists(os.path.join(self.build, "pahole")), "wrote build/pahole")
        return p.stderr

    def test_an_unknown_flavour(self):
        self.assertIn("nosuch", self.pahole("nosuch"))

    def test_a_kernel_not_built(self):
        self.kernel("vanilla")
        err = self.pahole("vanilla", "single")
        self.assertIn("no built single kernel", err)
        self.assertIn("scripts/build-kernel.sh single", err)

    def test_the_default_kernels_are_checked_first(self):
        self.kernel("vanilla")
        self.kernel("single")
        self.assertIn("no built hotcold-bench kernel", self.pahole())

    def test_no_recorded_command(self):
        self.kernel("vanilla", "savedcmd_mm/page_alloc.o := echo nothing\n")
        self.assertIn("no 'gcc -Wp,-MMD,... -c -o mm/page_alloc.o' command", self.pahole("vanilla"))

    def test_no_dependency_file_option(self):
        # the script drops kbuild's -Wp,-MMD: without it, nothing to drop
        self.kernel("vanilla", CMD.replace("-Wp,-MMD,mm/.page_alloc.o.d ", ""))
        self.assertIn("no 'gcc -Wp,-MMD,... -c -o mm/page_alloc.o' command", self.pahole("vanilla"))

    def test_a_source_newer_than_the_object(self):
        self.kernel("vanilla")
        obj = os.path.join(self.build, "kernel-vanilla/mm/page_alloc.o")
        os.utime(obj, (1000, 1000))
        os.makedirs(os.path.join(self.build, "include/linux"))
        open(os.path.join(self.build, "include/linux/mmzone.h"), "w").close()
        err = self.pahole("vanilla")
        self.assertIn("include/linux/mmzone.h is newer than the vanilla kernel's mm/page_alloc.o", err)
        self.assertIn("scripts/build-kernel.sh vanilla", err)


if __name__ == "__main__":
    unittest.main()
