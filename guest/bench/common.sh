# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# What every workload family shares (sourced by guest/jobs/bench.sh, after
# its arguments: SHAPE, ONLY, MODE, AMOUNT, SECS, N, B and PCP are set):
# the names and the workload table, the vmstat snaps around a measured
# run, the run queue, the streaming reader, the loop devices over tmpfs
# and the warm-up that gives each round its history.

# named WORKLOAD: the name WORKLOAD's rows carry in this boot: in a
# machine shape's boot (shape=SHAPE, bench/shapes.tsv's named shapes)
# WORKLOAD_SHAPE, a line of the table of its own that runs WORKLOAD's work
named() {
	echo "$1${SHAPE:+_$SHAPE}"
}

# want WORKLOAD: named, or no names given (every workload)
want() {
	[ -n "${ONLY# }" ] || return 0
	case $ONLY in *" $1 "*) return 0 ;; esac
	return 1
}

# The workload table (bench/workloads.tsv): field WORKLOAD COLUMN prints a
# column of the workload's line, and fails for a workload not in it
TABLE=/guest/workloads.tsv
field() {
	awk -F'\t' -v w="$1" -v c="$2" '$1 == w { print $c; found = 1 } END { exit !found }' "$TABLE"
}

# amount WORKLOAD: the table's amount of fixed work times SCALE, or 0
# (timed) in wall mode; the scenarios and micro do their amount (times
# SECS) in every mode, the real programs their amount in every mode (one
# build or configure run is 5 G instructions: SCALE would only double a
# programs boot)
amount() {
	local a k w
	w=$(named "$1")
	# (a workload this boot does not run is not looked up: every line
	# below asks for its amount, and each lookup is two simulated awk runs)
	if ! want "$w"; then
		echo 0
		return 0
	fi
	if ! a=$(field "$w" 7) || ! k=$(field "$w" 2); then
		echo 0
		return 1
	fi
	case $MODE,$k in
	*,program) echo "$a" ;;
	fixed,*) echo $((a * AMOUNT)) ;;
	*,scenario | *,micro) echo $((a * ${AMOUNT%.*})) ;;
	*) echo 0 ;;
	esac
}

# snap NAME: the PCP counters (guest/lib.sh's vmstat_keys) into
# /tmp/vm.NAME, in one read of /proc/vmstat (one awk run: under the cache
# model the snaps are a workload's largest cost outside its phase)
snap() {
	vmstat_keys /proc/vmstat "$PCP" >"/tmp/vm.$1"
}

report_vm() {
	snap after
	awk -v w="$1" 'NR == FNR { a[$1] = $2; next }
		{ d = ($2 == "" ? 0 : $2) - (a[$1] == "" ? 0 : a[$1]); s = s " " $1 "=" d }
		END { print "hotcold-vmstat " w s }' /tmp/vm.before /tmp/vm.after
	# and the per-CPU lists as it left them (guest/lib.sh)
	pcp_lists "$1"
}

# failed WORKLOAD WHY: report a failed workload, fail the job at its end
FAILED=
failed() {
	echo "hotcold: workload $1 failed: $2"
	FAILED="$FAILED $1"
}

# run WORKLOAD CPU COMMAND...: queues the workload (this boot runs it:
# want) to run in the order the host gave the names (run_queue): the
# plan draws that order per round (bench/hcreport/draws.py), so the
# workloads' history is sampled; with no names, in this file's order.
# The command's words hold no space (numbers, paths, function names).
QUEUE=/tmp/bench.queue
: >$QUEUE
run() {
	local w
	w=$(named "$1")
	want "$w" || return 0
	shift
	echo "$w $*" >>$QUEUE
}

# run_queue: the queued workloads, in ONLY's order (every one queued,
# in the queue's order, with no names given); compile and
# backup_beside_compile get their configured tree first, outside the
# vmstat and cache counts of their run (configure's last, or one made
# here)
run_queue() {
	local w line
	for w in ${ONLY# }; do
		grep -q "^$w " $QUEUE || continue
		grep "^$w " $QUEUE
	done >$QUEUE.ordered
	[ -n "${ONLY# }" ] || cp $QUEUE $QUEUE.ordered
	# (the queue on fd 3: a workload reading stdin must not eat it)
	while read -r line <&3; do
		# shellcheck disable=SC2086 # the queued words
		set -- $line
		case $3 in
		compile | backup_beside_compile)
			[ ! -x "$PROG/configure" ] ||
				compile_tree >/dev/null || echo "hotcold: configure of the compile tree failed ($1 fails below)" ;;
		esac
		run_now "$@" 3<&-
	done 3<$QUEUE.ordered
}

# run_now WORKLOAD CPU COMMAND...: the command prints METRIC=VALUE (the
# workload's metric in the table) and ops=N and opens and closes one
# measured phase
run_now() {
	local w=$1 cpu=$2 m out v
	shift 2
	m=$(field "$w" 8) || { failed "$w" "not in the workload table ($TABLE)"; return 1; }
	drop_caches
	snap before
	out=$("$@") || { failed "$w" "$out"; return 1; }
	v=$(echo "$out" | tr ' ' '\n' | sed -n "s/^$m=//p")
	[ -n "$v" ] || { failed "$w" "no $m= in its output: $out"; return 1; }
	echo "hotcold-result $w $m=$v"
	# a background's rate beside the workload's, apart
	v=$(echo "$out" | tr ' ' '\n' | grep '^background_[a-z_]*=')
	[ -z "$v" ] || echo "hotcold-background $w $v"
	echo "hotcold-phase $w ops=$(echo "$out" | tr ' ' '\n' | sed -n 's/^ops=//p') cpu=$cpu"
	report_vm "$w"
}

# A streaming reader in the background: reader_start CPU [drop].  It reads
# /dev/nullb0, a 4 GB null_blk device (larger than memory) whose requests
# complete on a guest timer without touching the pages (run-guest.sh): no
# host I/O, so the deterministic modes repeat it boot for boot, and the
# pages are marked as written by DMA for the cachesim plugin as they are
# read (consume_file()).
reader_start() {
	taskset -c "$1" "$B"/streamread /dev/nullb0 ${2:+"$2"} &
	READER=$!
	sleep 0.1
}

reader_stop() {
	kill "$READER" 2>/dev/null
	wait "$READER" 2>/dev/null
}

# loop_down DIR DEV FILE: unmount DIR, free the loop device DEV and remove
# its backing FILE in tmpfs (the disk-free setups below)
loop_down() {
	# shellcheck disable=SC2015 # the message if any step fails
	umount "$1" && losetup -d "$2" && rm -f "$3" ||
		{ echo "cannot unmount $1 or free $2 (backing $3)"; return 1; }
}

# Warm-up N (fixed mode): the fixed work repeats the same instructions in
# every boot, but which physical pages sit in which list when a workload
# starts depends on everything before it, and a workload's L2 misses of a
# few per operation follow that state: one configuration can repeat 7.2
# misses per op exactly while another gets 2.9, and another history gives
# both something else.  So each round starts with a different warm-up
# (N x 97 pages written to a tmpfs file and removed, N x 64 KB of the
# ext4 file read into the page cache), every configuration the same one
# in the same round; the spread over the rounds then includes the state,
# and a difference that holds in every round is not an accident of one
# history.  No measured phase is opened here.
warm_up() {
	[ "$1" -gt 0 ] || return 0
	dd if=/dev/zero of=/tmp/warm-up bs=4096 count=$(($1 * 97)) 2>/dev/null
	rm -f /tmp/warm-up
	# (the deterministic modes boot the disk-free workloads without disk)
	[ -f /mnt/big ] || return 0
	dd if=/mnt/big of=/dev/null bs=65536 count="$1" 2>/dev/null
}
