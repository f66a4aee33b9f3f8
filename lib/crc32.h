/* CRC-32 (ISO-HDLC: the zlib, gzip, PNG and Ethernet one), for the QR pages' check,
 * the BIOS ROM's identity and the floppy loader's check of the gzip'd kernel.
 * Compiled for the kernel, the loader and the host. */
#ifndef APMOFF_LIB_CRC32_H
#define APMOFF_LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* crc32(0, data, len) for a whole buffer; pass the previous result to continue. */
uint32_t crc32(uint32_t crc, const uint8_t *data, size_t len);

#endif
