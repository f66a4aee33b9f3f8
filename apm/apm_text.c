/* APM numbers in words: see apm_text.h. The wording follows the specification. */
#include "apm_text.h"
#include "apm_spec.h"
#include "../lib/format.h"

#include <stddef.h>

static const char *const function_names[] = {
    [APM_FN_INSTALL_CHECK] = "installation check",
    [APM_FN_CONNECT_RM] = "real-mode interface connect",
    [APM_FN_CONNECT_PM16] = "16-bit protected-mode interface connect",
    [APM_FN_CONNECT_PM32] = "32-bit protected-mode interface connect",
    [APM_FN_DISCONNECT] = "interface disconnect",
    [APM_FN_CPU_IDLE] = "CPU idle",
    [APM_FN_CPU_BUSY] = "CPU busy",
    [APM_FN_SET_POWER_STATE] = "set power state",
    [APM_FN_ENABLE_PM] = "enable/disable power management",
    [APM_FN_RESTORE_DEFAULTS] = "restore power-on defaults",
    [APM_FN_GET_POWER_STATUS] = "get power status",
    [APM_FN_GET_PM_EVENT] = "get PM event",
    [APM_FN_GET_POWER_STATE] = "get power state",
    [APM_FN_ENABLE_DEVICE_PM] = "enable/disable device power management",
    [APM_FN_DRIVER_VERSION] = "driver version",
    [APM_FN_ENGAGE_PM] = "engage/disengage power management",
    [APM_FN_GET_CAPABILITIES] = "get capabilities",
    [APM_FN_RESUME_TIMER] = "get/set/disable resume timer",
    [APM_FN_RESUME_ON_RING] = "enable/disable resume on ring",
    [APM_FN_TIMER_REQUESTS] = "enable/disable timer-based requests",
};

static const struct {
    uint8_t code;
    const char *text;
} error_texts[] = {
    { APM_ERR_PM_DISABLED, "power management functionality disabled" },
    { APM_ERR_RM_CONNECTED, "real-mode interface connection already established" },
    { APM_ERR_NOT_CONNECTED, "interface not connected" },
    { APM_ERR_RM_NOT_CONNECTED, "real-mode interface not connected" },
    { APM_ERR_PM16_CONNECTED, "16-bit protected-mode interface already established" },
    { APM_ERR_PM16_UNSUPPORTED, "16-bit protected-mode interface not supported" },
    { APM_ERR_PM32_CONNECTED, "32-bit protected-mode interface already established" },
    { APM_ERR_PM32_UNSUPPORTED, "32-bit protected-mode interface not supported" },
    { APM_ERR_BAD_DEVICE, "unrecognized device ID" },
    { APM_ERR_PARAM_RANGE, "parameter value out of range" },
    { APM_ERR_NOT_ENGAGED, "interface not engaged" },
    { APM_ERR_UNSUPPORTED, "function not supported" },
    { APM_ERR_TIMER_DISABLED, "resume timer disabled" },
    { APM_ERR_UNABLE_STATE, "unable to enter requested state" },
    { APM_ERR_NO_EVENTS, "no power management events pending" },
    { APM_ERR_NOT_PRESENT, "APM not present" },
};

const char *apm_function_name(uint8_t fn)
{
    if (fn < sizeof(function_names) / sizeof(function_names[0]) && function_names[fn])
        return function_names[fn];
    return "unknown function";
}

const char *apm_error_text(uint8_t code, char *buf, unsigned size)
{
    for (size_t i = 0; i < sizeof(error_texts) / sizeof(error_texts[0]); i++)
        if (error_texts[i].code == code)
            return error_texts[i].text;
    fmt_snprintf(buf, size, "unknown error %02Xh", code);
    return buf;
}

const char *apm_ac_line_text(uint8_t v)
{
    switch (v) {
    case APM_AC_OFFLINE: return "off-line";
    case APM_AC_ONLINE: return "on-line";
    case APM_AC_BACKUP: return "on backup power";
    case APM_UNKNOWN8: return "unknown";
    default: return "invalid value";
    }
}

const char *apm_battery_status_text(uint8_t v)
{
    switch (v) {
    case 0x00: return "high";
    case 0x01: return "low";
    case 0x02: return "critical";
    case 0x03: return "charging";
    case APM_UNKNOWN8: return "unknown";
    default: return "invalid value";
    }
}

/* Appends the names of the set bits, or `none`, as a comma list. */
static void bits_text(unsigned value, const char *const *names, unsigned count,
                      char *buf, unsigned size)
{
    unsigned n = 0;
    buf[0] = '\0';
    for (unsigned bit = 0; bit < count && n < size; bit++)
        if (value & (1u << bit) && names[bit])
            n += (unsigned)fmt_snprintf(buf + n, size - n, "%s%s", n ? ", " : "", names[bit]);
    if (value >> count && n < size)
        n += (unsigned)fmt_snprintf(buf + n, size - n, "%sreserved bits %Xh", n ? ", " : "",
                                    value >> count << count);
    if (!n)
        fmt_snprintf(buf, size, "none");
}

void apm_flags_text(uint16_t flags, char *buf, unsigned size)
{
    static const char *const names[] = {
        "16-bit PM interface", "32-bit PM interface", "CPU idle slows clock",
        "BIOS PM disabled", "BIOS PM disengaged",
    };
    bits_text(flags, names, 5, buf, size);
}

void apm_battery_flag_text(uint8_t flag, char *buf, unsigned size)
{
    static const char *const names[] = {
        "high", "low", "critical", "charging", 0, 0, 0, "no system battery",
    };
    if (flag == APM_UNKNOWN8) {
        fmt_snprintf(buf, size, "unknown");
        return;
    }
    bits_text(flag, names, 8, buf, size);
}

void apm_capabilities_text(uint16_t caps, char *buf, unsigned size)
{
    static const char *const names[] = {
        "global standby", "global suspend", "resume timer from standby",
        "resume timer from suspend", "resume on ring from standby",
        "resume on ring from suspend", "resume on PCMCIA ring from standby",
        "resume on PCMCIA ring from suspend",
    };
    bits_text(caps, names, 8, buf, size);
}

const char *apm_event_name(uint16_t event)
{
    static const char *const names[] = {
        [0x01] = "system standby request", [0x02] = "system suspend request",
        [0x03] = "normal resume", [0x04] = "critical resume", [0x05] = "battery low",
        [0x06] = "power status change", [0x07] = "update time",
        [0x08] = "critical system suspend", [0x09] = "user system standby request",
        [0x0A] = "user system suspend request", [0x0B] = "system standby resume",
        [0x0C] = "capabilities change",
    };
    return event && event < sizeof(names) / sizeof(names[0]) ? names[event]
                                                             : "unknown event";
}
