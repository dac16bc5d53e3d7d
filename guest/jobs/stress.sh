# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# Reliability under load (debug kernel): stress-ng memory, fork and
# readahead stressors with a streaming reader and a create-delete loop,
# into reclaim and OOM kills, while CPU 1 goes offline and online every
# second and vm.percpu_pagelist_hot_cold flips every 3 seconds; then a
# fault-injection phase (fail_page_alloc); then the no-page-lost check:
# after the stress, no more memory unaccounted for than before.
# hotcold.args=SECONDS (stress phase; the injection phase is a third).
set -u
# shellcheck source=../lib.sh
. /guest/lib.sh
SECS=${HOTCOLD_ARGS:-60}
HC=$HC_SWITCH
CPU1=/sys/devices/system/cpu/cpu1/online
STRESS=/guest/bin/stress-ng
[ -x $STRESS ] || { echo "hotcold: no stress-ng in the guest image"; exit 1; }

tap_begin
# shellcheck disable=SC2046 # one argument per number
set -- $(settle)
FREE0=$1 UNACC0=$2
cp /tmp/meminfo.settle /tmp/meminfo.before
echo "# before: free=$FREE0 unaccounted=$UNACC0 pcp=$3 depot_pools=$4 (pages)"
[ -r "$DEPOT" ] || echo "# no $DEPOT: stack depot pools are not subtracted"

# CPU hotplug every second, switch flips every 3 s
( n=0; while [ ! -f /tmp/stop ]; do echo 0 >$CPU1 && sleep 1 && echo 1 >$CPU1 && n=$((n + 1)); echo $n >/tmp/hotplug.n; sleep 1; done ) &
( n=0; v=1; while [ ! -f /tmp/stop ]; do sleep 3; v=$((1 - v)); echo $v >"$HC" && n=$((n + 1)); echo $n >/tmp/flips.n; done; echo 1 >"$HC" ) &
# the hot/cold mix: a streaming reader (cold readahead, reclaim) and a
# create-delete loop (hot frees and allocations)
( while [ ! -f /tmp/stop ]; do dd if=/mnt/big of=/dev/null bs=256k 2>/dev/null; done ) &
( while [ ! -f /tmp/stop ]; do /guest/bin/trunc80k /tmp 81920 1 5 >/dev/null 2>&1; done ) &

cd /mnt || exit 1
$STRESS --vm 2 --vm-bytes 35% --bigheap 1 --mmap 1 --mmap-bytes 10% \
	--fork 2 --readahead 1 --readahead-bytes 32M --pagemove 1 \
	--timeout "${SECS}s" --metrics-brief --temp-path /mnt 2>&1 | sed 's/^/# /' >/tmp/stress.out
rc=$?
cat /tmp/stress.out

# out of memory, for sure: three processes that each fill and hold half
# of RAM (no swap); the OOM killer must take at least one
MB=$(awk '$1 == "MemTotal:" { print int($2 / 1024 / 2) }' /proc/meminfo)
pids=
for _ in 1 2 3; do
	/guest/bin/leakcheck fill "$MB" 5 >/dev/null 2>&1 &
	pids="$pids $!"
done
# shellcheck disable=SC2086 # a list of pids
wait $pids
echo "# OOM phase: 3 x ${MB} MB, oom_kill=$(vmstat oom_kill)"

# fault injection: fail 1 in 10 page allocations of any order, waiting
# or not, for a third of the stress time
F=/sys/kernel/debug/fail_page_alloc
INJ=none
if [ -d $F ]; then
	echo 0 >$F/ignore-gfp-wait; echo 0 >$F/ignore-gfp-highmem
	echo 0 >$F/min-order; echo 0 >$F/verbose; echo 0 >$F/space
	echo 1 >$F/interval; echo 1000000 >$F/times; echo 10 >$F/probability
	# only the stress-ng tasks (make-it-fail is inherited by children):
	# failing this shell's own allocations would only test busybox
	echo Y >$F/task-filter
	sh -c "echo 1 >/proc/self/make-it-fail && exec $STRESS --vm 1 --vm-bytes 10% \
		--fork 1 --readahead 1 --readahead-bytes 16M --timeout $((SECS / 3))s \
		--temp-path /mnt" >/dev/null 2>&1
	# and a fixed amount of page faults, so that failures are injected
	# however little the stressors got done on a slow guest
	for _ in 1 2 3 4 5 6 7 8; do
		[ "$(cat $F/times)" -lt 1000000 ] 2>/dev/null && break
		sh -c "echo 1 >/proc/self/make-it-fail && exec /guest/bin/leakcheck anon 32" \
			>/dev/null 2>&1
	done
	echo 0 >$F/probability
	left=$(cat $F/times)
	INJ=$((1000000 - ${left:-1000000}))
fi
touch /tmp/stop
wait
cd /
echo 1 >$CPU1 2>/dev/null
rm -f /tmp/trunc80k.*

# shellcheck disable=SC2046 # one argument per number
set -- $(settle)
FREE1=$1 UNACC1=$2
LOST=$((UNACC1 - UNACC0))
echo "# after:  free=$FREE1 unaccounted=$UNACC1 pcp=$3 depot_pools=$4 (pages)"
echo "hotcold-result stress seconds=$SECS hotplug_cycles=$(cat /tmp/hotplug.n 2>/dev/null || echo 0) switch_flips=$(cat /tmp/flips.n 2>/dev/null || echo 0) oom_kills=$(vmstat oom_kill) injected_failures=$INJ free_delta=$((FREE0 - FREE1)) unaccounted_delta=$LOST"

t_stress_ran() {
	grep -q "successful run completed\|passed:" /tmp/stress.out ||
		die "stress-ng did not complete (exit $rc)"
}
tap_run "stress_ng_completed" t_stress_ran
t_hotplug() {
	[ "$(cat /tmp/hotplug.n 2>/dev/null || echo 0)" -ge $((SECS / 4)) ] || die "too few hotplug cycles"
	[ "$(cat $CPU1)" = 1 ] || die "cpu1 offline at the end"
}
tap_run "cpu1_hotplug_cycled" t_hotplug
t_flips() {
	[ "$(cat /tmp/flips.n 2>/dev/null || echo 0)" -ge $((SECS / 6)) ] || die "too few switch flips"
	[ "$(cat "$HC")" = 1 ] || die "switch left at $(cat "$HC")"
}
tap_run "switch_flipped" t_flips
t_injected() {
	[ "$INJ" != none ] || die "no fail_page_alloc in debugfs"
	[ "$INJ" -gt 0 ] || die "no failure was injected"
}
tap_run "page_alloc_failures_injected" t_injected
# (the tolerance and its reasons: t_no_page_lost in guest/lib.sh)
tap_run "no_page_lost" t_no_page_lost "$LOST" "the stress"
tap_end
