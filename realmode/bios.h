/* bios_int(): the one way the kernel calls a BIOS interrupt.
 *
 * The caller fills a struct biosregs (after initregs()) and gets the BIOS's registers
 * and flags back; how real mode is reached (the trampoline, or the v86 monitor) is
 * chosen once at start-up and hidden here. Interrupts stay off in protected mode;
 * the BIOS may enable them while it runs, and then its own handlers serve the IRQs. */
#ifndef APMOFF_BIOS_H
#define APMOFF_BIOS_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/biosregs.h"

struct bootinfo;

enum bios_path {
    BIOS_PATH_TRAMPOLINE,       /* leave protected mode for real mode */
    BIOS_PATH_V86,              /* run the BIOS as a virtual-8086 task */
};

/* Checks that a legacy BIOS is there to call, installs the path. False, with the
 * reason in why, when BIOS calls must not be made. */
bool bios_init(const struct bootinfo *bi, enum bios_path path, char *why,
               unsigned why_size);

/* Returns false when the call could not be completed (*why says why); out is then
 * unspecified. in and out may be the same block. */
bool bios_int(uint8_t vector, const struct biosregs *in, struct biosregs *out,
              const char **why);

enum bios_path bios_path(void);

/* A jump to the BIOS's reset entry, F000:FFF0, from real mode (the trampoline, under
 * either path: POST is no code for the v86 monitor), as the CPU starts after a
 * reset: POST runs again and reads the warm-boot flag at 40:72h. Returns only when
 * there is no trampoline to jump from. */
void bios_reset_jump(void);

/* How long the calls that follow may run before the v86 monitor stops them as hung:
 * BIOS_CALL_LIMIT_S by default, longer for a power-off that spins disks down, 0 for
 * calls that block until something outside happens (APM standby and suspend end when
 * the machine resumes). The trampoline never stops a call. */
#define BIOS_CALL_LIMIT_S 6
void bios_call_limit(unsigned seconds);

/* The BIOS as code that only asks it questions sees it: the call, and a buffer
 * below 1 MiB for the answers that come in memory (E820 entries, the VBE block,
 * EDD parameters). The kernel's is bios_access; the host tests simulate one, so
 * the survey's probes run against a pretend BIOS there. */
#define BIOS_BUFFER_SIZE 1024
struct bios_access {
    bool (*call)(uint8_t vector, const struct biosregs *in, struct biosregs *out,
                 const char **why);
    /* BIOS_BUFFER_SIZE bytes: our pointer, and the real-mode address in seg:off. */
    uint8_t *(*buffer)(uint16_t *seg, uint16_t *off);
};
extern const struct bios_access bios_access;

/* bios_int() through a given path, whatever was chosen (for comparing the two). */
bool bios_int_via(enum bios_path p, uint8_t vector, const struct biosregs *in,
                  struct biosregs *out, const char **why);

#endif
