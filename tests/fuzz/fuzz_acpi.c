/* libFuzzer target: survey/acpi.c on hostile memory.
 *
 * "Physical memory" is a zeroed megabyte whose window ends right after the payload,
 * which sits at F0000h; the rest of the buffer is poisoned for AddressSanitizer while
 * the parser runs, so a read past the window is reported. The BDA's EBDA word comes
 * from the input, and when it points below 640 KiB the payload is also copied there. The payload is also checked as an RSDP copy of its exact size. Random bytes
 * almost never carry good checksums, so the first byte can ask for "RSD PTR " at the
 * payload's start with its checksums made good; the fuzzer then owns the fields.
 *
 *   byte 0, bit 0: write the signature and fix the 20-byte checksum
 *           bit 1: also fix the extended checksum over the length field (if sane)
 *   bytes 1-2:     the EBDA segment word */
#include <sanitizer/asan_interface.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../survey/acpi.h"

#define PAYLOAD_AT      0xF0000u
#define MEM_SIZE        0x100000u
#define PAYLOAD_MAX     (MEM_SIZE - PAYLOAD_AT)

static uint8_t mem[MEM_SIZE];           /* zero between runs */

static void fix(uint8_t *p, size_t n, size_t at)
{
    uint8_t s = 0;
    p[at] = 0;
    for (size_t i = 0; i < n; i++)
        s = (uint8_t)(s + p[i]);
    p[at] = (uint8_t)-s;
}

static void check(const struct acpi_rsdp *r)
{
    size_t len = strnlen(r->oem_id, sizeof(r->oem_id));
    if (len > ACPI_OEM_ID_LEN || r->status > ACPI_RSDP_V1_ONLY)
        abort();
    for (size_t i = 0; i < len; i++)
        if (r->oem_id[i] < 0x20 || r->oem_id[i] > 0x7E)
            abort();
    if (r->have_xsdt != (r->status == ACPI_RSDP_OK && r->revision >= 2))
        abort();
    if (!r->have_xsdt && r->xsdt_addr)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct acpi_rsdp r;

    if (size < 3)
        return 0;
    uint8_t mode = data[0];
    uint32_t ebda = (uint32_t)(data[1] | data[2] << 8) << 4;
    size_t n = size - 3;
    uint8_t *payload = malloc(n ? n : 1);
    memcpy(payload, data + 3, n);
    if ((mode & 1) && n >= 20) {
        memcpy(payload, "RSD PTR ", 8);
        fix(payload, 20, 8);
        if ((mode & 2) && n >= 36) {
            uint32_t len = payload[20] | (uint32_t)payload[21] << 8 |
                           (uint32_t)payload[22] << 16 | (uint32_t)payload[23] << 24;
            if (len >= 36 && len <= n)
                fix(payload, len, 32);
        }
    }

    size_t in_mem = n < PAYLOAD_MAX ? n : PAYLOAD_MAX;
    size_t in_ebda = 0;
    memcpy(mem + PAYLOAD_AT, payload, in_mem);
    mem[0x40E] = data[1];
    mem[0x40F] = data[2];
    if (ebda >= 0x400 && ebda < 0xA0000) {
        in_ebda = n < 0xA0000 - ebda ? n : 0xA0000 - ebda;
        memcpy(mem + ebda, payload, in_ebda);
    }
    struct physmem pm = { (uintptr_t)mem, PAYLOAD_AT + in_mem };
    ASAN_POISON_MEMORY_REGION(mem + pm.limit, MEM_SIZE - pm.limit);
    acpi_find_rsdp(&r, &pm);
    ASAN_UNPOISON_MEMORY_REGION(mem + pm.limit, MEM_SIZE - pm.limit);
    check(&r);
    memset(mem + PAYLOAD_AT, 0, in_mem);
    memset(mem + ebda, 0, in_ebda);
    mem[0x40E] = mem[0x40F] = 0;

    acpi_parse_rsdp(&r, payload, n);
    check(&r);
    free(payload);
    return 0;
}
