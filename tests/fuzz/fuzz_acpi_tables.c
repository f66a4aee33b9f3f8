/* libFuzzer target: survey/acpi_tables.c and acpi_s5.c on a hostile memory image.
 *
 * The input is "physical memory" from address 0, in a block of its exact size whose
 * end is the window's, so AddressSanitizer reports any read the checks let through.
 * Its first 13 bytes also make the RSDP: the RSDT address (bytes 0-3), the XSDT
 * address (4-11), and in byte 12 bit 0 whether the XSDT is offered. Checksums are not
 * required by the walk (it records them), so the fuzzer reaches every table through
 * the signatures in tests/fuzz/acpi_tables.dict. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../survey/acpi_s5.h"
#include "../../lib/le.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct acpi_rsdp rsdp = { .status = ACPI_RSDP_OK };
    struct acpi_s5 s5;

    if (size < 13)
        return 0;
    uint8_t *mem = malloc(size);
    memcpy(mem, data, size);
    rsdp.rsdt_addr = le32(data);
    rsdp.have_xsdt = data[12] & 1;
    rsdp.xsdt_addr = rsdp.have_xsdt ? le32(data + 4) | (uint64_t)le32(data + 8) << 32 : 0;
    struct physmem pm = { (uintptr_t)mem, size };

    bool found = acpi_s5_find(&pm, &rsdp, &s5);
    const struct acpi_tables *t = &s5.tables;
    if (found != (s5.reason == ACPI_S5_OK) || s5.reason > ACPI_S5_METHOD)
        abort();
    if (t->ssdt_count > ACPI_SSDT_MAX || s5.table > t->ssdt_count)
        abort();
    if (t->fadt.length && (t->fadt.length < ACPI_HEADER_LEN || t->fadt.addr >= size ||
                           t->fadt.length > size - t->fadt.addr))
        abort();
    if (t->dsdt.length && t->dsdt.length > size - t->dsdt.addr)
        abort();
    if (t->fadt.pm1a_cnt_from == ACPI_BLK_X_IO && t->fadt.pm1a_cnt > 0xFFFF)
        abort();
    if (t->fadt.pm1a_cnt_from == ACPI_BLK_NONE && t->fadt.pm1a_cnt)
        abort();
    free(mem);
    return 0;
}
