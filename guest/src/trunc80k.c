// SPDX-License-Identifier: GPL-2.0
/*
 * trunc80k: the 2002 hot-n-cold benchmark.  Each instance repeats
 * "lseek(0), write SIZE bytes, ftruncate(0)" on its own file in DIR for
 * SECONDS (or a fixed number of LOOPS) and the total rate is printed.
 *
 * usage: trunc80k DIR SIZE INSTANCES SECONDS [LOOPS]
 * prints: loops_per_s=<total> loops=<total>
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "benchutil.h"

static unsigned long worker(const char *dir, long i, const char *buf,
			    const struct run_args *a, double t0)
{
	unsigned long n = 0;
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/trunc80k.%ld", dir, i);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror(path);
		_exit(1);
	}
	for (; keep_going(a, n, t0); n++) {
		if (lseek(fd, 0, SEEK_SET) < 0 ||
		    write(fd, buf, a->size) != a->size ||
		    ftruncate(fd, 0) < 0) {
			perror("trunc80k");
			_exit(1);
		}
	}
	close(fd);
	unlink(path);
	return n;
}

int main(int argc, char **argv)
{
	unsigned long *done, total;
	struct run_args a;
	double t0;
	char *buf;
	long i;
	int rc;

	if (parse_run_args(argc, argv, &a)) {
		fprintf(stderr, "usage: %s DIR SIZE INSTANCES SECONDS [LOOPS]\n", argv[0]);
		return 2;
	}
	done = shared_counters();
	buf = malloc(a.size);
	if (!done || !buf)
		return 1;
	memset(buf, 'x', a.size);

	hc_phase_begin();
	t0 = now();
	for (i = 0; i < a.inst; i++) {
		if (fork() == 0) {
			done[i] = worker(argv[1], i, buf, &a, t0);
			_exit(0);
		}
	}
	rc = reap(a.inst, done, &total);
	hc_phase_end();
	printf("loops_per_s=%.1f loops=%lu ops=%lu\n", total / (now() - t0), total, total);
	return rc;
}
