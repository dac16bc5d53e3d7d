# SPDX-License-Identifier: GPL-2.0
"""Unit tests of make bench's seeded rounds: round r of every
configuration boots with QEMU's -seed S_r (scripts/lib.sh's BENCH_SEEDS)
and the kernel command line page_alloc.shuffle=1, with RDRAND on (the
guest's RNG reads -seed through it); the repeat and the icount check
boot exactly as the base's round 1 did (bench/configs.tsv's roles);
SHUFFLE=0 boots as before.

No kernel is built or booted: scripts/bench.sh's own functions (det_mode
down to det_boot, taken from its text) queue and start every
deterministic boot of a run of all configurations, and each boot's
scripts/run-guest.sh is the real one with --dry-run, which prints the
QEMU command line it would run.  The tests read those command lines.
The stand-ins: a root whose scripts/run-guest.sh adds --dry-run and
keeps the output under the boot's tag, empty kernel images and guest
images, a workload per boot (det_workloads; bench/tests/test_workloads.py
tests the lists it gives), and call_addrs, boot_state and det-rows,
which read the boot's System.map and output.  The configurations are
bench/configs.tsv's, every one CONFIGS can pick, read as bench.sh reads
them (report.py configs bench, its configs_from)."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(ROOT, "scripts/bench.sh")) as f:
    BENCH = f.read()
sys.path.insert(0, os.path.join(ROOT, "bench"))

from hcreport import configs as config_table  # noqa: E402

# bench.sh's functions that list, queue and start the deterministic boots
# (and configs_from, which reads the configurations they boot)
FUNCTIONS = ("named", "configs_from", "failed_workloads", "det_seed", "det_kernel", "det_boot", "det_parts",
             "det_jobs", "icount_more_jobs",
             "prog_first", "det_job", "det_mode")
# every configuration CONFIGS can pick, and the repeat
CONFIGS = [r["name"] for r in config_table.table() if r["role"] != "repeat"]
BASE = config_table.role("base")
REPEAT = config_table.role("repeat")


def bench_function(name):
    m = re.search(r"^%s\(\) \{\n.*?^\}\n" % re.escape(name), BENCH, re.M | re.S)
    if not m:
        raise AssertionError("scripts/bench.sh has no function %s()" % name)
    return m.group(0)


def configs():
    """the configurations the run boots: [(name, flavour, append)]"""
    return [(r["name"], r["kernel"], "" if r["append"] == "-" else r["append"])
            for r in config_table.table() if r["name"] in CONFIGS]


def lib_sh(script):
    p = subprocess.run(["bash", "-c", 'set -u; . "%s/scripts/lib.sh"; %s' % (ROOT, script)],
                       env=dict(os.environ, BUILD=tempfile.gettempdir()),
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def seeds():
    rc, out, err = lib_sh('printf "%s" "$BENCH_SEEDS"')
    if rc:
        raise AssertionError(err)
    return out.split()


# run-guest.sh of the stand-in root: the real one with --dry-run, its
# output (the QEMU command line) kept in ARGV/TAG
WRAPPER = """#!/bin/bash
tag='' prev=''
for a in "$@"; do
	[ "$prev" != --tag ] || tag=$a
	prev=$a
done
printf '%%s\n' "$@" >"%(argv)s.args/$tag"
ROOT="%(root)s" exec bash "%(root)s/scripts/run-guest.sh" --dry-run "$@" >"%(argv)s/$tag"
"""

DRIVER = """set -u
. "$REAL/scripts/lib.sh"
. "$REAL/scripts/worklists.sh"
. "$REAL/scripts/jobqueue.sh"
%(functions)s
# a workload per boot, as worklists.sh's det_workloads gives them
det_workloads() {
	case $1 in
	mem) echo sdet_1 ;;
	disk) echo trunc80k_ext4_1 ;;
	2cpu) echo readahead_other_cpu ;;
	prog) echo compile ;;
	sweep) echo sweep_exit_0_40_16 ;;
	ccd4) echo trunc80k_tmpfs_n_ccd4 ;;
	ccd8) echo sdet_8_ccd8 ;;
	ccd8prog) echo compile_ccd8prog ;;
	*) echo none ;;
	esac
}
call_addrs() { echo 0x1+0x2+0x3+0x4+0x5; }
# boot_state NAME FLAVOUR APPEND JOBOUT VCPUS: the vCPUs each boot is
# checked for, by the boot's output file
boot_state() { echo "${4##*/} ${5:-none}" >>"$OUT/boot_state.args"; }
python3() { [ "${2:-}" = det-rows ] || command python3 "$@"; }
# every configuration, as bench.sh reads them
cfg=$(python3 "$REAL/bench/report.py" configs bench 0 "%(configs)s") || exit 1
configs_from "$cfg"
DET_ROUNDS=3 ICOUNT_ROUNDS=5 ICOUNT_MORE_BOOTS=mem PROG_ROUNDS=2 SWEEP_ROUNDS=2 SCALE=2
DET_WORKLOADS= JOBS=2 GUEST_CPU=EPYC-Milan SIM_ARGS=l1size=32768 OUT=$BUILD/bench
mkdir -p "$OUT"
det_mode cachesim icount
"""


def det_boots(shuffle, given=None, states=None):
    """Every deterministic boot of a run of all configurations (3 rounds,
    cachesim with the icount check, and icount's rounds 4 and 5,
    bench.sh's own functions):
    {(mode, config, round, part): the QEMU command line, a list}; GIVEN,
    a dict, gets run-guest.sh's own arguments by the same keys; STATES,
    a dict, the vCPUs boot_state was given, by the boot's output file"""
    tmp = tempfile.TemporaryDirectory()
    try:
        fake, build, argv = (os.path.join(tmp.name, d) for d in ("root", "build", "argv"))
        os.makedirs(os.path.join(fake, "scripts"))
        os.makedirs(argv)
        os.makedirs(argv + ".args")
        os.makedirs(os.path.join(fake, "bench"))
        for d in ("source.conf", "bench/shapes.tsv"):
            os.symlink(os.path.join(ROOT, d), os.path.join(fake, d))
        wrapper = os.path.join(fake, "scripts", "run-guest.sh")
        with open(wrapper, "w") as f:
            f.write(WRAPPER % {"root": ROOT, "argv": argv})
        os.chmod(wrapper, 0o755)
        # the images run-guest.sh checks for
        for _, flavour, _ in configs():
            d = os.path.join(build, "kernel-" + flavour, "arch/x86/boot")
            os.makedirs(d, exist_ok=True)
            open(os.path.join(d, "bzImage"), "w").close()
            # and each round's relink (round_layouts)
            for r in ROUNDS:
                d = os.path.join(build, "rounds", "%s-%d" % (flavour, r), "arch/x86/boot")
                os.makedirs(d, exist_ok=True)
                open(os.path.join(d, "bzImage"), "w").close()
        for image in ("initramfs.cpio.gz", "initramfs-programs.cpio.gz"):
            open(os.path.join(build, image), "w").close()
        script = DRIVER % {"functions": "".join(bench_function(n) for n in FUNCTIONS),
                           "configs": " ".join(CONFIGS)}
        env = dict(PATH=os.environ["PATH"], ROOT=fake, REAL=ROOT, BUILD=build,
                   SHUFFLE=shuffle, PYTHONDONTWRITEBYTECODE="1")
        p = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True,
                           timeout=300)
        if p.returncode:
            raise AssertionError("the boots failed:\n" + p.stdout + p.stderr)
        names = CONFIGS + [REPEAT]
        boots = {}
        if states is not None:
            with open(os.path.join(build, "bench", "boot_state.args")) as f:
                states.update(line.split() for line in f)
        for tag in os.listdir(argv):
            mode, rest = tag.split("-", 1)
            rest, part = rest.rsplit("-", 1)
            name, r = rest.rsplit("-", 1)
            if name not in names:
                raise AssertionError("a boot of no configuration: %s" % tag)
            with open(os.path.join(argv, tag)) as f:
                boots[(mode, name, int(r), part)] = f.read().splitlines()
            if given is not None:
                with open(os.path.join(argv + ".args", tag)) as f:
                    given[(mode, name, int(r), part)] = f.read().splitlines()
        return boots
    finally:
        tmp.cleanup()


# the driver's rounds: DET_ROUNDS 3, ICOUNT_ROUNDS 5
DET_ROUNDS, ROUNDS = (1, 2, 3), (1, 2, 3, 4, 5)


def option(argv, name):
    """the values that follow each NAME in argv"""
    return [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == name]


def one(argv, name):
    values = option(argv, name)
    if len(values) != 1:
        raise AssertionError("%d %s options in %s" % (len(values), name, argv))
    return values[0]


def untagged(argv, tag, other):
    """argv with the boot's tag (its log and output names) as another's"""
    return [a.replace(tag, other) for a in argv]


class SeededRounds(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.seeds = seeds()
        cls.given = {}
        cls.states = {}
        cls.boots = det_boots("1", cls.given, cls.states)

    def test_round_r_boots_with_seed_r_and_the_shuffle(self):
        for (mode, name, r, part), argv in sorted(self.boots.items()):
            with self.subTest(boot="%s %s round %d %s" % (mode, name, r, part)):
                self.assertEqual(one(argv, "-seed"), self.seeds[r - 1],
                                 "round %d's boot of %s has another seed" % (r, name))
                self.assertIn("page_alloc.shuffle=1", one(argv, "-append").split())
                # RDRAND carries the seed into the guest's RNG
                self.assertNotIn("-rdrand", one(argv, "-cpu").split(","))
                self.assertIn("-icount", argv)

    def test_round_r_boots_its_kernel_relinked_at_round_r_layout(self):
        flavour = {n: f for n, f, _ in configs()}
        flavour[REPEAT] = flavour[BASE]
        for (mode, name, r, part), argv in sorted(self.boots.items()):
            with self.subTest(boot="%s %s round %d %s" % (mode, name, r, part)):
                self.assertTrue(one(argv, "-kernel").endswith(
                    "/rounds/%s-%d/arch/x86/boot/bzImage" % (flavour[name], r)), one(argv, "-kernel"))

    def test_each_shape_boots_its_vcpus_and_names_itself_if_named(self):
        want = {"mem": ("1", False), "2cpu": ("2", False), "ccd4": ("4", True),
                "ccd8": ("8", True), "ccd8prog": ("8", True)}
        seen = set()
        for (mode, name, r, part), argv in sorted(self.boots.items()):
            if part not in want:
                continue
            seen.add(part)
            smp, named = want[part]
            with self.subTest(boot="%s %s round %d %s" % (mode, name, r, part)):
                self.assertEqual(one(argv, "-smp"), smp)
                self.assertEqual("shape=" + part in one(argv, "-append"), named)
        self.assertEqual(seen, set(want))

    def test_the_named_shapes_boot_the_shapes_set_and_the_repeat_alone(self):
        """ccd4 and ccd8 (named) in the shapes set's configurations and the
        repeat; 2cpu (not named) in every configuration"""
        want = set(config_table.names(sets="shapes")) | {REPEAT}
        for part in ("ccd4", "ccd8"):
            booted = {name for (_, name, _, p) in self.boots if p == part}
            self.assertEqual(booted, want & ({n for n, _, _ in configs()} | {REPEAT}), part)
        self.assertEqual({name for (_, name, _, p) in self.boots if p == "2cpu"},
                         {n for n, _, _ in configs()} | {REPEAT})

    def test_the_programs_shape_boots_as_prog_does_with_the_archive(self):
        """ccd8prog (programs yes, named): the shapes set's configurations
        but the repeat, in the first PROG_ROUNDS (2) rounds, with the
        programs archive, as prog; ccd8 and mem without it"""
        want = set(config_table.names(sets="shapes")) - {REPEAT}
        booted = {(name, r) for (_, name, r, p) in self.boots if p == "ccd8prog"}
        self.assertEqual({n for n, _ in booted}, want)
        self.assertEqual({r for _, r in booted}, {1, 2})
        for (mode, name, r, part), args in self.given.items():
            with self.subTest(boot="%s %s round %d %s" % (mode, name, r, part)):
                archive = [os.path.basename(a) for a in option(args, "--extra-initrd")]
                self.assertEqual(archive, ["initramfs-programs.cpio.gz"]
                                 if part in ("prog", "ccd8prog") else [])

    def test_each_boot_is_checked_for_its_shapes_vcpus(self):
        """det_boot's boot_state gets the boot's vCPUs: 1, or its shape's"""
        states = self.states
        self.assertEqual(len(states), len(self.boots))
        for (mode, name, r, part) in self.boots:
            with self.subTest(boot="%s %s round %d %s" % (mode, name, r, part)):
                out = [k for k in states if k.endswith("-bench-%s-%s-%d-%s.out" %
                                                        (mode, name, r, part))]
                self.assertEqual(len(out), 1, out)
                want = {"2cpu": "2", "ccd4": "4", "ccd8": "8", "ccd8prog": "8"}.get(part, "1")
                self.assertEqual(states[out[0]], want)

    def test_every_configuration_and_round_boots(self):
        booted = {(name, r) for (_, name, r, _) in self.boots}
        for name, _, _ in configs():
            for r in ROUNDS:
                self.assertIn((name, r), booted)

    def test_icounts_rounds_beyond_det_rounds_boot_mem_alone_without_the_model(self):
        """rounds 4 and 5: every configuration's mem boot (not the
        repeat's), icount only, as that configuration's cachesim boot of
        round 3 but for the round's seed, relink and warm-up, and the
        model off"""
        more = {k for k in self.boots if k[2] not in DET_ROUNDS}
        self.assertEqual(more, {("icount", n, r, "mem") for n, _, _ in configs() for r in (4, 5)})
        for mode, name, r, part in sorted(more):
            with self.subTest(boot="%s round %d" % (name, r)):
                self.assertIn(",sim=off,", one(self.boots[(mode, name, r, part)], "-plugin"))
                argv = untagged(self.boots[(mode, name, r, part)], "icount-%s-%d-mem" % (name, r),
                                "cachesim-%s-3-mem" % name)
                argv = [a.replace(",sim=off,", ",sim=on,").replace("history=%d" % r, "history=3")
                        .replace("/rounds/", "/ROUNDS/") for a in argv]
                want = [a.replace("/rounds/", "/ROUNDS/")
                        for a in self.boots[("cachesim", name, 3, "mem")]]
                # (the round's seed and relink: the tests above)
                for o in ("-seed", "-kernel"):
                    i, j = argv.index(o) + 1, want.index(o) + 1
                    argv[i] = want[j]
                self.assertEqual(argv, want)

    def test_each_round_one_seed_across_configurations(self):
        by_round = {}
        for (_, name, r, _), argv in self.boots.items():
            by_round.setdefault(r, set()).add(one(argv, "-seed"))
        self.assertEqual(sorted(by_round), list(ROUNDS))
        for r, s in by_round.items():
            self.assertEqual(len(s), 1, "round %d boots with seeds %s" % (r, sorted(s)))
        self.assertEqual(len({s for v in by_round.values() for s in v}), len(ROUNDS),
                         "two rounds share a seed: %s" % by_round)

    def test_the_configurations_append_stays(self):
        for (mode, name, r, part), argv in self.boots.items():
            for c_name, _, append in configs():
                if c_name == name:
                    for w in append.split():
                        self.assertIn(w, one(argv, "-append").split())

    def test_the_repeat_boots_as_the_base_round_1(self):
        repeats = [k for k in self.boots if k[1] == REPEAT]
        self.assertTrue(repeats, "no %s boot" % REPEAT)
        for mode, name, r, part in repeats:
            with self.subTest(part=part):
                self.assertEqual(r, 1)
                base = self.boots[(mode, BASE, 1, part)]
                argv = self.boots[(mode, name, r, part)]
                self.assertEqual(one(argv, "-seed"), one(base, "-seed"))
                # the whole machine: the same command line but for the
                # names of its log and output files
                self.assertEqual(untagged(argv, "%s-%s-1-%s" % (mode, name, part),
                                          "%s-%s-1-%s" % (mode, BASE, part)), base)

    def test_the_icount_check_boots_as_cachesim_round_1(self):
        checks = [k for k in self.boots if k[0] == "icount" and k[2] in DET_ROUNDS]
        self.assertTrue(checks, "no icount check boot")
        for mode, name, r, part in checks:
            with self.subTest(part=part):
                self.assertEqual((name, r), (BASE, 1))
                cachesim = self.boots[("cachesim", BASE, 1, part)]
                argv = untagged(self.boots[(mode, name, r, part)], "icount-%s-1-%s" % (BASE, part),
                                "cachesim-%s-1-%s" % (BASE, part))
                self.assertEqual([a.replace(",sim=off,", ",sim=on,") for a in argv], cachesim)


class Seeds(unittest.TestCase):
    def test_one_seed_per_round_each_different(self):
        s = seeds()
        top = re.search(r"^setting_int DET_ROUNDS 1 (\d+)$", BENCH, re.M)
        self.assertTrue(top, "bench.sh's DET_ROUNDS check")
        self.assertEqual(len(s), int(top.group(1)))
        self.assertEqual(len(set(s)), len(s))
        for x in s:
            # QEMU reads 010 as octal: decimals without a leading zero
            self.assertRegex(x, r"^[1-9][0-9]{0,17}$")

    def test_bench_seed(self):
        s = seeds()
        rc, out, _ = lib_sh("bench_seed 1; bench_seed 20")
        self.assertEqual((rc, out.split()), (0, [s[0], s[19]]))
        for bad in ("0", "21", "01", "x", ""):
            with self.subTest(round=bad):
                rc, out, _ = lib_sh('bench_seed "%s"' % bad)
                self.assertEqual((rc, out), (1, ""))

    def test_the_plan_names_the_rounds_seeds(self):
        lines = re.findall(r'^\techo "(?:shuffle|det_seeds)=.*$', BENCH, re.M)
        self.assertEqual(len(lines), 2, "bench.sh's plan lines shuffle= and det_seeds=")
        s = seeds()
        # (every round booted: icount's too)
        for shuffle, want in (("1", "shuffle=1\ndet_seeds=%s\n" % " ".join(s[:5])),
                              ("0", "shuffle=0\ndet_seeds=\n")):
            rc, out, err = lib_sh("DET_ROUNDS=3 ICOUNT_ROUNDS=5 SHUFFLE=%s\n%s" % (shuffle, "\n".join(lines)))
            self.assertEqual((rc, out), (0, want), err)


class ShuffleOff(unittest.TestCase):
    def test_the_old_boots(self):
        boots = det_boots("0")
        self.assertTrue(boots)
        flavour = {n: f for n, f, _ in configs()}
        flavour[REPEAT] = flavour[BASE]
        for (mode, name, r, part), argv in sorted(boots.items()):
            with self.subTest(boot="%s %s round %d %s" % (mode, name, r, part)):
                self.assertEqual(one(argv, "-seed"), "1")
                self.assertNotIn("page_alloc.shuffle=1", one(argv, "-append"))
                self.assertTrue(one(argv, "-cpu").endswith(",-rdrand,-rdseed"))
                # the kernel as built: no layout per round
                self.assertTrue(one(argv, "-kernel").endswith(
                    "/kernel-%s/arch/x86/boot/bzImage" % flavour[name]), one(argv, "-kernel"))


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


IDLE = """set -u
fail() { echo "$*" >&2; exit 1; }
. "$REAL/scripts/lib.sh"
. "$REAL/scripts/worklists.sh"
%(functions)s
cfg=$(python3 "$REAL/bench/report.py" configs bench 0 "$1") || exit 1
configs_from "$cfg"
DET_ROUNDS=3 PROG_ROUNDS=2 SWEEP_ROUNDS=2 DET_WORKLOADS=$2
idle_configs
"""


class IdleConfigs(unittest.TestCase):
    """bench.sh's idle_configs: the configurations that no deterministic
    boot of the run gives work (left out of the run, so that their
    targets say "not in this run", not NOT RUN), with the real tables
    and worklists.sh's real det_workloads"""

    def idle(self, configs, listed):
        script = IDLE % {"functions": "".join(bench_function(n) for n in
                                              ("named", "configs_from", "det_parts",
                                               "idle_configs"))}
        p = subprocess.run(["bash", "-c", script, "-", configs, listed],
                           env=dict(os.environ, ROOT=ROOT, REAL=ROOT, BUILD=tempfile.gettempdir(),
                                    PYTHONDONTWRITEBYTECODE="1"),
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.split()

    def test_a_configuration_outside_the_programs_set(self):
        off = config_table.role("switch-off")
        self.assertNotIn(off, config_table.names(sets="programs"))
        self.assertEqual(self.idle("vanilla hotcold %s single" % off, "compile"), [off])

    def test_every_configuration_boots_a_one_vcpu_workload(self):
        self.assertEqual(self.idle(" ".join(CONFIGS[:7]), "exit_flood"), [])

    def test_the_named_shapes_boot_the_shapes_set_alone(self):
        names = [n for n in CONFIGS if n not in config_table.names(sets="shapes")]
        self.assertTrue(names)
        self.assertEqual(self.idle("vanilla " + " ".join(names), "trunc80k_tmpfs_n_ccd4"),
                         [n for n in names if n != BASE])


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
BENCH_FLAVOURS="vanilla single power" DET_ROUNDS=1 ICOUNT_ROUNDS=2 OUT=$BUILD/run
mkdir -p "$OUT"
for f in $BENCH_FLAVOURS; do "$ROOT/scripts/build-kernel.sh" "$f"; done
round_layouts
"""


class LayoutPerRound(unittest.TestCase):
    """lib.sh's layout_pad, layout_cflags and layout_moves, and bench.sh's
    round_layouts: each kernel linked again at each round's seeded pads,
    kept apart per round, and checked to carry them and to have moved
    what follows them"""

    def pads(self, f, r):
        rc, out, err = lib_sh("layout_pad %s %d" % (f, r))
        self.assertEqual(rc, 0, err)
        return out.strip()

    def test_the_pads_are_the_rounds_and_the_kernels(self):
        rc, points, _ = lib_sh('echo "$LAYOUT_POINTS"')
        points = points.split()
        pads = {}
        for f in ("vanilla", "hotcold-bench", "layout"):
            for r in (1, 2, 3):
                first = self.pads(f, r)
                self.assertEqual(first, self.pads(f, r), "layout_pad %s %d is not one value" % (f, r))
                groups = first.split()
                self.assertEqual(len(groups), len(points))
                for g in groups:
                    lines = [int(x) for x in g.split(",")]
                    self.assertEqual(len(lines), 4, g)
                    for n in lines:
                        self.assertTrue(0 <= n <= 63, first)
                pads[(f, r)] = first
        # each kernel and round a layout of its own
        self.assertEqual(len(set(pads.values())), len(pads), pads)
        for bad in ("0", "21", "x"):
            with self.subTest(round=bad):
                self.assertEqual(lib_sh("layout_pad vanilla %s" % bad)[:2], (1, ""))

    def test_the_cflags_name_each_point_and_its_group(self):
        rc, out, err = lib_sh('layout_cflags "1,2,3,4 0,0,0,0 63,9,10,11 5,6,7,8"')
        self.assertEqual(rc, 0, err)
        rc, points, _ = lib_sh('echo "$LAYOUT_POINTS"')
        want = ["CFLAGS_%s.o=-include %s/bench/layout-pad.h -DHOTCOLD_PAD_DATA=%s -DHOTCOLD_PAD_BSS=%s "
                "-DHOTCOLD_PAD_MOSTLY=%s -DHOTCOLD_PAD_PERCPU=%s" % ((p, ROOT) + tuple(g.split(",")))
                for p, g in zip(points.split(), "1,2,3,4 0,0,0,0 63,9,10,11 5,6,7,8".split())]
        self.assertEqual(out.splitlines(), want)

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
        p = subprocess.run(["bash", "-c", LAYOUTS % {"functions": bench_function("round_layouts")}],
                           env=dict(PATH=os.environ["PATH"], ROOT=fake, REAL=ROOT, BUILD=build),
                           capture_output=True, text=True, timeout=120)
        return p.returncode, p.stderr, build

    def read(self, path):
        with open(path) as f:
            return f.read()

    def test_each_round_keeps_its_relink_and_the_build_is_restored(self):
        rc, err, build = self.round_layouts("ok")
        self.assertEqual(rc, 0, err)
        rows = self.read(os.path.join(build, "run", "layouts.tsv")).splitlines()
        self.assertTrue(rows[0].startswith("kernel\tround\tpads"), rows[0])
        self.assertEqual(len(rows), 7)
        # (single's and power's round 2 ask for no pad of one kind at one
        # point: a 0 is tested)
        self.assertTrue(any("0" in g.split(",") for r in rows[1:] for g in r.split("\t")[2].split()))
        for row in rows[1:]:
            f, r, pad = row.split("\t")
            with self.subTest(kernel=f, round=r):
                self.assertEqual(pad, self.pads(f, int(r)))
                d = os.path.join(build, "rounds", "%s-%s" % (f, r))
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
