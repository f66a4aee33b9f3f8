/* The dump's entry points: see entries.h. */
#include "entries.h"
#include "../../apm/apm_spec.h"
#include "../../apm/ports.h"
#include "../../survey/bios32.h"
#include "../../system/console.h"

#define BIOS32_SERVICE_PCI      0x49435024u     /* "$PCI", the PCI BIOS's service id */
#define BIOS32_FOUND            0x00            /* AL: the service is there */
#define BIOS32_UNKNOWN          0x80            /* AL: no such service */

static void apm_entries(struct apm_state *apm)
{
    static const struct {
        enum apm_iface iface;
        const struct apm_port *port;
        uint16_t flag;
    } pm[] = {
        { APM_IFACE_PM32, &apm_port_pm32, APM_FLAG_PM32 },
        { APM_IFACE_PM16, &apm_port_pm16, APM_FLAG_PM16 },
    };
    char why[APM_WHY_MAX];

    if (!apm_install_check(apm)) {
        say("dump: entry: APM: none (INT 15h AX=5300h)");
        return;
    }
    say("dump: entry: APM %X.%X, flags %04Xh: INT 15h AX=53xxh in real mode",
        apm->version >> 8, apm->version & 0xFF, apm->flags);
    for (unsigned i = 0; i < sizeof(pm) / sizeof(pm[0]); i++) {
        const char *name = apm_iface_name(pm[i].iface);
        if (!(apm->flags & pm[i].flag)) {
            say("dump: entry: APM %s: not offered (flags %04Xh)", name, apm->flags);
            continue;
        }
        why[0] = 0;
        apm_connect(apm, pm[i].iface, pm[i].port, why, sizeof(why));
        const struct apm_iface_result *rec = &apm->ifaces[pm[i].iface];
        const struct apm_pm_info *p = &rec->pm;
        if (!rec->have_pm)
            say("dump: entry: APM %s: the connect gave none: %s", name, why);
        else if (pm[i].iface == APM_IFACE_PM32)
            say("dump: entry: APM pm32: entry %04Xh:%04Xh (%05Xh); code32 %04Xh, %u bytes; "
                "code16 %04Xh, %u bytes; data %04Xh, %u bytes (5303h: lengths as the BIOS "
                "gave them)", p->code32_seg, (unsigned)p->entry,
                (unsigned)(p->code32_seg * 16u + p->entry), p->code32_seg,
                (unsigned)p->raw_code32_len, p->code16_seg, (unsigned)p->raw_code16_len,
                p->data_seg, (unsigned)p->raw_data_len);
        else
            say("dump: entry: APM pm16: entry %04Xh:%04Xh (%05Xh); code16 %04Xh, %u bytes; "
                "data %04Xh, %u bytes (5302h: lengths as the BIOS gave them)",
                p->code16_seg, (unsigned)p->entry, (unsigned)(p->code16_seg * 16u + p->entry),
                p->code16_seg, (unsigned)p->raw_code16_len, p->data_seg,
                (unsigned)p->raw_data_len);
        if (apm->connected)
            apm_disconnect(apm);
    }
}

static void pci_entry(const struct survey *sv)
{
    const struct physmem pm = { 0, PHYSMEM_4G };
    struct bios32 dir;
    struct biosregs r;
    const char *why = "";

    if (!sv->pci.bios_present) {
        say("dump: entry: PCI BIOS: none (INT 1Ah AX=B101h)");
        return;
    }
    if (!bios32_find(&pm, &dir)) {
        say("dump: entry: PCI BIOS %x.%02x: INT 1Ah AX=B1xxh; no BIOS32 directory, so no "
            "32-bit service", sv->pci.bios_major, sv->pci.bios_minor);
        return;
    }
    initregs(&r);
    r.eax = BIOS32_SERVICE_PCI;
    r.ebx = 0;
    if (!pm32_flat_call(dir.entry, &r, &why)) {
        say("dump: entry: PCI BIOS: the BIOS32 directory at %08Xh faulted: %s",
            (unsigned)dir.entry, why);
        return;
    }
    if (r.al != BIOS32_FOUND) {
        say("dump: entry: PCI BIOS %x.%02x: INT 1Ah AX=B1xxh; the BIOS32 directory knows "
            "no $PCI (AL=%02Xh%s)", sv->pci.bios_major, sv->pci.bios_minor, r.al,
            r.al == BIOS32_UNKNOWN ? ": not there" : "");
        return;
    }
    say("dump: entry: PCI BIOS %x.%02x: INT 1Ah AX=B1xxh; 32-bit service $PCI: entry "
        "%08Xh, in %08Xh, %u bytes (BIOS32 directory at %08Xh)", sv->pci.bios_major,
        sv->pci.bios_minor, (unsigned)(r.ebx + r.edx), (unsigned)r.ebx, (unsigned)r.ecx,
        (unsigned)dir.entry);
}

void dump_entries(const struct survey *sv, struct apm_state *apm)
{
    if (!sv->bios_calls) {
        say("dump: entry: none asked: BIOS calls are off");
        return;
    }
    apm_entries(apm);
    pci_entry(sv);
}
