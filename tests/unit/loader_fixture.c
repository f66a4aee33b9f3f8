/* Reading the loader's test fixtures: see loader_fixture.h. LOADER_FIXTURES, the
 * folder, comes from tests/unit/unit.mk. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "loader_fixture.h"

const char *fixture_path(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", LOADER_FIXTURES, name);
    return path;
}

uint8_t *fixture_read(const char *name, size_t *size)
{
    const char *path = fixture_path(name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (make unit-bin makes it)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(n > 0 ? (size_t)n : 1);
    assert_non_null(data);
    if (n > 0 && fread(data, 1, (size_t)n, f) != (size_t)n)
        fail_msg("cannot read %s", path);
    fclose(f);
    *size = (size_t)n;
    return data;
}
