/* The previous run's story: see record_story.h. Also compiled on the host.
 *
 * How the machine came back is read from the warm-boot flag as POST left it: an IBM
 * AT BIOS keeps 1234h at 40:72h through a warm boot; a BIOS that clears its BDA at
 * POST (SeaBIOS does) leaves 0000h either way, and then only the record itself says
 * something: RAM kept it, so no memory test ran over it. */
#include "record_story.h"
#include "../../lib/bda.h"
#include "../../lib/format.h"

/* How the machine came back after a reset or a power-off that did not happen: the
 * sentence's end and the tag's last word. */
static const char *came_back(const struct record *r, const struct record_now *now,
                             char *buf, unsigned size)
{
    if (!now->legacy) {
        fmt_snprintf(buf, size, "with the record kept in RAM (UEFI: no warm-boot flag "
                     "to read)");
        return "ram-kept";
    }
    if (now->reset_flag == BDA_RESET_WARM) {
        fmt_snprintf(buf, size, "through a warm boot (40:72h = 1234h)");
        return "warm";
    }
    if (now->reset_flag == BDA_RESET_COLD && r->reset_flag == BDA_RESET_COLD) {
        fmt_snprintf(buf, size, "through a cold boot, as asked (40:72h = 0000h), and RAM "
                     "kept the record");
        return "cold";
    }
    if (now->reset_flag == BDA_RESET_COLD) {
        fmt_snprintf(buf, size, "with the record kept in RAM, and POST left 40:72h at "
                     "0000h (%04Xh was asked): warm or cold cannot be told", r->reset_flag);
        return "flag-cleared";
    }
    fmt_snprintf(buf, size, "with the record kept in RAM; 40:72h reads %04Xh (%04Xh was "
                 "asked)", now->reset_flag, r->reset_flag);
    return "flag-other";
}

void record_story(const struct record *r, const struct record_now *now,
                   struct record_story *out)
{
    const char *asked = record_asked_name(r->asked);
    bool sleep = r->asked == RECORD_STANDBY || r->asked == RECORD_SUSPEND;
    char how[140], when[64] = "", ago[32] = "";
    const char *word;

    if (sleep && r->state == RECORD_RETURNED) {
        fmt_snprintf(out->said, sizeof(out->said), "the previous run's %s via %s came back "
                     "into that run after %u s", asked, r->method, (unsigned)r->away_s);
        word = "returned";
    } else {
        word = came_back(r, now, how, sizeof(how));
        if (r->asked == RECORD_RESET)
            fmt_snprintf(out->said, sizeof(out->said), "the previous run asked for a reset "
                         "via %s; the machine came back %s", r->method, how);
        else if (r->asked == RECORD_OFF)
            fmt_snprintf(out->said, sizeof(out->said), "the previous run asked for a "
                         "power-off via %s, and did not get it (or the power came back "
                         "within moments): the machine came back %s", r->method, how);
        else
            fmt_snprintf(out->said, sizeof(out->said), "the previous run asked for %s via "
                         "%s and did not come back into that run: the machine came back %s",
                         asked, r->method, how);
    }
    if (r->have_time) {
        rtc_format(&r->time, when, sizeof(when));
        uint32_t then = rtc_seconds(&r->time), s = now->have_time ? rtc_seconds(&now->time)
                                                                  : 0;
        if (now->have_time && s >= then)
            fmt_snprintf(ago, sizeof(ago), ", %u s ago", (unsigned)(s - then));
    }
    fmt_snprintf(out->detail, sizeof(out->detail), "asked %s%s%s, %s%u ms into that run, "
                 "its attempt %u; CMOS shutdown status %02Xh now", r->have_time ? "at " : "",
                 r->have_time ? when : "(the clock did not answer)", ago,
                 r->run_ms_at_least ? ">= " : "", (unsigned)r->run_ms, r->attempt, now->shutdown_status);
    fmt_snprintf(out->tag, sizeof(out->tag), "%s:%s:%s", asked, r->method, word);
}
