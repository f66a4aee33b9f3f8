/* Constants of the APM BIOS interface, named after the APM 1.0/1.1/1.2
 * specifications. Every INT 15h APM call is AH=53h, AL=function; success is CF
 * clear, failure CF set with an error code in AH. Versions are BCD, major in the
 * high byte (0102h is 1.2). */
#ifndef APMOFF_APM_SPEC_H
#define APMOFF_APM_SPEC_H

#include "../lib/pc.h"

#define APM_INT                 BIOS_INT_SYSTEM
#define APM_AH                  0x53

enum apm_function {
    APM_FN_INSTALL_CHECK        = 0x00,
    APM_FN_CONNECT_RM           = 0x01,
    APM_FN_CONNECT_PM16         = 0x02,
    APM_FN_CONNECT_PM32         = 0x03,
    APM_FN_DISCONNECT           = 0x04,
    APM_FN_CPU_IDLE             = 0x05,
    APM_FN_CPU_BUSY             = 0x06,
    APM_FN_SET_POWER_STATE      = 0x07,
    APM_FN_ENABLE_PM            = 0x08,
    APM_FN_RESTORE_DEFAULTS     = 0x09,
    APM_FN_GET_POWER_STATUS     = 0x0A,
    APM_FN_GET_PM_EVENT         = 0x0B,
    APM_FN_GET_POWER_STATE      = 0x0C,     /* 1.1 */
    APM_FN_ENABLE_DEVICE_PM     = 0x0D,     /* 1.1 */
    APM_FN_DRIVER_VERSION       = 0x0E,     /* 1.1 */
    APM_FN_ENGAGE_PM            = 0x0F,     /* 1.1 */
    APM_FN_GET_CAPABILITIES     = 0x10,     /* 1.2 */
    APM_FN_RESUME_TIMER         = 0x11,     /* 1.2 */
    APM_FN_RESUME_ON_RING       = 0x12,     /* 1.2 */
    APM_FN_TIMER_REQUESTS       = 0x13,     /* 1.2 */
};

/* Power device IDs (BX). */
#define APM_DEVICE_BIOS         0x0000  /* the APM BIOS itself */
#define APM_DEVICE_ALL          0x0001  /* all devices power-managed by the BIOS */
#define APM_DEVICE_OLD_ALL      0xFFFF  /* the same, as APM 1.0 spelt it for 5308h/530Fh */
#define APM_DEVICE_BATTERY(n)   (0x8000 | (n))      /* 1.2 */

/* Power states (CX of 5307h). */
#define APM_STATE_READY         0x0000
#define APM_STATE_STANDBY       0x0001
#define APM_STATE_SUSPEND       0x0002
#define APM_STATE_OFF           0x0003

/* Installation check flags (CX of 5300h). */
#define APM_FLAG_PM16           0x0001  /* 16-bit protected-mode interface supported */
#define APM_FLAG_PM32           0x0002  /* 32-bit protected-mode interface supported */
#define APM_FLAG_IDLE_SLOWS_CLOCK 0x0004
#define APM_FLAG_PM_DISABLED    0x0008
#define APM_FLAG_PM_DISENGAGED  0x0010  /* 1.1 */
#define APM_FLAGS_DEFINED       0x001F

/* 5310h capability flags (CX, APM 1.2): what the BIOS can do and what wakes it. */
#define APM_CAP_GLOBAL_STANDBY  0x0001
#define APM_CAP_GLOBAL_SUSPEND  0x0002
#define APM_CAP_TIMER_STANDBY   0x0004  /* the resume timer wakes it from standby */
#define APM_CAP_TIMER_SUSPEND   0x0008  /* ... from suspend */
#define APM_CAP_RING_STANDBY    0x0010  /* resume on ring indicator, from standby */
#define APM_CAP_RING_SUSPEND    0x0020  /* ... from suspend */

/* 5311h get/set/disable resume timer (1.2): CL. The time is BCD, CH seconds, DL
 * minutes, DH hours, SI month (high byte) and day (low), DI the year. */
#define APM_RESUME_TIMER_DISABLE 0x00
#define APM_RESUME_TIMER_GET    0x01
#define APM_RESUME_TIMER_SET    0x02

/* Error codes (AH when CF is set). */
enum apm_error {
    APM_ERR_PM_DISABLED         = 0x01,
    APM_ERR_RM_CONNECTED        = 0x02,
    APM_ERR_NOT_CONNECTED       = 0x03,
    APM_ERR_RM_NOT_CONNECTED    = 0x04,
    APM_ERR_PM16_CONNECTED      = 0x05,
    APM_ERR_PM16_UNSUPPORTED    = 0x06,
    APM_ERR_PM32_CONNECTED      = 0x07,
    APM_ERR_PM32_UNSUPPORTED    = 0x08,
    APM_ERR_BAD_DEVICE          = 0x09,
    APM_ERR_PARAM_RANGE         = 0x0A,
    APM_ERR_NOT_ENGAGED         = 0x0B,
    APM_ERR_UNSUPPORTED         = 0x0C,
    APM_ERR_TIMER_DISABLED      = 0x0D,
    APM_ERR_UNABLE_STATE        = 0x60,
    APM_ERR_NO_EVENTS           = 0x80,
    APM_ERR_NOT_PRESENT         = 0x86,
};

/* 530Ah answers. */
#define APM_AC_OFFLINE          0x00
#define APM_AC_ONLINE           0x01
#define APM_AC_BACKUP           0x02
#define APM_UNKNOWN8            0xFF
#define APM_UNKNOWN16           0xFFFF
#define APM_BATTERY_FLAG_NONE   0x80    /* no system battery */
#define APM_LIFE_MINUTES        0x8000  /* DX bit 15: minutes, else seconds */

#define APM_SIGNATURE_P         'P'
#define APM_SIGNATURE_M         'M'

#define APM_VERSION(major, minor) (((major) << 8) | (minor))
#define APM_V1_0                APM_VERSION(1, 0)
#define APM_V1_1                APM_VERSION(1, 1)
#define APM_V1_2                APM_VERSION(1, 2)
#define APM_DRIVER_VERSION      APM_V1_2        /* the newest we speak */

#endif
