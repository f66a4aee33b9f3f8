/* The simulated APM BIOS: see simbios.h. One handler per function, named after
 * the AX it serves, like SeaBIOS' handle_15530x. */
#include "simbios.h"
#include "host_console.h"
#include "../../apm/apm_spec.h"

#include <string.h>

static const char *const port_names[APM_IFACE_COUNT] = { "rm", "pm32", "pm16" };

/* The error a connect gets while `iface` is connected: it names the interface that
 * is connected, not the one asked for. */
static const uint8_t connected_error[APM_IFACE_COUNT] = {
    APM_ERR_RM_CONNECTED, APM_ERR_PM32_CONNECTED, APM_ERR_PM16_CONNECTED,
};

static void ok(struct biosregs *r)
{
    r->eflags &= ~(uint32_t)X86_EFLAGS_CF;
}

static void fail(struct biosregs *r, uint8_t code)
{
    r->eflags |= X86_EFLAGS_CF;
    r->ah = code;
}

/* 0.1 (Compaq) and non-BCD versions below 1.1 are 1.0 BIOSes here too. */
static bool is_1_1(const struct simbios *sim)
{
    return sim->version >= APM_V1_1;
}

/* A function this BIOS does not implement: CF set, AH left at 53h (SeaBIOS). */
static void unknown(struct biosregs *r)
{
    fail(r, APM_AH);
}

/* 5300h installation check */
static void handle_5300(struct simbios *sim, struct biosregs *r)
{
    if (r->bx != APM_DEVICE_BIOS) {
        fail(r, APM_ERR_BAD_DEVICE);
        return;
    }
    r->ax = sim->version;
    r->bx = sim->signature;
    r->cx = sim->flags_change_on_pm && sim->pm_connected_once ? sim->flags_after_pm
                                                             : sim->flags;
    ok(r);
}

/* 5301h/5302h/5303h interface connect */
static void handle_connect(struct simbios *sim, enum apm_iface iface, struct biosregs *r)
{
    if (r->bx != APM_DEVICE_BIOS) {
        fail(r, APM_ERR_BAD_DEVICE);
        return;
    }
    if (!sim->lax && sim->connected >= 0) {
        fail(r, connected_error[sim->connected]);
        return;
    }
    if (iface == APM_IFACE_PM32 && !(sim->flags & APM_FLAG_PM32)) {
        fail(r, APM_ERR_PM32_UNSUPPORTED);
        return;
    }
    if (iface == APM_IFACE_PM16 && !(sim->flags & APM_FLAG_PM16)) {
        fail(r, APM_ERR_PM16_UNSUPPORTED);
        return;
    }

    const struct biosregs *a = iface == APM_IFACE_PM32 ? &sim->pm32_answer
                                                        : &sim->pm16_answer;
    if (iface == APM_IFACE_PM32) {
        r->eax = a->eax;
        r->ebx = a->ebx;
        r->ecx = a->ecx;
        r->edx = a->edx;
        r->esi = a->esi;
        r->edi = a->edi;
    } else if (iface == APM_IFACE_PM16) {
        r->eax = a->eax;
        r->ebx = a->ebx;
        r->ecx = a->ecx;
        r->esi = a->esi;
        r->edi = a->edi;
    }
    if (iface != APM_IFACE_RM)
        sim->pm_connected_once = true;
    sim->connected = (int)iface;
    sim->conn_version = APM_V1_0;       /* until 530Eh says otherwise */
    ok(r);
}

/* 5304h interface disconnect */
static void handle_5304(struct simbios *sim, struct biosregs *r)
{
    if (r->bx != APM_DEVICE_BIOS) {
        fail(r, APM_ERR_BAD_DEVICE);
        return;
    }
    if (!sim->lax && sim->connected < 0) {
        fail(r, APM_ERR_NOT_CONNECTED);
        return;
    }
    sim->connected = -1;
    ok(r);
}

/* The device ID for "all devices" the connection version uses for 5308h/530Fh. */
static bool all_devices_ok(const struct simbios *sim, uint16_t bx)
{
    if (sim->lax)
        return bx == APM_DEVICE_ALL || bx == APM_DEVICE_OLD_ALL;
    return bx == (sim->conn_version > APM_V1_0 ? APM_DEVICE_ALL : APM_DEVICE_OLD_ALL);
}

/* 5307h set power state */
static void handle_5307(struct simbios *sim, struct biosregs *r)
{
    if (r->bx != APM_DEVICE_ALL) {
        fail(r, APM_ERR_BAD_DEVICE);
        return;
    }
    if (r->cx > APM_STATE_OFF) {
        fail(r, APM_ERR_PARAM_RANGE);
        return;
    }
    if (sim->honours_pm_state && (sim->flags & APM_FLAG_PM_DISABLED) && !sim->pm_enabled) {
        fail(r, APM_ERR_PM_DISABLED);
        return;
    }
    if (sim->honours_pm_state && (sim->flags & APM_FLAG_PM_DISENGAGED) && !sim->pm_engaged) {
        fail(r, APM_ERR_NOT_ENGAGED);
        return;
    }
    if (r->cx == APM_STATE_OFF)
        sim->powered_off = true;
    ok(r);
}

/* 5308h enable/disable power management, 530Fh engage/disengage */
static void handle_enable(struct simbios *sim, bool engage, struct biosregs *r)
{
    if (!all_devices_ok(sim, r->bx)) {
        fail(r, APM_ERR_BAD_DEVICE);
        return;
    }
    if (r->cx > 1) {
        fail(r, APM_ERR_PARAM_RANGE);
        return;
    }
    if (engage)
        sim->pm_engaged = r->cx;
    else
        sim->pm_enabled = r->cx;
    ok(r);
}

/* 530Ah get power status */
static void handle_530A(struct simbios *sim, struct biosregs *r)
{
    if (r->bx != APM_DEVICE_ALL && (r->bx & 0xFF00) != 0x8000) {
        fail(r, APM_ERR_BAD_DEVICE);
        return;
    }
    r->ebx = sim->status_answer.ebx;
    r->ecx = sim->status_answer.ecx;
    r->edx = sim->status_answer.edx;
    r->esi = sim->status_answer.esi;
    ok(r);
}

/* 530Eh APM driver version */
static void handle_530E(struct simbios *sim, struct biosregs *r)
{
    uint16_t asked = r->cx;

    if (r->bx != APM_DEVICE_BIOS) {
        fail(r, APM_ERR_BAD_DEVICE);
        return;
    }
    if ((asked >> 8) != 1 || (asked & 0xFF) > 7 ||
        !(sim->driver_accept >> (asked & 0xFF) & 1)) {
        fail(r, sim->driver_refuse_code);
        return;
    }
    if (asked > sim->version && sim->driver_answer_too_new)
        r->ax = sim->driver_answer_too_new;
    else
        r->ax = sim->driver_answer ? sim->driver_answer
                                   : asked < sim->version ? asked : sim->version;
    sim->conn_version = r->ax;
    ok(r);
}

/* 530Bh get PM event: this machine never has one pending */
static void handle_530B(struct biosregs *r)
{
    fail(r, APM_ERR_NO_EVENTS);
}

/* 530Ch get power state, 530Dh enable/disable device power management (1.1) */
static void handle_device_state(struct simbios *sim, bool set, struct biosregs *r)
{
    if (r->bx != APM_DEVICE_ALL && (r->bx >> 8) < 0x01) {
        fail(r, APM_ERR_BAD_DEVICE);
        return;
    }
    if (set && r->cx > 1) {
        fail(r, APM_ERR_PARAM_RANGE);
        return;
    }
    if (!set)
        r->cx = sim->powered_off ? APM_STATE_OFF : APM_STATE_READY;
    ok(r);
}

/* 5310h get capabilities */
static void handle_5310(struct simbios *sim, struct biosregs *r)
{
    if (r->bx != APM_DEVICE_BIOS) {
        fail(r, APM_ERR_BAD_DEVICE);
        return;
    }
    r->bl = sim->battery_units;
    r->cx = sim->capabilities;
    ok(r);
}

/* 5311h resume timer: CL 00h disable, 01h get (0Dh when none is set), 02h set. */
static void handle_5311(struct simbios *sim, struct biosregs *r)
{
    if (r->bx != APM_DEVICE_BIOS) {
        fail(r, APM_ERR_BAD_DEVICE);
        return;
    }
    switch (r->cl) {
    case APM_RESUME_TIMER_DISABLE:
        sim->timer_set = false;
        break;
    case APM_RESUME_TIMER_GET:
        if (!sim->timer_set) {
            fail(r, APM_ERR_TIMER_DISABLED);
            return;
        }
        r->ch = sim->timer.ch;
        r->dx = sim->timer.dx;
        r->si = sim->timer.si;
        r->di = sim->timer.di;
        break;
    case APM_RESUME_TIMER_SET:
        sim->timer_set = true;
        sim->timer = *r;
        break;
    default:
        fail(r, APM_ERR_PARAM_RANGE);
        return;
    }
    ok(r);
}

static bool needs_connection(uint8_t fn)
{
    return fn > APM_FN_DISCONNECT;
}

static void dispatch(struct simbios *sim, enum apm_iface via, struct biosregs *r)
{
    uint8_t fn = r->al;

    if (!sim->lax && needs_connection(fn) && sim->connected != (int)via) {
        /* Through INT 15h while a PM interface is connected: 04h, else 03h. */
        fail(r, sim->connected >= 0 && via == APM_IFACE_RM ? APM_ERR_RM_NOT_CONNECTED
                                                           : APM_ERR_NOT_CONNECTED);
        return;
    }
    switch (fn) {
    case APM_FN_INSTALL_CHECK:
        handle_5300(sim, r);
        break;
    case APM_FN_CONNECT_RM:
        handle_connect(sim, APM_IFACE_RM, r);
        break;
    case APM_FN_CONNECT_PM16:
        handle_connect(sim, APM_IFACE_PM16, r);
        break;
    case APM_FN_CONNECT_PM32:
        handle_connect(sim, APM_IFACE_PM32, r);
        break;
    case APM_FN_DISCONNECT:
        handle_5304(sim, r);
        break;
    case APM_FN_SET_POWER_STATE:
        handle_5307(sim, r);
        break;
    case APM_FN_ENABLE_PM:
        handle_enable(sim, false, r);
        break;
    case APM_FN_GET_POWER_STATUS:
        handle_530A(sim, r);
        break;
    case APM_FN_GET_PM_EVENT:
        handle_530B(r);
        break;
    case APM_FN_GET_POWER_STATE:
    case APM_FN_ENABLE_DEVICE_PM:
        if (is_1_1(sim))
            handle_device_state(sim, fn == APM_FN_ENABLE_DEVICE_PM, r);
        else
            unknown(r);
        break;
    case APM_FN_DRIVER_VERSION:
        if (is_1_1(sim))
            handle_530E(sim, r);
        else
            unknown(r);
        break;
    case APM_FN_ENGAGE_PM:
        if (is_1_1(sim))
            handle_enable(sim, true, r);
        else
            unknown(r);
        break;
    case APM_FN_GET_CAPABILITIES:
        if (sim->version >= APM_V1_2)
            handle_5310(sim, r);
        else
            unknown(r);
        break;
    case APM_FN_RESUME_TIMER:
        if (sim->version >= APM_V1_2)
            handle_5311(sim, r);
        else
            unknown(r);
        break;
    default:
        unknown(r);
        break;
    }
}

static bool sim_call(const struct apm_port *port, struct biosregs *r, const char **why)
{
    struct simbios *sim = port->ctx;
    enum apm_iface via = (enum apm_iface)(port - sim->port);
    uint8_t fn = r->al;

    if (sim->ncalls < SIM_CALLS_MAX) {
        struct sim_call *c = &sim->calls[sim->ncalls];
        *c = (struct sim_call){ .via = via, .in = *r, .ax = r->ax, .bx = r->bx,
                                .cx = r->cx, .log_before = log_count() };
    }
    sim->ncalls++;
    if (r->ah != APM_AH) {              /* not an APM call: INT 15h's own answer */
        fail(r, APM_ERR_NOT_PRESENT);
        return true;
    }
    if (fn < SIM_FN_MAX)
        sim->fn_calls[fn]++;
    if (sim->port_down[via]) {
        *why = sim->down_why;
        return false;
    }

    const struct sim_force *f = fn < SIM_FN_MAX ? &sim->force[fn] : NULL;
    enum sim_mode mode = f && (!f->times || sim->fn_calls[fn] <= f->times) ? f->mode
                                                                           : SIM_NORMAL;
    switch (mode) {
    case SIM_NORMAL:
        dispatch(sim, via, r);
        break;
    case SIM_ERROR:
        fail(r, f->code);
        break;
    case SIM_SUCCESS:
        ok(r);
        break;
    case SIM_IGNORE:
        break;
    case SIM_NO_CALL:
        *why = sim->down_why;
        return false;
    }
    return true;
}

static bool sim_setup(const struct apm_port *port, const struct apm_pm_info *pm,
                      const char **why)
{
    struct simbios *sim = port->ctx;

    sim->setup_calls++;
    sim->setup_via = (enum apm_iface)(port - sim->port);
    sim->setup_info = *pm;
    if (sim->setup_fail) {
        *why = sim->setup_fail;
        return false;
    }
    return true;
}

/* The rm port's wait(): on the host nothing can switch off, so it records. */
static void sim_wait(const struct apm_port *port, unsigned ms)
{
    struct simbios *sim = port->ctx;
    sim->waited_ms += ms;
    sim->waited_after = (int)sim->ncalls;
}

void sim_init(struct simbios *sim, uint16_t version)
{
    memset(sim, 0, sizeof(*sim));
    sim->version = version;
    sim->signature = SIM_SIGNATURE_PM;
    sim->flags = APM_FLAG_PM16 | APM_FLAG_PM32;
    sim->driver_accept = 0x07;          /* 0100h, 0101h, 0102h */
    sim->driver_refuse_code = APM_ERR_PARAM_RANGE;
    /* SeaBIOS, probed (apm-reference.md). */
    sim->pm32_answer.eax = 0xF000;
    sim->pm32_answer.ebx = 0xD8D1;
    sim->pm32_answer.ecx = 0xF000;
    sim->pm32_answer.edx = 0xF000;
    sim->pm32_answer.esi = 0xFFF0FFF0;
    sim->pm32_answer.edi = 0xFFF0;
    sim->pm16_answer.eax = 0xF000;
    sim->pm16_answer.ebx = 0xD8C5;
    sim->pm16_answer.ecx = 0xF000;
    sim->pm16_answer.esi = 0xFFF0;
    sim->pm16_answer.edi = 0xFFF0;
    sim->status_answer.ebx = 0x01FF;
    sim->status_answer.ecx = 0x80FF;
    sim->status_answer.edx = 0xFFFF;
    sim->down_why = "simulated: the BIOS could not be reached";
    sim->connected = -1;
    sim->waited_after = -1;
    for (int i = 0; i < APM_IFACE_COUNT; i++) {
        sim->port[i] = (struct apm_port){
            .name = port_names[i],
            .call = sim_call,
            .setup = i == APM_IFACE_RM ? NULL : sim_setup,
            .wait = i == APM_IFACE_RM ? sim_wait : NULL,
            .ctx = sim,
        };
    }
}

void sim_ports(struct simbios *sim, struct apm_ports *ports)
{
    for (int i = 0; i < APM_IFACE_COUNT; i++)
        ports->iface[i] = &sim->port[i];
}

void sim_force(struct simbios *sim, uint8_t fn, enum sim_mode mode, uint8_t code,
               unsigned times)
{
    sim->force[fn] = (struct sim_force){ mode, code, times };
}

void sim_force_all(struct simbios *sim, enum sim_mode mode, uint8_t code)
{
    for (unsigned fn = 0; fn < SIM_FN_MAX; fn++)
        sim_force(sim, (uint8_t)fn, mode, code, 0);
}

unsigned sim_count(const struct simbios *sim, uint8_t fn)
{
    return fn < SIM_FN_MAX ? sim->fn_calls[fn] : 0;
}

int sim_index(const struct simbios *sim, uint8_t fn, unsigned n)
{
    unsigned limit = sim->ncalls < SIM_CALLS_MAX ? sim->ncalls : SIM_CALLS_MAX;
    for (unsigned i = 0; i < limit; i++)
        if (sim->calls[i].ax == (APM_AH << 8 | fn) && n-- == 0)
            return (int)i;
    return -1;
}

const struct sim_call *sim_nth(const struct simbios *sim, uint8_t fn, unsigned n)
{
    int i = sim_index(sim, fn, n);
    return i < 0 ? NULL : &sim->calls[i];
}

void sim_print(const struct simbios *sim, FILE *out)
{
    unsigned limit = sim->ncalls < SIM_CALLS_MAX ? sim->ncalls : SIM_CALLS_MAX;
    fprintf(out, "--- simulated BIOS: %u calls ---\n", sim->ncalls);
    for (unsigned i = 0; i < limit; i++) {
        const struct sim_call *c = &sim->calls[i];
        fprintf(out, "%3u: %-4s AX=%04Xh BX=%04Xh CX=%04Xh (after log line %u)\n", i,
                port_names[c->via], c->ax, c->bx, c->cx, c->log_before);
    }
}
