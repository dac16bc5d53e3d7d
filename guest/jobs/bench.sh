# SPDX-License-Identifier: GPL-2.0
# The make bench workloads, run one after the other in one boot.
# hotcold.args=SECONDS[,WORKLOAD...]: seconds per workload, and optionally
# which workloads (default all).  Prints per workload:
#   hotcold-result WORKLOAD METRIC=VALUE
#   hotcold-vmstat WORKLOAD name=delta ...   (pcp counters over the run)
. /guest/lib.sh
set -- $HOTCOLD_ARGS
SECS=${1:-4}
shift
ONLY=" $* "
N=$(nproc)
B=/guest/bin
PCP="pcp_hot_alloc pcp_cold_alloc pcp_cold_request pcp_hot_free pcp_cold_free pcp_demote pcp_refill pcp_refill_pages pcp_drain pcp_drain_pages pgalloc_dma32 pgalloc_normal pgfree"

want() {
	[ "$ONLY" = "  " ] && return 0
	case $ONLY in *" $1 "*) return 0 ;; esac
	return 1
}

snap() {
	for k in $PCP; do echo "$k $(vmstat "$k")"; done >/tmp/vm.$1
}

report_vm() {
	snap after
	awk -v w="$1" 'NR == FNR { a[$1] = $2; next }
		{ d = ($2 == "" ? 0 : $2) - (a[$1] == "" ? 0 : a[$1]); s = s " " $1 "=" d }
		END { print "hotcold-vmstat " w s }' /tmp/vm.before /tmp/vm.after
}

# run WORKLOAD METRIC COMMAND...: the command prints METRIC=VALUE
run() {
	local w=$1 m=$2 out
	shift 2
	want "$w" || return 0
	drop_caches
	snap before
	out=$("$@") || { echo "hotcold: workload $w failed: $out"; return 1; }
	echo "hotcold-result $w $m=$(echo "$out" | tr ' ' '\n' | sed -n "s/^$m=//p")"
	report_vm "$w"
}

# a streaming reader of the big file in the background, for the mixed runs
reader_start() {
	( while :; do dd if=/mnt/big of=/dev/null bs=256k 2>/dev/null; done ) &
	READER=$!
	sleep 1
}

reader_stop() {
	kill $READER 2>/dev/null
	wait $READER 2>/dev/null
	pkill dd 2>/dev/null
}

sdet() {
	local users=$1 i end total=0
	end=$(awk -v s="$SECS" '{ print $1 + s }' /proc/uptime)
	for i in $(seq 1 "$users"); do
		sh /guest/sdet.sh "/tmp/sdet.$i" "$end" >"/tmp/sdet.$i.n" &
	done
	wait
	for i in $(seq 1 "$users"); do
		total=$((total + $(cat "/tmp/sdet.$i.n")))
		rm -rf "/tmp/sdet.$i" "/tmp/sdet.$i.n"
	done
	awk -v n="$total" -v s="$SECS" 'BEGIN { printf "scripts_per_hour=%.0f\n", n * 3600 / s }'
}

mixed() {
	local out
	reader_start
	out=$("$@")
	reader_stop
	echo "$out"
}

echo "hotcold-info kernel=$(uname -r) cpus=$N secs=$SECS switch=$(cat /proc/sys/vm/percpu_pagelist_hot_cold 2>/dev/null || echo none)"
run trunc80k_tmpfs_1 loops_per_s $B/trunc80k /tmp 81920 1 "$SECS"
run trunc80k_tmpfs_n loops_per_s $B/trunc80k /tmp 81920 "$N" "$SECS"
run trunc80k_ext4_1 loops_per_s $B/trunc80k /mnt 81920 1 "$SECS"
run trunc80k_ext4_n loops_per_s $B/trunc80k /mnt 81920 "$N" "$SECS"
for kb in 16 256 1024 8192; do
	run "trunc_sweep_${kb}k" loops_per_s $B/trunc80k /tmp $((kb * 1024)) "$N" "$SECS"
done
for u in 1 2 4 8; do
	run "sdet_$u" scripts_per_hour sdet "$u"
done
run pagefault_anon pages_per_s $B/pagefault anon 4194304 "$N" "$SECS"
run pagefault_fork forks_per_s $B/pagefault fork 65536 "$N" "$SECS"
run mixed_pagefault pages_per_s mixed $B/pagefault anon 4194304 1 "$SECS"
run mixed_trunc80k loops_per_s mixed $B/trunc80k /tmp 81920 1 "$SECS"
run mixed_sdet scripts_per_hour mixed sdet 2

# in-kernel microbenchmark (bench/module), built for this kernel
alloc_bench() {
	local m
	m=$(ls /guest/modules/hotcold_bench.ko 2>/dev/null) || { echo "no module"; return 1; }
	dmesg -c >/dev/null
	insmod "$m" || { echo "insmod $m failed"; return 1; }
	rmmod hotcold_bench
	dmesg | sed -n 's/.*hotcold-result //p'
}
if want alloc; then
	drop_caches
	snap before
	alloc_bench | while read -r w v; do echo "hotcold-result $w $v"; done
	report_vm alloc
fi
