# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the host-side scripts.  Source it; do not run it.
#
# Every script names its current step with step(); fail() then prints one
# line "hotcold: <step>: <what went wrong> -- <what to do>", the last 40
# lines of the relevant log, and exits non-zero.

set -o pipefail

ROOT=${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
LOGS=$BUILD/logs
TREE=$BUILD/linux
VANILLA_SRC=$BUILD/vanilla-src
BASELINE_TAG=baseline
SERIES_BRANCH=hotcold
FLAVOURS="vanilla hotcold debug"
GIT_AUTHOR="Hotcold Developers <hotcold@example.org>"

# shellcheck source=../source.conf
. "$ROOT/source.conf"

mkdir -p "$LOGS"

STEP=${STEP:-setup}

step() {
	STEP=$1
}

msg() {
	echo "hotcold: $*" >&2
}

# fail "what went wrong -- what to do" [log file to show the tail of]
fail() {
	local what=$1 log=${2:-}

	if [ -n "$log" ] && [ -s "$log" ]; then
		echo "----- last 40 lines of $log -----" >&2
		tail -n 40 "$log" >&2
		echo "-----" >&2
	fi
	echo "hotcold: $STEP: FAILED: $what" >&2
	exit 1
}

# run_logged LOG "what to do if it fails" cmd args...
run_logged() {
	local log=$1 fix=$2

	shift 2
	if ! "$@" >>"$log" 2>&1; then
		fail "'$*' failed (log: ${log#"$ROOT"/}) -- $fix" "$log"
	fi
}

valid_flavour() {
	case " $FLAVOURS " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

check_flavour() {
	valid_flavour "$1" ||
		fail "unknown kernel flavour '$1' -- use one of: $FLAVOURS"
}

kernel_dir() {
	echo "$BUILD/kernel-$1"
}

kernel_image() {
	echo "$BUILD/kernel-$1/arch/x86/boot/bzImage"
}

now() {
	date +%s
}

# Hashes of the inputs a build depends on, so reruns can skip work.
hash_files() {
	cat "$@" 2>/dev/null | sha1sum | cut -c1-16
}
