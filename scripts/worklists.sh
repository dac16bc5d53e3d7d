# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Which workloads a run of make bench asks for, and each of its boots
# runs (scripts/bench.sh sources it): bench/report.py run-workloads and
# boot-workloads answer, by the one WORKLOADS rule
# (bench/hcreport/workloads.py's run_workloads() and selected(), tested
# in bench/tests/test_workloads.py): a list names workloads, or excludes
# them with -NAME; a list of exclusions only means the run's set
# (bench/workloads.tsv's runs column: QUICK's, or the default run's) but
# those, a list with names those names, less any also excluded.  A boot
# is given the names it runs, never exclusions: the guest runs the names
# it is given (all with none) and refuses -NAME.

# wall_lists: WALL_MAIN and WALL_PROG, the names the wall boots without
# and with the programs archive run (empty: no such boot), from
# WALL_WORKLOADS (empty: every workload but those of the fixed modes
# only, the sweeps)
# shellcheck disable=SC2034 # for the script that sources this one
wall_lists() {
	WALL_MAIN=$(python3 "$ROOT/bench/report.py" boot-workloads wall "$WALL_WORKLOADS") &&
		WALL_PROG=$(python3 "$ROOT/bench/report.py" boot-workloads wall-prog "$WALL_WORKLOADS")
}

# run_lists RUN: DET_WORKLOADS and WALL_WORKLOADS, the workloads run RUN
# (quick: QUICK=1's; default: make bench's) asks for with WORKLOADS:
# those it names, or the run's set (bench/workloads.tsv's runs column:
# the default run leaves out the workloads a run must ask for by name)
# less those it excludes; the plan records them, so the report asks for
# their rows only.  Fails with the reason when none is left.
run_lists() {
	local out
	# shellcheck disable=SC2086 # a list of workloads
	out=$(python3 "$ROOT/bench/report.py" run-workloads "$1" ${WORKLOADS:-}) || return 1
	if [ -z "$out" ]; then
		echo "hotcold: WORKLOADS='${WORKLOADS:-}' leaves no workload to run (its names less its exclusions, or the $1 run's set, bench/workloads.tsv's runs column, less them)" >&2
		return 1
	fi
	# shellcheck disable=SC2034 # for the script that sources this one
	DET_WORKLOADS=$out WALL_WORKLOADS=$out
}

# det_workloads PART: the names one deterministic boot (mem, disk, prog,
# sweep or a shape of bench/shapes.tsv) runs, from DET_WORKLOADS
# (run_lists': never empty in make bench; empty: every workload), or
# "none"
det_workloads() {
	local out
	out=$(python3 "$ROOT/bench/report.py" boot-workloads "$1" "$DET_WORKLOADS") || return 1
	echo "${out:-none}"
}

# The machine shapes (bench/shapes.tsv): SHAPE_BOOTS, the boots of more
# than one vCPU, in the table's order, and PROG_BOOTS, the boots with the
# programs archive (prog and the shapes whose programs column says yes);
# shape_field BOOT COLUMN (2: vcpus, 3: named, 4: programs) prints a
# shape's column, nothing for a boot not in it
[ -r "$ROOT/bench/shapes.tsv" ] || fail "no $ROOT/bench/shapes.tsv -- the checkout is incomplete"
SHAPE_BOOTS=$(awk -F'\t' '!/^#/ && NF { printf "%s ", $1 }' "$ROOT/bench/shapes.tsv")
# shellcheck disable=SC2034 # for the script that sources this one
PROG_BOOTS="prog $(awk -F'\t' '!/^#/ && NF && $4 == "yes" { printf "%s ", $1 }' "$ROOT/bench/shapes.tsv")"
shape_field() {
	awk -F'\t' -v b="$1" -v c="$2" '!/^#/ && $1 == b { print $c }' "$ROOT/bench/shapes.tsv"
}
