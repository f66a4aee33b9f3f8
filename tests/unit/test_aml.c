/* The AML interpreter's API and bounds, on AML assembled here byte by byte: what a
 * refusal names (opcode, offset, method), every limit (steps, loops, calls, memory),
 * the host interface (what an access carries, PCI_Config addresses from _ADR, _BBN and
 * bridges), _REG, the device walk, _OSI, the resource parser, and that evaluations
 * give back their memory. How each operator behaves is compared with ACPICA itself by
 * tests/aml/step.py. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../aml/aml.h"

/* ---- an assembler of sorts ------------------------------------------------------------ */

struct asm_buf {
    uint8_t d[8192];
    size_t n;
};

static void put(struct asm_buf *b, const void *p, size_t n)
{
    assert_true(b->n + n <= sizeof(b->d));
    memcpy(b->d + b->n, p, n);
    b->n += n;
}

#define PUT(b, ...) do { static const uint8_t bytes_[] = { __VA_ARGS__ }; \
                         put((b), bytes_, sizeof(bytes_)); } while (0)

static void seg(struct asm_buf *b, const char *name)
{
    put(b, name, 4);
}

/* Every PkgLength is written in two bytes (any length below 4 KiB). */
static size_t open_pkg(struct asm_buf *b)
{
    size_t at = b->n;
    PUT(b, 0, 0);
    return at;
}

static void close_pkg(struct asm_buf *b, size_t at)
{
    size_t len = b->n - at;
    b->d[at] = (uint8_t)(0x40 | (len & 0x0F));
    b->d[at + 1] = (uint8_t)(len >> 4);
}

static size_t method(struct asm_buf *b, const char *name, uint8_t flags)
{
    PUT(b, 0x14);
    size_t at = open_pkg(b);
    seg(b, name);
    put(b, &flags, 1);
    return at;
}

static size_t device(struct asm_buf *b, const char *name)
{
    PUT(b, 0x5B, 0x82);
    size_t at = open_pkg(b);
    seg(b, name);
    return at;
}

/* A DSDT (revision 2) around body; the buffer lives until the next call. */
static uint8_t table[9000];

static const uint8_t *dsdt(const struct asm_buf *body, uint32_t *len)
{
    *len = (uint32_t)(36 + body->n);
    memset(table, 0, 36);
    memcpy(table, "DSDT", 4);
    memcpy(table + 4, len, 4);
    table[8] = 2;
    memcpy(table + 10, "APMOFF", 6);
    memcpy(table + 36, body->d, body->n);
    uint8_t sum = 0;
    for (uint32_t i = 0; i < *len; i++)
        sum = (uint8_t)(sum + table[i]);
    table[9] = (uint8_t)-sum;
    return table;
}

/* ---- a host that records -------------------------------------------------------------- */

struct recorder {
    unsigned count;
    struct aml_io io[64];
    uint64_t value[64];
    uint8_t read_value;         /* what every read answers */
    unsigned pci_reads;         /* PCI_Config setup reads (bridges) */
    uint8_t header_type[32], secondary_bus[32];
};

static int rec_io(void *ctx, const struct aml_io *io, uint8_t *data)
{
    struct recorder *r = ctx;

    if (io->setup) {
        r->pci_reads++;
        memset(data, 0, io->bytes);
        if (io->address == 0x0E)
            data[0] = r->header_type[io->pci_device & 31];
        else if (io->address == 0x0A)
            data[0] = 0x04, data[1] = 0x06;         /* a PCI-to-PCI bridge */
        else if (io->address == 0x19)
            data[0] = r->secondary_bus[io->pci_device & 31];
        return AML_OK;
    }
    if (r->count < 64) {
        r->io[r->count] = *io;
        uint64_t v = 0;
        for (unsigned i = 0; i < io->bytes && i < 8; i++)
            v |= (uint64_t)data[i] << (8 * i);
        r->value[r->count] = io->write ? v : r->read_value;
        r->count++;
    }
    if (!io->write)
        memset(data, r->read_value, io->bytes);
    return AML_OK;
}

static struct recorder rec;
static uint8_t pool[4u << 20];

static struct aml *interp(size_t pool_size, bool slack)
{
    struct aml_config cfg = {
        .host = { .ctx = &rec, .io = rec_io },
        .limits = aml_default_limits(),
        .osi = AML_OSI_LINUX,
        .slack = slack,
        .pci_setup = true,
    };
    memset(&rec, 0, sizeof(rec));
    return aml_create(pool, pool_size, &cfg);
}

/* The interpreter with b loaded as the DSDT; *st gets the load's status. */
static struct aml *load(struct asm_buf *b, int *st)
{
    uint32_t len;
    const uint8_t *t = dsdt(b, &len);
    struct aml *a = interp(sizeof(pool), false);
    assert_non_null(a);
    *st = aml_load_table(a, t, len);
    return a;
}

static struct aml *loaded(struct asm_buf *b)
{
    int st;
    struct aml *a = load(b, &st);
    assert_int_equal(st, AML_OK);
    return a;
}

static uint64_t integer_of(struct aml *a, const char *path)
{
    struct aml_object *o = NULL;
    uint64_t v = ~0ull;
    assert_int_equal(aml_evaluate(a, path, NULL, 0, &o), AML_OK);
    assert_true(aml_object_integer(o, &v));
    aml_release(a, o);
    return v;
}

/* ---- what a refusal says -------------------------------------------------------------- */

/* \_PTS calls PREP, which does LoadTable: the refusal names the opcode, where it is
 * and in which method, and checking \_PTS finds it without running anything. */
static void test_refusal_names_opcode_offset_method(void **state)
{
    struct asm_buf b = { 0 };
    (void)state;
    size_t m = method(&b, "PREP", 0);
    size_t load_at = b.n;
    PUT(&b, 0x5B, 0x1F, 0x0D, 'O', 'E', 'M', 'T', 0, 0x0D, 0, 0x0D, 0, 0x0D, 0, 0x0D, 0, 0x00);
    close_pkg(&b, m);
    m = method(&b, "_PTS", 1);
    PUT(&b, 0x70, 0x68, 0x60);      /* Store (Arg0, Local0) */
    PUT(&b, 'P', 'R', 'E', 'P');    /* PREP () */
    close_pkg(&b, m);
    struct aml *a = loaded(&b);

    assert_int_equal(aml_check_method(a, "\\_PTS"), AML_E_UNSUPPORTED);
    const struct aml_error *e = aml_error(a);
    assert_int_equal(e->opcode, 0x5B1F);
    assert_true(e->have_offset);
    assert_int_equal(e->offset, 36 + load_at);
    assert_string_equal(e->where, "\\PREP");
    assert_int_equal(rec.count, 0);

    uint64_t five = 5;
    assert_int_equal(aml_evaluate(a, "\\_PTS", &five, 1, NULL), AML_E_UNSUPPORTED);
    char text[200];
    aml_error_format(a, text, sizeof(text));
    assert_non_null(strstr(text, "5B 1Fh (LoadTable)"));
    assert_non_null(strstr(text, "in \\PREP"));
    assert_non_null(strstr(text, "not supported"));
}

static void test_unknown_opcode_is_named(void **state)
{
    struct asm_buf b = { 0 };
    (void)state;
    size_t m = method(&b, "MBAD", 0);
    PUT(&b, 0x02);                  /* no opcode has this number */
    close_pkg(&b, m);
    struct aml *a = loaded(&b);
    assert_int_equal(aml_evaluate(a, "\\MBAD", NULL, 0, NULL), AML_E_BAD_AML);
    assert_int_equal(aml_error(a)->opcode, 0x02);
    assert_string_equal(aml_error(a)->detail, "unknown opcode");
}

/* A PkgLength past the end of the table stops the load, by name; what came before
 * stays. */
static void test_truncated_table(void **state)
{
    struct asm_buf b = { 0 };
    int st;
    (void)state;
    PUT(&b, 0x08, 'G', 'O', 'O', 'D', 0x0A, 0x07);     /* Name (GOOD, 7) */
    PUT(&b, 0x14, 0x4F, 0x7F, 'L', 'O', 'N', 'G', 0);  /* a Method claiming 2 KiB */
    struct aml *a = load(&b, &st);
    assert_int_equal(st, AML_E_BAD_AML);
    assert_int_equal(aml_error(a)->opcode, 0x14);
    assert_int_equal(integer_of(a, "\\GOOD"), 7);
    assert_null(aml_lookup(a, NULL, "\\LONG"));
}

/* Errors ACPICA forgives at load skip one term and go on; a name defined twice keeps
 * the first value. */
static void test_load_forgives(void **state)
{
    struct asm_buf b = { 0 };
    (void)state;
    PUT(&b, 0x08, 'D', 'U', 'P', '1', 0x01);            /* Name (DUP1, One) */
    PUT(&b, 0x08, 'D', 'U', 'P', '1', 0x0A, 0x02);      /* Name (DUP1, 2) */
    PUT(&b, 0x70, 'N', 'O', 'N', 'E', 0x60);            /* Store (NONE, Local0) */
    PUT(&b, 0x08, 'A', 'F', 'T', 'R', 0x0A, 0x03);      /* Name (AFTR, 3) */
    struct aml *a = loaded(&b);
    assert_int_equal(aml_load_warnings(a), 2);
    assert_int_equal(integer_of(a, "\\DUP1"), 1);
    assert_int_equal(integer_of(a, "\\AFTR"), 3);
}

/* ---- the bounds ---------------------------------------------------------------------------- */

static void test_loop_bound(void **state)
{
    struct asm_buf b = { 0 };
    (void)state;
    size_t m = method(&b, "SPIN", 0);
    PUT(&b, 0x70, 0x00, 0x60);      /* Store (Zero, Local0) */
    PUT(&b, 0xA2);
    size_t w = open_pkg(&b);
    PUT(&b, 0x01, 0x75, 0x60);      /* While (One) { Increment (Local0) } */
    close_pkg(&b, w);
    close_pkg(&b, m);
    struct aml *a = loaded(&b);
    assert_int_equal(aml_evaluate(a, "\\SPIN", NULL, 0, NULL), AML_E_LOOP_TIMEOUT);
    assert_int_equal(aml_error(a)->opcode, 0xA2);
    assert_true(aml_steps(a) <= aml_default_limits().steps);
}

static void test_call_depth_bound(void **state)
{
    struct asm_buf b = { 0 };
    (void)state;
    size_t m = method(&b, "RECU", 0);
    PUT(&b, 'R', 'E', 'C', 'U');    /* RECU () forever */
    close_pkg(&b, m);
    struct aml *a = loaded(&b);
    assert_int_equal(aml_evaluate(a, "\\RECU", NULL, 0, NULL), AML_E_DEPTH_LIMIT);
}

static void test_expression_depth_bound(void **state)
{
    struct asm_buf b = { 0 };
    (void)state;
    size_t m = method(&b, "DEEP", 0);
    PUT(&b, 0xA4);                  /* Return (Add (Add (Add (... 1 ...)))) */
    for (unsigned i = 0; i < 100; i++)
        PUT(&b, 0x72, 0x01);
    PUT(&b, 0x01);
    for (unsigned i = 0; i < 100; i++)
        PUT(&b, 0x00);
    close_pkg(&b, m);
    struct aml *a = loaded(&b);
    assert_int_equal(aml_evaluate(a, "\\DEEP", NULL, 0, NULL), AML_E_DEPTH_LIMIT);
}

/* A Buffer larger than the pool fails by name, and the pool is whole again after. */
static void test_pool_exhaustion(void **state)
{
    struct asm_buf b = { 0 };
    uint32_t len;
    (void)state;
    size_t m = method(&b, "HUGE", 0);
    PUT(&b, 0x70, 0x11);            /* Store (Buffer (0x100000) {}, Local0) */
    size_t bp = open_pkg(&b);
    PUT(&b, 0x0C, 0x00, 0x00, 0x10, 0x00);
    close_pkg(&b, bp);
    PUT(&b, 0x60);
    close_pkg(&b, m);
    const uint8_t *t = dsdt(&b, &len);
    struct aml *a = interp(AML_POOL_MIN, false);
    assert_non_null(a);
    assert_int_equal(aml_load_table(a, t, len), AML_OK);
    size_t before = aml_pool_used(a);
    assert_int_equal(aml_evaluate(a, "\\HUGE", NULL, 0, NULL), AML_E_NO_MEMORY);
    assert_int_equal(aml_pool_used(a), before);
    assert_null(interp(AML_POOL_MIN - 1, false));
}

/* Evaluations give back everything they took: a package built and dropped a thousand
 * times leaves the pool as it was. */
static void test_no_leak(void **state)
{
    struct asm_buf b = { 0 };
    (void)state;
    size_t m = method(&b, "MKPK", 0);
    PUT(&b, 0x70, 0x12);            /* Store (Package () { "s", Buffer () { 1 } }, Local0) */
    size_t p = open_pkg(&b);
    PUT(&b, 0x02, 0x0D, 's', 0, 0x11, 0x03, 0x0A, 0x01, 0x01);
    close_pkg(&b, p);
    PUT(&b, 0x60, 0xA4, 0x60);      /* Return (Local0) */
    close_pkg(&b, m);
    struct aml *a = loaded(&b);
    struct aml_object *o;
    assert_int_equal(aml_evaluate(a, "\\MKPK", NULL, 0, &o), AML_OK);
    aml_release(a, o);
    size_t after_one = aml_pool_used(a);
    for (unsigned i = 0; i < 1000; i++) {
        assert_int_equal(aml_evaluate(a, "\\MKPK", NULL, 0, &o), AML_OK);
        assert_int_equal(aml_package_count(o), 2);
        aml_release(a, o);
    }
    assert_int_equal(aml_pool_used(a), after_one);
}

/* Linux's slack: an unset LocalX reads as 0; without it, an error. */
static void test_slack(void **state)
{
    struct asm_buf b = { 0 };
    uint32_t len;
    (void)state;
    size_t m = method(&b, "UNIN", 0);
    PUT(&b, 0xA4, 0x72, 0x60, 0x01, 0x00);      /* Return (Add (Local0, 1)) */
    close_pkg(&b, m);
    struct aml *a = loaded(&b);
    assert_int_equal(aml_evaluate(a, "\\UNIN", NULL, 0, NULL), AML_E_UNINITIALIZED_LOCAL);
    const uint8_t *t = dsdt(&b, &len);
    a = interp(sizeof(pool), true);
    assert_int_equal(aml_load_table(a, t, len), AML_OK);
    assert_int_equal(integer_of(a, "\\UNIN"), 1);
}

/* ---- the host interface -------------------------------------------------------------------- */

/* \_PTS(5) writes 50h|Arg0 to port 80h through a Field: one access, with everything a
 * host needs to do it and say it. */
static void test_host_sees_write(void **state)
{
    struct asm_buf b = { 0 };
    (void)state;
    PUT(&b, 0x5B, 0x80, 'D', 'B', 'G', 'P', 0x01, 0x0A, 0x80, 0x01);   /* SystemIO 80h, 1 */
    PUT(&b, 0x5B, 0x81);
    size_t f = open_pkg(&b);
    PUT(&b, 'D', 'B', 'G', 'P', 0x01, 'P', '8', '0', '_', 0x08);       /* ByteAcc: P80_, 8 */
    close_pkg(&b, f);
    size_t m = method(&b, "_PTS", 1);
    PUT(&b, 0x7D, 0x68, 0x0A, 0x50, 'P', '8', '0', '_');  /* Or (Arg0, 0x50, P80_) */
    close_pkg(&b, m);
    struct aml *a = loaded(&b);
    uint64_t five = 5;
    assert_int_equal(aml_evaluate(a, "\\_PTS", &five, 1, NULL), AML_OK);
    assert_int_equal(rec.count, 1);
    assert_int_equal(rec.io[0].space, AML_SPACE_IO);
    assert_true(rec.io[0].write);
    assert_int_equal(rec.io[0].address, 0x80);
    assert_int_equal(rec.io[0].bytes, 1);
    assert_int_equal(rec.value[0], 0x55);
    assert_memory_equal(&rec.io[0].region, "DBGP", 4);
}

/* A PCI_Config region under a device behind a bridge: bus from the root bridge's _BBN
 * and the bridge's secondary bus, device and function from _ADR. */
static void test_pci_address(void **state)
{
    struct asm_buf b = { 0 };
    (void)state;
    PUT(&b, 0x10);                  /* Scope (\_SB) */
    size_t sc = open_pkg(&b);
    PUT(&b, '\\', '_', 'S', 'B', '_');
    size_t root = device(&b, "PCI0");
    PUT(&b, 0x08, '_', 'H', 'I', 'D', 0x0C, 0x41, 0xD0, 0x0A, 0x03);  /* PNP0A03 */
    PUT(&b, 0x08, '_', 'B', 'B', 'N', 0x0A, 0x02);                    /* bus 2 */
    size_t bridge = device(&b, "BRG1");
    PUT(&b, 0x08, '_', 'A', 'D', 'R', 0x0C, 0x00, 0x00, 0x1E, 0x00);  /* 1Eh.0 */
    size_t dev = device(&b, "NIC0");
    PUT(&b, 0x08, '_', 'A', 'D', 'R', 0x0C, 0x03, 0x00, 0x05, 0x00);  /* 05h.3 */
    PUT(&b, 0x5B, 0x80, 'C', 'F', 'G', '_', 0x02, 0x0A, 0x40, 0x0A, 0x10);
    PUT(&b, 0x5B, 0x81);
    size_t f = open_pkg(&b);
    PUT(&b, 'C', 'F', 'G', '_', 0x01, 'P', 'M', 'E', '_', 0x08);
    close_pkg(&b, f);
    close_pkg(&b, dev);
    close_pkg(&b, bridge);
    close_pkg(&b, root);
    close_pkg(&b, sc);
    size_t m = method(&b, "_PTS", 1);
    PUT(&b, 0x70, 0x68, '\\', 0x2F, 0x05, '_', 'S', 'B', '_', 'P', 'C', 'I', '0',
        'B', 'R', 'G', '1', 'N', 'I', 'C', '0', 'P', 'M', 'E', '_');
    close_pkg(&b, m);
    struct aml *a = loaded(&b);
    rec.header_type[0x1E] = 1;      /* a PCI-to-PCI bridge ... */
    rec.secondary_bus[0x1E] = 7;    /* ... whose secondary bus is 7 */
    uint64_t five = 5;
    assert_int_equal(aml_evaluate(a, "\\_PTS", &five, 1, NULL), AML_OK);
    assert_int_equal(rec.count, 1);
    assert_int_equal(rec.io[0].space, AML_SPACE_PCI_CONFIG);
    assert_int_equal(rec.io[0].address, 0x40);
    assert_int_equal(rec.io[0].pci_bus, 7);
    assert_int_equal(rec.io[0].pci_device, 5);
    assert_int_equal(rec.io[0].pci_function, 3);
    assert_true(rec.pci_reads >= 3);
}

/* _REG(EmbeddedControl, 1) once per region, and an EC device's _REG with no EC region
 * of its own still runs (ACPICA's orphan rule). */
static void test_reg(void **state)
{
    struct asm_buf b = { 0 };
    (void)state;
    size_t d = device(&b, "EC0_");
    PUT(&b, 0x08, '_', 'H', 'I', 'D', 0x0C, 0x41, 0xD0, 0x0C, 0x09);  /* PNP0C09 */
    PUT(&b, 0x08, 'R', 'E', 'G', 'S', 0x00);
    PUT(&b, 0x5B, 0x80, 'E', 'C', 'R', '1', 0x03, 0x00, 0x0A, 0x10);
    PUT(&b, 0x5B, 0x80, 'E', 'C', 'R', '2', 0x03, 0x0A, 0x10, 0x0A, 0x10);
    size_t m = method(&b, "_REG", 2);
    PUT(&b, 0x75, 'R', 'E', 'G', 'S');          /* Increment (REGS) */
    close_pkg(&b, m);
    close_pkg(&b, d);
    d = device(&b, "EC1_");
    PUT(&b, 0x08, '_', 'H', 'I', 'D', 0x0C, 0x41, 0xD0, 0x0C, 0x09);
    PUT(&b, 0x08, 'R', 'E', 'G', 'S', 0x00);
    m = method(&b, "_REG", 2);
    PUT(&b, 0x70, 0x68, 'R', 'E', 'G', 'S');    /* Store (Arg0, REGS) */
    close_pkg(&b, m);
    close_pkg(&b, d);
    struct aml *a = loaded(&b);
    aml_run_reg(a, aml_lookup(a, NULL, "\\EC0_"), AML_SPACE_EC);
    aml_run_reg(a, aml_lookup(a, NULL, "\\EC0_"), AML_SPACE_EC);   /* connected already */
    aml_run_reg(a, aml_lookup(a, NULL, "\\EC1_"), AML_SPACE_EC);
    assert_int_equal(integer_of(a, "\\EC0_.REGS"), 2);
    assert_int_equal(integer_of(a, "\\EC1_.REGS"), 3);
}

static bool count_visit(struct aml *a, struct aml_node *dev, void *arg)
{
    char path[64];
    (void)a;
    aml_node_path(dev, path, sizeof(path));
    strcat((char *)arg, path);
    strcat((char *)arg, " ");
    return true;
}

/* The device walk: _HID as an EISA ID or a string, _CID, and no look below a device
 * whose _STA says neither present nor functioning. */
static void test_walk_devices(void **state)
{
    struct asm_buf b = { 0 };
    char seen[256] = "";
    (void)state;
    size_t d = device(&b, "DEVA");
    PUT(&b, 0x08, '_', 'H', 'I', 'D', 0x0D, 'P', 'N', 'P', '0', 'C', '0', '9', 0);
    close_pkg(&b, d);
    d = device(&b, "DEVB");
    PUT(&b, 0x08, '_', 'H', 'I', 'D', 0x0D, 'X', 'Y', 'Z', '0', '0', '0', '1', 0);
    PUT(&b, 0x08, '_', 'C', 'I', 'D', 0x0C, 0x41, 0xD0, 0x0C, 0x09);
    close_pkg(&b, d);
    d = device(&b, "GONE");          /* matches, but is absent: not visited, */
    PUT(&b, 0x08, '_', 'H', 'I', 'D', 0x0C, 0x41, 0xD0, 0x0C, 0x09);
    PUT(&b, 0x08, '_', 'S', 'T', 'A', 0x00);
    size_t other = device(&b, "DEVD");  /* and nothing below it is looked at */
    PUT(&b, 0x08, '_', 'H', 'I', 'D', 0x0C, 0x41, 0xD0, 0x0C, 0x09);
    close_pkg(&b, other);
    close_pkg(&b, d);
    d = device(&b, "OTHR");          /* does not match: its children are looked at */
    size_t inner = device(&b, "DEVC");
    PUT(&b, 0x08, '_', 'H', 'I', 'D', 0x0C, 0x41, 0xD0, 0x0C, 0x09);
    close_pkg(&b, inner);
    close_pkg(&b, d);
    struct aml *a = loaded(&b);
    assert_int_equal(aml_walk_devices(a, "PNP0C09", count_visit, seen), AML_OK);
    assert_string_equal(seen, "\\DEVA \\DEVB \\OTHR.DEVC ");
    /* Again: a match must leave every _HID as it was (one was once dropped twice). */
    seen[0] = 0;
    assert_int_equal(aml_walk_devices(a, "PNP0C09", count_visit, seen), AML_OK);
    assert_string_equal(seen, "\\DEVA \\DEVB \\OTHR.DEVC ");
}

static void test_osi(void **state)
{
    struct asm_buf b = { 0 };
    uint32_t len;
    (void)state;
    struct aml *a = loaded(&b);
    assert_true(aml_osi_query(a, "Windows 2006"));
    assert_true(aml_osi_query(a, "Windows 2022"));
    assert_true(aml_osi_query(a, "Module Device"));
    assert_false(aml_osi_query(a, "Linux"));
    assert_false(aml_osi_query(a, "Darwin"));
    struct aml_config cfg = { .host = { .ctx = &rec, .io = rec_io },
                              .limits = aml_default_limits(), .osi = AML_OSI_ACPIEXEC };
    a = aml_create(pool, sizeof(pool), &cfg);
    const uint8_t *t = dsdt(&b, &len);
    assert_int_equal(aml_load_table(a, t, len), AML_OK);
    assert_false(aml_osi_query(a, "Windows 2006"));     /* acpiexec's tests remove it */
    assert_false(aml_osi_query(a, "Windows 2020"));
    assert_true(aml_osi_query(a, "Windows 2019"));
    assert_true(aml_osi_query(a, "AnotherTestString"));
}

static void test_resource_ports(void **state)
{
    /* An EC's _CRS: IO (Decode16, 62h, 62h, 0, 1), FixedIO (66h, 1), End Tag. */
    static const uint8_t crs[] = { 0x47, 0x01, 0x62, 0x00, 0x62, 0x00, 0x00, 0x01,
                                   0x4B, 0x66, 0x00, 0x01, 0x79, 0x00 };
    uint16_t ports[2];
    (void)state;
    assert_int_equal(aml_resource_io_ports(crs, sizeof(crs), ports, 2), 2);
    assert_int_equal(ports[0], 0x62);
    assert_int_equal(ports[1], 0x66);
    assert_int_equal(aml_resource_io_ports(crs, 5, ports, 2), 0);   /* cut short */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusal_names_opcode_offset_method),
        cmocka_unit_test(test_unknown_opcode_is_named),
        cmocka_unit_test(test_truncated_table),
        cmocka_unit_test(test_load_forgives),
        cmocka_unit_test(test_loop_bound),
        cmocka_unit_test(test_call_depth_bound),
        cmocka_unit_test(test_expression_depth_bound),
        cmocka_unit_test(test_pool_exhaustion),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_slack),
        cmocka_unit_test(test_host_sees_write),
        cmocka_unit_test(test_pci_address),
        cmocka_unit_test(test_reg),
        cmocka_unit_test(test_walk_devices),
        cmocka_unit_test(test_osi),
        cmocka_unit_test(test_resource_ports),
    };
    return cmocka_run_group_tests_name("aml", tests, NULL, NULL);
}
