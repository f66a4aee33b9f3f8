/* s5-bytes: the survey's \_S5_ byte reader (survey/aml_s5.c) on table files, in the
 * order the survey reads them (the DSDT, then each SSDT), for tests/aml/step.py to
 * hold against the interpreter's \_S5_ on the ACPI corpus.
 *
 *   build/tests/s5-bytes DSDT [SSDT...]
 *
 * Prints "found SLP_TYPa SLP_TYPb" (decimal) or the reader's verdict: absent,
 * unreadable, not-understood, method. Exit status 0, or 2 when a file cannot be read. */
#include <stdio.h>
#include <stdlib.h>

#include "../../survey/aml_s5.h"

#define HEADER_LEN  36              /* the ACPI table header before the AML */

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    size_t size = 0, cap = 0, n;
    do {
        if (size == cap) {
            cap = cap ? cap * 2 : 65536;
            unsigned char *bigger = realloc(buf, cap);
            if (!bigger) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = bigger;
        }
        n = fread(buf + size, 1, cap - size, f);
        size += n;
    } while (n);
    fclose(f);
    *len = size;
    return buf;
}

int main(int argc, char **argv)
{
    int not_understood = 0;

    for (int i = 1; i < argc; i++) {
        size_t len;
        unsigned char *t = slurp(argv[i], &len);
        if (!t || len < HEADER_LEN) {
            fprintf(stderr, "s5-bytes: %s: not a table\n", argv[i]);
            free(t);
            return 2;
        }
        struct aml_s5 s5;
        enum aml_s5_result r = aml_find_s5(t + HEADER_LEN, len - HEADER_LEN, &s5);
        free(t);
        if (r == AML_S5_FOUND) {
            printf("found %u %u\n", s5.slp_typa, s5.slp_typb);
            return 0;
        }
        if (r == AML_S5_UNREADABLE || r == AML_S5_METHOD) {
            puts(r == AML_S5_METHOD ? "method" : "unreadable");
            return 0;
        }
        not_understood |= r == AML_S5_NOT_UNDERSTOOD;
    }
    puts(not_understood ? "not-understood" : "absent");
    return 0;
}
