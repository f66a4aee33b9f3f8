/* A BIOS identity every PC has, SMBIOS or not (most 386/486 boards have none): the
 * CRC-32 of the system BIOS area (E0000h-FFFFFh: the same bytes on the same ROM
 * build), and the vendor's banner and copyright strings found in it, e.g.
 * "Award Modular BIOS v4.51PG" or "AMIBIOS (C)1995 American Megatrends". With the
 * date and model bytes at F000:FFF5h-FFFEh (app/facts/survey.c) it tells boards apart.
 * Pure: the caller hands it the ROM's bytes; runs on the host in the unit tests. */
#ifndef APMOFF_SURVEY_ROMID_H
#define APMOFF_SURVEY_ROMID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ROMID_START         0xE0000u
#define ROMID_END           0x100000u
#define ROMID_STRINGS_MAX   4
#define ROMID_STRING_MAX    64          /* longer strings are cut */
#define ROMID_STRING_MIN    10          /* shorter printable runs are noise */

struct rom_id {
    uint32_t crc32;
    unsigned count;
    char strings[ROMID_STRINGS_MAX][ROMID_STRING_MAX + 1];
};

/* Hashes len bytes and keeps the first distinct printable runs that name a BIOS
 * vendor or carry a copyright; then, while there is room, runs that say BIOS. */
void romid_scan(const uint8_t *rom, size_t len, struct rom_id *id);

/* The same, fed a piece at a time: a ROM on a slow bus is read once, in pieces the
 * caller copies to RAM, and every pass (the CRC, the runs) reads the copy. */
#define ROMID_WEAK_MAX (ROMID_STRINGS_MAX * 2)

struct romid_scan {
    struct rom_id *id;
    char run[ROMID_STRING_MAX];         /* the current printable run, cut */
    size_t run_len;                     /* its whole length */
    char weak[ROMID_WEAK_MAX][ROMID_STRING_MAX + 1];
    unsigned weak_count;
};

void romid_start(struct romid_scan *r, struct rom_id *id);
void romid_feed(struct romid_scan *r, const uint8_t *bytes, size_t len);
void romid_finish(struct romid_scan *r);

#endif
