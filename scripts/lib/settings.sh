# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # the names set here are for the scripts that source lib.sh
# Settings checked before anything is built (sourced by scripts/lib.sh,
# whose fail it uses).

# Settings: the environment variables a script takes (make bench's ROUNDS,
# QUICK, ...), each checked before the script builds, boots or writes
# anything, so that a bad value fails at once with one line naming the
# setting, its value and the values it takes ("ROUNDS=abc: expected a
# whole number from 1 to 20").  The caller gives an unset or empty setting
# its default first (NAME=${NAME:-DEFAULT}), then checks it:
#   setting_int NAME MIN MAX    a whole number (digits, no leading zero)
#                               from MIN to MAX
#   setting_bool NAME           0 or 1
#   setting_choice NAME WORD... one of the WORDs
#   setting_words NAME WORD...  one or more of the WORDs, each once
#   setting_name NAME MAX       a name for a file or directory: letters,
#                               digits, '.', '_' and '-', starting with a
#                               letter or digit, at most MAX characters
setting_int() {
	local v=${!1-} min=$2 max=$3

	# (no more digits than MAX: test's integers are 64-bit)
	case $v in
	'' | *[!0-9]* | 0?*) ;;
	*) [ ${#v} -le ${#max} ] && [ "$v" -ge "$min" ] && [ "$v" -le "$max" ] && return 0 ;;
	esac
	fail "$1=$v: expected a whole number from $min to $max"
}

setting_bool() {
	setting_choice "$1" 0 1
}

setting_choice() {
	local name=$1 v=${!1-} w

	shift
	for w in "$@"; do
		[ "$v" = "$w" ] && return 0
	done
	fail "$name=$v: expected $(or_list "$@")"
}

setting_words() {
	local name=$1 v=${!1-} w seen=' ' bad=0
	local -a words=()

	shift
	# (words between spaces, as the callers' case " $NAME " patterns see
	# them; read, not $v unquoted: no word is a glob pattern)
	IFS=' ' read -r -d '' -a words < <(printf '%s' "$v") || true
	for w in "${words[@]}"; do
		case " $* " in *" $w "*) ;; *) bad=1 ;; esac
		case $seen in *" $w "*) bad=1 ;; esac
		seen="$seen$w "
	done
	[ "$bad" = 0 ] && [ ${#words[@]} -gt 0 ] && return 0
	fail "$name=$v: expected one or more of: $* (each once)"
}

setting_name() {
	local v=${!1-} max=$2

	# (bash's ranges are ASCII ones: globasciiranges, on since 5.0)
	case $v in
	'' | [!A-Za-z0-9]* | *[!A-Za-z0-9._-]*) ;;
	*) [ ${#v} -le "$max" ] && return 0 ;;
	esac
	fail "$1=$v: expected a name of 1 to $max letters, digits, '.', '_' or '-', starting with a letter or digit"
}

# or_list WORD...: the words for a message, "a", "a or b", "a, b or c"
or_list() {
	local out=$1

	shift
	while [ $# -gt 1 ]; do
		out="$out, $1"
		shift
	done
	[ $# = 0 ] || out="$out or $1"
	echo "$out"
}
