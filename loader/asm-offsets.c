/* Constants for the loader's assembly (loader/bootsect.asm, loader/head.asm),
 * generated from the C headers so the two sides cannot drift:
 * build/loader-offsets.inc. */
#include "../lib/biosregs.h"
#include "../lib/multiboot.h"
#include "../lib/x86.h"
#include "layout.h"

#define DEFINE(sym, val) __asm__ volatile("\n->" #sym " %c0" : : "i"(val))

void loader_asm_constants(void);
void loader_asm_constants(void)
{
    DEFINE(BIOSREGS_SIZE, sizeof(struct biosregs));
    DEFINE(MB1_BOOT_MAGIC, MB1_BOOT_MAGIC);
    DEFINE(X86_CR0_PE, X86_CR0_PE);
    DEFINE(LOADER_DPT_COPY, LOADER_DPT_COPY);
    DEFINE(LOADER_STACK_TOP, LOADER_STACK_TOP);
    DEFINE(LOADER_BOOT_SECTOR, LOADER_BOOT_SECTOR);
    DEFINE(LOADER_STAGE2, LOADER_STAGE2);
    DEFINE(LOADER_STAGE2_END, LOADER_STAGE2_END);
    DEFINE(BOOT_BIOS_DRIVE, BOOT_BIOS_DRIVE);
}
