/* The record for the next run, in RAM: see record.h. */
#include "record.h"
#include "record_story.h"
#include "../../system/cmos.h"
#include "../../system/console.h"
#include "../../system/reset.h"
#include "../../system/rtc.h"
#include "../../system/timer.h"
#include "../../lib/pc.h"
#include "../../lib/string.h"

static bool writable;           /* the map calls the record's bytes RAM */
static bool told;               /* this run's "record:" line was said */
static struct record mine;
static char previous[RECORD_TAG_MAX];
static unsigned stuck;          /* record_stuck_bit()s learnt, carried in every record */

/* The record's bytes. A constant address this low is one GCC takes for a null
 * pointer's neighbour: the asm hides where the pointer came from. */
static uint8_t *record_bytes(void)
{
    uint8_t *p = (uint8_t *)(uintptr_t)RECORD_ADDR;
    __asm__("" : "+r"(p));
    return p;
}

/* Whether the loader's map calls [RECORD_ADDR, + RECORD_SIZE) available RAM and
 * nothing else; with no map, a BIOS machine's low memory is RAM. */
static bool record_in_ram(const struct bootinfo *bi)
{
    uint64_t lo = RECORD_ADDR, end = RECORD_ADDR + RECORD_SIZE;
    bool available = bi->mmap_count == 0;

    for (unsigned i = 0; i < bi->mmap_count; i++) {
        const struct mmap_entry *e = &bi->mmap[i];
        if (e->base >= end || e->base + e->length <= lo)
            continue;
        if (e->type != MMAP_AVAILABLE)
            return false;
        if (e->base <= lo && e->base + e->length >= end)
            available = true;
    }
    return available;
}

/* A power-off call whose record outlived the run ended it with the power on: that
 * way goes last from now on, and so do the ways earlier runs learnt the same of. */
static void learn(const struct record *r)
{
    char names[48];

    stuck = r->stuck;
    if (r->asked == RECORD_OFF && r->state == RECORD_CALLING &&
        !(stuck & record_stuck_bit(r->method))) {
        stuck |= record_stuck_bit(r->method);
        if (record_stuck_bit(r->method))
            say("record: the last run went no further than its power-off call via %s, "
                "and the power stayed on (RAM kept this record): %s goes last this time",
                r->method, r->method);
    }
    if (!stuck)
        return;
    record_stuck_names(stuck, names, sizeof(names));
    say("record: tried last, after the power stayed on in an earlier run: %s", names);
}

void record_read_at_boot(const struct bootinfo *bi)
{
    struct record r;
    struct record_story story;
    struct record_now now = { 0 };
    const char *why;
    uint8_t bytes[RECORD_SIZE];

    writable = record_in_ram(bi);
    if (!writable) {
        say("record: none kept: the memory map does not call %04Xh-%04Xh RAM",
            RECORD_ADDR, RECORD_ADDR + RECORD_SIZE - 1);
        return;
    }
    memcpy(bytes, record_bytes(), RECORD_SIZE);
    switch (record_decode(bytes, &r)) {
    case RECORD_NONE:
        /* one screen row: each row before the off call is time (a scroll) */
        say("record: none at %04Xh (first boot, no call last run, or POST wiped RAM)",
            RECORD_ADDR);
        return;
    case RECORD_DAMAGED:
        say("record: the one at %04Xh is damaged (its checksum or a field is wrong): "
            "something wrote there after the previous run", RECORD_ADDR);
        break;
    case RECORD_INTACT:
        now.legacy = !(bi->efi_system_table || bi->efi_boot_services);
        now.reset_flag = now.legacy ? reset_flag_get() : 0;
        now.shutdown_status = cmos_read(CMOS_SHUTDOWN_STATUS);
        now.have_time = rtc_now(&now.time, &why);
        record_story(&r, &now, &story);
        say("record: %s", story.said);
        say("record: %s", story.detail);
        memcpy(previous, story.tag, sizeof(previous));
        learn(&r);
        break;
    }
    memset(record_bytes(), 0, RECORD_SIZE);    /* told once: the next boot hears of
                                                   the next run, or of none */
}

static void write_mine(void)
{
    uint8_t bytes[RECORD_SIZE];

    record_encode(&mine, bytes);
    memcpy(record_bytes(), bytes, RECORD_SIZE);
}

void record_leave(enum record_asked asked, const char *method, unsigned attempt,
                   uint16_t reset_flag)
{
    const char *why;

    if (!writable)
        return;
    mine = (struct record){
        .asked = (uint8_t)asked, .state = RECORD_CALLING, .attempt = (uint8_t)attempt,
        .reset_flag = reset_flag, .stuck = (uint8_t)stuck,
    };
    bool exact;
    mine.run_ms = timer_ms_since(0, &exact);
    mine.run_ms_at_least = !exact;
    mine.have_time = rtc_now(&mine.time, &why);
    for (unsigned i = 0; i < RECORD_METHOD_MAX && method[i]; i++)
        mine.method[i] = method[i];
    write_mine();
    if (!told)
        say("record: %s via %s left at %04Xh for the next boot to report",
            record_asked_name(asked), method, RECORD_ADDR);
    told = true;
}

void record_came_back(uint32_t away_s)
{
    if (!writable || !mine.asked)
        return;
    mine.state = RECORD_RETURNED;
    mine.away_s = away_s;
    write_mine();
}

const char *record_previous(void)
{
    return previous[0] ? previous : 0;
}

bool record_stuck(const char *method)
{
    return (stuck & record_stuck_bit(method)) != 0;
}
