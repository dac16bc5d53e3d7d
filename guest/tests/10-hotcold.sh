# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# (sourced by guest/jobs/test.sh; set -u as everywhere)
set -u
# Guest tests of the hot/cold per-cpu page queues (the series).

HC=/proc/sys/vm/percpu_pagelist_hot_cold

# sum of one zoneinfo pageset field over every zone, for one CPU
pcp_field() {
	awk -v cpu="$1" -v f="$2:" '
		$1 == "cpu:" { c = $2 }
		$1 == f && c == cpu { s += $2 }
		END { print s + 0 }' /proc/zoneinfo
}

t_vmstat_fields() {
	local f
	for f in pcp_cold_alloc pcp_cold_request pcp_cold_free \
		pcp_refill pcp_refill_pages pcp_drain pcp_drain_pages; do
		[ -n "$(vmstat $f)" ] || die "no $f in /proc/vmstat"
	done
	[ "$(vmstat pcp_refill)" -gt 0 ] || die "pcp_refill is 0 after boot"
}
tap_run "vmstat_has_pcp_hot_cold_counters" t_vmstat_fields

# A process with more anonymous memory than the CPU's cache frees it cold
# at exit (dd's 64 MB buffer is filled from /dev/zero: anonymous pages).
t_exit_frees_cold() {
	local before after
	before=$(vmstat pcp_cold_free)
	dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null
	after=$(vmstat pcp_cold_free)
	echo "64 MB process exited: pcp_cold_free +$((after - before))"
	[ $((after - before)) -ge 15000 ] || die "expected at least 15000 cold frees"
}
tap_run "large_exit_frees_cold" t_exit_frees_cold

# and one with less than the cache frees hot: dd with a 1 MB buffer (a rule
# that freed every exit cold, or inverted the threshold, fails here)
t_small_exit_frees_hot() {
	local before after
	before=$(vmstat pcp_cold_free)
	dd if=/dev/zero of=/dev/null bs=1M count=1 2>/dev/null
	after=$(vmstat pcp_cold_free)
	echo "1 MB process exited: pcp_cold_free +$((after - before))"
	[ $((after - before)) -lt 64 ] || die "a 1 MB process freed $((after - before)) pages cold"
}
tap_run "small_exit_frees_hot" t_small_exit_frees_hot

t_zoneinfo_fields() {
	local f
	for f in hot: cold:; do
		grep -q "^ *$f " /proc/zoneinfo || die "no '$f' in /proc/zoneinfo pagesets"
	done
	echo "cpu0: hot $(pcp_field 0 hot) cold $(pcp_field 0 cold)"
}
tap_run "zoneinfo_has_hot_cold_fields" t_zoneinfo_fields

t_sysctl_default() {
	[ -f $HC ] || die "no $HC"
	[ "$(cat $HC)" = 1 ] || die "default is $(cat $HC), not 1"
}
tap_run "sysctl_default_is_1" t_sysctl_default

# every case that writes the switch puts back the value it found, on
# failure too (sw_die), so that the cases after it run as booted
SW_FOUND=
sw_die() {
	[ -z "$SW_FOUND" ] || echo "$SW_FOUND" >$HC 2>/dev/null
	[ -z "${PRO_FOUND:-}" ] || echo "$PRO_FOUND" >/proc/sys/vm/compaction_proactiveness
	die "$@"
}

t_sysctl_bad_input() {
	local v long
	SW_FOUND=$(cat $HC)
	long=$(printf '%0300d' 7)
	for v in 2 -1 abc "" "$long"; do
		if echo "$v" >$HC 2>/dev/null; then
			sw_die "'$v' was accepted"
		fi
		[ "$(cat $HC)" = "$SW_FOUND" ] || sw_die "'$v' changed the value to $(cat $HC)"
	done
	echo 0 >$HC || sw_die "0 refused"
	[ "$(cat $HC)" = 0 ] || sw_die "0 not taken"
	echo 5 >$HC 2>/dev/null && sw_die "5 accepted while at 0"
	[ "$(cat $HC)" = 0 ] || sw_die "5 changed the value"
	echo 1 >$HC || sw_die "1 refused"
	[ "$(cat $HC)" = 1 ] || sw_die "1 not taken"
	echo "$SW_FOUND" >$HC || die "cannot put back $SW_FOUND"
}
tap_run "sysctl_refuses_bad_input" t_sysctl_bad_input

t_readahead_is_cold() {
	local req0 alloc0 req1 alloc1
	drop_caches
	req0=$(vmstat pcp_cold_request)
	alloc0=$(vmstat pcp_cold_alloc)
	dd if=/mnt/big of=/dev/null bs=1M count=64 2>/dev/null || die "read failed"
	req1=$(vmstat pcp_cold_request)
	alloc1=$(vmstat pcp_cold_alloc)
	echo "64 MB read: pcp_cold_request +$((req1 - req0)), pcp_cold_alloc +$((alloc1 - alloc0))"
	[ $((req1 - req0)) -ge 8192 ] || die "readahead made only $((req1 - req0)) cold requests"
	[ $((alloc1 - alloc0)) -gt 0 ] || die "no allocation served cold"
}
tap_run "readahead_allocates_cold" t_readahead_is_cold

t_reclaim_frees_cold() {
	local free0 free1 steal0 steal1 fill
	drop_caches
	# Pin memory in a tmpfs of its own so that /mnt/big (larger than the
	# guest's RAM) cannot fit in what is left, and reading it reclaims.
	fill=$(awk '$1 == "MemAvailable:" { f = int($2 / 1024) - 120;
		print (f > 250 ? 250 : (f < 1 ? 1 : f)) }' /proc/meminfo)
	mkdir -p /tmp/fillfs
	mount -t tmpfs -o size="${fill}m" fill /tmp/fillfs || die "cannot mount a tmpfs"
	dd if=/dev/zero of=/tmp/fillfs/fill bs=1M count="$fill" 2>/dev/null || true
	free0=$(vmstat pcp_cold_free)
	steal0=$(($(vmstat pgsteal_kswapd) + $(vmstat pgsteal_direct)))
	dd if=/mnt/big of=/dev/null bs=1M 2>/dev/null || die "read failed"
	free1=$(vmstat pcp_cold_free)
	steal1=$(($(vmstat pgsteal_kswapd) + $(vmstat pgsteal_direct)))
	umount /tmp/fillfs
	echo "pinned $fill MB, read /mnt/big: pcp_cold_free +$((free1 - free0)), pgsteal +$((steal1 - steal0))"
	[ $((steal1 - steal0)) -ge 4096 ] || die "the read reclaimed only $((steal1 - steal0)) pages"
	# reclaimed order-0 page cache goes to the cold queue: most of what
	# was stolen (a path that freed its full batches hot leaves 1 in 32)
	[ $((2 * (free1 - free0))) -ge $((steal1 - steal0)) ] ||
		die "reclaim freed $((free1 - free0)) pages cold of $((steal1 - steal0)) reclaimed"
}
tap_run "reclaim_frees_cold" t_reclaim_frees_cold

t_cpu_offline_drains() {
	local c=/sys/devices/system/cpu/cpu1/online before cold drained0 drained1 slack
	taskset -c 1 dd if=/dev/zero of=/tmp/x bs=1M count=8 2>/dev/null
	rm -f /tmp/x
	# and cold pages: a process larger than the cache exits on cpu1
	taskset -c 1 dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null
	# Drains (the periodic high decay) between the two reads are counted;
	# what cpu1's own tasks allocate before it goes down is not drained:
	# allow a batch per zone for that (a debug kernel once lost 188 of
	# 942 pages to the race when the counter was read after the count).
	drained0=$(vmstat pcp_drain_pages)
	before=$(pcp_field 1 count)
	cold=$(pcp_field 1 cold)
	slack=$(pcp_field 1 batch)
	[ "$cold" -gt 0 ] || die "cpu1 held no cold pages: the exit did not fill its cold lists"
	# with a batch or less on cpu1 the check below would hold with no drain
	[ "$before" -gt "$slack" ] || die "cpu1 held only $before pages: the writes did not fill its lists"
	echo 0 >$c || die "cannot offline cpu1"
	drained1=$(vmstat pcp_drain_pages)
	echo "cpu1 held $before pages ($cold cold); offline drained $((drained1 - drained0)) (slack $slack)"
	[ $((drained1 - drained0 + slack)) -ge "$before" ] || die "offline drained less than cpu1 held"
	echo 1 >$c || die "cannot online cpu1"
	taskset -c 1 dd if=/dev/zero of=/tmp/x bs=1M count=8 2>/dev/null
	rm -f /tmp/x
	[ "$(pcp_field 1 count)" -gt 0 ] || die "cpu1's lists not refilled after online"
}
tap_run "cpu_offline_drains_both_queues" t_cpu_offline_drains

t_switch_off_is_vanilla() {
	local c0 c1
	SW_FOUND=$(cat $HC)
	echo 0 >$HC
	[ "$(pcp_field 0 cold)" = 0 ] || sw_die "cold pages left on cpu0 after switching off"
	drop_caches
	c0=$(vmstat pcp_cold_alloc)
	dd if=/mnt/big of=/dev/null bs=1M count=16 2>/dev/null
	c1=$(vmstat pcp_cold_alloc)
	echo "$SW_FOUND" >$HC
	[ "$c1" = "$c0" ] || die "pcp_cold_alloc moved by $((c1 - c0)) with the switch off"
}
tap_run "switch_off_serves_nothing_cold" t_switch_off_is_vanilla

# pages on every CPU's cold queues
cold_everywhere() {
	awk '$1 == "cold:" { s += $2 } END { print s + 0 }' /proc/zoneinfo
}

# cpu1's lists, filled by a process run there: with "cold", first the exit
# of one larger than the cache (cold frees, at 1), then a tmpfs file
# written and removed there (hot frees)
fill_cpu1() {
	[ "$1" = cold ] && taskset -c 1 dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null
	taskset -c 1 sh -c 'dd if=/dev/zero of=/tmp/x bs=1M count=2 2>/dev/null; rm -f /tmp/x'
}

# Other drains of cpu1's lists can run meanwhile: the periodic high decay
# takes at most an eighth, but kcompactd's compaction drains the lists
# of the CPU it runs on, and direct reclaim every CPU's.  One make test
# run saw cpu1's hot pages go from 831 to 95 across a switch-off that
# left no cold page; three reruns kept all but 1-3.  So proactive
# compaction is off for the two tests below, and each tries three times:
# a switch that drains fails all three, another drain does not repeat.
# (The KUnit cases of the same names hold every other drain off and
# check exactly.)
PROACTIVE=/proc/sys/vm/compaction_proactiveness
PRO_FOUND=
# attempts FUNCTION: FUNCTION (one attempt; prints why it failed) up to
# three times, proactive compaction off; fails if every attempt did
attempts() {
	local i=1 rc=1
	[ -w $PROACTIVE ] && PRO_FOUND=$(cat $PROACTIVE) && echo 0 >$PROACTIVE
	while [ $i -le 3 ]; do
		if "$1"; then
			rc=0
			break
		fi
		i=$((i + 1))
	done
	[ -z "$PRO_FOUND" ] || echo "$PRO_FOUND" >$PROACTIVE
	PRO_FOUND=
	return $rc
}

# switch_test ONCE: the test ONCE in attempts, the switch as found after
switch_test() {
	SW_FOUND=$(cat $HC)
	attempts "$1" || sw_die "in all three attempts"
	echo "$SW_FOUND" >$HC
}

# kept_half BEFORE AFTER WHAT: cpu1 kept at least half of its pages, else
# say that WHAT drained them
kept_half() {
	[ $((2 * $2)) -ge "$1" ] && return 0
	echo "$3 drained cpu1's lists: $1 -> $2 pages"
	return 1
}

# Switching on drains nothing: what cpu1 holds with the switch at 0 is
# still there after "1" is written (a drain of its lists leaves about
# nothing).
switch_on_once() {
	local before after
	echo 0 >$HC || sw_die "0 refused"
	fill_cpu1 hot
	before=$(pcp_field 1 count)
	# (a drain leaves up to about 150 pages, refilled meanwhile: kept_half
	# tells it apart only from 400 on; lists another drain emptied before
	# the read are another attempt's to fill, not a failure of the switch)
	if [ "$before" -le 400 ]; then
		echo "cpu1 held only $before pages: the writes did not fill its lists"
		return 1
	fi
	echo 1 >$HC || sw_die "1 refused"
	after=$(pcp_field 1 count)
	echo "cpu1 held $before pages at 0, $after after switching on"
	kept_half "$before" "$after" "switching on"
}
tap_run "switch_on_drains_nothing" switch_test switch_on_once

# Switching off returns every cold page and keeps the hot lists: cpu1's
# hot pages are still there after "0" is written.
switch_off_once() {
	local hot0 cold0 hot1 cold1
	echo 1 >$HC || sw_die "1 refused"
	fill_cpu1 cold
	hot0=$(pcp_field 1 hot)
	cold0=$(pcp_field 1 cold)
	[ "$cold0" -gt 0 ] || sw_die "cpu1 held no cold pages: the exit did not fill its cold lists"
	if [ "$hot0" -le 400 ]; then
		echo "cpu1 held only $hot0 hot pages: the writes did not fill its lists"
		return 1
	fi
	echo 0 >$HC || sw_die "0 refused"
	hot1=$(pcp_field 1 hot)
	cold1=$(cold_everywhere)
	echo "cpu1 held $hot0 hot and $cold0 cold pages; after switching off $hot1 hot, $cold1 cold on every CPU"
	# a cold page left is the switch's doing, whatever else ran
	[ "$cold1" = 0 ] || sw_die "$cold1 pages left on cold queues after switching off"
	kept_half "$hot0" "$hot1" "switching off"
}
tap_run "switch_off_keeps_hot_lists" switch_test switch_off_once
