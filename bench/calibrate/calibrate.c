// SPDX-License-Identifier: GPL-2.0
/*
 * calibrate: measure on the host, natively and from user space, what the
 * report prices the simulated misses with (bench/report.py):
 *   - the load-to-use latency of a dependent load (a pointer chase over a
 *     random cyclic permutation of 64-byte lines) for working sets that
 *     step across the host's caches, 16 KB to 512 MB;
 *   - the time to write one 4 KB page with memset() (rep stosb on this
 *     libc with ERMS) when the page is in L1/L2 ("warm"), only in L3, or
 *     in no cache (DRAM), each page a distinct one of a set of that size;
 *   - a cross-core transfer: two threads pinned to two CPUs (on two
 *     cores where the host has them) hand one line back and forth, each
 *     waiting for the other's store (a load of a line the other CPU holds
 *     modified), one way = a round trip halved: "xfer_ns pingpong=NS
 *     cpus=A,B" (",smt": the two are threads of one core), or not
 *     measured, "pingpong=none cpus=WHY": one (this process may run on one
 *     CPU only), unpinned (a thread could not be pinned to its CPU),
 *     stalled (a hand-off waited past WAIT_NS: the other thread gone or
 *     starved), unknown (the CPUs could not be read).
 * Prints "calibrate KEY=VALUE ..." lines, nanoseconds, each the median
 * of 5 runs; the report picks the levels it needs by working set.  They
 * are a cross-check printed beside the published prices
 * (bench/prices.tsv), never a price.
 * Run it on an idle host: a concurrent build doubles the DRAM figures,
 * and the ping-pong needs both CPUs to itself (each run stops after
 * a time budget, so a busy host gives a figure, a wrong one; every wait
 * gives up after WAIT_NS, so it never hangs).
 *
 * usage: calibrate [--quick] [--pingpong]   (--pingpong: that line only)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define RUNS 5

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Memory in 2 MB pages where the host allows (transparent huge pages):
 * the kernel reaches page contents through its direct map's large pages,
 * so the latencies to price its misses with are those without 4 KB TLB
 * misses.
 */
static char *alloc_buf(size_t bytes)
{
	size_t size = (bytes + (2 << 20) - 1) & ~(size_t)((2 << 20) - 1);
	char *buf = aligned_alloc(2 << 20, size);

	if (!buf) {
		fprintf(stderr, "calibrate: out of memory for %zu bytes\n", bytes);
		exit(1);
	}
	madvise(buf, size, MADV_HUGEPAGE);
	return buf;
}

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* ns per dependent load over a working set of bytes */
static double chase(size_t bytes, long loads)
{
	size_t n = bytes / LINE, i;
	char *buf = alloc_buf(bytes);
	size_t *order = malloc(n * sizeof(*order));
	double t[RUNS];
	void **p;
	int r;

	if (!order) {
		fprintf(stderr, "calibrate: out of memory for %zu bytes\n", bytes);
		exit(1);
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {		/* Fisher-Yates */
		size_t j = next() % (i + 1), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	for (i = 0; i < n; i++)
		*(void **)(buf + order[i] * LINE) = buf + order[(i + 1) % n] * LINE;
	p = (void **)(buf + order[0] * LINE);
	for (i = 0; i < n; i++)			/* warm up: one lap */
		p = *p;
	for (r = 0; r < RUNS; r++) {
		double t0 = now_ns();
		long k;

		for (k = 0; k < loads; k++)
			p = *p;
		t[r] = (now_ns() - t0) / loads;
	}
	if (!p)
		puts("");			/* keep the chase */
	free(order);
	free(buf);
	qsort(t, RUNS, sizeof(t[0]), cmp_double);
	return t[RUNS / 2];
}

/* ns to memset() one 4 KB page, pages taken in turn from a set of bytes */
static double page_write(size_t bytes, long pages)
{
	char *buf = alloc_buf(bytes);
	size_t n = bytes / 4096;
	double t[RUNS];
	int r;

	memset(buf, 1, bytes);
	for (r = 0; r < RUNS; r++) {
		double t0 = now_ns();
		long k;

		for (k = 0; k < pages; k++)
			memset(buf + (k % n) * 4096, (int)k, 4096);
		t[r] = (now_ns() - t0) / pages;
	}
	if (buf[4096 + 7] == 3)
		puts("");			/* keep the stores */
	free(buf);
	qsort(t, RUNS, sizeof(t[0]), cmp_double);
	return t[RUNS / 2];
}

/* the ping-pong's line, and its flags on a line of their own */
static struct {
	_Alignas(64) atomic_long turn;
	_Alignas(64) atomic_int stop;	/* set by the main thread: the runs are over */
	atomic_int failed;		/* the reason either side gave up (GAVE_UP_*), or 0 */
} pp;

enum { GAVE_UP_UNPINNED = 1, GAVE_UP_STALLED };

/*
 * The longest wait for one hand-off, ns: past it the other side is taken
 * as gone (a thread that never started, or starved by a busy host, when
 * the figure would be meaningless anyway).  A hand-off takes 100 ns.
 */
#ifndef CALIBRATE_WAIT_NS
#define CALIBRATE_WAIT_NS 1e9
#endif

/*
 * Spin until the line holds want: 1; or 0, with pp.failed set, when
 * *flag is set (the other side gave up, or the runs are over) or after
 * CALIBRATE_WAIT_NS (the clock read every 4096 spins)
 */
static int wait_turn(long want, atomic_int *flag)
{
	unsigned long spins = 0;
	double t0 = 0;

	while (atomic_load_explicit(&pp.turn, memory_order_acquire) != want) {
		if (atomic_load_explicit(flag, memory_order_relaxed))
			return 0;
		if (!(++spins & 4095)) {
			double t = now_ns();

			if (!t0) {
				t0 = t;
			} else if (t - t0 > CALIBRATE_WAIT_NS) {
				int none = 0;

				atomic_compare_exchange_strong(&pp.failed, &none, GAVE_UP_STALLED);
				return 0;
			}
		}
	}
	return 1;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/*
 * The other side: waits for each odd turn, answers with the even one.  If
 * it cannot pin itself it says so (pp.failed), so that the main thread's
 * wait ends.  (CALIBRATE_PLANT_PONG_UNPINNED: its pin fails, the planted
 * fault of bench/tests/test_calibrate.py; CALIBRATE_PLANT_PONG_SILENT:
 * and it says nothing, so only the main thread's time limit ends the wait.)
 */
static void *pong(void *arg)
{
	long want = 1;
	int unpinned = pin(*(int *)arg);

#if defined(CALIBRATE_PLANT_PONG_UNPINNED) || defined(CALIBRATE_PLANT_PONG_SILENT)
	unpinned = 1;
#endif
	if (unpinned) {
#ifndef CALIBRATE_PLANT_PONG_SILENT
		atomic_store(&pp.failed, GAVE_UP_UNPINNED);
#endif
		return NULL;
	}
	while (wait_turn(want, &pp.stop)) {
		atomic_store_explicit(&pp.turn, want + 1, memory_order_release);
		want += 2;
	}
	return NULL;
}

/* a CPU's core: its package and core id from sysfs, or -1 */
static long core_of(int cpu)
{
	char path[96];
	long pkg = -1, core = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &core) != 1)
			core = -1;
		fclose(f);
	}
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &pkg) != 1)
			pkg = -1;
		fclose(f);
	}
	return core < 0 ? -1 : pkg * 100000 + core;
}

/*
 * ns one way of a line handed between two CPUs (the first this process
 * may run on, and the next one on another core, else its SMT sibling):
 * prints the xfer_ns line
 */
static void pingpong(int quick)
{
	long trips = quick ? 20000 : 200000, turn = 0, k;
	double budget = quick ? 20e6 : 200e6, t[RUNS];
	cpu_set_t all;
	int cpus[2] = { -1, -1 }, smt = 0, cpu, r, n = 0, ok = 1;
	pthread_t thread;

	if (sched_getaffinity(0, sizeof(all), &all)) {
		printf("calibrate xfer_ns pingpong=none cpus=unknown\n");
		return;
	}
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &all))
			continue;
		if (cpus[0] < 0) {
			cpus[0] = cpu;
		} else if (core_of(cpu) < 0 || core_of(cpu) != core_of(cpus[0])) {
			cpus[1] = cpu;
			break;
		} else if (cpus[1] < 0) {
			cpus[1] = cpu;		/* a sibling, if no other core comes */
		}
	}
	smt = cpus[1] >= 0 && core_of(cpus[1]) >= 0 && core_of(cpus[1]) == core_of(cpus[0]);
	if (cpus[1] < 0) {
		printf("calibrate xfer_ns pingpong=none cpus=one\n");
		return;
	}
	atomic_store(&pp.turn, 0);
	atomic_store(&pp.stop, 0);
	atomic_store(&pp.failed, 0);
	if (pin(cpus[0]) || pthread_create(&thread, NULL, pong, &cpus[1])) {
		printf("calibrate xfer_ns pingpong=none cpus=unpinned\n");
		sched_setaffinity(0, sizeof(all), &all);
		return;
	}
	for (r = -1; r < RUNS && ok; r++) {	/* r = -1: a warm-up run */
		double t0 = now_ns();

		for (k = 0; k < trips; k++) {
			if (!wait_turn(turn, &pp.failed)) {
				ok = 0;
				break;
			}
			atomic_store_explicit(&pp.turn, turn + 1, memory_order_release);
			turn += 2;
			if ((k & 255) == 255 && now_ns() - t0 > budget) {
				k++;
				break;
			}
		}
		if (r >= 0)
			t[n++] = (now_ns() - t0) / (2.0 * k);
	}
	atomic_store(&pp.stop, 1);
	pthread_join(thread, NULL);
	sched_setaffinity(0, sizeof(all), &all);
	if (!ok) {
		printf("calibrate xfer_ns pingpong=none cpus=%s\n",
		       atomic_load(&pp.failed) == GAVE_UP_UNPINNED ? "unpinned" : "stalled");
		return;
	}
	qsort(t, n, sizeof(t[0]), cmp_double);
	printf("calibrate xfer_ns pingpong=%.1f cpus=%d,%d%s\n", t[n / 2], cpus[0], cpus[1],
	       smt ? ",smt" : "");
}

int main(int argc, char **argv)
{
	/*
	 * The levels' working sets: inside a Zen core's L1D (32-48 KB), L2
	 * (512 KB-1 MB) and L3, and far past any L3.  The L3's is 4 MB: on
	 * the cloud machine this was written on (a Zen 5 VM), 8 MB took 117
	 * and 126 ns in two runs and 19 ns in a third, 16 MB 73-163 ns,
	 * against 14-17 ns at 2-4 MB: the VM does not have the CCD's L3 to
	 * itself.  The sweep line records the whole curve.
	 */
	static const size_t sets[] = { 16 << 10, 256 << 10, 4 << 20, 512 << 20 };
	static const char *const names[] = { "l1", "l2", "l3", "dram" };
	static const size_t sweep[] = { 1 << 20, 2 << 20, 8 << 20, 16 << 20, 64 << 20 };
	static const char *const sweep_names[] = { "1M", "2M", "8M", "16M", "64M" };
	int quick = 0, only_pingpong = 0, a;
	long loads;
	unsigned int i;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--quick")) {
			quick = 1;
		} else if (!strcmp(argv[a], "--pingpong")) {
			only_pingpong = 1;
		} else {
			fprintf(stderr, "usage: %s [--quick] [--pingpong]\n", argv[0]);
			return 2;
		}
	}
	loads = quick ? 2000000 : 20000000;
	if (only_pingpong) {
		pingpong(quick);
		return 0;
	}
	printf("calibrate load_ns");
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		printf(" %s=%.2f", names[i], chase(sets[i], loads));
	printf("\ncalibrate page_write_ns warm=%.1f l3=%.1f dram=%.1f\n",
	       page_write(16 << 10, quick ? 20000 : 200000),
	       page_write(4 << 20, quick ? 20000 : 200000),
	       page_write(512 << 20, quick ? 20000 : 200000));
	printf("calibrate sweep_ns");
	for (i = 0; i < sizeof(sweep) / sizeof(sweep[0]); i++)
		printf(" %s=%.2f", sweep_names[i], chase(sweep[i], loads / 2));
	printf("\ncalibrate working_sets l1=16K l2=256K l3=4M dram=512M page_sets warm=16K l3=4M dram=512M\n");
	pingpong(quick);
	return 0;
}
