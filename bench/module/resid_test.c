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
 * case that gets a class must fail, and only the name cases and the
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

/*
 * the classes the plugin counts under: rule * 2, + 1 when cold; a batch
 * whose label the plugin sets: rule * 2, + 32
 */
#define HOT(rule) ((rule) * 2)
#define COLD(rule) ((rule) * 2 + 1)
#define BATCH(rule) ((rule) * 2 + 32)

/* a frame: the function a return address is in, and the call before it */
#define F(fn, callee) { RESID_FN_##fn, RESID_FN_##callee }
#define NR(f) ((int)(sizeof(f) / sizeof((f)[0])))

int main(void)
{
	/* the probe and the tracepoint: no rule's functions */
#define PROBE F(OTHER, OTHER), F(OTHER, OTHER)
	/* vanilla: the loop is free_unref_folios()'s own, called by shrink_folio_list() */
	const struct resid_frame reclaim_vanilla[] = {
		PROBE, F(FREE_HOT, OTHER), F(SHRINK, FREE_HOT), F(OTHER, SHRINK), F(OTHER, OTHER),
	};
	/* the series: free_unref_folios_cold() tail-calls __free_unref_folios() */
	const struct resid_frame reclaim_series[] = {
		PROBE, F(BATCH, OTHER), F(SHRINK, FREE_COLD), F(OTHER, SHRINK), F(OTHER, OTHER),
	};
	const struct resid_frame reclaim_series_warm[] = {
		PROBE, F(BATCH, OTHER), F(SHRINK, FREE_HOT), F(OTHER, SHRINK),
	};
	/* folios_put_refs() tail-calls free_unref_folios(): free_pages_and_swap_cache() */
	const struct resid_frame exit_vanilla[] = {
		PROBE, F(FREE_HOT, OTHER), F(OTHER, OTHER), F(OTHER, OTHER), F(OTHER, OTHER),
		F(EXIT, OTHER), F(OTHER, EXIT),
	};
	/* __folios_put_refs() tail-calls the wrapper its cold argument picks */
	const struct resid_frame exit_series[] = {
		PROBE, F(BATCH, OTHER), F(OTHER, OTHER), F(OTHER, OTHER), F(OTHER, OTHER),
		F(EXIT, OTHER), F(OTHER, EXIT),
	};
	/* a compiler that kept __free_unref_folios() inside the cold wrapper */
	const struct resid_frame exit_inlined[] = {
		PROBE, F(FREE_COLD, OTHER), F(OTHER, OTHER), F(EXIT, OTHER),
	};
	/* a single page freed under exit_mmap (free_unref_page): not the rule's */
	const struct resid_frame exit_single_page[] = {
		PROBE, F(OTHER, OTHER), F(OTHER, OTHER), F(EXIT, OTHER),
	};
	/* a batch freed by a callee of shrink_folio_list (folios_put_refs) */
	const struct resid_frame shrink_callee[] = {
		PROBE, F(FREE_HOT, OTHER), F(OTHER, OTHER), F(SHRINK, OTHER),
	};
	/* munmap's batch: the default rule, its label the plugin's on the series */
	const struct resid_frame munmap_series[] = {
		PROBE, F(BATCH, OTHER), F(OTHER, OTHER), F(OTHER, OTHER),
	};
	const struct resid_frame readahead[] = {
		PROBE, F(OTHER, OTHER), F(READAHEAD, OTHER), F(OTHER, READAHEAD),
	};
	const struct resid_frame fault[] = {
		PROBE, F(OTHER, OTHER),
	};

	check("reclaim, vanilla (free_unref_folios from shrink_folio_list): hot",
	      resid_free_class(reclaim_vanilla, NR(reclaim_vanilla), 1), HOT(RESID_RECLAIM));
	check("reclaim, the series (shrink_folio_list calls free_unref_folios_cold): cold",
	      resid_free_class(reclaim_series, NR(reclaim_series), 1), COLD(RESID_RECLAIM));
	check("reclaim, the series' warm batch (free_unref_folios): hot",
	      resid_free_class(reclaim_series_warm, NR(reclaim_series_warm), 1),
	      HOT(RESID_RECLAIM));
	check("reclaim, the series with its switch at 0: hot",
	      resid_free_class(reclaim_series, NR(reclaim_series), 0), HOT(RESID_RECLAIM));
	check("exit, vanilla (free_unref_folios' own loop under exit_mmap): hot",
	      resid_free_class(exit_vanilla, NR(exit_vanilla), 1), HOT(RESID_EXIT));
	check("exit, the series (a tail call picked the wrapper): the plugin's label",
	      resid_free_class(exit_series, NR(exit_series), 1), BATCH(RESID_EXIT));
	check("exit, the series with its switch at 0: hot",
	      resid_free_class(exit_series, NR(exit_series), 0), HOT(RESID_EXIT));
	check("exit, the cold wrapper's own loop: cold",
	      resid_free_class(exit_inlined, NR(exit_inlined), 1), COLD(RESID_EXIT));
	check("a single page freed under exit_mmap: default, hot",
	      resid_free_class(exit_single_page, NR(exit_single_page), 1), HOT(RESID_DEFAULT));
	check("a batch freed by a callee of shrink_folio_list: default, hot",
	      resid_free_class(shrink_callee, NR(shrink_callee), 1), HOT(RESID_DEFAULT));
	check("munmap's batch on the series: default, the plugin's label",
	      resid_free_class(munmap_series, NR(munmap_series), 1), BATCH(RESID_DEFAULT));
	check("a stack cut before its batch's loop: default, hot",
	      resid_free_class(reclaim_series, 2, 1), HOT(RESID_DEFAULT));
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
	check("name: __free_unref_folios, the series' loop",
	      resid_fn_of("__free_unref_folios"), RESID_FN_BATCH);
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
