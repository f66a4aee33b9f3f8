/* method=chipset: see chipset.h. */
#include "chipset.h"
#include "../../system/console.h"
#include "../../system/io.h"
#include "../../system/pci_conf.h"
#include "../../system/timer.h"
#include "../../lib/format.h"

#define SLP_TYP_MASK (7u << SOFTOFF_TYPE_SHIFT)

/* The block's decode: on already, or switched on as the table says. False when the
 * configuration space cannot be reached. */
static bool decode_on(const struct chipset_off *c)
{
    const struct softoff_chip *chip = c->plan.chip;
    const struct softoff_plan *p = &c->plan;
    uint32_t v;

    if (!pci_conf_read(c->mech, p->bus, p->dev, p->fn, chip->enable_reg, 1, &v))
        return false;
    if (v & 1u << chip->enable_bit)
        return true;
    uint32_t on = v | 1u << chip->enable_bit;
    say("chipset: %s's PM I/O decode is off (%02X:%02X.%u register %02Xh = %02Xh): "
        "writing %02Xh", chip->name, p->bus, p->dev, p->fn, chip->enable_reg,
        (unsigned)v, (unsigned)on);
    return pci_conf_write(c->mech, p->bus, p->dev, p->fn, chip->enable_reg, 1, on);
}

enum way_result chipset_power_off(const struct chipset_off *c, char *why, unsigned size)
{
    const struct softoff_chip *chip = c->plan.chip;
    const struct softoff_plan *p = &c->plan;
    uint32_t reg;

    if (!pci_conf_read(c->mech, p->bus, p->dev, p->fn, chip->base_reg & 0xFC, 4, &reg)) {
        fmt_snprintf(why, size, "%s's configuration space cannot be read", chip->name);
        say("chipset: %s", why);
        return WAY_ABSENT;
    }
    uint16_t base = softoff_base(chip, reg);
    if (!base) {
        fmt_snprintf(why, size, "the BIOS left %s's PM I/O base unset (register %02Xh): "
                     "apmoff assigns no I/O addresses", chip->name, chip->base_reg);
        say("chipset: %s", why);
        return WAY_ABSENT;
    }
    if (!decode_on(c)) {
        fmt_snprintf(why, size, "%s's PM I/O decode could not be switched on", chip->name);
        say("chipset: %s", why);
        return WAY_ABSENT;
    }
    uint16_t ctl = (uint16_t)(base + SOFTOFF_PM1_CNT);
    say("chipset: %s at %02X:%02X.%u, PM I/O base %04Xh (%s)", chip->name, p->bus, p->dev,
        p->fn, base, chip->source);
    if (c->announce)
        c->announce(c->ctx, "chipset");
    say("note: no disk was flushed or spun down first; apmoff writes to no disk");
    for (unsigned i = 0; i < chip->type_count; i++) {
        uint8_t type = chip->types[i];
        uint16_t keep = inw(ctl) & (uint16_t)~(SLP_TYP_MASK | SOFTOFF_SLP_EN);
        uint16_t typed = keep | softoff_value(type, false);
        uint16_t sleep = keep | softoff_value(type, true);
        say("powering off via chipset (%s: PM1 control %04Xh <- %04Xh, then %04Xh: sleep "
            "type %u)", chip->name, ctl, typed, sleep, type);
        outw(ctl, typed);
        outw(ctl, sleep);
        pit_delay_us(CHIPSET_OFF_GRACE_MS * 1000u);
        say("chipset: still on %u s after sleep type %u", CHIPSET_OFF_GRACE_MS / 1000, type);
    }
    char types[24];
    unsigned n = 0;
    for (unsigned i = 0; i < chip->type_count; i++)
        n += (unsigned)fmt_snprintf(types + n, sizeof(types) - n, "%s%u", i ? ", then " : "",
                                    chip->types[i]);
    fmt_snprintf(why, size, "%s's soft-off was written (PM1 control %04Xh, sleep type %s) "
                 "and the machine is still on", chip->name, ctl, types);
    say("power-off via chipset failed: %s", why);
    return WAY_STILL_ON;
}
