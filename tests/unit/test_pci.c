/* survey/pci.c: the bus walk over simulated configuration spaces.
 *
 * A simulated machine is a list of functions, each 256 bytes of configuration space;
 * anything else reads FFFFFFFFh, as an empty slot does on the bus. It is reached
 * either directly or through simulated mechanism #1 and #2 ports, which decode the
 * addresses lib/pci.h's encoders build, as the chipset would. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../lib/pc.h"
#include "../../survey/pci.h"

#define SIM_MAX     320

struct sim_fn {
    uint8_t bus, dev, fn;
    uint32_t regs[64];
};

static struct sim_fn sim[SIM_MAX];
static unsigned sim_count;
static unsigned long reads;
static bool mirror_functions;   /* single-function devices answer every fn number */
static struct pci_survey sv;

static int setup(void **state)
{
    (void)state;
    sim_count = 0;
    reads = 0;
    mirror_functions = false;
    memset(&sv, 0xA5, sizeof(sv));      /* the walker must set what it reports */
    return 0;
}

/* Adds a function: id, class/revision dword, header type. */
static struct sim_fn *add(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t vendor,
                          uint16_t device, uint32_t class_rev, uint8_t header)
{
    assert_true(sim_count < SIM_MAX);
    struct sim_fn *f = &sim[sim_count++];
    memset(f, 0, sizeof(*f));
    f->bus = bus;
    f->dev = dev;
    f->fn = fn;
    f->regs[PCI_ID / 4] = vendor | (uint32_t)device << 16;
    f->regs[PCI_CLASS_REV / 4] = class_rev;
    f->regs[PCI_HEADER_DWORD / 4] = (uint32_t)header << 16;
    return f;
}

static struct sim_fn *add_bridge(uint8_t bus, uint8_t dev, uint8_t secondary)
{
    struct sim_fn *f = add(bus, dev, 0, 0x8086, 0x244E, 0x06040001, PCI_HEADER_BRIDGE);
    f->regs[PCI_BUSES / 4] = bus | (uint32_t)secondary << 8 | (uint32_t)secondary << 16;
    return f;
}

static const struct sim_fn *lookup(uint8_t bus, uint8_t dev, uint8_t fn)
{
    for (unsigned i = 0; i < sim_count; i++)
        if (sim[i].bus == bus && sim[i].dev == dev && sim[i].fn == fn)
            return &sim[i];
    if (mirror_functions && fn)
        for (unsigned i = 0; i < sim_count; i++)
            if (sim[i].bus == bus && sim[i].dev == dev && sim[i].fn == 0 &&
                !(sim[i].regs[PCI_HEADER_DWORD / 4] >> 16 & PCI_HEADER_MULTI))
                return &sim[i];
    return NULL;
}

static uint32_t sim_read(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t reg)
{
    reads++;
    assert_int_equal(reg & 3, 0);
    assert_true(dev < 32 && fn < 8);
    const struct sim_fn *f = lookup(bus, dev, fn);
    return f ? f->regs[reg / 4] : 0xFFFFFFFFu;
}

static uint32_t direct_read32(void *ctx, uint8_t bus, uint8_t dev, uint8_t fn, uint8_t reg)
{
    assert_ptr_equal(ctx, &sv);
    return sim_read(bus, dev, fn, reg);
}

static const struct pci_access direct = { direct_read32, &sv };

/* Mechanism #1's ports: a dword latch at CF8h, data at CFCh. */
static uint32_t cf8;

static uint32_t mech1_inl_cfc(void)
{
    if (!(cf8 & PCI_CONF1_ENABLE))
        return 0xFFFFFFFFu;
    assert_int_equal(cf8 & 0x7F000003u, 0);     /* reserved bits stay 0 */
    return sim_read((uint8_t)(cf8 >> 16), (cf8 >> 11) & 31, (cf8 >> 8) & 7,
                    (uint8_t)(cf8 & 0xFC));
}

static uint32_t mech1_read32(void *ctx, uint8_t bus, uint8_t dev, uint8_t fn, uint8_t reg)
{
    (void)ctx;
    cf8 = pci_conf1_address(bus, dev, fn, reg);
    return mech1_inl_cfc();
}

/* Mechanism #2's: CSE at CF8h, forward at CFAh, the window at C000h-CFFFh. */
static uint8_t cse, forward;

static uint32_t mech2_inl(uint16_t port)
{
    if (!(cse & 0xF0) || (port & 0xF000) != PCI_MECH2_BASE)
        return 0xFFFFFFFFu;
    assert_int_equal(cse & 1, 0);               /* no special cycles */
    return sim_read(forward, (port >> 8) & 15, (cse >> 1) & 7, (uint8_t)(port & 0xFC));
}

static uint32_t mech2_read32(void *ctx, uint8_t bus, uint8_t dev, uint8_t fn, uint8_t reg)
{
    (void)ctx;
    if (dev >= PCI_MECH2_DEVICES)
        return 0xFFFFFFFFu;
    cse = pci_conf2_cse(fn);
    forward = bus;
    uint32_t v = mech2_inl(pci_conf2_port(PCI_MECH2_BASE, dev, reg));
    cse = 0;
    return v;
}

/* A 430HX-like board: host bridge, PIIX3 (ISA, IDE), a VGA card at device 20. */
static void board(void)
{
    add(0, 0, 0, 0x8086, 0x1250, 0x06000003, 0);
    add(0, 7, 0, 0x8086, 0x7000, 0x06010001, PCI_HEADER_MULTI);
    add(0, 7, 1, 0x8086, 0x7010, 0x01018000, 0);
    struct sim_fn *vga = add(0, 20, 0, 0x1234, 0x1111, 0x03000002, 0);
    vga->regs[PCI_SUBSYS_TYPE0 / 4] = 0x11001AF4;
    vga->regs[PCI_INTERRUPT / 4] = 0x0000010B;  /* INTA#, IRQ 11 */
}

static void test_encodings(void **state)
{
    (void)state;
    assert_int_equal(pci_conf1_address(0, 0, 0, 0), 0x80000000u);
    assert_int_equal(pci_conf1_address(1, 2, 3, 0x3C), 0x8001133Cu);
    assert_int_equal(pci_conf1_address(255, 31, 7, 0xFF), 0x80FFFFFCu);
    assert_int_equal(pci_conf2_cse(0), 0xF0);
    assert_int_equal(pci_conf2_cse(7), 0xFE);
    assert_int_equal(pci_conf2_port(PCI_MECH2_BASE, 0, 0), 0xC000);
    assert_int_equal(pci_conf2_port(PCI_MECH2_BASE, 15, 0x3E), 0xCF3C);
}

static void test_direct(void **state)
{
    (void)state;
    board();
    pci_walk(&direct, 0, &sv);
    assert_int_equal(sv.count, 4);
    assert_int_equal(sv.buses, 1);
    assert_false(sv.truncated);
    const struct pci_function *f = &sv.fn[3];
    assert_int_equal(f->dev, 20);
    assert_int_equal(f->vendor, 0x1234);
    assert_int_equal(f->device, 0x1111);
    assert_int_equal(f->class_code, 0x03);
    assert_int_equal(f->subclass, 0x00);
    assert_int_equal(f->prog_if, 0x00);
    assert_int_equal(f->revision, 0x02);
    assert_int_equal(f->sub_vendor, 0x1AF4);
    assert_int_equal(f->sub_device, 0x1100);
    assert_int_equal(f->irq_line, 11);
    assert_int_equal(f->irq_pin, 1);
    assert_int_equal(sv.fn[2].prog_if, 0x80);
    assert_int_equal(sv.fn[2].fn, 1);
    assert_ptr_equal(pci_find(&sv, 0x8086, 0x7010), &sv.fn[2]);
    assert_null(pci_find(&sv, 0x8086, 0x7113));
}

static void test_mech1(void **state)
{
    (void)state;
    board();
    add_bridge(0, 30, 2);
    add(2, 31, 0, 0x10EC, 0x8139, 0x02000010, 0);
    struct pci_access a = { mech1_read32, NULL };
    pci_walk(&a, 0, &sv);
    assert_int_equal(sv.count, 6);
    assert_int_equal(sv.fn[5].bus, 2);
    assert_int_equal(sv.fn[5].dev, 31);
    assert_int_equal(sv.fn[5].vendor, 0x10EC);
}

/* #2 addresses 16 devices: the VGA card at device 20 is out of its reach. */
static void test_mech2(void **state)
{
    (void)state;
    board();
    add_bridge(0, 12, 1);
    add(1, 3, 0, 0x10EC, 0x8029, 0x02000000, 0);
    struct pci_access a = { mech2_read32, NULL };
    pci_walk(&a, 0, &sv);
    assert_int_equal(sv.count, 5);
    assert_null(pci_find(&sv, 0x1234, 0x1111));
    assert_non_null(pci_find(&sv, 0x8086, 0x7010));
    const struct pci_function *nic = pci_find(&sv, 0x10EC, 0x8029);
    assert_non_null(nic);
    assert_int_equal(nic->bus, 1);
    assert_int_equal(nic->dev, 3);
    assert_int_equal(cse, 0);                   /* the window is left closed */
}

static void test_bridges(void **state)
{
    (void)state;
    add(0, 0, 0, 0x8086, 0x7190, 0x06000003, 0);
    struct sim_fn *agp = add_bridge(0, 1, 1);
    agp->regs[PCI_SUBSYS_TYPE0 / 4] = 0x12345678;       /* a type 1 header has none */
    add(1, 0, 0, 0x10DE, 0x0020, 0x03000004, 0);
    add_bridge(1, 5, 3);                                /* a bridge behind a bridge */
    add(3, 2, 0, 0x1000, 0x000F, 0x01000001, 0);
    struct sim_fn *cb = add(0, 10, 0, 0x104C, 0xAC1C, 0x06070001, PCI_HEADER_CARDBUS);
    cb->regs[PCI_BUSES / 4] = 0x00050500;
    cb->regs[PCI_SUBSYS_CARDBUS / 4] = 0xABCD1028;
    add_bridge(0, 11, 9);                               /* an empty bus */
    pci_walk(&direct, 0, &sv);
    assert_int_equal(sv.count, 7);
    assert_int_equal(sv.buses, 5);                      /* 0, 1, 3, 5, 9 */
    const struct pci_function *b = pci_find(&sv, 0x8086, 0x244E);
    assert_int_equal(b->secondary_bus, 1);
    assert_int_equal(b->sub_vendor, 0);
    assert_int_equal(b->header_type, PCI_HEADER_BRIDGE);
    const struct pci_function *c = pci_find(&sv, 0x104C, 0xAC1C);
    assert_int_equal(c->secondary_bus, 5);
    assert_int_equal(c->sub_vendor, 0x1028);
    assert_int_equal(c->sub_device, 0xABCD);
    assert_int_equal(pci_find(&sv, 0x1000, 0x000F)->bus, 3);
}

/* Buses 0 -> 1 -> 2 -> 0 and 1 -> 1: each walked once. */
static void test_bridge_loop(void **state)
{
    (void)state;
    add_bridge(0, 1, 1);
    add_bridge(1, 1, 2);
    add_bridge(1, 2, 1);
    add_bridge(2, 1, 0);
    pci_walk(&direct, 0, &sv);
    assert_int_equal(sv.buses, 3);
    assert_int_equal(sv.count, 4);
    assert_true(reads < 3 * 32 + 4 * 6);
}

/* A chain of bridges through all 256 bus numbers, then back to 0: 256 buses. */
static void test_bridge_chain_bounded(void **state)
{
    (void)state;
    for (unsigned bus = 0; bus < 40; bus++)
        add_bridge((uint8_t)bus, 0, (uint8_t)(bus + 1));
    pci_walk(&direct, 255, &sv);
    assert_int_equal(sv.buses, 256);
    assert_int_equal(sv.count, 40);
    assert_false(sv.truncated);
    assert_true(reads <= 256 * 32 + 40 * 6);
}

static void test_absent(void **state)
{
    (void)state;
    add(0, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFF);     /* answers FFFFh */
    add(0, 1, 0, 0x0000, 0x0000, 0, 0);                 /* vendor 0: not a device */
    add(0, 2, 0, 0x8086, 0x1237, 0x06000002, 0);
    pci_walk(&direct, 0, &sv);
    assert_int_equal(sv.count, 1);
    assert_int_equal(sv.fn[0].dev, 2);
    pci_walk(NULL, 0, &sv);
    assert_int_equal(sv.count, 0);
    struct pci_access none = { NULL, NULL };
    pci_walk(&none, 0, &sv);
    assert_int_equal(sv.buses, 0);
}

static void test_multifunction(void **state)
{
    (void)state;
    mirror_functions = true;
    add(0, 1, 0, 0x8086, 0x7110, 0x06010002, PCI_HEADER_MULTI);
    add(0, 1, 1, 0x8086, 0x7111, 0x01018001, 0);
    add(0, 1, 3, 0x8086, 0x7113, 0x06800002, 0);        /* function 2 absent */
    add(0, 2, 0, 0x5333, 0x8811, 0x03000000, 0);        /* single, answers fn 1-7 */
    pci_walk(&direct, 0, &sv);
    assert_int_equal(sv.count, 4);
    assert_int_equal(sv.fn[2].fn, 3);
    assert_int_equal(sv.fn[3].dev, 2);
}

static void test_peer_bus(void **state)
{
    (void)state;
    add(0, 0, 0, 0x8086, 0x84C4, 0x06000004, 0);
    add(4, 0, 0, 0x8086, 0x84C4, 0x06000004, 0);        /* a second host bridge */
    pci_walk(&direct, 0, &sv);
    assert_int_equal(sv.count, 1);
    pci_walk(&direct, 4, &sv);
    assert_int_equal(sv.count, 2);
    assert_int_equal(sv.fn[1].bus, 4);
    assert_int_equal(sv.buses, 5);
}

static void test_truncated(void **state)
{
    (void)state;
    for (uint8_t dev = 0; dev < 8; dev++)
        for (uint8_t fn = 0; fn < 8; fn++)
            add(0, dev, fn, 0x8086, (uint16_t)(dev << 8 | fn), 0x0C030000,
                PCI_HEADER_MULTI);
    pci_walk(&direct, 0, &sv);
    assert_int_equal(sv.count, PCI_MAX_FUNCTIONS);
    assert_true(sv.truncated);
    assert_int_equal(sv.fn[PCI_MAX_FUNCTIONS - 1].device, 0x0507);
}

static void test_class_names(void **state)
{
    (void)state;
    assert_string_equal(pci_class_name(0x00), "unclassified");
    assert_string_equal(pci_class_name(0x03), "display");
    assert_string_equal(pci_class_name(0x06), "bridge");
    assert_string_equal(pci_class_name(0x0C), "serial bus");
    assert_string_equal(pci_class_name(0x12), "processing accelerator");
    assert_string_equal(pci_class_name(0x13), "other");
    assert_string_equal(pci_class_name(0xFF), "unassigned");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_encodings, setup),
        cmocka_unit_test_setup(test_direct, setup),
        cmocka_unit_test_setup(test_mech1, setup),
        cmocka_unit_test_setup(test_mech2, setup),
        cmocka_unit_test_setup(test_bridges, setup),
        cmocka_unit_test_setup(test_bridge_loop, setup),
        cmocka_unit_test_setup(test_bridge_chain_bounded, setup),
        cmocka_unit_test_setup(test_absent, setup),
        cmocka_unit_test_setup(test_multifunction, setup),
        cmocka_unit_test_setup(test_peer_bus, setup),
        cmocka_unit_test_setup(test_truncated, setup),
        cmocka_unit_test_setup(test_class_names, setup),
    };
    return cmocka_run_group_tests_name("pci", tests, NULL, NULL);
}
