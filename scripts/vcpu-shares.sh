#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How QEMU's round-robin TCG shares the guest's instructions among busy
# vCPUs under make bench's -icount (issue 30's scheduling question), in
# the QEMU that make bench boots with more than one vCPU (scripts/qemu.sh:
# Debian's, with turns): the vanilla kernel booted as the bench's Zen 3
# guest (EPYC-Milan) with N vCPUs, a spinner pinned on each
# (guest/jobs/shares.sh), and each vCPU's share of the rounds they
# counted in one window of the guest's clock.  Each N boots twice.
#
# Two checks per N: every vCPU's share is at least SHARE_MIN of a fair
# 1/N (default 0.95), and the second boot counted exactly the first's
# rounds on every vCPU (the turns change over at instruction counts, not
# at host times).  Prints a line per vCPU, a line per check, and
# "N passed, N failed" last; fails if any check failed.
#
# usage: scripts/vcpu-shares.sh [N...]   (default: 2 4 8; N from 2 to 8)
#        WINDOW=S (the window in guest seconds, default 2, 1 to 60)
#        SHARE_MIN=F (default 0.95)
#        SHARES_TIMEOUT=S (each boot's timeout, default 600, 30 to 3600)
#        QEMU=debian: boot Debian's own QEMU instead, which runs only the
#        first busy vCPU (the measurement behind the patch, and the
#        check's plant: it fails there)
. "$(dirname "$0")/lib.sh"
step shares

WINDOW=${WINDOW:-2}
SHARE_MIN=${SHARE_MIN:-0.95}
SHARES_TIMEOUT=${SHARES_TIMEOUT:-600}
setting_int WINDOW 1 60
setting_int SHARES_TIMEOUT 30 3600
[[ $SHARE_MIN =~ ^(0\.[0-9]+|1(\.0+)?)$ ]] ||
	fail "SHARE_MIN='$SHARE_MIN': expected a fraction from 0 to 1, such as 0.95"
case ${QEMU:-turns} in
turns | debian) ;;
*) fail "QEMU='$QEMU': expected turns (the default: build/qemu's, scripts/qemu.sh) or debian (the installed one)" ;;
esac
[ $# -gt 0 ] || set -- 2 4 8
for n in "$@"; do
	case $n in
	[2-8]) ;;
	*) fail "vCPUs '$n': expected a number from 2 to 8 (CONFIG_NR_CPUS=8)" ;;
	esac
done
[ -f "$(kernel_image vanilla)" ] || fail "no vanilla kernel -- run scripts/build-kernel.sh vanilla"
if [ "${QEMU:-turns}" = debian ]; then
	export HOTCOLD_QEMU=debian
	msg "QEMU=debian: Debian's own $(dpkg-query -W -f '${source:Version}' qemu-system-x86 2>/dev/null), without turns"
else
	"$ROOT/scripts/qemu.sh" || exit 1
fi
passed=0 failed=0
check() {
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
		echo "ok - $2"
	else
		failed=$((failed + 1))
		echo "not ok - $2"
	fi
}
for n in "$@"; do
	for b in 1 2; do
		"$ROOT/scripts/run-guest.sh" --quiet --icount --cpu EPYC-Milan --smp "$n" --no-disk \
			--timeout "$SHARES_TIMEOUT" --tag "smp$n-$b" vanilla shares "$WINDOW" || exit 1
		grep '^hotcold-result shares' "$LOGS/vanilla-shares-smp$n-$b.out" |
			sed 's/^hotcold-result shares //' >"$LOGS/shares-smp$n-$b.txt"
	done
	f=$LOGS/shares-smp$n-1.txt
	[ "$(grep -c '^cpus=' "$f")" = "$n" ] || fail "$n vCPUs: the guest reported $(grep -c '^cpus=' "$f") spinners, not $n (${f#"$ROOT"/})"
	sed 's/^/  /' "$f"
	min=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^share=/) { s = substr($i, 7) + 0; if (m == "" || s < m) m = s } }
		END { printf "%.4f", m }' "$f")
	if awk -v m="$min" -v n="$n" -v f="$SHARE_MIN" 'BEGIN { exit !(m >= f / n) }'; then r=ok; else r=fail; fi
	check $r "$n vCPUs: smallest share $min, at least $SHARE_MIN of a fair $(awk -v n="$n" 'BEGIN { printf "%.4f", 1 / n }')"
	if cmp -s "$f" "$LOGS/shares-smp$n-2.txt"; then r=ok; else r=fail; fi
	check $r "$n vCPUs: a second boot counted the same rounds on every vCPU"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
