# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Which workloads each boot of make bench runs (scripts/bench.sh sources
# it; scripts/tests/test_worklists.py tests it with a table of its own).
# Needs table COLUMN=VALUE..., which prints the names of the workload
# table's lines with those values (bench/workloads.tsv).
#
# A WORKLOADS list names workloads, or excludes them with -NAME.  A list
# of exclusions only means every workload but those; a list with names
# means those names, less any also excluded.  Boots are given names only:
# the guest reads a list of exclusions as "all but these", which would
# run workloads the boot cannot (the real programs without their
# archive).

# selected LIST CANDIDATE...: the candidates LIST selects, in their order
selected() {
	local list w names=0 out=''
	# shellcheck disable=SC2086,SC2116 # the echo joins the words with single spaces
	list=" $(echo $1) "
	shift
	for w in $list; do
		case $w in -*) ;; *) names=1 ;; esac
	done
	for w in "$@"; do
		case $list in *" -$w "*) continue ;; esac
		[ $names = 0 ] || case $list in *" $w "*) ;; *) continue ;; esac
		out="$out $w"
	done
	echo "${out# }"
}

# wall_lists: WALL_MAIN and WALL_PROG, the names the wall boots without
# and with the programs archive run (empty: no such boot), from
# WALL_WORKLOADS (empty: every workload but those of the fixed modes
# only, the sweeps)
wall_lists() {
	local all prog fixed w
	all=$(table) && prog=$(table boot=prog) && fixed=$(table modes=fixed) || return 1
	# shellcheck disable=SC2086,SC2116 # the echo joins the names with single spaces
	fixed=" $(echo $fixed) "
	# shellcheck disable=SC2086,SC2116 # the echo joins the names with single spaces
	prog=" $(echo $prog) "
	WALL_MAIN='' WALL_PROG=''
	# shellcheck disable=SC2086 # a list of names
	for w in $(selected "$WALL_WORKLOADS" $all); do
		case $fixed in *" $w "*) continue ;; esac
		case $prog in
		*" $w "*) WALL_PROG="$WALL_PROG $w" ;;
		*) WALL_MAIN="$WALL_MAIN $w" ;;
		esac
	done
	WALL_MAIN=${WALL_MAIN# } WALL_PROG=${WALL_PROG# }
}

# det_workloads PART: the names one deterministic boot (mem, disk, 2cpu,
# prog, sweep) runs, from DET_WORKLOADS (empty: every workload), or "none"
det_workloads() {
	local list fixed out
	list=$(table boot="$1" modes=det) && fixed=$(table boot="$1" modes=fixed) || return 1
	list="$list $fixed"
	# shellcheck disable=SC2086 # a list of names
	out=$(selected "$DET_WORKLOADS" $list)
	echo "${out:-none}"
}
