/* The JSON writer: see json.h. */
#include "json.h"
#include "format.h"

void json_init(struct json *j, char *buf, unsigned size)
{
    j->buf = buf;
    j->size = size;
    j->len = 0;
    j->overflow = false;
    j->depth = 0;
    j->first[0] = true;
    if (size)
        buf[0] = '\0';
}

static void put(struct json *j, const char *s)
{
    while (*s) {
        if (j->len + 1 >= j->size) {
            j->overflow = true;
            return;
        }
        j->buf[j->len++] = *s++;
    }
    j->buf[j->len] = '\0';
}

static void put_char(struct json *j, char c)
{
    char s[2] = { c, '\0' };
    put(j, s);
}

static void put_quoted(struct json *j, const char *s)
{
    char esc[8];
    put_char(j, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            put_char(j, '\\');
            put_char(j, (char)c);
        } else if (c < 0x20 || c > 0x7E) {
            fmt_snprintf(esc, sizeof(esc), "\\u%04x", c);
            put(j, esc);
        } else {
            put_char(j, (char)c);
        }
    }
    put_char(j, '"');
}

/* The comma and "key": that precede every value. */
static void begin_value(struct json *j, const char *key)
{
    if (!j->first[j->depth])
        put_char(j, ',');
    j->first[j->depth] = false;
    if (key) {
        put_quoted(j, key);
        put_char(j, ':');
    }
}

static void open(struct json *j, const char *key, char bracket)
{
    begin_value(j, key);
    put_char(j, bracket);
    if (j->depth + 1 >= JSON_DEPTH_MAX) {
        j->overflow = true;
        return;
    }
    j->depth++;
    j->first[j->depth] = true;
    j->closer[j->depth] = bracket == '{' ? '}' : ']';
}

void json_object(struct json *j, const char *key)
{
    open(j, key, '{');
}

void json_array(struct json *j, const char *key)
{
    open(j, key, '[');
}

void json_end(struct json *j)
{
    if (j->depth == 0) {
        j->overflow = true;     /* more ends than opens: a caller bug, never print it */
        return;
    }
    put_char(j, j->closer[j->depth]);
    j->depth--;
}

void json_string(struct json *j, const char *key, const char *value)
{
    begin_value(j, key);
    put_quoted(j, value ? value : "");
}

void json_uint(struct json *j, const char *key, uint32_t value)
{
    char num[12];
    begin_value(j, key);
    fmt_snprintf(num, sizeof(num), "%u", (unsigned)value);
    put(j, num);
}

void json_bool(struct json *j, const char *key, bool value)
{
    begin_value(j, key);
    put(j, value ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
    begin_value(j, key);
    put(j, "null");
}

void json_hex(struct json *j, const char *key, uint32_t value, int digits)
{
    static const char *const formats[] = { "\"0x%02X\"", "\"0x%04X\"", "\"0x%08X\"" };
    char num[16];
    begin_value(j, key);
    fmt_snprintf(num, sizeof(num), formats[digits <= 2 ? 0 : digits <= 4 ? 1 : 2],
                 (unsigned)value);
    put(j, num);
}

bool json_ok(const struct json *j)
{
    return !j->overflow && j->depth == 0;
}
