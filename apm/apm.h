/* The APM protocol: the calls, in the order a careful driver makes them, written
 * against an abstract call interface (struct apm_port) so the same code talks to the
 * real BIOS in the kernel and to a simulated BIOS in the host unit tests.
 *
 * Every call is announced on the console before it is made (so the last line on a
 * hung machine names the culprit) and its result is printed after, decoded. */
#ifndef APMOFF_APM_H
#define APMOFF_APM_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/biosregs.h"

enum apm_iface {
    APM_IFACE_RM,               /* real-mode INT 15h (trampoline or v86 monitor) */
    APM_IFACE_PM32,             /* 32-bit protected-mode far call */
    APM_IFACE_PM16,             /* 16-bit protected-mode far call */
    APM_IFACE_COUNT,
};

/* What 5302h/5303h returned, as used to build the descriptors. Lengths are already
 * corrected for the quirks (zero or short lengths mean 64 KiB). */
struct apm_pm_info {
    uint16_t code32_seg, code16_seg, data_seg;  /* real-mode segments */
    uint32_t entry;                             /* offset in the code segment */
    uint32_t code32_len, code16_len, data_len;  /* descriptor limits + 1 */
    uint32_t raw_code32_len, raw_code16_len, raw_data_len;  /* as the BIOS said */
};

/* The abstract call interface: one way of reaching the APM BIOS. */
struct apm_port {
    const char *name;           /* as printed: "rm", "pm32", "pm16" */
    /* Makes one call; regs in and out. False when the call could not be made at all,
     * with the reason in *why (the BIOS was not reached or not left cleanly). */
    bool (*call)(const struct apm_port *port, struct biosregs *regs, const char **why);
    /* Protected-mode ports only: prepare the descriptors for a fresh connection. */
    bool (*setup)(const struct apm_port *port, const struct apm_pm_info *pm,
                  const char **why);
    const char *tag;            /* appended to the "powering off via" line, e.g. " (v86)" */
    /* INT 15h port only, may be NULL: waits ms milliseconds with interrupts serviced
     * (the BIOS's own handlers running), after a 5307h "off" that returned. */
    void (*wait)(const struct apm_port *port, unsigned ms);
    /* INT 15h port only, may be NULL: after a 5307h "off" that came back without the
     * power going, whether to make it once more, another way (bioscall=auto: the v86
     * monitor watched that call, and real mode unwatched is the way left); it says
     * why. */
    bool (*again)(const struct apm_port *port);
    void *ctx;
};

/* apm_call() results besides 0 (success) and an error code 01h-FFh from AH. */
#define APM_RESULT_NO_CODE      0x100   /* CF set but AH holds no error code */
#define APM_RESULT_NO_CALL      0x101   /* the port could not make the call */
#define APM_RESULT_INJECTED     0x102   /* a test asked us to fail this step */

/* Steps that inject= can fail without calling the BIOS. */
enum apm_step {
    APM_STEP_CONNECT,
    APM_STEP_OFF,
    APM_STEP_COUNT,
};
#define APM_INJECT_BIT(iface, step) (1u << ((iface) * APM_STEP_COUNT + (step)))

struct apm_power_status {
    uint8_t ac_line, battery_status, battery_flag, life_percent;
    uint16_t life_time;
    uint16_t battery_count;     /* 1.2 only: SI */
};

/* The record of a run, for the machine-readable report. */
#define APM_LOG_MAX 48

struct apm_log_entry {
    const char *port;           /* the port's name */
    uint8_t fn;                 /* AL */
    uint16_t result;            /* 0, an error code, or an APM_RESULT_* value */
};

struct apm_iface_result {
    bool tried;
    bool connected;
    int connect_result;         /* as apm_call() returned it */
    uint16_t conn_version;
    bool have_pm;               /* pm: the segments below are what the connect gave */
    struct apm_pm_info pm;
    bool off_tried;
    bool off_still_on;          /* 5307h returned success, and yet here we are */
    char off_result[64];        /* why the power-off call returned */
};

struct apm_state {
    const struct apm_port *int15;       /* INT 15h: installation check and connects */
    unsigned inject;                    /* APM_INJECT_BIT()s */

    /* installation check */
    bool reached;                       /* the call was made (present or not) */
    bool present;
    uint16_t raw_version;               /* as returned */
    uint16_t version;                   /* after quirks (0.1 is 1.0) */
    bool signature_ok;
    uint16_t flags;

    /* connection */
    bool connected;
    enum apm_iface iface;
    const struct apm_port *port;        /* how calls reach the connected interface */
    uint16_t conn_version;
    struct apm_pm_info pm;

    /* queries */
    bool have_status;
    struct apm_power_status status;
    bool have_caps;
    uint16_t capabilities;
    uint8_t battery_units;

    /* the record */
    unsigned log_count;
    bool log_truncated;
    struct apm_log_entry log[APM_LOG_MAX];
    struct apm_iface_result ifaces[APM_IFACE_COUNT];
};

const char *apm_iface_name(enum apm_iface iface);
/* Every nibble a decimal digit, as APM's BCD versions are. */
bool apm_version_is_bcd(uint16_t v);

void apm_init(struct apm_state *s, const struct apm_port *int15, unsigned inject);

/* One call with the console narration around it. fn goes in AL; the caller sets the
 * other registers (after initregs()). args describes them for the console. */
int apm_call(struct apm_state *s, const struct apm_port *port, uint8_t fn,
             struct biosregs *r, const char *args);

/* Describes a result of apm_call() in words. */
const char *apm_result_text(int result, char *buf, unsigned size);

bool apm_install_check(struct apm_state *s);
/* Room for the reason a connect or a power-off gives: the longest is a v86 monitor's
 * stop with the call it ended ("the call could not be made: v86: BIOS executed HLT
 * with interrupts disabled at F78C:00FD (INT 15h AX=5307h)"). */
#define APM_WHY_MAX 160

/* Disconnects whatever is connected, connects iface through port and negotiates the
 * version (power management is enabled or engaged only when a request needs it).
 * False, after saying why, if the interface could not be connected; why receives a
 * short reason. */
bool apm_connect(struct apm_state *s, enum apm_iface iface, const struct apm_port *port,
                 char *why, unsigned why_size);
void apm_disconnect(struct apm_state *s);
void apm_query(struct apm_state *s);
/* 5307h for the whole system with a state that keeps the machine's contents
 * (standby or suspend); returns apm_call()'s result once the machine runs again.
 * Refused because power management is disabled or disengaged, it enables or engages
 * it and asks once more. */
int apm_set_power_state(struct apm_state *s, uint16_t state);
/* 530Bh: one pending PM event. Returns apm_call()'s result (80h: none pending). */
int apm_get_event(struct apm_state *s, uint16_t *event, uint16_t *info);

/* Whether some interface's 5307h off returned success and the machine stayed on:
 * the case a chipset without soft-off explains. */
bool apm_still_on_after_success(const struct apm_state *s);

/* The final call (with the same one retry). Returns only if the machine is still on,
 * after a grace period when the BIOS said success; why receives the reason. */
void apm_power_off(struct apm_state *s, char *why, unsigned why_size);

#endif
