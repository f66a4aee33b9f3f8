/* libFuzzer target: the AML interpreter (aml/) over arbitrary definition blocks.
 *
 * The input is a definition block: a whole table when it starts with "DSDT" or
 * "SSDT" (its length field is set to the input's size, so the fuzzer may grow it),
 * otherwise the body of a DSDT, behind a header made here. It is loaded, _REG runs
 * for the spaces the kernel provides, and the names an operating system evaluates at
 * power-off are evaluated, and so are \T000 to \T039 (the methods of the seeds,
 * the tables of tests/aml), with small bounds so that one input takes milliseconds.
 *
 * What must hold, whatever the bytes (each checked; abort() makes it a crash):
 *   - every access the AML makes lies inside its OperationRegion: [region_base,
 *     region_base + region_length); only the interpreter's own PCI bus lookups
 *     (io->setup) go elsewhere;
 *   - no access is wider than its space allows, or empty;
 *   - an evaluation never executes more opcodes than the step bound;
 *   - the table is never written (the interpreter points into it);
 *   - the pool is the only memory used, and a block of its exact size, so
 *     AddressSanitizer sees any use past its end. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../aml/aml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define POOL_BYTES      (1u << 20)
#define HEADER_BYTES    36
#define STEPS           20000

struct sim {
    uint8_t memory[256];        /* what reads give: a byte of the address */
    unsigned accesses;
};

static int sim_io(void *ctx, const struct aml_io *io, uint8_t *data)
{
    struct sim *sim = ctx;
    unsigned max = io->space == AML_SPACE_EC ? 255 : 8;

    if (io->bytes == 0 || io->bytes > max)
        abort();
    /* Inside the region, whose length ACPICA's slack rounds up to the access width
     * (aml/field.c: a DWordAcc field of a 2-byte region reads 4 bytes, as ACPICA does).
     * In 64 bits: a region of 4 GiB less a byte is legal, and its rounding must not wrap. */
    uint64_t room = ((uint64_t)io->region_length + io->bytes - 1) / io->bytes * io->bytes;
    if (!io->setup && (io->address < io->region_base ||
                       io->address - io->region_base + io->bytes > room))
        abort();
    if (io->space == AML_SPACE_IO && io->address + io->bytes > 0x10000)
        abort();
    if (!io->write)
        for (unsigned i = 0; i < io->bytes; i++)
            data[i] = sim->memory[(io->address + i) & 0xFF];
    sim->accesses++;
    return AML_OK;
}

static bool visit(struct aml *a, struct aml_node *dev, void *arg)
{
    struct aml_object *r = NULL;
    struct aml_node *crs = aml_lookup(a, dev, "_CRS");
    uint32_t len;
    uint16_t ports[2];

    (void)arg;
    if (crs && aml_evaluate_node(a, crs, NULL, 0, &r) == AML_OK && r) {
        const uint8_t *bytes = aml_object_bytes(r, &len);
        if (aml_object_type(r) == AML_TYPE_BUFFER && bytes &&
            aml_resource_io_ports(bytes, len, ports, 2) > 2)
            abort();
        aml_release(a, r);
    }
    aml_run_reg(a, dev, AML_SPACE_EC);
    return true;
}

static void evaluate(struct aml *a, const char *path, uint64_t arg, unsigned nargs)
{
    struct aml_object *r = NULL;
    char text[256];

    aml_evaluate(a, path, &arg, nargs, &r);
    if (aml_steps(a) > STEPS + 1)
        abort();
    aml_object_format(a, r, text, sizeof(text));
    if (!memchr(text, 0, sizeof(text)))
        abort();
    aml_error_format(a, text, sizeof(text));
    aml_release(a, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bool whole = size >= HEADER_BYTES && (!memcmp(data, "DSDT", 4) || !memcmp(data, "SSDT", 4));
    size_t len = whole ? size : size + HEADER_BYTES;
    uint8_t *table, *copy, *pool;
    struct sim sim;
    struct aml_config cfg = {
        .host = { .ctx = &sim, .io = sim_io },
        .osi = AML_OSI_LINUX, .slack = true, .pci_setup = true, .protect_ports = true,
        .revision = 5,
        .limits = { .steps = STEPS, .loop_iterations = 500, .loop_ms = 0,
                    .call_depth = 8, .expression_depth = 32 },
    };

    if (len > 1u << 20)
        return 0;
    table = malloc(len);
    copy = malloc(len);
    pool = malloc(POOL_BYTES);
    if (whole) {
        memcpy(table, data, size);
    } else {
        memset(table, 0, HEADER_BYTES);
        memcpy(table, "DSDT", 4);
        table[8] = 2;
        memcpy(table + HEADER_BYTES, data, size);
    }
    table[4] = (uint8_t)len;
    table[5] = (uint8_t)(len >> 8);
    table[6] = (uint8_t)(len >> 16);
    table[7] = (uint8_t)(len >> 24);
    memcpy(copy, table, len);
    for (unsigned i = 0; i < sizeof(sim.memory); i++)
        sim.memory[i] = (uint8_t)(i * 37 + 1);
    sim.accesses = 0;

    struct aml *a = aml_create(pool, POOL_BYTES, &cfg);
    if (!a)
        abort();
    aml_load_table(a, table, (uint32_t)len);
    if (aml_steps(a) > STEPS + 1)
        abort();
    static const uint8_t spaces[] = { AML_SPACE_MEMORY, AML_SPACE_IO, AML_SPACE_PCI_CONFIG,
                                      AML_SPACE_CMOS };
    for (unsigned i = 0; i < sizeof(spaces); i++)
        aml_run_reg(a, aml_root(a), spaces[i]);
    aml_walk_devices(a, NULL, visit, NULL);
    aml_walk_devices(a, "PNP0C09", visit, NULL);     /* twice: a match must leave */
    aml_walk_devices(a, "PNP0C09", visit, NULL);     /* the IDs as they were */
    aml_check_method(a, "\\_PTS");
    evaluate(a, "\\_PTS", 5, 1);
    evaluate(a, "\\_S5_", 0, 0);
    evaluate(a, "\\_SI_._SST", 0, 1);
    evaluate(a, "\\MAIN", 0, 0);
    evaluate(a, "\\_WAK", 5, 1);
    for (unsigned i = 0; i < 40; i++) {
        char name[] = { '\\', 'T', '0', (char)('0' + i / 10), (char)('0' + i % 10), 0 };
        if (aml_lookup(a, NULL, name))
            evaluate(a, name, 5, 1);
    }
    if (aml_pool_peak(a) > POOL_BYTES || aml_pool_used(a) > aml_pool_peak(a))
        abort();
    if (memcmp(copy, table, len))
        abort();
    free(pool);
    free(copy);
    free(table);
    return 0;
}
