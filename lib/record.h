/* The record a run leaves in RAM for the next one: what it asked for (a reset, a
 * standby, a suspend, a power-off), by which method, when, and with which warm-boot
 * flag; written before each attempt, so the last one written names the attempt that
 * ended the run. The next boot reads it, says how the machine came back, and clears
 * it (app/common/record.c). Pure: the format, its checksum and its words; the host tests
 * build and damage records.
 *
 * Where: RECORD_ADDR, 0C00h, 56 bytes. RAM, since apmoff writes no CMOS and no disk.
 * A record must outlive a warm reset's POST and the boot loader that starts the next
 * run, before the kernel reads it:
 *   - a BIOS's warm boot (40:72h = 1234h) skips the memory test and rebuilds the IVT
 *     (0-3FFh) and BDA (400h-4FFh), not what lies above them; the low pages are the
 *     ones no POST takes for itself (SeaBIOS's stack and work area start at 7000h,
 *     Bochs' at FFFEh downwards, the EBDA at the top of conventional memory, where an
 *     option ROM also takes its memory from);
 *   - 500h-5FFh is DOS's and BASIC's (the print-screen byte at 500h), 600h-7FFh is
 *     where DOS's, Windows' and Syslinux's MBRs copy themselves;
 *   - the loaders: apmoff's floppy loader uses 1000h-57FFh (its track buffer), its
 *     stack below 7C00h, 7C00h-FFFFh and 10000h on; GRUB's real-mode stack ends at
 *     2000h and it places nothing below 1000h; QEMU's -kernel puts the multiboot
 *     information at 9000h;
 *   - the kernel's own trampoline and buffers stay at or above 1000h.
 * So 800h-FFFh is used by none of them, and the record sits in its middle. A cold
 * boot's memory test may clear it: then the absence is the answer. */
#ifndef APMOFF_LIB_RECORD_H
#define APMOFF_LIB_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "rtctime.h"

#define RECORD_ADDR        0x0C00u
#define RECORD_SIZE        56
#define RECORD_FORMAT      1
#define RECORD_METHOD_MAX  15
/* The run time's top bit in the bytes: a lower bound (a run of 24 days would need it). */
#define RECORD_RUN_MS_AT_LEAST 0x80000000u      /* "port92", "rm", "acpi": the word the run used */

enum record_asked {
    RECORD_OFF = 1,            /* a power-off */
    RECORD_RESET,
    RECORD_STANDBY,
    RECORD_SUSPEND,
};

enum record_state {
    RECORD_CALLING = 1,        /* written just before the call */
    RECORD_RETURNED,           /* a standby or suspend that came back into the run */
};

struct record {
    uint8_t asked;              /* enum record_asked */
    uint8_t state;              /* enum record_state */
    uint8_t attempt;            /* 1 for the run's first method, 2 for the next ... */
    bool have_time;             /* the clock answered */
    uint16_t reset_flag;        /* 40:72h as the run left it (BDA_RESET_*) */
    uint32_t run_ms;            /* the kernel's time since its entry (system/timer.h) */
    bool run_ms_at_least;       /* run_ms is a lower bound: the clock lost track */
    uint32_t away_s;            /* RECORD_RETURNED: seconds away, by the clock */
    struct rtc_time time;       /* when, by the clock (have_time) */
    char method[RECORD_METHOD_MAX + 1];
    uint8_t stuck;              /* record_stuck_bit()s: power-off ways that ended an
                                   earlier run of this chain of boots */
};

/* A power-off way ("rm", "pm32", "pm16", "acpi", "efi", "chipset") whose call ended a
 * run with the power still on: the record of that attempt outlived it in RAM, which a
 * power cut does not leave, so the machine was reset (by a person, or by the firmware)
 * in or after the call: an SMI handler that never finishes, a BIOS halted with
 * interrupts off. The next run tries it last. 0 for any other word. */
unsigned record_stuck_bit(const char *method);
/* The words of the bits in stuck, comma-separated ("rm,pm32"), into text. */
void record_stuck_names(unsigned stuck, char *text, unsigned size);

/* The record's bytes, its checksum made. */
void record_encode(const struct record *r, uint8_t out[RECORD_SIZE]);

enum record_found {
    RECORD_NONE,               /* no record's mark there */
    RECORD_DAMAGED,            /* the mark, but the checksum or a field is wrong */
    RECORD_INTACT,
};
/* What the bytes hold; *r is filled only when they hold an intact record. */
enum record_found record_decode(const uint8_t in[RECORD_SIZE], struct record *r);

/* "reset", "standby"... */
const char *record_asked_name(unsigned asked);

#endif
