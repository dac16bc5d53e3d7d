# SPDX-License-Identifier: GPL-2.0
# Boot to the shell and report how long it took (the first benchmark).
echo "hotcold-result boot uptime_s=$(cut -d' ' -f1 /proc/uptime)"
