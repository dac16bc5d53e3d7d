#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes the two synthetic make bench runs under bench/tests/data/
(run-a, run-b) that bench/tests/test_runs.py compares, archives and
renders.  No kernel ran for them: every figure is made up here, with the
shape scripts/bench.sh gives a run's files (the plan, det.csv of both
deterministic modes, results.csv and vmstat.csv of wall mode,
calibrate.txt).  Run B differs from run A where a change to the series
would show: hotcold's L2 and L3 misses in exit_flood are lower against
vanilla (0.80 of vanilla's L2 misses where A had 0.90), its
instructions in exit_flood a little lower, and its patches' hash in the
stamp; vanilla and pagefault_anon are A's within the rounds' noise.
Run A is written as a run archived before det.csv had its transfer
columns (ingest.DET_LATER) and calibrate.txt its ping-pong line, as
docs/results/20261206-v3-quick was; run B has both.

usage: bench/tests/data/make_runs.py   (rewrites run-a/ and run-b/)
"""
import csv
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from hcreport.ingest import DET_FIELDS, DET_LATER  # noqa: E402

THREE = "L1D 32K/8w, L2 512K/0w, L3 32768K/0w shared"
CACHES = "L1=32K/8w L2=512K/8w L3=32768K/16w llc_shared_cpus=1 slice_pages=8192"
CONFIGS = ("vanilla", "hotcold", "hotcold-off")
# each round's boot state, the same factor for every configuration
ROUND = {1: 1.00, 2: 1.04, 3: 0.97}
# a configuration's own spread over the rounds, around its ratio
JITTER = {1: 1.000, 2: 1.006, 3: 0.995}

RUNS = {
    "run-a": {"hotcold_l2": 0.90, "hotcold_insn": 1.0010, "patches": "aaaaaaaaaaaa",
              "date": "2000-01-01 00:00 UTC", "commit": "fixture-a", "archived": True},
    "run-b": {"hotcold_l2": 0.80, "hotcold_insn": 0.9990, "patches": "bbbbbbbbbbbb",
              "date": "2000-01-02 00:00 UTC", "commit": "fixture-b", "archived": False},
}


def det_row(mode, wl, config, rnd, stamp, insn, l1m, l2m, l3m, ops=100, events=7):
    """one det.csv row: per-op counts times ops, all in the kernel half"""
    row = {k: 0 for k in DET_FIELDS}
    row.update(mode=mode, workload=wl, config=config, round=rnd, boot="mem", cpu="0",
               ops=ops, rate="", insn_k=round(insn * ops), acc_k=round(2 * insn * ops),
               hc_events=events if config != "vanilla" else "", stamp=stamp, caches=CACHES,
               cold_free="", cold_request="", pt_pages="", mm_exits="", shrinks="",
               zone_locks="", refill_locks="", drain_locks="", pcp_count="", pcp_hot="",
               pcp_high="", xrep="", xline="")
    if mode == "cachesim":
        row.update(l1m_k=round(l1m * ops), l2m_k=round(l2m * ops), l3m_k=round(l3m * ops),
                   geometry=THREE)
    else:
        row.update(geometry="no cache model")
    return row


def det_rows(spec, stamp):
    rows = []
    for mode in ("icount", "cachesim"):
        for wl, insn, l1m, l2m, l3m in (("exit_flood", 4000, 20, 12, 4),
                                        ("pagefault_anon", 2400, 8, 2, 0.5)):
            for r, f in ROUND.items():
                for c in CONFIGS:
                    k = insn_k = 1.0
                    if c == "hotcold" and wl == "exit_flood":
                        k, insn_k = spec["hotcold_l2"] * JITTER[r], spec["hotcold_insn"]
                    elif c != "vanilla":
                        k = JITTER[r]
                    rows.append(det_row(mode, wl, c, r, stamp, insn * insn_k, l1m * f,
                                        l2m * f * k, l3m * f * k))
            rows.append(det_row(mode, wl, "vanilla-repeat", 1, stamp, insn, l1m, l2m, l3m))
    return rows


def wall_rows():
    rows = []
    for r, f in ((1, 1.0), (2, 0.9)):
        for c, v in (("vanilla", 100), ("vanilla-repeat", 99), ("hotcold", 102),
                     ("hotcold-off", 98)):
            rows.append(("exit_flood", "ops_per_s", c, r, round(v * f, 1)))
    return rows


def vm_rows():
    return [("exit_flood", "hotcold", r, k, v) for r in (1, 2)
            for k, v in (("pgalloc_normal", 5000), ("pcp_cold_alloc", 400),
                         ("pcp_cold_free", 900), ("pcp_refill", 10),
                         ("pcp_refill_pages", 630), ("pcp_drain", 5),
                         ("pcp_drain_pages", 320))]


def write(name, spec):
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    stamp = "patches=%s scale=2 seeds=0123456789ab" % spec["patches"]
    plan = [("modes", "wall icount cachesim"), ("configs", " ".join(CONFIGS)),
            ("repeat", "1"), ("det_rounds", "3"), ("shuffle", "1"),
            ("det_seeds", "113183664 604205743 220687353"),
            ("workloads", "exit_flood pagefault_anon"),
            ("sweep_configs", "vanilla hotcold single"),
            ("geometry", "zen3 cpu=EPYC-Milan sim=l1size=32768,l1ways=8,l2size=524288,"
                         "l2ways=0,l3size=33554432,l3ways=0"),
            ("run", "%s-fixture" % spec["date"][:10].replace("-", "")),
            ("date", spec["date"]), ("commit", spec["commit"]),
            ("command", "synthetic fixture (bench/tests/data/make_runs.py), not a make bench run"),
            ("bench_stamp", stamp), ("jobs", "2")]
    with open(os.path.join(d, "plan"), "w") as f:
        f.write("".join("%s=%s\n" % kv for kv in plan))
    fields = [k for k in DET_FIELDS if not (spec["archived"] and k in DET_LATER)]
    with open(os.path.join(d, "det.csv"), "w") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        w.writerows(det_rows(spec, stamp))
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("workload,metric,config,round,value\n")
        f.writelines(",".join(str(x) for x in r) + "\n" for r in wall_rows())
    with open(os.path.join(d, "vmstat.csv"), "w") as f:
        f.write("workload,config,round,counter,delta\n")
        f.writelines(",".join(str(x) for x in r) + "\n" for r in vm_rows())
    with open(os.path.join(d, "calibrate.txt"), "w") as f:
        f.write("calibrate load_ns l1=1.00 l2=3.00 l3=10.00 dram=100.00\n"
                "calibrate page_write_ns warm=40.0 l3=72.0 dram=200.0\n" +
                ("" if spec["archived"] else "calibrate xfer_ns pingpong=25.0 cpus=0,1\n"))


if __name__ == "__main__":
    for n, s in RUNS.items():
        write(n, s)
