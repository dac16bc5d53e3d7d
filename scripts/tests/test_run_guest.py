# SPDX-License-Identifier: GPL-2.0
"""scripts/run-guest.sh's options, read from the QEMU command line that
--dry-run prints (an argument a line): no kernel is booted.  The kernel
and guest images are empty stand-ins in a scratch BUILD."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_GUEST = os.path.join(ROOT, "scripts/run-guest.sh")


class Dimm(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build = self.tmp.name
        boot = os.path.join(self.build, "kernel-hotcold/arch/x86/boot")
        os.makedirs(boot)
        for f in (os.path.join(boot, "bzImage"), os.path.join(self.build, "initramfs.cpio.gz")):
            open(f, "w").close()

    def tearDown(self):
        self.tmp.cleanup()

    def run_guest(self, *opts):
        env = dict(os.environ, BUILD=self.build)
        return subprocess.run(["bash", RUN_GUEST, "--dry-run"] + list(opts) + ["hotcold", "offline"],
                              env=env, capture_output=True, text=True)

    def test_a_dimm_beside_the_memory(self):
        p = self.run_guest("--mem", "512", "--dimm", "256")
        self.assertEqual(p.returncode, 0, p.stderr)
        argv = p.stdout.splitlines()
        self.assertEqual(argv[argv.index("-m") + 1], "512,slots=1,maxmem=768M")
        self.assertEqual(argv[argv.index("-object") + 1], "memory-backend-ram,id=hcdimm,size=256M")
        self.assertEqual(argv[argv.index("-device") + 1], "pc-dimm,id=dimm0,memdev=hcdimm")

    def test_no_dimm_by_default(self):
        p = self.run_guest("--mem", "512")
        self.assertEqual(p.returncode, 0, p.stderr)
        argv = p.stdout.splitlines()
        self.assertEqual(argv[argv.index("-m") + 1], "512")
        self.assertNotIn("pc-dimm,id=dimm0,memdev=hcdimm", argv)

    def test_bad_sizes_fail_with_the_rule(self):
        for bad, says in (("abc", "a multiple of 128"), ("100", "a multiple of 128"),
                          ("0", "a multiple of 128"), ("0128", "a multiple of 128"),
                          ("", "a multiple of 128")):
            p = self.run_guest("--dimm", bad)
            self.assertNotEqual(p.returncode, 0, bad)
            self.assertIn("--dimm %s: expected" % bad, p.stderr, bad)
            self.assertIn(says, p.stderr, bad)
            self.assertEqual(p.stdout, "", bad)

    def test_bad_memory_sizes_fail(self):
        for bad in ("1G", "0", "", "512+1"):
            p = self.run_guest("--mem", bad, "--dimm", "256")
            self.assertNotEqual(p.returncode, 0, bad)
            self.assertIn("--mem %s: expected a number of MB" % bad, p.stderr, bad)
            self.assertEqual(p.stdout, "", bad)

    def test_a_dimm_needs_a_value(self):
        p = self.run_guest("--dimm")
        self.assertNotEqual(p.returncode, 0)


if __name__ == "__main__":
    unittest.main()
