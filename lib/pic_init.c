/* The 8259 initialisation sequence: see pic_init.h. */
#include "pic_init.h"
#include "pc.h"

void pic_init_sequence(uint8_t master_base, uint8_t slave_base, bool level,
                       struct port_byte out[PIC_INIT_WRITES])
{
    uint8_t icw1 = (uint8_t)(PIC_ICW1_INIT_ICW4 | (level ? PIC_ICW1_LEVEL : 0));
    unsigned n = 0;

    out[n++] = (struct port_byte){ PIC_MASTER_CMD, icw1 };
    out[n++] = (struct port_byte){ PIC_SLAVE_CMD, icw1 };
    out[n++] = (struct port_byte){ PIC_MASTER_DATA, master_base };     /* ICW2 */
    out[n++] = (struct port_byte){ PIC_SLAVE_DATA, slave_base };
    out[n++] = (struct port_byte){ PIC_MASTER_DATA, PIC_ICW3_MASTER };
    out[n++] = (struct port_byte){ PIC_SLAVE_DATA, PIC_ICW3_SLAVE };
    out[n++] = (struct port_byte){ PIC_MASTER_DATA, PIC_ICW4_8086 };
    out[n++] = (struct port_byte){ PIC_SLAVE_DATA, PIC_ICW4_8086 };
}
