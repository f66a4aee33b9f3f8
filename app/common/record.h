/* The record a run leaves for the next one (lib/record.h has its format and its
 * place, and why there): read and reported once at boot, then cleared; written before
 * each reset method, standby, suspend and power-off call; marked when a standby or
 * suspend came back. Written only where the boot loader's map calls those bytes RAM. */
#ifndef APMOFF_RECORD_H
#define APMOFF_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "../../lib/record.h"
#include "../../system/bootinfo.h"

/* At boot, before anything of this run writes low memory: "previous run: ..." lines,
 * then the record cleared. */
void record_read_at_boot(const struct bootinfo *bi);

/* This run's record: asked what, by which method (as the run's lines name it), its
 * attempt (1 for the first), with 40:72h as it now is. */
void record_leave(enum record_asked asked, const char *method, unsigned attempt,
                   uint16_t reset_flag);
/* The standby or suspend in the record came back into this run, away_s seconds. */
void record_came_back(uint32_t away_s);

/* Whether an earlier run of this chain of boots ended in a power-off call via method
 * ("rm", "acpi") with the power on (lib/record.h): the chains try it last. */
bool record_stuck(const char *method);

/* The previous run's record as the survey JSON gives it ("reset:kbd:warm"), or NULL
 * when none was found. */
const char *record_previous(void);

#endif
