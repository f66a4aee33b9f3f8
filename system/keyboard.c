/* Polled keyboard and serial input: see keyboard.h. Reads the 8042's output buffer
 * directly; bytes from a PS/2 mouse (status bit 5) are dropped. */
#include "keyboard.h"
#include "io.h"
#include "../lib/pc.h"
#include "serial.h"

#define KBC_AUX_DATA    0x20
#define SCANCODE_BREAK  0x80    /* key released */

static bool kbc_key(void)
{
    uint8_t status = inb(KBC_CTRL);
    if (status == 0xFF || !(status & KBC_STATUS_OUT_FULL))
        return false;           /* no controller, or nothing waiting */
    uint8_t code = inb(KBC_DATA);
    return !(status & KBC_AUX_DATA) && !(code & SCANCODE_BREAK) && code != 0xE0;
}

void input_flush(void)
{
    char c;
    for (int i = 0; i < 64; i++) {
        (void)kbc_key();
        (void)serial_getc(&c);
    }
}

bool input_poll(void)
{
    char c;
    return kbc_key() || serial_getc(&c);
}
