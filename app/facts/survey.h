/* The facts of the machine (CPU, memory, BIOS identity, video, disks, EFI, SMBIOS,
 * ACPI, PCI and chipset, the AML), each group read when a step first needs it and
 * kept: a reset reads the chipset and the FADT, not the ROM's CRC-32. Each group says
 * its lines as it is read. The survey is every group, what APM offers and the ways
 * to act (app/show/), printed for people and as one JSON line for machines:
 *
 *   apmoff: survey {"schema":1, ...}
 *
 * The JSON schema is documented in docs/survey.md; "schema" changes when a field changes
 * meaning or goes away (adding fields keeps the number). */
#ifndef APMOFF_SURVEY_H
#define APMOFF_SURVEY_H

#include <stdbool.h>
#include <stdint.h>

#include "../../system/bootinfo.h"
#include "../../system/cpu.h"
#include "acpi_aml.h"
#include "../common/options.h"
#include "probes.h"
#include "../../system/cpuclock.h"
#include "../../apm/apm.h"
#include "../../survey/acpi.h"
#include "../../survey/acpi_s5.h"
#include "../../survey/chipset.h"
#include "../../survey/pci.h"
#include "../../survey/efi.h"
#include "../../survey/romid.h"
#include "../../survey/smbios.h"


struct survey {
    const char *firmware;       /* "bios", "uefi", or "none" (no UEFI tables and an
                                   empty INT 15h vector: no legacy BIOS either) */
    const char *firmware_reason;/* why "none"; 0 otherwise */
    bool bios_calls;            /* whether BIOS calls were allowed */
    struct cpu_info cpu;
    struct cpu_clock clock;
    bool have_int12;
    uint16_t int12_kb;
    struct mem_probe mem;       /* with BIOS calls: each memory interface */
    struct disk_probe disks;
    struct video_probe video;
    struct pci_survey pci;
    struct chipset_verdict chipset;
    uint32_t map_available_kb;  /* sum of available map entries, KiB */
    char bios_date[9];          /* F000:FFF5, "MM/DD/YY" */
    uint8_t model_byte;         /* F000:FFFE */
    struct rom_id rom;          /* E0000h-FFFFFh: CRC-32 and banner strings */
    const char *label;          /* label=, or NULL */
    const char *version;        /* apmoff's own (app/common/version.h), or NULL */
    const char *commit;
    const char *record;         /* the previous run's record ("reset:kbd:warm"), or NULL */
    struct efi_info efi;        /* UEFI only */
    struct smbios_info smbios;
    struct acpi_rsdp acpi;
    struct acpi_s5 s5;          /* the FADT's PM1 facts and \_S5_ (method=acpi) */
    struct acpi_aml_facts aml;  /* the AML loaded dry: whether \_PTS can run here */
    const char *efi_why;        /* why ResetSystem cannot be called, or NULL */
    const struct bootinfo *bi;  /* what the loader handed over, for later groups */
    unsigned read;              /* enum facts_group: the groups read so far */
};

enum facts_group {
    FACTS_CPU = 1 << 0,         /* the clock measured, the FPU */
    FACTS_MEMORY = 1 << 1,      /* INT 12h, E820h, E801h, 88h and the loader's map */
    FACTS_BIOS = 1 << 2,        /* the date, the model byte, the ROM's CRC-32 and strings */
    FACTS_VIDEO = 1 << 3,       /* INT 10h: the adapter and VBE */
    FACTS_DISKS = 1 << 4,       /* CMOS's floppies and INT 13h's hard disks */
    FACTS_EFI = 1 << 5,         /* the system table and ResetSystem */
    FACTS_SMBIOS = 1 << 6,
    FACTS_ACPI = 1 << 7,        /* the RSDP, the FADT's PM1 facts and \_S5_ */
    FACTS_PCI = 1 << 8,         /* every function, and the chipset's verdict */
    FACTS_AML = 1 << 9,         /* the AML loaded dry: whether \_PTS can run */
    FACTS_ALL = (1 << 10) - 1,
};

/* What is known without reading anything: the firmware's kind, the CPU detected at
 * entry (the timing starts there), whether BIOS calls may be made. Says nothing. */
void facts_start(struct survey *sv, const struct bootinfo *bi, const struct cpu_info *cpu,
                 bool bios_calls);

/* Reads each group of groups (enum facts_group) not read yet, and the groups it
 * rests on (SMBIOS and ACPI on EFI's tables, the AML on ACPI and PCI), in the
 * survey's order, saying their lines; the first read says the firmware's kind. */
void facts_need(struct survey *sv, unsigned groups);

#endif
