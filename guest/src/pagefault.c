// SPDX-License-Identifier: GPL-2.0
/*
 * pagefault: page-fault heavy work.
 *   anon:  map SIZE bytes of anonymous memory, touch every page, unmap,
 *          repeat; one process per instance.  Metric: pages/s.
 *   fork:  fork a child that touches a few pages and exits, repeat; one
 *          loop per instance (page tables built and freed).  Metric: forks/s.
 *
 *   THINK_US: sleep this long after each anon iteration (a foreground that
 *          is not always on the CPU, so that others on the machine run:
 *          under -icount a busy vCPU 0 starves vCPU 1)
 *
 * usage: pagefault anon|fork SIZE INSTANCES SECONDS [LOOPS [THINK_US]]
 * prints: pages_per_s=<n> | forks_per_s=<n>
 */
#include <string.h>
#include <unistd.h>

#include "benchutil.h"

static long think_us;

static unsigned long run_anon(const struct run_args *a, double t0)
{
	long psz = sysconf(_SC_PAGESIZE), off;
	unsigned long pages = 0, n;

	for (n = 0; keep_going(a, n, t0); n++) {
		char *p = mmap(NULL, a->size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			_exit(1);
		for (off = 0; off < a->size; off += psz)
			p[off] = 1;
		munmap(p, a->size);
		pages += a->size / psz;
		if (think_us)
			usleep(think_us);
	}
	return pages;
}

static unsigned long run_fork(const struct run_args *a, double t0)
{
	static char data[64 * 4096];
	unsigned long n;

	for (n = 0; keep_going(a, n, t0); n++) {
		pid_t pid = fork();

		if (pid == 0) {
			long off;

			for (off = 0; off < a->size && off < (long)sizeof(data); off += 4096)
				data[off] = 1;
			_exit(0);
		}
		if (pid < 0)
			_exit(1);
		waitpid(pid, NULL, 0);
	}
	return n;
}

int main(int argc, char **argv)
{
	unsigned long *done, total;
	struct run_args a;
	int anon, rc;
	double t0;
	long i;

	if (argc < 2 || parse_run_args(argc, argv, &a)) {
		fprintf(stderr, "usage: %s anon|fork SIZE INSTANCES SECONDS [LOOPS [THINK_US]]\n",
			argv[0]);
		return 2;
	}
	think_us = argc > 6 ? atol(argv[6]) : 0;
	anon = !strcmp(argv[1], "anon");
	if (!anon && strcmp(argv[1], "fork")) {
		fprintf(stderr, "%s: mode must be anon or fork\n", argv[0]);
		return 2;
	}
	done = shared_counters();
	if (!done)
		return 1;
	hc_phase_begin();
	t0 = now();
	for (i = 0; i < a.inst; i++) {
		if (fork() == 0) {
			done[i] = anon ? run_anon(&a, t0) : run_fork(&a, t0);
			_exit(0);
		}
	}
	rc = reap(a.inst, done, &total);
	hc_phase_end();
	printf("%s=%.1f count=%lu ops=%lu\n", anon ? "pages_per_s" : "forks_per_s",
	       total / (now() - t0), total, total);
	return rc;
}
