/* libFuzzer target: survey/smbios.c on hostile memory.
 *
 * The input after its first byte is the whole of "physical memory" (a heap copy of
 * exactly that size, so AddressSanitizer sees any read past it), scanned from end to
 * end and also handed over as an entry point copy. Random bytes almost never carry
 * good checksums, so the first byte can ask for an entry point at offset 0 made
 * valid: its anchor written, its checksums fixed and its table address folded into
 * memory; the fuzzer then owns the table walk.
 *
 *   byte 0, bits 0-1: 0 raw, 1 "_SM_" + "_DMI_", 2 "_SM3_", 3 "_DMI_" alone
 *           bit 2:    fold the table address into memory */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../survey/smbios.h"
#include "../../lib/le.h"

static uint8_t sum(const uint8_t *p, size_t n)
{
    uint8_t s = 0;
    while (n--)
        s = (uint8_t)(s + *p++);
    return s;
}

static void fix(uint8_t *p, size_t n, size_t at)
{
    p[at] = 0;
    p[at] = (uint8_t)-sum(p, n);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void make_dmi(uint8_t *m, size_t n, size_t at, int fold)
{
    memcpy(m + at, "_DMI_", 5);
    if (fold)
        put32(m + at + 8, le32(m + at + 8) % (uint32_t)n);
    fix(m + at, 15, 5);
}

static void make_entry(uint8_t *m, size_t n, int kind, int fold)
{
    switch (kind) {
    case 1:
        if (n < 0x1F)
            return;
        memcpy(m, "_SM_", 4);
        if (m[5] < 0x1E || m[5] > 0x1F)
            m[5] = 0x1F;
        make_dmi(m, n, 16, fold);
        fix(m, m[5], 4);
        break;
    case 2:
        if (n < 0x18)
            return;
        memcpy(m, "_SM3_", 5);
        m[6] = 0x18;
        if (fold) {
            put32(m + 16, le32(m + 16) % (uint32_t)n);
            put32(m + 20, 0);
        }
        fix(m, 0x18, 5);
        break;
    case 3:
        if (n < 15)
            return;
        make_dmi(m, n, 0, fold);
        break;
    }
}

static void check_string(const char *s)
{
    size_t len = strnlen(s, SMBIOS_STR_MAX + 1);
    if (len > SMBIOS_STR_MAX)
        abort();
    if (len && s[len - 1] == ' ')      /* trailing spaces are dropped; any other */
        abort();                        /* byte but NUL is kept */
}

static void check(const struct smbios_info *info)
{
    if (info->structures > SMBIOS_MAX_STRUCTURES || info->status > SMBIOS_MALFORMED ||
        info->kind > SMBIOS_ENTRY_LEGACY_DMI)
        abort();
    if ((info->status == SMBIOS_MALFORMED) != (info->problem != SMBIOS_PROBLEM_NONE))
        abort();
    if (info->status == SMBIOS_NOT_FOUND && (info->kind || info->structures))
        abort();
    check_string(info->bios_vendor);
    check_string(info->bios_version);
    check_string(info->bios_date);
    check_string(info->sys_vendor);
    check_string(info->sys_product);
    check_string(info->sys_version);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct smbios_info info;

    if (size < 1)
        return 0;
    uint8_t mode = data[0];
    size_t n = size - 1;
    uint8_t *m = malloc(n ? n : 1);
    memcpy(m, data + 1, n);
    if (n)
        make_entry(m, n, mode & 3, mode & 4);
    struct physmem pm = { (uintptr_t)m, n };

    smbios_scan(&info, &pm, 0, (uint32_t)n);
    check(&info);
    smbios_from_entry(&info, &pm, m, n < 0x20 ? n : 0x20);
    check(&info);
    free(m);
    return 0;
}
