#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench's third step: the run's boots, a line each of a job file
# (RUNDIR/jobs, the deterministic boots; RUNDIR/wall.jobs, wall mode's),
# run by GNU parallel, each line through scripts/bench-boot.sh.
#
#   JOBS (the plan's)  boots at once on this machine, or on each host
#   HOSTS (the plan's) a file in parallel's --sshloginfile format: the
#                      boots spread over those machines (':' is this
#                      one), each with this checkout, its build/ and the
#                      run's directory at the same paths (a shared
#                      directory, or copied before: docs/bench.md)
#
# The deterministic boots count the same wherever and in whatever order
# they run (host timing does not enter them), so the order is the plan's
# only for speed: the real programs' boots first.  Wall mode's boots are
# timed: one at a time, on this machine (--serial).  The job log
# (parallel's --joblog, RUNDIR/JOBFILE.log) is archived with the run; the
# first boot that fails stops the run (--halt "now,fail=1"), and the
# message names it, its guest log and the job log.
#
# usage: scripts/bench-jobs.sh [--dry-run] [--serial] [--boot CMD] RUNDIR JOBFILE
#   --dry-run  check every line (bench-boot.sh --check) and the hosts
#              (check_hosts), and list the commands parallel would run,
#              with the hosts; boot nothing
#   --boot CMD each line runs CMD RUNDIR LINE (default
#              scripts/bench-boot.sh; the tests give a stand-in)
. "$(dirname "$0")/lib.sh"
step jobs

# failed_job: the message for the first job the job log says failed (by
# its exit status; a job parallel killed after it has a signal): the
# line's tag, its guest log and the job log
failed_job() {
	local seq code line tag kernel
	read -r seq code < <(awk -F'\t' 'NR > 1 && $7 != 0 && $8 == 0 { print $1, $7; exit }' "$LOG")
	[ -n "${seq:-}" ] || return 1
	line=$(sed -n "${seq}p" "$FILE")
	tag=${line%% *}
	kernel=$(tr ' ' '\n' <<<"$line" | sed -n 's/^kernel=//p')
	echo "boot $tag (line $seq of ${FILE#"$ROOT"/}) failed with exit status $code -- its log: ${LOGS#"$ROOT"/}/$kernel-bench-$tag.out; the job log: ${LOG#"$ROOT"/}"
}

# check_hosts: every host of HOSTS answers and sees this checkout's boot
# script and the run's directory at the same paths, or fail naming the
# hosts that do not (before any boot starts)
check_hosts() {
	local out bad
	out=$(parallel --nonall --tag --sshloginfile "$HOSTS" \
		"test -x '$BOOT' && test -f '$OUT/plan.sh' && echo ok || echo missing" 2>"$OUT/hosts.err") ||
		fail "HOSTS=$HOSTS: not every host answered: $(grep -v Warning "$OUT/hosts.err" | tr '\n' ';') -- ssh to each must work without a password"
	bad=$(grep -v '	ok$' <<<"$out")
	[ -z "$bad" ] ||
		fail "HOSTS=$HOSTS: these hosts do not see ${BOOT#"$ROOT"/} or the run's directory ($OUT) at the same path: $(tr '\n' ';' <<<"$bad") -- share the checkout, build/ and build/bench (docs/bench.md, several machines)"
}

dry='' serial='' BOOT=$ROOT/scripts/bench-boot.sh
while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) dry=1 ;;
	--serial) serial=1 ;;
	--boot) BOOT=${2:-}; shift ;;
	*) break ;;
	esac
	shift
done
[ $# = 2 ] || fail "usage: scripts/bench-jobs.sh [--dry-run] [--serial] [--boot CMD] RUNDIR JOBFILE"
OUT=$1 FILE=$2 LOG=$2.log
[ -f "$OUT/plan.sh" ] || fail "$OUT/plan.sh: no such file -- RUNDIR is a run's directory, with its plan"
[ -f "$FILE" ] || fail "$FILE: no such job file"
# shellcheck source=/dev/null
. "$OUT/plan.sh"
command -v parallel >/dev/null || fail "GNU parallel missing -- scripts/deps.sh bench installs it (apt-get install parallel)"
total=$(grep -c . "$FILE")
[ "$total" -gt 0 ] || { msg "${FILE#"$ROOT"/}: no boot to run"; exit 0; }
opts=(--jobs "$JOBS" --halt "now,fail=1")
[ -z "$serial" ] || { opts=(--jobs 1 --halt "now,fail=1"); HOSTS=; }
if [ -n "$HOSTS" ]; then
	# (BUILD as here: the hosts' paths are this one's)
	export BUILD
	opts+=(--sshloginfile "$HOSTS" --env BUILD)
fi
[ ! -t 2 ] || opts+=(--bar)
where="${serial:+one at a time, }${HOSTS:+on the hosts of $HOSTS, }$([ -n "$serial" ] || echo "$JOBS at a time${HOSTS:+ per host (N/HOST: N there)}")"
if [ -n "$dry" ]; then
	"$ROOT/scripts/bench-boot.sh" --check "$OUT" "$FILE" || exit 1
	[ -z "$HOSTS" ] || check_hosts
	parallel --dry-run "${opts[@]}" -a "$FILE" "$BOOT" "$OUT" {} ||
		fail "parallel --dry-run failed (above)"
	msg "dry run: ${FILE#"$ROOT"/}: $total boots checked, $where; nothing booted"
	exit 0
fi
[ -z "$HOSTS" ] || check_hosts
msg "${FILE#"$ROOT"/}: $total boots, $where (job log: ${LOG#"$ROOT"/})"
t0=$(now)
if ! parallel "${opts[@]}" --joblog "$LOG" -a "$FILE" "$BOOT" "$OUT" {}; then
	why=$(failed_job) || why="GNU parallel failed (above) -- the job log: ${LOG#"$ROOT"/}"
	fail "$why"
fi
msg "${FILE#"$ROOT"/}: $total boots took $(($(now) - t0)) s"
