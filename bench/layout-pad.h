/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make bench's seeded layout per round (scripts/build-kernel.sh with
 * LAYOUT_PAD="TEXT DATA BSS"): force-included into init/init_task.o, the
 * last object of init/, whose .text, .data and .bss it grows by TEXT,
 * DATA and BSS cache lines (0-63 each: every one of the L1's 64 sets).
 * Every object linked after init/ (arch/, kernel/, mm/, fs/, ...) moves
 * by that much, so each round boots its kernels at a layout of their own
 * and a layout effect becomes noise the rounds sample, not a bias fixed
 * per binary (Stabilizer's argument).  Nothing calls or reads it.  Never
 * part of patches/; no source tree carries it.
 */
#if !defined(HOTCOLD_PAD_TEXT) || !defined(HOTCOLD_PAD_DATA) || !defined(HOTCOLD_PAD_BSS)
#error "bench/layout-pad.h: build with -DHOTCOLD_PAD_TEXT=N -DHOTCOLD_PAD_DATA=N -DHOTCOLD_PAD_BSS=N"
#endif

#if HOTCOLD_PAD_DATA > 0
static char hotcold_pad_data[HOTCOLD_PAD_DATA * 64] __attribute__((__used__)) = { 1 };
#endif

#if HOTCOLD_PAD_BSS > 0
static char hotcold_pad_bss[HOTCOLD_PAD_BSS * 64] __attribute__((__used__));
#endif

#if HOTCOLD_PAD_TEXT > 0
#define HOTCOLD_PAD_STR_(x) #x
#define HOTCOLD_PAD_STR(x) HOTCOLD_PAD_STR_(x)
static void __attribute__((__used__, __noinline__)) hotcold_pad_text(void)
{
	asm volatile(".skip " HOTCOLD_PAD_STR(HOTCOLD_PAD_TEXT) " * 64, 0x90");
}
#endif
