// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the cachesim model (cache.h), driven from the host: access
 * patterns whose miss counts are known exactly.  TAP output; exit status
 * 0 only if every case passes.  Run by `make test` and `make bench`.
 *
 * The planted fault of the coherence cases: built with
 * -DCACHESIM_PLANT_NO_COHERENCE (cache.h's coh_access() then does
 * nothing, the model before coherence), the invalidation and transfer
 * cases must fail and the one-vCPU case must still pass:
 *   gcc -O2 -DCACHESIM_PLANT_NO_COHERENCE -o /tmp/t bench/cachesim/test.c && /tmp/t
 * The planted fault of the residency cases: built with
 * -DCACHESIM_PLANT_RESID_SWAP (residency.h counts a page under the other
 * label of its rule: hot and cold swapped), the cases that read a class's
 * counts must fail.
 */
#include <stdio.h>

#include "cache.h"
#include "residency.h"

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

static void walk_kind(const struct hier *h, uint64_t base, uint64_t bytes, uint64_t stride,
		      int passes, int kind, struct cache_stats *st)
{
	uint64_t off;

	while (passes--)
		for (off = 0; off < bytes; off += stride)
			hier_access(h, base + off, 8, kind, st);
}

/* the v1 cases: loads through the two-level hierarchy */
static void walk(struct cache *l1, struct cache *l2, uint64_t base, uint64_t bytes,
		 uint64_t stride, int passes, struct cache_stats *st)
{
	struct hier h = { .level = { l1, l2 }, .levels = 2, .string_fill = 1 };

	walk_kind(&h, base, bytes, stride, passes, ACC_LOAD, st);
}

static void load(struct cache *l1, struct cache *l2, uint64_t addr, struct cache_stats *st)
{
	struct hier h = { .level = { l1, l2 }, .levels = 2, .string_fill = 1 };

	hier_access(&h, addr, 8, ACC_LOAD, st);
}

#define L1M(st) stat_sum((st).misses[0])
#define L2M(st) stat_sum((st).misses[1])
#define L3M(st) stat_sum((st).misses[2])
#define ACC(st) stat_sum((st).accesses)

/* a Zen 3 core: 32 KB 8-way L1D, 512 KB 8-way L2, 32 MB 16-way L3 */
#define Z_L1 (32 * 1024)
#define Z_L2 (512 * 1024)
#define Z_L3 (32 * 1024 * 1024)

static void three_level_cases(void)
{
	struct cache l1[2], l2[2], l3;
	struct hier h[2];
	struct cache_stats st;
	static const struct {
		const char *name;
		uint8_t b[5];
		size_t len;
		int rep, store;
	} insns[] = {
		{ "rep stosq", { 0xf3, 0x48, 0xab }, 3, 1, 1 },
		{ "rep stosb", { 0xf3, 0xaa }, 2, 1, 1 },
		{ "rep movsq", { 0xf3, 0x48, 0xa5 }, 3, 1, 1 },
		{ "fs: rep stosb", { 0x64, 0xf3, 0xaa }, 3, 1, 1 },
		{ "rep lodsb (a load)", { 0xf3, 0xac }, 2, 1, 0 },
		{ "repne scasb", { 0xf2, 0xae }, 2, 1, 0 },
		{ "stosq without rep", { 0x48, 0xab }, 2, 0, 0 },
		{ "popcnt (f3 prefix)", { 0xf3, 0x48, 0x0f, 0xb8, 0xc0 }, 5, 0, 0 },
		{ "rep ret", { 0xf3, 0xc3 }, 2, 0, 0 },
	};
	int i;

	if (cache_init(&l3, Z_L3, 16, LINE)) {
		printf("Bail out! cache_init L3 failed\n");
		exit(1);
	}
	for (i = 0; i < 2; i++) {
		if (cache_init(&l1[i], Z_L1, 8, LINE) || cache_init(&l2[i], Z_L2, 8, LINE)) {
			printf("Bail out! cache_init failed\n");
			exit(1);
		}
		h[i] = (struct hier){ .level = { &l1[i], &l2[i], &l3 }, .levels = 3,
				      .string_fill = 1 };
	}
	check("32 MB 16-way 64 B: 32768 sets", l3.sets, 32768);

	/* 256 KB: past L1, within the private L2 */
	memset(&st, 0, sizeof(st));
	walk_kind(&h[0], 0x1000000, 256 * 1024, LINE, 2, ACC_LOAD, &st);
	check("3 levels: 256 KB walked twice: L1 misses (both passes)", L1M(st), 2 * 4096);
	check("3 levels: 256 KB walked twice: L2 misses (first pass only)", L2M(st), 4096);
	check("3 levels: 256 KB walked twice: L3 misses (first pass only)", L3M(st), 4096);
	check("3 levels: loads are counted as loads", st.misses[0][ACC_LOAD], 2 * 4096);

	/* the other vCPU reads it: its private L2 is cold, the shared L3 is not */
	memset(&st, 0, sizeof(st));
	walk_kind(&h[1], 0x1000000, 256 * 1024, LINE, 1, ACC_LOAD, &st);
	check("3 levels: another vCPU's read: misses its private L2", L2M(st), 4096);
	check("3 levels: another vCPU's read: hits the shared L3", L3M(st), 0);

	/* 2 MB: past the L2, within the L3 */
	memset(&st, 0, sizeof(st));
	walk_kind(&h[0], 0x4000000, 2 * 1024 * 1024, LINE, 2, ACC_LOAD, &st);
	check("3 levels: 2 MB walked twice: L2 misses (both passes)", L2M(st), 2 * 32768);
	check("3 levels: 2 MB walked twice: L3 misses (first pass only)", L3M(st), 32768);

	/* stores and string stores are counted apart from loads */
	memset(&st, 0, sizeof(st));
	walk_kind(&h[0], 0x8000000, 4096, 8, 1, ACC_STORE, &st);
	check("3 levels: a page stored 8 bytes at a time: store accesses",
	      st.accesses[ACC_STORE], 512);
	check("3 levels: ... store misses at L1, L2, L3",
	      st.misses[0][ACC_STORE] + st.misses[1][ACC_STORE] + st.misses[2][ACC_STORE], 3 * 64);
	check("3 levels: ... no load counted", stat_sum(st.misses[0]) - st.misses[0][ACC_STORE], 0);

	/* the full-line store switch: with a fill, a string store misses every
	 * level; without, only L1, and the lower levels are not even looked up */
	memset(&st, 0, sizeof(st));
	walk_kind(&h[0], 0x9000000, 4096, 8, 1, ACC_STRING, &st);
	check("string stores, filled: misses at L1, L2, L3",
	      st.misses[0][ACC_STRING] * 100 + st.misses[1][ACC_STRING] * 10000 +
	      st.misses[2][ACC_STRING] * 1000000, 64 * 100 + 64 * 10000 + 64 * 1000000);
	h[0].string_fill = 0;
	memset(&st, 0, sizeof(st));
	walk_kind(&h[0], 0xa000000, 4096, 8, 1, ACC_STRING, &st);
	check("string stores, full-line (no fill): L1 misses", st.misses[0][ACC_STRING], 64);
	check("string stores, full-line (no fill): no L2 or L3 miss",
	      st.misses[1][ACC_STRING] + st.misses[2][ACC_STRING], 0);
	memset(&st, 0, sizeof(st));
	walk_kind(&h[1], 0xa000000, 4096, LINE, 1, ACC_LOAD, &st);
	check("string stores, full-line (no fill): the L3 was not filled either", L3M(st), 64);
	h[0].string_fill = 1;

	/* a device write drops the page from every level of one hierarchy */
	for (uint64_t off = 0; off < 4096; off += LINE) {
		hier_invalidate(&h[1], 0x1000000 + off);
		hier_invalidate(&h[0], 0x1000000 + off);
	}
	memset(&st, 0, sizeof(st));
	walk_kind(&h[0], 0x1000000, 4096, LINE, 1, ACC_LOAD, &st);
	check("3 levels: invalidated page misses L1, L2 and L3 again", L1M(st) + L2M(st) + L3M(st),
	      3 * 64);

	/* which instructions are rep string instructions, and stores */
	for (i = 0; i < (int)(sizeof(insns) / sizeof(insns[0])); i++) {
		char name[96];

		snprintf(name, sizeof(name), "%s: a rep string instruction %d, a store %d",
			 insns[i].name, insns[i].rep, insns[i].store);
		check(name, is_rep_string(insns[i].b, insns[i].len) * 10 +
		      is_rep_string_store(insns[i].b, insns[i].len), insns[i].rep * 10 + insns[i].store);
	}

	for (i = 0; i < 2; i++) {
		cache_free(&l1[i]);
		cache_free(&l2[i]);
	}
	cache_free(&l3);
}

/*
 * NR vCPUs' hierarchies (Zen 3's geometry with three levels, v1's with
 * two), under one coherence (coherent) or none
 */
struct machine {
	struct cache l1[2], l2[2], shared;
	struct hier h[2], *hs[2];
	struct coherence coh;
	unsigned int nr;
};

static void machine_init(struct machine *m, unsigned int levels, unsigned int nr, int coherent)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->nr = nr;
	if (levels == 3 ? cache_init(&m->shared, Z_L3, 16, LINE) :
			  cache_init(&m->shared, L2SIZE, 16, LINE)) {
		printf("Bail out! cache_init shared failed\n");
		exit(1);
	}
	for (i = 0; i < nr; i++) {
		struct hier *h = &m->h[i];

		if (levels == 3 ? cache_init(&m->l1[i], Z_L1, 8, LINE) ||
				  cache_init(&m->l2[i], Z_L2, 8, LINE) :
				  cache_init(&m->l1[i], L1SIZE, 12, LINE) != NULL) {
			printf("Bail out! cache_init failed\n");
			exit(1);
		}
		h->level[0] = &m->l1[i];
		h->level[1] = levels == 3 ? &m->l2[i] : &m->shared;
		h->level[2] = levels == 3 ? &m->shared : NULL;
		h->levels = levels;
		h->string_fill = 1;
		m->hs[i] = h;
	}
	if (coherent && coh_init(&m->coh, m->hs, nr)) {
		printf("Bail out! coh_init failed\n");
		exit(1);
	}
}

static void machine_free(struct machine *m)
{
	unsigned int i;

	for (i = 0; i < m->nr; i++) {
		cache_free(&m->l1[i]);
		cache_free(&m->l2[i]);
	}
	cache_free(&m->shared);
	coh_free(&m->coh);
}

/* how many lines of [base, base + bytes) a private level of h holds */
static uint64_t private_lines(const struct hier *h, uint64_t base, uint64_t bytes)
{
	uint64_t off, n = 0;

	for (off = 0; off < bytes; off += LINE)
		n += hier_holds_private(h, base + off);
	return n;
}

#define XF(st) stat_sum((st).xfers)
#define PAGE 0x7000000ull

/* the cases of coherence, with three levels (Zen 3) or two (v1) */
static void coherence_cases(unsigned int levels)
{
	struct machine m;
	struct cache_stats st;
	unsigned int last = levels - 1;
	char name[160];

#define CASE(text) (snprintf(name, sizeof(name), "coherence, %u levels: %s", levels, text), name)
	/* a store invalidates the other vCPU's private copies */
	machine_init(&m, levels, 2, 1);
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[0], PAGE, 4096, LINE, 1, ACC_LOAD, &st);
	walk_kind(&m.h[1], PAGE, 4096, LINE, 1, ACC_LOAD, &st);
	check(CASE("both vCPUs read a page: each holds its 64 lines"),
	      private_lines(&m.h[0], PAGE, 4096) + private_lines(&m.h[1], PAGE, 4096), 128);
	walk_kind(&m.h[1], PAGE, 4096, 8, 1, ACC_STORE, &st);
	check(CASE("vCPU 1 writes it: vCPU 0's private levels hold none of it (invalidated)"),
	      private_lines(&m.h[0], PAGE, 4096), 0);
	check(CASE("... and the writer keeps its own"), private_lines(&m.h[1], PAGE, 4096), 64);
	{
		uint64_t off, n = 0;

		for (off = 0; off < 4096; off += LINE)
			n += cache_probe(&m.shared, PAGE + off);
		check(CASE("... the shared level keeps the page"), n, 64);
	}

	/* a load of a line the other vCPU holds modified: a transfer */
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[0], PAGE, 4096, LINE, 1, ACC_LOAD, &st);
	check(CASE("vCPU 0 reads the page vCPU 1 wrote: 64 L1D misses"), L1M(st), 64);
	check(CASE("... 64 cross-core transfers"), XF(st), 64);
	check(CASE("... no hit and no miss at the shared level"), stat_sum(st.misses[last]), 0);
	check(CASE("... transfers counted as loads"), st.xfers[ACC_LOAD], 64);
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[0], PAGE, 4096, LINE, 1, ACC_LOAD, &st);
	walk_kind(&m.h[1], PAGE, 4096, LINE, 1, ACC_LOAD, &st);
	check(CASE("then both read it again: every line hits L1D, no transfer (shared, clean)"),
	      L1M(st) * 1000 + XF(st), 0);

	/* a store to a line the other vCPU holds modified: a transfer too */
	walk_kind(&m.h[1], PAGE, 4096, 8, 1, ACC_STORE, &st);	/* vCPU 1 owns it again */
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[0], PAGE, 4096, 8, 1, ACC_STORE, &st);
	check(CASE("vCPU 0 writes what vCPU 1 wrote: 64 store transfers (read for ownership)"),
	      st.xfers[ACC_STORE], 64);
	check(CASE("... and vCPU 1 lost its copies"), private_lines(&m.h[1], PAGE, 4096), 0);
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[0], PAGE, 4096, 8, 1, ACC_STORE, &st);
	check(CASE("the owner writes again: all hits, no transfer"), L1M(st) * 1000 + XF(st), 0);

	/* a full-line rep string store (no fill) moves no data */
	m.h[1].string_fill = 0;
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[1], PAGE, 4096, 8, 1, ACC_STRING, &st);
	check(CASE("full-line string stores over the other vCPU's modified page: 64 L1D misses"),
	      L1M(st), 64);
	check(CASE("... no transfer (no read), the owner's copies invalidated"),
	      XF(st) * 1000 + private_lines(&m.h[0], PAGE, 4096), 0);
	m.h[1].string_fill = 1;

	/* the owner evicted the line since: no transfer, the shared level serves */
	walk_kind(&m.h[0], PAGE + 0x100000, 4096, 8, 1, ACC_STORE, &st);
	walk_kind(&m.h[0], 0x40000000, 2 * (levels == 3 ? Z_L2 : L1SIZE), LINE, 1, ACC_LOAD, &st);
	check(CASE("vCPU 0 wrote a page and evicted it from its private levels"),
	      private_lines(&m.h[0], PAGE + 0x100000, 4096), 0);
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[1], PAGE + 0x100000, 4096, LINE, 1, ACC_LOAD, &st);
	check(CASE("... vCPU 1 reads it: no transfer, the shared level hits"),
	      XF(st) * 1000 + stat_sum(st.misses[last]), 0);

	/*
	 * the owner evicted its copy (a write-back) and read the line again:
	 * a clean copy, so the other vCPU's read is no transfer; had it
	 * written the line again, the read would be one
	 */
	walk_kind(&m.h[0], PAGE + 0x300000, 4096, 8, 1, ACC_STORE, &st);
	walk_kind(&m.h[0], PAGE + 0x400000, 4096, 8, 1, ACC_STORE, &st);
	walk_kind(&m.h[0], 0x40000000, 2 * (levels == 3 ? Z_L2 : L1SIZE), LINE, 1, ACC_LOAD, &st);
	check(CASE("vCPU 0 wrote two pages and evicted them from its private levels"),
	      private_lines(&m.h[0], PAGE + 0x300000, 4096) +
	      private_lines(&m.h[0], PAGE + 0x400000, 4096), 0);
	walk_kind(&m.h[0], PAGE + 0x300000, 4096, LINE, 1, ACC_LOAD, &st);
	walk_kind(&m.h[0], PAGE + 0x400000, 4096, LINE, 1, ACC_STORE, &st);	/* one per line */
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[1], PAGE + 0x300000, 4096, LINE, 1, ACC_LOAD, &st);
	check(CASE("... read one again (clean): vCPU 1's read of it is no transfer, the shared "
		   "level hits"), XF(st) * 1000 + stat_sum(st.misses[last]), 0);
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[1], PAGE + 0x400000, 4096, LINE, 1, ACC_LOAD, &st);
	check(CASE("... wrote the other again: vCPU 1's read of it, 64 transfers"), XF(st), 64);

	/*
	 * a device write: no vCPU holds the page modified any more, so once
	 * vCPU 0 has read the device's data (clean, from memory), vCPU 1's
	 * read is served by the shared level, not by a transfer
	 */
	walk_kind(&m.h[0], PAGE + 0x200000, 4096, 8, 1, ACC_STORE, &st);
	for (uint64_t off = 0; off < 4096; off += LINE) {
		hier_invalidate(&m.h[0], PAGE + 0x200000 + off);
		hier_invalidate(&m.h[1], PAGE + 0x200000 + off);
		coh_forget(&m.coh, PAGE + 0x200000 + off, m.l1[0].line_shift);
	}
	{
		uint64_t off, n = 0;

		for (off = 0; off < 4096; off += LINE)
			n += coh_owner(&m.coh, (PAGE + 0x200000 + off) >> m.l1[0].line_shift) != 0;
		check(CASE("a device wrote a page vCPU 0 had written: no owner left"), n, 0);
	}
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[0], PAGE + 0x200000, 4096, LINE, 1, ACC_LOAD, &st);
	check(CASE("a page a device wrote after vCPU 0's stores: vCPU 0 reads it from memory"),
	      stat_sum(st.misses[last]), 64);
	memset(&st, 0, sizeof(st));
	walk_kind(&m.h[1], PAGE + 0x200000, 4096, LINE, 1, ACC_LOAD, &st);
	check(CASE("... then vCPU 1 reads it: no transfer, the shared level hits"),
	      XF(st) * 1000 + stat_sum(st.misses[last]), 0);
	machine_free(&m);
#undef CASE
}

/*
 * What the model before coherence (bench/cachesim/cache.h of commit
 * 7b8fdb3) counted on coherence_changes_nothing()'s random stream, vCPU
 * by vCPU: that cache.h, built once with a copy of the stream's loop
 * (no coh_forget(), which it did not have), printed them.
 */
static const struct {
	unsigned int levels, nr, vcpu;
	uint64_t accesses[NR_ACC];
	uint64_t misses[MAX_LEVELS][NR_ACC];
} before[] = {
	/* 3 levels, 1 vCPU */
	{ 3, 1, 0, { 138152, 137129, 137745 },
	  { { 137641, 136591, 137223 }, { 129635, 128536, 64755 }, { 49600, 48812, 24752 } } },
	/* 2 levels, 1 vCPU */
	{ 2, 1, 0, { 138152, 137129, 137745 },
	  { { 137368, 136303, 136949 }, { 105633, 104440, 52608 }, { 0, 0, 0 } } },
	/* 3 levels, 2 vCPUs */
	{ 3, 2, 0, { 69444, 68743, 69229 },
	  { { 69182, 68447, 68957 }, { 65208, 64554, 32532 }, { 38791, 38296, 19261 } } },
	{ 3, 2, 1, { 68708, 68386, 68516 },
	  { { 68449, 68137, 68290 }, { 64559, 64223, 32224 }, { 38514, 38329, 19291 } } },
};

/*
 * One vCPU: the coherent model counts what the model before coherence
 * counted (before[]), counter for counter, on a random stream of loads,
 * stores, string stores (with and without the fill) and device writes;
 * and so do two vCPUs that share no line.  Both with a coherence
 * attached (coherent: coh_init() with one vCPU too, which the plugin
 * never does) and without (the plugin's one-vCPU boots: h.coh NULL).
 */
static void coherence_changes_nothing(unsigned int levels, unsigned int nr, int coherent)
{
	struct machine a;
	struct cache_stats sa[2];
	uint64_t x = 0x2545f4914f6cdd1dull, i, differ = 0;
	unsigned int v, l, k, found = 0;
	char name[200];

	machine_init(&a, levels, nr, coherent);
	memset(sa, 0, sizeof(sa));
	for (i = 0; i < 400000; i++) {
		unsigned int kind;
		uint64_t addr;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = nr > 1 ? x >> 60 & 1 : 0;
		/* 8 MB per vCPU: past every private level; disjoint between vCPUs */
		addr = (uint64_t)v << 32 | (x >> 8) % (8 << 20);
		kind = x % 3;
		a.h[v].string_fill = x >> 40 & 1;
		if (x % 97 == 0) {
			hier_invalidate(&a.h[v], addr);
			coh_forget(&a.coh, addr, a.l1[0].line_shift);
			continue;
		}
		hier_access(&a.h[v], addr, 1u << (x >> 50 & 3), kind, &sa[v]);
	}
	for (i = 0; i < sizeof(before) / sizeof(before[0]); i++) {
		if (before[i].levels != levels || before[i].nr != nr)
			continue;
		v = before[i].vcpu;
		found++;
		for (k = 0; k < NR_ACC; k++) {
			differ += sa[v].accesses[k] != before[i].accesses[k];
			differ += sa[v].xfers[k] != 0;
			for (l = 0; l < MAX_LEVELS; l++)
				differ += sa[v].misses[l][k] != before[i].misses[l][k];
		}
	}
	snprintf(name, sizeof(name), "%s, %u levels, %u vCPU%s: %s: counters other than "
		 "the model before coherence counted", coherent ? "coherence" : "no coherence",
		 levels, nr, nr > 1 ? "s" : "", nr > 1 ? "no shared line" : "400000 random accesses");
	check(name, found == nr ? differ : 1000 + found, 0);
	machine_free(&a);
}

/* calls=: '+' a counter, '/' an address more for it; bad values change nothing */
static void calls_cases(void)
{
	static const char *const bad[] = {
		"", "0", "0x10+", "0x10/", "+0x10", "0x10++0x20", "-16", " 16", "0x10,0x20",
		"0x", "99999999999999999999", "0x10+0",
	};
	struct calls c = { .nr = 0 };
	char many[64 * 8 + 1], name[96];
	unsigned int i;

	check("calls: one address, one counter", calls_parse(&c, "4096") == NULL &&
	      c.nr == 1 && c.nr_pcs == 1 && c.pcs[0] == 4096 && c.ctr[0] == 0, 1);
	memset(&c, 0, sizeof(c));
	check("calls: 0x10+0x20/0x30 is two counters",
	      calls_parse(&c, "0x10+0x20/0x30") == NULL, 1);
	check("calls: 0x10+0x20/0x30: counters", c.nr, 2);
	check("calls: 0x10+0x20/0x30: addresses", c.nr_pcs, 3);
	check("calls: 0x10 adds to counter 0", c.ctr[0], 0);
	check("calls: 0x20 adds to counter 1", c.ctr[1], 1);
	check("calls: 0x30 adds to counter 1", c.ctr[2], 1);
	check("calls: the addresses in order", c.pcs[0] == 0x10 && c.pcs[1] == 0x20 &&
	      c.pcs[2] == 0x30, 1);
	/* a second calls= adds counters after the first's */
	check("calls: a second value adds its counters", calls_parse(&c, "0x40") == NULL &&
	      c.nr == 3 && c.nr_pcs == 4 && c.ctr[3] == 2, 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct calls before = c;

		snprintf(name, sizeof(name), "calls: '%s' refused, nothing kept", bad[i]);
		check(name, calls_parse(&c, bad[i]) != NULL &&
		      !memcmp(&before, &c, sizeof(c)), 1);
	}
	/* 12 counters fit, a 13th does not; 64 addresses fit, a 65th does not */
	memset(&c, 0, sizeof(c));
	check("calls: 12 counters", calls_parse(&c, "1+2+3+4+5+6+7+8+9+10+11+12") == NULL &&
	      c.nr == MAX_CALLS, 1);
	check("calls: a 13th counter refused", calls_parse(&c, "13") != NULL && c.nr == MAX_CALLS,
	      1);
	memset(&c, 0, sizeof(c));
	many[0] = 0;
	for (i = 1; i <= MAX_CALL_PCS; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%u",
			 i > 1 ? "/" : "", i);
	check("calls: 64 addresses in one counter", calls_parse(&c, many) == NULL &&
	      c.nr == 1 && c.nr_pcs == MAX_CALL_PCS, 1);
	check("calls: a 65th address refused", calls_parse(&c, "65") != NULL &&
	      c.nr_pcs == MAX_CALL_PCS, 1);
}

/* the lines rep string stores write: a page is 64 whatever the element size */
static void string_lines_cases(void)
{
	uint64_t last = 0, n = 0, off;

	for (off = 0; off < 4096; off++)
		n += string_lines(&last, 0x10000 + off, 1, 6);
	check("string lines: a page cleared by rep stosb (4096 1-byte stores)", n, 64);
	for (n = 0, off = 0; off < 4096; off += 8)
		n += string_lines(&last, 0x20000 + off, 8, 6);
	check("string lines: a page cleared by rep stosq (512 8-byte stores)", n, 64);
	for (n = 0, off = 0; off < 4096; off += 8)
		n += string_lines(&last, 0x30004 + off, 8, 6);
	check("string lines: 512 8-byte stores 4 bytes off the lines: 65 lines", n, 65);
	n = string_lines(&last, 0x31004, 8, 6);
	check("string lines: a store into the line the previous one ended in: none", n, 0);
	for (n = 0, off = 4096; off > 0; off -= 8)
		n += string_lines(&last, 0x40000 + off - 8, 8, 6);
	check("string lines: a page stored backwards (rep movsq, DF set)", n, 64);
	for (n = 0, off = 0; off < 2; off++)
		n += string_lines(&last, 0x50000, 64, 6);
	check("string lines: the same line twice in a row: one", n, 1);
}

/* the residency meter (residency.h): a page's lines each level holds, per class */
static void residency_cases(unsigned int levels)
{
	struct cache_stats st = { 0 };
	struct resid *r = calloc(1, sizeof(*r));
	uint64_t off, base = 0x40000000ull;
	const struct resid_count *c;
	struct machine m;
	char name[160], *text = NULL;
	size_t len = 0;
	FILE *f;

#define CASE(t) (snprintf(name, sizeof(name), "residency, %u levels: %s", levels, t), name)
	if (!r) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	machine_init(&m, levels, 1, 0);
	/* a page just written: every line at every level (write-allocate) */
	walk_kind(&m.h[0], PAGE, 4096, LINE, 1, ACC_STORE, &st);
	resid_marker_exec(r, RESID_MAGIC_PAGE);
	check(CASE("the page marker's access is the meter's, not the model's"),
	      resid_access(r, &m.h[0], PAGE + 5 * 64 + 3, 1), 1);
	c = &r->c[5];
	check(CASE("a page written just before: counted once, under the class its line names"),
	      c->pages, 1);
	check(CASE("... its 64 lines in L1D"), c->lines[0], 64);
	check(CASE("... in L2"), c->lines[1], 64);
	check(CASE("... in L3 (0: two levels)"), c->lines[2], levels == 3 ? 64 : 0);
	check(CASE("... in some level"), c->any, 64);
	check(CASE("... the other label of its rule counted nothing"), r->c[4].pages, 0);
	/* a page never touched: nothing held, and the marker's access fills nothing */
	resid_marker_exec(r, RESID_MAGIC_PAGE);
	resid_access(r, &m.h[0], base + 2 * 64, 1);
	check(CASE("a page never touched: no line held"), r->c[2].any, 0);
	check(CASE("... and the marker's own access left no line behind"),
	      cache_probe(&m.l1[0], base + 2 * 64) || cache_probe(&m.shared, base + 2 * 64), 0);
	/* pushed out of the private levels by 1 MB of other lines: the shared level's */
	for (off = 0; off < 1024 * 1024; off += LINE)
		hier_access(&m.h[0], base + 0x1000000 + off, 8, ACC_LOAD, &st);
	resid_marker_exec(r, RESID_MAGIC_PAGE);
	resid_access(r, &m.h[0], PAGE + 7 * 64, 1);
	c = &r->c[7];
	check(CASE("the page after 1 MB of other lines: none in L1D"), c->lines[0], 0);
	check(CASE("... in L2: none with three levels, all in the shared 2 MB L2"),
	      c->lines[1], levels == 3 ? 0 : 64);
	check(CASE("... all in some level (the shared one)"), c->any, 64);
	machine_free(&m);

	/* a probe leaves recency alone: an 8-way L1D set's LRU line stays the victim */
	machine_init(&m, 3, 1, 0);
	for (off = 0; off < 8; off++)
		hier_access(&m.h[0], base + off * Z_L1 / 8, 8, ACC_LOAD, &st);
	resid_marker_exec(r, RESID_MAGIC_PAGE);
	resid_access(r, &m.h[0], base, 1);
	hier_access(&m.h[0], base + 8 * Z_L1 / 8, 8, ACC_LOAD, &st);
	check(CASE("the probed page's line was the set's LRU and is evicted next"),
	      cache_probe(&m.l1[0], base) * 10 + cache_probe(&m.l1[0], base + Z_L1 / 8), 1);
	machine_free(&m);

	/* quiet windows (they nest), lost markers, other accesses */
	check(CASE("outside a quiet window an access is the model's"),
	      resid_access(r, &m.h[0], base, 0), 0);
	resid_marker_exec(r, RESID_MAGIC_QUIET_BEGIN);
	resid_marker_exec(r, RESID_MAGIC_QUIET_BEGIN);
	resid_marker_exec(r, RESID_MAGIC_QUIET_END);
	check(CASE("inside a quiet window (one of two closed) the model does not see it"),
	      resid_access(r, &m.h[0], base, 0), 1);
	resid_marker_exec(r, RESID_MAGIC_QUIET_END);
	resid_marker_exec(r, RESID_MAGIC_QUIET_END);
	check(CASE("both closed, and an end too many: the model's again"),
	      resid_access(r, &m.h[0], base, 0), 0);
	resid_marker_exec(r, RESID_MAGIC_PAGE);
	check(CASE("a page marker pending: another instruction's access is the model's"),
	      resid_access(r, &m.h[0], base, 0) * 10 + r->pending, 1);
	resid_marker_exec(r, RESID_MAGIC_PAGE);
	check(CASE("a second page marker before the access: one lost"), r->lost, 1);
	r->pending = 0;

	/* the lines the plugin prints: a line per class counted, then the lost markers */
	if (levels == 3) {
		struct resid *p = calloc(1, sizeof(*p));

		if (!p) {
			printf("Bail out! out of memory\n");
			exit(1);
		}
		p->c[3] = (struct resid_count){ 2, { 100, 110, 120 }, 125 };
		p->c[40] = (struct resid_count){ 1, { 0, 0, 64 }, 64 };
		p->lost = 6;
		f = open_memstream(&text, &len);
		resid_print(f, 4, 1, p);
		fclose(f);
		check("residency: printed as residency.h says",
		      !strcmp(text, "resid phase=4 vcpu=1 class=3 pages=2 l1=100 l2=110 l3=120 any=125\n"
				    "resid phase=4 vcpu=1 class=40 pages=1 l1=0 l2=0 l3=64 any=64\n"
				    "resid phase=4 vcpu=1 lost=6\n"), 1);
		free(text);
		free(p);
	}
	resid_marker_exec(r, RESID_MAGIC_QUIET_BEGIN);
	resid_reset(r);
	check(CASE("a new phase: no count, no lost marker, the quiet window still open"),
	      r->c[5].pages + r->lost + !r->quiet, 0);
	free(r);
#undef CASE
}

/* a batch's label from the wrapper its vCPU entered last (resid_hot=, resid_cold=) */
static void resid_batch_cases(void)
{
	struct resid_wrappers w = { 0 }, none = { .hot = 0x1000 };
	struct resid *r = malloc(sizeof(*r));
	char *text = NULL;
	struct machine m;
	size_t len = 0;
	FILE *f;

	if (!r) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	machine_init(&m, 3, 1, 0);
	resid_init(r);
	check("residency batch: wrappers parsed", !resid_wrappers_parse(&w, "resid_hot", "0x1000") &&
	      !resid_wrappers_parse(&w, "resid_cold", "4096") && w.hot == 0x1000 && w.cold == 4096,
	      1);
	check("residency batch: an address of 0, a sign or a suffix refused, nothing kept",
	      resid_wrappers_parse(&w, "resid_cold", "0") && resid_wrappers_parse(&w, "resid_cold",
	      "-16") && resid_wrappers_parse(&w, "resid_cold", "0x10q") && w.cold == 4096, 1);
	w.cold = 0x2000;
	/* (class 4 with the flag: exit, its label the wrapper's) */
	resid_marker_exec(r, RESID_MAGIC_PAGE);
	resid_access(r, &m.h[0], PAGE + (RESID_LABEL_BATCH + 4) * 64, 1);
	check("residency batch: before any wrapper ran, unlabelled and not counted",
	      r->unlabelled * 10 + r->c[4].pages + r->c[5].pages, 10);
	resid_wrapper_exec(r, &w, 1);
	resid_marker_exec(r, RESID_MAGIC_PAGE);
	resid_access(r, &m.h[0], PAGE + (RESID_LABEL_BATCH + 4) * 64, 1);
	check("residency batch: after the cold wrapper, counted cold", r->c[5].pages * 10 +
	      r->c[4].pages, 10);
	resid_wrapper_exec(r, &w, 0);
	resid_marker_exec(r, RESID_MAGIC_PAGE);
	resid_access(r, &m.h[0], PAGE + (RESID_LABEL_BATCH + 4) * 64, 1);
	check("residency batch: after the hot wrapper, counted hot", r->c[5].pages * 10 +
	      r->c[4].pages, 11);
	resid_wrapper_exec(r, &none, 0);
	resid_marker_exec(r, RESID_MAGIC_PAGE);
	resid_access(r, &m.h[0], PAGE + (RESID_LABEL_BATCH + 4) * 64, 1);
	check("residency batch: no resid_cold=, no label (a cold one would go unseen)",
	      r->unlabelled, 2);
	f = open_memstream(&text, &len);
	resid_print(f, 2, 0, r);
	fclose(f);
	check("residency batch: unlabelled pages printed",
	      strstr(text, "resid phase=2 vcpu=0 unlabelled=2\n") != NULL, 1);
	free(text);
	free(r);
	machine_free(&m);
}

static void resid_marker_cases(void)
{
	uint8_t nop[7] = { 0x0f, 0x1f, 0x80, 0x10, 0x00, 0x43, 0x48 };

	check("residency marker: page", resid_marker(nop, 7), RESID_MAGIC_PAGE);
	check("residency marker: not a phase marker", phase_marker(nop, 7), 0);
	nop[3] = 0x11;
	check("residency marker: quiet begin", resid_marker(nop, 7), RESID_MAGIC_QUIET_BEGIN);
	nop[3] = 0x12;
	check("residency marker: quiet end", resid_marker(nop, 7), RESID_MAGIC_QUIET_END);
	nop[3] = 0x01;
	check("residency marker: a phase marker is none", resid_marker(nop, 7), 0);
	nop[3] = 0x13;
	check("residency marker: another displacement is ordinary code", resid_marker(nop, 7), 0);
	check("residency marker: another length is ordinary code", resid_marker(nop, 6), 0);
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
	check("stride walk over 2x L1, 2 passes: L1 misses", L1M(st), 2 * 2 * L1SIZE / LINE);
	check("stride walk over 2x L1, 2 passes: L2 misses (first pass only)",
	      L2M(st), 2 * L1SIZE / LINE);

	/* half the L1 fits: the second pass hits */
	cache_free(&l1);
	cache_free(&l2);
	setup(&l1, &l2);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x200000, L1SIZE / 2, LINE, 3, &st);
	check("walk over L1/2, 3 passes: L1 misses (first pass only)", L1M(st), L1SIZE / 2 / LINE);
	check("walk over L1/2, 3 passes: accesses", ACC(st), 3 * L1SIZE / 2 / LINE);

	/* every word of a line: one miss per line */
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x400000, 4096, 8, 1, &st);
	check("4 KB page written 8 bytes at a time: L1 misses", L1M(st), 4096 / LINE);

	/* 13 lines of one L1 set (stride = sets * line) cycled: 12 ways thrash */
	cache_free(&l1);
	cache_free(&l2);
	setup(&l1, &l2);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0, 13 * 64 * LINE, 64 * LINE, 2, &st);
	check("13 lines in one 12-way L1 set, 2 passes: L1 misses", L1M(st), 26);
	check("13 lines in one 12-way L1 set, 2 passes: L2 misses (16-way holds them)",
	      L2M(st), 13);

	/* LRU, not FIFO: re-touching the oldest line protects it */
	cache_free(&l1);
	cache_free(&l2);
	setup(&l1, &l2);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0, 12 * 64 * LINE, 64 * LINE, 1, &st);	/* fill set 0 */
	load(&l1, &l2, 0, &st);			/* line 0 becomes MRU */
	load(&l1, &l2, 12 * 64 * LINE, &st);		/* evicts line 1 */
	load(&l1, &l2, 0, &st);			/* hit */
	check("LRU keeps a re-touched line: L1 misses", L1M(st), 13);
	load(&l1, &l2, 64 * LINE, &st);		/* line 1 was evicted */
	check("LRU evicts the least recently used line", L1M(st), 14);

	/* an access crossing a line boundary touches both lines */
	memset(&st, 0, sizeof(st));
	load(&l1, &l2, 0x900000 + LINE - 4, &st);
	check("unaligned 8-byte access across a line: lines touched", ACC(st), 2);

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
	check("page invalidated (DMA): every line misses L2 again", L2M(st), 64);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x800000, 4096, LINE, 1, &st);
	check("and hits after it was read", L1M(st), 0);

	/* fully associative (ways = 0): capacity misses only */
	cache_free(&l1);
	cache_free(&l2);
	if (cache_init(&l1, L1SIZE, 0, LINE) || cache_init(&l2, L2SIZE, 0, LINE)) {
		printf("Bail out! fully associative cache_init failed\n");
		return 1;
	}
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x100000, 2 * L1SIZE, LINE, 2, &st);
	check("fully associative: walk over 2x L1, 2 passes: L1 misses", L1M(st),
	      2 * 2 * L1SIZE / LINE);
	check("fully associative: L2 misses (first pass only)", L2M(st), 2 * L1SIZE / LINE);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x10000000, 13 * 64 * LINE, 64 * LINE, 2, &st);
	check("fully associative: 13 lines of one set index, 2 passes: no conflict misses",
	      L1M(st), 13);
	/* LRU: fill, re-touch the oldest, add one: the second oldest goes */
	cache_free(&l1);
	if (cache_init(&l1, L1SIZE, 0, LINE))
		return 1;
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x20000000, L1SIZE, LINE, 1, &st);
	load(&l1, &l2, 0x20000000, &st);
	load(&l1, &l2, 0x20000000 + L1SIZE, &st);
	load(&l1, &l2, 0x20000000, &st);
	check("fully associative: LRU keeps a re-touched line", L1M(st), L1SIZE / LINE + 1);
	load(&l1, &l2, 0x20000000 + LINE, &st);
	check("fully associative: LRU evicts the least recently used line", L1M(st),
	      L1SIZE / LINE + 2);
	memset(&st, 0, sizeof(st));
	for (uint64_t off = 0; off < 4096; off += LINE) {
		cache_invalidate(&l1, 0x20000000 + 8192 + off);
		cache_invalidate(&l2, 0x20000000 + 8192 + off);
	}
	walk(&l1, &l2, 0x20000000 + 8192, 4096, LINE, 1, &st);
	check("fully associative: invalidated page misses L1 and L2 again", L1M(st) + L2M(st),
	      128);
	memset(&st, 0, sizeof(st));
	walk(&l1, &l2, 0x30000000, 4 * L1SIZE, LINE, 1, &st);	/* reuses freed nodes */
	check("fully associative: still full-size after invalidations", L1M(st), 4 * L1SIZE / LINE);
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

	three_level_cases();
	coherence_cases(3);
	coherence_cases(2);
	coherence_changes_nothing(3, 1, 1);
	coherence_changes_nothing(2, 1, 1);
	coherence_changes_nothing(3, 2, 1);
	coherence_changes_nothing(3, 1, 0);
	coherence_changes_nothing(2, 1, 0);

	/* the phase markers */
	check("marker: begin", phase_marker(nop, 7), PHASE_MAGIC_BEGIN);
	nop[3] = 0x02;
	check("marker: end", phase_marker(nop, 7), PHASE_MAGIC_END);
	nop[3] = 0x03;
	check("marker: DMA", phase_marker(nop, 7), DMA_MAGIC);
	nop[3] = 0x04;
	check("marker: other displacement is ordinary code", phase_marker(nop, 7), 0);
	check("marker: other length is ordinary code", phase_marker(nop, 6), 0);

	/* the address the model keys by: physical, or virtual in user mode */
	{
		uint64_t a = 0;

		check("address: system emulation, the physical address",
		      model_address(1, 1, 0, 0x1000, 0x7f0000001000ull, &a) && a == 0x1000, 1);
		check("address: system emulation, no translation: skipped",
		      model_address(1, 0, 0, 0, 0x7f0000001000ull, &a), 0);
		check("address: system emulation, device memory: skipped",
		      model_address(1, 1, 1, 0xfe000000ull, 0xffffc90000000000ull, &a), 0);
		check("address: user mode, the virtual address (QEMU gives no physical one)",
		      model_address(0, 0, 0, 0, 0x7f0000002000ull, &a) && a == 0x7f0000002000ull, 1);
	}

	calls_cases();
	string_lines_cases();

	residency_cases(3);
	residency_cases(2);
	resid_marker_cases();
	resid_batch_cases();

	cache_free(&l1);
	cache_free(&l2);
	printf("1..%d\n", n);
	printf("# cachesim model: %d passed, %d failed\n", n - failed, failed);
	return failed != 0;
}
