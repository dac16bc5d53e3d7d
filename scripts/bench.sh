#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: vanilla vs hotcold, interleaved rounds, fresh boot per run.
# Results: build/bench/results.csv and build/bench/report.md.
#
# Environment: ROUNDS (default 5), QUICK=1 (2 rounds).
. "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-5}
[ "${QUICK:-0}" = 1 ] && ROUNDS=2
OUT=$BUILD/bench
mkdir -p "$OUT"
# name:flavour:extra kernel command line
CONFIGS=${BENCH_CONFIGS:-"vanilla:vanilla: hotcold:hotcold:"}

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
csv=$OUT/results.csv
echo "workload,metric,config,round,value" >"$csv"
t0=$(now)
total=$((ROUNDS * $(echo $CONFIGS | wc -w)))
n=0
for r in $(seq 1 "$ROUNDS"); do
	for c in $CONFIGS; do
		name=${c%%:*} rest=${c#*:}
		f=${rest%%:*} append=${rest#*:}
		n=$((n + 1))
		eta=$(( ($(now) - t0) * (total - n + 1) / n ))
		msg "run $n/$total: boot, $name, round $r (ETA ${eta} s)"
		"$ROOT/scripts/run-guest.sh" --quiet --tag "bench-$name-$r" \
			${append:+--append "$append"} "$f" boot || exit 1
		sed -n 's/^hotcold-result \([a-z0-9_]*\) \([a-z_]*\)=\([0-9.]*\).*/\1,\2,'"$name,$r"',\3/p' \
			"$LOGS/$f-boot-bench-$name-$r.out" >>"$csv"
	done
done
python3 "$ROOT/bench/report.py" "$csv" "$OUT/report.md" || fail "report failed"
cat "$OUT/report.md"
