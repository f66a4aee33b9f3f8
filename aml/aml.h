/* An AML interpreter: loads a DSDT and its SSDTs into one namespace and evaluates
 * methods in it, the way ACPICA does, so that apmoff can run \_PTS(5) before it
 * writes S5, as every operating system does.
 *
 * It is pure: it makes no port or memory access of its own. Every operation-region
 * access, every Stall and Sleep, goes through struct aml_host, which the caller
 * supplies (ACPICA's AcpiOs* layer): the kernel's does the I/O (app/facts/aml_host.c),
 * build/aml-run's simulates it as ACPICA's acpiexec does (tools/aml_run.c), and
 * the unit tests record it. All of its memory is the pool the caller gives to
 * aml_create(); every loop, call and evaluation runs within the bounds of struct
 * aml_limits. What it cannot do stops the evaluation with the opcode, its offset and
 * the method named (aml_error_format()); it never guesses or skips a byte.
 *
 * The files, each one concern (their private header is amlint.h):
 *   heap.c       the pool allocator
 *   stream.c     AML encodings: PkgLength, NameString, data
 *   opcodes.c    the opcode table: name, encoding, operands
 *   namespace.c  nodes, paths, the search rules
 *   object.c     values and their lifetimes
 *   convert.c    the implicit and explicit conversions
 *   exec.c       term lists, control flow, method calls, operands
 *   named.c      the named-object operators (Name, Method, Device, Field, ...)
 *   operators.c  the expression operators
 *   store.c      Store, CopyObject and the targets of results
 *   field.c      field units: access widths, update rules, index and bank fields
 *   region.c     region addresses, PCI_Config setup, _REG, the protected ports
 *   osi.c        _OSI and _REV
 *   resource.c   the I/O port descriptors of a _CRS buffer (for the EC)
 *   aml.c        this API
 * Compiled for the kernel and the host; it uses lib/ only. */
#ifndef APMOFF_AML_AML_H
#define APMOFF_AML_AML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Status codes: 0 is success. Names follow ACPICA's AE_* where one exists. */
enum aml_status {
    AML_OK = 0,
    AML_E_NO_MEMORY,            /* the pool is exhausted */
    AML_E_NOT_FOUND,            /* a name that does not exist */
    AML_E_ALREADY_EXISTS,       /* a name created twice */
    AML_E_BAD_AML,              /* bytes that are not AML: a length past its end, ... */
    AML_E_UNSUPPORTED,          /* valid AML this interpreter does not do */
    AML_E_OPERAND_TYPE,         /* an operand of the wrong type */
    AML_E_OPERAND_VALUE,        /* an operand with a value out of range */
    AML_E_TARGET_TYPE,          /* a result that cannot be stored there */
    AML_E_UNINITIALIZED_LOCAL,
    AML_E_UNINITIALIZED_ARG,
    AML_E_UNINITIALIZED_ELEMENT,
    AML_E_DIVIDE_BY_ZERO,
    AML_E_INDEX_LIMIT,          /* Index past the end of a buffer, string or package */
    AML_E_BUFFER_LIMIT,         /* a buffer field past its buffer; an empty buffer as integer */
    AML_E_REGION_LIMIT,         /* a field access past the end of its region */
    AML_E_REGISTER_LIMIT,       /* an index or bank value too wide for its register */
    AML_E_NO_HANDLER,           /* an address space the host does not provide */
    AML_E_IO,                   /* the host's access failed */
    AML_E_LOOP_TIMEOUT,         /* a While loop past aml_limits.loop_* */
    AML_E_STEP_LIMIT,           /* an evaluation past aml_limits.steps */
    AML_E_DEPTH_LIMIT,          /* calls or expressions nested past their bounds */
    AML_E_MUTEX,                /* a mutex released unheld, or out of SyncLevel order */
    AML_E_ARG_COUNT,            /* a method given more than 7 arguments, ... */
    AML_E_STATUS_COUNT
};

/* Address space IDs (ACPI 6.x, 5.2.3.2 and 19.6.100). */
enum aml_space {
    AML_SPACE_MEMORY = 0,
    AML_SPACE_IO = 1,
    AML_SPACE_PCI_CONFIG = 2,
    AML_SPACE_EC = 3,
    AML_SPACE_SMBUS = 4,
    AML_SPACE_CMOS = 5,
    AML_SPACE_PCI_BAR = 6,
    AML_SPACE_IPMI = 7,
    AML_SPACE_GPIO = 8,
    AML_SPACE_GSBUS = 9,
    AML_SPACE_PCC = 10,
    AML_SPACE_TABLE = 0x7E,     /* DataTableRegion: a firmware table, read only */
    AML_SPACE_FFH = 0x7F,
};

/* One region access. The host performs it on data[0..bytes), little-endian: reads
 * fill it, writes take it. */
struct aml_io {
    uint8_t space;              /* enum aml_space */
    bool write;
    bool setup;                 /* made by the interpreter itself (finding a PCI bus
                                   behind bridges), not by the AML */
    uint16_t bytes;             /* 1, 2, 4 or 8; EmbeddedControl fields up to 255 */
    uint64_t address;           /* the region's base plus the offset; PCI_Config: the
                                   offset in the function's configuration space */
    uint16_t pci_segment;       /* PCI_Config: from _SEG, _BBN and _ADR */
    uint8_t pci_bus, pci_device, pci_function;
    uint32_t region;            /* the OperationRegion's NameSeg, for messages */
    uint64_t region_base;       /* the OperationRegion's address and length, for */
    uint32_t region_length;     /*   hosts that simulate one buffer a region */
    uint64_t value;             /* a write: the datum as the interpreter holds it,
                                   bits above its width included (WriteAsOnes sets
                                   them); data[] has the bytes to write */
};

struct aml_host {
    void *ctx;
    /* Required. AML_OK, AML_E_NO_HANDLER for a space it does not provide, or
     * AML_E_IO. */
    int (*io)(void *ctx, const struct aml_io *io, uint8_t *data);
    /* Optional (NULL: no wait): Stall busy-waits, Sleep may yield; both bounded by
     * the interpreter first (AML_STALL_MAX_US, AML_SLEEP_MAX_MS). */
    void (*stall_us)(void *ctx, uint32_t us);
    void (*sleep_ms)(void *ctx, uint32_t ms);
    /* Optional: a clock in 100 ns units, for the Timer operator and the time bound
     * of While loops. NULL: Timer counts evaluation steps, loops are bounded by
     * iterations only. */
    uint64_t (*timer_100ns)(void *ctx);
    /* Optional: a line for a store to the Debug object, Fatal and warnings. */
    void (*debug)(void *ctx, const char *line);
    /* Optional: where the firmware table with this signature (and OEM IDs, when not
     * empty) is, for DataTableRegion. Returns whether found. */
    bool (*find_table)(void *ctx, const char sig[4], const char *oem_id,
                       const char *oem_table_id, uint64_t *address, uint32_t *length);
    /* Optional: the firmware's global lock (FACS), for Acquire(\_GL) and fields with
     * Lock. AML_OK when taken (acquire) or given back; NULL: there is none. */
    int (*global_lock)(void *ctx, bool acquire);
};

/* _OSI answers (osi.c). */
enum aml_osi {
    AML_OSI_LINUX,              /* as Linux answers: every Windows string ACPICA knows,
                                   the four feature strings Linux enables */
    AML_OSI_ACPIEXEC,           /* as acpiexec 20200925 answers (its reference traces) */
};

/* The bounds one evaluation runs within; aml_default_limits() gives each with the
 * reason for its size. */
struct aml_limits {
    uint32_t steps;             /* opcodes executed by one aml_evaluate() */
    uint32_t loop_iterations;   /* passes of one While */
    uint32_t loop_ms;           /* milliseconds of one While (with host->timer_100ns) */
    uint16_t call_depth;        /* nested method calls */
    uint16_t expression_depth;  /* nested operators inside one another */
};

struct aml_config {
    struct aml_host host;
    struct aml_limits limits;
    uint8_t osi;                /* enum aml_osi */
    /* ACPICA's interpreter slack, which Linux enables: an uninitialised LocalX or
     * ArgX reads as 0, a method without Return returns its last result. acpiexec
     * runs without it. */
    bool slack;
    /* Find the PCI bus, device and function of a PCI_Config region as ACPICA's
     * default handler does (_ADR, _BBN, _SEG, bridges' secondary bus). acpiexec
     * installs its own handler, which does not. */
    bool pci_setup;
    /* Refuse the legacy ports ACPICA protects from AML (the PICs, the ELCR; after a
     * Windows XP _OSI also the PIT, DMA, CMOS and PCI ports), byte by byte, as
     * ACPICA's SystemIO handler does. acpiexec simulates them regardless. */
    bool protect_ports;
    uint64_t revision;          /* what the Revision operator gives */
};

/* Limits sized for firmware's real loops: see aml.c. */
struct aml_limits aml_default_limits(void);

struct aml;                     /* the interpreter, in the pool */
struct aml_object;              /* a value the caller holds (aml_release() it) */
struct aml_node;                /* a name in the namespace */

/* Sets up the interpreter in pool (pool_size bytes, at least AML_POOL_MIN) with
 * the predefined names (\_GPE, \_PR_, \_SB_, \_SI_, \_TZ_, \_OSI, \_REV, \_OS_,
 * \_GL_). NULL when the pool is too small. */
#define AML_POOL_MIN    (32u * 1024)
struct aml *aml_create(void *pool, size_t pool_size, const struct aml_config *config);

/* A definition block (DSDT or SSDT, header included, len bytes that stay where
 * they are while the interpreter lives): its names are created and its module-level
 * code runs, as ACPICA loads a table. The first table loaded decides the integer
 * width (a revision below 2 means 32 bits). Returns AML_OK, or the error that
 * stopped the load (the names created before it stay). Errors that ACPICA
 * tolerates at load (a name defined twice, a reference to one that is missing) are
 * counted in aml_load_warnings() and the load goes on. */
int aml_load_table(struct aml *a, const uint8_t *table, uint32_t len);
unsigned aml_load_warnings(const struct aml *a);

/* Evaluates the object at path ("\\_PTS", "\\_SB.PCI0._STA"): a method is run with
 * the integer arguments given, any other object is read. *result (if not NULL)
 * gets the value or NULL (a method without Return). Returns AML_OK or an error;
 * AML_E_NOT_FOUND when there is no such object. */
int aml_evaluate(struct aml *a, const char *path, const uint64_t *args, unsigned nargs,
                 struct aml_object **result);

/* The same, on a node (from aml_lookup() or aml_walk_devices()). */
int aml_evaluate_node(struct aml *a, struct aml_node *node, const uint64_t *args,
                      unsigned nargs, struct aml_object **result);

struct aml_node *aml_lookup(struct aml *a, struct aml_node *scope, const char *path);
struct aml_node *aml_root(struct aml *a);
/* Writes the node's full path ("\_SB_.PCI0.EC0_") into buf. */
void aml_node_path(const struct aml_node *node, char *buf, size_t size);
/* What the object behind a node is: an ObjectType value (enum aml_type), without
 * evaluating it. */
unsigned aml_node_type(const struct aml_node *node);

/* Calls visit(node) for every Device whose _HID or one of whose _CID is the EISA
 * ID or string hid ("PNP0C09"; NULL: every device), and whose _STA says present or
 * functioning, in namespace order, as ACPICA's AcpiGetDevices() does: the devices
 * below one that is neither are not looked at. Stops early when visit() returns
 * false. Returns AML_OK or the first error. */
int aml_walk_devices(struct aml *a, const char *hid,
                     bool (*visit)(struct aml *a, struct aml_node *dev, void *arg),
                     void *arg);

/* Answers _OSI(interface) as \_OSI does for the AML, noting the Windows version as
 * ACPICA does (which legacy ports AML may use depends on it). */
bool aml_osi_query(struct aml *a, const char *interface);

/* Runs _REG(space, 1) for every region of that space under scope (and, for
 * EmbeddedControl, the _REG of an EC device without one), as ACPICA does when a
 * handler for the space is installed there. */
int aml_run_reg(struct aml *a, struct aml_node *scope, uint8_t space);

/* Whether everything a method (and each method it names) contains is AML this
 * interpreter executes, without running anything. On a refusal, aml_error() names
 * the first opcode that is not. */
int aml_check_method(struct aml *a, const char *path);

/* The I/O ports of a resource template (a _CRS buffer), in order, at most max:
 * the EC device's data port, then its command/status port. Returns how many. */
unsigned aml_resource_io_ports(const uint8_t *crs, uint32_t len, uint16_t *ports,
                               unsigned max);

/* Values returned by aml_evaluate(). */
enum aml_type {                 /* the ObjectType operator's numbers */
    AML_TYPE_ANY = 0,
    AML_TYPE_INTEGER = 1,
    AML_TYPE_STRING = 2,
    AML_TYPE_BUFFER = 3,
    AML_TYPE_PACKAGE = 4,
    AML_TYPE_FIELD_UNIT = 5,
    AML_TYPE_DEVICE = 6,
    AML_TYPE_EVENT = 7,
    AML_TYPE_METHOD = 8,
    AML_TYPE_MUTEX = 9,
    AML_TYPE_REGION = 10,
    AML_TYPE_POWER = 11,
    AML_TYPE_PROCESSOR = 12,
    AML_TYPE_THERMAL = 13,
    AML_TYPE_BUFFER_FIELD = 14,
    AML_TYPE_DDB_HANDLE = 15,
    AML_TYPE_DEBUG = 16,
};
unsigned aml_object_type(const struct aml_object *o);
bool aml_object_integer(const struct aml_object *o, uint64_t *value);
/* A string's or a buffer's bytes and length. */
const uint8_t *aml_object_bytes(const struct aml_object *o, uint32_t *len);
uint32_t aml_package_count(const struct aml_object *o);
const struct aml_object *aml_package_element(const struct aml_object *o, uint32_t i);
void aml_release(struct aml *a, struct aml_object *o);
/* "Integer 0000000000000007", "Buffer (3) {01 02 03}", "Package (2) {...}": what
 * build/aml-run prints after '='. */
void aml_object_format(const struct aml *a, const struct aml_object *o, char *buf,
                       size_t size);

/* The first error of the last load or evaluation. */
struct aml_error {
    int status;                 /* enum aml_status */
    uint16_t opcode;            /* 0x5Bxx for the extended ones; 0 if none */
    uint8_t table;              /* the table, in load order (0: the first) */
    bool have_offset;
    uint32_t offset;            /* of the opcode, from the table's first byte */
    char where[48];             /* the method's path, or "(table load)" */
    char detail[48];            /* what, when more than the status says: a name */
};
const struct aml_error *aml_error(const struct aml *a);
const char *aml_status_text(int status);
/* "5B 33h (LoadTable) at table 0 offset 1A2Bh in \_PTS: not supported". */
void aml_error_format(const struct aml *a, char *buf, size_t size);
/* The name of an opcode ("Store", "LoadTable"), or NULL if there is none. */
const char *aml_opcode_name(uint16_t opcode);
const char *aml_space_name(unsigned space);

/* Pool use: bytes in use now and at the most. */
size_t aml_pool_used(const struct aml *a);
size_t aml_pool_peak(const struct aml *a);
/* How many opcodes the last aml_evaluate() executed. */
uint32_t aml_steps(const struct aml *a);

#endif
