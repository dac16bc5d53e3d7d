# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A queue of jobs for a few workers (scripts/bench.sh sources it for the
# deterministic boots; scripts/tests/test_jobqueue.py tests it).
#
# queue_run WORKERS FILE COMMAND: runs COMMAND once per non-blank line of
# FILE, the line's words its arguments, WORKERS jobs at a time.  A worker
# takes the next line as soon as its job ends, so one long job holds up
# no other worker (the deterministic boots: host timing does not enter
# what they count, so neither does the order they run in).  Each job runs
# in a subshell of its own (an exit in it ends that job only) and sees
# QUEUE_JOB, "N/TOTAL" (N: its line among the non-blank ones).  After a
# job fails, no worker starts another; queue_run waits for the jobs still
# running and returns 1.  It returns 0 when every job ran and succeeded,
# and 2 (running nothing) on bad arguments.

queue_run() {
	local workers=$1 file=$2 cmd=$3 state total p pids='' rc=0
	case $workers in
	'' | *[!0-9]* | 0)
		echo "queue_run: '$workers' workers: expected a number, 1 or more" >&2
		return 2 ;;
	esac
	[ -r "$file" ] || { echo "queue_run: no job file '$file'" >&2; return 2; }
	state=$(mktemp -d) || return 2
	grep -v '^[[:space:]]*$' "$file" >"$state/jobs"
	total=$(wc -l <"$state/jobs")
	echo 0 >"$state/next"
	for _ in $(seq 1 "$workers"); do
		queue_worker "$state" "$total" "$cmd" &
		pids="$pids $!"
	done
	for p in $pids; do
		wait "$p" || rc=1
	done
	[ ! -e "$state/failed" ] || rc=1
	rm -rf "$state"
	return $rc
}

# queue_take STATE: the number of the next job to start, or nothing after
# a failure (one worker at a time: the lock)
queue_take() {
	(
		flock 9 || exit 1
		[ ! -e "$1/failed" ] || exit 0
		n=$(($(cat "$1/next") + 1))
		echo "$n" >"$1/next"
		echo "$n"
	) 9>"$1/lock"
}

queue_worker() {
	local state=$1 total=$2 cmd=$3 n line
	while :; do
		n=$(queue_take "$state") || { : >"$state/failed"; return 1; }
		[ -n "$n" ] || return 0
		[ "$n" -le "$total" ] || return 0
		line=$(sed -n "${n}p" "$state/jobs")
		# shellcheck disable=SC2086 # the line's words are the arguments
		if ! (export QUEUE_JOB="$n/$total" && $cmd $line); then
			: >"$state/failed"
			return 1
		fi
	done
}
