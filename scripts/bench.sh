#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the baseline against the series and its alternatives
# (bench/configs.tsv) on the workloads of bench/workloads.tsv, in five
# steps (docs/bench.md, "A run, step by step"):
#
#   1 plan     bench/report.py plan (bench/hcreport/plan.py): every
#              setting checked, then the run's directory,
#              build/bench/DATE-TIME-NAME (build/bench/latest points at
#              it), gets the plan: the settings, the run seed, and every
#              boot as a line of a job file (jobs; wall.jobs), with its
#              kernel, command line, seed, layout pads, machine shape and
#              workloads in the order drawn for its round
#   2 build    scripts/bench-build.sh: the kernels, each relinked at each
#              round's pads, the guest images, the cache plugin, the
#              host's latencies
#   3 boots    scripts/bench-jobs.sh: GNU parallel runs the job file,
#              JOBS boots at once here, or over HOSTS; each line is one
#              scripts/bench-boot.sh
#   4 collect  scripts/bench-collect.sh: the boots' rows into det.csv
#              (icount, cachesim) and results.csv, vmstat.csv (wall);
#              then the silicon check, bench/silicon.py, once the host
#              is quiet (SILICON, SILICON_WAIT), into silicon.txt
#   5 report   bench/report.py report: report.md and its charts
#
# The settings (environment variables; their values and defaults:
# bench/hcreport/plan.py and docs/bench.md, "Options and output"): MODES,
# CONFIGS, WORKLOADS, QUICK, ROUNDS, SECS, SCALE, DET_ROUNDS,
# ICOUNT_ROUNDS, PROG_ROUNDS, SWEEP_ROUNDS, SUITE, GEOMETRY, L2WAYS,
# L3WAYS, SHUFFLE, RUN_SEED, RUN_NAME, JOBS, HOSTS, CONFIG_BASE, SILICON,
# SILICON_WAIT, RESIDENCY, DRY_RUN and scripts/disk.sh's BIG_MB.  A bad one
# fails the run before anything is built, booted or written.  DRY_RUN=1
# stops after the plan: it checks every boot and the HOSTS
# (scripts/bench-jobs.sh --dry-run) and lists the boots, in
# build/plan-dry-run/; it installs nothing (GNU parallel missing: an error
# naming the package).
. "$(dirname "$0")/lib.sh"
step settings
# the plan is python3's, which scripts/deps.sh bench cannot install
# before the settings are checked
command -v python3 >/dev/null || fail "python3 missing -- apt-get install python3 (make bench installs the rest)"
# the scratch disk's (BIG_MB)
"$ROOT/scripts/disk.sh" settings || exit 1
# what the plan needs of the shell's side: JOBS's default (this host's
# cores, or what its memory holds), the layout points the pads are for
JOBS_DEFAULT=$(bench_workers)
# the previous run's plan: SUITE=auto boots the suite it did not
# (resolved now, before this run becomes build/bench/latest)
PREVIOUS_PLAN=$(readlink -f "$BUILD/bench/latest" 2>/dev/null)/plan
export JOBS_DEFAULT LAYOUT_POINTS PREVIOUS_PLAN
# every setting checked (an error line per bad value); the run seed, drawn
# here when RUN_SEED is unset, so that the plan written below is this one
checked=$(python3 "$ROOT/bench/report.py" plan check) || exit 1
# (RUN_SEED exported: the plan written below draws from it; RUN_NAME
# not: the plan's command= names the settings as they were given)
read -r RUN_SEED RUN_NAME <<<"$checked"
export RUN_SEED

# plan_in DIR: the run's plan written to DIR (bench/report.py plan write)
plan_in() {
	BENCH_INPUTS=$(bench_inputs_hash) RUN_T=$RUN_T python3 "$ROOT/bench/report.py" plan write "$1" ||
		fail "bench/report.py plan write $1 failed (above)"
}

RUN_T=$(date +%s)
if [ "${DRY_RUN:-0}" = 1 ]; then
	step dry-run
	OUT=$BUILD/plan-dry-run
	{ rm -rf "$OUT" && mkdir -p "$OUT"; } || fail "cannot make $OUT"
	plan_in "$OUT"
	"$ROOT/scripts/bench-jobs.sh" --dry-run --serial "$OUT" "$OUT/wall.jobs" || exit 1
	"$ROOT/scripts/bench-jobs.sh" --dry-run "$OUT" "$OUT/jobs" || exit 1
	msg "the plan: ${OUT#"$ROOT"/}/plan; RUN_SEED=$RUN_SEED replays it"
	exit 0
fi

# every setting checked: from here on the run builds, boots and writes
step setup
lock_build
OUT=$(bench_run_dir "$BUILD/bench" "$RUN_NAME" "$(date -u -d "@$RUN_T" +%Y%m%d-%H%M)") || exit 1
msg "this run's results: ${OUT#"$ROOT"/}/ (${BUILD#"$ROOT"/}/bench/latest); RUN_SEED=$RUN_SEED"
plan_in "$OUT"
# shellcheck source=/dev/null
. "$OUT/plan.sh"
# the price table the report of this run (and of its archive) uses: a
# later edit of bench/prices.tsv does not reprice it; and the tables as
# they were when the run started (for the record: the run and its report
# read the checkout's)
cp "$ROOT/bench/prices.tsv" "$ROOT/bench/shapes.tsv" "$ROOT/bench/configs.tsv" \
	"$ROOT/bench/workloads.tsv" "$OUT/" || fail "could not copy the bench tables into $OUT"

"$ROOT/scripts/bench-build.sh" "$OUT" || exit 1

T0=$(now)
det_done=
for m in $MODES; do
	case $m in
	wall) "$ROOT/scripts/bench-jobs.sh" --serial "$OUT" "$OUT/wall.jobs" || exit 1 ;;
	*)
		# (every deterministic mode's boots are in one job file)
		[ -z "$det_done" ] || continue
		det_done=1
		"$ROOT/scripts/bench-jobs.sh" "$OUT" "$OUT/jobs" || exit 1 ;;
	esac
done
"$ROOT/scripts/bench-collect.sh" "$OUT" || exit 1
msg "benchmark runs took $(($(now) - T0)) s"
# the silicon check times natively, so after the boots, on a quiet host;
# one that does not finish leaves no silicon.txt: the report says NOT
# RUN and the run fails (below)
if [ "$SILICON" = 1 ]; then
	step silicon
	python3 "$ROOT/bench/silicon.py" run "$OUT" --wait "$SILICON_WAIT" ||
		msg "the silicon check did not finish (above): the report says NOT RUN and the run fails (SILICON=0 skips the check)"
fi

step report
python3 "$ROOT/bench/report.py" report "$OUT" ||
	fail "the report failed (bench/report.py): a target the run asked for had no data (NOT RUN, above), or the chart failed -- see $OUT/report.md"
cat "$OUT/report.md"
msg "this run's results: ${OUT#"$ROOT"/}/ (${BUILD#"$ROOT"/}/bench/latest); its report's files alone: bench/report.py archive ${OUT##*/} DEST"
