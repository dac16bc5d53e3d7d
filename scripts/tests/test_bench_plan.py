# SPDX-License-Identifier: GPL-2.0
"""Unit tests of make bench's plan (bench/hcreport/plan.py, draws.py):
every boot of a run as a line of its job file.  Round r of every
configuration boots with the same QEMU -seed and page_alloc.shuffle=1,
its kernel relinked at round r's pads (each kernel's own), and its
workloads in the order drawn for that round and boot (the same in every
configuration and mode); the repeat and the icount check boot exactly as
the base's round 1 does; all of it drawn from the run seed, so that
RUN_SEED replays a run and another seed draws another; RUN_SEED=fixed
and SHUFFLE=0 give the boots of older runs.  No kernel, no boot: the
plan is written to a temporary directory, in this process."""
import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from hcreport import configs, draws, plan, workloads  # noqa: E402

BASE, REPEAT = configs.role("base"), configs.role("repeat")
POINTS = "fork filemap memblock open"
# a run of every kind of boot: the base, the series, its switch off (an
# append), single (programs, sweeps, shapes), nopcp (shapes), a workload
# per boot; 3 rounds, icount's to 5
RUN = dict(CONFIGS="vanilla hotcold hotcold-off single nopcp", DET_ROUNDS="3",
           ICOUNT_ROUNDS="5", PROG_ROUNDS="2", SWEEP_ROUNDS="2", RUN_SEED="12345",
           WORKLOADS="sdet_1 trunc80k_ext4_1 readahead_other_cpu compile sweep_exit_0_40_16 "
                     "trunc80k_tmpfs_n_ccd4 sdet_8_ccd8 compile_ccd8prog")


def write(**env):
    """the plan of ENV: {file name: its lines}, or AssertionError with the
    errors"""
    env = dict(env, LAYOUT_POINTS=POINTS, BENCH_INPUTS="0123456789ab", RUN_T="1796600000")
    with tempfile.TemporaryDirectory() as d:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = plan.main(["write", d], env)
        if rc:
            raise AssertionError(err.getvalue())
        out = {}
        for f in os.listdir(d):
            with open(os.path.join(d, f)) as fh:
                out[f] = fh.read().splitlines()
        return out


def parse(line):
    """a job line: (tag, {key: value}, the appends)"""
    tag, *words = line.split(" ")
    kv, appends = {}, []
    for w in words:
        k, _, v = w.partition("=")
        if k == "append":
            appends.append(v)
        else:
            kv[k] = v
    return tag, kv, appends


def boots(files):
    """{(mode, config, round, boot): (kv, appends)} of a plan's job file"""
    out = {}
    for line in files["jobs"]:
        _, kv, appends = parse(line)
        key = (kv["mode"], kv["config"], int(kv["round"]), kv["boot"])
        assert key not in out, key
        out[key] = (kv, appends)
    return out


class Rounds(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.files = write(**RUN)
        cls.boots = boots(cls.files)
        cls.kernel = {n: configs.row(n)["kernel"] for n in configs.names()}

    def test_round_r_one_seed_in_every_configuration_and_the_shuffle(self):
        by_round = {}
        for (mode, name, r, part), (kv, appends) in self.boots.items():
            by_round.setdefault(r, set()).add(kv["seed"])
            self.assertEqual(appends[0], "page_alloc.shuffle=1")
            self.assertRegex(kv["seed"], r"^[1-9][0-9]{8}$")
        self.assertEqual(sorted(by_round), [1, 2, 3, 4, 5])
        self.assertTrue(all(len(s) == 1 for s in by_round.values()), by_round)
        self.assertEqual(len({s for v in by_round.values() for s in v}), 5, by_round)
        # the plan names them, round 1's first
        det_seeds = [x for x in self.files["plan"] if x.startswith("det_seeds=")]
        self.assertEqual(det_seeds, ["det_seeds=" + " ".join(
            next(iter(by_round[r])) for r in range(1, 6))])

    def test_round_r_boots_its_kernel_relinked_at_its_pads(self):
        rows = [x.split("\t") for x in self.files["layouts.tsv"][1:]]
        layouts = {(k, r): pad for k, _, r, pad in rows}
        for (mode, name, r, part), (kv, _) in self.boots.items():
            f = self.kernel[name]
            self.assertEqual((kv["layout"], kv["kernel"]), (f, f))
            self.assertEqual(kv["image"], "rounds/%s-%d" % (f, r))
            self.assertEqual(kv["pad"].replace("/", " "), layouts[(f, str(r))])
        # (each relink of its kernel: the layout A/A's, its own,
        # scripts/tests/test_bench_caps.py)
        self.assertEqual({(k, f) for k, f, _, _ in rows}, {(f, f) for f, _ in layouts})
        # each kernel and round a layout of its own
        self.assertEqual(len(set(layouts.values())), len(layouts))
        self.assertEqual({k for k, _ in layouts}, {"vanilla", "hotcold-bench", "single", "nopcp"})

    def test_distro_kernels_boot_from_their_own_directories(self):
        """CONFIG_BASE=distro: every image is a distro kernel's
        (scripts/lib.sh's kernel_dir and round_kernel_dir), recorded"""
        files = write(**dict(RUN, CONFIG_BASE="distro"))
        for (mode, name, r, part), (kv, _) in boots(files).items():
            self.assertEqual(kv["image"], "rounds/%s-distro-%d" % (self.kernel[name], r))
        self.assertIn("config_base=distro", files["plan"])
        self.assertIn("config_base=lean", self.files["plan"])
        files = write(**dict(RUN, CONFIG_BASE="distro", SHUFFLE="0"))
        self.assertEqual({kv["image"] for kv, _ in boots(files).values()},
                         {"kernel-%s-distro" % self.kernel[n] for n in RUN["CONFIGS"].split()})

    def test_each_shape_its_vcpus_a_named_one_its_name(self):
        # (no workload of the table boots the disk today)
        want = {"mem": ("1", "-"), "2cpu": ("2", "-"), "ccd4": ("4", "ccd4"),
                "ccd8": ("8", "ccd8"), "ccd8prog": ("8", "ccd8prog"), "prog": ("1", "-"),
                "sweep": ("1", "-")}
        self.assertEqual({k[3] for k in self.boots}, set(want))
        for (mode, name, r, part), (kv, _) in self.boots.items():
            self.assertEqual((kv["vcpus"], kv["shape"]), want[part], part)
            self.assertEqual(kv["disk"], "yes" if part == "disk" else "no")
            self.assertEqual(kv["programs"], "yes" if part in ("prog", "ccd8prog") else "no")

    def test_who_boots_what(self):
        shapes = set(configs.names(sets="shapes")) & set(RUN["CONFIGS"].split())
        booted = lambda p: {n for (_, n, _, q) in self.boots if q == p}  # noqa: E731
        # the named shapes: the shapes set and the repeat; 2cpu: everyone
        for p in ("ccd4", "ccd8"):
            self.assertEqual(booted(p), shapes | {REPEAT}, p)
        self.assertEqual(booted("2cpu"), set(RUN["CONFIGS"].split()) | {REPEAT})
        # the programs: never the repeat, the first PROG_ROUNDS rounds
        self.assertEqual(booted("ccd8prog"), shapes)
        self.assertEqual(booted("prog"), set(configs.names(sets="programs")) &
                         set(RUN["CONFIGS"].split()))
        self.assertEqual(booted("sweep"), set(configs.names(sets="sweeps")) &
                         set(RUN["CONFIGS"].split()))
        for p, rounds in (("ccd8prog", {1, 2}), ("prog", {1, 2}), ("sweep", {1, 2})):
            self.assertEqual({r for (_, _, r, q) in self.boots if q == p}, rounds, p)

    def test_icount_beyond_det_rounds_boots_mem_alone(self):
        more = {k for k in self.boots if k[2] > 3}
        # (but a configuration of fewer rounds: nopcp, 3)
        self.assertEqual(more, {("icount", n, r, "mem") for n in RUN["CONFIGS"].split()
                                for r in (4, 5) if r <= configs.rounds_of(configs.row(n), 20)})

    def test_the_repeat_boots_as_the_base_round_1(self):
        repeats = [k for k in self.boots if k[1] == REPEAT]
        self.assertTrue(repeats)
        for mode, name, r, part in repeats:
            self.assertEqual(r, 1)
            kv, appends = self.boots[(mode, name, r, part)]
            base = self.boots[(mode, BASE, 1, part)]
            self.assertEqual((dict(kv, config=BASE), appends), base)

    def test_the_icount_check_boots_as_cachesim_round_1(self):
        checks = [k for k in self.boots if k[0] == "icount" and k[2] <= 3]
        self.assertEqual({k[1:3] for k in checks}, {(BASE, 1)})
        self.assertEqual({k[3] for k in checks}, {k[3] for k in self.boots
                                                   if k[:3] == ("cachesim", BASE, 1)})
        for k in checks:
            kv, appends = self.boots[k]
            self.assertEqual((dict(kv, mode="cachesim"), appends),
                             self.boots[("cachesim",) + k[1:]])

    def test_the_configurations_append_stays(self):
        for (mode, name, r, part), (_, appends) in self.boots.items():
            a = configs.row(name)["append"]
            self.assertEqual(appends[1:], [] if a == "-" else [a])

    def test_the_programs_boots_first(self):
        parts = [parse(x)[1]["boot"] for x in self.files["jobs"]]
        n = sum(p in ("prog", "ccd8prog") for p in parts)
        self.assertTrue(all(p in ("prog", "ccd8prog") for p in parts[:n]), parts)

    def test_every_line_is_tagged_by_its_boot(self):
        for line in self.files["jobs"]:
            tag, kv, _ = parse(line)
            self.assertEqual(tag, "%s-%s-%s-%s" % (kv["mode"], kv["config"], kv["round"], kv["boot"]))

    def test_the_plan_records_how_to_replay_it(self):
        rec = dict(x.split("=", 1) for x in self.files["plan"])
        self.assertEqual(rec["run_seed"], "12345")
        self.assertTrue(rec["command"].startswith("RUN_SEED=12345 "), rec["command"])
        self.assertTrue(rec["command"].endswith(" make bench"), rec["command"])
        self.assertIn(" DET_ROUNDS=3 ", rec["command"])
        # (a dry run's plan replays as the run, not as another dry run)
        rec = dict(x.split("=", 1) for x in write(**dict(RUN, DRY_RUN="1"))["plan"])
        self.assertNotIn("DRY_RUN", rec["command"])
        self.assertEqual(rec["prog_rounds"], "2")
        self.assertEqual(rec["sweep_rounds"], "2")
        self.assertEqual(rec["icount_rounds"], "5 mem")
        self.assertRegex(rec["bench_stamp"], r"^patches=0123456789ab scale=2 seeds=[0-9a-f]{12}$")

    def test_the_silicon_check_is_planned_unless_skipped(self):
        rec = dict(x.split("=", 1) for x in self.files["plan"])
        self.assertEqual(rec["silicon"], "1")
        self.assertIn("SILICON=1", self.files["plan.sh"])
        self.assertIn("SILICON_WAIT=600", self.files["plan.sh"])
        off = write(**dict(RUN, SILICON="0", SILICON_WAIT="30"))
        rec = dict(x.split("=", 1) for x in off["plan"])
        self.assertEqual(rec["silicon"], "0")
        self.assertIn(" SILICON=0 SILICON_WAIT=30 ", rec["command"])
        self.assertIn("SILICON=0", off["plan.sh"])
        self.assertIn("SILICON_WAIT=30", off["plan.sh"])


class Meter(unittest.TestCase):
    """the residency meter's boots: round 1's mem boot of each configuration
    of the residency set again, in mode resid, last"""

    def test_each_configuration_of_the_set_one_boot_as_its_cachesim_round_1(self):
        files = write(**RUN)
        b = boots(files)
        meter = sorted(k for k in b if k[0] == "resid")
        want = [n for n in RUN["CONFIGS"].split() if n in configs.names(sets="residency")]
        self.assertTrue(want)
        self.assertEqual(meter, sorted(("resid", n, 1, "mem") for n in want))
        for k in meter:
            kv, appends = b[k]
            self.assertEqual((dict(kv, mode="cachesim"), appends),
                             b[("cachesim",) + k[1:]])
        # last in the job file, and recorded for the report and the collect step
        modes = [parse(x)[1]["mode"] for x in files["jobs"]]
        self.assertEqual(modes[-len(meter):], ["resid"] * len(meter))
        self.assertNotIn("resid", modes[:-len(meter)])
        self.assertIn("residency=" + " ".join(want), files["plan"])
        self.assertIn("RESID='%s'" % " ".join(want), files["plan.sh"])

    def test_quick_has_none_unless_asked(self):
        self.assertFalse([k for k in boots(write(QUICK="1", RUN_SEED="7")) if k[0] == "resid"])
        asked = boots(write(QUICK="1", RUN_SEED="7", RESIDENCY="1"))
        self.assertEqual(sorted(k[1] for k in asked if k[0] == "resid"),
                         sorted(n for n in configs.names(sets="residency")
                                if n in configs.names(sets="quick")))

    def test_residency_0_and_a_run_without_the_cache_model_have_none(self):
        for env in (dict(RUN, RESIDENCY="0"), dict(RUN, MODES="icount")):
            with self.subTest(env=env.get("RESIDENCY") or env["MODES"]):
                files = write(**env)
                self.assertFalse([k for k in boots(files) if k[0] == "resid"])
                self.assertIn("residency=", files["plan"])
                self.assertIn("RESID=''", files["plan.sh"])


class Order(unittest.TestCase):
    """each boot's workloads in an order drawn per round: the same in every
    configuration and mode of that round, another in another round"""

    @classmethod
    def setUpClass(cls):
        cls.boots = boots(write(CONFIGS="vanilla hotcold", RUN_SEED="7"))

    def test_one_order_per_round_and_boot(self):
        orders = {}
        for (mode, name, r, part), (kv, _) in self.boots.items():
            orders.setdefault((r, part), set()).add(kv["workloads"])
        self.assertTrue(all(len(o) == 1 for o in orders.values()), orders)
        mem = [next(iter(orders[(r, "mem")])) for r in (1, 2, 3)]
        self.assertEqual(len(set(mem)), 3, mem)
        table = workloads.boot_workloads("mem", plan.Plan({}).det_list)
        for o in mem:
            self.assertEqual(sorted(o.split(",")), sorted(table))
            self.assertNotEqual(o.split(","), table)

    def test_the_shuffle_is_fisher_yates_over_every_position(self):
        names = [str(i) for i in range(6)]
        firsts = {draws.shuffled("s", "k%d" % i, names)[0] for i in range(200)}
        self.assertEqual(firsts, set(names))


class Replay(unittest.TestCase):
    def test_a_run_seed_replays_the_run(self):
        a, b = write(**RUN), write(**RUN)
        for f in ("jobs", "wall.jobs", "layouts.tsv"):
            self.assertEqual(a[f], b[f], f)

    def test_another_seed_draws_another_run(self):
        a, b = write(**RUN), write(**dict(RUN, RUN_SEED="12346"))
        seeds = lambda x: {parse(l)[1]["seed"] for l in x["jobs"]}  # noqa: E731,E741
        self.assertFalse(seeds(a) & seeds(b))
        self.assertNotEqual(a["layouts.tsv"], b["layouts.tsv"])

    def test_unset_it_is_drawn_and_recorded(self):
        env = dict(RUN)
        del env["RUN_SEED"]
        a, b = write(**env), write(**env)
        seed = [dict(x.split("=", 1) for x in p["plan"])["run_seed"] for p in (a, b)]
        self.assertNotEqual(seed[0], seed[1])
        self.assertEqual(write(**dict(env, RUN_SEED=seed[0]))["jobs"], a["jobs"])


class OlderRuns(unittest.TestCase):
    def test_fixed_gives_the_seeds_pads_and_order_of_runs_before_issue_46(self):
        files = write(**dict(RUN, RUN_SEED="fixed"))
        for (mode, name, r, part), (kv, _) in boots(files).items():
            self.assertEqual(kv["seed"], draws.FIXED_SEEDS[r - 1])
            self.assertEqual(kv["workloads"].split(","),
                             workloads.boot_workloads(part, RUN["WORKLOADS"].split()))
        # as scripts/lib.sh's layout_pad drew them (its values, quoted)
        self.assertEqual(draws.pads("fixed", "vanilla", 1, POINTS.split()),
                         "34,41,4,38 57,24,11,21 3,44,52,48 13,59,9,22")
        self.assertEqual(draws.pads("fixed", "layout", 20, POINTS.split()),
                         "25,44,47,7 61,34,17,7 50,52,24,3 31,21,1,11")
        self.assertEqual(draws.FIXED_SEEDS[0], str(113183664))
        self.assertEqual(len(set(draws.FIXED_SEEDS)), 20)

    def test_shuffle_off_boots_as_before_issue_31(self):
        files = write(**dict(RUN, SHUFFLE="0"))
        self.assertNotIn("layouts.tsv", files)
        for (mode, name, r, part), (kv, appends) in boots(files).items():
            self.assertEqual((kv["seed"], kv["pad"]), ("-", "-"))
            self.assertEqual(kv["image"], "kernel-" + configs.row(name)["kernel"])
            self.assertNotIn("page_alloc.shuffle=1", appends)
            self.assertEqual(kv["workloads"].split(","),
                             workloads.boot_workloads(part, RUN["WORKLOADS"].split()))


class Suites(unittest.TestCase):
    """SUITE: the machine shapes and the real programs take turns between
    runs of the default workloads (docs/bench.md, "A run's budget")"""

    def parts(self, files):
        return {kv["boot"] for kv, _ in boots(files).values()}

    def test_auto_boots_the_suite_the_previous_run_did_not(self):
        with tempfile.TemporaryDirectory() as d:
            prev = os.path.join(d, "plan")
            with open(prev, "w") as f:
                f.write("run=x\nsuite=programs\n")
            files = write(RUN_SEED="7", PREVIOUS_PLAN=prev)
            self.assertIn("suite=shapes", files["plan"])
            self.assertTrue({"ccd4", "ccd8", "ccd8prog"} <= self.parts(files), self.parts(files))
            self.assertNotIn("prog", self.parts(files))
            with open(prev, "w") as f:
                f.write("suite=shapes\n")
            files = write(RUN_SEED="7", PREVIOUS_PLAN=prev)
            self.assertIn("suite=programs", files["plan"])
            self.assertIn("prog", self.parts(files))
            self.assertFalse({"ccd4", "ccd8", "ccd8prog"} & self.parts(files), self.parts(files))
            # and their workloads are not this run's (the report's NOT RUN)
            listed = [x for x in files["plan"] if x.startswith("workloads=")][0].split("=")[1]
            self.assertNotIn("compile_ccd8prog", listed.split())
            self.assertIn("compile", listed.split())
        # no previous run: the programs
        files = write(RUN_SEED="7", PREVIOUS_PLAN="/nonexistent/plan")
        self.assertIn("suite=programs", files["plan"])
        # the replay boots the suite as picked, whatever run came before
        cmd = [x for x in files["plan"] if x.startswith("command=")][0]
        self.assertIn("SUITE=programs", cmd)

    def test_both_when_the_run_names_its_workloads_or_is_quick(self):
        files = write(**dict(RUN, SUITE="shapes"))
        self.assertIn("suite=both", files["plan"])
        self.assertTrue({"prog", "ccd4", "ccd8prog"} <= self.parts(files), self.parts(files))
        self.assertIn("suite=both", write(QUICK="1", RUN_SEED="7")["plan"])

    def test_asked_both(self):
        files = write(RUN_SEED="7", SUITE="both")
        self.assertTrue({"prog", "ccd4", "ccd8", "ccd8prog"} <= self.parts(files))


class LeftOut(unittest.TestCase):
    """configurations no deterministic boot gives work leave the run
    (their targets then say "not in this run", not NOT RUN)"""

    def configs(self, names, listed):
        p = plan.Plan(dict(CONFIGS=names, WORKLOADS=listed))
        self.assertEqual(p.errors, [])
        return p.configs

    def test_a_configuration_outside_the_programs_set(self):
        off = configs.role("switch-off")
        self.assertNotIn(off, configs.names(sets="programs"))
        self.assertEqual(self.configs("vanilla hotcold %s single" % off, "compile"),
                         ["vanilla", "hotcold", "single"])

    def test_every_configuration_boots_a_one_vcpu_workload(self):
        names = [n for n in configs.names() if n != REPEAT][:7]
        self.assertEqual(self.configs(" ".join(names), "exit_flood"), names)

    def test_the_named_shapes_boot_the_shapes_set_alone(self):
        names = [n for n in configs.names() if n not in configs.names(sets="shapes")
                 and n != REPEAT]
        self.assertEqual(self.configs("vanilla " + " ".join(names), "trunc80k_tmpfs_n_ccd4"),
                         ["vanilla"])

    def test_the_aa_boots_without_work(self):
        p = plan.Plan(dict(WORKLOADS="compile"))
        self.assertIsNone(p.repeat)
        self.assertNotIn(configs.role("layout"), p.configs)


if __name__ == "__main__":
    unittest.main()
