// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the cachesim model (cache.h), driven from the host: access
 * patterns whose miss counts are known exactly.  TAP output; exit status
 * 0 only if every case passes.  Run by `make test` and `make bench`.
 */
#include <stdio.h>

#include "cache.h"

#define L1SIZE (48 * 1024)
#define L2SIZE (2 * 1024 * 1024)
#define LINE 64

static int n, failed;

static void check(const char *name, uint64_t got, uint64_t want)
{
	n++;
	if (got == want) {
		printf("ok %d - %s (%llu)\n", n, name, (unsigned long long)got);
		return;
	}
	printf("not ok %d - %s: got %llu, expected %llu\n", n, name,
	       (unsigned long long)got, (unsigned long long)want);
	failed++;
}

static void setup(struct cache *l1, struct cache *l2)
{
	if (cache_init(l1, L1SIZE, 12, LINE) || cache_init(l2, L2SIZE, 16, LINE)) {
		printf("Bail out! cache_init failed\n");
		exit(1);
	}
}

static void walk(struct cache *l1, struct cache *l2, uint64_t base, uint64_t bytes,
		 uint64_t stride, int passes, struct cache_stats *st)
{
	uint64_t off;

	while (passes--)
		for (off = 0; off < bytes; off += stride)
			hier_access(l1, l2, base + off, 8, st);
}

int main(void)
{
	struct cache l1, l2;
	struct cache_stats st;
	uint8_t nop[7] = { 0x0f, 0x1f, 0x80, 0x01, 0x00, 0x43, 0x48 };

	printf("TAP version 13\n");

	/* a loop over twice the L1 thrashes LRU: every access misses L1 */
	setup(&l1, &l2);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x100000, 2 * L1SIZE, LINE, 2, &st);
	check("stride walk over 2x L1, 2 passes: L1 misses", st.l1_misses, 2 * 2 * L1SIZE / LINE);
	check("stride walk over 2x L1, 2 passes: L2 misses (first pass only)",
	      st.l2_misses, 2 * L1SIZE / LINE);

	/* half the L1 fits: the second pass hits */
	cache_free(&l1);
	cache_free(&l2);
	setup(&l1, &l2);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x200000, L1SIZE / 2, LINE, 3, &st);
	check("walk over L1/2, 3 passes: L1 misses (first pass only)", st.l1_misses, L1SIZE / 2 / LINE);
	check("walk over L1/2, 3 passes: accesses", st.accesses, 3 * L1SIZE / 2 / LINE);

	/* every word of a line: one miss per line */
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x400000, 4096, 8, 1, &st);
	check("4 KB page written 8 bytes at a time: L1 misses", st.l1_misses, 4096 / LINE);

	/* 13 lines of one L1 set (stride = sets * line) cycled: 12 ways thrash */
	cache_free(&l1);
	cache_free(&l2);
	setup(&l1, &l2);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0, 13 * 64 * LINE, 64 * LINE, 2, &st);
	check("13 lines in one 12-way L1 set, 2 passes: L1 misses", st.l1_misses, 26);
	check("13 lines in one 12-way L1 set, 2 passes: L2 misses (16-way holds them)",
	      st.l2_misses, 13);

	/* LRU, not FIFO: re-touching the oldest line protects it */
	cache_free(&l1);
	cache_free(&l2);
	setup(&l1, &l2);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0, 12 * 64 * LINE, 64 * LINE, 1, &st);	/* fill set 0 */
	hier_access(&l1, &l2, 0, 8, &st);			/* line 0 becomes MRU */
	hier_access(&l1, &l2, 12 * 64 * LINE, 8, &st);		/* evicts line 1 */
	hier_access(&l1, &l2, 0, 8, &st);			/* hit */
	check("LRU keeps a re-touched line: L1 misses", st.l1_misses, 13);
	hier_access(&l1, &l2, 64 * LINE, 8, &st);		/* line 1 was evicted */
	check("LRU evicts the least recently used line", st.l1_misses, 14);

	/* an access crossing a line boundary touches both lines */
	memset(&st, 0, sizeof(st));
	hier_access(&l1, &l2, 0x900000 + LINE - 4, 8, &st);
	check("unaligned 8-byte access across a line: lines touched", st.accesses, 2);

	/* a device wrote a page: its lines are gone from L1 and L2 */
	cache_free(&l1);
	cache_free(&l2);
	setup(&l1, &l2);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x800000, 4096, LINE, 1, &st);
	for (uint64_t off = 0; off < 4096; off += LINE) {
		cache_invalidate(&l1, 0x800000 + off);
		cache_invalidate(&l2, 0x800000 + off);
	}
	cache_invalidate(&l1, 0x900000);	/* absent: nothing happens */
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x800000, 4096, LINE, 1, &st);
	check("page invalidated (DMA): every line misses L2 again", st.l2_misses, 64);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x800000, 4096, LINE, 1, &st);
	check("and hits after it was read", st.l1_misses, 0);

	/* fully associative (ways = 0): capacity misses only */
	cache_free(&l1);
	cache_free(&l2);
	if (cache_init(&l1, L1SIZE, 0, LINE) || cache_init(&l2, L2SIZE, 0, LINE)) {
		printf("Bail out! fully associative cache_init failed\n");
		return 1;
	}
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x100000, 2 * L1SIZE, LINE, 2, &st);
	check("fully associative: walk over 2x L1, 2 passes: L1 misses", st.l1_misses,
	      2 * 2 * L1SIZE / LINE);
	check("fully associative: L2 misses (first pass only)", st.l2_misses, 2 * L1SIZE / LINE);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x10000000, 13 * 64 * LINE, 64 * LINE, 2, &st);
	check("fully associative: 13 lines of one set index, 2 passes: no conflict misses",
	      st.l1_misses, 13);
	/* LRU: fill, re-touch the oldest, add one: the second oldest goes */
	cache_free(&l1);
	if (cache_init(&l1, L1SIZE, 0, LINE))
		return 1;
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x20000000, L1SIZE, LINE, 1, &st);
	hier_access(&l1, &l2, 0x20000000, 8, &st);
	hier_access(&l1, &l2, 0x20000000 + L1SIZE, 8, &st);
	hier_access(&l1, &l2, 0x20000000, 8, &st);
	check("fully associative: LRU keeps a re-touched line", st.l1_misses, L1SIZE / LINE + 1);
	hier_access(&l1, &l2, 0x20000000 + LINE, 8, &st);
	check("fully associative: LRU evicts the least recently used line", st.l1_misses,
	      L1SIZE / LINE + 2);
	memset(&st, 0, sizeof(st));
	for (uint64_t off = 0; off < 4096; off += LINE) {
		cache_invalidate(&l1, 0x20000000 + 8192 + off);
		cache_invalidate(&l2, 0x20000000 + 8192 + off);
	}
	walk(&l1, &l2, 0x20000000 + 8192, 4096, LINE, 1, &st);
	check("fully associative: invalidated page misses L1 and L2 again", st.l1_misses + st.l2_misses,
	      128);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x30000000, 4 * L1SIZE, LINE, 1, &st);	/* reuses freed nodes */
	check("fully associative: still full-size after invalidations", st.l1_misses, 4 * L1SIZE / LINE);
	cache_free(&l1);
	cache_free(&l2);
	setup(&l1, &l2);

	/* the hash-and-list LRU against the plain one (one set of 64 ways) */
	{
		struct cache fa, ref;
		uint64_t x = 88172645463325252ull, same = 0, i;

		if (cache_init(&fa, 64 * LINE, 0, LINE) || cache_init(&ref, 64 * LINE, 64, LINE))
			return 1;
		for (i = 0; i < 200000; i++) {
			uint64_t addr;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			addr = (x % 200) * LINE;
			if (x % 17 == 0) {
				cache_invalidate(&fa, addr);
				cache_invalidate(&ref, addr);
				same++;
				continue;
			}
			same += cache_access(&fa, addr) == cache_access(&ref, addr);
		}
		check("fully associative LRU = 64-way single-set LRU on 200000 random accesses",
		      same, 200000);
		cache_free(&fa);
		cache_free(&ref);
	}

	/* geometry checks */
	check("48 KB 12-way 64 B: 64 sets", l1.sets, 64);
	check("2 MB 16-way 64 B: 2048 sets", l2.sets, 2048);
	{
		struct cache bad;

		check("rejects 40 KB 12-way (sets not a power of two)",
		      cache_init(&bad, 40 * 1024, 12, LINE) != NULL, 1);
		check("rejects a 48-byte line", cache_init(&bad, L1SIZE, 12, 48) != NULL, 1);
	}

	/* the phase markers */
	check("marker: begin", phase_marker(nop, 7), PHASE_MAGIC_BEGIN);
	nop[3] = 0x02;
	check("marker: end", phase_marker(nop, 7), PHASE_MAGIC_END);
	nop[3] = 0x03;
	check("marker: DMA", phase_marker(nop, 7), DMA_MAGIC);
	nop[3] = 0x04;
	check("marker: other displacement is ordinary code", phase_marker(nop, 7), 0);
	check("marker: other length is ordinary code", phase_marker(nop, 6), 0);

	cache_free(&l1);
	cache_free(&l2);
	printf("1..%d\n", n);
	printf("# cachesim model: %d passed, %d failed\n", n - failed, failed);
	return failed != 0;
}
