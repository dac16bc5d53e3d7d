# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# The scenarios (bench/workloads.tsv kinds mix, scenario and sweep: the
# 2002 workloads beside a streaming reader, the floods, readahead and the
# long hot list), sourced by guest/jobs/bench.sh: their helpers and
# queue_scenarios, which queues them in the table's order.

# the foreground beside a streaming reader, both on CPU 0 (under -icount
# a busy vCPU 0 starves vCPU 1, so the reader shares the foreground's CPU)
mixed() {
	local out rc=0
	reader_start 0
	case $1 in
	sdet) out=$("$@") || rc=1 ;;	# a shell function: not pinned
	*) out=$(taskset -c 0 "$@") || rc=1 ;;
	esac
	reader_stop
	echo "$out"
	return $rc
}

# Scenarios in which vanilla hands cold pages to a hot foreground: a
# page-fault loop over 1 MB on CPU 0, whose own freed pages are hot (see
# guest/src/flood.c).  On the same CPU the cold pages come at fixed points
# of the loop, so every kernel does the same work: 1 exits of processes
# whose memory is long cold, 2 reclaim of page cache read long ago, 3
# readahead.  On the other CPU (3b) a reader runs while the foreground
# sleeps 1 ms after each iteration (under -icount vCPU 1 runs only while
# vCPU 0 idles).
readahead_other() {
	local out rc=0
	reader_start 1 drop
	out=$(taskset -c 0 "$B"/pagefault anon 1048576 1 "$SECS" "$1" 1000) || rc=1
	reader_stop
	echo "$out"
	return $rc
}

# 2 in a boot without the scratch disk (the deterministic modes boot the
# workloads that need no device I/O that way: a virtio-blk completion lands
# at a host-timed point, after which two boots of one kernel differ): the
# page cache comes from a sparse file on ext2 on a loop device over a
# tmpfs file, so no I/O leaves the guest (reading a hole fills the folio
# with zeroes, no I/O at all).  What is reclaimed is the same: clean
# order-0 page cache, read long before.
# reclaim_flood MB N LOOPS [CPU]: flood reclaim MB N 1024 LOOPS [CPU] (MB:
# at most the 100 MB of /mnt/big; CPU: the reclaim on that CPU, the
# foreground on CPU 0)
reclaim_flood() {
	local out rc=0
	if [ ! -b /dev/vda ]; then
		# shellcheck disable=SC2015 # the message if any step fails
		dd if=/dev/zero of=/tmp/scratch.img bs=1M count=0 seek=112 2>/dev/null &&
			losetup /dev/loop0 /tmp/scratch.img && mke2fs -q -b 4096 /dev/loop0 &&
			mount -t ext2 /dev/loop0 /mnt &&
			dd if=/dev/zero of=/mnt/big bs=1M count=0 seek=100 2>/dev/null ||
			{ echo "reclaim_flood: cannot make ext2 on /dev/loop0 over /tmp"; return 1; }
	fi
	out=$("$B"/flood reclaim "$1" "$2" 1024 "$3" ${4:+"$4"}) || rc=1
	if [ ! -b /dev/vda ]; then
		loop_down /mnt /dev/loop0 /tmp/scratch.img || rc=1
	fi
	echo "$out"
	return $rc
}

# 4: a per-cpu list made long (high_fraction 8: thousands of pages) and
# bursts larger than the cache
big_hot_list() {
	local out rc=0
	echo 8 >/proc/sys/vm/percpu_pagelist_high_fraction
	out=$(taskset -c 0 "$B"/pagefault anon 16777216 1 "$SECS" "$1") || rc=1
	echo 0 >/proc/sys/vm/percpu_pagelist_high_fraction
	echo "$out"
	return $rc
}

# 5: a streaming reader beside a task holding a long hot list, both on CPU
# 0: the reader's __GFP_COLD readahead finds no cold page, and a rule that
# sent it to the hot tail while the list is longer than the cache would
# cycle the reader through the task's list
reader_beside_hot_list() {
	local out rc=0
	echo 8 >/proc/sys/vm/percpu_pagelist_high_fraction
	reader_start 0 drop
	out=$(taskset -c 0 "$B"/pagefault anon 16777216 1 "$SECS" "$1") || rc=1
	reader_stop
	echo 0 >/proc/sys/vm/percpu_pagelist_high_fraction
	echo "$out"
	return $rc
}

# queue_scenarios: the mixes, the scenarios and (fixed mode) the sweeps
queue_scenarios() {
	run mixed_pagefault 0 mixed "$B"/pagefault anon 4194304 1 "$SECS" "$(amount mixed_pagefault)"
	run mixed_trunc80k 0 mixed "$B"/trunc80k /tmp 81920 1 "$SECS" "$(amount mixed_trunc80k)"
	run mixed_sdet all mixed sdet 2 "$(amount mixed_sdet)"
	# scenarios: a fixed amount of work in every mode
	run exit_flood 0 "$B"/flood exit 40 4 1024 "$(amount exit_flood)"
	run reclaim_flood 0 reclaim_flood 96 4 "$(amount reclaim_flood)"
	# the same with the flood on CPU 1, the foreground on CPU 0 (the 2cpu
	# boot): the exits and the reclaim free on the other CPU
	run exit_flood_other_cpu 0 "$B"/flood exit 40 4 1024 "$(amount exit_flood_other_cpu)" 1
	run reclaim_flood_other_cpu 0 reclaim_flood 96 4 "$(amount reclaim_flood_other_cpu)" 1
	run readahead_same_cpu 0 "$B"/flood readahead 256 0 1024 "$(amount readahead_same_cpu)"
	run readahead_other_cpu 0 readahead_other "$(amount readahead_other_cpu)"
	run big_hot_list 0 big_hot_list "$(amount big_hot_list)"
	run reader_beside_hot_list 0 reader_beside_hot_list "$(amount reader_beside_hot_list)"
	# the directed tests' curves (fixed mode only; scripts/bench.sh boots
	# them in a boot of their own): exit_flood and reclaim_flood at the rate
	# and size each name says (bench/workloads.tsv: sweep_exit_N_MB_L,
	# sweep_reclaim_N_MB_L), whatever SCALE, so that a point means the same
	# in every run
	if [ "$MODE" = fixed ]; then
		sweeps=$(awk -F'\t' '!/^#/ && $2 == "sweep" { print $1 }' "$TABLE")
		for w in $sweeps; do
			want "$w" || continue
			# shellcheck disable=SC2046 # the name's fields, one per word
			set -- $(echo "$w" | tr _ ' ')
			case $#,${2:-} in
			5,exit) run "$w" 0 "$B"/flood exit "$4" "$3" 1024 "$5" ;;
			5,reclaim) run "$w" 0 reclaim_flood "$4" "$3" "$5" ;;
			*) failed "$w" "not a sweep's name (sweep_exit_N_MB_L or sweep_reclaim_N_MB_L)" ;;
			esac
		done
	fi
}
