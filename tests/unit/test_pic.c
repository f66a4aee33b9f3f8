/* lib/pic_init.c: the 8259 initialisation the v86 monitor writes twice per call:
 * ICW1-ICW4 in the order the 8259A datasheet demands, both PICs,
 * and ICW1's LTIM bit on a level-triggered (Micro Channel) machine only. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../lib/pc.h"
#include "../../lib/pic_init.h"

static void check(bool level, uint8_t icw1)
{
    struct port_byte w[PIC_INIT_WRITES];
    static const uint16_t ports[PIC_INIT_WRITES] = {
        PIC_MASTER_CMD, PIC_SLAVE_CMD, PIC_MASTER_DATA, PIC_SLAVE_DATA,
        PIC_MASTER_DATA, PIC_SLAVE_DATA, PIC_MASTER_DATA, PIC_SLAVE_DATA,
    };
    const uint8_t values[PIC_INIT_WRITES] = {
        icw1, icw1, 0x20, 0x28, PIC_ICW3_MASTER, PIC_ICW3_SLAVE, PIC_ICW4_8086,
        PIC_ICW4_8086,
    };

    pic_init_sequence(0x20, 0x28, level, w);
    for (unsigned i = 0; i < PIC_INIT_WRITES; i++) {
        assert_int_equal(w[i].port, ports[i]);
        assert_int_equal(w[i].value, values[i]);
    }
}

static void test_edge(void **state)
{
    (void)state;
    check(false, 0x11);                 /* edge, cascaded, ICW4 follows */
}

static void test_level(void **state)
{
    (void)state;
    check(true, 0x19);                  /* the same, level-triggered (LTIM) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge),
        cmocka_unit_test(test_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
