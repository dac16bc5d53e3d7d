# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# The make bench workloads, run one after the other in one boot.
#
# hotcold.args=MODE,AMOUNT[,WORKLOAD...]
#   wall,SECONDS   each workload runs for SECONDS of wall time (the
#                  scenarios run their fixed amount of work)
#   fixed,SCALE    each workload does a fixed amount of work times SCALE,
#                  for the deterministic modes (icount, cachesim)
#   WORKLOAD...    which workloads (default all), by their names in the
#                  workload table (bench/workloads.tsv, /guest/workloads.tsv
#                  here), which also gives each its metric and its amount
#                  of fixed work.  Names only: the host resolves a WORKLOADS
#                  list with exclusions (-NAME) into the names each boot
#                  runs (bench/report.py boot-workloads, the one rule), so
#                  a -NAME here is refused
#   history=N      (fixed) start with warm-up N, so that rounds differ in
#                  history (below)
#   shape=SHAPE    a machine shape's boot (bench/shapes.tsv, its named
#                  shapes): the workloads are named WORKLOAD_SHAPE, and
#                  run WORKLOAD's work with their own line's amount
#   resid=1        a meter boot: the residency meter's module
#                  (bench/module/hotcold_resid.c) loaded after the warm-up,
#                  its plant counted in a phase of its own, resid_plant,
#                  before the workloads'
#
# Prints per workload:
#   hotcold-result WORKLOAD METRIC=VALUE
#   hotcold-background WORKLOAD background_UNIT=VALUE   (a workload with a
#                  background, backup_beside_compile: the background's rate)
#   hotcold-vmstat WORKLOAD name=delta ...   (pcp counters over the run)
#   hotcold-pcp WORKLOAD count_max=N hot_max=N high_max=N   (the per-CPU
#                  lists as it left them: guest/lib.sh's pcp_lists)
#   hotcold-phase WORKLOAD ops=N cpu=0|all   (one per measured phase, in
#                  the order the phases close; cpu: the vCPU whose counts
#                  are the workload's, 0 for the pinned foreground)
# The measured phase is opened and closed by the workload itself
# (guest/src/benchutil.h), or by `phase begin/end` around shell workloads.
# A workload that fails (or prints no METRIC) prints "hotcold: workload
# WORKLOAD failed: ..."; the others still run, and the job ends with
#   hotcold-failed WORKLOAD...
# and exit status 1 (scripts/bench.sh names them and fails the run).
set -u
# shellcheck source=../lib.sh
. /guest/lib.sh
# shellcheck disable=SC2086 # the arguments, one per word
set -- $HOTCOLD_ARGS
MODE=${1:-wall}
AMOUNT=${2:-4}
shift 2
HISTORY=0
SHAPE=
RESID=0
ONLY=
for a in "$@"; do
	case $a in
	history=*) HISTORY=${a#history=} ;;
	shape=*) SHAPE=${a#shape=} ;;
	resid=*) RESID=${a#resid=} ;;
	*) ONLY="$ONLY $a" ;;
	esac
done
ONLY="$ONLY "
case $HISTORY in
'' | *[!0-9]*) echo "hotcold: bench: history=$HISTORY: expected a number"; exit 2 ;;
esac
case $RESID in
0 | 1) ;;
*) echo "hotcold: bench: resid=$RESID: expected 0 or 1"; exit 2 ;;
esac
[ -r /guest/workloads.tsv ] || { echo "hotcold: bench: no /guest/workloads.tsv (scripts/initramfs.sh copies bench/workloads.tsv)"; exit 2; }
for a in $ONLY; do
	case $a in -*)
		echo "hotcold: bench: '$a': the guest takes workload names only (the host resolves exclusions: bench/report.py boot-workloads)"
		exit 2 ;;
	esac
	awk -F'\t' -v w="$a" '$1 == w { found = 1 } END { exit !found }' /guest/workloads.tsv ||
		{ echo "hotcold: bench: unknown workload '$a' (not in bench/workloads.tsv)"; exit 2; }
	case $SHAPE,$a in
	,* | *,*_"$SHAPE") ;;
	*) echo "hotcold: bench: shape=$SHAPE: '$a' is not one of its workloads (WORKLOAD_$SHAPE)"; exit 2 ;;
	esac
done
# the _n workloads: one instance per CPU, at least two (the deterministic
# modes boot one vCPU)
N=$(nproc)
[ "$N" -lt 2 ] && N=2
B=/guest/bin
PCP="pcp_cold_alloc pcp_cold_request pcp_cold_free pcp_refill pcp_refill_pages pcp_drain pcp_drain_pages pgalloc_dma32 pgalloc_normal pgfree pgscan_kswapd pgsteal_kswapd pgscan_direct pgsteal_direct workingset_refault_file compact_stall compact_daemon_wake pgmigrate_success"
case $MODE in
wall) SECS=$AMOUNT ;;
fixed) SECS=0 ;;
*) echo "hotcold: bench: unknown mode '$MODE' (wall or fixed)"; exit 2 ;;
esac

# The workload families, one file each (scripts/initramfs.sh packs
# guest/bench/): what they share, then each family's helpers and queue
# shellcheck source=../bench/common.sh
. /guest/bench/common.sh
# shellcheck source=../bench/w2002.sh
. /guest/bench/w2002.sh
# shellcheck source=../bench/scenarios.sh
. /guest/bench/scenarios.sh
# shellcheck source=../bench/programs.sh
. /guest/bench/programs.sh
# shellcheck source=../bench/pressure.sh
. /guest/bench/pressure.sh

[ "$MODE" = fixed ] && warm_up "$HISTORY"

# the allocator's state, which the host checks against the configuration
# it booted (bench/report.py boot-state): the switch, and the pcp lists'
# largest high and their batch (0 and 1 on nopcp) over /proc/zoneinfo
pcp=$(awk '$1 == "high:" && $2 > h { h = $2 }
	$1 == "batch:" { if (b == "" || $2 < b) b = $2; if ($2 > bm) bm = $2 }
	END { printf "pcp_high_max=%d pcp_batch=%s-%s", h, b == "" ? "none" : b, b == "" ? "none" : bm }' /proc/zoneinfo)
# and the series' cold events since boot, before the first workload (a
# workload's own counters cover its run only): boot_cold=FREE/REQUEST/ALLOC
bc=$(vmstat pcp_cold_free)
bc=${bc:+$bc/$(vmstat pcp_cold_request)/$(vmstat pcp_cold_alloc)}
# and whether the free lists were shuffled at boot (scripts/bench.sh's
# seeded rounds boot with page_alloc.shuffle=1: a kernel without
# CONFIG_SHUFFLE_PAGE_ALLOCATOR ignores it, and its rounds would not
# sample the boot state)
shuffle=none
shuffle_param=/sys/module/page_alloc/parameters/shuffle
[ ! -r $shuffle_param ] || read -r shuffle <$shuffle_param
read -r cmdline </proc/cmdline
case " $cmdline " in
*" page_alloc.shuffle=1 "*)
	[ "$shuffle" = Y ] || { echo "hotcold: bench: booted with page_alloc.shuffle=1, and the kernel's shuffle is '$shuffle' (CONFIG_SHUFFLE_PAGE_ALLOCATOR=y?)"; exit 2; } ;;
esac
echo "hotcold-info kernel=$(uname -r) vcpus=$(nproc) tasks=$N mode=$MODE amount=$AMOUNT history=$HISTORY switch=$(cat /proc/sys/vm/percpu_pagelist_hot_cold 2>/dev/null || echo none) $pcp boot_cold=${bc:-none} shuffle=$shuffle"
# The data caches the kernel read from CPUID, and its per-CPU slice of the
# last level (per_cpu_data_slice_size: the LLC's size over the CPUs that
# share it; the series' exit threshold, patch 9), in pages
caches=
llc=0 shared=1
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
	[ -r "$d/size" ] || continue
	t=$(cat "$d/type")
	[ "$t" = Instruction ] && continue
	caches="$caches L$(cat "$d/level")=$(cat "$d/size")/$(cat "$d/ways_of_associativity" 2>/dev/null || echo 0)w"
	llc=${d}
done
if [ "$llc" != 0 ]; then
	size=$(sed 's/K$//' "$llc/size")
	shared=$(awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { if (split($i, r, "-") == 2) n += r[2] - r[1] + 1; else n++ } print n }' "$llc/shared_cpu_list")
	caches="$caches llc_shared_cpus=$shared slice_pages=$((size / shared / 4))"
fi
echo "hotcold-caches${caches:- none}"

# resid_load KO SWITCH: the residency meter's module KO loaded, which
# counts, as the plugin's caches hold them, the lines of every page freed
# and of readahead's; cold hints honoured unless the series' switch (the
# file SWITCH; none on a kernel without the series) is 0.  Its plant (a
# page just written, counted as freed cold) in a phase of its own.
resid_load() {
	local honoured=1
	[ -r "$1" ] || { echo "no $1"; return 1; }
	[ "$(cat "$2" 2>/dev/null)" != 0 ] || honoured=0
	taskset -c 0 "$B"/phase begin
	taskset -c 0 insmod "$1" honoured=$honoured plant=1 ||
		{ "$B"/phase end; echo "insmod $1 failed"; return 1; }
	taskset -c 0 "$B"/phase end
	echo "hotcold-phase resid_plant ops=1 cpu=0"
}
if [ "$RESID" = 1 ]; then
	out=$(resid_load /guest/modules/hotcold_resid.ko /proc/sys/vm/percpu_pagelist_hot_cold) ||
		{ echo "hotcold: bench: the residency meter did not load: $out"; exit 2; }
	echo "$out"
fi
# the families' workloads, queued in this order (the order with no names)
queue_w2002
queue_scenarios
queue_programs
queue_pressure
run_queue
pressure_down || failed pressure "the data's mount, loop device or balloon did not come down"
rm -rf "$COMPILE_SRC"
[ "$RESID" = 0 ] || rmmod hotcold_resid || failed resid_plant "rmmod hotcold_resid failed"

# in-kernel microbenchmark (bench/module), built for this kernel; timed,
# so wall mode only
alloc_bench() {
	local m
	m=$(ls /guest/modules/hotcold_bench.ko 2>/dev/null) || { echo "no module"; return 1; }
	dmesg -c >/dev/null
	insmod "$m" || { echo "insmod $m failed"; return 1; }
	rmmod hotcold_bench
	dmesg | sed -n 's/.*hotcold-result //p'
}
if [ "$MODE" = wall ] && want alloc; then
	drop_caches
	snap before
	if out=$(alloc_bench) && [ -n "$out" ]; then
		echo "$out" | while read -r w v; do echo "hotcold-result $w $v"; done
	else
		failed alloc "${out:-no hotcold-result line in dmesg}"
	fi
	report_vm alloc
fi

if [ -n "$FAILED" ]; then
	echo "hotcold-failed$FAILED"
	exit 1
fi
