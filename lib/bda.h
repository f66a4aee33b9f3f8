/* The first megabyte's fixed layout: the real-mode IVT, the BIOS data area, the
 * EBDA rule, and the regions above conventional memory. Each fact once, here.
 *
 * Pure (no memory access): callers read the addresses their own way, the kernel
 * with peek32(), the firmware-table readers through a physmem window. */
#ifndef APMOFF_BDA_H
#define APMOFF_BDA_H

#include <stdbool.h>
#include <stdint.h>

#define IVT_BASE            0x0u
#define IVT_LIMIT           0x3FFu  /* 256 four-byte vectors: the real-mode IDTR limit */
#define IVT_ENTRY_ADDR(v)   ((uint32_t)(v) * 4u)

#define BDA_BASE            0x400u
#define BDA_COM_PORTS       0x400u  /* 4 words: the serial ports POST found, COM1 first */
#define BDA_EBDA_SEGMENT    0x40Eu  /* word: the EBDA's segment */
#define BDA_MEMORY_KB       0x413u  /* word: conventional memory in KiB (INT 12h) */
#define BDA_CRTC_PORT       0x463u  /* word: the text console's CRT controller */
#define BDA_TICKS           0x46Cu  /* dword: IRQ 0 ticks since midnight */
#define BDA_RESET_FLAG      0x472u  /* word: what POST does after a reset (IBM AT BIOS) */
#define BDA_RESET_WARM      0x1234u /* ... a warm boot: no memory test (Ctrl-Alt-Del) */
#define BDA_RESET_COLD      0x0000u /* ... a cold boot, as at power-on */

#define VIDEO_MEMORY        0xA0000u
#define TEXT_MONO_BASE      0xB0000u /* MDA, Hercules: 80x25 text */
#define TEXT_COLOUR_BASE    0xB8000u /* CGA, EGA, VGA */
#define OPTION_ROM_START    0xC0000u /* option ROMs, then the system BIOS */
#define BIOS_AREA_START     0xE0000u /* where BIOS tables (RSDP, SMBIOS) may lie */
#define BIOS_AREA_END       0x100000u

/* The lowest an EBDA is taken to start: BIOSes place it just below 640 KiB (9FC00h
 * on most); a machine apmoff runs on has at least 512 KiB there, so a segment
 * below 8000h is a value some program wrote, not an EBDA. */
#define EBDA_LOWEST         0x80000u
#define EBDA_SCAN_LEN       1024u   /* ACPI: the RSDP may be in the EBDA's first KiB */

/* The linear address of a real-mode segment:offset. */
static inline uint32_t real_linear(uint32_t seg, uint32_t off)
{
    return (seg & 0xFFFFu) * 16u + (off & 0xFFFFu);
}

/* The linear address a far pointer as stored in the IVT (offset low, segment high)
 * points at. */
static inline uint32_t far_ptr_linear(uint32_t segoff)
{
    return real_linear(segoff >> 16, segoff & 0xFFFFu);
}

/* The EBDA's address from the BDA word at 40:0Eh, or 0 when that word cannot name
 * one (the one rule every reader of the BDA applies). */
static inline uint32_t ebda_from_bda(uint16_t segment)
{
    uint32_t at = (uint32_t)segment * 16u;
    return at >= EBDA_LOWEST && at < VIDEO_MEMORY ? at : 0;
}

#endif
