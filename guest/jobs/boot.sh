# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# Boot to the shell and report how long it took (the first benchmark).
set -u
echo "hotcold-result boot uptime_s=$(cut -d' ' -f1 /proc/uptime)"
