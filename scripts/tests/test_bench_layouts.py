# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the layout per round: scripts/bench-build.sh's
round_layouts links each kernel again at each round's pads (the plan's
layouts.tsv), keeps each relink apart with its pads, and checks it
carries them and moved what follows them; scripts/lib.sh's layout_cflags
and layout_moves; scripts/build-kernel.sh's refusal of a bad LAYOUT_PAD.
No kernel is built: build-kernel.sh is a stand-in that writes a System.map
as a relink would place its symbols."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shfunc import shell_function  # noqa: E402

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from hcreport import draws, planfiles  # noqa: E402

with open(os.path.join(ROOT, "scripts/bench-build.sh")) as f:
    BUILD_SH = f.read()


def build_function(name):
    return shell_function(BUILD_SH, name, "scripts/bench-build.sh")


def lib_sh(script):
    p = subprocess.run(["bash", "-c", 'set -u; . "%s/scripts/lib.sh"; %s' % (ROOT, script)],
                       env=dict(os.environ, BUILD=tempfile.gettempdir()),
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# the pads of the stand-in run: 3 kernels, 2 rounds, drawn by the plan's
# draws (run seed 1, whose pads hold a 0)
FLAVOURS = ("vanilla", "single", "power")
POINTS = "fork filemap memblock open".split()
# the relinks the test's layouts.tsv asks for: (layout, kernel), vanilla's
# kernel twice (the layout A/A's relinks under its own name)
RELINKS = tuple((f, f) for f in FLAVOURS) + (("vanilla-b", "vanilla"),)


def pads(f, r):
    return draws.pads("1", f, r, POINTS)


# scripts/build-kernel.sh of the stand-in root: a kernel directory whose
# image and vmlinux name the pads asked for (LAYOUT_PAD), and whose
# System.map has a hotcold_pad_KIND per object asking for one and
# LAYOUT_REFS' symbols moved by the pads before them, as a real relink
# places them.  MODE: ok; ignore, a relink that links no pad; still, one
# that links the pads but moves nothing; extra, one with a pad more; keep,
# a build without LAYOUT_PAD that leaves the last pads in.
BUILD_STUB = """#!/bin/bash
set -u
. "$REAL/scripts/lib.sh"
f=$1 k=$BUILD/kernel-$1 mode=%(mode)s
mkdir -p "$k/arch/x86/boot" "$k/mm"
pad=${LAYOUT_PAD:-}
[ "$mode" != ignore ] || pad=
if [ -z "$pad" ] && [ "$mode" = keep ] && [ -f "$k/pad" ]; then pad=$(cat "$k/pad"); fi
echo "$pad" >"$k/pad"
echo "$f ${pad:-as built}" >"$k/arch/x86/boot/bzImage"
echo "$f ${pad:-as built}" >"$k/vmlinux"
echo "$f" >"$k/mm/page_alloc.o"
# lines NAME KIND N: the pads of KIND (1 data, 2 bss) of the first N groups
lines() {
	local s=0 i=0 g
	for g in $pad; do
		i=$((i + 1))
		[ "$i" -le "$3" ] || break
		s=$((s + $(cut -d, -f"$2" <<<"$g")))
	done
	[ "$mode" != still ] || s=0
	echo $((s %% 64))
}
{
	echo "ffffffff81000000 T _text"
	for g in $pad; do
		n=1
		for kind in data bss mostly percpu; do
			[ "$(cut -d, -f$n <<<"$g")" = 0 ] || echo "ffffffff81001000 d hotcold_pad_$kind"
			n=$((n + 1))
		done
	done
	[ "$mode" != extra ] || [ -z "$pad" ] || echo "ffffffff81001000 d hotcold_pad_bss"
	while read -r name kind n; do
		[ "$kind" = data ] && i=1 t=d || i=2 t=b
		printf 'ffffffff81a%%05x %%s %%s\\n' $((0x10000 + $(lines "$name" $i "$n") * 64)) "$t" "$name"
	done <<<"$LAYOUT_REFS"
} >"$k/System.map"
"""

LAYOUTS = """set -u
. "$REAL/scripts/lib.sh"
%(functions)s
FLAVOURS="vanilla single power" LAYOUT_ROUNDS=2 OUT=$BUILD/run
mkdir -p "$OUT"
printf '%%s' "$PADS" >"$OUT/layouts.tsv"
for f in $FLAVOURS; do "$ROOT/scripts/build-kernel.sh" "$f"; done
round_layouts
"""


class LayoutPerRound(unittest.TestCase):
    """the plan's pads, lib.sh's layout_cflags and layout_moves, and
    bench-build.sh's round_layouts: each kernel linked again at each
    round's pads, kept apart per round, and checked to carry them and to
    have moved what follows them"""

    def test_the_pads_are_the_rounds_and_the_kernels(self):
        """each kernel and round a layout of its own: a group of four
        lines from 0 to 63 per point"""
        seen = {}
        for f in ("vanilla", "hotcold-bench", "layout"):
            for r in (1, 2, 3):
                p = pads(f, r)
                self.assertEqual(p, pads(f, r))
                groups = p.split()
                self.assertEqual(len(groups), len(POINTS))
                for g in groups:
                    lines = [int(x) for x in g.split(",")]
                    self.assertEqual(len(lines), 4, g)
                    self.assertTrue(all(0 <= n <= 63 for n in lines), p)
                seen[(f, r)] = p
        self.assertEqual(len(set(seen.values())), len(seen), seen)
        # (and the plan's layouts.tsv, what round_layouts reads, holds them:
        # scripts/tests/test_bench_plan.py)

    def test_the_cflags_name_each_point_and_its_group(self):
        rc, out, err = lib_sh('layout_cflags "1,2,3,4 0,0,0,0 63,9,10,11 5,6,7,8"')
        self.assertEqual(rc, 0, err)
        rc, points, _ = lib_sh('echo "$LAYOUT_POINTS"')
        want = ["CFLAGS_%s.o=-include %s/bench/layout-pad.h -DHOTCOLD_PAD_DATA=%s -DHOTCOLD_PAD_BSS=%s "
                "-DHOTCOLD_PAD_MOSTLY=%s -DHOTCOLD_PAD_PERCPU=%s" % ((p, ROOT) + tuple(g.split(",")))
                for p, g in zip(points.split(), "1,2,3,4 0,0,0,0 63,9,10,11 5,6,7,8".split())]
        self.assertEqual(out.splitlines(), want)

    def test_the_plan_reads_the_shells_points(self):
        """the plan's layout points, unexported, are lib/bench.sh's (one place)"""
        rc, points, _ = lib_sh('echo "$LAYOUT_POINTS"')
        self.assertEqual((rc, planfiles.layout_points({})), (0, points.split()))

    def test_bad_pads(self):
        for bad in BAD_PADS:
            with self.subTest(pads=bad):
                self.assertEqual(lib_sh('layout_cflags "%s"' % bad)[:2], (1, ""))

    def test_layout_moves(self):
        with tempfile.TemporaryDirectory() as tmp:
            built, moved = os.path.join(tmp, "built"), os.path.join(tmp, "moved")
            with open(built, "w") as f:
                f.write("ffffffff81ad8a80 D min_free_kbytes\nffffffff81ec64c0 b percpu_pagelist_high_fraction\n"
                        "ffffffff81adcac0 d super_blocks\nffffffff81ec7a38 b sb_lock\n")
            # data: 1+2 lines, then 1+2+3+4; bss: 5+6, then 5+6+7+8
            with open(moved, "w") as f:
                f.write("ffffffff81ad8b40 D min_free_kbytes\nffffffff81ec6780 b percpu_pagelist_high_fraction\n"
                        "ffffffff81adcd40 d super_blocks\nffffffff81ec80b8 b sb_lock\n")
            pads = "1,5,0,0 2,6,0,0 3,7,0,0 4,8,0,0"
            self.assertEqual(lib_sh('layout_moves "%s" "%s" "%s"' % (built, moved, pads))[:2], (0, ""))
            rc, out, _ = lib_sh('layout_moves "%s" "%s" "%s"' % (built, built, pads))
            self.assertEqual(len(out.splitlines()), 4, out)
            self.assertIn("min_free_kbytes moved 0 bytes within its 4 KB page, not 192 (3 lines)", out)
            # a symbol the map places in .data though the table says bss
            # (sb_lock with spinlock debugging) moves by the data pads
            with open(built, "w") as f:
                f.write("ffffffff81ec7a38 d sb_lock\n")
            with open(moved, "w") as f:
                f.write("ffffffff81ec7cb8 d sb_lock\n")
            rc, out, _ = lib_sh('layout_moves "%s" "%s" "%s"' % (built, moved, pads))
            self.assertNotIn("sb_lock", out)

    def round_layouts(self, mode):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        fake, build = os.path.join(tmp.name, "root"), os.path.join(tmp.name, "build")
        os.makedirs(os.path.join(fake, "scripts"))
        os.symlink(os.path.join(ROOT, "source.conf"), os.path.join(fake, "source.conf"))
        stub = os.path.join(fake, "scripts", "build-kernel.sh")
        with open(stub, "w") as f:
            f.write(BUILD_STUB % {"mode": mode})
        os.chmod(stub, 0o755)
        table = "layout\tkernel\tround\tpads\n" + "".join(
            "%s\t%s\t%d\t%s\n" % (k, f, r, pads(k, r)) for k, f in RELINKS for r in (1, 2))
        p = subprocess.run(["bash", "-c", LAYOUTS % {"functions": build_function("round_layouts")}],
                           env=dict(PATH=os.environ["PATH"], ROOT=fake, REAL=ROOT, BUILD=build,
                                    PADS=table),
                           capture_output=True, text=True, timeout=120)
        return p.returncode, p.stderr, build

    def read(self, path):
        with open(path) as f:
            return f.read()

    def test_each_round_keeps_its_relink_and_the_build_is_restored(self):
        rc, err, build = self.round_layouts("ok")
        self.assertEqual(rc, 0, err)
        rows = self.read(os.path.join(build, "run", "layouts.tsv")).splitlines()
        self.assertEqual(len(rows), 9)
        # (some pad asks for no line of one kind at one point: a 0 is tested)
        self.assertTrue(any("0" in g.split(",") for r in rows[1:] for g in r.split("\t")[3].split()))
        for row in rows[1:]:
            k, f, r, pad = row.split("\t")
            with self.subTest(layout=k, round=r):
                self.assertEqual(pad, pads(k, int(r)))
                # (the A/A's relinks of vanilla's kernel kept apart from
                # vanilla's, under its own name)
                d = os.path.join(build, "rounds", "%s-%s" % (k, r))
                self.assertEqual(self.read(os.path.join(d, "pad")), pad + "\n")
                for name in ("arch/x86/boot/bzImage", "vmlinux"):
                    self.assertEqual(self.read(os.path.join(d, name)), "%s %s\n" % (f, pad))
                self.assertTrue(os.path.isfile(os.path.join(d, "mm", "page_alloc.o")))
                self.assertTrue(os.path.isfile(os.path.join(d, "System.map")))
        for f in ("vanilla", "single", "power"):
            self.assertEqual(self.read(os.path.join(build, "kernel-" + f, "arch/x86/boot/bzImage")),
                             f + " as built\n")

    def test_a_relink_without_its_pads_fails(self):
        rc, err, _ = self.round_layouts("ignore")
        self.assertNotEqual(rc, 0)
        self.assertIn("hotcold_pad_data symbols in", err)

    def test_a_relink_with_a_pad_more_fails(self):
        rc, err, _ = self.round_layouts("extra")
        self.assertNotEqual(rc, 0)
        self.assertIn("hotcold_pad_bss symbols in", err)

    def test_a_relink_that_moves_nothing_fails(self):
        rc, err, _ = self.round_layouts("still")
        self.assertNotEqual(rc, 0)
        self.assertIn("did not move as its pads", err)
        self.assertIn("min_free_kbytes moved 0 bytes", err)

    def test_a_build_that_keeps_a_pad_fails(self):
        rc, err, _ = self.round_layouts("keep")
        self.assertNotEqual(rc, 0)
        self.assertIn("built again without pads is not the image it was", err)


BAD_PADS = ("1,2,3,4", "1,2,3,4 1,2,3,4 1,2,3,4", "1,2,3,4 1,2,3,4 1,2,3,4 1,2,3,4 1,2,3,4",
            "1,2,3,64 1,2,3,4 1,2,3,4 1,2,3,4", "1,2,3 1,2,3,4 1,2,3,4 1,2,3,4",
            "1,2,3,4,5 1,2,3,4 1,2,3,4 1,2,3,4", "01,2,3,4 1,2,3,4 1,2,3,4 1,2,3,4",
            "1,2,3,4, 1,2,3,4 1,2,3,4 1,2,3,4", "-1,2,3,4 1,2,3,4 1,2,3,4 1,2,3,4",
            "a,b,c,d 1,2,3,4 1,2,3,4 1,2,3,4", "1,,3,4 1,2,3,4 1,2,3,4 1,2,3,4", "")


class BuildKernelLayoutPad(unittest.TestCase):
    """scripts/build-kernel.sh refuses a LAYOUT_PAD that layout_cflags
    does not take before it builds or writes anything"""

    def test_bad_pads(self):
        for bad in [b for b in BAD_PADS if b]:
            with self.subTest(pad=bad), tempfile.TemporaryDirectory() as tmp:
                # (make, git and ccache fail: a pad let through builds nothing)
                build, bin_dir = os.path.join(tmp, "build"), os.path.join(tmp, "bin")
                os.makedirs(bin_dir)
                for tool in ("make", "git", "ccache", "tar"):
                    with open(os.path.join(bin_dir, tool), "w") as f:
                        f.write("#!/bin/sh\necho %s was run >&2\nexit 1\n" % tool)
                    os.chmod(os.path.join(bin_dir, tool), 0o755)
                p = subprocess.run(["bash", os.path.join(ROOT, "scripts/build-kernel.sh"), "vanilla"],
                                   env=dict(PATH=bin_dir + ":" + os.environ["PATH"], BUILD=build,
                                            LAYOUT_PAD=bad),
                                   capture_output=True, text=True, timeout=60)
                self.assertNotEqual(p.returncode, 0)
                self.assertIn("LAYOUT_PAD='%s': expected 4 groups D,B,M,P" % bad, p.stderr)
                self.assertEqual([f for _, _, fs in os.walk(build) for f in fs], [])

if __name__ == "__main__":
    unittest.main()
