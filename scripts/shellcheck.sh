#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run shellcheck over the harness's shell scripts (make unit does, and so
# make test in its harness stage).  It passes with no finding: each one is
# fixed, or justified where it is, "# shellcheck disable=SCxxxx # reason"
# on the line before.  The guest's scripts (busybox ash) are checked as
# dash scripts.
. "$(dirname "$0")/lib.sh"
step shellcheck

command -v shellcheck >/dev/null ||
	fail "shellcheck missing -- run scripts/deps.sh test (as root), or: apt-get install shellcheck"
cd "$ROOT" || fail "cannot enter $ROOT"
files=(scripts/*.sh scripts/lib/*.sh guest/init guest/*.sh guest/jobs/*.sh guest/bench/*.sh guest/tests/*.sh)
shellcheck -x -P SCRIPTDIR "${files[@]}" >&2 ||
	fail "shellcheck findings (above) -- fix each, or justify it with '# shellcheck disable=SCxxxx # reason' on the line before"
msg "shellcheck: ${#files[@]} scripts, no finding"
