/* Operation regions: where an access goes, and what ACPICA does around it.
 *
 *   - The address is the region's base plus the field's offset; for PCI_Config the
 *     bus, device and function come from the namespace, found the first time the
 *     region is used as ACPICA's default handler finds them (AcpiEvPciConfigRegionSetup,
 *     AcpiHwDerivePciId): the region's device's _ADR, the root bridge's _SEG and
 *     _BBN, and the secondary bus of every PCI bridge on the way down.
 *   - SystemIO accesses to the legacy ports ACPICA protects (hwvalid.c) are made
 *     byte by byte, skipping the protected bytes: the PICs and the ELCR always, the
 *     DMA, PIT, CMOS and PCI ports once the AML has asked _OSI for Windows XP or
 *     later.
 *   - _REG(space, 1) runs for a region when its space becomes usable
 *     (AcpiEvExecuteRegMethods), and for an EC device's _REG with no EC region of
 *     its own (AcpiEvOrphanEcRegMethod).
 *   - The device walk of ACPICA's AcpiGetDevices (_HID, _CID, _STA). */
#include "amlint.h"
#include "../lib/format.h"
#include "../lib/string.h"
#include "../lib/le.h"

#define OSI_WIN_XP      2       /* aml.osi_level at and above which ... */
#define ALWAYS          0

static const struct {
    uint16_t start, end;
    uint8_t from_level;
} protected_ports[] = {
    { 0x0000, 0x000F, OSI_WIN_XP },     /* DMA */
    { 0x0020, 0x0021, ALWAYS },         /* PIC0 */
    { 0x0040, 0x0043, OSI_WIN_XP },     /* PIT1 */
    { 0x0048, 0x004B, OSI_WIN_XP },     /* PIT2 */
    { 0x0070, 0x0071, OSI_WIN_XP },     /* RTC */
    { 0x0074, 0x0076, OSI_WIN_XP },     /* CMOS */
    { 0x0081, 0x0083, OSI_WIN_XP },     /* DMA1 */
    { 0x0087, 0x0087, OSI_WIN_XP },     /* DMA1L */
    { 0x0089, 0x008B, OSI_WIN_XP },     /* DMA2 */
    { 0x008F, 0x008F, OSI_WIN_XP },     /* DMA2L */
    { 0x0090, 0x0091, OSI_WIN_XP },     /* ARBC */
    { 0x0093, 0x0094, OSI_WIN_XP },     /* SETUP */
    { 0x0096, 0x0097, OSI_WIN_XP },     /* POS */
    { 0x00A0, 0x00A1, ALWAYS },         /* PIC1 */
    { 0x00C0, 0x00DF, OSI_WIN_XP },     /* IDMA */
    { 0x04D0, 0x04D1, ALWAYS },         /* ELCR */
    { 0x0CF8, 0x0CFF, OSI_WIN_XP },     /* PCI */
};

static bool port_denied(const struct aml *a, uint64_t first, uint64_t last)
{
    for (unsigned i = 0; i < sizeof(protected_ports) / sizeof(protected_ports[0]); i++)
        if (first <= protected_ports[i].end && last >= protected_ports[i].start &&
            a->osi_level >= protected_ports[i].from_level)
            return true;
    return false;
}

const char *aml_space_name(unsigned space)
{
    static const char *const names[] = {
        "SystemMemory", "SystemIO", "PCI_Config", "EmbeddedControl", "SMBus",
        "SystemCMOS", "PCIBARTarget", "IPMI", "GeneralPurposeIo", "GenericSerialBus",
        "PCC",
    };

    if (space < sizeof(names) / sizeof(names[0]))
        return names[space];
    if (space == AML_SPACE_TABLE)
        return "DataTable";
    if (space == AML_SPACE_FFH)
        return "FunctionalFixedHW";
    return space >= 0x80 ? "UserDefinedRegion" : "InvalidSpaceId";
}

static int host_io(struct aml *a, struct aml_io *io, uint8_t *data)
{
    int st = a->cfg.host.io(a->cfg.host.ctx, io, data);

    if (st == AML_E_NO_HANDLER)
        return fail(a, st, aml_space_name(io->space));
    if (st)
        return fail(a, AML_E_IO, aml_space_name(io->space));
    return AML_OK;
}

/* ---- PCI_Config: which function ------------------------------------------------------ */

static bool is_pci_root(struct aml *a, struct aml_node *dev);
static int eval_int_child(struct aml *a, struct aml_node *scope, const char *name,
                          uint64_t *v);

static int pci_read(struct aml *a, uint16_t seg, uint8_t bus, uint8_t dev, uint8_t fn,
                    uint16_t reg, uint16_t bytes, uint64_t *v)
{
    uint8_t data[8] = { 0 };
    struct aml_io io = {
        .space = AML_SPACE_PCI_CONFIG, .setup = true, .bytes = bytes, .address = reg,
        .pci_segment = seg, .pci_bus = bus, .pci_device = dev, .pci_function = fn,
    };
    int st = host_io(a, &io, data);

    *v = 0;
    for (unsigned i = bytes; i-- > 0;)
        *v = *v << 8 | data[i];
    return st;
}

/* ACPICA's AcpiHwDerivePciId: from the root bridge down to the region's device, each
 * device on the way that is a PCI-to-PCI or CardBus bridge moves the bus number to
 * its secondary bus. */
static void derive_bus(struct aml *a, struct aml_object *r, struct aml_node *root_bridge,
                       struct aml_node *dev)
{
    struct aml_node *chain[32];
    unsigned depth = 0;

    for (struct aml_node *n = dev; n && n != root_bridge && depth < 32; n = n->parent)
        chain[depth++] = n;
    /* chain[depth-1] is just below the root bridge; the region's device itself is
     * chain[0] and is not looked at (its bus is the one found so far). */
    while (depth-- > 1) {
        uint64_t adr, v;
        if (eval_int_child(a, chain[depth], "_ADR", &adr))
            return;
        uint8_t d = (uint8_t)(adr >> 16), fn = (uint8_t)adr;
        if (pci_read(a, r->u.region.pci_segment, r->u.region.pci_bus, d, fn, 0x0E, 1, &v))
            return;
        unsigned header = (unsigned)v & 0x7F;
        if (header != 1 && header != 2)
            continue;
        if (pci_read(a, r->u.region.pci_segment, r->u.region.pci_bus, d, fn, 0x0A, 2, &v))
            return;
        if ((v >> 8) != 0x06 || ((v & 0xFF) != 0x04 && (v & 0xFF) != 0x07))
            continue;
        if (pci_read(a, r->u.region.pci_segment, r->u.region.pci_bus, d, fn, 0x19, 1, &v))
            return;
        r->u.region.pci_bus = (uint8_t)v;
    }
}

static void pci_setup(struct aml *a, struct aml_object *r)
{
    struct aml_node *dev = r->u.region.node ? r->u.region.node->parent : NULL;
    struct aml_node *root_bridge = NULL;
    uint64_t v;
    struct aml_error saved = a->err;

    r->u.region.pci_ready = true;
    for (struct aml_node *n = dev; n; n = n->parent)
        if (n->type == AML_TYPE_DEVICE && is_pci_root(a, n)) {
            root_bridge = n;
            break;
        }
    if (dev && !eval_int_child(a, dev, "_ADR", &v)) {
        r->u.region.pci_device = (uint8_t)(v >> 16);
        r->u.region.pci_function = (uint8_t)v;
    }
    if (root_bridge) {
        if (!eval_int_child(a, root_bridge, "_SEG", &v))
            r->u.region.pci_segment = (uint16_t)v;
        if (!eval_int_child(a, root_bridge, "_BBN", &v))
            r->u.region.pci_bus = (uint8_t)v;
        derive_bus(a, r, root_bridge, dev);
    }
    /* None of these is the method's error: ACPICA goes on with zeros. */
    a->err = saved;
}

int region_access(struct aml *a, struct aml_object *r, uint32_t offset, uint16_t bytes,
                  bool write, uint8_t *data)
{
    struct aml_io io = {
        .space = r->u.region.space, .write = write, .bytes = bytes,
        .address = r->u.region.address + offset,
        .region = r->u.region.node ? r->u.region.node->name : 0,
        .region_base = r->u.region.address, .region_length = r->u.region.length,
        .value = write ? a->write_value : 0,
    };

    if (io.address < io.region_base || io.address + bytes - 1 < io.address)
        return fail(a, AML_E_REGION_LIMIT, "address past 2^64");
    if (io.space == AML_SPACE_PCI_CONFIG) {
        if (a->cfg.pci_setup && !r->u.region.pci_ready)
            pci_setup(a, r);
        io.pci_segment = r->u.region.pci_segment;
        io.pci_bus = r->u.region.pci_bus;
        io.pci_device = r->u.region.pci_device;
        io.pci_function = r->u.region.pci_function;
    }
    if (io.space == AML_SPACE_IO) {
        uint64_t last = io.address + bytes - 1;
        if (last > 0xFFFF)
            return fail(a, AML_E_REGION_LIMIT, "I/O port above FFFFh");
        if (a->cfg.protect_ports) {
            if (bytes != 1 && bytes != 2 && bytes != 4)
                return fail(a, AML_E_OPERAND_VALUE, "I/O access width");
            if (port_denied(a, io.address, last)) {
                /* ACPICA: byte by byte, the protected bytes skipped (reads give 0). */
                uint64_t base = io.address;
                if (!write)
                    memset(data, 0, bytes);
                for (unsigned i = 0; i < bytes; i++) {
                    if (port_denied(a, base + i, base + i))
                        continue;
                    io.address = base + i;
                    io.bytes = 1;
                    io.value = data[i];
                    int st = host_io(a, &io, data + i);
                    if (st)
                        return st;
                }
                return AML_OK;
            }
        }
    }
    if (io.space > AML_SPACE_PCC && io.space < AML_SPACE_TABLE)
        return fail(a, AML_E_OPERAND_VALUE, "address space ID");
    return host_io(a, &io, data);
}

/* ---- _REG ------------------------------------------------------------------------------------ */

static struct aml_node *child_named(struct aml_node *scope, const char *name)
{
    uint32_t seg = le32((const uint8_t *)name);
    return ns_resolve_alias(ns_child(scope, seg));
}

static int call_reg(struct aml *a, struct aml_node *reg, unsigned space, bool connect)
{
    struct aml_object *args[2] = { obj_integer(a, space), obj_integer(a, connect) };
    struct aml_object *result = NULL;
    int st = args[0] && args[1] ? call_method(a, a->current, reg, args, 2, &result)
                                : AML_E_NO_MEMORY;

    obj_put(a, args[0]);
    obj_put(a, args[1]);
    obj_put(a, result);
    return st;
}

int region_run_reg(struct aml *a, struct aml_object *r, bool connect)
{
    if (!r->u.region.node || r->u.region.reg_connected == connect)
        return AML_OK;
    struct aml_node *reg = child_named(r->u.region.node->parent, "_REG");
    if (!reg || reg->type != AML_TYPE_METHOD || !reg->u.obj)
        return AML_OK;
    int st = call_reg(a, reg, r->u.region.space, connect);
    if (!st)
        r->u.region.reg_connected = connect;
    return st;
}

/* The next node of a pre-order walk of scope's descendants (ACPICA's
 * AcpiNsGetNextNode order). */
static struct aml_node *next_node(struct aml_node *scope, struct aml_node *n, bool descend)
{
    if (descend && n->child)
        return n->child;
    while (n != scope) {
        if (n->peer)
            return n->peer;
        n = n->parent;
    }
    return NULL;
}

int aml_run_reg(struct aml *a, struct aml_node *scope, uint8_t space)
{
    bool ec_region_here = false;

    if (!scope)
        return AML_OK;
    for (struct aml_node *n = scope->child; n; n = next_node(scope, n, true)) {
        struct aml_object *o = n->u.obj;
        if (n->type != AML_TYPE_REGION || !o || o->u.region.space != space)
            continue;
        if (n->parent == scope && space == AML_SPACE_EC)
            ec_region_here = true;
        /* A _REG that fails is reported by ACPICA and the walk goes on. */
        if (region_run_reg(a, o, true))
            a->err = (struct aml_error){ 0 };
    }
    if (space == AML_SPACE_EC && !ec_region_here) {
        for (struct aml_node *n = scope->child; n; n = next_node(scope, n, true))
            if (n->type == AML_TYPE_REGION && n->u.obj &&
                n->u.obj->u.region.space == AML_SPACE_EC)
                return AML_OK;
        struct aml_node *reg = child_named(scope, "_REG");
        if (reg && reg->type == AML_TYPE_METHOD && reg->u.obj &&
            call_reg(a, reg, AML_SPACE_EC, true))
            a->err = (struct aml_error){ 0 };
    }
    return AML_OK;
}

/* ---- devices: _HID, _CID, _STA, _ADR ----------------------------------------------------- */

static int eval_child(struct aml *a, struct aml_node *scope, const char *name,
                      struct aml_object **out)
{
    struct aml_node *n = child_named(scope, name);

    *out = NULL;
    if (!n)
        return AML_E_NOT_FOUND;
    return aml_evaluate_node(a, n, NULL, 0, out);
}

static int eval_int_child(struct aml *a, struct aml_node *scope, const char *name,
                          uint64_t *v)
{
    struct aml_object *o;
    int st = eval_child(a, scope, name, &o);

    if (!st && (!o || o->type != AML_TYPE_INTEGER))
        st = AML_E_OPERAND_TYPE;
    if (!st)
        *v = o->u.integer;
    obj_put(a, o);
    return st;
}

/* A compressed EISA ID ("PNP0A03") as ACPICA's AcpiExEisaIdToString writes it. */
static void eisa_id(uint32_t id, char out[8])
{
    static const char hex[] = "0123456789ABCDEF";
    uint32_t s = (id >> 24) | ((id >> 8) & 0xFF00) | ((id << 8) & 0xFF0000) | (id << 24);

    out[0] = (char)(0x40 + ((s >> 26) & 0x1F));
    out[1] = (char)(0x40 + ((s >> 21) & 0x1F));
    out[2] = (char)(0x40 + ((s >> 16) & 0x1F));
    out[3] = hex[(s >> 12) & 0xF];
    out[4] = hex[(s >> 8) & 0xF];
    out[5] = hex[(s >> 4) & 0xF];
    out[6] = hex[s & 0xF];
    out[7] = 0;
}

static bool id_matches(const struct aml_object *o, const char *id)
{
    char text[8];

    if (!o)
        return false;
    if (o->type == AML_TYPE_INTEGER) {
        eisa_id((uint32_t)o->u.integer, text);
        return !strcmp(text, id);
    }
    if (o->type == AML_TYPE_STRING)
        return !strcmp((const char *)o->u.buf.data, id);
    return false;
}

static bool has_id(struct aml *a, struct aml_node *dev, const char *id)
{
    struct aml_object *o;
    bool hit = false;
    struct aml_error saved = a->err;

    if (!eval_child(a, dev, "_HID", &o))
        hit = id_matches(o, id);
    obj_put(a, o);
    o = NULL;
    if (!hit && !eval_child(a, dev, "_CID", &o) && o) {
        if (o->type == AML_TYPE_PACKAGE) {
            for (uint32_t i = 0; i < o->u.pkg.count && !hit; i++)
                hit = id_matches(o->u.pkg.elems[i], id);
        } else {
            hit = id_matches(o, id);
        }
    }
    obj_put(a, o);
    a->err = saved;
    return hit;
}

static bool is_pci_root(struct aml *a, struct aml_node *dev)
{
    return has_id(a, dev, "PNP0A03") || has_id(a, dev, "PNP0A08");
}

#define STA_PRESENT     0x01
#define STA_FUNCTIONING 0x08

int aml_walk_devices(struct aml *a, const char *hid,
                     bool (*visit)(struct aml *a, struct aml_node *dev, void *arg),
                     void *arg)
{
    struct aml_node *root = a->root;

    for (struct aml_node *n = root->child; n;) {
        bool descend = true;
        if (n->type == AML_TYPE_DEVICE && (!hid || has_id(a, n, hid))) {
            uint64_t sta = STA_PRESENT | STA_FUNCTIONING | 0x06;
            struct aml_error saved = a->err;
            if (eval_int_child(a, n, "_STA", &sta) == AML_E_NOT_FOUND)
                sta = 0x0F;
            a->err = saved;
            if (!(sta & (STA_PRESENT | STA_FUNCTIONING))) {
                descend = false;
            } else if (!visit(a, n, arg)) {
                return AML_OK;
            }
        }
        n = next_node(root, n, descend);
    }
    return AML_OK;
}
