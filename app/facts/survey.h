/* The hardware survey: what the machine is (CPU, memory, BIOS identity) and what its
 * APM BIOS offers, printed for people and as one JSON line for machines:
 *
 *   apmoff: survey {"schema":1, ...}
 *
 * The JSON schema is documented in docs/survey.md; "schema" changes when a field changes
 * meaning or goes away (adding fields keeps the number). */
#ifndef APMOFF_SURVEY_H
#define APMOFF_SURVEY_H

#include <stdbool.h>
#include <stdint.h>

#include "../system/bootinfo.h"
#include "../system/cpu.h"
#include "acpi_aml.h"
#include "options.h"
#include "probes.h"
#include "reset_offer.h"
#include "../system/cpuclock.h"
#include "../apm/apm.h"
#include "../survey/acpi.h"
#include "../survey/acpi_s5.h"
#include "../survey/chipset.h"
#include "../survey/pci.h"
#include "../survey/efi.h"
#include "../survey/romid.h"
#include "../survey/smbios.h"

#define SURVEY_JSON_MAX 6144     /* the QR pages carry it whole (survey/qrpages.h) */

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
    const char *version;        /* apmoff's own (app/version.h), or NULL */
    const char *commit;
    const char *previous;       /* the previous run's record ("reset:kbd:warm"), or NULL */
    struct efi_info efi;        /* UEFI only */
    struct smbios_info smbios;
    struct acpi_rsdp acpi;
    struct acpi_s5 s5;          /* the FADT's PM1 facts and \_S5_ (method=acpi) */
    struct acpi_aml_facts aml;  /* the AML loaded dry: whether \_PTS can run here */
    struct reset_offer reset;   /* which reset= methods are here, or why not */
};

/* Collects and prints the machine part (everything but APM); cpu was detected at
 * entry (the timing starts there). */
void survey_machine(struct survey *sv, const struct bootinfo *bi,
                    const struct cpu_info *cpu, bool bios_calls);

/* Builds the JSON line into buf; false if it did not fit (never print it then). */
bool survey_json(const struct survey *sv, const struct bootinfo *bi,
                 const struct apm_state *apm, const char *options, char *buf,
                 unsigned size);

/* Prints "apmoff: survey <json>", once a run: docs/output.md promises one machine-readable
 * line. action=survey,off prints it after the survey, whose APM state has every
 * offered interface tried; the power-off chain that follows starts from a fresh
 * state, and the line its before-first-off hook would print (only what the chain
 * tried so far) would contradict the first, so later calls print nothing. */
void survey_print_json(const char *json);

#endif
