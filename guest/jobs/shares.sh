# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# vCPU shares: one spinner per CPU, pinned, all counting rounds of the
# same busy loop over the same window of the guest's clock
# (hotcold.args=SECONDS, default 2); prints each CPU's rounds and share.
# Under -icount (scripts/vcpu-shares.sh boots it so) the clock counts
# every vCPU's instructions, so equal shares mean QEMU's round-robin TCG
# gave each busy vCPU its turn; a starved vCPU shows a small share.
set -u
# shellcheck source=../lib.sh
. /guest/lib.sh
SECS=${HOTCOLD_ARGS:-2}
N=$(nproc)
tap_begin
# the window: from 0.5 s after now, SECS long (CLOCK_MONOTONIC, ns, in the
# shell's 64-bit arithmetic: busybox awk's %d stops at 2^31)
# (the hundredths without a leading 0, which would read as octal)
up=$(cut -d' ' -f1 /proc/uptime)
cs=${up#*.}
cs=${cs#0}
now=$((${up%.*} * 1000000000 + cs * 10000000))
START=$((now + 500000000))
END=$((START + SECS * 1000000000))
cpu=0
while [ $cpu -lt "$N" ]; do
	taskset -c $cpu /guest/bin/spin $START $END >/tmp/spin.$cpu &
	cpu=$((cpu + 1))
done
wait
TOTAL=0
cpu=0
while [ $cpu -lt "$N" ]; do
	r=$(sed -n 's/^rounds=//p' /tmp/spin.$cpu)
	TOTAL=$((TOTAL + ${r:-0}))
	cpu=$((cpu + 1))
done
cpu=0
while [ $cpu -lt "$N" ]; do
	r=$(sed -n 's/^rounds=//p' /tmp/spin.$cpu)
	echo "hotcold-result shares cpus=$N cpu=$cpu rounds=${r:-0} share=$(awk -v r="${r:-0}" -v t="$TOTAL" 'BEGIN { printf "%.4f", t ? r / t : 0 }')"
	cpu=$((cpu + 1))
done
t_spun() {
	local cpu=0 r
	while [ $cpu -lt "$N" ]; do
		r=$(sed -n 's/^rounds=//p' /tmp/spin.$cpu)
		[ -n "$r" ] || die "cpu $cpu's spinner printed no count"
		cpu=$((cpu + 1))
	done
	[ "$TOTAL" -gt 0 ] || die "no rounds at all"
}
tap_run "every_cpu_spun" t_spun
tap_end
