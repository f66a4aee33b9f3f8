/* The survey screen's geometry: see qrscreen.h. */
#include "qrscreen.h"

int qrscreen_max_version(int height)
{
    int modules = (height - QRSCREEN_CAPTION_ROWS) / QRSCREEN_MODULE_PX_MIN -
                  2 * QRSCREEN_QUIET_ZONE;
    return (modules - 17) / 4;
}

void qrscreen_place(int size, int height, struct qrscreen_place *p)
{
    int total = size + 2 * QRSCREEN_QUIET_ZONE;

    p->scale = (height - QRSCREEN_CAPTION_ROWS) / total;
    p->left = (QRSCREEN_W - total * p->scale) / 2 & ~1;
    p->top = QRSCREEN_CAPTION_ROWS + (height - QRSCREEN_CAPTION_ROWS - total * p->scale) / 2;
    /* Modules on even pixels where there is a row to spare: a photo taken at half the
     * screen's size then keeps each 4-pixel module 2 pixels wide instead of smearing it
     * over three (Bochs' version 22 symbol did not read back so). */
    if ((p->top & 1) && p->top + 1 + total * p->scale <= height)
        p->top++;
}
