/* A simulated APM BIOS for the host unit tests, reached through the same abstract
 * call interface (struct apm_port) as the real one, for the "rm", "pm32" and "pm16"
 * ports.
 *
 * By default it behaves like a careful reading of the APM 1.2 specification with
 * SeaBIOS' register answers: it tracks the connection (connect while connected
 * fails with the error naming the connected interface, calls need a connection made
 * through the same port), resets the connection to 1.0 on connect until 530Eh, and
 * rejects the device IDs the connection version does not use. Everything a real BIOS
 * gets wrong can be switched on per test: versions, signature, flags, flags that
 * change after a protected-mode connect, 530Eh refusals, forced results for any
 * function, a BIOS that touches nothing, a port that cannot make calls.
 *
 * Power-off (5307h BX=0001h CX=0003h) "succeeds" by setting powered_off and
 * returning with CF clear: on the host nothing switches off, so the code under test
 * sees the call return, which is what it must report as a failure.
 *
 * Every call is recorded (registers in, port, console lines said before it) so a
 * test can assert the sequence. */
#ifndef APMOFF_TESTS_SIMBIOS_H
#define APMOFF_TESTS_SIMBIOS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../apm/apm.h"
#include "../../apm/poweroff.h"

#define SIM_FN_MAX      0x20    /* AL values the simulation knows: 00h-1Fh */
#define SIM_CALLS_MAX   256

/* What a function does when forced (sim_force()). */
enum sim_mode {
    SIM_NORMAL,         /* the simulated BIOS's own behaviour */
    SIM_ERROR,          /* CF set, AH = code: any byte, 53h/00h and unknown ones too */
    SIM_SUCCESS,        /* CF clear, nothing else touched */
    SIM_IGNORE,         /* touches no register at all, CF included ("does nothing") */
    SIM_NO_CALL,        /* the port cannot make the call: call() returns false */
};

struct sim_force {
    enum sim_mode mode;
    uint8_t code;               /* AH for SIM_ERROR */
    unsigned times;             /* the first `times` calls of the function; 0: all */
};

struct sim_call {
    enum apm_iface via;         /* the port that carried the call */
    struct biosregs in;         /* registers as the code under test passed them */
    uint16_t ax, bx, cx;        /* shortcuts into `in` */
    unsigned log_before;        /* console lines said before the call was made */
};

struct simbios {
    /* --- configuration: set after sim_init(), before the code runs --------------- */
    uint16_t version;           /* 5300h AX: 0102h, 0001h (Compaq), 01ABh ... */
    uint16_t signature;         /* 5300h BX: 504Dh ('P','M') or anything else */
    uint16_t flags;             /* 5300h CX */
    bool flags_change_on_pm;    /* 5300h answers flags_after_pm once a PM connect */
    uint16_t flags_after_pm;    /* has succeeded */
    bool lax;                   /* SeaBIOS-like: no connection state, any device ID */
    uint8_t driver_accept;      /* 530Eh accepts CX=010nh when bit n is set */
    uint8_t driver_refuse_code; /* AH when 530Eh refuses */
    uint16_t driver_answer;     /* 530Eh AX; 0: min(asked, version) */
    uint16_t driver_answer_too_new; /* 530Eh AX when asked above `version` (FreeBSD
                                   saw a 1.1 BIOS answer a 1.2 request with 1.0) */
    bool honours_pm_state;      /* 5307h fails 01h while flags say disabled and no
                                   5308h enabled it, 0Bh while disengaged (530Fh) */
    struct biosregs pm32_answer;/* 5303h: eax, ebx, ecx, edx, esi, edi out */
    struct biosregs pm16_answer;/* 5302h: eax, ebx, ecx, esi, edi out */
    struct biosregs status_answer;  /* 530Ah: ebx, ecx, edx, esi out */
    uint8_t battery_units;      /* 5310h BL */
    uint16_t capabilities;      /* 5310h CX */
    struct sim_force force[SIM_FN_MAX];
    bool port_down[APM_IFACE_COUNT];    /* every call through that port fails */
    const char *down_why;       /* the reason a failed call gives */
    const char *setup_fail;     /* PM setup() fails with this reason when set */

    /* --- state, for the assertions ------------------------------------------------ */
    int connected;              /* an enum apm_iface, or -1 */
    uint16_t conn_version;
    bool pm_connected_once;
    bool pm_enabled, pm_engaged;
    bool powered_off;           /* 5307h BX=0001h CX=0003h arrived */
    unsigned waited_ms;         /* what the rm port's wait() was asked for */
    int waited_after;           /* calls[] made before the last wait(), or -1 */
    unsigned fn_calls[SIM_FN_MAX];
    unsigned ncalls;
    struct sim_call calls[SIM_CALLS_MAX];
    bool timer_set;             /* 5311h: a resume timer set, and its registers */
    struct biosregs timer;
    unsigned setup_calls;
    enum apm_iface setup_via;
    struct apm_pm_info setup_info;  /* what the last setup() received */

    struct apm_port port[APM_IFACE_COUNT];
};

#define SIM_SIGNATURE_PM        0x504D

/* A 1.2 BIOS offering both PM interfaces (flags 0003h), SeaBIOS' answers. */
void sim_init(struct simbios *sim, uint16_t version);
/* All three ports into ports. */
void sim_ports(struct simbios *sim, struct apm_ports *ports);
void sim_force(struct simbios *sim, uint8_t fn, enum sim_mode mode, uint8_t code,
               unsigned times);
/* Forces every function (a BIOS that does nothing, or cannot be reached). */
void sim_force_all(struct simbios *sim, enum sim_mode mode, uint8_t code);

/* Calls of function fn (AL) received. */
unsigned sim_count(const struct simbios *sim, uint8_t fn);
/* Index in calls[] of the n-th (from 0) call of fn, or -1. */
int sim_index(const struct simbios *sim, uint8_t fn, unsigned n);
/* The n-th call of fn, or NULL. */
const struct sim_call *sim_nth(const struct simbios *sim, uint8_t fn, unsigned n);
/* The calls received, one a line, for a failing test. */
void sim_print(const struct simbios *sim, FILE *out);

#endif
