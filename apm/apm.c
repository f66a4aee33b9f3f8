/* The APM protocol sequence: see apm.h and ../shared/apm-reference.md.
 *
 * Quirks handled here, each where it bites:
 *  - CF pre-set before every call (initregs), so a BIOS that ignores the call fails;
 *  - CF set with AH=53h or 00h: the BIOS set no error code;
 *  - a missing 'PM' signature is a warning, not a verdict (GRUB does not check it);
 *  - version 0.1 (a Compaq) is 1.0;
 *  - "already connected" on connect: disconnect and retry once;
 *  - 530Eh after every connect, since a connect may reset the connection to 1.0,
 *    asking for no more than the BIOS's own version (negotiate_version());
 *  - no 5308h enable before it is needed: it hangs some BIOSes (request_state());
 *  - 5308h/530Fh take FFFFh for "all devices" on a 1.0 connection and 0001h after
 *    (Linux's APM_DEVICE_BALL);
 *  - 5307h returning at all means the power-off failed, whatever CF says, but only
 *    after a wait: some BIOSes cut the power a moment after returning. */
#include "apm.h"
#include "apm_spec.h"
#include "apm_text.h"
#include "resume.h"
#include "../system/console.h"
#include "../lib/format.h"

#define MAX_SEGMENT     0x10000u
#define OFF_GRACE_MS    3000    /* how long "off" may take after 5307h returned */

static const char *const iface_names[APM_IFACE_COUNT] = {
    [APM_IFACE_RM] = "rm",
    [APM_IFACE_PM32] = "pm32",
    [APM_IFACE_PM16] = "pm16",
};

static const uint8_t connect_fn[APM_IFACE_COUNT] = {
    [APM_IFACE_RM] = APM_FN_CONNECT_RM,
    [APM_IFACE_PM32] = APM_FN_CONNECT_PM32,
    [APM_IFACE_PM16] = APM_FN_CONNECT_PM16,
};

/* "Already connected": the code names the interface that IS connected (02h real
 * mode, 05h 16-bit, 07h 32-bit), which need not be the one we are connecting. */
static bool is_already_connected(int res)
{
    return res == APM_ERR_RM_CONNECTED || res == APM_ERR_PM16_CONNECTED ||
           res == APM_ERR_PM32_CONNECTED;
}

const char *apm_iface_name(enum apm_iface iface)
{
    return iface < APM_IFACE_COUNT ? iface_names[iface] : "?";
}

void apm_init(struct apm_state *s, const struct apm_port *int15, unsigned inject)
{
    *s = (struct apm_state){ 0 };
    s->int15 = int15;
    s->inject = inject;
}

bool apm_version_is_bcd(uint16_t v)
{
    return (v & 0x0F) <= 9 && ((v >> 4) & 0x0F) <= 9 && ((v >> 8) & 0x0F) <= 9 &&
           (v >> 12) <= 9;
}

const char *apm_result_text(int result, char *buf, unsigned size)
{
    char err[32];
    switch (result) {
    case 0:
        return "ok";
    case APM_RESULT_NO_CODE:
        return "CF set but no error code in AH";
    case APM_RESULT_NO_CALL:
        return "the call could not be made";
    case APM_RESULT_INJECTED:
        return "failure injected by inject=, BIOS not called";
    default:
        fmt_snprintf(buf, size, "error %02Xh: %s", (unsigned)result,
                     apm_error_text((uint8_t)result, err, sizeof(err)));
        return buf;
    }
}

static int record(struct apm_state *s, const struct apm_port *port, uint8_t fn, int result)
{
    if (s->log_count == APM_LOG_MAX) {
        s->log_truncated = true;
        return result;
    }
    s->log[s->log_count++] = (struct apm_log_entry){ port->name, fn, (uint16_t)result };
    return result;
}

/* What a returned call means: 0 (CF clear), an error code, or APM_RESULT_NO_CODE
 * when CF is set but AH still holds 53h or 00h (the BIOS set no code). */
static int decode(const struct biosregs *r)
{
    if (!(r->eflags & X86_EFLAGS_CF))
        return 0;
    return (r->ah == APM_AH || r->ah == 0) ? APM_RESULT_NO_CODE : r->ah;
}

/* apm_call(), where error `expected` is a normal answer and is said so. */
static int call_expecting(struct apm_state *s, const struct apm_port *port, uint8_t fn,
                          struct biosregs *r, const char *args, int expected,
                          const char *meaning)
{
    const char *why = "unknown reason";
    char text[96];

    r->ah = APM_AH;
    r->al = fn;
    say("%s: %04Xh %s%s%s%s", port->name, APM_AH << 8 | fn, apm_function_name(fn),
        args ? " (" : "", args ? args : "", args ? ")" : "");
    if (!port->call(port, r, &why)) {
        say("%s: %04Xh not made: %s", port->name, APM_AH << 8 | fn, why);
        return record(s, port, fn, APM_RESULT_NO_CALL);
    }
    int res = decode(r);
    if (res == 0)
        say("%s: %04Xh ok", port->name, APM_AH << 8 | fn);
    else if (res == expected)
        say("%s: %04Xh answered error %02Xh, as expected: %s", port->name,
            APM_AH << 8 | fn, (unsigned)res, meaning);
    else if (res == APM_RESULT_NO_CODE)
        say("%s: %04Xh returned CF set with AH=%02Xh, which is no error code",
            port->name, APM_AH << 8 | fn, r->ah);
    else
        say("%s: %04Xh failed: %s", port->name, APM_AH << 8 | fn,
            apm_result_text(res, text, sizeof(text)));
    return record(s, port, fn, res);
}

int apm_call(struct apm_state *s, const struct apm_port *port, uint8_t fn,
             struct biosregs *r, const char *args)
{
    return call_expecting(s, port, fn, r, args, -1, 0);
}

bool apm_install_check(struct apm_state *s)
{
    struct biosregs r;
    char flags[160];

    initregs(&r);
    r.bx = APM_DEVICE_BIOS;
    int res = apm_call(s, s->int15, APM_FN_INSTALL_CHECK, &r, "BX=0000h");
    if (res == APM_RESULT_NO_CALL)
        return false;
    s->reached = true;
    /* CF as we set it, but the registers prove the answer: a BIOS that returns
     * success by IRET leaves CF as the caller had it (GRUB's halt enters with CF
     * clear and never sees this), and 'PM' with a BCD version is no error code. */
    if (res && r.bh == APM_SIGNATURE_P && r.bl == APM_SIGNATURE_M &&
        apm_version_is_bcd(r.ax) && r.ax >= APM_V1_0) {
        say("5300h returned CF set, but BX=504Dh ('PM') and version %04Xh prove an APM "
            "BIOS (one that returns by IRET, CF as it found it)", r.ax);
        res = 0;
    }
    if (res) {
        /* 86h is the documented "not present"; anything else is a BIOS without
         * the APM function at all. */
        say("no APM BIOS: INT 15h AX=5300h %s",
            res == APM_ERR_NOT_PRESENT ? "says APM is not present" : "failed");
        return false;
    }
    s->present = true;
    s->raw_version = r.ax;
    s->version = r.ax;
    s->signature_ok = r.bh == APM_SIGNATURE_P && r.bl == APM_SIGNATURE_M;
    s->flags = r.cx;

    if (s->raw_version == APM_VERSION(0, 1)) {
        say("BIOS reports APM 0.1 (early Compaq): treated as 1.0");
        s->version = APM_V1_0;
    } else if (!apm_version_is_bcd(s->raw_version) || s->raw_version < APM_V1_0) {
        say("warning: version %04Xh is not a valid APM version (BCD, 1.0 or later): "
            "treated as 1.0",
            s->raw_version);
        s->version = APM_V1_0;
    }
    if (!s->signature_ok)
        say("warning: signature is %02Xh %02Xh, not 'PM'; trusting CF and the version",
            r.bh, r.bl);
    apm_flags_text(s->flags, flags, sizeof(flags));
    say("APM %X.%X BIOS, signature %s, flags %04Xh: %s", s->version >> 8,
        s->version & 0xFF, s->signature_ok ? "PM" : "missing", s->flags, flags);
    return true;
}

void apm_disconnect(struct apm_state *s)
{
    struct biosregs r;

    initregs(&r);
    r.bx = APM_DEVICE_BIOS;
    call_expecting(s, s->int15, APM_FN_DISCONNECT, &r, "BX=0000h", APM_ERR_NOT_CONNECTED,
                   "nothing was connected");
    s->connected = false;
    s->port = 0;
}

/* A BIOS length we cannot use: zero (1.0 BIOSes and some 1.1 ones return none) or
 * too short to hold what must be in it. */
static void note_short_length(const char *iface, const char *what, uint32_t raw,
                              uint32_t must_cover)
{
    if (raw == 0 || raw < must_cover)
        say("%s: %s length %04Xh is %s; 64 KiB it is", iface, what, (unsigned)raw,
            raw ? "shorter than what it must hold" : "not given");
}

static void record_pm_info(struct apm_state *s, enum apm_iface iface,
                           const struct biosregs *r)
{
    struct apm_pm_info *pm = &s->pm;

    *pm = (struct apm_pm_info){ 0 };
    if (iface == APM_IFACE_PM32) {
        pm->code32_seg = r->ax;
        pm->code16_seg = r->cx;
        pm->data_seg = r->dx;
        /* Some BIOSes leave EBX's high half dirty: the entry is a 16-bit offset. */
        if (r->ebx >> 16)
            say("pm32: EBX=%08Xh has a dirty high half; using entry %04Xh",
                (unsigned)r->ebx, r->bx);
        pm->entry = r->bx;
        pm->raw_code32_len = r->si;
        pm->raw_code16_len = r->esi >> 16;
        pm->raw_data_len = r->di;
        note_short_length("pm32", "32-bit code", pm->raw_code32_len, pm->entry + 4);
        note_short_length("pm32", "16-bit code", pm->raw_code16_len, 1);
        note_short_length("pm32", "data", pm->raw_data_len, 1);
        say("pm32: code32 %04Xh len %04Xh, code16 %04Xh len %04Xh, data %04Xh len %04Xh, "
            "entry %04Xh", pm->code32_seg, (unsigned)pm->raw_code32_len, pm->code16_seg,
            (unsigned)pm->raw_code16_len, pm->data_seg, (unsigned)pm->raw_data_len,
            (unsigned)pm->entry);
    } else {
        pm->code16_seg = r->ax;
        pm->entry = r->bx;
        pm->data_seg = r->cx;
        pm->raw_code16_len = r->si;
        pm->raw_data_len = r->di;
        note_short_length("pm16", "16-bit code", pm->raw_code16_len, pm->entry + 4);
        note_short_length("pm16", "data", pm->raw_data_len, 1);
        say("pm16: code16 %04Xh len %04Xh, data %04Xh len %04Xh, entry %04Xh",
            pm->code16_seg, (unsigned)pm->raw_code16_len, pm->data_seg,
            (unsigned)pm->raw_data_len, (unsigned)pm->entry);
    }
    /* Even plausible lengths are limits BIOSes exceed (Linux and FreeBSD force
     * 64 KiB): the raw values are kept for the report, and 64 KiB is mapped. */
    pm->code32_len = pm->code16_len = pm->data_len = MAX_SEGMENT;
}

/* 530Eh: ask for the newest version both sides speak, never more than the BIOS's
 * own (FreeBSD met a 1.1 BIOS that answers a 1.2 request with 1.0, a connection on
 * which 5307h "off" is undefined), and count down when the answer is no version we
 * asked for. */
static void negotiate_version(struct apm_state *s)
{
    s->conn_version = APM_V1_0;
    if (s->version < APM_V1_1) {
        say("%s: APM 1.0 BIOS: no driver version call; connection is 1.0", s->port->name);
        return;
    }
    uint16_t newest = s->version < APM_DRIVER_VERSION ? s->version : APM_DRIVER_VERSION;
    for (uint16_t want = newest; want >= APM_V1_1; want--) {
        struct biosregs r;
        char args[32];

        initregs(&r);
        r.bx = APM_DEVICE_BIOS;
        r.cx = want;
        fmt_snprintf(args, sizeof(args), "BX=0000h CX=%04Xh", want);
        int res = apm_call(s, s->port, APM_FN_DRIVER_VERSION, &r, args);
        /* CF set (a BIOS that returns by IRET leaves ours) but AX a version we may
         * have: that is the answer, not error AH (an error leaves AL = 0Eh). */
        bool answered = res > 0 && apm_version_is_bcd(r.ax) && r.ax >= APM_V1_0 &&
                        r.ax <= want;
        if (answered)
            say("%s: 530Eh returned CF set, but AX=%04Xh is a version: taken as the "
                "answer", s->port->name, r.ax);
        else if (res)
            continue;
        /* The answer is in AX (Syslinux once read CX): a version no newer than we
         * asked for, which is no newer than the BIOS's. */
        if (apm_version_is_bcd(r.ax) && r.ax >= APM_V1_0 && r.ax <= want) {
            s->conn_version = r.ax;
            return;
        }
        say("%s: BIOS answered connection version %04Xh to our %X.%X, which is no "
            "version we asked for", s->port->name, r.ax, want >> 8, want & 0xFF);
    }
    say("%s: no driver version accepted; speaking APM 1.0", s->port->name);
}

bool apm_connect(struct apm_state *s, enum apm_iface iface, const struct apm_port *port,
                 char *why, unsigned why_size)
{
    const char *name = apm_iface_name(iface);
    char text[96];
    struct biosregs r;
    int res;

    struct apm_iface_result *rec = &s->ifaces[iface];
    rec->tried = true;
    if (s->inject & APM_INJECT_BIT(iface, APM_STEP_CONNECT)) {
        rec->connect_result = record(s, s->int15, connect_fn[iface], APM_RESULT_INJECTED);
        say("%s: %04Xh %s: failure injected (inject=%s-connect), BIOS not called",
            s->int15->name, APM_AH << 8 | connect_fn[iface],
            apm_function_name(connect_fn[iface]), name);
        fmt_snprintf(why, why_size, "connect failure injected (inject=%s-connect), BIOS "
                     "not called", name);
        return false;
    }

    apm_disconnect(s);
    for (int attempt = 0;; attempt++) {
        initregs(&r);
        /* initregs() zeroes every register: some 1.1 BIOSes return no lengths from
         * 5302h/5303h and would leave ours in SI/DI (record_pm_info). */
        r.bx = APM_DEVICE_BIOS;
        res = apm_call(s, s->int15, connect_fn[iface], &r, "BX=0000h");
        if (is_already_connected(res) && attempt == 0) {
            say("%s: already connected: disconnecting and retrying once", name);
            apm_disconnect(s);
            continue;
        }
        break;
    }
    /* 02h again on 5301h, after a disconnect: the BIOS keeps a real-mode connection
     * it will not give up, and the real-mode interface needs nothing from a connect
     * (a PM one needs its segments): it is usable as it is. */
    if (iface == APM_IFACE_RM && res == APM_ERR_RM_CONNECTED) {
        say("%s: still connected after a disconnect: the connection the BIOS keeps is "
            "used", name);
        res = 0;
    }
    /* CF set with AH still 53h after 5300h found a BIOS: no error code, so the CF is
     * ours, left by a BIOS that returns by IRET. Linux's and GRUB's real-mode calls
     * would have read it as success; so do we, and say so. */
    if (res == APM_RESULT_NO_CODE) {
        say("%s: connect returned CF set with no error code: a BIOS that returns by "
            "IRET leaves CF as it was; taken as connected", name);
        res = 0;
    }
    rec->connect_result = res;
    if (res) {
        fmt_snprintf(why, why_size, "connect %s", apm_result_text(res, text, sizeof(text)));
        return false;
    }

    s->iface = iface;
    s->port = port;
    s->connected = true;
    if (iface != APM_IFACE_RM) {
        const char *setup_why = "unknown reason";
        record_pm_info(s, iface, &r);
        rec->have_pm = true;
        rec->pm = s->pm;
        if (!port->setup(port, &s->pm, &setup_why)) {
            say("%s: cannot use the interface: %s", name, setup_why);
            fmt_snprintf(why, why_size, "%s", setup_why);
            apm_disconnect(s);
            return false;
        }
        /* Some BIOSes change their flags once a protected-mode interface is
         * connected (Linux re-reads them): ask again. */
        uint16_t before = s->flags;
        if (!apm_install_check(s)) {
            say("%s: 5300h fails once the interface is connected: giving it up", name);
            fmt_snprintf(why, why_size, "5300h fails after the connect");
            apm_disconnect(s);
            return false;
        }
        if (s->flags != before)
            say("%s: flags changed from %04Xh to %04Xh after connecting", name, before,
                s->flags);
    }
    negotiate_version(s);
    rec->connected = true;
    rec->conn_version = s->conn_version;
    say("%s: connected, APM %X.%X connection", name, s->conn_version >> 8,
        s->conn_version & 0xFF);
    if (s->flags & (APM_FLAG_PM_DISABLED | APM_FLAG_PM_DISENGAGED))
        say("%s: the BIOS says power management is %s; it is enabled only if a "
            "request needs it", name,
            s->flags & APM_FLAG_PM_DISABLED ? "disabled" : "disengaged");
    return true;
}

void apm_query(struct apm_state *s)
{
    struct biosregs r;
    char text[160];

    initregs(&r);
    r.bx = APM_DEVICE_ALL;
    if (!apm_call(s, s->port, APM_FN_GET_POWER_STATUS, &r, "BX=0001h")) {
        struct apm_power_status *st = &s->status;
        s->have_status = true;
        st->ac_line = r.bh;
        st->battery_status = r.bl;
        st->battery_flag = r.ch;
        st->life_percent = r.cl;
        st->life_time = r.dx;
        st->battery_count = s->conn_version >= APM_V1_2 ? r.si : 0;
        apm_battery_flag_text(st->battery_flag, text, sizeof(text));
        say("power: AC line %s, battery %s, battery flag %02Xh (%s)",
            apm_ac_line_text(st->ac_line), apm_battery_status_text(st->battery_status),
            st->battery_flag, text);
        if (st->life_percent == APM_UNKNOWN8)
            fmt_snprintf(text, sizeof(text), "unknown");
        else if (st->life_percent <= 100)
            fmt_snprintf(text, sizeof(text), "%u%%", st->life_percent);
        else
            fmt_snprintf(text, sizeof(text), "invalid (%u)", st->life_percent);
        if (st->life_time == APM_UNKNOWN16)
            say("power: battery life %s, time unknown", text);
        else
            say("power: battery life %s, %u %s", text, st->life_time & 0x7FFF,
                st->life_time & APM_LIFE_MINUTES ? "minutes" : "seconds");
        if (s->conn_version >= APM_V1_2)
            say("power: %u battery unit(s) reported", st->battery_count);
    }

    apm_get_capabilities(s);
}

/* After a 5307h that answered 01h (power management disabled) or 0Bh (disengaged):
 * 5308h enable or 530Fh engage. True when that succeeded and the request is worth
 * one more try. Never made up front: 5308h hangs some BIOSes that booted with power
 * management disabled (Linux makes it only with CONFIG_APM_DO_ENABLE, after an NEC
 * UltraLite Versa 33/C). */
static bool enable_for_retry(struct apm_state *s, int res)
{
    uint16_t all = s->conn_version > APM_V1_0 ? APM_DEVICE_ALL : APM_DEVICE_OLD_ALL;
    uint8_t fn;
    struct biosregs r;
    char args[32];

    if (res == APM_ERR_PM_DISABLED)
        fn = APM_FN_ENABLE_PM;
    else if (res == APM_ERR_NOT_ENGAGED && s->conn_version >= APM_V1_1)
        fn = APM_FN_ENGAGE_PM;
    else
        return false;
    say("%s: power management is %s: %s it, then asking once more", s->port->name,
        fn == APM_FN_ENABLE_PM ? "disabled" : "disengaged",
        fn == APM_FN_ENABLE_PM ? "enabling" : "engaging");
    initregs(&r);
    r.bx = all;
    r.cx = 1;
    fmt_snprintf(args, sizeof(args), "BX=%04Xh CX=0001h", all);
    return apm_call(s, s->port, fn, &r, args) == 0;
}

/* Before a 5307h: a BIOS whose 5300h flags say disengaged is engaged up front, as
 * Linux's apm_32.c does at start-up: some refuse the request with 60h or 0Ah until
 * engaged instead of answering 0Bh, which enable_for_retry() waits for. 530Fh, unlike
 * 5308h, is not known to hang anything. */
static void engage_if_disengaged(struct apm_state *s)
{
    struct biosregs r;

    if (!(s->flags & APM_FLAG_PM_DISENGAGED) || s->conn_version < APM_V1_1)
        return;
    say("%s: the BIOS says power management is disengaged: engaging it first",
        s->port->name);
    initregs(&r);
    r.bx = APM_DEVICE_ALL;
    r.cx = 1;
    apm_call(s, s->port, APM_FN_ENGAGE_PM, &r, "BX=0001h CX=0001h");
}

int apm_set_power_state(struct apm_state *s, uint16_t state)
{
    struct biosregs r;
    char args[32];
    int res;

    engage_if_disengaged(s);
    fmt_snprintf(args, sizeof(args), "BX=0001h CX=%04Xh", state);
    for (int attempt = 0;; attempt++) {
        initregs(&r);
        r.bx = APM_DEVICE_ALL;
        r.cx = state;
        res = apm_call(s, s->port, APM_FN_SET_POWER_STATE, &r, args);
        if (attempt > 0 || !enable_for_retry(s, res))
            return res;
    }
}

int apm_get_event(struct apm_state *s, uint16_t *event, uint16_t *info)
{
    struct biosregs r;

    initregs(&r);
    int res = apm_call(s, s->port, APM_FN_GET_PM_EVENT, &r, 0);
    *event = r.bx;
    *info = r.cx;
    return res;
}

/* One 5307h "off", announced by the contract's "powering off via" line. */
static int off_call(struct apm_state *s, const char **call_why)
{
    const char *name = apm_iface_name(s->iface);
    struct biosregs r;
    int res;

    initregs(&r);
    r.bx = APM_DEVICE_ALL;
    r.cx = APM_STATE_OFF;
    say("powering off via %s (APM %X.%X)%s%s", name, s->conn_version >> 8,
        s->conn_version & 0xFF, s->port->tag ? s->port->tag : "",
        s->inject & APM_INJECT_BIT(s->iface, APM_STEP_OFF) ? " [injected failure]" : "");
    if (s->inject & APM_INJECT_BIT(s->iface, APM_STEP_OFF)) {
        say("%s: 5307h set power state: failure injected (inject=%s-off), BIOS not called",
            s->port->name, name);
        res = APM_RESULT_INJECTED;
    } else {
        r.ah = APM_AH;
        r.al = APM_FN_SET_POWER_STATE;
        /* Not apm_call(): its "about to call" line would come between the
         * contract's "powering off via" line and the call. */
        res = s->port->call(s->port, &r, call_why) ? decode(&r) : APM_RESULT_NO_CALL;
    }
    return record(s, s->port, APM_FN_SET_POWER_STATE, res);
}

/* Linux goes on running after its power-off call returns, so a BIOS that cuts the
 * power a moment later works there: give it that moment before calling it a failure.
 * No error code is no refusal either: a BIOS that returns by IRET leaves CF as it
 * was, and its power may go late like any other's. Returns whether it waited. */
static bool grace(struct apm_state *s, int res)
{
    if ((res != 0 && res != APM_RESULT_NO_CODE) || !s->int15->wait)
        return false;
    say("%s: 5307h returned %s; waiting %u s, interrupts serviced, in case the "
        "power goes off late", s->port->name,
        res ? "no error code (CF as it was: a BIOS that returns by IRET)" : "success",
        OFF_GRACE_MS / 1000);
    s->int15->wait(s->int15, OFF_GRACE_MS);
    return true;
}

void apm_power_off(struct apm_state *s, char *why, unsigned why_size)
{
    const char *name = apm_iface_name(s->iface);
    const char *call_why = "unknown reason";
    char text[96];

    say("note: no disk was flushed or spun down first; apmoff writes to no disk");
    engage_if_disengaged(s);
    int res = off_call(s, &call_why);
    if (enable_for_retry(s, res))
        res = off_call(s, &call_why);
    bool waited = grace(s, res);
    /* A call that was made and came back, watched, may go unwatched once more: the
     * port decides (a stopped call is not repeated: it would hang the same way). */
    if (res != APM_RESULT_INJECTED && res != APM_RESULT_NO_CALL && s->port->again &&
        s->port->again(s->port)) {
        res = off_call(s, &call_why);
        waited = grace(s, res);
    }
    if (res == APM_RESULT_INJECTED)
        fmt_snprintf(why, why_size, "failure injected (inject=%s-off), BIOS not called",
                     name);
    else if (res == APM_RESULT_NO_CALL)
        fmt_snprintf(why, why_size, "the call could not be made: %s", call_why);
    else if (res == 0 && waited)
        fmt_snprintf(why, why_size, "5307h returned success but the machine is still on "
                     "after %u s", OFF_GRACE_MS / 1000);
    else if (res == 0)
        fmt_snprintf(why, why_size, "5307h returned success but the machine is still on");
    else
        fmt_snprintf(why, why_size, "5307h %s", apm_result_text(res, text, sizeof(text)));
    s->ifaces[s->iface].off_tried = true;
    s->ifaces[s->iface].off_still_on = res == 0;
    fmt_snprintf(s->ifaces[s->iface].off_result, sizeof(s->ifaces[s->iface].off_result),
                 "%s", why);
    say("power-off via %s failed: %s", name, why);
}

bool apm_still_on_after_success(const struct apm_state *s)
{
    for (int i = 0; i < APM_IFACE_COUNT; i++)
        if (s->ifaces[i].off_still_on)
            return true;
    return false;
}
