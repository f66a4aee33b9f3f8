/* SMBIOS entry points and structure table: see smbios.h. Offsets and type numbers
 * are those of DMTF DSP0134 (SMBIOS 3.x; 2.x entry point in 5.2.1). */
#include "smbios.h"
#include "../lib/le.h"
#include "../lib/string.h"

/* 5.2.2: the 64-bit ("_SM3_") entry point. */
#define EP3_MIN_LEN             0x18
#define EP3_OFF_LEN             6
#define EP3_OFF_MAJOR           7
#define EP3_OFF_MINOR           8
#define EP3_OFF_DOCREV          9
#define EP3_OFF_MAX_SIZE        12
#define EP3_OFF_ADDR            16

/* 5.2.1: the 32-bit ("_SM_") entry point; its last 15 bytes are the DMI one. */
#define EP2_LEN                 0x1F
#define EP2_LEN_21_BUG          0x1E    /* SMBIOS 2.1 said 1Eh; such BIOSes exist */
#define EP2_OFF_LEN             5
#define EP2_OFF_MAJOR           6
#define EP2_OFF_MINOR           7
#define EP2_OFF_DMI             16

/* The "_DMI_" intermediate (or, alone, legacy DMI 2.0) entry point. */
#define DMI_LEN                 15
#define DMI_OFF_TABLE_LEN       6
#define DMI_OFF_ADDR            8
#define DMI_OFF_COUNT           12
#define DMI_OFF_BCD_REVISION    14

#define EP_LEN_MAX              0x20    /* lengths above this are not believed */

/* 7.1 and 7.2: the strings the survey reports. */
#define TYPE_BIOS               0
#define TYPE_SYSTEM             1
#define TYPE_END                127
#define BIOS_OFF_VENDOR         4
#define BIOS_OFF_VERSION        5
#define BIOS_OFF_DATE           8
#define SYSTEM_OFF_VENDOR       4
#define SYSTEM_OFF_PRODUCT      5
#define SYSTEM_OFF_VERSION      6
#define HEADER_LEN              4

static const char *const status_names[] = {
    [SMBIOS_NOT_FOUND] = "no SMBIOS entry point",
    [SMBIOS_OK] = "ok",
    [SMBIOS_TABLE_ABOVE_4G] = "SMBIOS 3 table above 4 GiB",
    [SMBIOS_TABLE_UNREADABLE] = "table outside readable memory",
    [SMBIOS_MALFORMED] = "malformed structure table",
};

static const char *const problem_names[] = {
    [SMBIOS_PROBLEM_NONE] = "none",
    [SMBIOS_PROBLEM_SHORT_STRUCTURE] = "structure length below 4",
    [SMBIOS_PROBLEM_STRUCTURE_OVERRUN] = "structure runs past the table",
    [SMBIOS_PROBLEM_STRINGS_UNTERMINATED] = "strings not ended by a double NUL",
};

const char *smbios_status_name(enum smbios_status status)
{
    return (unsigned)status < sizeof(status_names) / sizeof(status_names[0])
           ? status_names[status] : "?";
}

const char *smbios_problem_name(enum smbios_problem problem)
{
    return (unsigned)problem < sizeof(problem_names) / sizeof(problem_names[0])
           ? problem_names[problem] : "?";
}

/* An entry point that passed its checks, before the table is looked at. */
struct entry {
    enum smbios_entry_kind kind;
    uint32_t addr;
    uint8_t major, minor, docrev;
    uint64_t table_addr;
    uint32_t table_len;
    uint16_t count;
};

static bool dmi_ok(const uint8_t *p)
{
    return !memcmp(p, "_DMI_", 5) && fw_sum(p, DMI_LEN) == 0;
}

static void take_dmi(struct entry *e, const uint8_t *dmi)
{
    e->table_len = le16(dmi + DMI_OFF_TABLE_LEN);
    e->table_addr = le32(dmi + DMI_OFF_ADDR);
    e->count = le16(dmi + DMI_OFF_COUNT);
}

/* Checks the entry point at p, of which avail bytes may be read. Returns its kind,
 * or SMBIOS_ENTRY_NONE; *bad is set when an anchor was there but the rest failed. */
static enum smbios_entry_kind parse_entry(struct entry *e, const uint8_t *p, size_t avail,
                                          bool *bad)
{
    *bad = false;
    *e = (struct entry){ 0 };
    if (avail >= 5 && !memcmp(p, "_SM3_", 5)) {
        uint8_t len = avail > EP3_OFF_LEN ? p[EP3_OFF_LEN] : 0;
        if (len < EP3_MIN_LEN || len > EP_LEN_MAX || len > avail || fw_sum(p, len)) {
            *bad = true;
            return SMBIOS_ENTRY_NONE;
        }
        e->major = p[EP3_OFF_MAJOR];
        e->minor = p[EP3_OFF_MINOR];
        e->docrev = p[EP3_OFF_DOCREV];
        e->table_len = le32(p + EP3_OFF_MAX_SIZE);
        e->table_addr = le64(p + EP3_OFF_ADDR);
        return e->kind = SMBIOS_ENTRY_3;
    }
    if (avail >= 4 && !memcmp(p, "_SM_", 4)) {
        uint8_t len = avail > EP2_OFF_LEN ? p[EP2_OFF_LEN] : 0;
        /* The whole structure is 1Fh bytes whatever the length byte says. */
        if (avail < EP2_LEN || len < EP2_LEN_21_BUG || len > EP_LEN_MAX || len > avail ||
            fw_sum(p, len) || !dmi_ok(p + EP2_OFF_DMI)) {
            *bad = true;
            return SMBIOS_ENTRY_NONE;
        }
        e->major = p[EP2_OFF_MAJOR];
        e->minor = p[EP2_OFF_MINOR];
        take_dmi(e, p + EP2_OFF_DMI);
        return e->kind = SMBIOS_ENTRY_2;
    }
    if (avail >= 5 && !memcmp(p, "_DMI_", 5)) {
        if (avail < DMI_LEN || !dmi_ok(p)) {
            *bad = true;
            return SMBIOS_ENTRY_NONE;
        }
        e->major = p[DMI_OFF_BCD_REVISION] >> 4;
        e->minor = p[DMI_OFF_BCD_REVISION] & 0x0F;
        take_dmi(e, p);
        return e->kind = SMBIOS_ENTRY_LEGACY_DMI;
    }
    return SMBIOS_ENTRY_NONE;
}

/* The string numbered n (from 1) of the set in [set, end), into dst; empty when
 * n is 0 (no string) or there are fewer strings. */
static void get_string(char *dst, const uint8_t *t, uint32_t set, uint32_t end, uint8_t n)
{
    dst[0] = '\0';
    if (!n)
        return;
    while (--n) {
        while (set < end && t[set])
            set++;
        if (++set >= end)
            return;
    }
    fw_copy_bytes(dst, SMBIOS_STR_MAX + 1, t + set, end - set);
}

static void take_strings(struct smbios_info *info, const uint8_t *t, uint32_t off,
                         uint8_t flen, uint32_t strings_end)
{
    const uint8_t *s = t + off;
    uint32_t set = off + flen;

    if (s[0] == TYPE_BIOS && !info->have_bios) {
        info->have_bios = true;
        if (flen > BIOS_OFF_VERSION) {
            get_string(info->bios_vendor, t, set, strings_end, s[BIOS_OFF_VENDOR]);
            get_string(info->bios_version, t, set, strings_end, s[BIOS_OFF_VERSION]);
        }
        if (flen > BIOS_OFF_DATE)
            get_string(info->bios_date, t, set, strings_end, s[BIOS_OFF_DATE]);
    } else if (s[0] == TYPE_SYSTEM && !info->have_system) {
        info->have_system = true;
        if (flen > SYSTEM_OFF_VERSION) {
            get_string(info->sys_vendor, t, set, strings_end, s[SYSTEM_OFF_VENDOR]);
            get_string(info->sys_product, t, set, strings_end, s[SYSTEM_OFF_PRODUCT]);
            get_string(info->sys_version, t, set, strings_end, s[SYSTEM_OFF_VERSION]);
        }
    }
}

static void malformed(struct smbios_info *info, enum smbios_problem problem, uint32_t off,
                      uint8_t type)
{
    info->status = SMBIOS_MALFORMED;
    info->problem = problem;
    info->problem_offset = off;
    info->problem_type = type;
}

/* 6.1.2: each structure is a formatted area (type, length, handle, fields) and a
 * set of NUL-terminated strings ended by one more NUL ("\0\0" when there are none). */
static void walk(struct smbios_info *info, const struct physmem *pm)
{
    uint64_t addr = info->table_addr;
    uint32_t len = info->table_len;
    unsigned max = SMBIOS_MAX_STRUCTURES;

    if (addr >= pm->limit || !len) {
        info->status = SMBIOS_TABLE_UNREADABLE;
        return;
    }
    if (len > pm->limit - addr) {
        len = (uint32_t)(pm->limit - addr);
        info->table_clamped = true;
    }
    if (len > SMBIOS_TABLE_MAX) {
        len = SMBIOS_TABLE_MAX;
        info->table_clamped = true;
    }
    /* 2.x counts its structures; a count of 0 is taken as "not said", as Linux does. */
    if (info->kind != SMBIOS_ENTRY_3 && info->entry_count && info->entry_count < max)
        max = info->entry_count;

    const uint8_t *t = physmem_at(pm, addr);
    uint32_t off = 0;
    info->status = SMBIOS_OK;
    while (info->structures < max && len - off >= HEADER_LEN) {
        uint8_t type = t[off], flen = t[off + 1];
        if (flen < HEADER_LEN) {
            malformed(info, SMBIOS_PROBLEM_SHORT_STRUCTURE, off, type);
            return;
        }
        if (flen > len - off) {
            malformed(info, SMBIOS_PROBLEM_STRUCTURE_OVERRUN, off, type);
            return;
        }
        uint32_t end = off + flen;      /* the string set's double NUL starts at end */
        while (end + 1 < len && (t[end] || t[end + 1]))
            end++;
        if (end + 1 >= len) {
            malformed(info, SMBIOS_PROBLEM_STRINGS_UNTERMINATED, off, type);
            return;
        }
        take_strings(info, t, off, flen, end);
        info->structures++;
        off = end + 2;
        if (type == TYPE_END) {
            info->end_seen = true;
            return;
        }
    }
    if (info->structures == SMBIOS_MAX_STRUCTURES)
        info->truncated = true;
    else if (info->kind != SMBIOS_ENTRY_3 && info->structures < info->entry_count)
        info->count_mismatch = true;
}

static void use_entry(struct smbios_info *info, const struct entry *e,
                      const struct physmem *pm)
{
    info->kind = e->kind;
    info->entry_addr = e->addr;
    info->major = e->major;
    info->minor = e->minor;
    info->docrev = e->docrev;
    info->table_addr = e->table_addr;
    info->table_len = e->table_len;
    info->entry_count = e->count;
    if (e->table_addr >= PHYSMEM_4G) {
        info->status = SMBIOS_TABLE_ABOVE_4G;
        return;
    }
    walk(info, pm);
}

void smbios_scan(struct smbios_info *info, const struct physmem *pm, uint32_t start,
                 uint32_t end)
{
    struct entry found[4] = { { 0 } };  /* by enum smbios_entry_kind */
    uint64_t stop = end < pm->limit ? end : pm->limit;

    *info = (struct smbios_info){ 0 };
    for (uint64_t a = (start + 15ull) & ~15ull; a + 16 <= stop; a += 16) {
        struct entry e;
        bool bad;
        enum smbios_entry_kind kind = parse_entry(&e, physmem_at(pm, a), (size_t)(stop - a),
                                                  &bad);
        info->bad_entries += bad;
        if (kind != SMBIOS_ENTRY_NONE && found[kind].kind == SMBIOS_ENTRY_NONE) {
            found[kind] = e;
            found[kind].addr = (uint32_t)a;
        }
    }
    /* 3.x first, unless it is out of reach and there is something else. */
    const struct entry *e3 = &found[SMBIOS_ENTRY_3], *use = e3;
    bool e3_far = e3->kind && e3->table_addr >= PHYSMEM_4G;
    if (!e3->kind || e3_far) {
        if (found[SMBIOS_ENTRY_2].kind)
            use = &found[SMBIOS_ENTRY_2];
        else if (found[SMBIOS_ENTRY_LEGACY_DMI].kind)
            use = &found[SMBIOS_ENTRY_LEGACY_DMI];
    }
    info->smbios3_above_4g = e3_far;
    if (!use->kind) {
        info->status = SMBIOS_NOT_FOUND;
        return;
    }
    use_entry(info, use, pm);
}

void smbios_from_entry(struct smbios_info *info, const struct physmem *pm,
                       const uint8_t *entry, size_t len)
{
    struct entry e;
    bool bad;

    *info = (struct smbios_info){ 0 };
    if (parse_entry(&e, entry, len, &bad) == SMBIOS_ENTRY_NONE) {
        info->bad_entries = bad;
        info->status = SMBIOS_NOT_FOUND;
        return;
    }
    info->smbios3_above_4g = e.kind == SMBIOS_ENTRY_3 && e.table_addr >= PHYSMEM_4G;
    use_entry(info, &e, pm);
}
