/* Human words for APM numbers: function names, error messages, decoded fields.
 * One table each, so the console, the report and the tests use the same words. */
#ifndef APMOFF_APM_TEXT_H
#define APMOFF_APM_TEXT_H

#include <stdint.h>

const char *apm_function_name(uint8_t fn);
/* "interface not connected"; unknown codes as "unknown error XXh" in buf. */
const char *apm_error_text(uint8_t code, char *buf, unsigned size);
const char *apm_ac_line_text(uint8_t v);
const char *apm_battery_status_text(uint8_t v);
/* Decodes install-check flags into buf as a comma list. */
void apm_flags_text(uint16_t flags, char *buf, unsigned size);
void apm_battery_flag_text(uint8_t flag, char *buf, unsigned size);
void apm_capabilities_text(uint16_t caps, char *buf, unsigned size);
/* A 530Bh event code's name ("normal resume"), or "unknown event". */
const char *apm_event_name(uint16_t event);

#endif
