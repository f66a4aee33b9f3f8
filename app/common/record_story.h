/* The words for the record the previous run left (lib/lastrun.h): what it asked and
 * how the machine came back, judged from what this boot finds. Pure: the host tests
 * give it records and boots. app/lastrun.h reads the record and prints these. */
#ifndef APMOFF_LASTRUN_STORY_H
#define APMOFF_LASTRUN_STORY_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/lastrun.h"

/* What this boot finds. */
struct lastrun_now {
    bool legacy;                /* a BIOS machine: 40:72h and CMOS 0Fh are its POST's */
    uint16_t reset_flag;        /* 40:72h now */
    uint8_t shutdown_status;    /* CMOS 0Fh now (read only) */
    bool have_time;             /* the clock answered */
    struct rtc_time time;
};

#define LASTRUN_STORY_MAX 200
#define LASTRUN_TAG_MAX 40

struct lastrun_story {
    char said[LASTRUN_STORY_MAX];   /* "the previous run asked for a reset via kbd; the
                                       machine came back through a warm boot ..." */
    char detail[LASTRUN_STORY_MAX]; /* when, how far into that run, CMOS 0Fh */
    char tag[LASTRUN_TAG_MAX];      /* for the survey JSON: "reset:kbd:warm" */
};

void lastrun_story(const struct lastrun *r, const struct lastrun_now *now,
                   struct lastrun_story *out);

#endif
