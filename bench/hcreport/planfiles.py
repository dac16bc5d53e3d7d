# SPDX-License-Identifier: GPL-2.0
"""The run's plan written to its directory: plan (the report's
KEY=VALUE record: bench/hcreport/ingest.py load_plan), plan.sh (what the
shell scripts need, sourced), jobs, wall.jobs and layouts.tsv
(jobs.py)."""
import os
import shlex
import subprocess
import time

from . import configs, draws, jobs, workloads
from .settings import GEOMETRIES, ICOUNT_MORE, SETTINGS


def layout_points(env):
    """the objects the layout pads go into: LAYOUT_POINTS as scripts/bench.sh
    exports it, else as scripts/lib/bench.sh (its one place) sets it"""
    if env.get("LAYOUT_POINTS"):
        return env["LAYOUT_POINTS"].split()
    with open(os.path.join(configs.ROOT, "scripts", "lib", "bench.sh")) as f:
        for line in f:
            if line.startswith("LAYOUT_POINTS="):
                return line.split("=", 1)[1].strip().strip('"').split()
    raise RuntimeError("scripts/lib/bench.sh sets no LAYOUT_POINTS")


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
                     if env.get(k) and k not in ("RUN_SEED", "DRY_RUN", "SUITE"))
    # the suite as picked (SUITE=auto follows the previous run): a replay
    # boots this one's
    if env.get("SUITE") or plan.suite != "both":
        asked = (asked + " " if asked else "") + "SUITE=" + plan.suite
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
            ("bench_stamp", stamp), ("jobs", plan.jobs), ("hosts", plan.hosts),
            ("config_base", plan.config_base), ("suite", plan.suite),
            ("silicon", "1" if plan.silicon else "0"),
            ("residency", " ".join(plan.resid_configs))]


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
         "BENCH_STAMP": r["bench_stamp"], "SILICON": r["silicon"],
         "SILICON_WAIT": plan.silicon_wait, "RESID": r["residency"]}
    return ["%s=%s" % (k, shlex.quote(str(x))) for k, x in v.items()]


def write(plan, env, out):
    points = layout_points(env)
    now = int(env.get("RUN_T") or time.time())
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now))
    rec = record(plan, env, points, os.path.basename(os.path.normpath(out)), date)
    files = {"plan": ["%s=%s" % kv for kv in rec], "plan.sh": shell_vars(plan, rec),
             "jobs": jobs.det_jobs(plan, points), "wall.jobs": jobs.wall_jobs(plan),
             "layouts.tsv": jobs.layouts(plan, points)}
    for name, lines in files.items():
        if name == "layouts.tsv" and not lines:
            continue
        with open(os.path.join(out, name), "w") as f:
            f.write("".join(x + "\n" for x in lines))
    return 0
