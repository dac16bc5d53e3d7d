# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# End-to-end check of the cachesim plugin (scripts/cachesim.sh runs it):
# measured phases of known user-mode miss counts, see phase.c: two walks
# (L1D misses) and a file read behind DMA markers (last-level misses),
# after a marker left pending outside any phase.
# hotcold.args=L1SIZE (bytes, the plugin's l1size).
set -u
# shellcheck disable=SC2086 # the arguments, one per word
set -- $HOTCOLD_ARGS
L1=${1:-49152}
echo "hotcold-phase walk_2xL1 $(taskset -c 0 /guest/bin/phase walk $((2 * L1)) 4)"
echo "hotcold-phase walk_halfL1 $(taskset -c 0 /guest/bin/phase walk $((L1 / 2)) 4)"
# a marker left pending before the phase (a killed reader's) is not lost in it
taskset -c 0 /guest/bin/phase orphan
echo "hotcold-phase dma $(taskset -c 0 /guest/bin/phase dma 16)"
