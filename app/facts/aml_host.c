/* The AML interpreter's hardware in the kernel: see aml_host.h. */
#include "aml_host.h"
#include "../../system/acpi_ec.h"
#include "../../system/cmos.h"
#include "../../system/console.h"
#include "../../system/io.h"
#include "../../system/pci_conf.h"
#include "../../system/timer.h"
#include "../../lib/format.h"
#include "../../lib/string.h"
#include "../../lib/le.h"

#define DEBUG_LINES_MAX     16  /* Store (..., Debug) lines shown for one evaluation */

/* "SystemIO 72h", "PCI_Config 00:04.0 8Bh", "SystemMemory FED40000h". */
static void where(const struct aml_io *io, char *buf, unsigned size)
{
    switch (io->space) {
    case AML_SPACE_PCI_CONFIG:
        fmt_snprintf(buf, size, "PCI_Config %02X:%02X.%u %Xh", io->pci_bus, io->pci_device,
                     io->pci_function, (unsigned)io->address);
        break;
    case AML_SPACE_MEMORY:
        fmt_snprintf(buf, size, "SystemMemory %08Xh", (unsigned)io->address);
        break;
    default:
        fmt_snprintf(buf, size, "%s %Xh", aml_space_name(io->space), (unsigned)io->address);
        break;
    }
}

static void print_write(struct aml_host_state *st, const struct aml_io *io,
                        const uint8_t *data)
{
    char at[48], value[24];
    unsigned n = io->bytes > 8 ? 8 : io->bytes;

    st->writes++;
    if (!st->label || st->printed >= AML_HOST_PRINT_MAX)
        return;
    st->printed++;
    where(io, at, sizeof(at));
    uint64_t v = le_n(data, n);
    if (n > 4)
        fmt_snprintf(value, sizeof(value), "%08X%08Xh", (unsigned)(v >> 32), (unsigned)v);
    else if (n > 2)
        fmt_snprintf(value, sizeof(value), "%08Xh", (unsigned)v);
    else if (n > 1)
        fmt_snprintf(value, sizeof(value), "%04Xh", (unsigned)v);
    else
        fmt_snprintf(value, sizeof(value), "%02Xh", (unsigned)v);
    say("acpi: %s: %s <- %s%s", st->label, at, value, io->bytes > 8 ? " ..." : "");
}

static int refuse(struct aml_host_state *st, const struct aml_io *io, const char *why)
{
    char at[48];

    where(io, at, sizeof(at));
    if (st->refused++ < 8)
        say("acpi: %s%sAML access to %s refused: %s", st->label ? st->label : "",
            st->label ? ": " : "", at, why);
    return AML_E_IO;
}

static int port_io(const struct aml_io *io, uint8_t *data)
{
    uint16_t port = (uint16_t)io->address;

    for (unsigned done = 0; done < io->bytes;) {
        unsigned n = io->bytes - done >= 4 ? 4 : io->bytes - done >= 2 ? 2 : 1;
        uint16_t p = (uint16_t)(port + done);
        if (io->write) {
            uint32_t v = (uint32_t)le_n(data + done, n);
            if (n == 4)
                outl(p, v);
            else if (n == 2)
                outw(p, (uint16_t)v);
            else
                outb(p, (uint8_t)v);
        } else {
            uint32_t v = n == 4 ? inl(p) : n == 2 ? inw(p) : inb(p);
            put_le_n(data + done, n, v);
        }
        done += n;
    }
    return AML_OK;
}

static bool overlaps(const struct mem_range *r, uint64_t base, uint64_t len)
{
    return base < r->end && base + len > r->base;
}

static int memory_io(struct aml_host_state *st, const struct aml_io *io, uint8_t *data)
{
    if (io->address >= 0x100000000ull || io->address + io->bytes > 0x100000000ull)
        return refuse(st, io, "above 4 GiB");
    for (unsigned i = 0; i < 2; i++)
        if (overlaps(&st->own[i], io->address, io->bytes))
            return refuse(st, io, "apmoff's own memory");
    /* Flat segments, no paging: physical address = linear address. The widths are
     * kept, since device registers care. */
    uintptr_t a = (uintptr_t)io->address;
    for (unsigned done = 0; done < io->bytes;) {
        unsigned n = io->bytes - done >= 4 && !((a + done) & 3) ? 4
                   : io->bytes - done >= 2 && !((a + done) & 1) ? 2 : 1;
        volatile void *p = (volatile void *)(a + done);
        if (io->write) {
            uint32_t v = (uint32_t)le_n(data + done, n);
            if (n == 4)
                *(volatile uint32_t *)p = v;
            else if (n == 2)
                *(volatile uint16_t *)p = (uint16_t)v;
            else
                *(volatile uint8_t *)p = (uint8_t)v;
        } else {
            uint32_t v = n == 4 ? *(volatile uint32_t *)p
                       : n == 2 ? *(volatile uint16_t *)p : *(volatile uint8_t *)p;
            put_le_n(data + done, n, v);
        }
        done += n;
    }
    return AML_OK;
}

static int pci_io(struct aml_host_state *st, const struct aml_io *io, uint8_t *data)
{
    if (!st->pci_mech)
        return refuse(st, io, "no PCI configuration mechanism on this machine");
    if (io->pci_segment)
        return refuse(st, io, "a PCI segment other than 0");
    for (unsigned done = 0; done < io->bytes; done += 4) {
        unsigned n = io->bytes - done < 4 ? io->bytes - done : 4;
        uint16_t reg = (uint16_t)(io->address + done);
        uint32_t v = 0;
        bool ok = io->write ? pci_conf_write(st->pci_mech, io->pci_bus, io->pci_device,
                                             io->pci_function, reg, n,
                                             (uint32_t)le_n(data + done, n))
                            : pci_conf_read(st->pci_mech, io->pci_bus, io->pci_device,
                                            io->pci_function, reg, n, &v);
        if (!ok)
            return refuse(st, io, "beyond configuration space 00h-FFh, or misaligned");
        if (!io->write)
            put_le_n(data + done, n, v);
    }
    return AML_OK;
}

static int ec_io(struct aml_host_state *st, const struct aml_io *io, uint8_t *data)
{
    if (!st->have_ec)
        return AML_E_NO_HANDLER;
    if (io->address + io->bytes > 256)
        return refuse(st, io, "past EC address FFh");
    /* A wide EC field is one byte transaction after another, as Linux makes them. */
    for (unsigned i = 0; i < io->bytes; i++) {
        uint8_t addr = (uint8_t)(io->address + i);
        bool ok = io->write ? acpi_ec_write(&st->ec, addr, data[i])
                            : acpi_ec_read(&st->ec, addr, &data[i]);
        if (!ok)
            return refuse(st, io, "the EC did not answer within 100 ms");
    }
    return AML_OK;
}

static int cmos_io(struct aml_host_state *st, const struct aml_io *io, uint8_t *data)
{
    if (io->address + io->bytes > 256)
        return refuse(st, io, "past CMOS byte FFh");
    for (unsigned i = 0; i < io->bytes; i++) {
        uint8_t addr = (uint8_t)(io->address + i);
        if (io->write)
            cmos_write(addr, data[i]);
        else
            data[i] = cmos_read_any(addr);
    }
    return AML_OK;
}

static bool find_table(void *ctx, const char sig[4], const char *oem_id,
                       const char *oem_table_id, uint64_t *address, uint32_t *length)
{
    struct aml_host_state *st = ctx;
    const struct acpi_tables *t = st->tables;
    (void)oem_id;
    (void)oem_table_id;

    if (!memcmp(sig, "DSDT", 4) && t->dsdt.length) {
        *address = t->dsdt.addr;
        *length = t->dsdt.length;
        return true;
    }
    if (!memcmp(sig, "FACP", 4) && t->fadt.length) {
        *address = t->fadt.addr;
        *length = t->fadt.length;
        return true;
    }
    if (!memcmp(sig, "SSDT", 4) && t->ssdt_count) {
        *address = t->ssdt[0].addr;
        *length = t->ssdt[0].length;
        return true;
    }
    return false;
}

static int kernel_io(void *ctx, const struct aml_io *io, uint8_t *data)
{
    struct aml_host_state *st = ctx;

    if (!st->live) {
        /* Dry: nothing is touched; reads see zeros, as in acpiexec's simulation. */
        if (io->write)
            st->writes++;
        else
            memset(data, 0, io->bytes);
        return io->space == AML_SPACE_EC && !st->have_ec ? AML_E_NO_HANDLER : AML_OK;
    }
    if (io->write && !io->setup)
        print_write(st, io, data);
    switch (io->space) {
    case AML_SPACE_IO:
        return port_io(io, data);
    case AML_SPACE_MEMORY:
        return memory_io(st, io, data);
    case AML_SPACE_PCI_CONFIG:
        return pci_io(st, io, data);
    case AML_SPACE_EC:
        return ec_io(st, io, data);
    case AML_SPACE_CMOS:
        return cmos_io(st, io, data);
    case AML_SPACE_TABLE:
        if (io->write)
            return refuse(st, io, "a firmware table is read only");
        memcpy(data, (const void *)(uintptr_t)io->address, io->bytes);
        return AML_OK;
    default:
        return AML_E_NO_HANDLER;
    }
}

static void stall_us(void *ctx, uint32_t us)
{
    struct aml_host_state *st = ctx;

    if (st->live)
        pit_delay_us(us);
}

static void sleep_ms(void *ctx, uint32_t ms)
{
    struct aml_host_state *st = ctx;

    if (st->live)
        pit_delay_us(ms * 1000u);
}

static uint64_t timer_100ns(void *ctx)
{
    (void)ctx;
    return timer_us() * 10;
}

static void debug_line(void *ctx, const char *line)
{
    struct aml_host_state *st = ctx;

    if (st->live && st->debug_lines++ < DEBUG_LINES_MAX)
        say("acpi: AML %s", line);
}

struct aml_host aml_host_kernel(struct aml_host_state *st)
{
    return (struct aml_host){
        .ctx = st, .io = kernel_io, .stall_us = stall_us, .sleep_ms = sleep_ms,
        .timer_100ns = timer_100ns, .debug = debug_line,
        .find_table = find_table,
    };
}

void aml_host_label(struct aml_host_state *st, const char *label)
{
    if (st->label && st->writes > st->printed)
        say("acpi: %s: %u more writes not shown", st->label, st->writes - st->printed);
    st->label = label;
    st->writes = st->printed = 0;
    st->debug_lines = 0;
}
