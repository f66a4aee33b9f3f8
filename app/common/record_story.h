/* The words for the record the previous run left (lib/record.h): what it asked and
 * how the machine came back, judged from what this boot finds. Pure: the host tests
 * give it records and boots. app/common/record.h reads the record and prints these. */
#ifndef APMOFF_RECORD_STORY_H
#define APMOFF_RECORD_STORY_H

#include <stdbool.h>
#include <stdint.h>

#include "../../lib/record.h"

/* What this boot finds. */
struct record_now {
    bool legacy;                /* a BIOS machine: 40:72h and CMOS 0Fh are its POST's */
    uint16_t reset_flag;        /* 40:72h now */
    uint8_t shutdown_status;    /* CMOS 0Fh now (read only) */
    bool have_time;             /* the clock answered */
    struct rtc_time time;
};

#define RECORD_STORY_MAX 200
#define RECORD_TAG_MAX 40

struct record_story {
    char said[RECORD_STORY_MAX];   /* "the previous run asked for a reset via kbd; the
                                       machine came back through a warm boot ..." */
    char detail[RECORD_STORY_MAX]; /* when, how far into that run, CMOS 0Fh */
    char tag[RECORD_TAG_MAX];      /* for the survey JSON: "reset:kbd:warm" */
};

void record_story(const struct record *r, const struct record_now *now,
                   struct record_story *out);

#endif
