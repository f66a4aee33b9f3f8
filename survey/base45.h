/* Base45 (RFC 9285): bytes as text of the QR alphanumeric set, two bytes in three
 * characters, so a compressed payload rides in alphanumeric mode, which every
 * phone's scanner reads as plain text. Compiled for the kernel and the host. */
#ifndef APMOFF_SURVEY_BASE45_H
#define APMOFF_SURVEY_BASE45_H

#include <stddef.h>
#include <stdint.h>

/* The characters for len bytes: 3 a pair, 2 for a last odd byte. */
#define BASE45_LEN(len)     ((len) / 2 * 3 + (len) % 2 * 2)

/* Writes BASE45_LEN(len) characters and a NUL; returns the characters, or 0 when
 * out (size bytes) is too small. */
size_t base45_encode(const uint8_t *in, size_t len, char *out, size_t size);

#endif
