/* The APM conformance checks: see check.h. Each check names the function and the
 * APM version that defines the behaviour it expects; a check whose version the BIOS
 * does not claim is skipped. */
#include "check.h"
#include "apm_spec.h"
#include "apm_text.h"
#include "../system/console.h"
#include "../lib/format.h"

#include <stdarg.h>

#define ONE_MIB                 0x100000u
#define RESERVED_FLAGS          (~APM_FLAGS_DEFINED & 0xFFFFu)
#define UNDEFINED_DEVICE        0x7F00  /* no device class 7Fh exists */
#define RESERVED_STATE          0x0010  /* 0006h-001Fh are reserved power states */
#define LAST_STATE              0x0005  /* "last request rejected" (1.1) */
#define FIRST_OEM_EVENT         0x0200

struct ctx {
    struct apm_state *s;
    const struct apm_ports *ports;
    bool strict;
    struct check_report *rep;
};

const char *check_verdict_name(enum check_verdict v)
{
    return v == CHECK_PASS ? "PASS" : v == CHECK_FAIL ? "FAIL" : "SKIP";
}

static void __attribute__((format(printf, 6, 7)))
verdict(struct ctx *c, enum check_verdict v, const char *name, uint8_t fn,
        uint16_t version, const char *fmt, ...)
{
    char detail[160];
    va_list ap;

    va_start(ap, fmt);
    fmt_vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    say("check %s %s (%04Xh, APM %X.%X): %s", check_verdict_name(v), name,
        APM_AH << 8 | fn, version >> 8, version & 0xFF, detail);
    if (v == CHECK_PASS)
        c->rep->passed++;
    else if (v == CHECK_FAIL)
        c->rep->failed++;
    else
        c->rep->skipped++;
    if (c->rep->count < CHECK_MAX)
        c->rep->results[c->rep->count++] = (struct check_result){ name, v };
}

/* Skips (and says so) when the BIOS is older than the version a check needs. */
static bool needs(struct ctx *c, const char *name, uint8_t fn, uint16_t version)
{
    if (c->s->version >= version)
        return true;
    verdict(c, CHECK_SKIP, name, fn, version, "the BIOS claims only APM %X.%X",
            c->s->version >> 8, c->s->version & 0xFF);
    return false;
}

/* One call through port; returns apm_call()'s result and leaves r for inspection. */
static int call(struct ctx *c, const struct apm_port *port, uint8_t fn, uint16_t bx,
                uint16_t cx, struct biosregs *r)
{
    char args[32];
    initregs(r);
    r->bx = bx;
    r->cx = cx;
    fmt_snprintf(args, sizeof(args), "BX=%04Xh CX=%04Xh", bx, cx);
    return apm_call(c->s, port, fn, r, args);
}

/* A call that must fail with one specific error code. */
static void expect_error(struct ctx *c, const char *name, const struct apm_port *port,
                         uint8_t fn, uint16_t bx, uint16_t cx, uint16_t version,
                         uint8_t want)
{
    struct biosregs r;
    char text[96], wanted[64];
    int res = call(c, port, fn, bx, cx, &r);
    if (res == want) {
        verdict(c, CHECK_PASS, name, fn, version, "error %02Xh as specified", want);
        return;
    }
    verdict(c, CHECK_FAIL, name, fn, version, "expected error %02Xh (%s), got %s", want,
            apm_error_text(want, wanted, sizeof(wanted)),
            apm_result_text(res, text, sizeof(text)));
}

/* A call that must succeed. */
static bool judge_ok(struct ctx *c, const char *name, uint8_t fn, uint16_t version, int res)
{
    char text[96];
    if (res == 0) {
        verdict(c, CHECK_PASS, name, fn, version, "succeeded");
        return true;
    }
    verdict(c, CHECK_FAIL, name, fn, version, "expected success, got %s",
            apm_result_text(res, text, sizeof(text)));
    return false;
}

static bool expect_ok(struct ctx *c, const char *name, const struct apm_port *port,
                      uint8_t fn, uint16_t bx, uint16_t cx, uint16_t version,
                      struct biosregs *r)
{
    return judge_ok(c, name, fn, version, call(c, port, fn, bx, cx, r));
}

static void check_install(struct ctx *c)
{
    struct apm_state *s = c->s;
    verdict(c, s->signature_ok ? CHECK_PASS : CHECK_FAIL, "install-check.signature",
            APM_FN_INSTALL_CHECK, APM_V1_0, "BH:BL %s", s->signature_ok ? "is 'PM'" : "is not 'PM'");
    verdict(c, apm_version_is_bcd(s->raw_version) && s->raw_version >= APM_V1_0 ? CHECK_PASS : CHECK_FAIL,
            "install-check.version", APM_FN_INSTALL_CHECK, APM_V1_0,
            "AX=%04Xh", s->raw_version);
    verdict(c, s->flags & RESERVED_FLAGS ? CHECK_FAIL : CHECK_PASS,
            "install-check.reserved-flags", APM_FN_INSTALL_CHECK, APM_V1_0,
            "CX=%04Xh, reserved bits %04Xh", s->flags, s->flags & RESERVED_FLAGS);
}

static void check_unconnected(struct ctx *c)
{
    struct biosregs r;
    call(c, c->s->int15, APM_FN_DISCONNECT, APM_DEVICE_BIOS, 0, &r);  /* start clean */
    expect_error(c, "disconnect.not-connected", c->s->int15, APM_FN_DISCONNECT,
                 APM_DEVICE_BIOS, 0, APM_V1_0, APM_ERR_NOT_CONNECTED);
    /* Not 530Ah, whose errors are only 09h and 0Ah (eight Award BIOSes answer it
     * unconnected): 530Bh lists 03h. */
    expect_error(c, "call.before-connect", c->s->int15, APM_FN_GET_PM_EVENT, 0, 0,
                 APM_V1_0, APM_ERR_NOT_CONNECTED);
}

static void check_power_status(struct ctx *c, const struct apm_port *port)
{
    struct biosregs r;
    if (!expect_ok(c, "power-status", port, APM_FN_GET_POWER_STATUS, APM_DEVICE_ALL, 0,
                   APM_V1_0, &r))
        return;
    bool ac = r.bh <= APM_AC_BACKUP || r.bh == APM_UNKNOWN8;
    bool status = r.bl <= 0x03 || r.bl == APM_UNKNOWN8;
    bool flag = r.ch == APM_UNKNOWN8 || !(r.ch & 0x70);
    bool life = r.cl <= 100 || r.cl == APM_UNKNOWN8;
    verdict(c, ac && status && flag && life ? CHECK_PASS : CHECK_FAIL,
            "power-status.ranges", APM_FN_GET_POWER_STATUS, APM_V1_0,
            "AC %02Xh%s, status %02Xh%s, flag %02Xh%s, life %02Xh%s", r.bh,
            ac ? "" : " (invalid)", r.bl, status ? "" : " (invalid)", r.ch,
            flag ? "" : " (reserved bits)", r.cl, life ? "" : " (invalid)");
}

static void check_rm_functions(struct ctx *c)
{
    struct apm_state *s = c->s;
    const struct apm_port *rm = c->ports->iface[APM_IFACE_RM];
    struct biosregs r;
    uint16_t connection = APM_V1_0;     /* what 530Eh makes of it; 1.0 without it */

    /* Recorded as apm_connect() records the protected-mode connects below: the survey
     * that ends a check run says what connecting answered. */
    struct apm_iface_result *rec = &s->ifaces[APM_IFACE_RM];
    rec->tried = true;
    rec->connect_result = call(c, s->int15, APM_FN_CONNECT_RM, APM_DEVICE_BIOS, 0, &r);
    rec->connected = rec->connect_result == 0;
    rec->conn_version = APM_V1_0;
    if (!judge_ok(c, "connect.rm", APM_FN_CONNECT_RM, APM_V1_0, rec->connect_result))
        return;
    expect_error(c, "connect.rm-twice", s->int15, APM_FN_CONNECT_RM, APM_DEVICE_BIOS, 0,
                 APM_V1_0, APM_ERR_RM_CONNECTED);

    if (needs(c, "driver-version", APM_FN_DRIVER_VERSION, APM_V1_1) &&
        expect_ok(c, "driver-version", rm, APM_FN_DRIVER_VERSION, APM_DEVICE_BIOS,
                  APM_DRIVER_VERSION, APM_V1_1, &r)) {
        bool fine = apm_version_is_bcd(r.ax) && r.ax >= APM_V1_0 && r.ax <= APM_DRIVER_VERSION;
        if (fine)
            connection = rec->conn_version = r.ax;
        verdict(c, fine ? CHECK_PASS : CHECK_FAIL, "driver-version.answer",
                APM_FN_DRIVER_VERSION, APM_V1_1, "AX=%04Xh for our %04Xh", r.ax,
                APM_DRIVER_VERSION);
    }
    /* "All devices" is FFFFh on a 1.0 connection, 0001h after (as in apm.c). */
    uint16_t all = connection > APM_V1_0 ? APM_DEVICE_ALL : APM_DEVICE_OLD_ALL;
    say("check: note: 5308h is a call the power-off path avoids (it hangs some BIOSes "
        "booted with power management disabled); action=check makes it");
    expect_ok(c, "enable-pm", rm, APM_FN_ENABLE_PM, all, 1, APM_V1_0, &r);
    if (needs(c, "engage-pm", APM_FN_ENGAGE_PM, APM_V1_1))
        expect_ok(c, "engage-pm", rm, APM_FN_ENGAGE_PM, APM_DEVICE_ALL, 1, APM_V1_1, &r);
    if (needs(c, "enable-device-pm", APM_FN_ENABLE_DEVICE_PM, APM_V1_1))
        expect_ok(c, "enable-device-pm", rm, APM_FN_ENABLE_DEVICE_PM, APM_DEVICE_ALL, 1,
                  APM_V1_1, &r);

    check_power_status(c, rm);

    int res = call(c, rm, APM_FN_GET_PM_EVENT, 0, 0, &r);
    if (res == APM_ERR_NO_EVENTS)
        verdict(c, CHECK_PASS, "pm-event", APM_FN_GET_PM_EVENT, APM_V1_0, "no events (80h)");
    else if (res == 0 && r.bx >= 0x0001 && (r.bx <= 0x000C || r.bx >= FIRST_OEM_EVENT))
        verdict(c, CHECK_PASS, "pm-event", APM_FN_GET_PM_EVENT, APM_V1_0, "event %04Xh",
                r.bx);
    else
        verdict(c, CHECK_FAIL, "pm-event", APM_FN_GET_PM_EVENT, APM_V1_0,
                "expected an event or error 80h, got %s BX=%04Xh",
                res ? "an error" : "success", r.bx);

    if (needs(c, "power-state", APM_FN_GET_POWER_STATE, APM_V1_1) &&
        expect_ok(c, "power-state", rm, APM_FN_GET_POWER_STATE, APM_DEVICE_ALL, 0,
                  APM_V1_1, &r))
        verdict(c, r.cx <= LAST_STATE ? CHECK_PASS : CHECK_FAIL, "power-state.value",
                APM_FN_GET_POWER_STATE, APM_V1_1, "CX=%04Xh", r.cx);

    if (needs(c, "capabilities", APM_FN_GET_CAPABILITIES, APM_V1_2) &&
        expect_ok(c, "capabilities", rm, APM_FN_GET_CAPABILITIES, APM_DEVICE_BIOS, 0,
                  APM_V1_2, &r)) {
        verdict(c, r.cx & 0xFF00 ? CHECK_FAIL : CHECK_PASS, "capabilities.reserved",
                APM_FN_GET_CAPABILITIES, APM_V1_2, "CX=%04Xh, BL=%u battery unit(s)",
                r.cx, r.bl);
        s->have_caps = true;            /* the report says what wakes the machine */
        s->capabilities = r.cx;
        s->battery_units = r.bl;
    }

    expect_error(c, "device-id.unknown", rm, APM_FN_GET_POWER_STATUS, UNDEFINED_DEVICE, 0,
                 APM_V1_0, APM_ERR_BAD_DEVICE);
    if (c->strict)
        expect_error(c, "power-state.reserved", rm, APM_FN_SET_POWER_STATE, APM_DEVICE_ALL,
                     RESERVED_STATE, APM_V1_0, APM_ERR_PARAM_RANGE);
    else
        verdict(c, CHECK_SKIP, "power-state.reserved", APM_FN_SET_POWER_STATE, APM_V1_0,
                "asks 5307h for a reserved state, which a loose BIOS may take for off: "
                "only with check=strict");
    expect_ok(c, "disconnect.rm", s->int15, APM_FN_DISCONNECT, APM_DEVICE_BIOS, 0,
              APM_V1_0, &r);
}

/* Same call through real mode and through pm: the answers must agree. */
static void check_same_answers(struct ctx *c, enum apm_iface iface, const char *name,
                               const struct biosregs *rm_answer)
{
    struct biosregs r;
    if (call(c, c->ports->iface[iface], APM_FN_GET_POWER_STATUS, APM_DEVICE_ALL, 0, &r)) {
        verdict(c, CHECK_FAIL, name, APM_FN_GET_POWER_STATUS, APM_V1_0, "530Ah failed");
        return;
    }
    bool same = r.bx == rm_answer->bx && r.cx == rm_answer->cx && r.dx == rm_answer->dx;
    verdict(c, same ? CHECK_PASS : CHECK_FAIL, name, APM_FN_GET_POWER_STATUS, APM_V1_0,
            "BX/CX/DX %04X/%04X/%04X, real mode %04X/%04X/%04X", r.bx, r.cx, r.dx,
            rm_answer->bx, rm_answer->cx, rm_answer->dx);
}

/* Where a segment of the given length ends; a length of 0 is 64 KiB. */
static uint32_t segment_end(uint16_t seg, uint32_t len)
{
    return (uint32_t)seg * 16 + (len ? len : 0x10000u);
}

static void check_pm(struct ctx *c, enum apm_iface iface, const struct biosregs *rm_answer)
{
    static const char *const names[APM_IFACE_COUNT][5] = {
        [APM_IFACE_PM32] = { "connect.pm32", "connect.pm32-twice", "pm32.same-answers",
                             "pm32.segments-below-1mib", "disconnect.pm32" },
        [APM_IFACE_PM16] = { "connect.pm16", "connect.pm16-twice", "pm16.same-answers",
                             "pm16.segments-below-1mib", "disconnect.pm16" },
    };
    const char *const *n = names[iface];
    struct apm_state *s = c->s;
    uint8_t fn = iface == APM_IFACE_PM32 ? APM_FN_CONNECT_PM32 : APM_FN_CONNECT_PM16;
    uint8_t unsupported = iface == APM_IFACE_PM32 ? APM_ERR_PM32_UNSUPPORTED
                                                  : APM_ERR_PM16_UNSUPPORTED;
    uint8_t twice = iface == APM_IFACE_PM32 ? APM_ERR_PM32_CONNECTED : APM_ERR_PM16_CONNECTED;
    char why[APM_WHY_MAX];

    if (!apm_iface_offered(s, iface)) {
        struct biosregs r;
        expect_error(c, n[0], s->int15, fn, APM_DEVICE_BIOS, 0, APM_V1_0, unsupported);
        call(c, s->int15, APM_FN_DISCONNECT, APM_DEVICE_BIOS, 0, &r);   /* if it did */
        return;
    }
    /* apm_connect() makes the call and builds the descriptors. */
    if (!apm_connect(s, iface, c->ports->iface[iface], why, sizeof(why))) {
        verdict(c, CHECK_FAIL, n[0], fn, APM_V1_0, "offered but %s", why);
        return;
    }
    verdict(c, CHECK_PASS, n[0], fn, APM_V1_0, "offered and connected");
    expect_error(c, n[1], s->int15, fn, APM_DEVICE_BIOS, 0, APM_V1_0, twice);
    check_same_answers(c, iface, n[2], rm_answer);

    /* A length of 0 means 64 KiB, and 64 KiB is what gets mapped: judge that, not
     * the 0 (a data segment at F940h with no length reaches 109400h, into the memory
     * a protected-mode kernel lives in). */
    const struct apm_pm_info *pm = &s->pm;
    uint32_t code_end = iface == APM_IFACE_PM32
                            ? segment_end(pm->code32_seg, pm->raw_code32_len)
                            : segment_end(pm->code16_seg, pm->raw_code16_len);
    uint32_t data_end = segment_end(pm->data_seg, pm->raw_data_len);
    verdict(c, code_end <= ONE_MIB && data_end <= ONE_MIB ? CHECK_PASS : CHECK_FAIL, n[3],
            fn, APM_V1_1, "code ends at %05Xh, data at %05Xh%s", (unsigned)code_end,
            (unsigned)data_end,
            pm->raw_data_len && (iface == APM_IFACE_PM16 ? pm->raw_code16_len
                                                          : pm->raw_code32_len)
                ? "" : " (a length of 0 is 64 KiB)");
    struct biosregs r;
    expect_ok(c, n[4], s->int15, APM_FN_DISCONNECT, APM_DEVICE_BIOS, 0, APM_V1_0, &r);
    s->connected = false;
}

bool apm_check(struct apm_state *s, const struct apm_ports *ports, bool strict,
               struct check_report *rep)
{
    struct ctx c = { s, ports, strict, rep };
    struct biosregs rm_answer;

    *rep = (struct check_report){ 0 };
    rep->strict = strict;
    if (!apm_install_check(s))
        return false;
    check_install(&c);
    check_unconnected(&c);
    check_rm_functions(&c);

    /* The real-mode answer the protected-mode interfaces must repeat. */
    initregs(&rm_answer);
    call(&c, s->int15, APM_FN_CONNECT_RM, APM_DEVICE_BIOS, 0, &rm_answer);
    call(&c, s->int15, APM_FN_GET_POWER_STATUS, APM_DEVICE_ALL, 0, &rm_answer);
    struct biosregs r;
    call(&c, s->int15, APM_FN_DISCONNECT, APM_DEVICE_BIOS, 0, &r);

    check_pm(&c, APM_IFACE_PM32, &rm_answer);
    check_pm(&c, APM_IFACE_PM16, &rm_answer);
    say("check summary: %u passed, %u failed, %u skipped", rep->passed, rep->failed,
        rep->skipped);
    return true;
}
