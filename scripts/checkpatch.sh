#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the tree's checkpatch.pl --strict on every patch of patches/series.
# Prints "ok NAME" or "FAIL NAME" per patch followed by checkpatch's report.
. "$(dirname "$0")/lib.sh"
step checkpatch

[ -x "$TREE/scripts/checkpatch.pl" ] || fail "no build/linux -- run scripts/tree.sh setup"
[ -f "$ROOT/patches/series" ] || exit 0
rc=0
# shellcheck disable=SC2013 # patch names have no spaces
for p in $(grep -v '^#' "$ROOT/patches/series"); do
	# Debian's python3 first: with its ply and git modules (python3-ply,
	# python3-git) the SPDX check runs; without them it is silently skipped
	out=$(cd "$TREE" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --color=never \
		--summary-file "$ROOT/patches/$p" 2>&1)
	if echo "$out" | grep -q 'total: 0 errors, 0 warnings, 0 checks'; then
		echo "ok $p"
	else
		echo "FAIL $p"
		# shellcheck disable=SC2001 # prefixes every line
		echo "$out" | sed 's/^/    /'
		rc=1
	fi
done
exit $rc
