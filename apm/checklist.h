/* The expected action=check verdicts of known BIOSes, shipped in the kernel so that
 * an emulator's CI can ask "did anything change?" rather than "did anything fail?"
 * (every emulator BIOS fails some checks).
 *
 * The table (build/checklists.c) is generated at build time by
 * scripts/mkchecklists.py from tests/emu/expect/check-*.txt, the files the emulator
 * cases compare their runs with: one source, so the two cannot drift. A list is
 * chosen by the BIOS's identity, SMBIOS type 0 vendor and version, both exactly; a
 * BIOS may show more than one (SeaBIOS under QEMU takes QEMU's SMBIOS strings, in
 * Bochs it writes its own "Bochs" ones). A BIOS with no SMBIOS (DOSBox-X's, and most
 * before 1997) is known by a banner its ROM holds instead. */
#ifndef APMOFF_CHECKLIST_H
#define APMOFF_CHECKLIST_H

#include "check.h"

struct check_expected {
    const char *name;                   /* "connect.rm-twice" */
    enum check_verdict verdict;
    const char *why;                    /* a FAIL's cause, said when it comes as
                                           expected ("no 530Ch, though it says APM 1.2"), or 0 */
};

struct check_identity {
    const char *smbios_vendor;          /* SMBIOS type 0 vendor, matched exactly; 0
                                           for an identity by the ROM's banner */
    const char *smbios_version;         /* SMBIOS type 0 BIOS version: exactly, or a
                                           family when it ends in '*' ("1.16.*") */
    const char *rom_banner;             /* a banner string of E0000h-FFFFFh as the
                                           survey reads them (survey/romid.h),
                                           matched exactly; 0 for SMBIOS */
};

struct check_list {
    const char *bios;                   /* said in the verdict line: "SeaBIOS 1.16.2 (Debian)" */
    const struct check_identity *ids;
    unsigned id_count;
    const struct check_expected *checks;
    unsigned count;
};

extern const struct check_list check_lists[];
extern const unsigned check_list_count;

/* The list for this BIOS identity in lists[0..count), or 0; null strings match
 * nothing. */
const struct check_list *check_list_find(const struct check_list *lists, unsigned count,
                                         const char *smbios_vendor,
                                         const char *smbios_version);

/* The list one of the ROM's banners[0..n) names, or 0: for a BIOS without SMBIOS. */
const struct check_list *check_list_find_rom(const struct check_list *lists, unsigned count,
                                             const char *const *banners, unsigned n);

/* Says one line per difference between the report and the list
 * (`apmoff: check: differs: <name>: expected FAIL, got PASS`, a check the list lacks
 * or a listed check that did not run) and returns how many there were. A FAIL the
 * list expects and explains is said with its cause, as DOSBox-X's or SeaBIOS's:
 * `apmoff: check: known FAIL <name> (<bios>'s): <why>`. */
unsigned check_list_compare(const struct check_list *list, const struct check_report *rep);

#endif
