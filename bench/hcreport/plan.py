# SPDX-License-Identifier: GPL-2.0
"""The run's plan: make bench's settings (environment variables) and the
tables (bench/configs.tsv, workloads.tsv, shapes.tsv) turned into every
boot of the run, one line each, before anything is built or booted.

report.py plan check   checks every setting (one error line per bad
                       value, exit 1); on success prints the run seed
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
import shlex
import subprocess
import sys

from . import configs, draws, workloads
from .configs import SelectError

# the settings this program reads (the plan's command= names those set)
SETTINGS = ("QUICK", "MODES", "CONFIGS", "WORKLOADS", "ROUNDS", "SECS", "SCALE", "DET_ROUNDS",
            "ICOUNT_ROUNDS", "PROG_ROUNDS", "SWEEP_ROUNDS", "GEOMETRY", "L2WAYS", "L3WAYS",
            "SHUFFLE", "BIG_MB", "RUN_NAME", "JOBS", "HOSTS", "RUN_SEED", "DRY_RUN")
# the boot icount's rounds beyond DET_ROUNDS take (a fifth of a cachesim
# boot's time; docs/decisions.md, "Eight rounds of instructions")
ICOUNT_MORE = "mem"
# the plugin takes a set-associative cache whose size over ways x 64-byte
# lines is a power of two; every L2 and L3 here is one (0: fully
# associative, capacity misses only)
WAYS = ("0", "1", "2", "4", "8", "16", "32", "64")
# the simulated machine and the CPU model whose CPUID describes it to the
# guest (the exit threshold is its LLC slice)
GEOMETRIES = {
    "zen3": ("EPYC-Milan", "l1size=32768,l1ways=8,l2size=524288,l2ways=%(l2)s,"
                           "l3size=33554432,l3ways=%(l3)s"),
    "v1": ("max", "l1size=49152,l1ways=12,l2size=2097152,l2ways=%(l2)s"),
}


class Bad(Exception):
    pass


class Settings:
    """The settings read from ENV, each checked; errors collects one line
    per bad value, notes what the run changed and why."""

    def __init__(self, env):
        self.env, self.errors, self.notes = env, [], []

    def get(self, name, default):
        v = self.env.get(name, "")
        return v if v != "" else default

    def bad(self, text):
        self.errors.append(text)

    def int(self, name, lo, hi, default):
        v = self.get(name, default)
        if v.isdigit() and v.isascii() and not (len(v) > 1 and v[0] == "0") and \
                len(v) <= len(str(hi)) and lo <= int(v) <= hi:
            return int(v)
        self.bad("%s=%s: expected a whole number from %d to %d" % (name, v, lo, hi))
        return lo

    def choice(self, name, words, default):
        v = self.get(name, default)
        if v in words:
            return v
        self.bad("%s=%s: expected %s" % (name, v, or_list(words)))
        return words[0]

    def words(self, name, words, default):
        v = self.get(name, default)
        got = v.split(" ")
        got = [w for w in got if w != ""]
        if got and all(w in words for w in got) and len(set(got)) == len(got) and \
                not any(c in v for c in "\t\n"):
            return got
        self.bad("%s=%s: expected one or more of: %s (each once)" % (name, v, " ".join(words)))
        return [words[0]]

    def name(self, name, hi, default):
        v = self.get(name, default)
        ok = v and v.isascii() and v[0].isalnum() and len(v) <= hi and \
            all(c.isalnum() or c in "._-" for c in v)
        if ok:
            return v
        self.bad("%s=%s: expected a name of 1 to %d letters, digits, '.', '_' or '-', starting "
                 "with a letter or digit" % (name, v, hi))
        return "x"


def or_list(words):
    return words[0] if len(words) == 1 else "%s or %s" % (", ".join(words[:-1]), words[-1])


def hosts_of(s, path):
    """HOSTS: a file in GNU parallel's --sshloginfile format (a login a
    line, [N/]HOST or [N/]USER@HOST, ':' this machine, # comments)"""
    if not path:
        return ""
    try:
        with open(path) as f:
            lines = [x.strip() for x in f if x.strip() and not x.lstrip().startswith("#")]
    except OSError as e:
        s.bad("HOSTS=%s: cannot read it (%s) -- a file in GNU parallel's --sshloginfile "
              "format, a login a line" % (path, e.strerror))
        return ""
    for x in lines:
        if any(c in x for c in "'\"`$;&|<>\\"):
            s.bad("HOSTS=%s: '%s': expected [N/]HOST, [N/]USER@HOST or ':' (this machine)" %
                  (path, x))
    if not lines:
        s.bad("HOSTS=%s: no login in it -- a login a line ([N/]HOST, ':' this machine)" % path)
    return os.path.abspath(path)


class Plan:
    """Every setting checked, the run's configurations, workloads and
    boots; .errors non-empty when a setting is bad (nothing else is then
    meaningful)"""

    def __init__(self, env):
        s = self.s = Settings(env)
        self.env = env
        self.modes = s.words("MODES", ("wall", "icount", "cachesim"), "icount cachesim")
        self.quick = s.choice("QUICK", ("0", "1"), "0") == "1"
        self.rounds = s.int("ROUNDS", 1, 20, "3")
        self.secs = s.int("SECS", 1, 30, "1")
        self.scale = s.int("SCALE", 1, 10, "2")
        self.det_rounds = s.int("DET_ROUNDS", 1, 20, "3")
        icount_asked = s.get("ICOUNT_ROUNDS", "")
        self.icount_rounds = s.int("ICOUNT_ROUNDS", 1, 20, "8") if icount_asked else None
        self.prog_rounds = s.int("PROG_ROUNDS", 1, 20, "2")
        self.sweep_rounds = s.int("SWEEP_ROUNDS", 1, 20, "2")
        self.geometry = s.choice("GEOMETRY", tuple(GEOMETRIES), "zen3")
        self.l2ways = s.choice("L2WAYS", WAYS, "0")
        self.l3ways = s.choice("L3WAYS", WAYS, "0")
        self.shuffle = s.choice("SHUFFLE", ("0", "1"), "1") == "1"
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
        for v in ("HOTCOLD_KERNEL", "HOTCOLD_ICOUNT"):
            # run-guest.sh's overrides, for build-series and experiments:
            # every configuration would boot one kernel, or count otherwise
            if env.get(v):
                s.bad("%s=%s: run-guest.sh's override, not for make bench -- unset it" %
                      (v, env[v]))
        self.errors = s.errors
        if self.errors:
            return
        self.tables()

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
        every = workloads.names()
        for w in listed:
            if w.lstrip("-") not in every:
                s.bad("unknown workload '%s' in WORKLOADS -- workloads are "
                      "(bench/workloads.tsv): %s" % (w.lstrip("-"), " ".join(every)))
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
        self.icount()
        self.names = {r["name"]: r for r in rows}
        self.configs = [r["name"] for r in self.picked]
        self.leave_out()

    def det_modes(self):
        return [m for m in self.modes if m != "wall"]

    def boot_list(self, boot):
        """the workloads a deterministic boot runs (the table's order)"""
        return workloads.boot_workloads(boot, self.det_list)

    def icount(self):
        """icount's rounds: as asked, at least DET_ROUNDS, more only where
        icount runs and the boot that takes them has work; unset, 8
        (QUICK: DET_ROUNDS)"""
        s, asked = self.s, self.icount_rounds
        if asked is not None:
            if asked < self.det_rounds:
                s.bad("ICOUNT_ROUNDS=%d: below DET_ROUNDS=%d, and the instructions have every "
                      "round the misses have -- raise it, or leave it unset (8)" %
                      (asked, self.det_rounds))
            elif asked != self.det_rounds and "icount" not in self.modes:
                s.bad("ICOUNT_ROUNDS=%d: MODES (%s) has no icount, whose rounds it sets -- add "
                      "icount to MODES, or leave ICOUNT_ROUNDS unset" %
                      (asked, " ".join(self.modes)))
            n = asked
        elif self.quick or "icount" not in self.modes:
            n = self.det_rounds
        else:
            n = max(8, self.det_rounds)
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
            if self.boot_list(part):
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
        if "wall" not in self.modes:
            idle = [c for c in self.configs if c != self.base and not self.parts(c, 1)]
            if idle:
                self.s.notes.append("WORKLOADS=%s: no boot of %s runs any of them: left out" %
                                    (self.env.get("WORKLOADS", ""), ", ".join(idle)))
                self.configs = [c for c in self.configs if c not in idle]

    def prog_boots(self):
        return ["prog"] + [b for b, r in workloads.SHAPES.items() if r["programs"] == "yes"]

    def kernel(self, name):
        return self.names[name]["kernel"]

    def flavours(self):
        """the kernels the run boots: every configuration's with a
        deterministic mode, else those of wall mode (not fixed)"""
        names = self.configs if self.det_modes() else \
            [c for c in self.configs if self.names[c]["modes"] != "fixed"]
        out = []
        for c in names:
            if self.kernel(c) not in out:
                out.append(self.kernel(c))
        return out

    # ---- the draws ----
    def seed(self, r):
        return draws.qemu_seed(self.run_seed, r) if self.shuffle else ""

    def pad(self, flavour, r, points):
        return draws.pads(self.run_seed, flavour, r, points) if self.shuffle else ""

    def order(self, r, boot, names):
        if not self.shuffle or self.run_seed == "fixed":
            return list(names)
        return draws.shuffled(self.run_seed, "%s %d" % (boot, r), names)


def job_line(plan, points, mode, name, r, part):
    """one deterministic boot: its tag, then KEY=VALUE words"""
    row = plan.names[name]
    f = row["kernel"]
    shape = workloads.SHAPES.get(part, {})
    tag = "%s-%s-%d-%s" % (mode, name, r, part)
    append = ["page_alloc.shuffle=1"] if plan.shuffle else []
    if row["append"] != "-":
        append.append(row["append"])
    words = [tag, "mode=" + mode, "config=" + name, "kernel=" + f,
             "image=" + ("rounds/%s-%d" % (f, r) if plan.shuffle else "kernel-" + f),
             "round=%d" % r, "boot=" + part, "vcpus=%d" % workloads.vcpus(part),
             "seed=" + (plan.seed(r) or "-"),
             "pad=" + (plan.pad(f, r, points).replace(" ", "/") or "-"),
             "shape=" + (part if shape.get("named") == "yes" else "-"),
             "disk=" + ("yes" if part == "disk" else "no"),
             "programs=" + ("yes" if part in plan.prog_boots() else "no"),
             "history=%d" % r]
    words += ["append=" + a for a in append]
    words.append("workloads=" + ",".join(plan.order(r, part, plan.boot_list(part))))
    return " ".join(words)


def det_jobs(plan, points):
    """the deterministic boots in the order parallel starts them: the real
    programs' boots first (the longest: with one of them last, one worker
    would run it alone), each group in round order.  With icount and
    cachesim both asked for, icount boots the base's round 1 only (its
    check against cachesim's) and its rounds beyond DET_ROUNDS; every other
    icount row is derived from a cachesim boot (bench-collect.sh)."""
    modes = plan.det_modes()
    both = "icount" in modes and "cachesim" in modes
    keys = []
    for mode in (["cachesim"] if both else modes):
        for r in range(1, plan.det_rounds + 1):
            runs = [(c, r) for c in plan.configs]
            if r == 1 and plan.repeat:
                runs.append((plan.repeat, 1))
            for c, rr in runs:
                keys += [(mode, c, rr, p) for p in plan.parts(c, rr)]
        if both:
            keys += [("icount", plan.base, 1, p) for p in plan.parts(plan.base, 1)]
        if mode == "icount" or both:
            for r in range(plan.det_rounds + 1, plan.icount_rounds + 1):
                for c in plan.configs:
                    keys += [("icount", c, r, p) for p in plan.parts(c, r) if p == ICOUNT_MORE]
    progs = plan.prog_boots()
    keys = [k for k in keys if k[3] in progs] + [k for k in keys if k[3] not in progs]
    return [job_line(plan, points, *k) for k in keys]


def wall_jobs(plan):
    """wall mode's boots: rounds interleaved (A B C, A B C, ...), the base
    twice per round with the repeat; the programs boot of their own, in
    the programs set's configurations, the first PROG_ROUNDS rounds"""
    if "wall" not in plan.modes:
        return []
    names = [c for c in plan.configs if plan.names[c]["modes"] != "fixed"]
    if plan.repeat:
        names.append(plan.repeat)
    out = []
    for r in range(1, plan.rounds + 1):
        for c in names:
            row = plan.names[c]
            for part, wl in (("main", plan.wall_main), ("prog", plan.wall_prog)):
                if not wl or (part == "prog" and (not plan.in_set(c, "programs") or
                                                  r > plan.prog_rounds)):
                    continue
                words = ["wall-%s-%d-%s" % (c, r, part), "mode=wall", "config=" + c,
                         "kernel=" + row["kernel"], "image=kernel-" + row["kernel"],
                         "round=%d" % r, "boot=" + part,
                         "programs=" + ("yes" if part == "prog" else "no")]
                if row["append"] != "-":
                    words.append("append=" + row["append"])
                words.append("workloads=" + ",".join(plan.order(r, "wall-" + part, wl)))
                out.append(" ".join(words))
    return out


def git(*args):
    try:
        return subprocess.run(["git", "-C", configs.ROOT] + list(args), capture_output=True,
                              text=True, timeout=30)
    except OSError:
        return None


def record(plan, env, points, run, date):
    """the plan's KEY=VALUE lines (bench/hcreport/ingest.py load_plan reads
    them; the report asks for a target's data only where the plan did)"""
    geometry_cpu, sim = GEOMETRIES[plan.geometry]
    sim %= {"l2": plan.l2ways, "l3": plan.l3ways}
    asked = " ".join("%s=%s" % (k, shlex.quote(env[k])) for k in SETTINGS
                     if env.get(k) and k != "RUN_SEED")
    head = git("rev-parse", "--short", "HEAD")
    dirty = git("diff", "--quiet", "HEAD", "--")
    commit = head.stdout.strip() if head and head.returncode == 0 else "unknown"
    if dirty is not None and dirty.returncode != 0:
        commit += " (with uncommitted changes)"
    seeds = [plan.seed(r) for r in range(1, plan.icount_rounds + 1)] if plan.shuffle else []
    stamp = "patches=%s scale=%d seeds=%s" % (
        env.get("BENCH_INPUTS", "unknown"), plan.scale,
        draws.scheme_hash(plan.run_seed, points) if plan.shuffle else "off")
    return [("modes", " ".join(plan.modes)), ("configs", " ".join(plan.configs)),
            ("repeat", "1" if plan.repeat else "0"), ("det_rounds", plan.det_rounds),
            ("icount_rounds", "%d %s" % (plan.icount_rounds, ICOUNT_MORE)),
            ("prog_rounds", plan.prog_rounds), ("sweep_rounds", plan.sweep_rounds),
            ("shuffle", "1" if plan.shuffle else "0"), ("run_seed", plan.run_seed),
            ("det_seeds", " ".join(seeds)), ("workloads", " ".join(plan.det_list)),
            ("sweep_configs", " ".join(configs.names(sets="sweeps"))),
            ("geometry", "%s cpu=%s sim=%s" % (plan.geometry, geometry_cpu, sim)),
            ("run", run), ("date", date), ("commit", commit),
            ("command", "RUN_SEED=%s %smake bench" % (plan.run_seed, asked + " " if asked else "")),
            ("bench_stamp", stamp), ("jobs", plan.jobs), ("hosts", plan.hosts)]


def shell_vars(plan, rec):
    """what scripts/bench*.sh need, as NAME=VALUE lines they source"""
    r = dict(rec)
    cpu, sim = r["geometry"].split(" cpu=")[1].split(" sim=")
    det = plan.det_modes()
    turns = any(plan.boot_list(b) for b in workloads.SHAPES) and bool(det)
    progs = ("wall" in plan.modes and plan.wall_prog) or \
        (det and any(plan.boot_list(b) for b in plan.prog_boots()))
    v = {"MODES": " ".join(plan.modes), "QUICK": "1" if plan.quick else "0",
         "SHUFFLE": r["shuffle"], "SCALE": plan.scale, "SECS": plan.secs,
         "DET": "1" if det else "0", "CACHESIM": "1" if "cachesim" in plan.modes else "0",
         "BOTH": "1" if "icount" in det and "cachesim" in det else "0",
         "WALL": "1" if "wall" in plan.modes else "0",
         "FLAVOURS": " ".join(plan.flavours()), "LAYOUT_ROUNDS": plan.icount_rounds,
         "GUEST_CPU": cpu, "SIM_ARGS": sim, "BASE": plan.base,
         "PROGRAMS": "1" if progs else "0", "TURNS": "1" if turns else "0",
         "BOOT_ORDER": " ".join(("mem", "disk") + tuple(workloads.SHAPES) + ("prog", "sweep")),
         "JOBS": plan.jobs, "HOSTS": plan.hosts, "RUN_SEED": plan.run_seed,
         "BENCH_STAMP": r["bench_stamp"]}
    return ["%s=%s" % (k, shlex.quote(str(x))) for k, x in v.items()]


def layouts(plan, points):
    if not plan.shuffle or not plan.det_modes():
        return []
    head = "kernel\tround\tpads (data,bss,mostly,percpu lines at %s)" % ",".join(points)
    return [head] + ["%s\t%d\t%s" % (f, r, plan.pad(f, r, points))
                     for f in plan.flavours() for r in range(1, plan.icount_rounds + 1)]


def write(plan, env, out):
    points = env.get("LAYOUT_POINTS", "fork filemap memblock open").split()
    import time
    now = int(env.get("RUN_T") or time.time())
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now))
    rec = record(plan, env, points, os.path.basename(os.path.normpath(out)), date)
    files = {"plan": ["%s=%s" % kv for kv in rec], "plan.sh": shell_vars(plan, rec),
             "jobs": det_jobs(plan, points), "wall.jobs": wall_jobs(plan),
             "layouts.tsv": layouts(plan, points)}
    for name, lines in files.items():
        if name == "layouts.tsv" and not lines:
            continue
        with open(os.path.join(out, name), "w") as f:
            f.write("".join(x + "\n" for x in lines))
    return 0


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
    return write(plan, env, args[1])
