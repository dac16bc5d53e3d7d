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


class Guest(unittest.TestCase):
    """An empty kernel and guest image in a scratch BUILD."""

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


class Dimm(Guest):
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


class WhichQemu(Guest):
    """Under --icount, more than one vCPU boots build/qemu's QEMU (turns);
    everything else Debian's."""

    def qemu(self, *opts):
        p = self.run_guest(*opts)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.splitlines()[0]

    def test_icount_with_two_vcpus_boots_qemu_with_turns(self):
        self.assertEqual(self.qemu("--icount", "--smp", "2"),
                         os.path.join(self.build, "qemu/qemu-system-x86_64"))

    def test_icount_with_one_vcpu_boots_debians(self):
        self.assertEqual(self.qemu("--icount", "--smp", "1"), "qemu-system-x86_64")

    def test_two_vcpus_without_icount_boot_debians(self):
        self.assertEqual(self.qemu("--smp", "2"), "qemu-system-x86_64")

    def test_no_qemu_with_turns_fails_a_real_boot_and_names_the_script(self):
        env = dict(os.environ, BUILD=self.build)
        p = subprocess.run(["bash", RUN_GUEST, "--icount", "--smp", "2", "hotcold", "offline"],
                           env=env, capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("run scripts/qemu.sh", p.stderr)

    def test_hotcold_qemu_debian_boots_debians_with_two_vcpus(self):
        env = dict(os.environ, BUILD=self.build, HOTCOLD_QEMU="debian")
        p = subprocess.run(["bash", RUN_GUEST, "--dry-run", "--icount", "--smp", "2", "hotcold", "offline"],
                           env=env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines()[0], "qemu-system-x86_64")

    def test_a_qemu_built_from_another_version_fails_and_names_the_script(self):
        os.makedirs(os.path.join(self.build, "qemu"))
        binary = os.path.join(self.build, "qemu/qemu-system-x86_64")
        with open(binary, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(binary, 0o755)
        with open(os.path.join(self.build, "qemu/stamp"), "w") as f:
            f.write("1:0.1+old 0123456789abcdef --target-list=x86_64-softmmu\n")
        env = dict(os.environ, BUILD=self.build)
        p = subprocess.run(["bash", RUN_GUEST, "--icount", "--smp", "2", "hotcold", "offline"],
                           env=env, capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("was built from QEMU 1:0.1+old", p.stderr)
        self.assertIn("run scripts/qemu.sh", p.stderr)

    def test_bad_vcpu_counts_fail(self):
        for bad in ("0", "9", "two", ""):
            p = self.run_guest("--smp", bad)
            self.assertNotEqual(p.returncode, 0, bad)
            self.assertIn("--smp '%s': expected a number of vCPUs from 1 to 8" % bad, p.stderr, bad)
            self.assertEqual(p.stdout, "", bad)


if __name__ == "__main__":
    unittest.main()
