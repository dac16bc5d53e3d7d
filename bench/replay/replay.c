// SPDX-License-Identifier: GPL-2.0
/*
 * replay: the series' mechanism in user space, to time natively and to
 * count under QEMU's user mode with the cache model (bench/silicon.py).
 *
 * A pool of 4 KB pages, a LIFO list (the per-CPU free list), and a "page
 * cache" of pages the CPU has not touched for a long time (a FIFO ring:
 * its oldest page is the coldest).  Each iteration:
 *   reclaim:    the K oldest pages of the page cache are freed into the
 *               pool, at its head (--side head: vanilla) or its tail
 *               (--side tail: the series' cold free);
 *   foreground: takes P pages from the head, clears each with rep stosb
 *               (the kernel's clear_page_erms), reads it back with
 *               --read, touches its own working set (a word per line,
 *               read and written), and frees the P pages to the head,
 *               the first taken on top;
 *   refill:     the page cache takes K pages from the pool's tail (new
 *               file pages: a device writes them, the CPU does not).
 * With --side head the foreground clears K cold pages per iteration;
 * with --side tail it clears none (the refill takes the cold ones back).
 *
 * The page cache's pages are in address order (--order addr) or in a
 * seeded random order (--order scatter); the arena is mapped in 4 KB
 * pages or in 2 MB ones (--map 2m: MAP_HUGETLB, else a transparent huge
 * page by madvise(MADV_HUGEPAGE): "map=" says which one the kernel
 * gave).  Every choice is a function of the arguments and the seed, so
 * the same binary makes the same accesses natively and under QEMU.
 *
 * The measured iterations are one phase for the cachesim plugin (its
 * markers, cache.h: NOPs on hardware).  Output, one line:
 *   replay side=.. order=.. map=.. read=.. iters=.. evict=.. take=..
 *     ws_kb=.. cache_mb=.. seed=.. ns_per_iter=.. cleared=.. cold=..
 *     trace=HASH thp_kb=..
 * cleared/cold: pages cleared in the measured iterations, and of those
 * the ones reclaim freed (cold); trace: a hash of the sequence of pages
 * cleared (their index in the arena and whether cold); thp_kb: the
 * process's anonymous memory in transparent huge pages after the set-up
 * (/proc/self/smaps_rollup; -1 unknown), what --map 2m really got.
 *
 * usage: replay [--side head|tail] [--order addr|scatter] [--map 4k|2m]
 *   [--read] [--iters N] [--warm N] [--evict K] [--take P] [--ws KB]
 *   [--cache-mb MB] [--seed S]
 * A bad argument: one line naming it on stderr, exit status 2, nothing run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "../cachesim/cache.h"	/* the phase markers' magic numbers */

#define PAGE 4096
#define HUGE (2u << 20)

struct opts {
	int tail, scatter, huge, read;
	long iters, warm, evict, take, ws_kb, cache_mb;
	unsigned long long seed;
};

/* a deque of page indices: the pool (push at either end, take from the head) */
struct deque {
	uint32_t *v;
	long cap, head, n;	/* v[head] is the head; the tail is n - 1 further */
};

static char *arena, *ws;
static volatile uint64_t sink;	/* keeps the read-back */

static int bad(const char *what, const char *value, const char *expected)
{
	fprintf(stderr, "replay: %s %s: expected %s\n", what, value ? value : "(missing)", expected);
	return 2;
}

static int number(const char *what, const char *v, long lo, long hi, long *out)
{
	char *end;
	long x;

	errno = 0;
	x = v ? strtol(v, &end, 10) : 0;
	if (!v || !*v || *end || errno || x < lo || x > hi) {
		char range[64];

		snprintf(range, sizeof(range), "a whole number from %ld to %ld", lo, hi);
		return bad(what, v, range);
	}
	*out = x;
	return 0;
}

static int choice(const char *what, const char *v, const char *a, const char *b, int *out)
{
	char expected[64];

	if (v && !strcmp(v, a)) {
		*out = 0;
		return 0;
	}
	if (v && !strcmp(v, b)) {
		*out = 1;
		return 0;
	}
	snprintf(expected, sizeof(expected), "%s or %s", a, b);
	return bad(what, v, expected);
}

/* the arguments into o: 0, or 2 with the reason on stderr */
static int parse(int argc, char **argv, struct opts *o)
{
	struct opts d = { .iters = 2000, .warm = 200, .evict = 8, .take = 32, .ws_kb = 256,
			  .cache_mb = 128, .seed = 1 };
	int i, rc = 0;

	*o = d;
	for (i = 1; i < argc && !rc; i++) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		long x;

		if (!strcmp(k, "--read")) {
			o->read = 1;
			continue;
		}
		i++;
		if (!strcmp(k, "--side"))
			rc = choice(k, v, "head", "tail", &o->tail);
		else if (!strcmp(k, "--order"))
			rc = choice(k, v, "addr", "scatter", &o->scatter);
		else if (!strcmp(k, "--map"))
			rc = choice(k, v, "4k", "2m", &o->huge);
		else if (!strcmp(k, "--iters"))
			rc = number(k, v, 1, 1000000, &o->iters);
		else if (!strcmp(k, "--warm"))
			rc = number(k, v, 0, 1000000, &o->warm);
		else if (!strcmp(k, "--evict"))
			rc = number(k, v, 1, 4096, &o->evict);
		else if (!strcmp(k, "--take"))
			rc = number(k, v, 1, 4096, &o->take);
		else if (!strcmp(k, "--ws"))
			rc = number(k, v, 0, 1 << 20, &o->ws_kb);
		else if (!strcmp(k, "--cache-mb"))
			rc = number(k, v, 1, 1 << 16, &o->cache_mb);
		else if (!strcmp(k, "--seed")) {
			rc = number(k, v, 0, 0x7fffffff, &x);
			o->seed = x;
		} else
			return bad("unknown argument", k, "--side --order --map --read --iters "
				   "--warm --evict --take --ws --cache-mb --seed");
	}
	if (rc)
		return rc;
	/* every page reclaim frees must be one touched before the run, long ago */
	if ((o->iters + o->warm) * o->evict > o->cache_mb * (1 << 20) / PAGE) {
		char v[64];

		snprintf(v, sizeof(v), "%ld", o->cache_mb);
		return bad("--cache-mb", v, "at least (iters + warm) * evict pages: reclaim "
			   "would free a page it took in this run");
	}
	return 0;
}

/* splitmix64: the seeded order of --order scatter */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void push_head(struct deque *q, uint32_t pg)
{
	q->head = (q->head + q->cap - 1) % q->cap;
	q->v[q->head] = pg;
	q->n++;
}

static void push_tail(struct deque *q, uint32_t pg)
{
	q->v[(q->head + q->n++) % q->cap] = pg;
}

static uint32_t pop_head(struct deque *q)
{
	uint32_t pg = q->v[q->head];

	q->head = (q->head + 1) % q->cap;
	q->n--;
	return pg;
}

static uint32_t pop_tail(struct deque *q)
{
	return q->v[(q->head + --q->n) % q->cap];
}

/* the arena, 2 MB aligned; with huge, in 2 MB pages if the kernel gives them */
static char *map_arena(size_t bytes, int huge, const char **got)
{
	size_t size = (bytes + HUGE - 1) & ~(size_t)(HUGE - 1);
	char *p;

	*got = "4k";
	if (huge) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (p != MAP_FAILED) {
			*got = "2m-hugetlb";
			return p;
		}
	}
	p = mmap(NULL, size + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	p = (char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	if (huge && !madvise(p, size, MADV_HUGEPAGE))
		*got = "2m-thp";
	else if (huge)
		*got = "4k-no-huge-pages";
	return p;
}

/* the process's anonymous memory in transparent huge pages, KB (-1: unknown) */
static long thp_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* clear_page_erms: rep stosb over the page */
static void clear_page(char *p)
{
	size_t n = PAGE;

	asm volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(0) : "memory");
}

static void read_page(const char *p)
{
	const uint64_t *w = (const uint64_t *)p;
	uint64_t s = 0;
	int i;

	for (i = 0; i < PAGE / 8; i++)
		s += w[i];
	sink += s;
}

/* the foreground's own working set: a word per line, read and written */
static void touch_ws(long bytes)
{
	long off;

	for (off = 0; off < bytes; off += 64)
		(*(volatile uint64_t *)(ws + off))++;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct deque pool, cache;
	long npc, npool, i, k, it, cleared = 0, cold = 0;
	uint64_t trace = 0xcbf29ce484222325ull, rng;
	uint32_t *taken;
	uint8_t *was_cold;
	const char *got;
	double t0 = 0, t1;
	long huge_kb;
	int rc = parse(argc, argv, &o);

	if (rc)
		return rc;
	npc = o.cache_mb * (1 << 20) / PAGE;
	npool = 2 * o.take + o.evict;
	arena = map_arena((size_t)(npc + npool) * PAGE, o.huge, &got);
	ws = o.ws_kb ? aligned_alloc(PAGE, o.ws_kb * 1024) : NULL;
	pool.v = calloc(npool + o.evict, sizeof(uint32_t));
	cache.v = calloc(npc, sizeof(uint32_t));
	taken = calloc(o.take, sizeof(uint32_t));
	was_cold = calloc(npc + npool, 1);
	if (!arena || (o.ws_kb && !ws) || !pool.v || !cache.v || !taken || !was_cold) {
		fprintf(stderr, "replay: out of memory for %ld pages\n", npc + npool);
		return 1;
	}
	pool.cap = npool + o.evict;
	cache.cap = npc;
	pool.head = pool.n = cache.head = cache.n = 0;
	/* the page cache: pages 0..npc-1, oldest first, in address or seeded order */
	for (i = 0; i < npc; i++)
		cache.v[i] = i;
	rng = o.seed;
	for (i = npc - 1; o.scatter && i > 0; i--) {
		uint32_t j = next(&rng) % (i + 1), t = cache.v[i];

		cache.v[i] = cache.v[j];
		cache.v[j] = t;
	}
	cache.n = npc;
	/* every page touched once, the page cache's oldest first */
	for (i = 0; i < npc; i++)
		arena[(size_t)cache.v[i] * PAGE] = 1;
	for (i = 0; i < npool; i++) {
		arena[(size_t)(npc + i) * PAGE] = 1;
		push_tail(&pool, npc + i);
	}
	if (ws)
		memset(ws, 0, o.ws_kb * 1024);
	huge_kb = thp_kb();

	for (it = -o.warm; it < o.iters; it++) {
		if (it == 0) {
			t0 = now_ns();
			asm volatile(".byte 0x0f, 0x1f, 0x80; .long %c0" :: "i"(PHASE_MAGIC_BEGIN) : "memory");
		}
		for (k = 0; k < o.evict; k++) {
			uint32_t pg = pop_head(&cache);

			was_cold[pg] = 1;
			if (o.tail)
				push_tail(&pool, pg);
			else
				push_head(&pool, pg);
		}
		for (i = 0; i < o.take; i++) {
			uint32_t pg = pop_head(&pool);

			clear_page(arena + (size_t)pg * PAGE);
			if (o.read)
				read_page(arena + (size_t)pg * PAGE);
			if (it >= 0) {
				cleared++;
				cold += was_cold[pg];
				trace = (trace ^ (pg * 2u + was_cold[pg])) * 0x100000001b3ull;
			}
			was_cold[pg] = 0;
			taken[i] = pg;
		}
		touch_ws(o.ws_kb * 1024);
		for (i = o.take - 1; i >= 0; i--)
			push_head(&pool, taken[i]);
		for (k = 0; k < o.evict; k++)
			push_tail(&cache, pop_tail(&pool));
	}
	asm volatile(".byte 0x0f, 0x1f, 0x80; .long %c0" :: "i"(PHASE_MAGIC_END) : "memory");
	t1 = now_ns();
	printf("replay side=%s order=%s map=%s read=%d iters=%ld evict=%ld take=%ld ws_kb=%ld "
	       "cache_mb=%ld seed=%llu ns_per_iter=%.1f cleared=%ld cold=%ld trace=%016llx "
	       "thp_kb=%ld\n",
	       o.tail ? "tail" : "head", o.scatter ? "scatter" : "addr", got, o.read, o.iters,
	       o.evict, o.take, o.ws_kb, o.cache_mb, o.seed, (t1 - t0) / o.iters, cleared, cold,
	       (unsigned long long)trace, huge_kb);
	return 0;
}
