# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# The 2002 workloads (bench/workloads.tsv kind 2002: trunc80k, its size
# sweep, SDET, page faults), sourced by guest/jobs/bench.sh: their helpers
# and queue_w2002, which queues them in the table's order.

# SDET-like shell mix: USERS concurrent users, for SECS or a fixed number
# of scripts each
sdet() {
	local users=$1 scripts=$2 i end total=0 t0 t1
	end=$(awk -v s="$SECS" '{ print $1 + s }' /proc/uptime)
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$B"/phase begin
	for i in $(seq 1 "$users"); do
		sh /guest/sdet.sh "/tmp/sdet.$i" "$end" "$scripts" >"/tmp/sdet.$i.n" &
	done
	wait
	"$B"/phase end
	t1=$(cut -d' ' -f1 /proc/uptime)
	for i in $(seq 1 "$users"); do
		total=$((total + $(cat "/tmp/sdet.$i.n")))
		rm -rf "/tmp/sdet.$i" "/tmp/sdet.$i.n"
	done
	awk -v n="$total" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "scripts_per_hour=%.0f ops=%d\n", n * 3600 / (b - a), n }'
}

# trunc80k on ext4: ext4's write, truncate, journal and block allocator,
# on the empty image that scripts/initramfs.sh made (guest/data), mounted
# from a loop device over a tmpfs file: the loop driver copies in guest CPU
# time, so no I/O leaves the guest and two boots of one kernel repeat
# exactly (on the virtio disk, the first completion lands at a host-timed
# point).  The same in every mode.
trunc80k_ext4() {
	local out rc=0
	# shellcheck disable=SC2015 # the message if any step fails
	image_unpack /guest/data/ext4.img /tmp/ext4.img && losetup /dev/loop1 /tmp/ext4.img &&
		mkdir -p /ext4 && mount -t ext4 /dev/loop1 /ext4 ||
		{ echo "trunc80k_ext4: cannot mount /guest/data/ext4.img on /dev/loop1"; return 1; }
	out=$("$@") || rc=1
	loop_down /ext4 /dev/loop1 /tmp/ext4.img || rc=1
	echo "$out"
	return $rc
}


# queue_w2002: the 2002 workloads, timed in wall mode, fixed work times SCALE otherwise
queue_w2002() {
	run trunc80k_tmpfs_1 0 taskset -c 0 "$B"/trunc80k /tmp 81920 1 "$SECS" "$(amount trunc80k_tmpfs_1)"
	run trunc80k_tmpfs_n all "$B"/trunc80k /tmp 81920 "$N" "$SECS" "$(amount trunc80k_tmpfs_n)"
	run trunc80k_ext4_1 0 trunc80k_ext4 taskset -c 0 "$B"/trunc80k /ext4 81920 1 "$SECS" "$(amount trunc80k_ext4_1)"
	run trunc80k_ext4_n all trunc80k_ext4 "$B"/trunc80k /ext4 81920 "$N" "$SECS" "$(amount trunc80k_ext4_n)"
	run trunc_sweep_16k all "$B"/trunc80k /tmp 16384 "$N" "$SECS" "$(amount trunc_sweep_16k)"
	run trunc_sweep_256k all "$B"/trunc80k /tmp 262144 "$N" "$SECS" "$(amount trunc_sweep_256k)"
	run trunc_sweep_1024k all "$B"/trunc80k /tmp 1048576 "$N" "$SECS" "$(amount trunc_sweep_1024k)"
	run trunc_sweep_8192k all "$B"/trunc80k /tmp 8388608 "$N" "$SECS" "$(amount trunc_sweep_8192k)"
	for u in 1 2 4 8; do
		run "sdet_$u" all sdet "$u" "$(amount "sdet_$u")"
	done
	run pagefault_anon all "$B"/pagefault anon 4194304 "$N" "$SECS" "$(amount pagefault_anon)"
	run pagefault_fork all "$B"/pagefault fork 65536 "$N" "$SECS" "$(amount pagefault_fork)"
}
