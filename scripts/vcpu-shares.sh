#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How QEMU's round-robin TCG shares the guest's instructions among busy
# vCPUs under make bench's -icount (issue 30's scheduling question): the
# vanilla kernel booted as the bench's Zen 3 guest (EPYC-Milan) with N
# vCPUs, a spinner pinned on each (guest/jobs/shares.sh), and each vCPU's
# share of the rounds they counted in one window of the guest's clock.
# Prints a line per vCPU and, per N, the smallest share against 1/N.
#
# usage: scripts/vcpu-shares.sh [N...]   (default: 2 4 8; N from 2 to 8)
#        WINDOW=S (the window in guest seconds, default 2, 1 to 60)
. "$(dirname "$0")/lib.sh"
step shares

WINDOW=${WINDOW:-2}
setting_int WINDOW 1 60
[ $# -gt 0 ] || set -- 2 4 8
for n in "$@"; do
	case $n in
	[2-8]) ;;
	*) fail "vCPUs '$n': expected a number from 2 to 8 (CONFIG_NR_CPUS=8)" ;;
	esac
done
[ -f "$(kernel_image vanilla)" ] || fail "no vanilla kernel -- run scripts/build-kernel.sh vanilla"
for n in "$@"; do
	"$ROOT/scripts/run-guest.sh" --quiet --icount --cpu EPYC-Milan --smp "$n" --no-disk \
		--timeout 600 --tag "smp$n" vanilla shares "$WINDOW" || exit 1
	grep '^hotcold-result shares' "$LOGS/vanilla-shares-smp$n.out" | sed 's/^hotcold-result shares //'
	grep '^hotcold-result shares' "$LOGS/vanilla-shares-smp$n.out" | awk -v n="$n" '
		{ for (i = 1; i <= NF; i++) if ($i ~ /^share=/) { s = substr($i, 7) + 0; if (min == "" || s < min) min = s } }
		END { printf "%d vCPUs: smallest share %.4f (fair: %.4f)\n", n, min, 1 / n }'
done
