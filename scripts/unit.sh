#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make unit: the harness's own tests, in seconds, as any user, with no
# kernel and nothing under build/ (its scratch files go to a temporary
# directory): the Python unit tests of scripts/tests and bench/tests (one
# test per case), shellcheck of the scripts (one test), and the cache
# model's host unit test, bench/cachesim/test.c built with gcc (one test
# per TAP case).  make test's harness stage runs it too.
#
# It needs python3 (with docutils), gcc and shellcheck: scripts/deps.sh
# unit installs the missing ones as root and names their Debian packages
# otherwise.  The
# last line is "N passed, N failed" (", N skipped" if any); the exit status is non-zero on any
# failure.
#
# usage: scripts/unit.sh [RESULTS]
#   RESULTS: where to keep the "ok NAME" and "FAIL NAME" lines (make test
#   counts them)
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/hotcold-unit.XXXXXX") || exit 1
trap 'rm -rf "$SCRATCH"' EXIT
# every step's outputs and logs, the children's too
export BUILD=$SCRATCH/build
. "$(dirname "$0")/lib.sh"
. "$ROOT/scripts/tally.sh"
step unit
T0=$(now)
RESULTS=${1:-$SCRATCH/unit.results}
: >"$RESULTS" || fail "cannot write $RESULTS"

if ! deps=$("$ROOT/scripts/deps.sh" unit 2>&1); then
	echo "$deps" >&2
	failed "make unit's tools: $(sed -n 's/^hotcold: deps: FAILED: //p' <<<"$deps" | tail -1)"
	summary
	exit 1
fi
[ -z "$deps" ] || echo "$deps" >&2

msg "python unit tests (scripts/tests, bench/tests)"
status=0
: >"$SCRATCH/python.results"
python3 "$ROOT/scripts/tests/run.py" --results "$SCRATCH/python.results" || status=$?
tally_status "python unit tests (scripts/tests/run.py)" "$SCRATCH/python.results" "$status"

check "shellcheck: the harness's scripts (scripts/shellcheck.sh)" "$ROOT/scripts/shellcheck.sh"

status=0
"$ROOT/scripts/cachesim.sh" test || status=$?
: >"$SCRATCH/cachesim.results"
[ ! -f "$BUILD/cachesim/test.tap" ] ||
	tap_results cachesim <"$BUILD/cachesim/test.tap" >"$SCRATCH/cachesim.results"
tally_status "cachesim model's host test (scripts/cachesim.sh test)" "$SCRATCH/cachesim.results" "$status"

msg "unit: $(($(now) - T0)) s"
if [ "$FAILED" != 0 ]; then
	# the logs and outputs the failures above name
	trap - EXIT
	msg "unit: its scratch files are kept in $SCRATCH"
fi
summary
