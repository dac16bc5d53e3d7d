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
#
# Every test is also kept with its stage ($STAGE_NAME when it is counted,
# "tests" without one) for the machine-readable copy summary writes when
# RESULTS_KTAP names a file: KTAP (Documentation/dev-tools/ktap.rst in the
# kernel tree), one test per stage with one subtest per test counted in
# it, which the tree's tools/testing/kunit/kunit.py parse reads.

PASSED=0
FAILED=0
# passed tests whose name says they were skipped (is_skip): counted apart,
# neither passed nor failed
SKIPPED=0
FAILURES=
# each test's stage, verdict (ok or fail) and name, in the order counted
T_STAGE=()
T_VERDICT=()
T_NAME=()

# record VERDICT NAME: keep a test for the KTAP file
record() {
	T_STAGE+=("${STAGE_NAME:-tests}")
	T_VERDICT+=("$1")
	T_NAME+=("$2")
}

# is_skip NAME: NAME ends in "(skipped)" or "(skipped: WHY)" (WHY may
# hold parentheses: unittest's reasons do), the mark of
# scripts/results.py's and scripts/tests/run.py's skips (ktap_case)
is_skip() {
	[[ $1 =~ [[:space:]]\(skipped(:.*)?\)$ ]]
}

pass() {
	if is_skip "$1"; then
		SKIPPED=$((SKIPPED + 1))
	else
		PASSED=$((PASSED + 1))
	fi
	record ok "$1"
	echo "ok   $1" >>"$RESULTS"
}

failed() {
	FAILED=$((FAILED + 1))
	record fail "$1"
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

# ktap_name TEXT: TEXT as a KTAP test name or diagnostic, in KTAP_TEXT:
# "#" (which would start a directive) as "_", blanks and control
# characters as single spaces
ktap_name() {
	local text=${1//[#]/_} IFS=' '
	local -a words

	read -ra words <<<"${text//[[:cntrl:]]/ }"
	KTAP_TEXT=${words[*]}
}

# ktap_case VERDICT NAME: a test as counted (verdict ok or fail) as a KTAP
# case: CASE_STATUS (ok, fail or skip), CASE_NAME and CASE_DIAG.  A passed
# NAME ending in "(skipped)" or "(skipped: WHY)" (scripts/results.py's and
# scripts/tests/run.py's skips) is skipped, WHY its diagnostic; a failed
# NAME's last "(...)", the log to read or the reason, is its diagnostic,
# so that it keeps the name it passes with ("checkpatch PATCH (LOG)").
ktap_case() {
	local re_skip='^(.*[^[:space:]])[[:space:]]+\(skipped(:[[:space:]]*(.*))?\)$'
	local re_diag='^(.*[^[:space:]])[[:space:]]+\(([^()]*)\)$'

	CASE_STATUS=$1 CASE_NAME=$2 CASE_DIAG=
	if [ "$1" = ok ] && [[ $2 =~ $re_skip ]]; then
		CASE_STATUS=skip CASE_NAME=${BASH_REMATCH[1]} CASE_DIAG=${BASH_REMATCH[3]}
	elif [ "$1" = fail ] && [[ $2 =~ $re_diag ]]; then
		CASE_NAME=${BASH_REMATCH[1]} CASE_DIAG=${BASH_REMATCH[2]}
	fi
	ktap_name "$CASE_NAME"
	CASE_NAME=${KTAP_TEXT:-unnamed}
	ktap_name "$CASE_DIAG"
	CASE_DIAG=$KTAP_TEXT
}

# write_ktap FILE: every test counted so far as KTAP version 1: one test
# per stage, in the order of their first result, and in it one subtest per
# test, "ok", "not ok" (after a "# NAME: DIAG" line) or "ok ... # SKIP".
# A stage with a failed test is "not ok"; one with only skips is skipped.
write_ktap() {
	local file=$1 stage sname i j n failures skips
	local -a stages=() lines=()
	local -A seen=()

	for stage in "${T_STAGE[@]}"; do
		[ -n "${seen[$stage]+set}" ] && continue
		seen[$stage]=1
		stages+=("$stage")
	done
	{
		echo "KTAP version 1"
		echo "# hotcold: $(counts)"
		echo "1..${#stages[@]}"
		i=0
		for stage in "${stages[@]}"; do
			i=$((i + 1)) n=0 failures=0 skips=0 lines=()
			ktap_name "$stage"
			sname=${KTAP_TEXT:-unnamed}
			for j in "${!T_STAGE[@]}"; do
				[ "${T_STAGE[$j]}" = "$stage" ] || continue
				ktap_case "${T_VERDICT[$j]}" "${T_NAME[$j]}"
				# kunit.py would take a case named as its stage for the
				# stage's own result line
				[ "$CASE_NAME" != "$sname" ] || CASE_NAME="$CASE_NAME (test)"
				n=$((n + 1))
				case $CASE_STATUS in
				ok) lines+=("ok $n $CASE_NAME") ;;
				skip)
					skips=$((skips + 1))
					lines+=("ok $n $CASE_NAME # SKIP${CASE_DIAG:+ $CASE_DIAG}")
					;;
				*)
					failures=$((failures + 1))
					[ -z "$CASE_DIAG" ] || lines+=("# $CASE_NAME: $CASE_DIAG")
					lines+=("not ok $n $CASE_NAME")
					;;
				esac
			done
			echo "  KTAP version 1"
			echo "  # Subtest: $sname"
			echo "  1..$n"
			printf '  %s\n' "${lines[@]}"
			if [ "$failures" -gt 0 ]; then
				echo "not ok $i $sname"
			elif [ "$skips" = "$n" ]; then
				echo "ok $i $sname # SKIP"
			else
				echo "ok $i $sname"
			fi
		done
	} >"$file.new" && mv "$file.new" "$file"
}

# counts: "N passed, N failed", and ", N skipped" if any test was skipped
# (a skip is not a pass)
counts() {
	if [ "$SKIPPED" -gt 0 ]; then
		echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
	else
		echo "$PASSED passed, $FAILED failed"
	fi
}

# summary: the failures, then the last line, counts'; its status is
# non-zero on any failure.  With RESULTS_KTAP set, it writes that KTAP
# file first.
summary() {
	[ -z "${RESULTS_KTAP:-}" ] || write_ktap "$RESULTS_KTAP"
	[ -n "$FAILURES" ] && echo "failures:$FAILURES" >&2
	counts
	[ "$FAILED" = 0 ]
}
