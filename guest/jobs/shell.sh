# SPDX-License-Identifier: GPL-2.0
# Interactive busybox shell on the serial console (make shell).
echo "hotcold: $(uname -r), $(nproc) CPUs; scratch disk on /mnt; 'exit' powers off"
setsid cttyhack sh -l
