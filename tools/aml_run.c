/* aml-run: evaluate a method of real ACPI tables on the host, with the interpreter
 * the kernel links (aml/), and print every operation-region access it makes.
 *
 *   build/aml-run [--fill HEX] [--loop-limit N] [--linux] TABLE.aml... -- METHOD [ARG...]
 *
 * The hardware is simulated as ACPICA's acpiexec simulates it, so that the output can
 * be compared line for line with acpiexec's (the reference traces of
 * ../shared/acpi-corpus): every address space is memory that starts filled with
 * --fill (0), and a read gives what was last written at that address. The run is
 * the one acpiexec makes with -di: the tables are loaded in the order given (the
 * DSDT first), no _STA or _INI runs, and the handlers acpiexec installs after the
 * load run their _REG methods: EmbeddedControl under each EC device (PNP0C09),
 * SystemIO and SystemMemory under the first PCI Express root (PNP0A08), then the
 * other spaces at the root. --linux answers _OSI and runs as Linux would instead
 * (interpreter slack, protected ports, PCI_Config setup).
 *
 * Output, one line an access of the method (none of the load), in order:
 *     R|W SPACE ADDRESS WIDTH VALUE       hex; WIDTH in bytes; PCI_Config: the offset
 * then "= VALUE" (what the method returned, or "= none") or "! reason". Debug output
 * goes to stderr. Exit status 0 after "=", 1 after "!", 2 on a usage error. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../aml/aml.h"

#define POOL_BYTES      (256u << 20)    /* the largest corpus machine needs ~20 MiB */
#define MAX_TABLES      64

/* ---- acpiexec's region simulation --------------------------------------------------------- */

/* One byte store per address space, as a sorted array of (address, byte): acpiexec
 * keeps one buffer per region, merged where regions overlap, which reads the same. */
struct cell {
    uint64_t address;
    uint8_t value;
};

struct space {
    struct cell *cells;
    size_t count, cap;
};

struct sim {
    struct space spaces[256];
    uint8_t fill;
    int tracing;
    const uint8_t *tables[MAX_TABLES];
    uint32_t lengths[MAX_TABLES];
    unsigned ntables;
};

static struct cell *find_cell(struct space *s, uint64_t address, int create, uint8_t fill)
{
    size_t lo = 0, hi = s->count;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->cells[mid].address < address)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->count && s->cells[lo].address == address)
        return &s->cells[lo];
    if (!create)
        return NULL;
    if (s->count == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->cells = realloc(s->cells, s->cap * sizeof(*s->cells));
        if (!s->cells) {
            fprintf(stderr, "aml-run: out of memory\n");
            exit(2);
        }
    }
    memmove(s->cells + lo + 1, s->cells + lo, (s->count - lo) * sizeof(*s->cells));
    s->count++;
    s->cells[lo] = (struct cell){ address, fill };
    return &s->cells[lo];
}

static const char *space_name(unsigned space)
{
    /* ACPICA's names, as its traces print them. */
    return space == AML_SPACE_PCC ? "PlatformCommChannel" : aml_space_name(space);
}

static int sim_io(void *ctx, const struct aml_io *io, uint8_t *data)
{
    struct sim *sim = ctx;
    struct space *s = &sim->spaces[io->space];
    uint64_t value = 0;

    if (io->space == AML_SPACE_TABLE) {
        /* A DataTableRegion: the table's own bytes (see find_table). */
        unsigned t = (unsigned)(io->address >> 32);
        uint32_t off = (uint32_t)io->address;
        if (t >= sim->ntables || off + io->bytes > sim->lengths[t] || io->write)
            return AML_E_IO;
        memcpy(data, sim->tables[t] + off, io->bytes);
        return AML_OK;
    }
    for (unsigned i = 0; i < io->bytes; i++) {
        if (io->write) {
            find_cell(s, io->address + i, 1, sim->fill)->value = data[i];
        } else {
            struct cell *c = find_cell(s, io->address + i, 0, 0);
            data[i] = c ? c->value : sim->fill;
        }
    }
    if (io->write) {
        value = io->value;
    } else {
        for (unsigned i = io->bytes < 8 ? io->bytes : 8; i-- > 0;)
            value = value << 8 | data[i];
    }
    if (sim->tracing)
        printf("%c %s %" PRIX64 " %u %" PRIX64 "\n", io->write ? 'W' : 'R',
               space_name(io->space), io->address, io->bytes, value);
    return AML_OK;
}

static void sim_debug(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "# %s\n", line);
}

static bool sim_find_table(void *ctx, const char sig[4], const char *oem_id,
                           const char *oem_table_id, uint64_t *address, uint32_t *length)
{
    struct sim *sim = ctx;

    for (unsigned i = 0; i < sim->ntables; i++) {
        const uint8_t *t = sim->tables[i];
        if (memcmp(t, sig, 4) || (*oem_id && strncmp((const char *)t + 10, oem_id, 6)) ||
            (*oem_table_id && strncmp((const char *)t + 16, oem_table_id, 8)))
            continue;
        *address = (uint64_t)i << 32;
        *length = sim->lengths[i];
        return true;
    }
    return false;
}

/* ---- the run ----------------------------------------------------------------------------------- */

static uint8_t *read_file(const char *path, uint32_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;

    if (!f)
        return NULL;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            if (cap > (64u << 20)) {
                free(buf);
                fclose(f);
                errno = EFBIG;
                return NULL;
            }
            buf = realloc(buf, cap);
            if (!buf) {
                fclose(f);
                return NULL;
            }
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *len = (uint32_t)n;
    return buf;
}

static bool reg_ec(struct aml *a, struct aml_node *dev, void *arg)
{
    (void)arg;
    aml_run_reg(a, dev, AML_SPACE_EC);
    return true;
}

static bool reg_pci_root(struct aml *a, struct aml_node *dev, void *arg)
{
    (void)arg;
    aml_run_reg(a, dev, AML_SPACE_IO);
    aml_run_reg(a, dev, AML_SPACE_MEMORY);
    return false;                   /* acpiexec installs them at the first one only */
}

static bool every_device(struct aml *a, struct aml_node *dev, void *arg)
{
    (void)a;
    (void)dev;
    (void)arg;
    return true;
}

static int usage(void)
{
    fprintf(stderr, "usage: aml-run [--fill HEX] [--loop-limit N] [--linux] [--revision HEX] "
                    "TABLE.aml... -- METHOD [INTEGER-ARG...]\n");
    return 2;
}

int main(int argc, char **argv)
{
    static struct sim sim;
    struct aml_config cfg = { 0 };
    const char *files[MAX_TABLES];
    unsigned nfiles = 0, nargs = 0;
    uint64_t args[7];
    const char *method = NULL;
    bool as_linux = false;
    uint64_t revision = 0x20200925;     /* the kernel's (app/facts/acpi_aml.c) */
    int i;

    cfg.limits = aml_default_limits();
    cfg.limits.loop_ms = 0;         /* bounded by iterations: the same every run */
    for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "--fill") && i + 1 < argc)
            sim.fill = (uint8_t)strtoul(argv[++i], NULL, 16);
        else if (!strcmp(argv[i], "--loop-limit") && i + 1 < argc)
            cfg.limits.loop_iterations = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--linux"))
            as_linux = true;
        else if (!strcmp(argv[i], "--revision") && i + 1 < argc)
            revision = strtoull(argv[++i], NULL, 16);  /* the Revision opcode's answer */
        else if (argv[i][0] == '-')
            return usage();
        else if (nfiles < MAX_TABLES)
            files[nfiles++] = argv[i];
        else
            return usage();
    }
    if (i >= argc - 1 || !nfiles)
        return usage();
    method = argv[++i];
    for (i++; i < argc; i++) {
        char *end;
        if (nargs == 7)
            return usage();
        args[nargs++] = strtoull(argv[i], &end, 0);
        if (*end)
            return usage();
    }

    cfg.host = (struct aml_host){ .ctx = &sim, .io = sim_io, .debug = sim_debug,
                                  .find_table = sim_find_table };
    cfg.osi = as_linux ? AML_OSI_LINUX : AML_OSI_ACPIEXEC;
    cfg.slack = as_linux;
    cfg.pci_setup = as_linux;
    cfg.protect_ports = as_linux;
    cfg.revision = revision;
    void *pool = malloc(POOL_BYTES);
    struct aml *a = pool ? aml_create(pool, POOL_BYTES, &cfg) : NULL;
    if (!a) {
        fprintf(stderr, "aml-run: no memory for the interpreter\n");
        return 2;
    }

    /* The DSDT first, whatever the order on the command line (acpiexec does so). */
    for (int pass = 0; pass < 2; pass++)
        for (unsigned f = 0; f < nfiles; f++) {
            uint32_t len;
            uint8_t *t = read_file(files[f], &len);
            if (!t) {
                fprintf(stderr, "aml-run: %s: %s\n", files[f], strerror(errno));
                return 2;
            }
            bool dsdt = len >= 4 && !memcmp(t, "DSDT", 4);
            if (dsdt != (pass == 0)) {
                free(t);
                continue;
            }
            sim.tables[sim.ntables] = t;
            sim.lengths[sim.ntables++] = len;
            if (aml_load_table(a, t, len)) {
                char why[160];
                aml_error_format(a, why, sizeof(why));
                fprintf(stderr, "aml-run: %s: load stopped: %s\n", files[f], why);
            }
        }
    if (aml_load_warnings(a))
        fprintf(stderr, "aml-run: %u load errors forgiven (as ACPICA does)\n",
                aml_load_warnings(a));

    if (!as_linux) {
        static const uint8_t root_spaces[] = { AML_SPACE_SMBUS, AML_SPACE_CMOS,
            AML_SPACE_PCI_BAR, AML_SPACE_IPMI, AML_SPACE_GPIO, AML_SPACE_GSBUS,
            AML_SPACE_PCC, AML_SPACE_FFH, 0x80, 0xE4 };
        aml_walk_devices(a, "PNP0C09", reg_ec, NULL);
        aml_walk_devices(a, "PNP0A08", reg_pci_root, NULL);
        for (unsigned s = 0; s < sizeof(root_spaces); s++)
            aml_run_reg(a, aml_root(a), root_spaces[s]);
        /* acpiexec's start-up tests (AeMiscellaneousTests) that run AML: the sleep
         * states' packages, three _OSI questions, and every device's _STA. */
        static const char *const sleep_states[] = { "\\_S0_", "\\_S1_", "\\_S2_",
                                                    "\\_S3_", "\\_S4_", "\\_S5_" };
        for (unsigned s = 0; s < 6; s++) {
            struct aml_object *o = NULL;
            aml_evaluate(a, sleep_states[s], NULL, 0, &o);
            aml_release(a, o);
        }
        aml_osi_query(a, "Extended Address Space Descriptor");
        aml_osi_query(a, "Windows 2001");
        aml_osi_query(a, "MichiganTerminalSystem");
        aml_walk_devices(a, NULL, every_device, NULL);
    } else {
        static const uint8_t spaces[] = { AML_SPACE_MEMORY, AML_SPACE_IO,
                                          AML_SPACE_PCI_CONFIG, AML_SPACE_CMOS };
        for (unsigned s = 0; s < sizeof(spaces); s++)
            aml_run_reg(a, aml_root(a), spaces[s]);
        aml_walk_devices(a, "PNP0C09", reg_ec, NULL);
    }

    struct aml_object *result = NULL;
    sim.tracing = 1;
    int st = aml_evaluate(a, method, args, nargs, &result);
    sim.tracing = 0;
    if (st) {
        char why[200];
        aml_error_format(a, why, sizeof(why));
        printf("! %s\n", why);
        free(pool);
        return 1;
    }
    char text[4096];
    if (result)
        aml_object_format(a, result, text, sizeof(text));
    printf("= %s\n", result ? text : "none");
    fprintf(stderr, "aml-run: %u steps, pool %zu KiB at most\n", aml_steps(a),
            aml_pool_peak(a) / 1024);
    free(pool);
    return 0;
}
