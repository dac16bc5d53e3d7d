#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The pcp_hotcold KUnit suite the way upstream runs KUnit: the tree's own
# tools/testing/kunit/kunit.py with the series' mm/.kunitconfig, on User
# Mode Linux (a kernel that runs as an ordinary host process: nothing is
# loaded into the host's kernel).  Objects in build/kunit-uml.  The raw
# log is then read by scripts/results.py like the QEMU boots' consoles:
# one "ok|FAIL uml: kunit pcp_hotcold.CASE" line per case, COUNT last.
#
# usage: scripts/kunit-uml.sh
. "$(dirname "$0")/lib.sh"
step kunit-uml
lock_build

"$ROOT/scripts/tree.sh" sync || exit 1
out=$BUILD/kunit-uml
log=$LOGS/kunit-uml.log
mkdir -p "$out"
: >"$log"
msg "kunit.py run --kunitconfig mm on UML (log: ${log#"$ROOT"/})"
# kunit.py's exit status says whether every test passed; results.py says
# which, and fails on a missing suite or a crash, so the status is not
# used here
(cd "$TREE" && python3 tools/testing/kunit/kunit.py run --kunitconfig mm \
	--build_dir "$out" --jobs "$(nproc)" --make_options CC="ccache gcc" \
	--raw_output=all --timeout 600) >"$log" 2>&1
rc=$?
[ -s "$log" ] || fail "kunit.py printed nothing (exit $rc)"
python3 "$ROOT/scripts/results.py" --expect-suite pcp_hotcold uml "$log" /dev/null
