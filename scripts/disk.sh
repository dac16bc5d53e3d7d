#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the scratch disk build/disk.img: ext4 made with mke2fs -d, holding
# /big (a file larger than any guest's RAM, real data blocks so reads go to
# the device) and /corpus (text files for the shell workloads).  QEMU opens
# it with snapshot=on, so guests never change it.
. "$(dirname "$0")/lib.sh"
step disk

BIG_MB=${BIG_MB:-384}
out=$BUILD/disk.img
stamp="$BIG_MB $(hash_files "$0")"
[ -f "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ] && exit 0

log=$LOGS/disk.log
: >"$log"
stage=$BUILD/disk-root
rm -rf "$stage" "$out"
mkdir -p "$stage/corpus"
# Non-zero, deterministic contents: every block is allocated on disk.
(set +o pipefail
 yes "hotcold scratch data: the quick brown fox jumps over the lazy dog" |
	head -c "${BIG_MB}M") >"$stage/big" || fail "cannot write $stage/big (disk full?)"
cp -r "$ROOT/guest" "$stage/corpus/guest"
cp "$ROOT"/scripts/*.sh "$stage/corpus/" 2>/dev/null
run_logged "$log" "check free disk space in build/" \
	mke2fs -q -t ext4 -L scratch -d "$stage" -F "$out" "$((BIG_MB + 256))M"
rm -rf "$stage"
echo "$stamp" >"$out.stamp"
msg "scratch disk: ${out#"$ROOT"/} ($((BIG_MB + 256)) MB, /big = $BIG_MB MB)"
