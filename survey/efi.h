/* The EFI system table, read after the boot loader has left boot services: what the
 * firmware calls itself, where its SMBIOS entry point is (UEFI machines have no
 * F0000h segment to scan) and its runtime services' ResetSystem (method=efi). Reads through a physmem window like the other parsers. */
#ifndef APMOFF_SURVEY_EFI_H
#define APMOFF_SURVEY_EFI_H

#include <stdbool.h>
#include <stdint.h>

#include "physmem.h"
#include "../lib/efi_mmap.h"

#define EFI_VENDOR_MAX 40

struct efi_info {
    bool valid;                 /* the signature matched and the table was readable */
    bool efi64;                 /* read with the x64 layout (x64 firmware) */
    uint32_t revision;          /* e.g. 0x00020046 for 2.70 */
    char vendor[EFI_VENDOR_MAX + 1];    /* firmware vendor, printable ASCII */
    uint64_t smbios_entry;      /* 0 when there is none */
    bool smbios3;               /* the entry point is a 3.x one */
    uint64_t acpi_rsdp;         /* 0 when there is none */
    uint64_t runtime_services;  /* the system table's RuntimeServices pointer, or 0 */
    bool runtime_ok;            /* that table's signature is "RUNTSERV" and it is readable */
    uint64_t reset_system;      /* its ResetSystem pointer (runtime_ok), or 0 */
    uint8_t reset_place;        /* enum efi_place, set by the survey (efi_locate) */
};

/* Where ResetSystem lies in the EFI memory map the loader passed on (multiboot 2 tag
 * 17): a service outside every runtime region points into memory the firmware gave
 * up at ExitBootServices(). */
enum efi_place {
    EFI_PLACE_NO_MAP,           /* no map to look in: not checked */
    EFI_PLACE_RUNTIME_CODE,     /* an EfiRuntimeServicesCode region: as it should be */
    EFI_PLACE_RUNTIME_OTHER,    /* a runtime region of another type (odd, but kept) */
    EFI_PLACE_NOT_RUNTIME,      /* in no runtime region: the call is not made */
};

/* The place of addr among the map's runtime regions; *region (when not NULL) gets
 * the region it is in. An incomplete list (truncated) never says NOT_RUNTIME. */
enum efi_place efi_locate(const struct efi_region *runtime, unsigned count, bool have_map,
                          bool truncated, uint64_t addr, const struct efi_region **region);
const char *efi_place_text(enum efi_place place);     /* "in runtime services code" */
const char *efi_place_name(enum efi_place place);     /* for JSON: "runtime-code" */

/* Why method=efi and reset=efi cannot call ResetSystem, or NULL when they can: the
 * one answer every caller (the survey, check, the methods) reads. have_system_table:
 * the boot loader passed one. */
const char *efi_unusable(const struct efi_info *efi, bool have_system_table);

/* st: the system table's physical address; efi64: 64-bit layout (x64 firmware). */
void efi_read_system_table(struct efi_info *info, const struct physmem *pm, uint64_t st,
                           bool efi64);

#endif
