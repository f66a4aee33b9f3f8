/* INT 1Ah AX=B101h: see pcibios.h. */
#include "pcibios.h"
#include "bios.h"
#include "../lib/pc.h"
#include "../lib/string.h"

bool pcibios_detect(struct pcibios_info *info)
{
    struct biosregs r;
    const char *why;

    memset(info, 0, sizeof(*info));
    initregs(&r);
    r.ax = PCIBIOS_FN_PRESENT;
    r.edi = 0;                  /* 3.0 returns its protected-mode entry here */
    if (!bios_int(BIOS_INT_TIME_PCI, &r, &r, &why))
        return false;
    /* A BIOS may return by IRET and leave CF as it found it: the signature decides. */
    if ((r.eflags & X86_EFLAGS_CF) || r.ah != 0 || r.edx != PCIBIOS_SIGNATURE)
        return false;
    info->present = true;
    info->major = r.bh;
    info->minor = r.bl;
    info->mechs = r.al;
    info->last_bus = r.cl;
    return true;
}
