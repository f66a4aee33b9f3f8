/* The files tests/unit/loader_fixtures.py made for the loader's host tests (mformat's
 * diskettes, Debian lz4's frames, the kernel), read whole. A missing file fails the
 * test that wanted it: `make unit-bin` makes them, and a test that cannot read its
 * fixture has proved nothing. */
#ifndef APMOFF_TESTS_LOADER_FIXTURE_H
#define APMOFF_TESTS_LOADER_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

/* The file OUTDIR/name, in a heap block of exactly its size (at least 1 byte, so an
 * empty file is a valid pointer too); free() it. */
uint8_t *fixture_read(const char *name, size_t *size);

/* The full path of OUTDIR/name, in a static buffer. */
const char *fixture_path(const char *name);

#endif
