/* The BIOS ROM's identity: see romid.h. */
#include "romid.h"
#include "../lib/crc32.h"
#include "../lib/string.h"

#include <stdbool.h>

/* Words that make a printable run a banner rather than one of the setup screen's
 * messages: a vendor's name or a copyright first; then, if there is room, anything
 * that says BIOS. */
static const char *const strong_marks[] = {
    "(C)", "(c)", "Copyright", "COPYRIGHT", "Award", "AMI", "Phoenix", "Megatrends",
    "Compaq", "COMPAQ", "IBM", "Quadtel", "MR BIOS", "Microid", "SystemSoft", "Insyde",
    "Acer", "Dell", "Toshiba", "SeaBIOS", "Bochs",
};
static const char *const weak_marks[] = { "BIOS" };

static bool printable(uint8_t c)
{
    return c >= 0x20 && c < 0x7F;
}

/* Whether a mark occurs in s. The ROM holds kilobytes of setup text, much of it in
 * capitals, and a 386 pays for every call: each byte is looked up once, and only the
 * marks that begin with it are compared. */
#define MARKS_MAX 32
_Static_assert(sizeof(strong_marks) / sizeof(*strong_marks) <= MARKS_MAX, "a bit a mark");

static bool has_mark(const char *s, const char *const *marks, size_t count)
{
    static uint32_t begins[2][256];     /* bit i: marks[i] begins with the byte */
    static uint8_t lengths[2][MARKS_MAX];
    unsigned which = marks == strong_marks;

    if (!lengths[which][0])
        for (size_t i = 0; i < count; i++) {
            begins[which][(uint8_t)marks[i][0]] |= 1u << i;
            lengths[which][i] = (uint8_t)strlen(marks[i]);
        }
    for (const char *p = s; *p; p++)
        for (uint32_t m = begins[which][(uint8_t)*p]; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            if (!strncmp(p, marks[i], lengths[which][i]))
                return true;
        }
    return false;
}

/* A printf template ("SeaBIOS (version %s)", "Insufficient space (%d bytes)"): the
 * BIOS's format for a message, not its name. A conversion is '%', optional flags,
 * width, precision and length, then one of the C conversion letters. */
static bool is_template(const char *s)
{
    for (const char *p = strchr(s, '%'); p; p = strchr(p + 1, '%')) {
        const char *q = p + 1;
        while (*q && strchr("-+#0", *q))   /* not ' ': "100% compatible" is text */
            q++;
        while (*q >= '0' && *q <= '9')
            q++;
        if (*q == '.')
            for (q++; *q >= '0' && *q <= '9'; q++)
                ;
        while (*q && strchr("hlLqjzt", *q))
            q++;
        if (*q && strchr("diouxXcspfeEgG", *q))
            return true;
    }
    return false;
}

/* A printable run as a string: the padding trimmed (the run is already cut to
 * ROMID_STRING_MAX); false when what is left is noise. */
static bool run_text(const char *run, size_t len, char s[ROMID_STRING_MAX + 1])
{
    while (len && run[0] == ' ')        /* banners are often padded */
        run++, len--;
    while (len && run[len - 1] == ' ')
        len--;
    if (len < ROMID_STRING_MIN)
        return false;
    memcpy(s, run, len);
    s[len] = '\0';
    return true;
}

static void keep(struct rom_id *id, const char *s)
{
    if (is_template(s))
        return;
    for (unsigned i = 0; i < id->count; i++)
        if (!strcmp(id->strings[i], s))
            return;
    memcpy(id->strings[id->count++], s, strlen(s) + 1);
}

/* A run has ended: a strong-marked one is kept now, in the ROM's order; one that only
 * says BIOS waits for the end, when there may be room. */
static void run_ended(struct romid_scan *r)
{
    struct rom_id *id = r->id;
    char s[ROMID_STRING_MAX + 1];
    size_t cut = r->run_len > ROMID_STRING_MAX ? ROMID_STRING_MAX : r->run_len;

    if (r->run_len >= ROMID_STRING_MIN && id->count < ROMID_STRINGS_MAX &&
        run_text(r->run, cut, s)) {
        if (has_mark(s, strong_marks, sizeof(strong_marks) / sizeof(*strong_marks)))
            keep(id, s);
        else if (r->weak_count < ROMID_WEAK_MAX &&
                 has_mark(s, weak_marks, sizeof(weak_marks) / sizeof(*weak_marks)))
            memcpy(r->weak[r->weak_count++], s, strlen(s) + 1);
    }
    r->run_len = 0;
}

void romid_start(struct romid_scan *r, struct rom_id *id)
{
    memset(r, 0, sizeof(*r));
    memset(id, 0, sizeof(*id));
    r->id = id;
}

/* Two tight loops, the gaps and the runs, with the run's length in a local: a char
 * store may alias anything, and a 386 would reload a field for every byte. */
void romid_feed(struct romid_scan *r, const uint8_t *bytes, size_t len)
{
    const uint8_t *p = bytes, *end = bytes + len;

    r->id->crc32 = crc32(r->id->crc32, bytes, len);
    while (p < end) {
        size_t n = r->run_len;
        while (p < end && printable(*p)) {
            if (n < ROMID_STRING_MAX)
                r->run[n] = (char)*p;
            n++;
            p++;
        }
        r->run_len = n;
        if (p == end)
            break;
        if (n)
            run_ended(r);
        while (p < end && !printable(*p))
            p++;
    }
}

void romid_finish(struct romid_scan *r)
{
    run_ended(r);
    for (unsigned w = 0; w < r->weak_count && r->id->count < ROMID_STRINGS_MAX; w++)
        keep(r->id, r->weak[w]);
}

void romid_scan(const uint8_t *rom, size_t len, struct rom_id *id)
{
    struct romid_scan r;

    romid_start(&r, id);
    romid_feed(&r, rom, len);
    romid_finish(&r);
}
