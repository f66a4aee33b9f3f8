/* The record for the next run, in RAM: see lastrun.h. */
#include "lastrun.h"
#include "lastrun_story.h"
#include "../system/cmos.h"
#include "../system/console.h"
#include "../system/reset.h"
#include "../system/rtc.h"
#include "../system/timer.h"
#include "../lib/pc.h"
#include "../lib/string.h"

static bool writable;           /* the map calls the record's bytes RAM */
static bool told;               /* this run's "record:" line was said */
static struct lastrun mine;
static char previous[LASTRUN_TAG_MAX];

/* The record's bytes. A constant address this low is one GCC takes for a null
 * pointer's neighbour: the asm hides where the pointer came from. */
static uint8_t *record_bytes(void)
{
    uint8_t *p = (uint8_t *)(uintptr_t)LASTRUN_ADDR;
    __asm__("" : "+r"(p));
    return p;
}

/* Whether the loader's map calls [LASTRUN_ADDR, + LASTRUN_SIZE) available RAM and
 * nothing else; with no map, a BIOS machine's low memory is RAM. */
static bool record_in_ram(const struct bootinfo *bi)
{
    uint64_t lo = LASTRUN_ADDR, end = LASTRUN_ADDR + LASTRUN_SIZE;
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

void lastrun_read_at_boot(const struct bootinfo *bi)
{
    struct lastrun r;
    struct lastrun_story story;
    struct lastrun_now now = { 0 };
    const char *why;
    uint8_t bytes[LASTRUN_SIZE];

    writable = record_in_ram(bi);
    if (!writable) {
        say("record: none kept: the memory map does not call %04Xh-%04Xh RAM",
            LASTRUN_ADDR, LASTRUN_ADDR + LASTRUN_SIZE - 1);
        return;
    }
    memcpy(bytes, record_bytes(), LASTRUN_SIZE);
    switch (lastrun_decode(bytes, &r)) {
    case LASTRUN_NONE:
        /* one screen row: each row before the off call is time (a scroll) */
        say("record: none at %04Xh (first boot, no call last run, or POST wiped RAM)",
            LASTRUN_ADDR);
        return;
    case LASTRUN_DAMAGED:
        say("record: the one at %04Xh is damaged (its checksum or a field is wrong): "
            "something wrote there after the previous run", LASTRUN_ADDR);
        break;
    case LASTRUN_INTACT:
        now.legacy = !(bi->efi_system_table || bi->efi_boot_services);
        now.reset_flag = now.legacy ? reset_flag_get() : 0;
        now.shutdown_status = cmos_read(CMOS_SHUTDOWN_STATUS);
        now.have_time = rtc_now(&now.time, &why);
        lastrun_story(&r, &now, &story);
        say("record: %s", story.said);
        say("record: %s", story.detail);
        memcpy(previous, story.tag, sizeof(previous));
        break;
    }
    memset(record_bytes(), 0, LASTRUN_SIZE);    /* told once: the next boot hears of
                                                   the next run, or of none */
}

static void write_mine(void)
{
    uint8_t bytes[LASTRUN_SIZE];

    lastrun_encode(&mine, bytes);
    memcpy(record_bytes(), bytes, LASTRUN_SIZE);
}

void lastrun_leave(enum lastrun_asked asked, const char *method, unsigned attempt,
                   uint16_t reset_flag)
{
    const char *why;

    if (!writable)
        return;
    mine = (struct lastrun){
        .asked = (uint8_t)asked, .state = LASTRUN_CALLING, .attempt = (uint8_t)attempt,
        .reset_flag = reset_flag,
    };
    bool exact;
    mine.run_ms = timer_ms_since(0, &exact);
    mine.run_ms_at_least = !exact;
    mine.have_time = rtc_now(&mine.time, &why);
    for (unsigned i = 0; i < LASTRUN_METHOD_MAX && method[i]; i++)
        mine.method[i] = method[i];
    write_mine();
    if (!told)
        say("record: %s via %s left at %04Xh for the next boot to report",
            lastrun_asked_name(asked), method, LASTRUN_ADDR);
    told = true;
}

void lastrun_came_back(uint32_t away_s)
{
    if (!writable || !mine.asked)
        return;
    mine.state = LASTRUN_RETURNED;
    mine.away_s = away_s;
    write_mine();
}

const char *lastrun_previous(void)
{
    return previous[0] ? previous : 0;
}
