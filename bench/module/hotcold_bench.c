// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold_bench: in-kernel page allocator microbenchmark, built against
 * each kernel flavour and loaded inside the guest.  On load it measures,
 * on one CPU, and prints "hotcold-result alloc_<name> ns_per_op=<n>":
 *
 *   pair        order-0 alloc_page() + __free_page()
 *   touch_hot   alloc, write the whole page, free (default allocation)
 *   touch_cold  the same with __GFP_COLD (plain allocation on vanilla)
 *   touch_cold_after_stream  touch_hot right after a burst of cold
 *               frees (reclaim-like), the case the series is for
 *
 * The job unloads it right after (a failing init would make busybox's
 * insmod retry with init_module() and run everything twice).
 */
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#ifndef __GFP_COLD
#define __GFP_COLD 0	/* vanilla 6.12 has no cold allocations */
#define free_cold_page(page, order) __free_pages(page, order)
#endif

static unsigned int iterations = 20000;
module_param(iterations, uint, 0444);
MODULE_PARM_DESC(iterations, "operations per measurement");

static u64 bench_pair(gfp_t gfp, bool touch)
{
	unsigned int i;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < iterations; i++) {
		struct page *page = alloc_page(gfp);

		if (!page)
			return 0;
		if (touch)
			memset(page_address(page), i, PAGE_SIZE);
		__free_page(page);
	}
	return (ktime_get_ns() - t0) / iterations;
}

/* Free a batch cold (as reclaim does), then measure hot alloc+touch. */
static u64 bench_after_cold_frees(unsigned int batch)
{
	struct page **pages;
	unsigned int i, n = 0;
	u64 ns;

	pages = kcalloc(batch, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return 0;
	for (i = 0; i < batch; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (pages[i])
			n++;
	}
	/* warm this CPU's hot list with a short loop of its own */
	bench_pair(GFP_KERNEL, true);
	for (i = 0; i < batch; i++)
		if (pages[i])
			free_cold_page(pages[i], 0);
	ns = bench_pair(GFP_KERNEL, true);
	kfree(pages);
	return n ? ns : 0;
}

static int __init hotcold_bench_init(void)
{
	migrate_disable();
	pr_info("hotcold-result alloc_pair ns_per_op=%llu\n",
		bench_pair(GFP_KERNEL, false));
	pr_info("hotcold-result alloc_touch_hot ns_per_op=%llu\n",
		bench_pair(GFP_KERNEL, true));
	pr_info("hotcold-result alloc_touch_cold ns_per_op=%llu\n",
		bench_pair(GFP_KERNEL | __GFP_COLD, true));
	pr_info("hotcold-result alloc_touch_after_cold_frees ns_per_op=%llu\n",
		bench_after_cold_frees(256));
	migrate_enable();
	return 0;
}
module_init(hotcold_bench_init);

static void __exit hotcold_bench_exit(void)
{
}
module_exit(hotcold_bench_exit);

MODULE_DESCRIPTION("hot/cold page allocator microbenchmark");
MODULE_LICENSE("GPL");
