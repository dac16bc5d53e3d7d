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
FLAVOURS="vanilla hotcold hotcold-bench debug single nopcp layout power rule-cold-first rule-cold-outside-high rule-cold-refill hotcap layer1"
# the flavours built with configs/kunit.config (and memory-hotplug.config):
# the test kernels, the only ones with test code
KUNIT_FLAVOURS="hotcold debug"
# (the bench-only flavours, a patch under bench/alternatives/ on the
# series or the baseline: bench/configs.tsv, bench_kernel below)

# CONFIG_BASE: what every flavour's .config starts from (docs/decisions.md,
# "The distro configuration"):
#   lean    tinyconfig + configs/base.config, in build/kernel-<flavour>
#   distro  Debian's linux-config-6.12 of the pinned source, its modules
#           off, + configs/distro.config (scripts/distro-config.sh, checked
#           by scripts/distro-check.py), in build/kernel-<flavour>-distro
# The flavour's own fragments (kunit.config, ...) go on top of either.
CONFIG_BASE=${CONFIG_BASE:-lean}
# (checked here, before any script builds or boots: fail is defined below)
case $CONFIG_BASE in
lean | distro) ;;
*) echo "hotcold: ${STEP:-setup}: FAILED: CONFIG_BASE=$CONFIG_BASE: expected lean or distro" >&2
	exit 1 ;;
esac

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

# flavour_fragments FLAVOUR: the config fragments a flavour is built with
# on CONFIG_BASE's starting point
flavour_fragments() {
	local frags="$ROOT/configs/base.config"

	[ "$CONFIG_BASE" = distro ] && frags="$ROOT/configs/distro.config"

	case " $KUNIT_FLAVOURS " in
	*" $1 "*) frags="$frags $ROOT/configs/kunit.config $ROOT/configs/memory-hotplug.config" ;;
	esac
	[ "$1" = debug ] && frags="$frags $ROOT/configs/debug.config"
	echo "$frags"
}

# check_no_test_code FLAVOUR: fail unless the built kernel of FLAVOUR has
# no KUnit in it (its .config): a measured kernel must carry no test code
check_no_test_code() {
	local config
	config=$(kernel_dir "$1")/.config
	[ -f "$config" ] || fail "no .config for the $1 kernel ($config) -- build it first"
	if grep -q '^CONFIG_KUNIT=y' "$config"; then
		fail "the $1 kernel carries KUnit (CONFIG_KUNIT=y in ${config#"$ROOT"/}) -- a measured kernel must be built without configs/kunit.config"
	fi
}

# bench_kernel FLAVOUR: "REF PATCH" of a kernel make bench boots that is
# built from a bench-only patch (bench/configs.tsv's source and patch
# columns, through bench/report.py configs kernels): the git ref it
# applies to (the series branch or the baseline tag) and the patch's
# path; nothing for any other flavour; status 1 (the reason above) if the
# table does not answer
bench_kernel() {
	local kernels
	kernels=$(python3 "$ROOT/bench/report.py" configs kernels) || return 1
	awk -v f="$1" -v series="$SERIES_BRANCH" -v baseline="$BASELINE_TAG" -v root="$ROOT" '
		$1 == f && $3 != "-" { print ($2 == "series" ? series : baseline) " " root "/" $3 }' <<<"$kernels"
}

# bench_alternatives: the flavours bench_kernel names a patch for
bench_alternatives() {
	python3 "$ROOT/bench/report.py" configs kernels | awk '$3 != "-" { printf "%s%s", s, $1; s = " " } END { print "" }'
}

# kernel_dir FLAVOUR: where the FLAVOUR kernel of CONFIG_BASE is built
kernel_dir() {
	echo "$BUILD/kernel-$1$(config_suffix)"
}

kernel_image() {
	echo "$(kernel_dir "$1")/arch/x86/boot/bzImage"
}

# modules_archive FLAVOUR: the FLAVOUR kernel's modules (scripts/modules.sh),
# which scripts/run-guest.sh appends to its boot: one per CONFIG_BASE, as
# modules load only into the kernel they were built against
modules_archive() {
	echo "$BUILD/modules-$1$(config_suffix).cpio.gz"
}

# resid_archive FLAVOUR: the residency meter's module for the FLAVOUR
# kernel (scripts/modules.sh), apart: only the meter's boots carry it
resid_archive() {
	echo "$BUILD/resid-$1$(config_suffix).cpio.gz"
}

# config_suffix: what CONFIG_BASE adds to a kernel's directory names
# (nothing for lean, whose kernels keep the names they had before distro)
config_suffix() {
	[ "$CONFIG_BASE" = lean ] || echo "-$CONFIG_BASE"
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

# The helpers by concern, beside this file (resolved through a link to it:
# scripts/tests/test_make_test.py links lib.sh into a stage of its own)
# shellcheck source=lib/image.sh
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/image.sh"
# shellcheck source=lib/settings.sh
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/settings.sh"
# shellcheck source=lib/bench.sh
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/bench.sh"
