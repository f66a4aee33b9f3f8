/* Reading the EFI system table: see efi.h. Layouts from the UEFI specification,
 * section 4.3 (EFI_SYSTEM_TABLE) and 4.6 (EFI_CONFIGURATION_TABLE): pointers and
 * UINTN are 8 bytes on x64 firmware and 4 on ia32. */
#include "efi.h"
#include "../lib/le.h"

#define EFI_FOUR_GIB 0x100000000ull  /* the thunk identity-maps the first 4 GiB */

#define EFI_SYSTEM_TABLE_SIGNATURE_LO   0x20494249u     /* "IBI SYST" */
#define EFI_SYSTEM_TABLE_SIGNATURE_HI   0x54535953u
#define EFI_TABLES_MAX                  64      /* real firmware has a dozen or two */
#define GUID_LEN                        16

static const uint8_t smbios_guid[GUID_LEN] = {          /* EB9D2D31-2D88-11D3-... */
    0x31, 0x2D, 0x9D, 0xEB, 0x88, 0x2D, 0xD3, 0x11,
    0x9A, 0x16, 0x00, 0x90, 0x27, 0x3F, 0xC1, 0x4D,
};
static const uint8_t smbios3_guid[GUID_LEN] = {         /* F2FD1544-9794-4A2C-... */
    0x44, 0x15, 0xFD, 0xF2, 0x94, 0x97, 0x2C, 0x4A,
    0x99, 0x2E, 0xE5, 0xBB, 0xCF, 0x20, 0xE3, 0x94,
};
static const uint8_t acpi20_guid[GUID_LEN] = {          /* 8868E871-E4F1-11D3-... */
    0x71, 0xE8, 0x68, 0x88, 0xF1, 0xE4, 0xD3, 0x11,
    0xBC, 0x22, 0x00, 0x80, 0xC7, 0x3C, 0x88, 0x81,
};

static bool same_guid(const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < GUID_LEN; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static uint64_t read_ptr(const uint8_t *p, bool efi64)
{
    return efi64 ? le64(p) : le32(p);
}

/* The vendor is UCS-2; keep the printable ASCII characters. */
static void read_vendor(struct efi_info *info, const struct physmem *pm, uint64_t addr)
{
    unsigned n = 0;
    for (unsigned i = 0; i < EFI_VENDOR_MAX && physmem_ok(pm, addr + 2 * i, 2); i++) {
        const uint8_t *c = physmem_at(pm, addr + 2 * i);
        if (!c[0] && !c[1])
            break;
        info->vendor[n++] = (c[1] == 0 && c[0] >= 0x20 && c[0] < 0x7F) ? (char)c[0] : '?';
    }
    info->vendor[n] = '\0';
}

/* UEFI 2.x 4.5: EFI_RUNTIME_SERVICES is a header and eleven pointers, ResetSystem the
 * last (GetTime, SetTime, GetWakeupTime, SetWakeupTime, SetVirtualAddressMap,
 * ConvertPointer, GetVariable, GetNextVariableName, SetVariable,
 * GetNextHighMonotonicCount, ResetSystem). */
#define EFI_RUNTIME_SIGNATURE_LO    0x544E5552u     /* "RUNTSERV" */
#define EFI_RUNTIME_SIGNATURE_HI    0x56524553u
#define EFI_HEADER_LEN              24
#define EFI_RT_RESET_SYSTEM         10              /* index among the pointers */

static void read_runtime(struct efi_info *info, const struct physmem *pm, uint64_t rt,
                         bool efi64)
{
    const unsigned ptr = efi64 ? 8 : 4;
    const unsigned reset_off = EFI_HEADER_LEN + EFI_RT_RESET_SYSTEM * ptr;

    info->runtime_services = rt;
    if (!rt || !physmem_ok(pm, rt, reset_off + ptr))
        return;
    const uint8_t *r = physmem_at(pm, rt);
    if (le32(r) != EFI_RUNTIME_SIGNATURE_LO || le32(r + 4) != EFI_RUNTIME_SIGNATURE_HI)
        return;
    info->runtime_ok = true;
    info->reset_system = read_ptr(r + reset_off, efi64);
}

void efi_read_system_table(struct efi_info *info, const struct physmem *pm, uint64_t st,
                           bool efi64)
{
    const unsigned ptr = efi64 ? 8 : 4;
    const unsigned vendor_off = 24;
    const unsigned count_off = efi64 ? 104 : 64;
    const unsigned tables_off = count_off + ptr;

    *info = (struct efi_info){ 0 };
    if (!physmem_ok(pm, st, tables_off + ptr))
        return;
    const uint8_t *t = physmem_at(pm, st);
    if (le32(t) != EFI_SYSTEM_TABLE_SIGNATURE_LO || le32(t + 4) != EFI_SYSTEM_TABLE_SIGNATURE_HI)
        return;
    info->valid = true;
    info->efi64 = efi64;
    info->revision = le32(t + 8);
    read_runtime(info, pm, read_ptr(t + (efi64 ? 88 : 56), efi64), efi64);
    read_vendor(info, pm, read_ptr(t + vendor_off, efi64));

    uint64_t count = read_ptr(t + count_off, efi64);
    uint64_t tables = read_ptr(t + tables_off, efi64);
    if (count > EFI_TABLES_MAX)
        count = EFI_TABLES_MAX;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t entry = tables + i * (GUID_LEN + ptr);
        if (!physmem_ok(pm, entry, GUID_LEN + ptr))
            return;
        const uint8_t *e = physmem_at(pm, entry);
        uint64_t where = read_ptr(e + GUID_LEN, efi64);
        if (same_guid(e, smbios3_guid)) {
            info->smbios_entry = where;         /* 3.x wins over 2.x */
            info->smbios3 = true;
        } else if (same_guid(e, smbios_guid) && !info->smbios3) {
            info->smbios_entry = where;
        } else if (same_guid(e, acpi20_guid)) {
            info->acpi_rsdp = where;
        }
    }
}

enum efi_place efi_locate(const struct efi_region *runtime, unsigned count, bool have_map,
                          bool truncated, uint64_t addr, const struct efi_region **region)
{
    if (region)
        *region = 0;
    if (!have_map)
        return EFI_PLACE_NO_MAP;
    for (unsigned i = 0; i < count; i++) {
        const struct efi_region *r = &runtime[i];
        if (addr >= r->base && addr - r->base < r->pages * EFI_PAGE_BYTES) {
            if (region)
                *region = r;
            return r->type == EFI_RUNTIME_SERVICES_CODE ? EFI_PLACE_RUNTIME_CODE
                                                        : EFI_PLACE_RUNTIME_OTHER;
        }
    }
    return truncated ? EFI_PLACE_NO_MAP : EFI_PLACE_NOT_RUNTIME;
}

const char *efi_place_text(enum efi_place place)
{
    switch (place) {
    case EFI_PLACE_RUNTIME_CODE: return "in runtime services code";
    case EFI_PLACE_RUNTIME_OTHER: return "in a runtime region that is not code";
    case EFI_PLACE_NOT_RUNTIME: return "in no runtime region";
    default: return "not checked (no EFI memory map)";
    }
}

const char *efi_place_name(enum efi_place place)
{
    switch (place) {
    case EFI_PLACE_RUNTIME_CODE: return "runtime-code";
    case EFI_PLACE_RUNTIME_OTHER: return "runtime-other";
    case EFI_PLACE_NOT_RUNTIME: return "not-runtime";
    default: return "unchecked";
    }
}

const char *efi_unusable(const struct efi_info *efi, bool have_system_table)
{
    if (!have_system_table)
        return "no EFI system table (not booted by GRUB's multiboot 2 on UEFI)";
    if (!efi->valid)
        return "the EFI system table's signature is wrong";
    if (!efi->runtime_ok)
        return "no runtime services table (RUNTSERV)";
    if (!efi->reset_system)
        return "the runtime services table has no ResetSystem";
    if (efi->reset_system >= EFI_FOUR_GIB)
        return "ResetSystem lies above 4 GiB, outside the thunk's identity map";
    if (efi->reset_place == EFI_PLACE_NOT_RUNTIME)
        return "ResetSystem lies in no runtime region of the EFI memory map (memory the "
               "firmware gave up when boot services ended)";
    return 0;
}
