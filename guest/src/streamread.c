// SPDX-License-Identifier: GPL-2.0
/*
 * streamread: read FILE sequentially in 256 KB chunks through a mapping
 * (consume_file(): each page marked as written by the disk's DMA for the
 * cachesim plugin, then one word per cache line read), from the start
 * again at its end, until killed.  With "drop", each chunk is dropped from
 * the page cache once read, so readahead keeps allocating without filling
 * memory (no reclaim); without it the page cache grows until reclaim
 * frees it.
 *
 * usage: streamread FILE [drop]
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "benchutil.h"

#define CHUNK (256 << 10)

int main(int argc, char **argv)
{
	int drop = argc > 2 && !strcmp(argv[2], "drop");
	off_t pos = 0, size;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE [drop]\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	size = lseek(fd, 0, SEEK_END) / CHUNK * CHUNK;
	if (size <= 0) {
		fprintf(stderr, "%s: shorter than %d bytes\n", argv[1], CHUNK);
		return 1;
	}
	for (;;) {
		if (!consume_file(fd, pos, CHUNK, drop)) {
			perror("streamread");
			return 1;
		}
		pos = (pos + CHUNK) % size;
	}
}
