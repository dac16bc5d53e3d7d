# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# Helpers for guest jobs and tests (busybox sh).  TAP output: one
# "ok N - name" or "not ok N - name" line per test, plan at the end.
# Sourcing it sets -u in the job: an unset variable is an error.
set -u

TAP_N=0
TAP_FAILED=0

tap_begin() {
	echo "TAP version 13"
}

# tap_run NAME FUNCTION [ARGS...]: run a test function, report it.  The
# function runs under set -e: any step that fails fails the test.  The
# shells ignore set -e in a condition (if, while, before || or &&), in
# subshells too, so the test is not run in one, and tap_run must not be
# called in one either (it reports "not ok" if it is).  The caller's own
# set -e, which would end it at the first failing test, is off meanwhile.
tap_run() {
	local name=$1 fn=$2 out rc errexit=

	shift 2
	TAP_N=$((TAP_N + 1))
	out=/tmp/tap.$$.out
	case $- in *e*) errexit=1; set +e ;; esac
	# (the checks are on $?: in a condition set -e would be ignored)
	( set -e; false; exit 0 )
	# shellcheck disable=SC2181 # see above
	if [ $? = 0 ]; then
		echo "FAIL: tap_run called in a condition, where set -e is ignored" >"$out"
		rc=1
	else
		( set -e; "$fn" "$@" ) >"$out" 2>&1
		rc=$?
	fi
	[ -z "$errexit" ] || set -e
	sed 's/^/# /' "$out"
	if [ "$rc" = 0 ]; then
		echo "ok $TAP_N - $name"
	else
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

# ab_time N LENGTH: ab's output on stdin, for N requests of one LENGTH-byte
# document; prints the time ab took for them (seconds), or says what is
# wrong and fails: a request not completed or not answered 200, another
# document length, other bytes transferred, no time
ab_time() {
	awk -v n="$1" -v len="$2" '
	/^Complete requests:/ { done = $3 }
	/^Failed requests:/ { failed = $3 }
	/^Non-2xx responses:/ { non2xx = $3 }
	/^Document Length:/ { doclen = $3 }
	/^HTML transferred:/ { html = $3 }
	/^Time taken for tests:/ { t = $5 }
	END {
		if (done != n "" || failed != "0" || non2xx != "") {
			printf "ab: %s of %d requests complete, %s failed, %s not 200\n",
				done == "" ? "none" : done, n, failed == "" ? "?" : failed,
				non2xx == "" ? "none" : non2xx
			exit 1
		}
		if (doclen != len "" || html != n * len "") {
			printf "ab: documents of %s bytes, %s bytes in all: expected %d and %d\n",
				doclen, html, len, n * len
			exit 1
		}
		if (t !~ /^[0-9]+(\.[0-9]+)?$/ || t + 0 <= 0) {
			printf "ab: no time for its %d requests (\"%s\")\n", n, t
			exit 1
		}
		print t
	}'
}
