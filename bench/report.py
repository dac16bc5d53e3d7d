#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise a make bench run.

Deterministic modes (det.csv, icount and cachesim): per workload and
configuration, instructions and simulated L1D/L2/L3 misses per operation
inside the measured phase, and estimated cycles per operation (a model:
the misses priced with the modelled part's published latencies,
bench/prices.tsv as the run copied it to OUTDIR/prices.tsv, the same on
every host; the host's own latencies,
OUTDIR/calibrate.txt from bench/calibrate, are printed beside them as a
cross-check and price nothing).  The rounds pair: round r of every
configuration boots with the same history (and seed), so each
configuration's ratio to vanilla is the geometric mean of its per-round
ratios with a 95 % interval (Student's t on the per-round log ratios;
n/a with one round), no verdict word; only the primary family's cells
(bench/primary.tsv) get one (worse, better, equivalent, inconclusive:
moderated variances, Holm; printed first, docs/bench.md "Verdicts");
vanilla's spread over its rounds and the smallest ratio that spread lets
the rounds resolve are printed for every metric.  Two A/A checks:
vanilla's first round against the same boot repeated (vanilla-repeat:
the instruments' repeatability, exact), and the layout A/A, vanilla-b
(vanilla's kernel relinked at pads of its own each round: judged as a
family, by simultaneous intervals and a binomial count of the 95 % ones
apart; vanilla-layout, the fixed shift of runs before it, when CONFIGS
names it).
The page allocator's zone->lock holds per operation (all, batch refills,
batch drains: hcreport/locks.py's call sites, counted by the plugin) and
the per-CPU lists each workload left against the CPU's cache slice; the
seed's SMP benchmarks side by side at 1, 4 and 8 vCPUs (bench/shapes.tsv).

Wall mode (results.csv, vmstat.csv): for each workload and metric the
median and min-max of each configuration over the rounds, and each
configuration's ratio to vanilla (ratio of medians) with its spread (min
and max of the per-round ratios, rounds being interleaved).  A ratio whose
spread crosses 1.0 is flagged "spread crosses 1" (a description: a few
paired rounds support no significance test).  The pcp counters give, for
the hotcold configurations, the share of allocations served cold and the
pages moved per zone->lock hold.

The silicon check (OUTDIR/silicon.txt, bench/silicon.py, which make
bench runs after the boots): its table as written, in a section of its
own; NOT RUN when the plan asked for it and the file is missing.

Targets: each is checked on the data, "met" or "missed" with the rows
that missed.  A target without data is NOT RUN, and report exits 1, when
the run's plan (OUTDIR/plan, written by scripts/bench.sh) asked for that
data; a target whose data the run did not ask for (QUICK's missing
repeat boot, a configuration left out of CONFIGS) says so instead.  A
plan missing or unreadable, or a price table (bench/prices.tsv) that is
not whole, fails report, summary and compare, and a vmstat.csv row that
does not parse fails report (FAILED, naming the file and line;
report.md then says only that).

The main modules, under bench/hcreport/: workloads (the workload table,
bench/workloads.tsv, and the WORKLOADS rule), configs (the configuration
table, bench/configs.tsv), plan (make bench's settings and the run's
boots), ingest (the run's files, the price table), stats (paired
intervals, A/A, sign test), verdicts and primary (the primary family's
verdicts), calibration (their calibration), findings (the README's
findings table), targets, render (report.md, summary, compare), runs
(saved runs: two compared, one archived) and charts.

A run is a directory (scripts/bench.sh writes each run to
build/bench/STAMP/, build/bench/latest the newest) or the name of one
under build/bench/ (20261206-0130-quick, latest).

usage: report.py report OUTDIR        writes OUTDIR/report.md and its
                                      charts: primary.png, icount.png,
                                      cachesim.png, sweeps.png and
                                      ratios.png (wall), those the run
                                      has data for
       report.py summary OUTDIR       the compact deterministic table (docs/results/)
       report.py compare OUTDIR       every metric, every configuration against
                                      vanilla, with 95 % intervals (cover letter)
       report.py compare RUN_A RUN_B  two runs side by side: per workload,
                                      metric and configuration, A's figure,
                                      B's and B/A with its 95 % interval
       report.py archive RUN DEST     copies the files RUN's report is
                                      rendered from and the boots' plan
                                      and job logs (runs.py's ARCHIVE)
                                      to DEST, a new directory:
                                      report.py report DEST renders it
                                      from them alone
       report.py verdicts RUN [--min-rounds N] [WORKLOAD/MODE/METRIC/CONFIG/BASE...]
                                      the primary family's verdicts for
                                      RUN (report.md's first section);
                                      --min-rounds (2-3) re-reads an
                                      archived run, saying it is not the
                                      rule; extra cells as estimates
       report.py calibrate [--families N] [--seed S] [--since DATE]
                                      the primary family's verdicts
                                      calibrated: N simulated runs (200)
                                      per scenario (every ratio 1, the
                                      series at its SESOI, a miss cost
                                      planted at 1.5, 2 and 4 SESOIs),
                                      with a run random effect, with
                                      and without earlier runs to pool,
                                      and the archived A/A pairs; exit 1
                                      when a criterion of issue 46 is
                                      missed (each cell at the default
                                      plan's rounds)
       report.py findings [TABLE]     the README's findings table from
                                      the archived runs
                                      (docs/findings.tsv)
       report.py workloads [COLUMN=VALUE...]
                                      the workloads of the table whose
                                      columns have those values
       report.py boot-workloads BOOT [WORKLOADS...]
                                      the workloads one boot of
                                      scripts/bench.sh runs (wall,
                                      wall-prog, mem, disk, prog,
                                      sweep or a shape of
                                      bench/shapes.tsv: 2cpu, ccd4,
                                      ccd8, ccd8prog) for a WORKLOADS
                                      list
       report.py run-workloads RUN [WORKLOADS...]
                                      the workloads run RUN (quick:
                                      QUICK=1's, default: make bench's)
                                      asks for with a WORKLOADS list:
                                      those it names, or the run's set
                                      (the runs column) less those it
                                      excludes
       report.py configs [COLUMN=VALUE...]
                                      the configurations of the table whose
                                      columns have those values (sets=S:
                                      in set S)
       report.py configs kernels      KERNEL SOURCE PATCH, a line per
                                      kernel of the table
       report.py plan check           make bench's settings (the environment)
                                      checked against the tables: an error
                                      line per bad value (exit 1), or one
                                      line "SEED NAME" (the run seed and
                                      the run's name, which
                                      scripts/bench.sh reads), notes on
                                      stderr
       report.py plan write DIR       the run's plan: DIR/plan, plan.sh,
                                      jobs (a boot a line), wall.jobs,
                                      layouts.tsv (bench/hcreport/plan.py)
       report.py calls                the kernel functions whose calls the
                                      plugin counts (its calls=), in order;
                                      lock-sites' three groups follow them
       report.py lock-sites KERNEL_DIR
                                      the plugin's calls= items that count
                                      zone->lock holds in the kernel built
                                      in KERNEL_DIR: all, refills, drains
                                      (bench/hcreport/locks.py)
       report.py det-header           the header of det.csv
       report.py det-rows MODE CONFIG ROUND BOOT JOB.out PLUGIN.phases
                                      det.csv rows of one boot: the guest's
                                      hotcold-phase lines matched, in order,
                                      with the plugin's phase records
       report.py boot-state CONFIG FLAVOUR APPEND JOB.out [VCPUS]
                                      exit 1 unless the boot's hotcold-info
                                      line shows the allocator CONFIG names
                                      (bench/configs.tsv: the switch's
                                      value, the per-cpu lists on or off)
                                      and VCPUS vCPUs online, if given
       report.py icount-rows CACHESIM.csv [ICOUNT.csv]
                                      the icount rows of a cachesim boot's
                                      rows (the same instructions, no cache
                                      counts); with ICOUNT.csv, the rows of
                                      an icount boot of the same
                                      configuration and round, which must
                                      agree with them, or exit 1
       report.py resid-header         the header of resid.csv
       report.py resid-rows CONFIG ROUND JOB.out PLUGIN.phases
                                      resid.csv rows of one meter boot:
                                      per workload, rule and label, the
                                      pages and their lines each level
                                      held (bench/hcreport/residency.py)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# the names the command line and the unit tests use
__all__ = ["BASE", "DET_FIELDS", "LAYOUT", "REPEAT", "archive", "boot_state", "charts",
           "compare", "compare_runs", "configs", "cv", "det_rows", "icount_rows", "load_all",
           "load_calibration", "load_det", "load_plan", "load_prices", "paired_ratio", "price",
           "report", "run_path", "sign_test", "summary", "t975", "verdict", "workloads"]

from hcreport import (calibration, charts, configs, findings, ingest, locks, plan,  # noqa: E402,F401
                      primary, residency, workloads)
from hcreport.ingest import (BASE, DET_FIELDS, LAYOUT, REPEAT,  # noqa: E402,F401
                             boot_state, det_rows, icount_rows, load_all, load_calibration,
                             load_det, load_plan, load_prices, price)
from hcreport.render import compare, report, summary  # noqa: E402,F401
from hcreport.runs import archive, compare_runs, run_path  # noqa: E402,F401
from hcreport.stats import cv, paired_ratio, sign_test, t975, verdict  # noqa: E402,F401


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "det-header":
        print(",".join(DET_FIELDS))
        return 0
    if cmd == "det-rows" and len(sys.argv) == 8:
        return det_rows(*sys.argv[2:8])
    if cmd == "resid-header":
        print(residency.header())
        return 0
    if cmd == "resid-rows":
        return residency.main(sys.argv[2:])
    if cmd == "boot-state" and len(sys.argv) in (6, 7):
        return boot_state(*sys.argv[2:])
    if cmd == "icount-rows" and len(sys.argv) in (3, 4):
        return icount_rows(*sys.argv[2:])
    if cmd == "workloads":
        return workloads.main(sys.argv[2:])
    if cmd == "boot-workloads":
        return workloads.boot_main(sys.argv[2:])
    if cmd == "run-workloads":
        return workloads.run_main(sys.argv[2:])
    if cmd == "configs":
        return configs.main(sys.argv[2:])
    if cmd == "plan":
        return plan.main(sys.argv[2:])
    if cmd == "lock-sites":
        return locks.main(sys.argv[2:])
    if cmd == "calibrate":
        return calibration.main(sys.argv[2:])
    if cmd == "verdicts":
        return primary.main(sys.argv[2:])
    if cmd == "findings":
        return findings.main(sys.argv[2:])
    if cmd == "calls" and len(sys.argv) == 2:
        print(" ".join(ingest.CALL_SYMS))
        return 0
    runs = [run_path(a) for a in sys.argv[2:]]
    if cmd == "summary" and len(runs) == 1:
        return summary(runs[0])
    if cmd == "compare" and len(runs) == 1:
        return compare(runs[0])
    if cmd == "compare" and len(runs) == 2:
        return compare_runs(*runs)
    if cmd == "archive" and len(runs) == 2:
        return archive(runs[0], sys.argv[3])
    if cmd == "report" and len(runs) == 1:
        return report(runs[0])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
