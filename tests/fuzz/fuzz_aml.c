/* libFuzzer target: survey/aml_s5.c's \_S5_ reader over arbitrary bytes.
 *
 * The input is the AML stream itself, copied into a block of its exact size so
 * AddressSanitizer reports any read past it. The answer is checked for consistency:
 * offsets inside the stream, a known result (AML_S5_METHOD, the last, included) and
 * way. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../survey/aml_s5.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct aml_s5 s;
    uint8_t *aml = malloc(size ? size : 1);

    memcpy(aml, data, size);
    enum aml_s5_result r = aml_find_s5(aml, size, &s);
    free(aml);
    if (r != s.result || r > AML_S5_METHOD || s.stop_offset > size)
        abort();
    if (r == AML_S5_FOUND || r == AML_S5_UNREADABLE) {
        if (s.offset >= size || s.how > AML_S5_BY_SEARCH)
            abort();
        if (r == AML_S5_FOUND && (!s.elements || data[s.offset] != 0x08))
            abort();
    }
    /* The search runs only after the walk stopped, and never before the stop. */
    if (s.how == AML_S5_BY_SEARCH && (s.stop_offset == size || s.offset < s.stop_offset))
        abort();
    return 0;
}
