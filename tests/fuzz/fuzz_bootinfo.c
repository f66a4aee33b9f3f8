/* libFuzzer target: system/bootinfo.c's bootinfo_parse() on hostile boot information.
 *
 * Multiboot 2 (byte 0 odd): the rest of the input is the information block, in a heap
 * copy of exactly its size whose total_size field is set to that size, so any read
 * the parser makes past total_size is a read past the block, which AddressSanitizer
 * reports. (A total_size larger than the block the loader gave cannot be told from a
 * good one, so the harness does not fuzz that.)
 *
 * Multiboot 1 (byte 0 even): the information block holds 32-bit physical addresses of
 * the command line, loader name and memory map, which the parser follows as the
 * loader gave them: in the kernel every address is readable memory, but here most
 * would point outside the buffer. So the harness folds each of the three addresses
 * into the input's bytes (address % size) and puts 4096 bytes of non-zero slack
 * after them, the most the parser may read from any of them (its bounds: 1 KiB of
 * command line, 256 bytes of loader name, 4 KiB of memory map). A read past those
 * bounds runs off the heap block and AddressSanitizer reports it.
 *
 * An RSDP copied from a multiboot 2 ACPI tag goes on to survey/acpi.c, as in the
 * kernel. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../system/bootinfo.h"
#include "../../survey/acpi.h"
#include "../../lib/le.h"

#define MB1_OFF_CMDLINE         16
#define MB1_OFF_MMAP_ADDR       48
#define MB1_OFF_LOADER          64
#define MB1_INFO_READ           68      /* the parser reads the block up to here */
#define MB1_SLACK               4096

static struct bootinfo bi;

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Terminated within its buffer; printable too where `printable` (the loader's name:
 * the command line keeps its bytes for the options to refuse by name). */
static void check_string(const char *s, size_t size, int printable)
{
    size_t len = strnlen(s, size);
    if (len >= size)
        abort();
    for (size_t i = 0; printable && i < len; i++)
        if (s[i] < 0x20 || s[i] > 0x7E)
            abort();
}

static void check(void)
{
    check_string(bi.cmdline, sizeof(bi.cmdline), 0);
    check_string(bi.loader, sizeof(bi.loader), 1);
    if (bi.mmap_count > BOOTINFO_MMAP_MAX)
        abort();
    if (bi.have_fb && bi.fb.bpp != 16 && bi.fb.bpp != 24 && bi.fb.bpp != 32)
        abort();
    if (bi.rsdp_len > BOOTINFO_RSDP_MAX)
        abort();
    if (bi.rsdp_len) {
        struct acpi_rsdp r;
        uint8_t *copy = malloc(bi.rsdp_len);    /* exactly its size, for ASan */
        memcpy(copy, bi.rsdp, bi.rsdp_len);
        acpi_parse_rsdp(&r, copy, bi.rsdp_len);
        free(copy);
    }
}

static void fuzz_mb1(const uint8_t *data, size_t n)
{
    size_t region = n > MB1_INFO_READ ? n : MB1_INFO_READ;
    uint8_t *mem = malloc(region + MB1_SLACK);

    memset(mem, 'A', region + MB1_SLACK);
    memcpy(mem, data, n);
    static const int fields[] = { MB1_OFF_CMDLINE, MB1_OFF_MMAP_ADDR, MB1_OFF_LOADER };
    for (int i = 0; i < 3; i++)
        put32(mem + fields[i], le32(mem + fields[i]) % (uint32_t)region);
    bootinfo_parse(&bi, MB1_BOOT_MAGIC, 0, (uintptr_t)mem);
    check();
    free(mem);
}

static void fuzz_mb2(const uint8_t *data, size_t n)
{
    uint8_t *mem = calloc(1, n > 4 ? n : 4);

    memcpy(mem, data, n);
    put32(mem, (uint32_t)n);
    bootinfo_parse(&bi, MB2_BOOT_MAGIC, 0, (uintptr_t)mem);
    check();
    free(mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] & 1)
        fuzz_mb2(data + 1, size - 1);
    else
        fuzz_mb1(data + 1, size - 1);
    return 0;
}
