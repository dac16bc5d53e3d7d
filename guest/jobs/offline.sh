# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# Memory offline with cold pages queued (the test kernels, booted with
# scripts/run-guest.sh --dimm): the pc-dimm's memory blocks, online in
# ZONE_MOVABLE, go offline and come back online, CYCLES times
# (hotcold.args=CYCLES, default 2).  Each cycle: a streaming reader on CPU
# 1 reclaims (cold frees) and refills (cold readahead) for 3 s; it is
# stopped (SIGSTOP, its mapping kept) and a large process on CPU 0 exits
# (cold frees onto CPU 0's lists); then the offline, then the reader goes
# on until the blocks are online again.  (The reader is stopped for the
# offline itself: on the debug kernel, migrating the file's pages while it
# kept faulting them back failed for 3 minutes, each page off the LRU with a
# reference held; NOTES.md.  Stopped, nothing flushes the queued pages
# before the offline's own drain.)
#
# offline_pages() disables the zone's pcp lists and drains both queues of
# every CPU.  A page a drain leaves queued is not free in the buddy lists,
# so the range can never be isolated: the offline does not finish, is
# interrupted after OFFLINE_SECS and fails the cycle.  Each cycle checks
# that cold pages were queued in ZONE_MOVABLE when it began (else it could
# not see such a drain), that the zone holds no page and no pcp list has a
# page of it while it is offline, and, at the end, that no page was lost
# (settle's unaccounted memory, as the stress job reads it).
set -u
# shellcheck source=../lib.sh
. /guest/lib.sh
CYCLES=${HOTCOLD_ARGS:-2}
OFFLINE_SECS=60
EXIT_MB=96
MEM=/sys/devices/system/memory

# movable SUM FIELD: ZONE_MOVABLE's FIELD from /proc/zoneinfo (FIELD
# "present", or a pageset field, "count" or "cold", summed over the CPUs)
movable() {
	awk -v f="$1" '$1 == "Node" { z = $4 } z == "Movable" && ($1 == f || $1 == f ":") { s += $2 }
		END { print s + 0 }' /proc/zoneinfo
}

tap_begin
echo "# cmdline: $(cat /proc/cmdline)"
# this shell and what it starts run on CPU 0; the reader on CPU 1
taskset -p -c 0 $$ >/dev/null

BLOCKS=
for b in "$MEM"/memory*; do
	[ "$(cat "$b/valid_zones" 2>/dev/null)" = Movable ] && BLOCKS="$BLOCKS $b"
done
BLOCK_PAGES=$(($(printf '%d' "0x$(cat $MEM/block_size_bytes)") / 4096))
NBLOCKS=$(echo "$BLOCKS" | wc -w)
PRESENT0=$(movable present)
echo "# ZONE_MOVABLE: $NBLOCKS blocks of $BLOCK_PAGES pages,$BLOCKS; present $PRESENT0 pages"
t_blocks() {
	[ "$NBLOCKS" -gt 0 ] || die "no memory block in ZONE_MOVABLE (no pc-dimm, or not onlined movable)"
	[ "$PRESENT0" = $((NBLOCKS * BLOCK_PAGES)) ] ||
		die "ZONE_MOVABLE has $PRESENT0 pages present, its blocks $((NBLOCKS * BLOCK_PAGES))"
}
tap_run "dimm_online_in_zone_movable" t_blocks
[ "$NBLOCKS" -gt 0 ] || { tap_end; exit 1; }

# shellcheck disable=SC2046 # one argument per number
set -- $(settle)
UNACC0=$2
cp /tmp/meminfo.settle /tmp/meminfo.before
echo "# before: free=$1 unaccounted=$UNACC0 pcp=$3 depot_pools=$4 (pages)"
COLD_FREES0=$(vmstat pcp_cold_free)

# every block online again (after a cycle that failed half-way too)
online_all() {
	local b
	for b in $BLOCKS; do
		[ "$(cat "$b/state")" = online ] || echo online_movable >"$b/state" ||
			die "onlining ${b##*/} failed"
	done
}

t_cycle() {
	local b cold t0
	online_all
	taskset -c 1 /guest/bin/streamread /mnt/big &
	echo $! >/tmp/reader.pid
	sleep 3
	kill -STOP "$(cat /tmp/reader.pid)"
	# cold frees on CPU 0: an exit larger than the CPU's cache slice
	/guest/bin/leakcheck anon $EXIT_MB >/dev/null
	cold=$(movable cold)
	echo "cold pages queued in ZONE_MOVABLE: $cold (of $(movable count) queued)"
	[ "$cold" -gt 0 ] || die "no cold page queued in ZONE_MOVABLE: the offline cannot test the drain"
	for b in $BLOCKS; do
		t0=$(date +%s)
		timeout $OFFLINE_SECS sh -c "echo offline >$b/state" ||
			die "offlining ${b##*/} failed or did not finish in $OFFLINE_SECS s" \
				"(now cold $(movable cold), queued $(movable count) in ZONE_MOVABLE)"
		echo "${b##*/} offline in $(($(date +%s) - t0)) s"
	done
	kill -CONT "$(cat /tmp/reader.pid)"
	for b in $BLOCKS; do
		[ "$(cat "$b/state")" = offline ] || die "${b##*/} is $(cat "$b/state") after its offline"
	done
	[ "$(movable present)" = 0 ] || die "ZONE_MOVABLE has $(movable present) pages present, all offline"
	[ "$(movable count)" = 0 ] || die "$(movable count) pages queued in ZONE_MOVABLE, all offline"
	echo "offline: MemTotal $(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) kB"
	online_all
	[ "$(movable present)" = "$PRESENT0" ] ||
		die "ZONE_MOVABLE has $(movable present) pages present online again, $PRESENT0 before"
}
# the reader ends with its cycle, passed or failed (tap_run runs the
# cycle in a subshell: its pid is in a file)
end_reader() {
	local pid

	pid=$(cat /tmp/reader.pid 2>/dev/null) || return 0
	kill -CONT "$pid" 2>/dev/null
	kill "$pid" 2>/dev/null
	while kill -0 "$pid" 2>/dev/null; do sleep 1; done
	rm -f /tmp/reader.pid
}
c=1
while [ $c -le "$CYCLES" ]; do
	tap_run "offline_online_with_cold_pages_queued_$c" t_cycle
	end_reader
	c=$((c + 1))
done

# shellcheck disable=SC2046 # one argument per number
set -- $(settle)
LOST=$(($2 - UNACC0))
echo "# after:  free=$1 unaccounted=$2 pcp=$3 depot_pools=$4 (pages)"
echo "hotcold-result offline cycles=$CYCLES blocks=$NBLOCKS cold_frees=$(($(vmstat pcp_cold_free) - COLD_FREES0)) unaccounted_delta=$LOST"
t_cold_frees() {
	[ "$(($(vmstat pcp_cold_free) - COLD_FREES0))" -gt 0 ] || die "no cold free during the cycles"
}
tap_run "cold_frees_during_the_cycles" t_cold_frees
# the stress job's tolerance and reasons (guest/jobs/stress.sh)
t_no_page_lost() {
	[ $LOST -le 256 ] && return
	echo "# /proc/meminfo before and after the cycles (kB):"
	awk 'NR == FNR { b[$1] = $2; next } { printf "#   %-18s %10s %10s\n", $1, b[$1], $2 }' \
		/tmp/meminfo.before /tmp/meminfo.settle
	die "$LOST pages more unaccounted after the cycles than before"
}
tap_run "no_page_lost" t_no_page_lost
tap_end
