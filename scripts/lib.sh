# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # the names set here are for the scripts that source it
# Shared helpers for the host-side scripts.  Source it; do not run it.
#
# Every script names its current step with step(); fail() then prints one
# line "hotcold: <step>: <what went wrong> -- <what to do>", the last 40
# lines of the relevant log, and exits non-zero.  Every script that sources
# it runs with set -u: an unset variable is an error (${VAR:-} for an
# optional one).

set -u -o pipefail

ROOT=${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
LOGS=$BUILD/logs
TREE=$BUILD/linux
VANILLA_SRC=$BUILD/vanilla-src
BASELINE_TAG=baseline
SERIES_BRANCH=hotcold
FLAVOURS="vanilla hotcold debug single nopcp layout"
# bench-only flavours: a patch under bench/alternatives/ on top of ALT_BASE
# (the series branch or the baseline), built from build/NAME-src
ALT_FLAVOURS="single nopcp layout"
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

# lock_build: one make test or make bench at a time on this build/ (they
# rebuild shared stages, such as the guest image's staging directory).  A
# second run waits for the first.  The lock (an flock on build/.lock, fd 9)
# is held until the script and everything it started have exited; scripts
# it runs see HOTCOLD_BUILD_LOCK and do not take it again.
lock_build() {
	[ "${HOTCOLD_BUILD_LOCK:-}" = "$BUILD" ] && return 0
	command -v flock >/dev/null || fail "flock missing -- apt-get install util-linux"
	exec 9>"$BUILD/.lock" || fail "cannot open $BUILD/.lock"
	if ! flock -n 9; then
		msg "${BUILD#"$ROOT"/}/ is in use by another make test, make bench or image build (lock: $BUILD/.lock); waiting for it to finish"
		flock 9 || fail "cannot lock $BUILD/.lock"
	fi
	export HOTCOLD_BUILD_LOCK=$BUILD
}

# Hashes of the inputs a build depends on, so reruns can skip work.
hash_files() {
	cat "$@" 2>/dev/null | sha1sum | cut -c1-16
}

# deb_src_lists DIR [TYPES]: write the deb-src twin of every deb entry of
# the machine's apt sources (with TYPES "deb deb-src": the entry and its
# twin), for a private apt state under DIR that fetches from the
# configured Debian mirror without touching the system's: DIR/sources.list
# from the one-line lists (sources.list and sources.list.d/*.list),
# DIR/sources.list.d/system.sources from the deb822 stanzas with "Types:
# deb" (sources.list.d/*.sources).  Prints how many entries (lines and
# stanzas) it wrote.
deb_src_lists() {
	local dir=$1 types=${2:-deb-src} SL='' SP='' f t
	eval "$(apt-config shell SL Dir::Etc::sourcelist/f SP Dir::Etc::sourceparts/d)"
	[ -n "$SP" ] || fail "apt-config names no apt sources -- is apt installed?"
	mkdir -p "$dir/sources.list.d"
	for f in "$SL" "$SP"/*.list; do
		[ -f "$f" ] || continue
		for t in $types; do
			sed -n 's/^[[:space:]]*deb[[:space:]]\{1,\}/'"$t"' /p' "$f"
		done
	done >"$dir/sources.list"
	for f in "$SP"/*.sources; do
		[ -f "$f" ] || continue
		awk -v types="$types" 'BEGIN { RS = ""; FS = "\n" }
		{
			out = ""; deb = 0
			for (i = 1; i <= NF; i++) {
				line = $i
				if (tolower(line) ~ /^types:/) {
					n = split(substr(line, 7), t, /[ \t]+/)
					for (j = 1; j <= n; j++)
						if (t[j] == "deb")
							deb = 1
					line = "Types: " types
				}
				out = out line "\n"
			}
			if (deb)
				printf "%s\n", out
		}' "$f"
	done >"$dir/sources.list.d/system.sources"
	echo $(($(grep -c . "$dir/sources.list") + $(grep -c '^Types: ' "$dir/sources.list.d/system.sources")))
}
