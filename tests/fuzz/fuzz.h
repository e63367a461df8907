/* Shared by the libFuzzer harnesses (tests/fuzz/README.md): an input as a file the gate's readers
 * open by path. */
#ifndef SG_FUZZ_H
#define SG_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Writes the input into a memory file and calls read(path) with the gate's
 * error messages sent to /dev/null (millions of them would be the run's cost).
 */
static inline void fuzz_as_file(const uint8_t *data, size_t size, void (*read)(const char *path))
{
	static int quiet = -1, memfd = -1;
	char path[64];
	int saved;

	if (quiet < 0)
		quiet = open("/dev/null", O_WRONLY);
	if (memfd < 0)
		memfd = memfd_create("sg-fuzz", 0);
	if (ftruncate(memfd, 0) || pwrite(memfd, data, size, 0) != (ssize_t)size)
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	fflush(stderr);
	saved = dup(2);
	dup2(quiet, 2);
	read(path);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
}

#endif
