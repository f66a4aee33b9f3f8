/* A JSON writer into a fixed buffer, for the one machine-readable survey line.
 *
 * Commas and nesting are tracked here so callers only say what comes next. Strings
 * are escaped and cut to printable ASCII; on overflow the writer stops writing and
 * json_ok() turns false, so a truncated line is never printed as if it were whole. */
#ifndef APMOFF_JSON_H
#define APMOFF_JSON_H

#include <stdbool.h>
#include <stdint.h>

#define JSON_DEPTH_MAX 8

struct json {
    char *buf;
    unsigned size, len;
    bool overflow;
    int depth;
    bool first[JSON_DEPTH_MAX];     /* no value yet at this depth: no comma needed */
    char closer[JSON_DEPTH_MAX];    /* '}' or ']' for each open level */
};

void json_init(struct json *j, char *buf, unsigned size);
void json_object(struct json *j, const char *key);      /* key NULL inside arrays/top */
void json_array(struct json *j, const char *key);
void json_end(struct json *j);                          /* closes the innermost one */
void json_string(struct json *j, const char *key, const char *value);
void json_uint(struct json *j, const char *key, uint32_t value);
void json_bool(struct json *j, const char *key, bool value);
void json_null(struct json *j, const char *key);
/* "0x0102": digits 2, 4 or 8. */
void json_hex(struct json *j, const char *key, uint32_t value, int digits);
bool json_ok(const struct json *j);

#endif
