// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the residency meter's rules (resid_rules.h): the stacks of
 * the frees and allocations each rule names, as vanilla and the series
 * make them, and the class each must get.  TAP output; exit status 0 only
 * if every case passes.  bench/tests/test_residency.py builds and runs it.
 *
 * The expected classes are written out here (HOT, COLD), not with the
 * header's RESID_CLASS, so that the planted fault shows: built with
 * -DRESID_PLANT_SWAP_LABELS (hot and cold swapped in RESID_CLASS), every
 * case that gets a class must fail (13), and only the name cases and the
 * allocation no rule names pass.
 */
#include <stdio.h>
#include <string.h>

#include "resid_rules.h"

static int n, failed;

static void check(const char *name, long got, long want)
{
	n++;
	if (got == want) {
		printf("ok %d - %s (%ld)\n", n, name, got);
		return;
	}
	printf("not ok %d - %s: got %ld, expected %ld\n", n, name, got, want);
	failed++;
}

/* the classes the plugin counts under: rule * 2, + 1 when cold */
#define HOT(rule) ((rule) * 2)
#define COLD(rule) ((rule) * 2 + 1)

/* a frame: the function a return address is in, and the call before it */
#define F(fn, callee) { RESID_FN_##fn, RESID_FN_##callee }
#define NR(f) ((int)(sizeof(f) / sizeof((f)[0])))

int main(void)
{
	/* the probe, the tracepoint, __free_unref_folios: no rule's function */
	const struct resid_frame reclaim_vanilla[] = {
		F(OTHER, OTHER), F(OTHER, OTHER), F(OTHER, OTHER),
		F(SHRINK, FREE_HOT), F(OTHER, SHRINK), F(OTHER, OTHER),
	};
	/* free_unref_folios_cold tail-calls: its caller's call names it */
	const struct resid_frame reclaim_series[] = {
		F(OTHER, OTHER), F(OTHER, OTHER), F(OTHER, OTHER),
		F(SHRINK, FREE_COLD), F(OTHER, SHRINK), F(OTHER, OTHER),
	};
	/* tlb_batch_pages_flush, free_pages_and_swap_cache, folios_put_refs */
	const struct resid_frame exit_vanilla[] = {
		F(OTHER, OTHER), F(OTHER, OTHER), F(OTHER, FREE_HOT), F(OTHER, OTHER),
		F(OTHER, OTHER), F(OTHER, OTHER), F(EXIT, OTHER), F(OTHER, EXIT),
	};
	const struct resid_frame exit_series[] = {
		F(OTHER, OTHER), F(OTHER, OTHER), F(OTHER, FREE_COLD), F(OTHER, OTHER),
		F(OTHER, OTHER), F(OTHER, OTHER), F(EXIT, OTHER), F(OTHER, EXIT),
	};
	/* a single page freed under exit_mmap (free_unref_page): not the rule's */
	const struct resid_frame exit_single_page[] = {
		F(OTHER, OTHER), F(OTHER, OTHER), F(OTHER, OTHER), F(EXIT, OTHER),
	};
	/* a batch freed inside shrink_folio_list's callees (a split, say) */
	const struct resid_frame shrink_callee[] = {
		F(OTHER, OTHER), F(OTHER, FREE_HOT), F(OTHER, OTHER), F(SHRINK, OTHER),
	};
	/* munmap's batch: the default rule */
	const struct resid_frame munmap[] = {
		F(OTHER, OTHER), F(OTHER, FREE_HOT), F(OTHER, OTHER), F(OTHER, OTHER),
	};
	const struct resid_frame readahead[] = {
		F(OTHER, OTHER), F(OTHER, OTHER), F(OTHER, OTHER), F(READAHEAD, OTHER),
		F(OTHER, READAHEAD),
	};
	const struct resid_frame fault[] = {
		F(OTHER, OTHER), F(OTHER, OTHER), F(OTHER, OTHER),
	};

	check("reclaim, vanilla (free_unref_folios from shrink_folio_list): hot",
	      resid_free_class(reclaim_vanilla, NR(reclaim_vanilla), 1),
	      HOT(RESID_RECLAIM));
	check("reclaim, the series (free_unref_folios_cold): cold",
	      resid_free_class(reclaim_series, NR(reclaim_series), 1),
	      COLD(RESID_RECLAIM));
	check("reclaim, the series with its switch at 0: hot",
	      resid_free_class(reclaim_series, NR(reclaim_series), 0),
	      HOT(RESID_RECLAIM));
	check("exit, vanilla (folios_put_refs under exit_mmap): hot",
	      resid_free_class(exit_vanilla, NR(exit_vanilla), 1), HOT(RESID_EXIT));
	check("exit, the series' large mm: cold",
	      resid_free_class(exit_series, NR(exit_series), 1), COLD(RESID_EXIT));
	check("a single page freed under exit_mmap: default, hot",
	      resid_free_class(exit_single_page, NR(exit_single_page), 1),
	      HOT(RESID_DEFAULT));
	check("a batch freed by a callee of shrink_folio_list: default, hot",
	      resid_free_class(shrink_callee, NR(shrink_callee), 1),
	      HOT(RESID_DEFAULT));
	check("munmap's batch: default, hot",
	      resid_free_class(munmap, NR(munmap), 1), HOT(RESID_DEFAULT));
	check("a stack cut before its batch call: default, hot",
	      resid_free_class(reclaim_series, 3, 1), HOT(RESID_DEFAULT));
	check("readahead asking __GFP_COLD: cold",
	      resid_alloc_class(readahead, NR(readahead), 1, 1), COLD(RESID_READAHEAD));
	check("readahead on vanilla (no __GFP_COLD): hot",
	      resid_alloc_class(readahead, NR(readahead), 0, 1), HOT(RESID_READAHEAD));
	check("readahead asking cold, switch at 0: hot",
	      resid_alloc_class(readahead, NR(readahead), 1, 0), HOT(RESID_READAHEAD));
	check("a page fault's allocation: not counted",
	      resid_alloc_class(fault, NR(fault), 0, 1), -1);
	check("classes: rule * 2 + cold", RESID_CLASS(RESID_EXIT, 1), 5);

	/* the names as sprint_symbol_no_offset() prints them */
	check("name: shrink_folio_list", resid_fn_of("shrink_folio_list"), RESID_FN_SHRINK);
	check("name: a compiler's part, shrink_folio_list.cold",
	      resid_fn_of("shrink_folio_list.cold"), RESID_FN_SHRINK);
	check("name: padding, __pfx_free_unref_folios_cold",
	      resid_fn_of("__pfx_free_unref_folios_cold"), RESID_FN_FREE_COLD);
	check("name: free_unref_folios is not free_unref_folios_cold",
	      resid_fn_of("free_unref_folios"), RESID_FN_FREE_HOT);
	check("name: a longer name is another function",
	      resid_fn_of("exit_mmap_lock"), RESID_FN_OTHER);
	check("name: a module's symbol is none of the kernel's",
	      resid_fn_of("exit_mmap [somemod]"), RESID_FN_OTHER);
	check("name: an address without a symbol", resid_fn_of("0xffffffff81000000"),
	      RESID_FN_OTHER);

	printf("1..%d\n", n);
	printf("# residency rules: %d passed, %d failed\n", n - failed, failed);
	return failed != 0;
}
