/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The residency meter's rules (hotcold_resid.c), kept apart from the
 * kernel so that a host test (resid_test.c) can check them: which rule a
 * page free or allocation falls under, and whether the kernel put the
 * page cold, read from the return addresses on its kernel stack.
 *
 * A frame is one return address: the function it returns into (fn) and,
 * when the instruction before it is a direct call, the function that call
 * named (callee); innermost first.
 *
 * The rules are the call sites the series labels, found the same way on
 * every kernel, so that vanilla (no labels) is measured on the frees the
 * series would label.  A batch is a free from the loop of
 * free_unref_folios() (vanilla) or of __free_unref_folios(), which the
 * series' free_unref_folios() and free_unref_folios_cold() tail-call:
 *   reclaim    a batch shrink_folio_list() frees: its calls of
 *              free_unref_folios() (vanilla; the series' warm batch) and
 *              free_unref_folios_cold() (the series' cold batch)
 *   exit       a batch freed under exit_mmap() (the teardown's mmu_gather:
 *              the series frees it cold when the mm is larger than the
 *              CPU's cache slice)
 *   readahead  an allocation of readahead (page_cache_ra_unbounded(),
 *              page_cache_ra_order()): cold when it asked __GFP_COLD
 *   default    every other free (free_unref_page(), the other batches)
 *   plant      the meter's own check: a page the module has just written,
 *              counted as if a rule had freed it cold
 * The label is the call the kernel made, when the kernel honours cold
 * hints (vm.percpu_pagelist_hot_cold not 0; else hot): a single page is
 * hot; a batch is cold when it went through free_unref_folios_cold(),
 * read from the stack where it can be (the call instruction of the
 * batch's caller names the wrapper, or the loop's frame is the wrapper's
 * own), else left to the plugin (RESID_LABEL_BATCH: the series'
 * __folios_put_refs() tail-calls the wrapper its cold argument picks, so
 * no frame names it; the plugin saw which wrapper this vCPU entered
 * last); an allocation is cold when it asked __GFP_COLD.
 */
#ifndef HOTCOLD_RESID_RULES_H
#define HOTCOLD_RESID_RULES_H

enum resid_rule {
	RESID_DEFAULT,
	RESID_RECLAIM,
	RESID_EXIT,
	RESID_READAHEAD,
	RESID_PLANT,
	RESID_NR_RULES
};

/*
 * The class the plugin counts a page under (the line of the page the
 * marker's load reads: bench/cachesim/residency.h): its rule and label.
 * (RESID_PLANT_SWAP_LABELS: the planted fault of resid_test.c, hot and
 * cold swapped, which its label cases must fail.)
 */
#ifdef RESID_PLANT_SWAP_LABELS
#define RESID_CLASS(rule, cold) ((rule) * 2 + !(cold))
#else
#define RESID_CLASS(rule, cold) ((rule) * 2 + !!(cold))
#endif
/*
 * a batch whose label the stack does not name: the plugin sets the cold
 * bit by the wrapper this vCPU entered last (bench/cachesim/residency.h)
 */
#define RESID_LABEL_BATCH 32

#ifndef ARRAY_SIZE	/* (the host test's) */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* the functions the rules name */
enum resid_fn {
	RESID_FN_OTHER,
	RESID_FN_SHRINK,	/* shrink_folio_list */
	RESID_FN_EXIT,		/* exit_mmap */
	RESID_FN_READAHEAD,	/* readahead's allocating functions */
	RESID_FN_FREE_HOT,	/* free_unref_folios */
	RESID_FN_FREE_COLD,	/* free_unref_folios_cold (the series, single) */
	RESID_FN_BATCH,		/* __free_unref_folios (the series, single) */
};

struct resid_frame {
	enum resid_fn fn, callee;
};

static const struct {
	const char *name;
	enum resid_fn fn;
} resid_fns[] = {
	{ "shrink_folio_list", RESID_FN_SHRINK },
	{ "exit_mmap", RESID_FN_EXIT },
	{ "page_cache_ra_unbounded", RESID_FN_READAHEAD },
	{ "page_cache_ra_order", RESID_FN_READAHEAD },
	{ "ra_alloc_folio", RESID_FN_READAHEAD },
	{ "free_unref_folios", RESID_FN_FREE_HOT },
	{ "free_unref_folios_cold", RESID_FN_FREE_COLD },
	{ "__free_unref_folios", RESID_FN_BATCH },
};

/*
 * The function a symbol name is, as sprint_symbol_no_offset() prints it:
 * "name", a compiler's part of it ("name.cold", "name.constprop.0"), its
 * padding ("__pfx_name"), or a module's ("name [mod]": never one of ours).
 */
static inline enum resid_fn resid_fn_of(const char *sym)
{
	unsigned int i, len;

	if (!__builtin_strncmp(sym, "__pfx_", 6))
		sym += 6;
	for (len = 0; sym[len] && sym[len] != '.' && sym[len] != ' '; len++)
		;
	if (sym[len] == ' ')
		return RESID_FN_OTHER;
	for (i = 0; i < ARRAY_SIZE(resid_fns); i++)
		if (__builtin_strlen(resid_fns[i].name) == len &&
		    !__builtin_strncmp(resid_fns[i].name, sym, len))
			return resid_fns[i].fn;
	return RESID_FN_OTHER;
}

static inline int resid_is_wrapper(enum resid_fn fn)
{
	return fn == RESID_FN_FREE_HOT || fn == RESID_FN_FREE_COLD;
}

/* A page free's class, from its N frames; honoured: cold hints are. */
static inline unsigned int resid_free_class(const struct resid_frame *f, int n, int honoured)
{
	unsigned int rule = RESID_DEFAULT, flag = 0;
	int i, b, cold = 0;

	/* the batch's loop: the innermost frame in it */
	for (b = 0; b < n; b++)
		if (resid_is_wrapper(f[b].fn) || f[b].fn == RESID_FN_BATCH)
			break;
	if (b == n)
		return RESID_CLASS(RESID_DEFAULT, 0);
	if (f[b].fn != RESID_FN_BATCH)
		cold = f[b].fn == RESID_FN_FREE_COLD;
	else if (b + 1 < n && resid_is_wrapper(f[b + 1].callee))
		cold = f[b + 1].callee == RESID_FN_FREE_COLD;
	else
		flag = RESID_LABEL_BATCH;
	if (!honoured) {
		cold = 0;
		flag = 0;
	}
	/* the batch's caller: shrink_folio_list() calling a wrapper */
	if (b + 1 < n && f[b + 1].fn == RESID_FN_SHRINK && resid_is_wrapper(f[b + 1].callee)) {
		rule = RESID_RECLAIM;
	} else {
		for (i = b + 1; i < n; i++)
			if (f[i].fn == RESID_FN_EXIT)
				rule = RESID_EXIT;
	}
	return RESID_CLASS(rule, cold) | flag;
}

/*
 * A page allocation's class, from its N frames, or -1 when no rule names
 * it (only readahead's are counted); cold_request: it asked __GFP_COLD.
 */
static inline int resid_alloc_class(const struct resid_frame *f, int n, int cold_request,
				    int honoured)
{
	int i;

	for (i = 0; i < n; i++)
		if (f[i].fn == RESID_FN_READAHEAD)
			return RESID_CLASS(RESID_READAHEAD, cold_request && honoured);
	return -1;
}

#endif
