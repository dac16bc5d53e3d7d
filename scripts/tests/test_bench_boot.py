# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench-boot.sh, one boot of the plan's job file:
the QEMU command line each kind of line gives (its seed, command line,
kernel relinked at its round's pads, vCPUs, shape, archive, model on or
off, workloads in the line's order), and its refusals (a line that is
not the plan's, an image not relinked at the line's pads, a failed
guest named with its log); and scripts/run-guest.sh's --seed.

No kernel is built or booted: the stand-in root's scripts/run-guest.sh
is the real one with --dry-run (it prints the QEMU command line), the
images are empty files, and python3 is a stand-in for the report's
calls, lock-sites, boot-state and det-rows (which read a real boot's
System.map and output)."""
import contextlib
import io
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from hcreport import configs, plan  # noqa: E402

RUN = dict(CONFIGS="vanilla hotcold hotcold-off single nopcp", DET_ROUNDS="3",
           ICOUNT_ROUNDS="5", RUN_SEED="99", LAYOUT_POINTS="fork filemap memblock open",
           WORKLOADS="sdet_1 pagefault_anon exit_flood readahead_other_cpu compile web "
                     "sweep_exit_0_40_16 trunc80k_tmpfs_n_ccd4 sdet_8_ccd4 compile_ccd8prog")

# run-guest.sh of the stand-in root: the real one with --dry-run, its
# arguments kept in ARGS/TAG and its output (QEMU's) in QEMU/TAG; FAIL_TAG
# fails like a guest whose workload failed
WRAPPER = """#!/bin/bash
tag='' prev=''
for a in "$@"; do
	[ "$prev" != --tag ] || tag=$a
	prev=$a
done
printf '%%s\\n' "$@" >"%(dir)s/args/$tag"
ROOT="%(root)s" bash "%(root)s/scripts/run-guest.sh" --dry-run "$@" >"%(dir)s/qemu/$tag" || exit
[ "$tag" != "${FAIL_TAG:-}" ] || { echo "hotcold-failed sdet_1" >"$BUILD/logs/out-$tag"; exit 1; }
"""
# python3 of the stand-in: the report's commands a boot asks
PYTHON = """#!/bin/bash
case ${2:-} in
calls) echo ;;
lock-sites) echo 0x1/0x2 ;;
boot-state) shift 2; echo "$*" >>"$BUILD/boot_state.args" ;;
det-rows) ;;
resid-rows) echo "resid-rows $*" >>"$BUILD/resid_rows.args" ;;
*) exec %(python)s "$@" ;;
esac
"""


class Boots(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        t = cls.tmp.name
        cls.fake, cls.build, cls.rundir = (os.path.join(t, d) for d in ("root", "build", "run"))
        for d in ("root/scripts", "bin", "args", "qemu", "run", "build/logs"):
            os.makedirs(os.path.join(t, d))
        os.symlink(os.path.join(ROOT, "source.conf"), os.path.join(cls.fake, "source.conf"))
        for name, text in (("root/scripts/run-guest.sh", WRAPPER % {"root": ROOT, "dir": t}),
                           ("bin/python3", PYTHON % {"python": sys.executable})):
            with open(os.path.join(t, name), "w") as f:
                f.write(text)
            os.chmod(os.path.join(t, name), 0o755)
        cls.write_plan(RUN)

    @classmethod
    def write_plan(cls, env):
        with contextlib.redirect_stderr(io.StringIO()):
            assert plan.main(["write", cls.rundir], dict(env)) == 0
        with open(os.path.join(cls.rundir, "jobs")) as f:
            cls.lines = {x.split(" ", 1)[0]: x for x in f.read().splitlines()}
        for name in ("initramfs.cpio.gz", "initramfs-programs.cpio.gz"):
            open(os.path.join(cls.build, name), "w").close()
        for line in cls.lines.values():
            kv = dict(w.split("=", 1) for w in line.split()[1:])
            d = os.path.join(cls.build, kv["image"])
            os.makedirs(os.path.join(d, "arch/x86/boot"), exist_ok=True)
            open(os.path.join(d, "arch/x86/boot/bzImage"), "w").close()
            with open(os.path.join(d, "pad"), "w") as f:
                f.write(kv["pad"].replace("/", " ") + "\n")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def boot(self, tag, line=None, **env):
        e = dict(PATH=os.path.join(self.tmp.name, "bin") + ":" + os.environ["PATH"],
                 ROOT=self.fake, BUILD=self.build, **env)
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench-boot.sh"), self.rundir,
                            line or self.lines[tag]], env=e, capture_output=True, text=True,
                           timeout=60)
        return p.returncode, p.stderr

    def qemu(self, tag):
        rc, err = self.boot(tag)
        self.assertEqual(rc, 0, err)
        with open(os.path.join(self.tmp.name, "qemu", tag)) as f:
            argv = f.read().splitlines()
        with open(os.path.join(self.tmp.name, "args", tag)) as f:
            return argv, f.read().splitlines()

    def one(self, argv, name):
        values = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == name]
        self.assertEqual(len(values), 1, (name, argv))
        return values[0]

    def test_each_kind_of_boot(self):
        kernel = {n: configs.row(n)["kernel"] for n in configs.names()}
        # tag: vCPUs, shape, with the programs archive
        want = {"cachesim-vanilla-1-mem": ("1", "", False),
                "cachesim-vanilla-repeat-1-mem": ("1", "", False),
                "icount-vanilla-1-mem": ("1", "", False),
                "icount-hotcold-off-4-mem": ("1", "", False),
                "cachesim-single-2-ccd8prog": ("8", "ccd8prog", True),
                "cachesim-nopcp-1-ccd4": ("4", "ccd4", False),
                "cachesim-hotcold-3-2cpu": ("2", "", False),
                "cachesim-single-1-sweep": ("1", "", False),
                "cachesim-hotcold-2-prog": ("1", "", True)}
        for tag, (smp, shape, archive) in want.items():
            with self.subTest(boot=tag):
                argv, given = self.qemu(tag)
                kv = dict(w.split("=", 1) for w in self.lines[tag].split()[1:] if
                          not w.startswith("append="))
                mode, rest = tag.split("-", 1)
                name, r = rest.rsplit("-", 2)[:2]
                append = self.one(argv, "-append").split()
                self.assertEqual(self.one(argv, "-seed"), kv["seed"])
                self.assertIn("page_alloc.shuffle=1", append)
                if name == "hotcold-off":
                    self.assertIn("percpu_pagelist_hot_cold=0", append)
                self.assertTrue(self.one(argv, "-kernel").endswith(
                    "/rounds/%s-%s/arch/x86/boot/bzImage" % (kernel[name], r)))
                self.assertEqual(self.one(argv, "-smp"), smp)
                self.assertIn(",sim=%s," % ("off" if mode == "icount" else "on"),
                              self.one(argv, "-plugin"))
                self.assertIn("-icount", argv)
                # the workloads in the line's order, after the guest's options
                args = [a for a in append if a.startswith("hotcold.args=")]
                self.assertEqual(args, ["hotcold.args=fixed,2,history=%s%s,%s" % (
                    r, ",shape=" + shape if shape else "", kv["workloads"])])
                self.assertEqual("--extra-initrd" in given, archive)
                self.assertIn("--no-disk", given)

    def test_a_meter_boot(self):
        """the residency meter's: cachesim's boot with resid=1 for the guest,
        the meter's module archive, the batch wrappers' addresses for the
        plugin (the cold one where the kernel has it), its rows through
        resid-rows"""
        maps = {"vanilla": "ffffffff811a2d80 T free_unref_folios\n",
                "hotcold-bench": "ffffffff811a3d60 T free_unref_folios\n"
                                 "ffffffff811a3d70 T free_unref_folios_cold\n"}
        for name, wrappers in (("vanilla", ",resid_hot=0xffffffff811a2d80,out="),
                               ("hotcold", ",resid_hot=0xffffffff811a3d60,"
                                           "resid_cold=0xffffffff811a3d70,out=")):
            with self.subTest(config=name):
                kernel = configs.row(name)["kernel"]
                with open(os.path.join(self.build, "rounds/%s-1/System.map" % kernel), "w") as f:
                    f.write("ffffffff81000000 T _text\n" + maps[kernel])
                tag = "resid-%s-1-mem" % name
                archive = os.path.join(self.build, "resid-%s.cpio.gz" % kernel)
                open(archive, "w").close()
                argv, given = self.qemu(tag)
                self.assertIn(archive, [given[i + 1] for i, a in enumerate(given[:-1])
                                        if a == "--extra-initrd"])
                self.assertIn(wrappers, self.one(argv, "-plugin"))
                self.assertIn(",sim=on,", self.one(argv, "-plugin"))
                args = [a for a in self.one(argv, "-append").split()
                        if a.startswith("hotcold.args=")]
                self.assertEqual(args, ["hotcold.args=fixed,2,history=1,resid=1,%s" %
                                        dict(w.split("=", 1) for w in self.lines[tag].split()[1:]
                                             if not w.startswith("append="))["workloads"]])
                with open(os.path.join(self.build, "resid_rows.args")) as f:
                    self.assertIn("resid-rows %s 1 " % name, f.read())
        # (a cachesim boot of the same kernel: no meter's argument, no archive)
        argv, given = self.qemu("cachesim-hotcold-1-mem")
        self.assertNotIn("resid_", self.one(argv, "-plugin"))
        self.assertFalse([a for a in given if "resid-" in a], given)
        # a kernel without free_unref_folios: refused
        with open(os.path.join(self.build, "rounds/single-1/System.map"), "w") as f:
            f.write("ffffffff81000000 T _text\n")
        rc, err = self.boot("resid-single-1-mem")
        self.assertNotEqual(rc, 0)
        self.assertIn("no free_unref_folios in", err)

    def test_a_wall_boot(self):
        """wall mode: timed (no -icount, no plugin, no seed), the programs
        in a boot of their own with the archive"""
        with open(os.path.join(self.rundir, "wall.jobs")) as f:
            lines = {x.split(" ", 1)[0]: x for x in f.read().splitlines()}
        self.assertEqual(lines, {}, "the run asked for no wall mode")
        run = {k: v for k, v in RUN.items() if k != "ICOUNT_ROUNDS"}
        run.update(MODES="wall", ROUNDS="2")
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(plan.main(["write", self.rundir], run), 0)
        try:
            with open(os.path.join(self.rundir, "wall.jobs")) as f:
                lines = {x.split(" ", 1)[0]: x for x in f.read().splitlines()}
            for tag in ("wall-vanilla-2-main", "wall-hotcold-1-prog"):
                with self.subTest(boot=tag):
                    kv = dict(w.split("=", 1) for w in lines[tag].split()[1:])
                    for d in ("kernel-vanilla", "kernel-hotcold-bench"):
                        os.makedirs(os.path.join(self.build, d, "arch/x86/boot"), exist_ok=True)
                        open(os.path.join(self.build, d, "arch/x86/boot/bzImage"), "w").close()
                    # (the guest's output, which a dry run does not write)
                    out = os.path.join(self.build, "logs", "%s-bench-%s.out" % (kv["kernel"], tag))
                    with open(out, "w") as f:
                        f.write("hotcold-result web requests_per_s=5.5\n")
                    rc, err = self.boot(None, lines[tag])
                    self.assertEqual(rc, 0, err)
                    with open(os.path.join(self.rundir, tag + ".csv")) as f:
                        self.assertEqual(f.read(), "web,requests_per_s,%s,%s,5.5\n" % (
                            kv["config"], kv["round"]))
                    with open(os.path.join(self.tmp.name, "qemu", tag)) as f:
                        argv = f.read().splitlines()
                    with open(os.path.join(self.tmp.name, "args", tag)) as f:
                        given = f.read().splitlines()
                    self.assertNotIn("-icount", argv)
                    self.assertEqual([a for a in argv if a.startswith("-plugin") or a == "-seed"], [])
                    self.assertIn("hotcold.args=wall,1,%s" % kv["workloads"],
                                  self.one(argv, "-append").split())
                    self.assertEqual("--extra-initrd" in given, tag.endswith("-prog"))
        finally:
            self.write_plan(RUN)

    def test_each_boot_is_checked_for_its_vcpus(self):
        self.qemu("cachesim-nopcp-1-ccd4")
        with open(os.path.join(self.build, "boot_state.args")) as f:
            self.assertIn("nopcp nopcp  %s/logs/nopcp-bench-cachesim-nopcp-1-ccd4.out 4" %
                          self.build, f.read().splitlines())

    def test_a_line_that_is_not_the_plans(self):
        line = self.lines["cachesim-vanilla-1-mem"]
        for bad, says in ((line.replace("seed=", "seed=0"), "seed '0"),
                          (line.replace("round=1", "round=x"), "round 'x'"),
                          (line.replace("image=rounds/vanilla-1", "image=../x"), "image '../x'"),
                          (line.replace("pad=", "pad=64,"), "pad '64,"),
                          (line.replace("layout=vanilla ", "layout=single "),
                           "layout 'single' neither the kernel's nor the configuration's"),
                          (line.replace("layout=vanilla ", "layout=vanilla-b "),
                           "image 'rounds/vanilla-1' of kernel 'vanilla' (layout 'vanilla-b')"),
                          (line + " bogus=1", "unknown key 'bogus'"),
                          (line.replace("workloads=", "workloads=a b,"), "'b,sdet_1,pagefault_anon,exit_flood': expected KEY=VALUE")):
            with self.subTest(bad=bad):
                rc, err = self.boot(None, bad)
                self.assertEqual(rc, 1)
                self.assertIn(says, err)

    def test_an_image_not_at_the_lines_pads(self):
        tag = "cachesim-vanilla-2-mem"
        line = self.lines[tag]
        pad = [w for w in line.split() if w.startswith("pad=")][0]
        other = pad[:-1] + ("1" if pad[-1] != "1" else "2")
        rc, err = self.boot(None, line.replace(pad, other))
        self.assertEqual(rc, 1)
        self.assertIn("is not relinked at the pads %s" % other[4:], err)

    def test_a_failed_guest_is_named_with_its_log(self):
        tag = "cachesim-hotcold-1-mem"
        rc, err = self.boot(tag, FAIL_TAG=tag)
        self.assertEqual(rc, 1)
        self.assertIn("boot %s failed -- its log: " % tag, err)
        self.assertIn("hotcold-bench-bench-%s.out" % tag, err)

    def test_check_every_line(self):
        jobs = os.path.join(self.rundir, "jobs")
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench-boot.sh"), "--check",
                            self.rundir, jobs], env=dict(PATH=os.environ["PATH"], BUILD=self.build),
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(p.stdout.splitlines()), len(self.lines))
        bad = os.path.join(self.tmp.name, "bad.jobs")
        with open(bad, "w") as f:
            f.write("\n".join(list(self.lines.values())[:3] + ["x mode=wall"]) + "\n")
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench-boot.sh"), "--check",
                            self.rundir, bad], env=dict(PATH=os.environ["PATH"], BUILD=self.build),
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 1)
        self.assertIn("%s:4: not a boot of the plan's" % bad, p.stderr)

class RunGuestSeed(unittest.TestCase):
    def run_guest(self, *args):
        with tempfile.TemporaryDirectory() as build:
            d = os.path.join(build, "kernel-vanilla/arch/x86/boot")
            os.makedirs(d)
            open(os.path.join(d, "bzImage"), "w").close()
            open(os.path.join(build, "initramfs.cpio.gz"), "w").close()
            p = subprocess.run(["bash", os.path.join(ROOT, "scripts/run-guest.sh"), "--dry-run",
                                "--no-disk"] + list(args) + ["vanilla", "bench"],
                               env=dict(PATH=os.environ["PATH"], BUILD=build),
                               capture_output=True, text=True, timeout=60)
            files = sorted(f for _, _, fs in os.walk(build) for f in fs)
        self.assertEqual(files, ["bzImage", "initramfs.cpio.gz"], "a dry run wrote files")
        return p.returncode, p.stdout.splitlines(), p.stderr

    def test_icount_without_seed(self):
        rc, argv, err = self.run_guest("--icount", "--cpu", "EPYC-Milan")
        self.assertEqual(rc, 0, err)
        self.assertEqual(one(argv, "-seed"), "1")
        self.assertEqual(one(argv, "-cpu"), "EPYC-Milan,-rdrand,-rdseed")

    def test_icount_with_seed(self):
        rc, argv, err = self.run_guest("--icount", "--cpu", "EPYC-Milan", "--seed", "42")
        self.assertEqual(rc, 0, err)
        self.assertEqual(one(argv, "-seed"), "42")
        self.assertEqual(one(argv, "-cpu"), "EPYC-Milan,-rdseed")

    def test_seed_without_icount(self):
        rc, argv, err = self.run_guest("--seed", "7")
        self.assertEqual(rc, 0, err)
        self.assertEqual((one(argv, "-seed"), one(argv, "-cpu")), ("7", "max"))
        rc, argv, err = self.run_guest()
        self.assertEqual((rc, option(argv, "-seed")), (0, []))

    def test_bad_seeds(self):
        for bad in ("010", "0x10", "-1", "abc", "", "1234567890123456789"):
            with self.subTest(seed=bad):
                rc, argv, err = self.run_guest("--seed", bad)
                self.assertNotEqual(rc, 0)
                self.assertIn("--seed %s: expected" % bad, err)
                self.assertEqual(argv, [])



def option(argv, name):
    """the values that follow each NAME in argv"""
    return [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == name]


def one(argv, name):
    values = option(argv, name)
    if len(values) != 1:
        raise AssertionError("%d %s options in %s" % (len(values), name, argv))
    return values[0]


if __name__ == "__main__":
    unittest.main()
