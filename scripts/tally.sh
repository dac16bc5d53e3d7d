# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The count of tests that make test (scripts/test.sh) and make unit
# (scripts/unit.sh) end with, and the readers of their steps' results.
# Source it after lib.sh, with RESULTS naming the file that collects one
# "ok NAME" or "FAIL NAME" line per test.
#
# A step's readers fail a test that should have a result and has none: a
# step that stopped early or found nothing to do must not stay green by
# adding no test (scripts/tests/test_tally_sh.py plants those faults).

PASSED=0
FAILED=0
FAILURES=

pass() {
	PASSED=$((PASSED + 1))
	echo "ok   $1" >>"$RESULTS"
}

failed() {
	FAILED=$((FAILED + 1))
	FAILURES="$FAILURES
  $1"
	echo "FAIL $1" >>"$RESULTS"
	echo "FAIL $1" >&2
}

# tally FILE: count its "ok NAME" and "FAIL NAME" lines as tests
tally() {
	local verdict rest

	while read -r verdict rest; do
		case $verdict in
		ok) pass "$rest" ;;
		FAIL) failed "$rest" ;;
		esac
	done <"$1"
}

# check NAME CMD...: one test that passes when CMD succeeds
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else failed "$name"; fi
}

# tally_status NAME FILE STATUS: tally FILE, the results of a step that
# exited with STATUS; also a failure when the step gave no result at all,
# or exited non-zero without a FAIL line
tally_status() {
	local name=$1 file=$2 status=$3

	tally "$file"
	if ! grep -qE '^(ok|FAIL) ' "$file"; then
		failed "$name: no result (exit status $status)"
	elif [ "$status" != 0 ] && ! grep -q '^FAIL ' "$file"; then
		failed "$name: exit status $status without a FAIL line"
	fi
}

# tap_results PREFIX: the TAP on stdin as "ok PREFIX: name" and
# "FAIL PREFIX: name" lines
tap_results() {
	sed -n "s/^ok [0-9]* - /ok $1: /p; s/^not ok [0-9]* - /FAIL $1: /p"
}

# checkpatch_tests SERIES LOG CMD...: run CMD (scripts/checkpatch.sh, which
# prints "ok PATCH" or "FAIL PATCH" for each patch SERIES lists), its
# output to LOG, and count one test per patch of SERIES.  A patch without
# a result fails (CMD stopped early, or found no series), as do a second
# result for a patch, a result for a patch SERIES does not list, a SERIES
# that lists no patch, and CMD exiting non-zero without a FAIL line.
checkpatch_tests() {
	local series=$1 log=$2 status=0 line verdict p n patches fail_lines=0
	local -A seen=()

	shift 2
	"$@" >"$log" 2>&1 || status=$?
	patches=$(awk '!/^#/ { for (i = 1; i <= NF; i++) print $i }' "$series" 2>/dev/null)
	[ -n "$patches" ] || failed "checkpatch: ${series#"$ROOT"/} lists no patch"
	for p in $patches; do
		seen[$p]=0
	done
	# its verdicts only: checkpatch's own report is indented
	while IFS= read -r line; do
		[[ $line =~ ^(ok|FAIL)\ ([^ ]+)$ ]] || continue
		verdict=${BASH_REMATCH[1]} p=${BASH_REMATCH[2]}
		if [ "$verdict" = FAIL ]; then
			fail_lines=$((fail_lines + 1))
		fi
		if [ -z "${seen[$p]+set}" ]; then
			failed "checkpatch $p: a result for a patch ${series#"$ROOT"/} does not list"
			continue
		fi
		n=${seen[$p]}
		seen[$p]=$((n + 1))
		if [ "$n" -gt 0 ]; then
			failed "checkpatch $p: a second result"
		elif [ "$verdict" = ok ]; then
			pass "checkpatch $p"
		else
			failed "checkpatch $p (${log#"$ROOT"/})"
		fi
	done <"$log"
	for p in $patches; do
		[ "${seen[$p]}" != 0 ] ||
			failed "checkpatch $p: no result (checkpatch exited $status; ${log#"$ROOT"/})"
	done
	[ "$status" = 0 ] || [ "$fail_lines" -gt 0 ] ||
		failed "checkpatch: exit status $status without a FAIL line (${log#"$ROOT"/})"
}

# guest_tests NAME LABEL LOG OUT RESULTS: the guest tests of one job
# (scripts/results.py --expect-tap LABEL LOG OUT: a job output with no TAP
# fails), named "LABEL: NAME test", written to RESULTS and counted; the
# boot's KUnit results are left to the stage that judges the boot.  No
# console log, or no result at all, fails too.
guest_tests() {
	local name=$1 label=$2 log=$3 out=$4 res=$5 status=0

	if [ ! -f "$log" ]; then
		failed "$name: no console log (${log#"$ROOT"/})"
		return
	fi
	python3 "$ROOT/scripts/results.py" --expect-tap "$label" "$log" "$out" >"$res.all" ||
		status=$?
	grep ' guest ' "$res.all" | sed "s/: guest /: $name /" >"$res"
	tally_status "$name (${log#"$ROOT"/})" "$res" "$status"
}

# summary: the failures, then the last line, "N passed, N failed"; its
# status is non-zero on any failure
summary() {
	[ -n "$FAILURES" ] && echo "failures:$FAILURES" >&2
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ]
}
