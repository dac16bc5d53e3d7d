/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make bench's seeded layout per round (scripts/build-kernel.sh with
 * LAYOUT_PAD): force-included into each of the objects lib.sh's
 * LAYOUT_POINTS names (the first of kernel/, of mm/, mm/'s first after
 * page-alloc.o and init-mm.o, the first of fs/), it grows that object's .data, .bss,
 * __read_mostly data and static per-CPU data by 0-63 cache lines each,
 * so that everything linked after it (in link order, section by section)
 * moves to other sets of the L1D, which its 64 sets index within 4 KB.
 * Each round boots every kernel at pads of its own, and a layout effect
 * becomes noise the rounds sample, not a bias one binary carries into
 * every round (Stabilizer's argument).  No text: the cache model counts
 * data accesses only.  Nothing calls or reads the pads.  Never part of
 * patches/; no source tree carries it.
 */
#if !defined(HOTCOLD_PAD_DATA) || !defined(HOTCOLD_PAD_BSS) || \
	!defined(HOTCOLD_PAD_MOSTLY) || !defined(HOTCOLD_PAD_PERCPU)
#error "bench/layout-pad.h: build with -DHOTCOLD_PAD_DATA=N -DHOTCOLD_PAD_BSS=N -DHOTCOLD_PAD_MOSTLY=N -DHOTCOLD_PAD_PERCPU=N"
#endif

#if HOTCOLD_PAD_DATA > 0
static char hotcold_pad_data[HOTCOLD_PAD_DATA * 64] __attribute__((__used__)) = { 1 };
#endif

#if HOTCOLD_PAD_BSS > 0
static char hotcold_pad_bss[HOTCOLD_PAD_BSS * 64] __attribute__((__used__));
#endif

#if HOTCOLD_PAD_MOSTLY > 0
static char hotcold_pad_mostly[HOTCOLD_PAD_MOSTLY * 64]
	__attribute__((__used__, __section__(".data..read_mostly"))) = { 1 };
#endif

#if HOTCOLD_PAD_PERCPU > 0
static char hotcold_pad_percpu[HOTCOLD_PAD_PERCPU * 64]
	__attribute__((__used__, __section__(".data..percpu"))) = { 1 };
#endif
