/* CRC-32 (ISO-HDLC: the zlib, PNG and Ethernet one), for the QR pages' check and the
 * BIOS ROM's identity. Compiled for the kernel and the host. */
#ifndef APMOFF_LIB_CRC32_H
#define APMOFF_LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* crc32(0, data, len) for a whole buffer; pass the previous result to continue. */
uint32_t crc32(uint32_t crc, const uint8_t *data, size_t len);

#endif
