# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# Panic the kernel on purpose: the harness must report it as a failure
# with the log tail (make test runs this as a self-test of the runner,
# run-guest.sh --expect-panic, which fails on anything but a panic).
set -u
echo c >/proc/sysrq-trigger
sleep 5
echo "hotcold: panic: the kernel is still running after the sysrq crash trigger (CONFIG_MAGIC_SYSRQ?)"
exit 1
