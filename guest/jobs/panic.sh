# SPDX-License-Identifier: GPL-2.0
# Panic the kernel on purpose: the harness must report it as a failure
# with the log tail (make test runs this as a self-test of the runner).
echo c >/proc/sysrq-trigger
