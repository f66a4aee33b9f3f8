/* The firmware's AML in the kernel: see acpi_aml.h. */
#include "acpi_aml.h"
#include "aml_host.h"
#include "../../system/console.h"
#include "../../system/freemem.h"
#include "../../system/timer.h"
#include "../../lib/format.h"
#include "../../lib/string.h"

#define SST_INDICATOR_OFF   0   /* ACPI 6.x, 7.3.2 (_SST): the system is off */

static struct aml *aml;
static struct aml_host_state host;
static struct mem_range pool;

static uint32_t aml_bytes(const struct acpi_tables *t)
{
    uint32_t n = t->dsdt.length;

    for (unsigned i = 0; i < t->ssdt_count; i++)
        n += t->ssdt[i].length;
    return n;
}

/* The memory the tables themselves (and the FACS) sit in: never the pool. */
static unsigned table_ranges(const struct acpi_tables *t, struct mem_range *r, unsigned max)
{
    unsigned n = 0;

    if (t->dsdt.length && n < max)
        r[n++] = (struct mem_range){ t->dsdt.addr, (uint64_t)t->dsdt.addr + t->dsdt.length };
    if (t->fadt.length && n < max)
        r[n++] = (struct mem_range){ t->fadt.addr, (uint64_t)t->fadt.addr + t->fadt.length };
    if (t->fadt.facs && n < max)
        r[n++] = (struct mem_range){ t->fadt.facs, t->fadt.facs + 64 };
    if (t->root_addr && n < max)
        r[n++] = (struct mem_range){ t->root_addr, (uint64_t)t->root_addr + 4096 };
    for (unsigned i = 0; i < t->ssdt_count && n < max; i++)
        r[n++] = (struct mem_range){ t->ssdt[i].addr,
                                     (uint64_t)t->ssdt[i].addr + t->ssdt[i].length };
    return n;
}

/* A pool for these tables, and the interpreter in it. */
static bool create(const struct acpi_tables *t, const struct bootinfo *bi, unsigned pci_mech,
                   bool live, char *why, unsigned size)
{
    struct mem_range avoid[FREEMEM_AVOID_MAX];
    uint64_t largest;
    uint32_t need = (AML_POOL_FIXED + AML_POOL_PER_BYTE * aml_bytes(t) + 4095) & ~4095u;

    aml = 0;
    avoid[0] = freemem_kernel();
    unsigned n = 1 + table_ranges(t, avoid + 1, FREEMEM_AVOID_MAX - 1);
    if (!bi->mmap_count) {
        fmt_snprintf(why, size, "the boot loader gave no memory map to find %u KiB in",
                     (unsigned)(need / 1024));
        return false;
    }
    if (!freemem_find(bi->mmap, bi->mmap_count, avoid, n, need, &pool, &largest)) {
        fmt_snprintf(why, size, "the interpreter needs %u KiB for these tables, and the "
                     "largest free block is %u KiB", (unsigned)(need / 1024),
                     (unsigned)(largest / 1024));
        return false;
    }
    host = (struct aml_host_state){
        .live = live, .pci_mech = pci_mech, .tables = t,
        .own = { avoid[0], pool },
    };
    if (live && t->ecdt.found && t->ecdt.data && t->ecdt.control) {
        host.have_ec = true;
        host.ec = (struct acpi_ec){ t->ecdt.data, t->ecdt.control };
    }
    struct aml_config cfg = {
        .host = aml_host_kernel(&host), .limits = aml_default_limits(),
        .osi = AML_OSI_LINUX, .slack = true, .pci_setup = true, .protect_ports = true,
        .revision = 0x20200925,
    };
    aml = aml_create((void *)(uintptr_t)pool.base, (size_t)(pool.end - pool.base), &cfg);
    if (!aml)
        fmt_snprintf(why, size, "the interpreter did not start in %u KiB",
                     (unsigned)(need / 1024));
    return aml != 0;
}

/* The DSDT, then each SSDT in the root table's order, as ACPICA loads them. */
static unsigned load_all(const struct acpi_tables *t, char *why, unsigned size)
{
    unsigned loaded = 0;
    char err[112];

    for (unsigned i = 0; i <= t->ssdt_count; i++) {
        const struct acpi_table_ref *r = i ? &t->ssdt[i - 1] : &t->dsdt;
        if (aml_load_table(aml, (const uint8_t *)(uintptr_t)r->addr, r->length) &&
            !why[0]) {
            aml_error_format(aml, err, sizeof(err));
            if (i)
                fmt_snprintf(why, size, "SSDT %u stopped loading: %s", i, err);
            else
                fmt_snprintf(why, size, "the DSDT stopped loading: %s", err);
        }
        loaded++;
    }
    return loaded;
}

void acpi_aml_survey(struct acpi_aml_facts *out, const struct acpi_tables *t,
                     const struct bootinfo *bi, unsigned pci_mech)
{
    *out = (struct acpi_aml_facts){ .have_tables = t->dsdt.length != 0 };
    if (!out->have_tables)
        return;
    out->aml_bytes = aml_bytes(t);
    if (!create(t, bi, pci_mech, false, out->why, sizeof(out->why)))
        return;
    out->pool_kb = (uint32_t)((pool.end - pool.base) / 1024);
    uint64_t start = timer_us();
    out->tables = load_all(t, out->why, sizeof(out->why));
    out->load_ms = timer_ms_since(start, &out->load_exact);
    out->loaded = true;
    out->used_kb = (uint32_t)((aml_pool_used(aml) + 1023) / 1024);
    out->forgiven = aml_load_warnings(aml);
    struct aml_node *pts = aml_lookup(aml, 0, "\\_PTS");
    struct aml_node *s5 = aml_lookup(aml, 0, "\\_S5_");
    out->s5_type = s5 ? aml_node_type(s5) : AML_TYPE_ANY;
    out->pts = pts != 0;
    if (pts) {
        out->pts_ok = !aml_check_method(aml, "\\_PTS");
        if (!out->pts_ok)
            aml_error_format(aml, out->pts_why, sizeof(out->pts_why));
    }
}

void acpi_aml_report(const struct acpi_aml_facts *f)
{
    if (!f->have_tables)
        return;
    if (!f->loaded) {
        say("acpi: AML not loaded: %s", f->why);
        return;
    }
    say("acpi: AML: DSDT and %u SSDT%s, %u bytes, loaded dry in %s%u ms into %u of %u KiB "
        "(errors ACPICA forgives: %u)", f->tables - 1, f->tables == 2 ? "" : "s",
        (unsigned)f->aml_bytes, timer_bound(f->load_exact), (unsigned)f->load_ms,
        (unsigned)f->used_kb,
        (unsigned)f->pool_kb, f->forgiven);
    if (f->why[0])
        say("acpi: AML: %s", f->why);
    if (!f->pts)
        say("acpi: \\_PTS: none (nothing to run before S5)");
    else if (f->pts_ok)
        say("acpi: \\_PTS: can be evaluated (every opcode it reaches is supported)");
    else
        say("acpi: \\_PTS: cannot be evaluated: %s", f->pts_why);
    if (f->s5_type == AML_TYPE_METHOD)
        say("acpi: \\_S5_ is a method: its SLP_TYP values come from running it");
}

static bool visit_ec(struct aml *a, struct aml_node *dev, void *arg)
{
    struct aml_object *crs = 0;
    uint16_t ports[2];
    uint32_t len;
    char path[64];
    (void)arg;

    aml_node_path(dev, path, sizeof(path));
    struct aml_node *n = aml_lookup(a, dev, "_CRS");
    if (!host.have_ec && n && !aml_evaluate_node(a, n, 0, 0, &crs)) {
        const uint8_t *b = aml_object_bytes(crs, &len);
        if (b && aml_resource_io_ports(b, len, ports, 2) == 2) {
            host.ec = (struct acpi_ec){ ports[0], ports[1] };
            host.have_ec = true;
            say("acpi: EC %s: data port %Xh, command port %Xh (its _CRS)", path, ports[0],
                ports[1]);
        }
    }
    aml_release(a, crs);
    if (host.have_ec)
        aml_run_reg(a, dev, AML_SPACE_EC);
    return false;               /* the first EC that is present */
}

static bool visit_rtc(struct aml *a, struct aml_node *dev, void *arg)
{
    (void)arg;
    aml_run_reg(a, dev, AML_SPACE_CMOS);
    return true;
}

bool acpi_aml_start(const struct acpi_tables *t, const struct bootinfo *bi,
                    unsigned pci_mech, char *why, unsigned size)
{
    char partial[120] = "";

    why[0] = 0;
    if (!create(t, bi, pci_mech, true, why, size))
        return false;
    aml_host_label(&host, "load");
    uint64_t start = timer_us();
    unsigned n = load_all(t, partial, sizeof(partial));
    bool exact;
    uint32_t ms = timer_ms_since(start, &exact);
    say("acpi: AML: DSDT and %u SSDT%s loaded in %s%u ms, %u KiB of %u used%s%s", n - 1,
        n == 2 ? "" : "s", timer_bound(exact), (unsigned)ms,
        (unsigned)((aml_pool_used(aml) + 1023) / 1024),
        (unsigned)((pool.end - pool.base) / 1024), partial[0] ? "; " : "", partial);
    /* _REG for the spaces Linux provides from the start, then the EC's and the CMOS
     * RTC's as their drivers come (Linux's order). */
    aml_host_label(&host, "_REG");
    static const uint8_t spaces[] = { AML_SPACE_MEMORY, AML_SPACE_IO, AML_SPACE_PCI_CONFIG,
                                      AML_SPACE_TABLE };
    for (unsigned i = 0; i < sizeof(spaces); i++)
        aml_run_reg(aml, aml_root(aml), spaces[i]);
    if (host.have_ec && t->ecdt.id[0]) {
        struct aml_node *ec = aml_lookup(aml, 0, t->ecdt.id);
        say("acpi: EC %s: data port %Xh, command port %Xh (the ECDT)", t->ecdt.id,
            host.ec.data, host.ec.command);
        if (ec)
            aml_run_reg(aml, ec, AML_SPACE_EC);
    } else {
        aml_walk_devices(aml, "PNP0C09", visit_ec, 0);
    }
    aml_walk_devices(aml, "PNP0B00", visit_rtc, 0);
    aml_walk_devices(aml, "PNP0B01", visit_rtc, 0);
    aml_walk_devices(aml, "PNP0B02", visit_rtc, 0);
    aml_host_label(&host, 0);
    return true;
}

bool acpi_aml_sleep_type(unsigned state, uint8_t *typa, uint8_t *typb, char *why,
                         unsigned size)
{
    char path[8] = "\\_S5_", err[112];
    struct aml_object *o = 0;
    uint64_t a, b;

    path[3] = (char)('0' + state);
    aml_host_label(&host, path + 1);
    int st = aml_evaluate(aml, path, 0, 0, &o);
    aml_host_label(&host, 0);
    if (st) {
        aml_error_format(aml, err, sizeof(err));
        fmt_snprintf(why, size, "%s: %s", path, err);
        return false;
    }
    uint32_t count = aml_package_count(o);
    bool ok = count && aml_object_integer(aml_package_element(o, 0), &a) &&
              (count == 1 || aml_object_integer(aml_package_element(o, 1), &b));
    if (ok) {
        *typa = (uint8_t)a;
        *typb = (uint8_t)(count == 1 ? a >> 8 : b);
    } else {
        fmt_snprintf(why, size, "%s is not a package of integers", path);
    }
    aml_release(aml, o);
    return ok;
}

bool acpi_aml_prepare_sleep(unsigned state)
{
    uint64_t arg = state, indicator = SST_INDICATOR_OFF;
    char label[16], err[112];

    fmt_snprintf(label, sizeof(label), "_PTS(%u)", state);
    if (!aml_lookup(aml, 0, "\\_PTS")) {
        say("acpi: no \\_PTS to run");
    } else {
        aml_host_label(&host, label);
        uint64_t start = timer_us();
        int st = aml_evaluate(aml, "\\_PTS", &arg, 1, 0);
        bool exact;
        uint32_t ms = timer_ms_since(start, &exact);
        unsigned writes = host.writes;
        aml_host_label(&host, 0);
        if (st) {
            aml_error_format(aml, err, sizeof(err));
            say("acpi: %s stopped: %s", label, err);
            say("acpi: going on with S5 without it, as Linux does");
            return false;
        }
        say("acpi: %s done: %u write%s, %u steps, %s%u ms", label, writes,
            writes == 1 ? "" : "s", (unsigned)aml_steps(aml), timer_bound(exact),
            (unsigned)ms);
    }
    /* The system indicator, when there is one: errors do not matter (ACPICA). */
    if (aml_lookup(aml, 0, "\\_SI._SST")) {
        aml_host_label(&host, "_SST(0)");
        if (aml_evaluate(aml, "\\_SI._SST", &indicator, 1, 0)) {
            aml_error_format(aml, err, sizeof(err));
            say("acpi: \\_SI._SST(0) stopped: %s", err);
        }
        aml_host_label(&host, 0);
    }
    return true;
}
