/* libFuzzer target: survey/vbe.c on a hostile VBE block.
 *
 * The input is the whole of "physical memory" (a heap copy of exactly its size, so
 * AddressSanitizer sees any read past it); the block sits at offset 0 with its
 * "VESA" signature written when the first byte's low bit asks for it, so the far
 * pointers, the version and the strings are the fuzzer's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../survey/vbe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t *mem = malloc(size);
    memcpy(mem, data, size);
    if ((data[0] & 1) && size >= 4)
        memcpy(mem, "VESA", 4);
    const struct physmem pm = { (uintptr_t)mem, size };
    struct vbe_info info;
    if (vbe_parse(&info, &pm, 0)) {
        /* Every string is terminated and printable. */
        const char *fields[] = { info.oem, info.vendor, info.product, info.product_rev };
        for (size_t i = 0; i < 4; i++)
            for (const char *p = fields[i]; *p; p++)
                if (*p < 0x20 || *p > 0x7E)
                    abort();
    }
    free(mem);
    return 0;
}
