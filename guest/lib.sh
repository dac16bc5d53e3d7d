# SPDX-License-Identifier: GPL-2.0
# Helpers for guest jobs and tests (busybox sh).  TAP output: one
# "ok N - name" or "not ok N - name" line per test, plan at the end.

TAP_N=0
TAP_FAILED=0

tap_begin() {
	echo "TAP version 13"
}

# tap_run NAME FUNCTION [ARGS...]: run a test function, report it
tap_run() {
	local name=$1 fn=$2 out

	shift 2
	TAP_N=$((TAP_N + 1))
	out=/tmp/tap.$$.out
	if ( set -e; "$fn" "$@" ) >"$out" 2>&1; then
		sed 's/^/# /' "$out"
		echo "ok $TAP_N - $name"
	else
		sed 's/^/# /' "$out"
		echo "not ok $TAP_N - $name"
		TAP_FAILED=$((TAP_FAILED + 1))
	fi
	rm -f "$out"
}

tap_end() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" = 0 ]
}

# die MESSAGE: fail the current test with a reason
die() {
	echo "FAIL: $*"
	exit 1
}

vmstat() {
	awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print "" }' /proc/vmstat
}

sysctl_path() {
	echo "/proc/sys/$(echo "$1" | tr . /)"
}

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}
