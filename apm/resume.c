/* The APM resume timer: see resume.h. Registers of 5311h as APM 1.2 (and RBIL's
 * table 00477) give them: CH seconds, DL minutes, DH hours, SI month and day, DI the
 * year, each BCD. */
#include "resume.h"
#include "apm_spec.h"
#include "apm_text.h"
#include "../system/console.h"
#include "../lib/format.h"

int apm_get_capabilities(struct apm_state *s)
{
    struct biosregs r;
    char text[200];

    if (s->conn_version < APM_V1_2)
        return APM_ERR_UNSUPPORTED;
    initregs(&r);
    r.bx = APM_DEVICE_BIOS;
    int res = apm_call(s, s->port, APM_FN_GET_CAPABILITIES, &r, "BX=0000h");
    if (res)
        return res;
    s->have_caps = true;
    s->capabilities = r.cx;
    s->battery_units = r.bl;
    apm_capabilities_text(s->capabilities, text, sizeof(text));
    say("capabilities %04Xh: %s; %u battery unit(s)", s->capabilities, text,
        s->battery_units);
    return 0;
}

bool apm_timer_wakes(const struct apm_state *s, uint16_t state)
{
    uint16_t bit = state == APM_STATE_STANDBY ? APM_CAP_TIMER_STANDBY : APM_CAP_TIMER_SUSPEND;
    return s->have_caps && (s->capabilities & bit);
}

int apm_resume_timer_set(struct apm_state *s, const struct rtc_time *at)
{
    struct biosregs r;
    char args[80];
    uint8_t century = (uint8_t)(at->year / 100), year = (uint8_t)(at->year % 100);

    initregs(&r);
    r.bx = APM_DEVICE_BIOS;
    r.cl = APM_RESUME_TIMER_SET;
    r.ch = bin_to_bcd(at->second);
    r.dl = bin_to_bcd(at->minute);
    r.dh = bin_to_bcd(at->hour);
    r.si = (uint16_t)(bin_to_bcd(at->month) << 8 | bin_to_bcd(at->day));
    r.di = (uint16_t)(bin_to_bcd(century) << 8 | bin_to_bcd(year));
    fmt_snprintf(args, sizeof(args), "BX=0000h CX=%04Xh DX=%04Xh SI=%04Xh DI=%04Xh", r.cx,
                 r.dx, r.si, r.di);
    return apm_call(s, s->port, APM_FN_RESUME_TIMER, &r, args);
}

int apm_resume_timer_get(struct apm_state *s, struct rtc_time *at)
{
    struct biosregs r;

    initregs(&r);
    r.bx = APM_DEVICE_BIOS;
    r.cl = APM_RESUME_TIMER_GET;
    int res = apm_call(s, s->port, APM_FN_RESUME_TIMER, &r, "BX=0000h CL=01h");
    if (res)
        return res;
    *at = (struct rtc_time){
        .year = (uint16_t)(bcd_to_bin(r.di >> 8) * 100 + bcd_to_bin(r.di & 0xFF)),
        .month = bcd_to_bin(r.si >> 8), .day = bcd_to_bin(r.si & 0xFF),
        .hour = bcd_to_bin(r.dh), .minute = bcd_to_bin(r.dl), .second = bcd_to_bin(r.ch),
    };
    return 0;
}

int apm_resume_timer_disable(struct apm_state *s)
{
    struct biosregs r;

    initregs(&r);
    r.bx = APM_DEVICE_BIOS;
    r.cl = APM_RESUME_TIMER_DISABLE;
    return apm_call(s, s->port, APM_FN_RESUME_TIMER, &r, "BX=0000h CL=00h");
}
