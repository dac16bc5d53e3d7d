# SPDX-License-Identifier: GPL-2.0
"""The run's plan: make bench's settings (environment variables) and the
tables (bench/configs.tsv, workloads.tsv, shapes.tsv) turned into every
boot of the run, one line each, before anything is built or booted.

report.py plan check   checks every setting (one error line per bad
                       value, exit 1); on success prints one line,
                       "SEED NAME" (the run seed and the run's name, for
                       scripts/bench.sh), and its notes on stderr
report.py plan write DIR  the same checks, then writes DIR/plan (the
                       report's KEY=VALUE record), DIR/plan.sh (what the
                       shell scripts need, sourced), DIR/jobs (the
                       deterministic boots, one line each, in the order
                       GNU parallel starts them), DIR/wall.jobs (wall
                       mode's, in their interleaved order) and
                       DIR/layouts.tsv (each kernel's pads per round)

The draws (hcreport/draws.py): every round's QEMU seed, each kernel's
layout pads per round and each boot's workload order per round come from
one run seed (RUN_SEED; drawn from os.urandom when unset), recorded in
the plan, so that RUN_SEED=N make bench replays a run's boots exactly."""
import os
import sys

from . import configs, draws, planfiles, workloads
from .configs import SelectError
from .settings import GEOMETRIES, ICOUNT_MORE, WAYS, Settings, hosts_of
from .verdicts import MIN_ROUNDS

class Plan:
    """Every setting checked, the run's configurations, workloads and
    boots; .errors non-empty when a setting is bad (nothing else is then
    meaningful)"""

    def __init__(self, env):
        s = self.s = Settings(env)
        self.env = env
        self.modes = s.words("MODES", ("wall", "icount", "cachesim"), "icount cachesim")
        self.quick = s.choice("QUICK", ("0", "1"), "0") == "1"
        # the residency meter's boots (jobs.py): round 1's mem boot again,
        # with the meter's guest module, for the residency set; not in
        # QUICK's ten minutes unless asked
        self.residency = s.choice("RESIDENCY", ("0", "1"), "0" if self.quick else "1") == "1"
        self.resid_configs = []
        self.rounds = s.int("ROUNDS", 1, 20, "3")
        self.secs = s.int("SECS", 1, 30, "1")
        self.scale = s.int("SCALE", 1, 10, "2")
        # 6 rounds of the cache model and 10 of instructions: the primary
        # family's verdicts need 4 at least and catch a planted cost at 6
        # (docs/decisions.md, "Verdicts from a committed family"); the
        # budget: docs/bench.md, "A run's budget"
        self.det_rounds = s.int("DET_ROUNDS", 1, 20, "6")
        icount_asked = s.get("ICOUNT_ROUNDS", "")
        self.icount_rounds = s.int("ICOUNT_ROUNDS", 1, 20, "10") if icount_asked else None
        self.prog_rounds = s.int("PROG_ROUNDS", 1, 20, "3")
        self.sweep_rounds = s.int("SWEEP_ROUNDS", 1, 20, "2")
        self.geometry = s.choice("GEOMETRY", tuple(GEOMETRIES), "zen3")
        self.l2ways = s.choice("L2WAYS", WAYS, "0")
        self.l3ways = s.choice("L3WAYS", WAYS, "0")
        self.shuffle = s.choice("SHUFFLE", ("0", "1"), "1") == "1"
        # what every kernel's configuration starts from (scripts/lib.sh):
        # distro's kernels live in directories of their own
        self.config_base = s.choice("CONFIG_BASE", ("lean", "distro"), "lean")
        self.run_name = s.name("RUN_NAME", 40, "quick" if self.quick else "bench")
        self.jobs = s.int("JOBS", 1, 64, env.get("JOBS_DEFAULT") or "1")
        if self.jobs > (len(os.sched_getaffinity(0)) or 1):
            s.notes.append("JOBS=%d: more boots at once than this host's %d cores -- they share "
                           "them: the same counts, later" % (self.jobs, len(os.sched_getaffinity(0))))
        self.hosts = hosts_of(s, s.get("HOSTS", ""))
        self.dry_run = s.choice("DRY_RUN", ("0", "1"), "0") == "1"
        seed = s.get("RUN_SEED", "")
        if seed == "":
            seed = str(int.from_bytes(os.urandom(8), "big"))
        if seed != "fixed" and not (seed.isdigit() and seed.isascii() and
                                    (seed == "0" or seed[0] != "0") and int(seed) < 2 ** 64):
            s.bad("RUN_SEED=%s: expected a whole number from 0 to 2^64-1 (a run's plan names "
                  "its own) or fixed (the seeds and pads of runs before issue 46)" % seed)
        self.run_seed = seed
        # the machine shapes and the real programs, the two costliest
        # suites, take turns between runs (docs/bench.md, "A run's
        # budget"); a run that names its WORKLOADS boots what it names
        self.suite = s.choice("SUITE", ("auto", "shapes", "programs", "both"), "auto")
        # the silicon check after the boots (bench/silicon.py; 0: skipped,
        # the report says so), and how long it waits for a quiet host:
        # after the boots a load of 2 takes about 80 s to fall below 0.5
        self.silicon = s.choice("SILICON", ("0", "1"), "1") == "1"
        self.silicon_wait = s.int("SILICON_WAIT", 0, 3600, "600")
        for v in ("HOTCOLD_KERNEL", "HOTCOLD_ICOUNT"):
            # run-guest.sh's overrides, for build-series and experiments:
            # every configuration would boot one kernel, or count otherwise
            if env.get(v):
                s.bad("%s=%s: run-guest.sh's override, not for make bench -- unset it" %
                      (v, env[v]))
        self.errors = s.errors
        if self.errors:
            # (the tables' names still checked: one error line per bad
            # value, whatever else is bad)
            self.names_checked()
            return
        self.asked_notes()
        self.tables()

    def asked_notes(self):
        """the settings the run takes but cannot use as given"""
        s = self.s
        if self.quick:
            given = [v for v in ("ROUNDS", "SECS", "SCALE", "DET_ROUNDS", "ICOUNT_ROUNDS",
                                 "PROG_ROUNDS") if s.get(v, "")]
            if given:
                s.notes.append("QUICK=1: %s ignored -- QUICK has its own rounds and scale "
                               "(docs/bench.md, \"Options and output\")" %
                               " ".join("%s=%s" % (v, s.get(v, "")) for v in given))
        elif self.det_rounds < MIN_ROUNDS:
            s.notes.append("DET_ROUNDS=%d: below the %d rounds a verdict needs -- no cell gets "
                           "a verdict word (docs/bench.md, \"Verdicts\")" %
                           (self.det_rounds, MIN_ROUNDS))

    def names_checked(self):
        """CONFIGS's and WORKLOADS's names against the tables (errors)"""
        try:
            configs.select(self.env.get("CONFIGS", ""), self.quick)
        except SelectError as e:
            self.s.bad(str(e))
        self.workloads_known(self.env.get("WORKLOADS", "").split())

    def workloads_known(self, listed):
        """False (an error) for the first name of LISTED the table lacks"""
        every = workloads.names()
        for w in listed:
            if w.lstrip("-") not in every:
                self.s.bad("unknown workload '%s' in WORKLOADS -- workloads are "
                           "(bench/workloads.tsv): %s" % (w.lstrip("-"), " ".join(every)))
                return False
        return True

    def tables(self):
        """the configurations and workloads, each boot's, as the settings
        ask (a refusal: errors)"""
        s = self.s
        try:
            self.picked = configs.select(self.env.get("CONFIGS", ""), self.quick)
        except SelectError as e:
            s.bad(str(e))
            return
        rows = configs.table()
        self.base = configs.role("base")
        self.repeat = configs.role("repeat")
        if self.quick:
            # under 10 minutes: the table's quick workloads, no repeat
            # boot, the programs in the first round only, scale 1
            self.rounds, self.secs, self.scale, self.det_rounds = 2, 1, 1, 2
            self.prog_rounds, self.repeat, self.icount_rounds = 1, None, None
        listed = self.env.get("WORKLOADS", "").split()
        if not self.workloads_known(listed):
            return
        asked = workloads.run_workloads("quick" if self.quick else "default", listed)
        if not asked:
            s.bad("WORKLOADS='%s' leaves no workload to run (its names less its exclusions, or "
                  "the run's set, bench/workloads.tsv's runs column, less them)" %
                  " ".join(listed))
            return
        self.wall_list = asked
        # (a wall-mode workload, the in-kernel microbenchmark, is not
        # asked of the deterministic modes)
        wall_only = workloads.names(modes="wall")
        self.det_list = [w for w in asked if w not in wall_only]
        if not self.det_list and self.det_modes():
            s.bad("WORKLOADS=%s: only wall-mode workloads, and MODES asks for a deterministic "
                  "mode -- add MODES=wall or a workload of bench/workloads.tsv with modes det" %
                  self.env.get("WORKLOADS", ""))
            return
        self.wall_main = workloads.boot_workloads("wall", self.wall_list)
        self.wall_prog = workloads.boot_workloads("wall-prog", self.wall_list)
        if "wall" in self.modes and not self.wall_main + self.wall_prog:
            s.bad("WORKLOADS=%s: only workloads of the deterministic modes (the sweeps), and "
                  "MODES asks for wall -- add MODES=\"icount cachesim\" or a workload wall mode "
                  "runs" % self.env.get("WORKLOADS", ""))
            return
        self.pick_suite(listed)
        self.icount()
        self.names = {r["name"]: r for r in rows}
        self.configs = [r["name"] for r in self.picked]
        self.leave_out()
        self.meter()

    def meter(self):
        """the configurations of the residency meter's boots: those of the
        residency set the run boots under the cache model, when its mem
        boot has work"""
        if not self.residency:
            return
        if "cachesim" in self.modes and self.boot_list("mem"):
            self.resid_configs = [c for c in self.configs if self.in_set(c, "residency") and
                                  self.boots_in(c, "cachesim")]
        if not self.resid_configs and self.s.get("RESIDENCY", "") == "1":
            self.s.notes.append("RESIDENCY=1: no meter boot -- it needs MODES with cachesim, "
                                "a workload of the mem boot and a configuration of the "
                                "residency set (bench/configs.tsv)")

    def pick_suite(self, listed):
        """SUITE=auto: the suite the previous run (PREVIOUS_PLAN, its plan
        file) did not boot, programs after none; both for QUICK and for a
        run that names its workloads"""
        if self.quick or listed:
            if self.suite not in ("auto", "both"):
                self.s.notes.append("SUITE=%s: %s boots what it names -- both" %
                                    (self.suite, "QUICK" if self.quick else "WORKLOADS"))
            self.suite = "both"
        elif self.suite == "auto":
            last = ""
            try:
                with open(self.env.get("PREVIOUS_PLAN", "")) as f:
                    for line in f:
                        if line.startswith("suite="):
                            last = line.strip().split("=", 1)[1]
            except OSError:
                pass
            self.suite = "shapes" if last == "programs" else "programs"
        # the workloads of a boot the suite leaves out are not this run's
        # (their targets say "not in this run", not NOT RUN)
        skipped = [b for b in workloads.VALUES["boot"] if not self.suite_boots(b)]
        gone = [w for b in skipped for w in workloads.boot_workloads(b, self.det_list)]
        if gone:
            self.det_list = [w for w in self.det_list if w not in gone]
            self.wall_list = [w for w in self.wall_list if w not in gone]

    def suite_boots(self, part):
        """does the run's suite boot PART (a named shape, the programs)?"""
        shape = workloads.SHAPES.get(part, {})
        if part == "prog":
            return self.suite in ("programs", "both")
        if shape.get("named") == "yes" or shape.get("programs") == "yes":
            return self.suite in ("shapes", "both")
        return True

    def det_modes(self):
        return [m for m in self.modes if m != "wall"]

    def boot_list(self, boot):
        """the workloads a deterministic boot runs (the table's order)"""
        return workloads.boot_workloads(boot, self.det_list)

    def icount(self):
        """icount's rounds: as asked, at least DET_ROUNDS, more only where
        icount runs and the boot that takes them has work; unset, 10
        (QUICK: DET_ROUNDS)"""
        s, asked = self.s, self.icount_rounds
        if asked is not None:
            if asked < self.det_rounds:
                s.bad("ICOUNT_ROUNDS=%d: below DET_ROUNDS=%d, and the instructions have every "
                      "round the misses have -- raise it, or leave it unset (10)" %
                      (asked, self.det_rounds))
            elif asked != self.det_rounds and "icount" not in self.modes:
                s.bad("ICOUNT_ROUNDS=%d: MODES (%s) has no icount, whose rounds it sets -- add "
                      "icount to MODES, or leave ICOUNT_ROUNDS unset" %
                      (asked, " ".join(self.modes)))
            n = asked
        elif self.quick or "icount" not in self.modes:
            n = self.det_rounds
        else:
            n = max(10, self.det_rounds)
        if n != self.det_rounds and not self.boot_list(ICOUNT_MORE):
            if asked is not None:
                s.notes.append("ICOUNT_ROUNDS=%d: no workload of the run is in the boot that "
                               "takes icount's rounds beyond DET_ROUNDS (%s) -- %d rounds" %
                               (n, ICOUNT_MORE, self.det_rounds))
            n = self.det_rounds
        self.icount_rounds = n

    def in_set(self, name, which):
        return name in configs.names(sets=which)

    def parts(self, name, r):
        """the boots configuration NAME has in round R: the one-vCPU
        workloads, any that need the disk, each machine shape's, the real
        programs and the sweeps.  A boot with the programs archive (prog,
        a shape of programs) is booted in the first PROG_ROUNDS rounds,
        never by the repeat; a named shape by the shapes set's
        configurations (the repeat with the base, but not the programs)"""
        out = []
        for part in ("mem", "disk") + tuple(workloads.SHAPES) + ("prog", "sweep"):
            shape = workloads.SHAPES.get(part, {})
            named = shape.get("named") == "yes"
            if part == "sweep" and (not self.in_set(name, "sweeps") or r > self.sweep_rounds):
                continue
            if part == "prog" or shape.get("programs") == "yes":
                if r > self.prog_rounds or name == self.repeat or \
                        not (named or self.in_set(name, "programs")):
                    continue
            if named and not (self.in_set(name, "shapes") or name == self.repeat):
                continue
            if self.boot_list(part) and self.suite_boots(part):
                out.append(part)
        return out

    def leave_out(self):
        """the A/A boots with nothing to run, and configurations no
        deterministic boot gives work, leave the run: their targets then
        say "not in this run", not NOT RUN"""
        aa = [r["name"] for r in configs.table() if r["role"] in ("repeat", "layout")]
        aa_work = list(self.wall_main) if "wall" in self.modes else []
        if self.det_modes():
            for p in ("mem", "disk") + tuple(workloads.SHAPES):
                if p not in self.prog_boots():
                    aa_work += self.boot_list(p)
        if not aa_work and (self.repeat or any(c in aa for c in self.configs)):
            self.s.notes.append("WORKLOADS=%s: nothing for the A/A boots (%s) to run: left out" %
                                (self.env.get("WORKLOADS", ""), ", ".join(aa)))
            self.repeat = None
            self.configs = [c for c in self.configs if c not in aa]
        idle = [c for c in self.configs if c != self.base and
                not any(self.det_parts(c, 1, m) for m in self.det_modes()) and
                not ("wall" in self.modes and self.boots_in(c, "wall"))]
        if idle:
            self.s.notes.append("WORKLOADS=%s MODES=%s: %s boot none of the run's workloads "
                                "in its modes (bench/configs.tsv's modes): left out" % (
                                    self.env.get("WORKLOADS", "") or "(default)",
                                    " ".join(self.modes), ", ".join(idle)))
            self.configs = [c for c in self.configs if c not in idle]

    def boots_in(self, name, mode):
        return configs.boots_in(self.names[name], mode)

    def rounds_of(self, name, n):
        """the rounds configuration NAME boots of a mode's N (its rounds
        column, bench/configs.tsv)"""
        return configs.rounds_of(self.names[name], n)

    def det_parts(self, name, r, mode):
        """the boots NAME has in round R of a deterministic MODE: none
        in a mode it does not boot or beyond its rounds; a configuration
        of icount alone (modes icount) its ICOUNT_MORE boot only"""
        if not self.boots_in(name, mode) or r > self.rounds_of(name, r):
            return []
        if not self.boots_in(name, "cachesim"):
            return [p for p in self.parts(name, r) if p == ICOUNT_MORE]
        return self.parts(name, r)

    def prog_boots(self):
        return ["prog"] + [b for b, r in workloads.SHAPES.items() if r["programs"] == "yes"]

    def kernel(self, name):
        return self.names[name]["kernel"]

    def flavours(self):
        """the kernels the run boots: every configuration's with a
        deterministic mode, else those of wall mode (not fixed)"""
        names = self.configs if self.det_modes() else \
            [c for c in self.configs if self.boots_in(c, "wall")]
        out = []
        for c in names:
            if self.kernel(c) not in out:
                out.append(self.kernel(c))
        return out

    # ---- the draws ----
    def layout(self, name):
        """the key configuration NAME's relinks are drawn and kept under:
        its kernel's, shared by every configuration of that kernel (one
        binary per round), but the layout A/A's (role layout), which
        is its own name: the base's kernel relinked apart"""
        row = self.names[name]
        return row["name"] if row["role"] == "layout" else row["kernel"]

    def layouts(self):
        """(key, kernel, rounds) of each relink the run boots: each
        configuration's key (layout()) with a deterministic mode, the
        most rounds of those that share it"""
        out = {}
        for c in self.configs:
            n = max([self.rounds_of(c, self.icount_rounds if m == "icount" else self.det_rounds)
                     for m in self.det_modes() if self.boots_in(c, m)] or [0])
            if n:
                k = self.layout(c)
                out[k] = (self.kernel(c), max(n, out.get(k, ("", 0))[1]))
        return [(k, f, n) for k, (f, n) in out.items()]

    def image(self, key, r=None):
        """the directory under build/ a boot boots: kernel KEY as built, or
        layout KEY (layout()) relinked at round R's pads (scripts/lib.sh's
        kernel_dir, scripts/lib/bench.sh's round_kernel_dir)"""
        f = key + ("" if self.config_base == "lean" else "-" + self.config_base)
        return "kernel-" + f if r is None else "rounds/%s-%d" % (f, r)

    def seed(self, r):
        return draws.qemu_seed(self.run_seed, r) if self.shuffle else ""

    def pad(self, key, r, points):
        return draws.pads(self.run_seed, key, r, points) if self.shuffle else ""

    def order(self, r, boot, names):
        if not self.shuffle or self.run_seed == "fixed":
            return list(names)
        return draws.shuffled(self.run_seed, "%s %d" % (boot, r), names)


USAGE = "usage: report.py plan check | report.py plan write DIR"


def main(args, env=None):
    env = dict(os.environ if env is None else env)
    if args not in (["check"],) and not (len(args) == 2 and args[0] == "write"):
        print(USAGE, file=sys.stderr)
        return 2
    plan = Plan(env)
    for e in plan.errors:
        print("hotcold: settings: FAILED: %s" % e, file=sys.stderr)
    if plan.errors:
        return 1
    if args[0] == "check":
        for n in plan.s.notes:
            print("hotcold: %s" % n, file=sys.stderr)
        print(plan.run_seed, plan.run_name)
        return 0
    if not os.path.isdir(args[1]):
        print("hotcold: settings: FAILED: %s: no such directory" % args[1], file=sys.stderr)
        return 1
    return planfiles.write(plan, env, args[1])
