/* The record for the next run: see record.h. Little-endian fields at fixed
 * offsets, written byte by byte, so the layout is the same on the host and in the
 * kernel; the CRC-32 covers everything before it. */
#include "record.h"
#include "crc32.h"
#include "string.h"
#include "le.h"
#include "format.h"

static const char mark[8] = { 'a', 'p', 'm', 'o', 'f', 'f', 'L', 'R' };

enum {
    OFF_MARK = 0,               /* 8 bytes */
    OFF_FORMAT = 8,
    OFF_ASKED = 9,
    OFF_STATE = 10,
    OFF_ATTEMPT = 11,
    OFF_FLAG = 12,              /* word */
    OFF_HAVE_TIME = 14,
    OFF_STUCK = 15,             /* zero in records of before it: nothing learnt */
    OFF_TIME = 16,              /* year (word), month, day, hour, minute, second */
    OFF_METHOD = 24,            /* RECORD_METHOD_MAX + 1 bytes, 0-terminated */
    OFF_RUN_MS = 40,            /* dword */
    OFF_AWAY_S = 44,            /* dword; 4 spare bytes before the checksum */
    OFF_CRC = RECORD_SIZE - 4,
};
_Static_assert(OFF_METHOD + RECORD_METHOD_MAX + 1 <= OFF_RUN_MS && OFF_AWAY_S + 4 <= OFF_CRC,
               "record layout");

void record_encode(const struct record *r, uint8_t out[RECORD_SIZE])
{
    memset(out, 0, RECORD_SIZE);
    memcpy(out + OFF_MARK, mark, sizeof(mark));
    out[OFF_FORMAT] = RECORD_FORMAT;
    out[OFF_ASKED] = r->asked;
    out[OFF_STATE] = r->state;
    out[OFF_ATTEMPT] = r->attempt;
    put_le16(out + OFF_FLAG, r->reset_flag);
    out[OFF_HAVE_TIME] = r->have_time;
    out[OFF_STUCK] = r->stuck;
    put_le16(out + OFF_TIME, r->time.year);
    out[OFF_TIME + 2] = r->time.month;
    out[OFF_TIME + 3] = r->time.day;
    out[OFF_TIME + 4] = r->time.hour;
    out[OFF_TIME + 5] = r->time.minute;
    out[OFF_TIME + 6] = r->time.second;
    put_le32(out + OFF_RUN_MS, (r->run_ms & ~RECORD_RUN_MS_AT_LEAST) |
                            (r->run_ms_at_least ? RECORD_RUN_MS_AT_LEAST : 0));
    for (unsigned i = 0; i < RECORD_METHOD_MAX && r->method[i]; i++)
        out[OFF_METHOD + i] = (uint8_t)r->method[i];
    put_le32(out + OFF_AWAY_S, r->away_s);
    put_le32(out + OFF_CRC, crc32(0, out, OFF_CRC));
}

enum record_found record_decode(const uint8_t in[RECORD_SIZE], struct record *r)
{
    if (memcmp(in + OFF_MARK, mark, sizeof(mark)))
        return RECORD_NONE;
    if (le32(in + OFF_CRC) != crc32(0, in, OFF_CRC) || in[OFF_FORMAT] != RECORD_FORMAT ||
        in[OFF_ASKED] < RECORD_OFF || in[OFF_ASKED] > RECORD_SUSPEND ||
        in[OFF_STATE] < RECORD_CALLING || in[OFF_STATE] > RECORD_RETURNED ||
        in[OFF_METHOD + RECORD_METHOD_MAX] != 0)
        return RECORD_DAMAGED;
    *r = (struct record){
        .asked = in[OFF_ASKED], .state = in[OFF_STATE], .attempt = in[OFF_ATTEMPT],
        .have_time = in[OFF_HAVE_TIME] != 0, .reset_flag = le16(in + OFF_FLAG),
        .run_ms = le32(in + OFF_RUN_MS) & ~RECORD_RUN_MS_AT_LEAST,
        .run_ms_at_least = (le32(in + OFF_RUN_MS) & RECORD_RUN_MS_AT_LEAST) != 0,
        .away_s = le32(in + OFF_AWAY_S), .stuck = in[OFF_STUCK],
        .time = { le16(in + OFF_TIME), in[OFF_TIME + 2], in[OFF_TIME + 3],
                  in[OFF_TIME + 4], in[OFF_TIME + 5], in[OFF_TIME + 6] },
    };
    memcpy(r->method, in + OFF_METHOD, RECORD_METHOD_MAX + 1);
    return RECORD_INTACT;
}

const char *record_asked_name(unsigned asked)
{
    static const char *const names[] = {
        [RECORD_OFF] = "power-off", [RECORD_RESET] = "reset",
        [RECORD_STANDBY] = "standby", [RECORD_SUSPEND] = "suspend",
    };
    return asked >= RECORD_OFF && asked <= RECORD_SUSPEND ? names[asked] : "?";
}

static const char *const stuck_words[] = { "rm", "pm32", "pm16", "acpi", "efi", "chipset" };
#define STUCK_WORDS (sizeof(stuck_words) / sizeof(stuck_words[0]))

unsigned record_stuck_bit(const char *method)
{
    for (unsigned i = 0; i < STUCK_WORDS; i++)
        if (!strcmp(method, stuck_words[i]))
            return 1u << i;
    return 0;
}

void record_stuck_names(unsigned stuck, char *text, unsigned size)
{
    unsigned len = 0;

    text[0] = 0;
    for (unsigned i = 0; i < STUCK_WORDS && len < size; i++)
        if (stuck & (1u << i))
            len += (unsigned)fmt_snprintf(text + len, size - len, "%s%s", len ? "," : "",
                                          stuck_words[i]);
}
