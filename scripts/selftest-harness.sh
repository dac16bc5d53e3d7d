#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Self-test of guest/lib.sh's tap_run, on the host: a test function whose
# middle step fails must be reported "not ok", under bash, dash and busybox
# sh (the guest's shell), whether or not the caller has set -e, and the
# caller must go on to the next test.  make test runs it in its harness
# stage.
. "$(dirname "$0")/lib.sh"
step "selftest tap_run"

driver=$(mktemp)
trap 'rm -f "$driver"' EXIT
cat >"$driver" <<'EOS'
. "$1"
middle() { echo step1; false; echo step3; }
good() { echo fine; }
tap_begin
tap_run middle_step_fails middle
tap_run passes good
set -e
tap_run middle_step_fails_under_set_e middle
tap_run passes_under_set_e good
set +e
tap_run called_in_a_condition good || :
tap_end
echo "tap_end returned $?"
EOS
want='TAP version 13
# step1
not ok 1 - middle_step_fails
# fine
ok 2 - passes
# step1
not ok 3 - middle_step_fails_under_set_e
# fine
ok 4 - passes_under_set_e
# FAIL: tap_run called in a condition, where set -e is ignored
not ok 5 - called_in_a_condition
1..5
tap_end returned 1'

rc=0
for sh in bash dash "/bin/busybox sh"; do
	command -v "${sh%% *}" >/dev/null ||
		fail "no ${sh%% *} on the host -- run scripts/deps.sh"
	# shellcheck disable=SC2086 # "/bin/busybox sh" is a command and its argument
	got=$(cd /tmp && $sh "$driver" "$ROOT/guest/lib.sh" 2>&1)
	if [ "$got" = "$want" ]; then
		echo "ok $sh: tap_run fails a test at its failing step"
	else
		echo "FAIL $sh: tap_run's output differs (- expected, + got):"
		diff -u <(echo "$want") <(echo "$got") | tail -n +3 | sed 's/^/    /'
		rc=1
	fi
done
[ "$rc" = 0 ] || fail "guest/lib.sh's tap_run does not fail a test whose middle step fails (above)"
