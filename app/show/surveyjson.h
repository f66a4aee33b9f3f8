/* The survey as one JSON line for machines:
 *
 *   apmoff: survey {"schema":1, ...}
 *
 * The JSON schema is documented in docs/survey.md; "schema" changes when a field changes
 * meaning or goes away (adding fields keeps the number). */
#ifndef APMOFF_SURVEYJSON_H
#define APMOFF_SURVEYJSON_H

#include "../facts/survey.h"
#include "../reset/offer.h"

#define SURVEY_JSON_MAX 6144     /* the QR pages carry it whole (survey/qrpages.h) */

/* Builds the JSON line into buf; false if it did not fit (never print it then). */
bool survey_json(const struct survey *sv, const struct bootinfo *bi,
                 const struct apm_state *apm, const struct reset_offer *resets,
                 const char *options, char *buf, unsigned size);

/* Prints "apmoff: survey <json>", once a run: docs/output.md promises one machine-readable
 * line. action=survey,off prints it after the survey, whose APM state has every
 * offered interface tried; the power-off chain that follows starts from a fresh
 * state, and the line its before-first-off hook would print (only what the chain
 * tried so far) would contradict the first, so later calls print nothing. */
void survey_print_json(const char *json);

#endif
