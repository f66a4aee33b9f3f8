/* The RSDT/XSDT walk and the FADT: see acpi_tables.h. Offsets are those of the ACPI
 * specification (6.x: 5.2.6 header, 5.2.7 RSDT, 5.2.8 XSDT, 5.2.9 FADT Table 5.9),
 * checked against ACPICA's struct acpi_table_fadt (actbl.h). */
#include "acpi_tables.h"
#include "../lib/le.h"
#include "../lib/string.h"

#define HDR_OFF_LENGTH          4
#define HDR_OFF_REVISION        8

#define FADT_OFF_FIRMWARE_CTRL  36
#define FADT_OFF_DSDT           40
#define FADT_OFF_SMI_CMD        48
#define FADT_OFF_ACPI_ENABLE    52
#define FADT_OFF_ACPI_DISABLE   53
#define FADT_OFF_PM1A_EVT_BLK   56
#define FADT_OFF_PM1B_EVT_BLK   60
#define FADT_OFF_PM1A_CNT_BLK   64
#define FADT_OFF_PM1B_CNT_BLK   68
#define FADT_OFF_GPE0_BLK       80
#define FADT_OFF_GPE1_BLK       84
#define FADT_OFF_PM1_EVT_LEN    88
#define FADT_OFF_PM1_CNT_LEN    89
#define FADT_OFF_GPE0_BLK_LEN   92
#define FADT_OFF_GPE1_BLK_LEN   93
#define FADT_OFF_FLAGS          112
#define FADT_OFF_RESET_REG      116
#define FADT_OFF_RESET_VALUE    128
#define FADT_OFF_X_FIRMWARE_CTRL 132
#define FADT_OFF_X_DSDT         140
#define FADT_OFF_X_PM1A_EVT_BLK 148
#define FADT_OFF_X_PM1B_EVT_BLK 160
#define FADT_OFF_X_PM1A_CNT_BLK 172
#define FADT_OFF_X_PM1B_CNT_BLK 184
#define FADT_OFF_X_GPE0_BLK     220
#define FADT_OFF_X_GPE1_BLK     232
#define FADT_OFF_SLEEP_CONTROL  244
#define FADT_OFF_SLEEP_STATUS   256
#define GAS_LEN                 12

#define ECDT_OFF_CONTROL        36
#define ECDT_OFF_DATA           48
#define ECDT_OFF_GPE            64
#define ECDT_OFF_ID             65

uint32_t acpi_check_table(const struct physmem *pm, uint64_t addr, const char *sig,
                          uint32_t max_len, bool *bad_sum)
{
    *bad_sum = false;
    if (!addr || !physmem_ok(pm, addr, ACPI_HEADER_LEN))
        return 0;
    const uint8_t *p = physmem_at(pm, addr);
    if (sig && memcmp(p, sig, 4))
        return 0;
    uint32_t len = le32(p + HDR_OFF_LENGTH);
    if (len < ACPI_HEADER_LEN || len > max_len || !physmem_ok(pm, addr, len))
        return 0;
    *bad_sum = fw_sum(p, len) != 0;
    return len;
}

/* A field of n bytes at off, or 0 when the FADT ends before it. */
static uint32_t field(const uint8_t *p, uint32_t len, uint32_t off, uint32_t n)
{
    if (off + n > len)
        return 0;
    return n == 1 ? p[off] : le32(p + off);
}

static void read_gas(struct acpi_gas *g, const uint8_t *p)
{
    g->space = p[0];
    g->bit_width = p[1];
    g->bit_offset = p[2];
    g->access_size = p[3];
    g->addr = le64(p + 4);
}

/* One PM1 control block: the X_ structure when it is present and in I/O space
 * (ACPI 2.0+ says it supersedes the 32-bit field), else the 32-bit field. */
static void pm1_block(struct acpi_fadt *f, const uint8_t *p, uint32_t len, uint32_t off32,
                      uint32_t off_x, uint32_t *port, uint8_t *from, unsigned which)
{
    uint32_t blk = field(p, len, off32, 4);
    struct acpi_gas x;

    *port = blk;
    *from = blk ? ACPI_BLK_32 : ACPI_BLK_NONE;
    if (off_x + GAS_LEN > len)
        return;
    read_gas(&x, p + off_x);
    if (!x.addr)
        return;
    if (x.space != ACPI_SPACE_IO || x.addr > 0xFFFF) {
        f->pm1_notes |= ACPI_PM1A_X_IGNORED << which;
        return;
    }
    if (blk && x.addr != blk)
        f->pm1_notes |= ACPI_PM1A_X_MISMATCH << which;
    *port = (uint32_t)x.addr;
    *from = ACPI_BLK_X_IO;
}

/* A register block as ACPICA's AcpiTbConvertFadt builds it: the X_ GAS when its
 * address is set (its width, or the 32-bit length when the width is 0), else the
 * 32-bit field with the FADT's length byte. A mismatch is kept, and X_ wins. */
static void block(struct acpi_block *b, const uint8_t *p, uint32_t len, uint32_t off32,
                  uint32_t off_len, uint32_t off_x)
{
    struct acpi_gas x;
    uint8_t len32 = (uint8_t)field(p, len, off_len, 1);

    *b = (struct acpi_block){ .space = ACPI_SPACE_IO, .addr32 = field(p, len, off32, 4) };
    b->addr = b->addr32;
    b->len = b->addr32 ? len32 : 0;
    if (off_x + GAS_LEN > len)
        return;
    read_gas(&x, p + off_x);
    if (!x.addr)
        return;
    b->mismatch = b->addr32 && b->addr32 != x.addr;
    b->from_x = true;
    b->space = x.space;
    b->addr = x.addr;
    b->len = x.bit_width ? x.bit_width / 8 : len32;
}

void acpi_parse_fadt(struct acpi_fadt *f, const uint8_t *p, uint32_t len)
{
    *f = (struct acpi_fadt){ 0 };
    f->length = len;
    f->revision = field(p, len, HDR_OFF_REVISION, 1);
    f->dsdt32 = field(p, len, FADT_OFF_DSDT, 4);
    f->smi_cmd = field(p, len, FADT_OFF_SMI_CMD, 4);
    f->acpi_enable = field(p, len, FADT_OFF_ACPI_ENABLE, 1);
    f->acpi_disable = field(p, len, FADT_OFF_ACPI_DISABLE, 1);
    f->pm1a_evt = field(p, len, FADT_OFF_PM1A_EVT_BLK, 4);
    f->pm1b_evt = field(p, len, FADT_OFF_PM1B_EVT_BLK, 4);
    f->pm1_cnt_len = field(p, len, FADT_OFF_PM1_CNT_LEN, 1);
    pm1_block(f, p, len, FADT_OFF_PM1A_CNT_BLK, FADT_OFF_X_PM1A_CNT_BLK, &f->pm1a_cnt,
              &f->pm1a_cnt_from, 0);
    f->pm1a_cnt32 = field(p, len, FADT_OFF_PM1A_CNT_BLK, 4);
    pm1_block(f, p, len, FADT_OFF_PM1B_CNT_BLK, FADT_OFF_X_PM1B_CNT_BLK, &f->pm1b_cnt,
              &f->pm1b_cnt_from, 1);
    f->have_flags = FADT_OFF_FLAGS + 4 <= len;
    f->flags = field(p, len, FADT_OFF_FLAGS, 4);
    f->have_reset = FADT_OFF_RESET_VALUE + 1 <= len;
    if (f->have_reset) {
        read_gas(&f->reset_reg, p + FADT_OFF_RESET_REG);
        f->reset_value = p[FADT_OFF_RESET_VALUE];
    }
    if (FADT_OFF_X_DSDT + 8 <= len)
        f->x_dsdt = le64(p + FADT_OFF_X_DSDT);
    block(&f->pm1a_evt_blk, p, len, FADT_OFF_PM1A_EVT_BLK, FADT_OFF_PM1_EVT_LEN,
          FADT_OFF_X_PM1A_EVT_BLK);
    block(&f->pm1b_evt_blk, p, len, FADT_OFF_PM1B_EVT_BLK, FADT_OFF_PM1_EVT_LEN,
          FADT_OFF_X_PM1B_EVT_BLK);
    block(&f->gpe0_blk, p, len, FADT_OFF_GPE0_BLK, FADT_OFF_GPE0_BLK_LEN, FADT_OFF_X_GPE0_BLK);
    block(&f->gpe1_blk, p, len, FADT_OFF_GPE1_BLK, FADT_OFF_GPE1_BLK_LEN, FADT_OFF_X_GPE1_BLK);
    f->facs = field(p, len, FADT_OFF_FIRMWARE_CTRL, 4);
    if (FADT_OFF_X_FIRMWARE_CTRL + 8 <= len && le64(p + FADT_OFF_X_FIRMWARE_CTRL))
        f->facs = le64(p + FADT_OFF_X_FIRMWARE_CTRL);
    if (FADT_OFF_SLEEP_STATUS + GAS_LEN <= len) {
        read_gas(&f->sleep_control, p + FADT_OFF_SLEEP_CONTROL);
        read_gas(&f->sleep_status, p + FADT_OFF_SLEEP_STATUS);
        f->have_sleep_regs = f->sleep_control.addr && f->sleep_status.addr;
    }
}

static void parse_ecdt(struct acpi_ecdt *e, const uint8_t *p, uint32_t len)
{
    struct acpi_gas control, data;

    if (len < ECDT_OFF_ID + 1)
        return;
    read_gas(&control, p + ECDT_OFF_CONTROL);
    read_gas(&data, p + ECDT_OFF_DATA);
    e->found = true;
    if (control.space == ACPI_SPACE_IO && control.addr <= 0xFFFF)
        e->control = (uint16_t)control.addr;
    if (data.space == ACPI_SPACE_IO && data.addr <= 0xFFFF)
        e->data = (uint16_t)data.addr;
    e->gpe = p[ECDT_OFF_GPE];
    uint32_t n = 0;
    while (ECDT_OFF_ID + n < len && n + 1 < sizeof(e->id) && p[ECDT_OFF_ID + n]) {
        uint8_t c = p[ECDT_OFF_ID + n];
        e->id[n++] = c >= 0x20 && c < 0x7F ? (char)c : '?';
    }
    e->id[n] = 0;
}

/* The DSDT: X_DSDT first when usable, then the 32-bit field (a firmware may fill
 * only one of them, or put a stale value in X_DSDT). */
static void find_dsdt(struct acpi_tables *t, const struct physmem *pm)
{
    bool bad;
    uint32_t len;

    if (t->fadt.x_dsdt && t->fadt.x_dsdt < PHYSMEM_4G &&
        (len = acpi_check_table(pm, t->fadt.x_dsdt, "DSDT", ACPI_AML_LEN_MAX, &bad))) {
        t->dsdt = (struct acpi_table_ref){ (uint32_t)t->fadt.x_dsdt, len };
        t->dsdt_from_x = true;
    } else if ((len = acpi_check_table(pm, t->fadt.dsdt32, "DSDT", ACPI_AML_LEN_MAX,
                                       &bad))) {
        t->dsdt = (struct acpi_table_ref){ t->fadt.dsdt32, len };
    } else {
        return;
    }
    t->dsdt_bad_checksum = bad;
    t->bad_checksums += bad;
}

/* One root table entry: the FADT (the first valid one), or an SSDT. */
static void entry(struct acpi_tables *t, const struct physmem *pm, uint64_t addr)
{
    bool bad;
    uint32_t len;

    if (addr >= PHYSMEM_4G || !physmem_ok(pm, addr, ACPI_HEADER_LEN)) {
        t->entries_skipped++;
        return;
    }
    const uint8_t *p = physmem_at(pm, addr);
    if (!memcmp(p, "FACP", 4) && !t->fadt.length &&
        (len = acpi_check_table(pm, addr, "FACP", ACPI_TABLE_LEN_MAX, &bad))) {
        acpi_parse_fadt(&t->fadt, p, len);
        t->fadt.addr = (uint32_t)addr;
        t->fadt.bad_checksum = bad;
        t->bad_checksums += bad;
    } else if (!memcmp(p, "SSDT", 4) &&
               (len = acpi_check_table(pm, addr, "SSDT", ACPI_AML_LEN_MAX, &bad))) {
        if (t->ssdt_count == ACPI_SSDT_MAX) {
            t->ssdt_dropped++;
            return;
        }
        t->ssdt_bad_checksum |= (uint64_t)bad << t->ssdt_count;
        t->ssdt[t->ssdt_count++] = (struct acpi_table_ref){ (uint32_t)addr, len };
        t->bad_checksums += bad;
    } else if (!memcmp(p, "ECDT", 4) && !t->ecdt.found &&
               (len = acpi_check_table(pm, addr, "ECDT", ACPI_TABLE_LEN_MAX, &bad))) {
        parse_ecdt(&t->ecdt, p, len);
    } else if (!acpi_check_table(pm, addr, NULL, ACPI_AML_LEN_MAX, &bad)) {
        t->entries_skipped++;   /* a table we do not read, but with a broken header */
    }
}

/* Walks one root table of entries of width bytes. Returns false if its header fails. */
static bool walk_root(struct acpi_tables *t, const struct physmem *pm, uint64_t addr,
                      const char *sig, unsigned width)
{
    bool bad;
    uint32_t len = acpi_check_table(pm, addr, sig, ACPI_TABLE_LEN_MAX, &bad);

    if (!len)
        return false;
    t->root_status = ACPI_ROOT_OK;
    t->via_xsdt = width == 8;
    t->root_addr = (uint32_t)addr;
    t->root_bad_checksum = bad;
    t->bad_checksums += bad;
    t->entries = (len - ACPI_HEADER_LEN) / width;
    const uint8_t *p = physmem_at(pm, addr) + ACPI_HEADER_LEN;
    for (uint32_t i = 0; i < t->entries; i++, p += width) {
        if (i == ACPI_ROOT_ENTRIES_MAX) {
            t->entries_skipped += t->entries - i;
            break;
        }
        entry(t, pm, width == 8 ? le64(p) : le32(p));
    }
    return true;
}

bool acpi_read_tables(struct acpi_tables *t, const struct physmem *pm,
                      const struct acpi_rsdp *rsdp)
{
    *t = (struct acpi_tables){ 0 };
    if (!rsdp || rsdp->status == ACPI_RSDP_NOT_FOUND)
        return false;
    t->root_status = ACPI_ROOT_UNREADABLE;
    if (rsdp->have_xsdt && rsdp->xsdt_addr < PHYSMEM_4G &&
        walk_root(t, pm, rsdp->xsdt_addr, "XSDT", 8)) {
        if (t->fadt.length)
            goto found;
        /* The XSDT's FADT is missing or broken: try the RSDT's, as Linux does. */
        *t = (struct acpi_tables){ .root_status = ACPI_ROOT_UNREADABLE };
        t->xsdt_had_no_fadt = true;
    }
    if (!walk_root(t, pm, rsdp->rsdt_addr, "RSDT", 4) && t->xsdt_had_no_fadt) {
        /* No RSDT either: keep what the XSDT gave. */
        *t = (struct acpi_tables){ .root_status = ACPI_ROOT_UNREADABLE };
        walk_root(t, pm, rsdp->xsdt_addr, "XSDT", 8);
        t->xsdt_had_no_fadt = true;
    }
found:
    if (t->fadt.length)
        find_dsdt(t, pm);
    return t->fadt.length != 0;
}
