/* The ACPI RSDP: see acpi.h. Offsets are those of the ACPI specification, 5.2.5.3. */
#include "acpi.h"
#include "../lib/le.h"
#include "../lib/bda.h"
#include "../lib/string.h"

#define RSDP_SIGNATURE          "RSD PTR "
#define RSDP_OFF_OEM_ID         9
#define RSDP_OFF_REVISION       15
#define RSDP_OFF_RSDT           16
#define RSDP_OFF_LENGTH         20
#define RSDP_OFF_XSDT           24

static const char *const status_names[] = {
    [ACPI_RSDP_NOT_FOUND] = "no RSDP",
    [ACPI_RSDP_OK] = "ok",
    [ACPI_RSDP_V1_ONLY] = "ACPI 2.0+ part invalid, RSDT only",
};

const char *acpi_rsdp_status_name(enum acpi_rsdp_status status)
{
    return (unsigned)status < sizeof(status_names) / sizeof(status_names[0])
           ? status_names[status] : "?";
}

/* Checks one candidate of which avail bytes may be read; fills r (but not its
 * location or counters) and returns its status. */
static enum acpi_rsdp_status check(struct acpi_rsdp *r, const uint8_t *p, size_t avail,
                                   bool *bad_sum, bool *bad_ext)
{
    *bad_sum = *bad_ext = false;
    if (avail < ACPI_RSDP_V1_LEN || memcmp(p, RSDP_SIGNATURE, 8))
        return ACPI_RSDP_NOT_FOUND;
    if (fw_sum(p, ACPI_RSDP_V1_LEN)) {
        *bad_sum = true;
        return ACPI_RSDP_NOT_FOUND;
    }
    r->revision = p[RSDP_OFF_REVISION];
    fw_copy_text(r->oem_id, sizeof(r->oem_id), p + RSDP_OFF_OEM_ID, ACPI_OEM_ID_LEN);
    r->rsdt_addr = le32(p + RSDP_OFF_RSDT);
    r->length = 0;
    r->have_xsdt = false;
    r->xsdt_addr = 0;
    if (r->revision < 2)
        return ACPI_RSDP_OK;
    /* 2.0+: the length field and XSDT address lie past the first 20 bytes. */
    if (avail < ACPI_RSDP_LEN_MIN)
        return ACPI_RSDP_V1_ONLY;
    r->length = le32(p + RSDP_OFF_LENGTH);
    if (r->length < ACPI_RSDP_LEN_MIN || r->length > ACPI_RSDP_LEN_MAX ||
        r->length > avail || fw_sum(p, r->length)) {
        *bad_ext = true;
        return ACPI_RSDP_V1_ONLY;
    }
    r->have_xsdt = true;
    r->xsdt_addr = le64(p + RSDP_OFF_XSDT);
    return ACPI_RSDP_OK;
}

/* Scans for candidates starting in [start, end) on 16-byte boundaries, reading
 * nothing at or past read_end. Keeps in *best the first valid RSDP, or else the first
 * V1_ONLY one; returns true once a valid one is found. */
static bool scan(struct acpi_rsdp *best, const struct physmem *pm, uint32_t start,
                 uint32_t end, uint32_t read_end, enum acpi_rsdp_where where)
{
    uint64_t stop = read_end < pm->limit ? read_end : pm->limit;

    for (uint64_t a = (start + 15ull) & ~15ull; a < end && a + ACPI_RSDP_V1_LEN <= stop;
         a += 16) {
        struct acpi_rsdp r = { 0 };
        bool bad_sum, bad_ext;
        enum acpi_rsdp_status s = check(&r, physmem_at(pm, a), (size_t)(stop - a),
                                        &bad_sum, &bad_ext);
        best->bad_checksums += bad_sum;
        best->bad_extended += bad_ext;
        if (s == ACPI_RSDP_NOT_FOUND || (s == ACPI_RSDP_V1_ONLY && best->status))
            continue;
        /* Keep the search's own fields. */
        r.status = s;
        r.where = where;
        r.addr = (uint32_t)a;
        r.ebda = best->ebda;
        r.bad_checksums = best->bad_checksums;
        r.bad_extended = best->bad_extended;
        *best = r;
        if (s == ACPI_RSDP_OK)
            return true;
    }
    return false;
}

void acpi_find_rsdp(struct acpi_rsdp *rsdp, const struct physmem *pm)
{
    *rsdp = (struct acpi_rsdp){ 0 };
    if (physmem_ok(pm, BDA_EBDA_SEGMENT, 2)) {
        uint32_t ebda = ebda_from_bda(le16(physmem_at(pm, BDA_EBDA_SEGMENT)));
        if (ebda) {
            /* An RSDP starting in the first KiB may end past it, not past 640 KiB. */
            rsdp->ebda = ebda;
            if (scan(rsdp, pm, ebda, ebda + EBDA_SCAN_LEN, VIDEO_MEMORY, ACPI_RSDP_IN_EBDA))
                return;
        }
    }
    scan(rsdp, pm, BIOS_AREA_START, BIOS_AREA_END, BIOS_AREA_END,
         ACPI_RSDP_IN_BIOS);
}

bool acpi_parse_rsdp(struct acpi_rsdp *rsdp, const uint8_t *p, size_t len)
{
    bool bad_sum, bad_ext;

    *rsdp = (struct acpi_rsdp){ 0 };
    rsdp->status = check(rsdp, p, len, &bad_sum, &bad_ext);
    rsdp->where = ACPI_RSDP_IN_COPY;
    rsdp->bad_checksums = bad_sum;
    rsdp->bad_extended = bad_ext;
    return rsdp->status != ACPI_RSDP_NOT_FOUND;
}
