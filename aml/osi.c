/* _OSI, _REV and the other names ACPICA predefines (utosi.c, utglobal.c).
 *
 * \_OSI answers as Linux does: yes to every Windows version ACPICA knows (firmware
 * keys its behaviour on the newest one it hears) and to the four feature strings
 * Linux enables, no to "Linux" and anything else. When aml-run reproduces acpiexec's
 * traces it answers as acpiexec 20200925 does once its start-up tests have run: no
 * Windows after "Windows 2019", no feature string, and no "Windows 2006" (a test
 * removes it), but yes to the test's "AnotherTestString". The newest Windows answered also decides which legacy
 * ports AML may still touch (region.c), as in ACPICA. */
#include "amlint.h"
#include "../lib/string.h"
#include "../lib/le.h"

struct osi_entry {
    const char *name;
    uint8_t level;              /* ACPICA's ACPI_OSI_WIN_*; 0 for a feature */
    uint8_t who;                /* OSI_BOTH, or who alone answers yes: */
};

#define OSI_BOTH        0
#define OSI_LINUX       1       /* newer than acpiexec 20200925, or a feature Linux
                                   enables */
#define OSI_ACPIEXEC    2       /* acpiexec's own test string */
#define OSI_NOT_ACPIEXEC 3      /* removed by acpiexec's tests before any command */

static const struct osi_entry osi_table[] = {
    { "Windows 2000", 1, OSI_BOTH },
    { "Windows 2001", 2, OSI_BOTH },
    { "Windows 2001 SP1", 3, OSI_BOTH },
    { "Windows 2001.1", 4, OSI_BOTH },
    { "Windows 2001 SP2", 5, OSI_BOTH },
    { "Windows 2001.1 SP1", 6, OSI_BOTH },
    { "Windows 2006", 7, OSI_NOT_ACPIEXEC },
    { "Windows 2006.1", 8, OSI_BOTH },
    { "Windows 2006 SP1", 9, OSI_BOTH },
    { "Windows 2006 SP2", 10, OSI_BOTH },
    { "Windows 2009", 11, OSI_BOTH },
    { "Windows 2012", 12, OSI_BOTH },
    { "Windows 2013", 13, OSI_BOTH },
    { "Windows 2015", 14, OSI_BOTH },
    { "Windows 2016", 15, OSI_BOTH },
    { "Windows 2017", 16, OSI_BOTH },
    { "Windows 2017.2", 17, OSI_BOTH },
    { "Windows 2018", 18, OSI_BOTH },
    { "Windows 2018.2", 19, OSI_BOTH },
    { "Windows 2019", 20, OSI_BOTH },
    { "Windows 2020", 21, OSI_LINUX },
    { "Windows 2021", 22, OSI_LINUX },
    { "Windows 2022", 23, OSI_LINUX },
    { "Extended Address Space Descriptor", 0, OSI_BOTH },
    { "Module Device", 0, OSI_LINUX },
    { "Processor Device", 0, OSI_LINUX },
    { "3.0 _SCP Extensions", 0, OSI_LINUX },
    { "Processor Aggregator Device", 0, OSI_LINUX },
    { "AnotherTestString", 0, OSI_ACPIEXEC },
};

bool aml_osi_query(struct aml *a, const char *interface)
{
    bool acpiexec = a->cfg.osi == AML_OSI_ACPIEXEC;

    for (unsigned i = 0; i < sizeof(osi_table) / sizeof(osi_table[0]); i++) {
        const struct osi_entry *e = &osi_table[i];
        if (strcmp(interface, e->name))
            continue;
        if (e->who == (acpiexec ? OSI_LINUX : OSI_ACPIEXEC) ||
            (acpiexec && e->who == OSI_NOT_ACPIEXEC))
            return false;
        /* The newest Windows the firmware has heard of decides the ports rule. */
        if (e->level > a->osi_level)
            a->osi_level = e->level;
        return true;
    }
    return false;
}

static int osi_method(struct aml *a, struct aml_object **args, struct aml_object **result)
{
    struct aml_object *s = args[0];

    if (!s || s->type != AML_TYPE_STRING)
        return fail(a, AML_E_OPERAND_TYPE, "_OSI wants a String");
    uint64_t answer = aml_osi_query(a, (const char *)s->u.buf.data) ? ~(uint64_t)0 : 0;
    *result = obj_integer(a, answer);
    if (!*result)
        return fail(a, AML_E_NO_MEMORY, NULL);
    truncate_integer(a, *result);
    return AML_OK;
}

static int predefine(struct aml *a, const char *name, struct aml_object *o, unsigned type)
{
    uint32_t seg = le32((const uint8_t *)name);
    struct aml_node *n = ns_add(a, a->root, seg, type);

    if (!n || (type != AML_TYPE_DEVICE && type != OT_SCOPE && !o)) {
        obj_put(a, o);
        return AML_E_NO_MEMORY;
    }
    if (o) {
        ns_attach(a, n, o);
        obj_put(a, o);
    }
    return AML_OK;
}

int osi_install(struct aml *a)
{
    struct aml_object *osi = obj_new(a, AML_TYPE_METHOD);
    struct aml_object *gl = obj_new(a, AML_TYPE_MUTEX);
    int st = AML_OK;

    if (osi) {
        osi->sub = 1;               /* one argument */
        osi->u.method.native = osi_method;
    }
    if (gl)
        gl->u.mutex.global = true;
    st |= predefine(a, "_GPE", NULL, OT_SCOPE);
    st |= predefine(a, "_PR_", NULL, OT_SCOPE);
    st |= predefine(a, "_SB_", NULL, AML_TYPE_DEVICE);
    st |= predefine(a, "_SI_", NULL, OT_SCOPE);
    st |= predefine(a, "_TZ_", NULL, AML_TYPE_DEVICE);
    st |= predefine(a, "_REV", obj_integer(a, 2), AML_TYPE_INTEGER);
    st |= predefine(a, "_OS_", obj_string(a, "Microsoft Windows NT", 20), AML_TYPE_STRING);
    st |= predefine(a, "_GL_", gl, AML_TYPE_MUTEX);
    st |= predefine(a, "_OSI", osi, AML_TYPE_METHOD);
    return st ? AML_E_NO_MEMORY : AML_OK;
}
