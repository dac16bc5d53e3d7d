#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the scratch disk build/disk.img: ext4 made with mke2fs -d, holding
# /big (a file larger than any guest's RAM, real data blocks so reads go to
# the device) and /corpus (text files for the shell workloads: guest/ and
# scripts/*.sh).  QEMU opens it with snapshot=on, so guests never change
# it.  It is reproducible (scripts/lib/image.sh's ext4_image): the same BIG_MB, corpus
# and e2fsprogs give the same bytes.
. "$(dirname "$0")/lib.sh"
step disk
# (the modes staged are the sources', whatever the caller's umask)
umask 022

# /big's size in MB: at least the bench guests' RAM (scripts/lib/bench.sh's
# BENCH_GUEST_MB), so that reading it reclaims (make test's reclaim test;
# reclaim_flood maps 96 MB of it); the upper bound catches a mistyped
# value
BIG_MB=${BIG_MB:-$BENCH_GUEST_MB}
setting_int BIG_MB "$BENCH_GUEST_MB" 4096
# (usage: scripts/disk.sh [settings]: settings only checks BIG_MB, for
# scripts/bench.sh, which checks every setting before it starts)
[ "${1:-}" = settings ] && exit 0
out=$BUILD/disk.img
# the corpus's names and contents are inputs of the image too
corpus=$(cd "$ROOT" && find guest scripts/*.sh -type f -print0 | LC_ALL=C sort -z |
	xargs -0 sha1sum | sha1sum | cut -c1-16)
stamp="$BIG_MB $(hash_files "$0") $corpus"
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
ext4_image "$stage" "$out" "$((BIG_MB + 256))M" scratch \
	6f746f68-636c-6f64-0000-000000000003 6f746f68-636c-6f64-0000-000000000004 "$log"
rm -rf "$stage"
echo "$stamp" >"$out.stamp"
msg "scratch disk: ${out#"$ROOT"/} ($((BIG_MB + 256)) MB, /big = $BIG_MB MB)"
