# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# Interactive busybox shell on the serial console (make shell).
set -u
echo "hotcold: $(uname -r), $(nproc) CPUs; scratch disk on /mnt; 'exit' powers off"
setsid cttyhack sh -l
