#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: vanilla vs hotcold, interleaved rounds, fresh boot per run.
# Results: build/bench/results.csv, vmstat.csv, report.md and ratios.png.
#
# Three configurations in one run: vanilla (baseline kernel), hotcold (the
# series, switch on) and hotcold-off (the series booted with
# percpu_pagelist_hot_cold=0); a fresh boot per configuration per round,
# rounds interleaved (A B C, A B C, ...); every workload of guest/jobs/bench.sh
# runs in each boot.
#
# Environment: ROUNDS (default 5), SECS per workload (default 4),
# QUICK=1 (2 rounds of 1 s per workload).
. "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-5}
[ "${QUICK:-0}" = 1 ] && ROUNDS=2
OUT=$BUILD/bench
mkdir -p "$OUT"
# name:flavour:extra kernel command line
CONFIGS=${BENCH_CONFIGS:-"vanilla:vanilla: hotcold:hotcold: hotcold-off:hotcold:percpu_pagelist_hot_cold=0"}

step deps
"$ROOT/scripts/deps.sh" bench || exit 1
"$ROOT/scripts/source.sh" || exit 1
"$ROOT/scripts/tree.sh" sync || exit 1
for c in $CONFIGS; do
	f=$(echo "$c" | cut -d: -f2)
	case " $built " in *" $f "*) continue ;; esac
	"$ROOT/scripts/build-kernel.sh" "$f" || exit 1
	built="$built $f"
done
"$ROOT/scripts/initramfs.sh" || exit 1
"$ROOT/scripts/disk.sh" || exit 1
"$ROOT/scripts/modules.sh" $built || exit 1

step bench
SECS=${SECS:-4}
[ "${QUICK:-0}" = 1 ] && SECS=1
csv=$OUT/results.csv
vmcsv=$OUT/vmstat.csv
echo "workload,metric,config,round,value" >"$csv"
echo "workload,config,round,counter,delta" >"$vmcsv"
t0=$(now)
total=$((ROUNDS * $(echo $CONFIGS | wc -w)))
n=0
for r in $(seq 1 "$ROUNDS"); do
	for c in $CONFIGS; do
		name=${c%%:*} rest=${c#*:}
		f=${rest%%:*} append=${rest#*:}
		n=$((n + 1))
		if [ $n -gt 1 ]; then
			eta=$(( ($(now) - t0) * (total - n + 1) / (n - 1) ))
		else
			eta="?"
		fi
		msg "run $n/$total: all workloads (${SECS} s each), $name, round $r/$ROUNDS, ETA ${eta} s"
		tag=bench-$name-$r
		"$ROOT/scripts/run-guest.sh" --quiet --mem 384 --timeout 900 --tag "$tag" \
			${append:+--append "$append"} "$f" bench "$SECS" || exit 1
		out=$LOGS/$f-bench-$tag.out
		# boot time, then every workload's result and pcp counters
		sed -n 's/^hotcold-result \([a-z0-9_]*\) \([a-z_]*\)=\([0-9.]*\).*/\1,\2,'"$name,$r"',\3/p' \
			"$out" >>"$csv"
		awk -v c="$name" -v r="$r" '$1 == "hotcold-vmstat" {
			for (i = 3; i <= NF; i++) { split($i, kv, "="); print $2 "," c "," r "," kv[1] "," kv[2] } }' \
			"$out" >>"$vmcsv"
	done
done
msg "benchmark runs took $(($(now) - t0)) s"
python3 "$ROOT/bench/report.py" "$csv" "$vmcsv" "$OUT" || fail "the report failed (bench/report.py)"
cat "$OUT/report.md"
