// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold_bench: in-kernel page allocator microbenchmark, built against
 * each kernel flavour and loaded inside the guest.  On load it measures,
 * on one CPU, and prints "hotcold-result alloc_<name> ns_per_op=<n>":
 *
 *   pair        order-0 alloc_page() + __free_page()
 *   touch_hot   alloc, write the whole page, free (default allocation)
 *   touch_cold  the same with __GFP_COLD (plain allocation on vanilla)
 *
 * (Cold frees are mm-internal since v2 of the series: free_cold_page() is
 * not exported, so a module cannot make them; the scenarios in
 * guest/jobs/bench.sh cover them.)
 *
 * The job unloads it right after (a failing init would make busybox's
 * insmod retry with init_module() and run everything twice).
 */
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/string.h>

#ifndef __GFP_COLD
#define __GFP_COLD 0	/* vanilla 6.12 has no cold allocations */
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

static int __init hotcold_bench_init(void)
{
	migrate_disable();
	pr_info("hotcold-result alloc_pair ns_per_op=%llu\n",
		bench_pair(GFP_KERNEL, false));
	pr_info("hotcold-result alloc_touch_hot ns_per_op=%llu\n",
		bench_pair(GFP_KERNEL, true));
	pr_info("hotcold-result alloc_touch_cold ns_per_op=%llu\n",
		bench_pair(GFP_KERNEL | __GFP_COLD, true));
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
