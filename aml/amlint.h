/* The AML interpreter's private header, grouped by source file: read it as the
 * table of contents of aml/ (the public API is aml.h). */
#ifndef APMOFF_AML_AMLINT_H
#define APMOFF_AML_AMLINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aml.h"

/* Control flow out of a term list, next to the statuses (which are >= 0). */
#define FLOW_BREAK      (-1)
#define FLOW_CONTINUE   (-2)
#define FLOW_RETURN     (-3)

/* ---- heap.c: the pool ------------------------------------------------------------
 * First fit over free lists kept by size class, boundary tags so that a freed block
 * merges with free neighbours. Everything the interpreter holds lives here. */
struct heap_block;
struct aml_heap {
    uint8_t *base, *end;
    struct heap_block *free[9];     /* by size class: see heap.c */
    size_t used, peak;
};
bool heap_init(struct aml_heap *h, void *mem, size_t size);
void *heap_alloc(struct aml_heap *h, size_t n);     /* zeroed; NULL when full */
void heap_free(struct aml_heap *h, void *p);

/* ---- object.c: values and their lifetimes ----------------------------------------
 * Every value is counted: an operand, a LocalX, a node and a package element each
 * hold one reference. ACPICA copies a value on Store to a LocalX only when someone
 * else holds it too, so the counts are part of the semantics, not just memory. */
enum obj_type {                 /* enum aml_type, then the interpreter's own */
    OT_REGION_FIELD = 20,       /* Field: ObjectType says FieldUnit */
    OT_BANK_FIELD,
    OT_INDEX_FIELD,
    OT_REFERENCE,               /* RefOf, Index, a name in a package */
    OT_SCOPE,                   /* \_GPE, \_PR_, a Scope that created a name */
    OT_ALIAS,                   /* a node only: Alias */
};

enum ref_kind {
    REF_REFOF,                  /* RefOf, CondRefOf: the node */
    REF_INDEX,                  /* Index into a package: target, index */
    REF_INDEX_BYTE,             /* Index into a buffer or string: one byte */
    REF_NAME,                   /* a NameString as a package element */
};

#define OBJ_STATIC      0x01    /* buffer or string bytes inside the table */
#define OBJ_DATA_VALID  0x02    /* a region's or buffer field's operands evaluated */

/* The common part of every field unit (ACPICA's CommonField). */
struct field_common {
    uint8_t flags;              /* AccessType (bits 0-3), LockRule (4), UpdateRule (5-6) */
    uint8_t attrib;             /* AccessAttrib */
    uint8_t access_bytes;       /* width of one datum: 1, 2, 4, 8 (EC: up to 255) */
    uint8_t start_bit;          /* the field's first bit within its first datum */
    uint32_t base_byte;         /* the first datum's byte offset in the region */
    uint32_t bit_length;
    uint32_t bit_position;      /* as declared, from the region's start */
};

struct aml_object {
    uint8_t type;               /* enum aml_type or enum obj_type */
    uint8_t flags;              /* OBJ_* */
    uint16_t sub;               /* the reference kind; a method's flags */
    uint32_t refs;
    struct aml_object *dying;   /* obj_put()'s list of objects to free */
    union {
        uint64_t integer;
        struct {                /* String (NUL after the bytes) and Buffer */
            uint32_t len;
            uint8_t *data;
        } buf;
        struct {
            uint32_t count;
            struct aml_object **elems;
        } pkg;
        struct {
            const uint8_t *code;    /* the TermList */
            uint32_t len;
            uint8_t table;
            int (*native)(struct aml *a, struct aml_object **args,
                          struct aml_object **result);
        } method;
        struct {
            uint8_t space;
            bool reg_connected;     /* _REG(space, 1) has run */
            bool pci_ready;         /* PCI_Config: bus/device/function found */
            uint8_t pci_bus, pci_device, pci_function;
            uint16_t pci_segment;
            uint64_t address;
            uint32_t length;
            struct aml_node *node;
        } region;
        struct {                /* Field, IndexField, BankField, Create*Field */
            struct field_common c;
            struct aml_object *region;      /* Field, BankField: the region */
            struct aml_object *reg;         /* IndexField: index; BankField: bank */
            struct aml_object *data;        /* IndexField: data; CreateField: the buffer */
            uint64_t value;                 /* IndexField: the index; BankField: bank value */
            bool create_field;              /* made by CreateField (reads give Buffers) */
            struct aml_node *node;
        } field;
        struct {
            struct aml_node *node;          /* REF_REFOF; REF_NAME: the scope, until
                                               resolved, then the node named */
            struct aml_object *target;      /* REF_INDEX*: package, buffer or string */
            uint32_t index;
            const uint8_t *name;            /* REF_NAME not yet resolved: the
                                               NameString in the AML */
        } ref;
        struct {
            uint8_t sync_level;
            bool global;                    /* \_GL: the firmware's global lock */
            uint16_t depth;                 /* Acquires not yet Released */
        } mutex;
        struct {
            uint32_t signals;
        } event;
        struct {
            uint8_t id, pblk_len;
            uint32_t pblk;
        } processor;
        struct {
            uint8_t system_level;
            uint16_t order;
        } power;
    } u;
};

struct aml_object *obj_new(struct aml *a, unsigned type);
struct aml_object *obj_integer(struct aml *a, uint64_t value);
struct aml_object *obj_buffer(struct aml *a, uint32_t len);         /* zeroed */
struct aml_object *obj_string(struct aml *a, const void *s, uint32_t len);
struct aml_object *obj_package(struct aml *a, uint32_t count);     /* elements NULL */
struct aml_object *obj_ref(struct aml *a, unsigned kind);
static inline struct aml_object *obj_get(struct aml_object *o) { if (o) o->refs++; return o; }
void obj_put(struct aml *a, struct aml_object *o);
/* A deep copy, as ACPICA's AcpiUtCopyIobjectToIobject (a reference stays one). */
int obj_copy(struct aml *a, struct aml_object *src, struct aml_object **out);
bool obj_is_field(const struct aml_object *o);
/* The ObjectType number. */
unsigned obj_public_type(const struct aml_object *o);
const char *obj_type_name(unsigned type);

/* ---- namespace.c: nodes, paths and the search rules ------------------------------ */
#define NODE_TEMPORARY  0x01    /* created by a running method: removed when it ends */
#define NODE_DEAD       0x02    /* removed, still referenced */

struct aml_node {
    uint32_t name;              /* NameSeg, first character in the low byte */
    uint8_t type;               /* enum aml_type / obj_type of what the node is */
    uint8_t flags;
    uint16_t refs;              /* reference objects naming it */
    struct aml_node *parent, *child, *last_child, *peer;
    struct aml_node *next_temp; /* the running method's temporaries */
    union {
        struct aml_object *obj;
        struct aml_node *alias;     /* OT_ALIAS */
    } u;
};

/* A NameString as it lies in the AML (stream.c parses it). */
struct aml_name {
    bool root;
    uint8_t up;                 /* '^' prefixes */
    uint8_t count;              /* NameSegs */
    const uint8_t *segs;        /* count * 4 bytes */
};

#define NS_SEARCH       0x01    /* single NameSeg: search the parent scopes */
struct aml_node *ns_new_root(struct aml *a);
/* The node the name names from scope, following an Alias unless raw; NULL if none. */
struct aml_node *ns_find(struct aml *a, struct aml_node *scope, const struct aml_name *n,
                         unsigned flags);
struct aml_node *ns_find_raw(struct aml *a, struct aml_node *scope,
                             const struct aml_name *n, unsigned flags);
struct aml_node *ns_child(struct aml_node *parent, uint32_t name);
/* Creates the last NameSeg of n in the scope its prefixes and earlier segments name
 * (which must exist). AML_E_ALREADY_EXISTS with *out set when it is there. */
int ns_create(struct aml *a, struct aml_node *scope, const struct aml_name *n,
              unsigned type, struct aml_node **out);
struct aml_node *ns_add(struct aml *a, struct aml_node *parent, uint32_t name,
                        unsigned type);
void ns_attach(struct aml *a, struct aml_node *node, struct aml_object *obj);
void ns_remove(struct aml *a, struct aml_node *node);
void node_put(struct aml *a, struct aml_node *node);
struct aml_node *ns_resolve_alias(struct aml_node *node);
/* Parses "\\_SB.PCI0" or "_STA" into n (segments padded with '_'); false if bad. */
bool ns_parse_path(const char *path, struct aml_name *n, uint8_t *segbuf, size_t segbuf_len);
void ns_name_text(const struct aml_name *n, char *buf, size_t size);

/* ---- stream.c: AML encodings (ACPI 6.x, 20.2) ------------------------------------ */
struct cursor {
    const uint8_t *p, *end;
};
int stream_pkg_length(struct cursor *c, const uint8_t **obj_end);
int stream_name(struct cursor *c, struct aml_name *n);
bool stream_is_name_start(uint8_t b);
int stream_u8(struct cursor *c, uint8_t *v);
int stream_u16(struct cursor *c, uint16_t *v);
int stream_u32(struct cursor *c, uint32_t *v);
int stream_u64(struct cursor *c, uint64_t *v);
/* The opcode at c (one byte, or 5Bh and a second): 0x5Bxx for the extended ones. */
int stream_opcode(struct cursor *c, uint16_t *op);

/* ---- opcodes.c: the one table of opcodes ------------------------------------------
 * Each opcode's name, its encoding, how its operands are parsed (parse[]) and how
 * they are resolved before it runs (resolve[], in ACPICA's ARGI terms), and the
 * function that runs it. */
enum op_class {
    OPC_EXPR,                   /* operands from parse[], then exec */
    OPC_STMT,                   /* the same, with no value */
    OPC_CONTROL,                /* If, Else, While, Return, Break, Continue, Noop */
    OPC_NAMED,                  /* creates a name: its own parser in named.c */
    OPC_DATA,                   /* a constant, String, Buffer, Package */
    OPC_LOCAL,                  /* Local0-7 */
    OPC_ARG,                    /* Arg0-6 */
    OPC_DEBUG,
    OPC_UNSUPPORTED,            /* known, and refused by name */
};

/* parse[]: 't' TermArg, 'T' Target (or NullName), 'S' SuperName, 'N' SimpleName
 * (a name that need not exist: CondRefOf), 'b' ByteData, 'w' WordData, 'd' DWordData,
 * 'n' a NameString (Load's, which is only parsed).
 * resolve[]: 'i' Integer, 'c' Integer/String/Buffer, 'a' any value, 'B' Buffer,
 * 's' String, 'x' Buffer or String, 'p' Package, 'X' Buffer/String/Package,
 * 'D' Buffer/String/Package/Reference, 'm' Mutex, 'e' Event, 'v' a device or other
 * object, 'r' a reference or a String, 'R' a target or reference (not resolved),
 * 'V' the source of Store (an Index reference stays one), '-' a literal. */
struct operand;
struct frame;
struct aml_opinfo {
    uint16_t code;
    uint8_t cls;                /* enum op_class */
    const char *name;
    const char *parse;
    const char *resolve;
    int (*exec)(struct aml *a, struct frame *f, struct operand *ops,
                struct aml_object **result);
};
const struct aml_opinfo *op_info(uint16_t code);

/* ---- exec.c: term lists, control flow, method calls, operands ---------------------- */
enum operand_kind {
    OPD_NONE,                   /* NullName target */
    OPD_OBJ,                    /* a value (or a reference object) */
    OPD_NODE,                   /* a name, not yet read */
    OPD_LOCAL,
    OPD_ARG,
    OPD_DEBUG,
};

struct operand {
    uint8_t kind;
    uint8_t index;              /* LocalX, ArgX */
    struct aml_node *node;
    struct aml_object *obj;     /* held */
};

struct frame {
    struct frame *caller;
    struct aml_node *method;    /* NULL at module level */
    struct aml_node *scope;
    struct aml_object *args[7];
    struct aml_object *locals[8];
    struct aml_node *temps;     /* names this invocation created */
    struct aml_object *ret;     /* Return's value */
    struct aml_object *last;    /* the last result (implicit return with slack) */
    const uint8_t *table_base;
    uint8_t table;
    bool module_level;
};

int exec_term_list(struct aml *a, struct frame *f, const uint8_t *p, const uint8_t *end);
/* One TermArg into *out (unresolved: a name stays a node until resolved). */
int eval_term_arg(struct aml *a, struct frame *f, struct cursor *c, struct operand *out);
/* One TermArg, resolved to a value and converted to an integer. */
int eval_integer(struct aml *a, struct frame *f, struct cursor *c, uint64_t *v);
/* A SuperName or Target (NullName allowed when null_ok). */
int parse_target(struct aml *a, struct frame *f, struct cursor *c, bool null_ok,
                 struct operand *out);
/* ACPICA's AcpiExResolveToValue: a node, LocalX or ArgX to the value it holds. */
int resolve_value(struct aml *a, struct frame *f, struct operand *o);
/* Resolve as one resolve[] letter. */
int resolve_as(struct aml *a, struct frame *f, struct operand *o, char how);
void operand_drop(struct aml *a, struct operand *o);
int call_method(struct aml *a, struct frame *caller, struct aml_node *method,
                struct aml_object **args, unsigned nargs, struct aml_object **result);
int fail(struct aml *a, int status, const char *detail);
int fail_name(struct aml *a, int status, const struct aml_name *n);
/* 32-bit tables keep integers in 32 bits (ACPICA's AcpiExTruncateFor32bitTable). */
void truncate_integer(struct aml *a, struct aml_object *o);
uint64_t ones(const struct aml *a);

/* ---- check.c: parsing without running ------------------------------------------------
 * One term, skipped (to go on after an error at load) or checked (every opcode known
 * and supported, every method it calls noted in *calls). */
struct check_calls {
    struct aml_node *node[64];
    unsigned count;
    bool overflow;
};
int skip_term(struct aml *a, struct aml_node *scope, struct cursor *c,
              struct check_calls *calls);

/* ---- named.c: the operators that create names ----------------------------------- */
int exec_named(struct aml *a, struct frame *f, struct cursor *c, uint16_t op,
               const uint8_t *op_start);
/* A name created by f: temporary when f is a method. */
int create_node(struct aml *a, struct frame *f, const struct aml_name *n, unsigned type,
                struct aml_node **out);
/* Package and Buffer (also usable inside expressions). */
int eval_buffer(struct aml *a, struct frame *f, struct cursor *c, struct aml_object **out);
int eval_package(struct aml *a, struct frame *f, struct cursor *c, bool var,
                 struct aml_object **out);
/* Resolves the names in a package (and the packages inside it) to what they name,
 * as ACPICA does at once in a method and after the tables load for named ones. */
void resolve_package_names(struct aml *a, struct aml_object *pkg);

/* ---- operators.c: the expression operators -------------------------------------- */
/* Each exec of the opcode table lives here (or in store.c, named.c). */
int op_store_result(struct aml *a, struct frame *f, struct operand *target,
                    struct aml_object *value);

/* ---- convert.c: conversions (ACPICA's exconvrt.c) --------------------------------- */
int conv_integer(struct aml *a, struct aml_object *o, bool explicit_, struct aml_object **out);
int conv_buffer(struct aml *a, struct aml_object *o, struct aml_object **out);
enum string_how { STR_HEX_IMPLICIT, STR_HEX_EXPLICIT, STR_DECIMAL };
int conv_string(struct aml *a, struct aml_object *o, unsigned how, struct aml_object **out);
uint64_t str_to_integer(const uint8_t *s, uint32_t len, bool explicit_, bool int64);

/* ---- store.c: Store, CopyObject, the targets ---------------------------------------- */
int store_to(struct aml *a, struct frame *f, struct operand *target, struct aml_object *value,
             bool copy_object, bool fixed_target);
int store_to_node(struct aml *a, struct aml_node *node, struct aml_object *value,
                  bool implicit, bool copy_object);

/* ---- field.c: field units (ACPICA's exfldio.c, exfield.c, exprep.c) ------------------ */
void field_prepare(struct aml_object *fo, uint8_t flags, uint8_t attrib, uint32_t bit_pos,
                   uint32_t bit_len);
int field_read(struct aml *a, struct aml_object *fo, struct aml_object **out);
int field_write(struct aml *a, struct aml_object *fo, struct aml_object *value);

/* ---- region.c: region dispatch ------------------------------------------------------ */
int region_access(struct aml *a, struct aml_object *region, uint32_t offset, uint16_t bytes,
                  bool write, uint8_t *data);
int region_run_reg(struct aml *a, struct aml_object *region, bool connect);

/* ---- osi.c: _OSI, _REV ----------------------------------------------------------- */
int osi_install(struct aml *a);

/* ---- aml.c: the interpreter's state ------------------------------------------------- */
#define AML_TABLES_MAX  64      /* a DSDT and its SSDTs: laptops ship 20-40 */

struct aml {
    struct aml_heap heap;
    struct aml_config cfg;
    struct aml_node *root;
    bool int64;                 /* the DSDT's revision is 2 or more */
    bool have_width;
    uint8_t osi_level;          /* the newest Windows _OSI answered (the ports rule) */
    uint8_t tables;
    const uint8_t *table_base[AML_TABLES_MAX];
    uint32_t table_len[AML_TABLES_MAX];
    struct frame *current;      /* the innermost running frame */
    struct aml_object *held[16];/* mutexes acquired and not released, in order */
    uint8_t held_count;
    uint32_t steps;
    uint16_t call_depth;
    uint16_t expr_depth;
    unsigned load_warnings;
    struct aml_error err;
    uint64_t write_value;       /* the datum being written, bits above its width
                                   included (what ACPICA's trace shows) */
    bool init_pending;          /* named packages' names not yet resolved */
    const uint8_t *err_pc;      /* the opcode being executed (for the error) */
    uint16_t err_op;
    uint8_t err_table;
};

#endif
