// SPDX-License-Identifier: GPL-2.0
/*
 * leakcheck: no page may carry one process's data to another.
 *
 *   leakcheck fill MB [S] fill MB of anonymous memory with a marker, hold
 *                         it S seconds (default 0), exit
 *   leakcheck anon MB     map and touch MB of anonymous memory, scan it
 *   leakcheck file PATH   read PATH (a file of zeros: readahead, cold
 *                         allocations), scan what was read
 *
 * The scans print "marker_pages=N scanned_pages=M"; N must be 0.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char marker[16] = "HOTCOLD-LEAK-MK!";

static int has_marker(const char *p, size_t len)
{
	size_t off;

	for (off = 0; off + sizeof(marker) <= len; off += sizeof(marker))
		if (!memcmp(p + off, marker, sizeof(marker)))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	long psz = sysconf(_SC_PAGESIZE);
	unsigned long found = 0, scanned = 0;

	if (argc != 3 && !(argc == 4 && !strcmp(argv[1], "fill"))) {
		fprintf(stderr, "usage: %s fill MB [SECONDS] | anon MB | file PATH\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "fill") || !strcmp(argv[1], "anon")) {
		size_t len = (size_t)atol(argv[2]) << 20, off;
		char *p;

		if (!len) {
			fprintf(stderr, "%s: bad size\n", argv[0]);
			return 2;
		}
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		if (!strcmp(argv[1], "fill")) {
			for (off = 0; off < len; off += sizeof(marker))
				memcpy(p + off, marker, sizeof(marker));
			printf("filled_pages=%lu\n", (unsigned long)(len / psz));
			fflush(stdout);
			if (argc == 4)
				sleep(atoi(argv[3]));
			return 0;
		}
		for (off = 0; off < len; off += psz, scanned++)
			found += has_marker(p + off, psz);
	} else if (!strcmp(argv[1], "file")) {
		char *buf = malloc(1 << 20);
		ssize_t n;
		int fd = open(argv[2], O_RDONLY);

		if (fd < 0 || !buf) {
			perror(argv[2]);
			return 1;
		}
		while ((n = read(fd, buf, 1 << 20)) > 0) {
			ssize_t off;

			for (off = 0; off < n; off += psz, scanned++)
				found += has_marker(buf + off, n - off < psz ? n - off : psz);
		}
		close(fd);
	} else {
		fprintf(stderr, "%s: unknown mode %s\n", argv[0], argv[1]);
		return 2;
	}
	printf("marker_pages=%lu scanned_pages=%lu\n", found, scanned);
	return found ? 1 : 0;
}
