// SPDX-License-Identifier: GPL-2.0
/*
 * spin: count rounds of a fixed busy loop between two CLOCK_MONOTONIC
 * times, START and END (ns), and print the count: the share of the
 * instructions this CPU got in that window.  The vCPU-shares job
 * (guest/jobs/shares.sh) starts one per CPU, pinned, with the same window.
 * Under -icount the guest's clock counts the instructions every vCPU
 * retires, one after another, so the counts of N spinners add up to the
 * window, and each one's part is its vCPU's share of it.
 *
 * usage: spin START_NS END_NS
 *   prints: rounds=<rounds in the window>
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long start, end, rounds = 0;
	int i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s START_NS END_NS\n", argv[0]);
		return 2;
	}
	start = atoll(argv[1]);
	end = atoll(argv[2]);
	if (start <= 0 || end <= start) {
		fprintf(stderr, "spin: expected 0 < START_NS < END_NS\n");
		return 2;
	}
	while (now_ns() < start)
		;
	while (now_ns() < end) {
		for (i = 0; i < 1000; i++)
			__asm__ volatile("" ::: "memory");
		rounds++;
	}
	printf("rounds=%lld\n", rounds);
	return 0;
}
