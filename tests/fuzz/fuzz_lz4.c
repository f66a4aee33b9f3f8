/* libFuzzer target: loader/lz4.c's lz4_unpack() on hostile frames. The input is the
 * frame, in a heap block of exactly its size; the output goes to a block of exactly
 * the room given, so a read or write past either is an AddressSanitizer report.
 *
 * Each input is unpacked with room for 256 KiB; when that succeeds, again with room
 * for exactly what came out (the same bytes must come out) and with one byte less
 * (refused): the bound on the output is exact, not approximate. A refusal must leave
 * *out_len 0 and say why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../loader/lz4.h"

#define ROOM    (256 * 1024)

static int unpack(const uint8_t *in, uint32_t in_len, uint32_t room, uint8_t *out,
                  uint32_t *out_len)
{
    const char *why = 0;
    *out_len = 0xDEADBEEF;
    int r = lz4_unpack(in, in_len, out, room, out_len, &why);
    if (r != 0 && r != -1)
        abort();
    if (r ? *out_len != 0 || !why || !*why : *out_len > room)
        abort();
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t *out;                /* one block for every input: freeing 256 KiB
                                           each time makes ASan's quarantine the cost */
    uint8_t *in = malloc(size ? size : 1), *exact;
    uint32_t n, m;

    if (!out)
        out = malloc(ROOM);
    memcpy(in, data, size);
    if (lz4_magic(in, (uint32_t)size) != (size >= 4 && !memcmp(in, "\x04\x22\x4d\x18", 4)))
        abort();
    if (!unpack(in, (uint32_t)size, ROOM, out, &n)) {
        exact = malloc(n ? n : 1);
        if (unpack(in, (uint32_t)size, n, exact, &m) || m != n || memcmp(exact, out, n))
            abort();
        free(exact);
        if (n) {
            exact = malloc(n - 1 ? n - 1 : 1);
            if (!unpack(in, (uint32_t)size, n - 1, exact, &m))
                abort();
            free(exact);
        }
    }
    free(in);
    return 0;
}
