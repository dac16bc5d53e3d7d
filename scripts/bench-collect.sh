#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench's fourth step: the boots' rows (RUNDIR/TAG.csv, TAG.vm,
# bench-boot.sh) gathered into the files the report reads: det.csv
# (icount, cachesim), resid.csv (the residency meter's boots) and
# results.csv and vmstat.csv (wall).  A run holds only what its own boots
# measured.
#
# icount beside cachesim: under -icount the guest's clock counts
# instructions, so the cache model running or not changes nothing the
# guest does, and a cachesim boot counts the instructions an icount boot
# would (all 368 row pairs of the full run of 2026-12-05 were equal).  So
# with both modes asked for, icount boots the base's round 1 (every boot
# it has) and its rounds beyond DET_ROUNDS only; the round-1 rows must
# equal those derived from the cachesim boot of the same configuration and
# round, or the run fails; every other icount row is derived from a
# cachesim boot.  A configuration of icount alone (bench/configs.tsv's
# modes icount) has no cachesim boot: its icount boots' rows are kept as
# they are.
#
# usage: scripts/bench-collect.sh RUNDIR
. "$(dirname "$0")/lib.sh"
step collect

# icount_derived: RUNDIR/icount-TAG.csv from each cachesim-TAG.csv,
# checked against the icount boot of the same tag where there is one
# shellcheck disable=SC2153 # BASE: the plan's (plan.sh)
icount_derived() {
	local f t check n=0 checked=0
	for f in "$OUT/icount-$BASE"-1-*.csv; do
		[ -f "$f" ] || continue
		t=${f##*/icount-}
		[ -f "$OUT/cachesim-$t" ] ||
			fail "the icount check boot $f has no cachesim boot to compare with ($OUT/cachesim-$t)"
		checked=$((checked + 1))
	done
	[ "$checked" -gt 0 ] || fail "the icount check boot ($BASE, round 1) wrote no rows -- see build/logs/"
	for f in "$OUT"/cachesim-*.csv; do
		[ -f "$f" ] || continue
		t=${f##*/cachesim-} check=
		[ -f "$OUT/icount-$t" ] && check=$OUT/icount-$t
		python3 "$ROOT/bench/report.py" icount-rows "$f" ${check:+"$check"} >"$OUT/icount-$t.tmp" ||
			fail "icount rows from $f failed (above)${check:+: the icount boot ($check) and the cachesim boot disagree, so the instruments do not count the same instructions}"
		mv "$OUT/icount-$t.tmp" "$OUT/icount-$t"
		n=$((n + 1))
	done
	msg "icount: $n boots' rows from the cachesim boots; $BASE round 1 booted ($checked boots) and equal"
}

{ [ $# = 1 ] && [ -f "$1/plan.sh" ]; } || fail "usage: scripts/bench-collect.sh RUNDIR (a run's directory, with its plan.sh)"
OUT=$1
# shellcheck source=/dev/null
. "$OUT/plan.sh"
if [ "$DET" = 1 ]; then
	[ "$BOTH" = 0 ] || icount_derived
	python3 "$ROOT/bench/report.py" det-header >"$OUT/det.csv" || fail "bench/report.py det-header failed"
	# the rows in the boots' order: mem, disk, the shapes, prog, sweep
	for m in icount cachesim; do
		for p in $BOOT_ORDER; do
			cat "$OUT/$m"-*-"$p".csv
		done
	done >>"$OUT/det.csv" 2>/dev/null
fi
# shellcheck disable=SC2153 # RESID: the plan's (plan.sh)
if [ -n "${RESID:-}" ]; then
	python3 "$ROOT/bench/report.py" resid-header >"$OUT/resid.csv" || fail "bench/report.py resid-header failed"
	for c in $RESID; do
		n=0
		for f in "$OUT/resid-$c"-[0-9]*.csv; do
			[ -f "$f" ] || continue
			cat "$f" >>"$OUT/resid.csv"
			n=$((n + 1))
		done
		[ "$n" -gt 0 ] || fail "no rows of the residency meter's boot of $c ($OUT/resid-$c-*.csv)"
	done
fi
if [ "$WALL" = 1 ]; then
	# in the order the wall boots ran (the plan's, rounds interleaved)
	echo "workload,metric,config,round,value" >"$OUT/results.csv"
	echo "workload,config,round,counter,delta" >"$OUT/vmstat.csv"
	while read -r tag _; do
		cat "$OUT/$tag.csv" >>"$OUT/results.csv" || fail "no rows of the wall boot $tag ($OUT/$tag.csv)"
		cat "$OUT/$tag.vm" >>"$OUT/vmstat.csv" || fail "no pcp counters of the wall boot $tag ($OUT/$tag.vm)"
	done <"$OUT/wall.jobs"
fi
