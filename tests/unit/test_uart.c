/* lib/uart.c: COM1 is the BIOS's first serial port, found by the loopback test, and
 * each UART generation is named by what it does. The ports are a model: UARTs of
 * each kind at chosen bases, and a floating bus (FFh, writes lost) everywhere else. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../lib/pc.h"
#include "../../lib/uart.h"

enum kind { K_8250, K_16450, K_16550, K_16550A };

struct model {
    uint16_t base;              /* 0: slot unused */
    enum kind kind;
    uint8_t mcr, lcr, scr, fcr;
    unsigned writes;            /* writes that reached it */
    unsigned poll_every;        /* every n-th MSR read sees 86Box's poll of the outside
                                 * line (0: never) */
    unsigned msr_reads;
    unsigned poll_period;       /* or: the poll comes every this many port accesses ... */
    unsigned poll_phase;        /* ... and lands between an MCR write made at this point
                                 * of its period and the read after it (0: never) */
    unsigned clock;             /* port accesses so far */
    unsigned mcr_written_at;
};

#define SLOTS 2
static struct model ports[SLOTS];
static unsigned stray_writes;   /* writes to a base where nothing answers */

static struct model *at(uint16_t port)
{
    for (unsigned i = 0; i < SLOTS; i++)
        if (ports[i].base && port >= ports[i].base && port < ports[i].base + 8)
            return &ports[i];
    return NULL;
}

#define OUTSIDE_LINE    0x10    /* CTS: what 86Box's "file" device reports */

/* The modem status inputs: in loopback, RTS -> CTS, DTR -> DSR, OUT1 -> RI and
 * OUT2 -> DCD, as the 8250 datasheet wires them (86Box's serial.c does the same);
 * outside loopback, the outside line. 86Box also copies the outside line in while in
 * loopback, once a bit time: poll_every says which reads that lands before. */
static uint8_t msr(struct model *m)
{
    if (m->poll_every && ++m->msr_reads % m->poll_every == 0)
        return OUTSIDE_LINE;
    if (m->poll_period && m->mcr_written_at % m->poll_period == m->poll_phase)
        return OUTSIDE_LINE;
    if (!(m->mcr & MCR_LOOP))
        return OUTSIDE_LINE;
    return (uint8_t)((m->mcr & 0x02 ? 0x10 : 0) | (m->mcr & 0x01 ? 0x20 : 0) |
                     (m->mcr & 0x04 ? 0x40 : 0) | (m->mcr & 0x08 ? 0x80 : 0));
}

static uint8_t port_in(uint16_t port)
{
    struct model *m = at(port);
    if (!m)
        return 0xFF;
    m->clock++;
    switch (port - m->base) {
    case UART_IIR:
        if (m->kind == K_16550A && (m->fcr & 1))
            return 0xC1;
        if (m->kind == K_16550 && (m->fcr & 1))
            return 0x81;
        return 0x01;
    case UART_LCR:
        return m->lcr;
    case UART_MCR:
        return m->mcr;
    case UART_LSR:
        return LSR_THR_EMPTY | LSR_TX_IDLE;
    case UART_MSR:
        return msr(m);
    case UART_SCR:
        return m->kind == K_8250 ? 0xFF : m->scr;      /* the 8250 has none */
    }
    return 0;
}

static void port_out(uint16_t port, uint8_t value)
{
    struct model *m = at(port);
    if (!m) {
        stray_writes++;
        return;
    }
    m->writes++;
    m->clock++;
    switch (port - m->base) {
    case UART_FCR:
        if (m->kind >= K_16550)
            m->fcr = value;
        break;
    case UART_LCR:
        m->lcr = value;
        break;
    case UART_MCR:
        m->mcr = value & 0x1F;
        m->mcr_written_at = m->clock;
        break;
    case UART_SCR:
        m->scr = value;
        break;
    }
}

static const struct uart_io io = { port_in, port_out };

static int setup(void **state)
{
    (void)state;
    memset(ports, 0, sizeof(ports));
    stray_writes = 0;
    return 0;
}

static void put(unsigned slot, uint16_t base, enum kind kind)
{
    ports[slot] = (struct model){ .base = base, .kind = kind, .mcr = 0x0B };
}

static void test_com1_at_3f8(void **state)
{
    (void)state;
    put(0, PORT_COM1, K_16550A);
    assert_int_equal(uart_find_com1(&io, PORT_COM1), PORT_COM1);
    assert_int_equal(uart_find_com1(&io, 0), PORT_COM1);   /* a BDA with no port */
    assert_int_equal(ports[0].mcr, 0x0B);                   /* the MCR as found */
}

/* 86Box's Intel AN430TX (PC87307) with its BIOS's saved setup: the one serial port at
 * 2F8h, BDA 40:00h = 02F8h, every register at 3F8h reads FFh. GRUB wrote there. */
static void test_bios_com1_at_2f8(void **state)
{
    (void)state;
    put(0, PORT_COM2, K_16550A);
    assert_int_equal(uart_find_com1(&io, PORT_COM2), PORT_COM2);
    assert_string_equal(uart_setup(&io, PORT_COM2), "16550A");
    assert_int_equal(ports[0].lcr, LCR_8N1);
    assert_int_equal(ports[0].mcr, MCR_DTR_RTS);
    /* Without the BDA's word, 3F8h alone is tried: nothing there. */
    assert_int_equal(uart_find_com1(&io, 0), 0);
}

/* The BDA is memory: a word that names no standard base is no port to write to. */
static void test_bda_word_not_a_port(void **state)
{
    (void)state;
    put(0, PORT_COM1, K_16450);
    put(1, 0x1230, K_16450);
    assert_int_equal(uart_find_com1(&io, 0x1230), PORT_COM1);
    assert_int_equal(ports[1].writes, 0);
    assert_int_equal(uart_find_com1(&io, 0xFFFF), PORT_COM1);
}

/* The BIOS's COM1 does not answer (taken over since POST): 3F8h still may. */
static void test_bda_port_silent(void **state)
{
    (void)state;
    put(0, PORT_COM1, K_8250);
    assert_int_equal(uart_find_com1(&io, PORT_COM4), PORT_COM1);
}

/* 86Box's poll lands between an MCR write and the MSR read: that step is made
 * again and the UART found (one build's kernel said "no serial port" on the TC430HX
 * where its loader had just written). A port that never echoes is still refused. */
static void test_emulator_poll_in_loopback(void **state)
{
    (void)state;
    put(0, PORT_COM1, K_16550A);
    /* Once, before the first step's read or the second's. */
    for (unsigned nth = 1; nth <= 2; nth++) {
        ports[0].poll_every = 100;
        ports[0].msr_reads = 100 - nth;
        assert_true(uart_answers(&io, PORT_COM1));
        assert_int_equal(ports[0].mcr, 0x0B);
    }
    ports[0].poll_every = 2;                /* before every other read */
    ports[0].msr_reads = 0;
    assert_true(uart_answers(&io, PORT_COM1));
    ports[0].poll_every = 1;                /* before every read: the outside line only */
    assert_false(uart_answers(&io, PORT_COM1));
}

/* A try that lasts as long as the poll's period meets the poll at the same point each
 * time: an MCR write and its MSR read are two accesses, and a poll every two accesses
 * that lands after the write would refuse every try made the same way (86Box's 386
 * with its 720 KB drive, boot after boot). Each try starts at another point. */
static void test_emulator_poll_in_step_with_the_tries(void **state)
{
    (void)state;
    put(0, PORT_COM1, K_8250);
    for (unsigned phase = 0; phase < 2; phase++) {
        ports[0].poll_period = 2;
        ports[0].poll_phase = phase;
        ports[0].clock = 0;
        assert_true(uart_answers(&io, PORT_COM1));
    }
    ports[0].poll_period = 1;               /* after every write: never an echo */
    ports[0].poll_phase = 0;
    assert_false(uart_answers(&io, PORT_COM1));
}

/* Nothing anywhere: a floating bus reads FFh, whose modem status has every input up
 * in and out of loopback. No port is taken. */
static void test_floating_bus(void **state)
{
    (void)state;
    assert_false(uart_answers(&io, PORT_COM1));
    assert_int_equal(uart_find_com1(&io, PORT_COM2), 0);
    assert_int_equal(uart_find_com1(&io, 0), 0);
}

/* Each generation by what it does: a FIFO that works, one that does not (left off),
 * a scratch register, none. */
static void test_kinds(void **state)
{
    static const struct { enum kind kind; const char *name; } k[] = {
        { K_8250, "8250" }, { K_16450, "16450" }, { K_16550, "16550" },
        { K_16550A, "16550A" },
    };
    (void)state;
    for (unsigned i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
        put(0, PORT_COM1, k[i].kind);
        assert_true(uart_answers(&io, PORT_COM1));
        assert_string_equal(uart_setup(&io, PORT_COM1), k[i].name);
        assert_int_equal(ports[0].fcr & 1, k[i].kind == K_16550A);
    }
    assert_int_equal(stray_writes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_com1_at_3f8, setup),
        cmocka_unit_test_setup(test_bios_com1_at_2f8, setup),
        cmocka_unit_test_setup(test_bda_word_not_a_port, setup),
        cmocka_unit_test_setup(test_bda_port_silent, setup),
        cmocka_unit_test_setup(test_emulator_poll_in_loopback, setup),
        cmocka_unit_test_setup(test_emulator_poll_in_step_with_the_tries, setup),
        cmocka_unit_test_setup(test_floating_bus, setup),
        cmocka_unit_test_setup(test_kinds, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
