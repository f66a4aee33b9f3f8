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

static bool has_mark(const char *s, const char *const *marks, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        size_t n = strlen(marks[i]);
        for (const char *p = s; *p; p++)
            if (!strncmp(p, marks[i], n))
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

static void keep(struct rom_id *id, const uint8_t *run, size_t n, bool strong)
{
    char s[ROMID_STRING_MAX + 1];
    size_t len = n > ROMID_STRING_MAX ? ROMID_STRING_MAX : n;

    while (len && run[0] == ' ')        /* banners are often padded */
        run++, len--;
    while (len && run[len - 1] == ' ')
        len--;
    if (len < ROMID_STRING_MIN)
        return;
    memcpy(s, run, len);
    s[len] = '\0';
    if (strong ? !has_mark(s, strong_marks, sizeof(strong_marks) / sizeof(*strong_marks))
               : !has_mark(s, weak_marks, sizeof(weak_marks) / sizeof(*weak_marks)))
        return;
    if (is_template(s))
        return;
    for (unsigned i = 0; i < id->count; i++)
        if (!strcmp(id->strings[i], s))
            return;
    memcpy(id->strings[id->count++], s, len + 1);
}

void romid_scan(const uint8_t *rom, size_t len, struct rom_id *id)
{
    memset(id, 0, sizeof(*id));
    id->crc32 = crc32(0, rom, len);
    for (int pass = 0; pass < 2; pass++) {
        size_t start = 0;
        for (size_t i = 0; i <= len && id->count < ROMID_STRINGS_MAX; i++) {
            if (i < len && printable(rom[i]))
                continue;
            if (i - start >= ROMID_STRING_MIN)
                keep(id, rom + start, i - start, pass == 0);
            start = i + 1;
        }
    }
}
