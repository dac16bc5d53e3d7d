#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The silicon check: the report's two cycle pricings (bench/prices.tsv,
"cycles, RFO" and "cycles, line") held against this host's CPU.

bench/replay (the series' mechanism in user space: reclaim frees cold
pages at the head or the tail of a LIFO pool, a foreground clears pages
from the head) is timed natively, head and tail interleaved in each
round, and run once per variant under QEMU's user mode with the
cachesim plugin, whose counts the report's price() turns into each
pricing's predicted tail/head ratio (bench/hcreport/silicon.py).

usage: python3 bench/silicon.py run OUTDIR [--rounds N] [--wait S] [--force] [--sim-args ARGS]
                                    [--native CSV] [--prices TSV]
  OUTDIR/silicon.txt: the table (host CPU, native ratio [95 %] against
  each pricing's prediction, per variant); OUTDIR/silicon/: the native
  timings (native.csv), the plugin's counts (*.phases), the replay binary
  (written when the table is: a refused or stopped run leaves nothing).
  --rounds N: native rounds (default 10, at least 2)
  --wait S: on a busy host, wait up to S seconds for the load average to
           fall (default 0: refuse at once; make bench's SILICON_WAIT)
  --force: time even on a busy host (the table then says "not a
           measurement"; for checking the code only)
  --sim-args: the cache model's geometry (default: scripts/bench.sh's
           zen3 with L2WAYS and L3WAYS 0, fully associative)
  --loadavg PATH: the load average to read (default /proc/loadavg; tests)
  --native CSV: the native timings of an earlier run (its silicon/native.csv)
           in place of timing here: the model alone runs, on any host
  --prices TSV: the price table (default bench/prices.tsv; an archived
           run's copy prices as that run did)
It refuses, before anything is written, on a host whose load says that
another job runs (after --wait), and stops between rounds if one starts.  It needs gcc,
qemu-x86_64 (Debian's qemu-user) and build/cachesim/cachesim.so
(scripts/cachesim.sh).  About 2 minutes on a quiet 2-CPU host.
"""
import argparse
import concurrent.futures
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from hcreport import silicon as si             # noqa: E402
from hcreport.ingest import InputError, load_prices, shown_path  # noqa: E402

SRC = os.path.join(HERE, "replay", "replay.c")
PLUGIN = os.path.join(os.environ.get("BUILD", os.path.join(ROOT, "build")),
                      "cachesim", "cachesim.so")
ZEN3 = ("l1size=32768,l1ways=8,l2size=524288,l2ways=0,l3size=33554432,l3ways=0")
# the replay's size, the same natively and under QEMU: 8 cold pages of 32
# cleared per iteration (the replay), 2000 iterations after 200
TAKE = 32
REPLAY = ["--iters", "2000", "--warm", "200", "--evict", "8", "--take", str(TAKE)]
COLD = 8
SAMPLE_S = 0.5      # the busy sample between rounds


def die(msg):
    print("silicon.py: %s" % msg, file=sys.stderr)
    sys.exit(1)


def replay(exe, side, v, wrap=()):
    """one run of the replay: its parsed line (and checks its cold count)"""
    p = subprocess.run(list(wrap) + [exe, "--side", side] + si.variant_args(v) + REPLAY,
                       capture_output=True, text=True)
    if p.returncode != 0:
        die("bench/replay %s %s failed: %s" % (side, si.variant_name(v), p.stderr.strip()))
    r = si.parse_replay(p.stdout.strip().splitlines()[-1])
    want = COLD * r["iters"] if side == "head" else 0
    if r["cold"] != want:
        die("bench/replay %s %s cleared %d cold pages, expected %d" %
            (side, si.variant_name(v), r["cold"], want))
    return r


def timings(exe, rounds, force):
    """native ns per iteration, {variant: {round: {side: ns}}}, and the
    rows of native.csv; a round starts with a busy sample, and a busy
    host stops the run (unless force: its note is returned)"""
    note, res, rows = None, {v: {} for v in si.VARIANTS}, []
    for r in range(rounds):
        before = si.cpu_times()
        time.sleep(SAMPLE_S)
        why = si.busy_refusal(before, si.cpu_times())
        if why and not force:
            die("%s (round %d of %d) -- rerun when the machine is quiet" % (why, r + 1, rounds))
        note = note or why
        for v in si.VARIANTS:
            # head first in even rounds, tail first in odd ones
            sides = ("head", "tail") if r % 2 == 0 else ("tail", "head")
            res[v][r] = {}
            for s in sides:
                x = replay(exe, s, v)
                res[v][r][s] = x["ns_per_iter"]
                rows.append([si.variant_name(v), r, s, x["ns_per_iter"], x["map"], x["thp_kb"]])
    return res, rows, note


def model(exe, sim_args, out):
    """the plugin's per-iteration metrics, {variant: (head, tail)}: the 4
    KB variants under qemu-x86_64, two at a time (counts, not time: they
    need no quiet host); the model has no pages and no TLB, so a 2 MB
    variant's accesses are the same, its counts taken as the 4 KB one's"""
    def count(job):
        v, s = job
        phases = os.path.join(out, "%s-%s.phases" % (si.variant_name(v).replace("/", "-"), s))
        r = replay(exe, s, v, ["qemu-x86_64", "-plugin",
                               "%s,out=%s,%s" % (PLUGIN, phases, sim_args)])
        with open(phases) as f:
            m = si.model_metrics(f.read(), r["iters"])
        # the pages cleared by rep stosb, 64 lines each: what checks the
        # plugin's count of the lines rep string stores wrote
        if m["xline"] is not None and m["xline"] != 64 * TAKE:
            die("the cache model counted %g lines of rep string stores per iteration of %s %s, "
                "the replay clears %d pages of 64: the plugin's xline does not count lines"
                % (m["xline"], si.variant_name(v), s, TAKE))
        return m

    jobs = [(v, s) for v in si.VARIANTS if v[1] == "4k" for s in ("head", "tail")]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        got = dict(zip(jobs, pool.map(count, jobs)))
    return {v: (got[((v[0], "4k", v[2]), "head")], got[((v[0], "4k", v[2]), "tail")])
            for v in si.VARIANTS}


def arguments():
    """the command line, checked: (args, prices, why the host is busy or None)"""
    ap = argparse.ArgumentParser(prog="bench/silicon.py",
                                 usage=__doc__.split("usage: ")[1].replace("%", "%%"))
    ap.add_argument("cmd", choices=["run"])
    ap.add_argument("outdir")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--wait", type=int, default=0)
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--sim-args", default=ZEN3)
    ap.add_argument("--loadavg", default="/proc/loadavg")
    ap.add_argument("--native")
    ap.add_argument("--prices")
    a = ap.parse_args()
    if a.rounds < 2:
        die("--rounds %d: expected at least 2 (an interval needs two rounds)" % a.rounds)
    if a.wait < 0:
        die("--wait %d: expected seconds, 0 or more" % a.wait)
    if not os.path.isdir(a.outdir):
        die("%s: no such directory" % a.outdir)
    for tool, pkg in (("gcc", "gcc"), ("qemu-x86_64", "qemu-user")):
        if not shutil.which(tool):
            die("%s is missing -- install Debian's %s (scripts/deps.sh bench)" % (tool, pkg))
    if not os.path.exists(PLUGIN):
        die("%s is missing -- build it with scripts/cachesim.sh" % PLUGIN)
    try:
        prices = load_prices(a.prices)
        # (timings read from an earlier run need no quiet host)
        why = None if a.native else si.load_refusal(a.loadavg)
        if why and not a.force:
            why = si.wait_quiet(lambda: si.load_refusal(a.loadavg), a.wait,
                                say=lambda x: print("silicon.py: " + x, file=sys.stderr))
    except (InputError, OSError) as e:
        die(str(e))
    if why and not a.force:
        die("%s -- rerun when the machine is quiet (or --force: a table marked not a "
            "measurement)" % why)
    return a, prices, why


def build(tmp, sim_args):
    """the replay built in tmp, and the plugin loaded once with sim_args
    (before the timing: a bad --sim-args would otherwise fail after it)"""
    exe = os.path.join(tmp, "replay")
    p = subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", exe, SRC],
                       capture_output=True, text=True)
    if p.returncode:
        die("bench/replay/replay.c does not build:\n" + p.stderr)
    probe = os.path.join(tmp, "probe")
    p = subprocess.run(["qemu-x86_64", "-plugin", "%s,out=%s,%s" % (PLUGIN, probe, sim_args),
                        exe, "--help"], capture_output=True, text=True)
    if "cachesim:" in p.stderr or "Could not load plugin" in p.stderr:
        die("the cache model does not load with --sim-args %s: %s" % (
            sim_args, p.stderr.strip().splitlines()[0]))
    if os.path.exists(probe):
        os.remove(probe)
    return exe


def main():
    a, prices, why = arguments()
    cpu = si.host_cpu()
    # (everything in a scratch directory until the table is made: a run
    # stopped by a busy host leaves nothing in OUTDIR)
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(tmp, a.sim_args)
        t0 = time.time()
        if a.native:
            try:
                nat, rows = si.read_native(a.native)
            except (InputError, OSError) as e:
                die(str(e))
            note, cpu = None, "that of %s's run (this one, %s, ran the model only)" % (
                a.native, cpu)
            done = "%d rounds read from %s" % (min(len(x) for x in nat.values()), a.native)
        else:
            nat, rows, note = timings(exe, a.rounds, a.force)
            done = "%d rounds in %.0f s" % (a.rounds, time.time() - t0)
        t1 = time.time()
        mod = model(exe, a.sim_args, tmp)
        t2 = time.time()
        lines = si.table(si.rows(nat, mod, prices, COLD), cpu, why or note)
        lines.append("(native: %s; the model: %s, qemu-x86_64, in %.0f s; prices: %s)"
                     % (done, a.sim_args, t2 - t1, shown_path(prices["path"])))
        huge = [x for x in rows if "/2m/" in x[0]]
        lines.append("(the 2 MB variants: %s, at least %d KB of the replay's memory in huge "
                     "pages)" % (" and ".join(sorted({x[4] for x in huge})),
                                 min(x[5] for x in huge)))
        with open(os.path.join(tmp, "native.csv"), "w", newline="") as f:
            csv.writer(f).writerows([["variant", "round", "side", "ns_per_iter", "map",
                                      "thp_kb"]] + rows)
        out = os.path.join(a.outdir, "silicon")
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(tmp, out)
    with open(os.path.join(a.outdir, "silicon.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
