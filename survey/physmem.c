/* Firmware bytes: see physmem.h. */
#include "physmem.h"

uint8_t fw_sum(const uint8_t *p, size_t n)
{
    uint8_t sum = 0;
    while (n--)
        sum = (uint8_t)(sum + *p++);
    return sum;
}

size_t fw_copy_bytes(char *dst, size_t size, const uint8_t *src, size_t max)
{
    size_t n = 0;

    if (!size)
        return 0;
    for (size_t i = 0; i < max && src[i] && n + 1 < size; i++)
        dst[n++] = (char)src[i];
    while (n && dst[n - 1] == ' ')
        n--;
    dst[n] = '\0';
    return n;
}

size_t fw_copy_text(char *dst, size_t size, const uint8_t *src, size_t max)
{
    size_t n = fw_copy_bytes(dst, size, src, max);
    for (size_t i = 0; i < n; i++)
        if ((uint8_t)dst[i] < 0x20 || (uint8_t)dst[i] > 0x7E)
            dst[i] = '?';
    return n;
}
