; An APM BIOS that behaves like the 1990s ones apmoff meets, as a QEMU option ROM.
;
; SeaBIOS runs this ROM at POST (QEMU -option-rom FILE). Its init hooks INT 15h:
; AH=53h is answered here, by a small APM BIOS of our own with real-mode, 16-bit and
; 32-bit protected-mode entry points; everything else goes on to SeaBIOS. One source,
; one behaviour per build: tests/biosrom/build.py assembles it once per BEHAVIOUR
; (below) and fixes the size byte and the checksum. docs/real-bioses.md's "Real 1990s BIOSes"
; section says which case runs which ROM and what each proves.
;
; Verdicts the emulator sees: power-off by the ACPI PM1a write SeaBIOS itself uses
; for 5307h (QMP SHUTDOWN guest-shutdown), or, when a call arrives that this BIOS
; must not get, a code written to isa-debug-exit (port F4h; QEMU's status is
; code * 2 + 1): EXIT_* below.
;
; State lives at 40:F0h (the BDA's intra-application area, 0:04F0h), which both
; modes reach through 40h: segment 40h in real mode, and in protected mode selector
; 40h, which apmoff maps at 400h as Linux does for BIOSes that load it.

%include "apm.inc"

%assign BEH_PLAIN    0          ; APM 1.2 that does what it should
%assign BEH_EBDA     1          ; takes 16 KiB below 640 KiB; E820 still says 0-9FC00h (item 1)
%assign BEH_NOCF     2          ; PM entries touch CF only to fail; disengaged at boot (item 2)
%assign BEH_VER11    3          ; APM 1.1: a 1.2 request gets 1.0; off refused on 1.0 (item 3)
%assign BEH_TICKPOLL 4          ; 5307h off waits, IF on, for the tick count to move (item 4)
%assign BEH_HANG     5          ; real-mode 5307h never returns (item 4)
%assign BEH_NMI      6          ; real-mode 5307h takes 3 s, for an NMI to land in (item 4)
%assign BEH_ENABLE   7          ; PM disabled at boot; 5308h/530Fh before 5307h "hangs" (item 5)
%assign BEH_OFFONLY  8          ; any call power-off does not need is an error (item 6)
%assign BEH_LATE     9          ; 5307h returns success, the power goes 1 s later (item 7)
%assign BEH_WBINVD   10         ; 5307h runs WBINVD and INVD; no PM interface (item 8)
%assign BEH_AWARD    11         ; Award-like: loose 5307h, zero PM lengths, data F940h (item 9)
%assign BEH_DATASEG  12         ; PM data segment in memory INT 12h calls free (item 1)
%assign BEH_RESUME   13         ; standby/suspend return only when a key is pressed (item 4)
; The windows an emulator never opens (tests/emu/cases_windows.py):
%assign BEH_PMIRQ    14         ; PM 5307h off lets IRQ 1 through and a key comes (item 1)
%assign BEH_A20PM    15         ; PM standby/suspend return with A20 off (item 3)
%assign BEH_HMA      16         ; data segment F940h, no lengths, filled at connect (item 4)
%assign BEH_SLOWOFF  17         ; real-mode 5307h off takes 8 s; a second off is an error (item 5)
%assign BEH_V86PRIV  18         ; the INT 15h dispatcher reads CR0 (item 7)
%assign BEH_IRETCF   19         ; real-mode success by IRET, CF as the caller had it (item 8)
%assign BEH_DISENGAGED 20       ; disengaged at boot; off refused with 60h until engaged (item 9)
%assign BEH_SS16     21         ; pm32 entry takes its data segment as stack, sets SP only (item 10)
%assign BEH_A20STI   22         ; calls leave A20 off; INT 15h AX=2401h returns with IF=1 (item 2)
%assign BEH_MCA      23         ; INT 15h AH=C0h says Micro Channel: level-triggered IRQs (item 6)
%assign BEH_PMINT    24         ; PM 5307h off executes INT 1Ah, as real-mode code would
%assign BEH_A20GATES 25         ; real-mode 5307h off turns A20 off through DDh and port EEh
%assign BEH_DSDATA   26         ; PM entries take DS and ES as handed, for their data segment
; Waking by time (wake=):
%assign BEH_TIMER    27         ; APM 1.2's resume timer (5310h says so, 5311h sets it):
                                ; standby and suspend end when the clock reaches it
%assign BEH_HALTOFF  29         ; real-mode 5307h off halts the CPU with interrupts off, as a
                                   ; BIOS that believes the power is already gone
%assign BEH_V86OFF   30         ; real-mode 5307h off returns success with the power on
                                ; when SMSW says protected mode (under a v86 monitor)
%assign BEH_CAPHANG  31         ; real-mode 5310h never returns: CLI and a loop, as a
                                ; survey call on 86Box's LG IBM Multinet x61
%assign BEH_ALARM    28         ; no resume timer; standby and suspend end at the clock's
                                ; alarm (INT 4Ah, or AF in register C), as a BIOS whose
                                ; setup has resume on alarm

%ifndef BEHAVIOUR
  %assign BEHAVIOUR BEH_PLAIN
%endif

BDA_SEG         equ 0x40        ; segment in real mode, selector in protected mode
BDA_EBDA        equ 0x0E        ; word: EBDA segment
BDA_MEM_KB      equ 0x13        ; word: conventional memory in KiB (INT 12h)
BDA_TICKS       equ 0x6C        ; dword: timer ticks since midnight
BDA_KBD_TAIL    equ 0x1C        ; word: where the keyboard handler puts the next key
S_FLAGS         equ 0xF0        ; byte: F_* below
S_CONNVER       equ 0xF1        ; byte: the connection's minor version (530Eh)
S_MODE          equ 0xF2        ; byte: MODE_* of the call in progress
S_DEADLINE      equ 0xF4        ; word: tick at which BEH_LATE powers off
S_AREA          equ 0xF6        ; word: BEH_EBDA's area, segment
S_AREA_WORDS    equ 0xF8        ; word: and length in words
S_SAVED_ESP     equ 0xFA        ; dword: BEH_SS16, the caller's ESP ...
S_SAVED_SS      equ 0xFE        ; word: ... and SS
F_ENGAGED       equ 0x01
F_SEEN07        equ 0x02
F_ARMED         equ 0x04
F_CONNECTED     equ 0x08
F_ENABLED       equ 0x10
F_DATA_SET      equ 0x20
F_TIMER_SET     equ 0x40            ; BEH_TIMER: 5311h set a resume time
F_ALARM_RANG    equ 0x80            ; BEH_ALARM: INT 4Ah came
S_TIMER_SEC     equ 0xF4            ; BEH_TIMER: the resume time, BCD as 5311h gave it
S_TIMER_MIN     equ 0xF5
S_TIMER_HOUR    equ 0xF6
S_TIMER_DATE    equ 0xF8            ; word: SI (month, day)
S_TIMER_YEAR    equ 0xFA            ; word: DI
MODE_RM         equ 0
MODE_PM         equ 1

ACPI_PM1A_CNT   equ 0x604       ; QEMU pc (PIIX4) and q35 (ICH9): what SeaBIOS writes
ACPI_SLP_EN     equ 0x2000      ; SLP_EN with SLP_TYP 0: S5 on QEMU
DEBUG_EXIT      equ 0xF4        ; isa-debug-exit
CMOS_INDEX      equ 0x70
CMOS_DATA       equ 0x71
RTC_SECONDS     equ 0x00
RTC_MINUTES     equ 0x02
RTC_HOURS       equ 0x04
RTC_STATUS_A    equ 0x0A
RTC_STATUS_C    equ 0x0C
RTC_A_UIP       equ 0x80
RTC_C_AF        equ 0x20
INT_USER_ALARM  equ 0x4A        ; what the BIOS's IRQ 8 handler calls at the alarm

EXIT_AREA_WRITTEN equ 0x21      ; BEH_EBDA: someone wrote into the memory INT 12h excludes
EXIT_ENABLE_FIRST equ 0x25      ; BEH_ENABLE: 5308h/530Fh before any 5307h
EXIT_NOT_NEEDED   equ 0x26      ; BEH_OFFONLY: a call power-off does not need
EXIT_DATA_WRITTEN equ 0x27      ; BEH_DATASEG: our data segment changed between calls
EXIT_OFF_TWICE    equ 0x28      ; BEH_SLOWOFF: off asked again while going down
EXIT_STACK_ESP    equ 0x29      ; BEH_SS16: its stack was addressed with ESP, not SP
EXIT_A20_LEFT_OFF equ 0x2A      ; BEH_A20PM: the next call came with A20 still off
EXIT_DS_NOT_DATA  equ 0x2B      ; BEH_DSDATA: DS or ES was not our data selector
STACK_MARK        equ 0x5A5AA5A5

PIC_MASTER_IMR  equ 0x21
IRQ1_BIT        equ 0x02
KBC_DATA        equ 0x60
KBC_CTRL        equ 0x64
KBC_IN_FULL     equ 0x02
KBC_WRITE_OBUF  equ 0xD2        ; the next data byte appears as if the keyboard sent it
SCAN_ENTER      equ 0x1C
PORT_A          equ 0x92
PORT_A_A20      equ 0x02
HMA_FILL        equ 0xCCCC      ; INT3: code that runs it stops at once, visibly
A20_ENABLE      equ 0x2401      ; INT 15h AX=2401h
KBC_A20_OFF     equ 0xDD
PORT_EE         equ 0xEE
SYSCONF_AH      equ 0xC0        ; INT 15h AH=C0h: system configuration table
PIT_CH0         equ 0x40
PIT_COMMAND     equ 0x43
PIT_CH0_ONESHOT equ 0x30        ; channel 0, low then high byte, mode 0
PIT_CH0_SQUARE  equ 0x36        ; channel 0, low then high byte, mode 3
%ifndef STI_TICKS
STI_TICKS       equ 5
%endif
SS16_SP         equ 0x7000      ; BEH_SS16: the stack at data:7000h (7400h, below 7C00h)

TAKE_KB         equ 16          ; BEH_EBDA: 639 KiB -> 623 KiB
AREA_PATTERN    equ 0xA55A
DATA_PARAS      equ 0x100       ; BEH_DATASEG: 4 KiB, just below the top INT 12h gives
DATA_PATTERN    equ 0x5AA5
POLL_TICKS      equ 3           ; BEH_TICKPOLL: about 160 ms
SLOW_TICKS      equ 146         ; BEH_SLOWOFF: about 8 s, disks spinning down
NMI_WAIT_TICKS  equ 55          ; BEH_NMI: about 3 s
LATE_TICKS      equ 18          ; BEH_LATE: about 1 s

%if BEHAVIOUR == BEH_VER11
BIOS_VERSION    equ APM_V1_1
%else
BIOS_VERSION    equ APM_V1_2
%endif
%if BEHAVIOUR == BEH_WBINVD
INSTALL_FLAGS   equ 0
%elif BEHAVIOUR == BEH_NOCF || BEHAVIOUR == BEH_DISENGAGED
INSTALL_FLAGS   equ APM_FLAG_PM16 | APM_FLAG_PM32 | APM_FLAG_PM_DISENGAGED
%elif BEHAVIOUR == BEH_ENABLE
INSTALL_FLAGS   equ APM_FLAG_PM16 | APM_FLAG_PM32 | APM_FLAG_PM_DISABLED
%else
INSTALL_FLAGS   equ APM_FLAG_PM16 | APM_FLAG_PM32
%endif
%if BEHAVIOUR == BEH_AWARD || BEHAVIOUR == BEH_HMA
PM_DATA_SEG     equ 0xF940      ; as eight Award BIOSes answer, with no lengths
PM_LEN          equ 0
%else
PM_DATA_SEG     equ BDA_SEG
PM_LEN          equ 0xFFF0
%endif
%if BEHAVIOUR == BEH_NOCF || BEHAVIOUR == BEH_DISENGAGED
INIT_FLAGS      equ 0
%elif BEHAVIOUR == BEH_ENABLE
INIT_FLAGS      equ F_ENGAGED
%else
INIT_FLAGS      equ F_ENGAGED
%endif

        cpu     486
        bits    16
        org     0

rom_header:
        db      0x55, 0xAA
        db      0                       ; size in 512-byte blocks: build.py
        jmp     near init               ; SeaBIOS far-calls offset 3 at POST
        times   0x18 - ($ - $$) db 0
        dw      0                       ; no PCI data structure
        dw      0                       ; no PnP header
old15:  dd      0                       ; written at init, while the ROM is RAM
old1c:  dd      0
old4a:  dd      0

; --- POST ----------------------------------------------------------------------

init:
        pushad
        push    ds
        push    es
        xor     ax, ax
        mov     ds, ax
        mov     eax, [APM_INT * 4]
        mov     [cs:old15], eax
        mov     word [APM_INT * 4], int15
        mov     [APM_INT * 4 + 2], cs
%if BEHAVIOUR == BEH_LATE || BEHAVIOUR == BEH_IRETCF
        mov     eax, [0x1C * 4]
        mov     [cs:old1c], eax
        mov     word [0x1C * 4], int1c
        mov     [0x1C * 4 + 2], cs
%endif
%if BEHAVIOUR == BEH_ALARM
        mov     eax, [INT_USER_ALARM * 4]
        mov     [cs:old4a], eax
        mov     word [INT_USER_ALARM * 4], int4a
        mov     [INT_USER_ALARM * 4 + 2], cs
%endif
        mov     ax, BDA_SEG
        mov     ds, ax
        mov     byte [S_FLAGS], INIT_FLAGS
        mov     byte [S_CONNVER], 0
%if BEHAVIOUR == BEH_EBDA
        call    take_memory
%endif
        pop     es
        pop     ds
        popad
        retf

%if BEHAVIOUR == BEH_EBDA
; Takes conventional memory as an option ROM with a work area does: 40:13h drops by
; TAKE_KB, the EBDA moves down below the area (40:0Eh follows it), and the area is
; filled with a pattern that power-off checks. DS = 40h.
take_memory:
        mov     ax, [BDA_MEM_KB]
        sub     ax, TAKE_KB
        mov     [BDA_MEM_KB], ax
        shl     ax, 6                   ; KiB to paragraphs: the new EBDA
        mov     es, ax
        push    ds
        mov     ds, [BDA_EBDA]
        xor     si, si
        xor     di, di
        movzx   cx, byte [0]            ; the EBDA's size in KiB
        shl     cx, 9                   ; in words
        cld
        rep movsw
        pop     ds
        mov     [BDA_EBDA], es
        movzx   ax, byte [es:0]
        shl     ax, 6
        mov     bx, es
        add     ax, bx                  ; the area: from the EBDA's end to A0000h
        mov     [S_AREA], ax
        mov     es, ax
        mov     cx, 0xA000
        sub     cx, ax
        shl     cx, 3
        mov     [S_AREA_WORDS], cx
        xor     di, di
        mov     ax, AREA_PATTERN
        rep stosw
        ret

; Real mode, DS = 40h: the area must hold its pattern still.
check_memory:
        push    es
        mov     es, [S_AREA]
        mov     cx, [S_AREA_WORDS]
        xor     di, di
        mov     ax, AREA_PATTERN
        cld
        repe scasw
        pop     es
        je      .ok
        mov     al, EXIT_AREA_WRITTEN
        jmp     fail_exit
.ok:
        ret
%endif

; --- real mode -----------------------------------------------------------------

int15:
        cmp     ah, APM_AH
        je      apm_rm
%if BEHAVIOUR == BEH_A20STI
        cmp     ax, A20_ENABLE
        je      a20_enable_sti
%endif
%if BEHAVIOUR == BEH_MCA
        cmp     ah, SYSCONF_AH
        je      sysconf
%endif
%if BEHAVIOUR == BEH_EBDA
        cmp     eax, 0xE820
        je      e820
%endif
        jmp     far [cs:old15]

%if BEHAVIOUR == BEH_EBDA
; SeaBIOS answers; an available first entry from 0 goes on saying 0-9FC00h, as many
; BIOSes' E820 does whatever INT 12h says.
e820:
        pushf
        call    far [cs:old15]
        pushf
        jc      .done
        cmp     dword [es:di], 0
        jne     .done
        cmp     dword [es:di + 4], 0
        jne     .done
        cmp     dword [es:di + 16], 1
        jne     .done
        mov     dword [es:di + 8], 0x9FC00
        mov     dword [es:di + 12], 0
.done:
        popf
        retf    2
%endif

apm_rm:
%if BEHAVIOUR == BEH_A20STI
        call    pit_restore
%endif
%if BEHAVIOUR == BEH_A20PM
        call    a20_must_be_on
%endif
%if BEHAVIOUR == BEH_V86PRIV
        push    eax                     ; "am I in protected mode?", as some dispatchers
        mov     eax, cr0                ; ask: privileged under a v86 monitor
        pop     eax
%endif
        push    ds
        push    word BDA_SEG
        pop     ds
        mov     byte [S_MODE], MODE_RM
        pop     ds
        call    core
%if BEHAVIOUR == BEH_A20STI
        pushf                           ; every real-mode call comes back with A20 off,
        push    ax                      ; for the caller's check to turn it on
        in      al, PORT_A
        and     al, ~PORT_A_A20
        out     PORT_A, al
        pop     ax
        popf
%endif
%if BEHAVIOUR == BEH_IRETCF
        jc      .failed
        iret                            ; success: CF and IF as the caller had them
.failed:
%endif
        retf    2                       ; our flags, CF the answer

%if BEHAVIOUR == BEH_LATE || BEHAVIOUR == BEH_IRETCF
; The timer's user hook: once 5307h has been armed, power off at the deadline.
int1c:
        push    ds
        push    ax
        push    word BDA_SEG
        pop     ds
        test    byte [S_FLAGS], F_ARMED
        jz      .chain
        mov     ax, [BDA_TICKS]
        sub     ax, [S_DEADLINE]
        js      .chain
        jmp     power_off
.chain:
        pop     ax
        pop     ds
        jmp     far [cs:old1c]
%endif

%if BEHAVIOUR == BEH_ALARM
; The user alarm hook, which SeaBIOS's IRQ 8 handler calls when the alarm rings.
int4a:
        push    ds
        push    word BDA_SEG
        pop     ds
        or      byte [S_FLAGS], F_ALARM_RANG
        pop     ds
        jmp     far [cs:old4a]
%endif

; --- protected mode ------------------------------------------------------------

        bits    32
; 32-bit entry: on into the 16-bit code segment, which the spec puts right after
; the 32-bit one, and back to the 32-bit caller with a 32-bit far return. No flag
; changes on the way (LEA, not ADD): the caller's CF must reach pm_call.
pm32_entry:
%if BEHAVIOUR == BEH_SS16
        ; RBIL's 5303h: the data segment is 16-bit. This BIOS runs on it as a stack and
        ; sets SP alone; with a 32-bit (B=1) descriptor the CPU uses ESP, whose high
        ; half is still the caller's, and the first push faults.
        push    ds
        push    eax
        mov     ax, cs
        lea     eax, [eax + 16]         ; the data selector follows the two code ones
        mov     ds, ax
        mov     [S_SAVED_ESP], esp
        mov     [S_SAVED_SS], ss
        mov     ss, ax
        mov     sp, SS16_SP
        mov     dword [SS16_SP - 4], 0
        push    dword STACK_MARK        ; the first push on its own stack: there?
        cmp     dword [SS16_SP - 4], STACK_MARK
        pop     eax
        je      .stack_ok
        mov     al, EXIT_STACK_ESP      ; ESP's high half sent it elsewhere (QEMU does
        out     DEBUG_EXIT, al          ; not check the limit, a 386 faults)
        jmp     $
.stack_ok:
        lss     esp, [S_SAVED_ESP]
        pop     eax
        pop     ds
%endif
        push    dword 0
        push    eax
        mov     ax, cs
        movzx   eax, ax
        lea     eax, [eax + 8]
        mov     [esp + 4], eax
        pop     eax
        push    dword pm32_in16
        retf
        bits    16
pm32_in16:
        call    pm_call
        o32 retf

pm16_entry:
        call    pm_call
        retf

pm_call:
%if BEHAVIOUR == BEH_DSDATA
        call    ds_guard
%endif
        push    ds
        push    word BDA_SEG
        pop     ds
        mov     byte [S_MODE], MODE_PM
        pop     ds
%if BEHAVIOUR == BEH_DATASEG
        call    data_guard
%endif
%if BEHAVIOUR == BEH_NOCF
        ; A jump-table BIOS: CF is set to fail and otherwise left as the caller had it.
        pushf
        call    core
        jc      .failed
        popf
        ret
.failed:
        add     esp, 2
        stc
        ret
%else
        jmp     core
%endif

; --- the functions -------------------------------------------------------------

; AL = function, registers as the APM specification has them; out: CF and AH (the
; error) as it has them. Preserves DS.
core:
        push    ds
        push    word BDA_SEG
        pop     ds
        call    dispatch
        pop     ds
        ret

dispatch:
        cmp     al, APM_FN_RESUME_TIMER
        ja      err_unsupported
        push    si
        movzx   si, al
        add     si, si
        mov     si, [cs:fn_table + si]
        xchg    si, [esp]
        ret

fn_table:
        dw      fn_install, fn_connect_rm, fn_connect_pm16, fn_connect_pm32
        dw      fn_disconnect, fn_cpu_idle, ok, fn_set_state
        dw      fn_enable, fn_not_needed, fn_power_status, fn_pm_event
        dw      fn_not_needed, fn_not_needed, fn_driver_version, fn_engage
        dw      fn_capabilities, fn_resume_timer

ok:
        clc
        ret
err_unsupported:
        mov     ah, APM_ERR_UNSUPPORTED
        stc
        ret
err_param_range:
        mov     ah, APM_ERR_PARAM_RANGE
        stc
        ret

fn_install:
        mov     ax, BIOS_VERSION
        mov     bx, 'MP'                ; BH = 'P', BL = 'M'
        mov     cx, INSTALL_FLAGS
        jmp     ok

fn_connect_rm:
%if BEHAVIOUR == BEH_HMA
        call    fill_data_area
%endif
        or      byte [S_FLAGS], F_CONNECTED
        mov     byte [S_CONNVER], 0     ; a new connection speaks 1.0
        jmp     ok

fn_connect_pm16:
%if BEHAVIOUR == BEH_HMA
        call    fill_data_area
%endif
        or      byte [S_FLAGS], F_CONNECTED
        mov     byte [S_CONNVER], 0
        call    data_segment
        mov     cx, ax
        mov     ax, cs
        mov     bx, pm16_entry
        mov     si, PM_LEN
        jmp     ok

fn_connect_pm32:
%if BEHAVIOUR == BEH_HMA
        call    fill_data_area
%endif
        or      byte [S_FLAGS], F_CONNECTED
        mov     byte [S_CONNVER], 0
        call    data_segment
        mov     dx, ax
        mov     ax, cs
        mov     ebx, pm32_entry
        mov     cx, cs
        mov     esi, PM_LEN * 0x10001
        jmp     ok

fn_disconnect:
        and     byte [S_FLAGS], ~F_CONNECTED
        jmp     ok

fn_cpu_idle:
        sti
        hlt
        jmp     ok

fn_not_needed:
%if BEHAVIOUR == BEH_OFFONLY
        mov     al, EXIT_NOT_NEEDED
        jmp     fail_exit
%else
        jmp     ok
%endif

fn_enable:
fn_engage:
%if BEHAVIOUR == BEH_ENABLE
        test    byte [S_FLAGS], F_SEEN07
        jnz     .allowed
        mov     al, EXIT_ENABLE_FIRST   ; what a BIOS that hangs here would do, said
        jmp     fail_exit
.allowed:
%endif
%if BEHAVIOUR == BEH_OFFONLY
        jmp     fn_not_needed
%endif
        cmp     al, APM_FN_ENABLE_PM
        jne     .engage
        or      byte [S_FLAGS], F_ENABLED
        jmp     ok
.engage:
        or      byte [S_FLAGS], F_ENGAGED
        jmp     ok

fn_power_status:
%if BEHAVIOUR == BEH_OFFONLY
        jmp     fn_not_needed
%endif
        mov     bx, APM_AC_ONLINE << 8 | APM_UNKNOWN8
        mov     cx, APM_BATTERY_FLAG_NONE << 8 | APM_UNKNOWN8
        mov     dx, APM_UNKNOWN16
        jmp     ok

fn_pm_event:
%if BEHAVIOUR == BEH_OFFONLY
        jmp     fn_not_needed
%endif
        mov     ah, APM_ERR_NOT_CONNECTED
        test    byte [S_FLAGS], F_CONNECTED
        jz      .fail
        mov     ah, APM_ERR_NO_EVENTS
.fail:
        stc
        ret

fn_capabilities:
%if BEHAVIOUR == BEH_OFFONLY
        jmp     fn_not_needed
%endif
%if BEHAVIOUR == BEH_CAPHANG
        cmp     byte [S_MODE], MODE_RM
        jne     .answer
        cli
.forever:
        jmp     .forever
.answer:
%endif
        xor     bl, bl
%if BEHAVIOUR == BEH_TIMER
        mov     cx, APM_CAP_GLOBAL_STANDBY | APM_CAP_GLOBAL_SUSPEND | \
                    APM_CAP_TIMER_STANDBY | APM_CAP_TIMER_SUSPEND
%elif BEHAVIOUR == BEH_ALARM
        mov     cx, APM_CAP_GLOBAL_STANDBY | APM_CAP_GLOBAL_SUSPEND
%else
        xor     cx, cx
%endif
        jmp     ok

; 5311h: CL = 00h disable, 01h get, 02h set (CH seconds, DL minutes, DH hours, SI
; month and day, DI year, all BCD). Only BEH_TIMER has the timer.
fn_resume_timer:
%if BEHAVIOUR == BEH_TIMER
        cmp     cl, APM_RESUME_TIMER_SET
        je      .set
        cmp     cl, APM_RESUME_TIMER_GET
        je      .get
        cmp     cl, APM_RESUME_TIMER_DISABLE
        jne     err_param_range
        and     byte [S_FLAGS], ~F_TIMER_SET
        jmp     ok
.set:
        mov     [S_TIMER_SEC], ch
        mov     [S_TIMER_MIN], dl
        mov     [S_TIMER_HOUR], dh
        mov     [S_TIMER_DATE], si
        mov     [S_TIMER_YEAR], di
        or      byte [S_FLAGS], F_TIMER_SET
        jmp     ok
.get:
        test    byte [S_FLAGS], F_TIMER_SET
        jz      .disabled
        mov     ch, [S_TIMER_SEC]
        mov     dl, [S_TIMER_MIN]
        mov     dh, [S_TIMER_HOUR]
        mov     si, [S_TIMER_DATE]
        mov     di, [S_TIMER_YEAR]
        jmp     ok
.disabled:
        mov     ah, APM_ERR_TIMER_DISABLED
        stc
        ret
%else
        jmp     err_unsupported
%endif

; 530Eh: CX = the version the driver asks for; AX = the connection's.
fn_driver_version:
        mov     ax, cx
%if BEHAVIOUR == BEH_VER11
        cmp     cx, APM_V1_1            ; FreeBSD saw this: too new a request gets 1.0
        jbe     .set
        mov     ax, APM_V1_0
%else
        cmp     ax, BIOS_VERSION
        jbe     .set
        mov     ax, BIOS_VERSION
%endif
.set:
        mov     [S_CONNVER], al
        jmp     ok

; 5307h: BX = device, CX = state.
fn_set_state:
%if BEHAVIOUR == BEH_AWARD
        cmp     cx, APM_STATE_SUSPEND
        jbe     ok
        jmp     power_off               ; loose: any other state is taken for off
%elif BEHAVIOUR == BEH_A20PM
        cmp     cx, APM_STATE_STANDBY
        jb      ok
        cmp     cx, APM_STATE_SUSPEND
        jbe     resume_a20_off
        cmp     cx, APM_STATE_OFF
        jne     ok
%elif BEHAVIOUR == BEH_RESUME
        cmp     cx, APM_STATE_STANDBY
        jb      ok
        cmp     cx, APM_STATE_SUSPEND
        jbe     wait_for_resume
        cmp     cx, APM_STATE_OFF
        jne     ok
%elif BEHAVIOUR == BEH_TIMER || BEHAVIOUR == BEH_ALARM
        cmp     cx, APM_STATE_STANDBY
        jb      ok
        cmp     cx, APM_STATE_SUSPEND
        jbe     wait_for_wake
        cmp     cx, APM_STATE_OFF
        jne     ok
%else
        cmp     cx, APM_STATE_OFF
        jne     ok                      ; ready, standby, suspend: accepted
%endif
%if BEHAVIOUR == BEH_SLOWOFF
        test    byte [S_FLAGS], F_SEEN07 ; asked again while the first one goes down
        jz      .first_off
        mov     al, EXIT_OFF_TWICE
        jmp     fail_exit
.first_off:
%endif
        or      byte [S_FLAGS], F_SEEN07
%if BEHAVIOUR == BEH_DISENGAGED
        test    byte [S_FLAGS], F_ENGAGED       ; refuses, but not with 0Bh, until engaged
        jnz     .engaged_60
        mov     ah, APM_ERR_CANNOT_ENTER
        stc
        ret
.engaged_60:
%endif
%if BEHAVIOUR == BEH_PMIRQ
        cmp     byte [S_MODE], MODE_PM
        jne     power_off
        call    key_irq
        jmp     power_off
%endif
%if BEHAVIOUR == BEH_PMINT
        cmp     byte [S_MODE], MODE_PM
        jne     power_off
        mov     ah, 0x00                ; INT 1Ah AH=00h, the tick count: code shared
        int     0x1A                    ; with real mode, wrong in protected mode
        jmp     power_off
%endif
%if BEHAVIOUR == BEH_A20GATES
        call    a20_gates_off           ; under v86 both must be kept from acting
        call    a20_must_be_on
        jmp     power_off
%endif
%if BEHAVIOUR == BEH_SLOWOFF
        cmp     byte [S_MODE], MODE_RM
        jne     power_off
        sti                             ; spins the disks down, IF on: 8 s
        mov     ax, [BDA_TICKS]
.spin_down:
        mov     dx, [BDA_TICKS]
        sub     dx, ax
        cmp     dx, SLOW_TICKS
        jb      .spin_down
        jmp     power_off
%endif
%if BEHAVIOUR == BEH_NOCF
        test    byte [S_FLAGS], F_ENGAGED
        jnz     .engaged
        mov     ah, APM_ERR_NOT_ENGAGED
        stc
        ret
.engaged:
%endif
%if BEHAVIOUR == BEH_ENABLE
        test    byte [S_FLAGS], F_ENABLED       ; disabled at boot, as the flags say
        jnz     .enabled
        mov     ah, APM_ERR_PM_DISABLED
        stc
        ret
.enabled:
%endif
%if BEHAVIOUR == BEH_VER11
        cmp     byte [S_CONNVER], 0     ; RBIL: off is not supported for device 0001h
        je      err_param_range         ; in APM v1.0
%endif
%if BEHAVIOUR == BEH_TICKPOLL || BEHAVIOUR == BEH_NMI
  %if BEHAVIOUR == BEH_NMI
        cmp     byte [S_MODE], MODE_RM
        jne     power_off
  %endif
        sti                             ; then wait for the timer, as some BIOSes do
        mov     ax, [BDA_TICKS]
.poll:
        mov     dx, [BDA_TICKS]
        sub     dx, ax
  %if BEHAVIOUR == BEH_NMI
        cmp     dx, NMI_WAIT_TICKS
  %else
        cmp     dx, POLL_TICKS
  %endif
        jb      .poll
%endif
%if BEHAVIOUR == BEH_HANG
        cmp     byte [S_MODE], MODE_RM
        jne     power_off
        cli
.forever:
        jmp     .forever
%endif
%if BEHAVIOUR == BEH_V86OFF
        cmp     byte [S_MODE], MODE_RM
        jne     power_off
        smsw    ax                      ; SMSW is no privileged instruction: under v86
        test    al, 1                   ; it shows PE, and this BIOS will not cut the
        jz      power_off               ; power then (its SMI handler would find
        xor     ax, ax                  ; protected mode), yet says it did
        jmp     ok
%endif
%if BEHAVIOUR == BEH_HALTOFF
        cmp     byte [S_MODE], MODE_RM
        jne     power_off
        cli
.halted:
        hlt                             ; only an NMI or a reset ends this
        jmp     .halted
%endif
%if BEHAVIOUR == BEH_LATE || BEHAVIOUR == BEH_IRETCF
        push    ax
        mov     ax, [BDA_TICKS]         ; the power goes at the tick hook, later
        add     ax, LATE_TICKS
        mov     [S_DEADLINE], ax
        or      byte [S_FLAGS], F_ARMED
        pop     ax                      ; AX as it came (BEH_IRETCF: AH stays 53h)
        jmp     ok
%endif
%if BEHAVIOUR == BEH_WBINVD
        wbinvd                          ; flush the caches before the power goes
        invd
%endif
%if BEHAVIOUR == BEH_EBDA
        cmp     byte [S_MODE], MODE_RM
        jne     power_off
        call    check_memory
%endif
        ; fall through

power_off:
        mov     dx, ACPI_PM1A_CNT
        mov     ax, ACPI_SLP_EN
        out     dx, ax
.wait:
        jmp     .wait

; The PM data segment both connects name: AX = segment, DI = length. BEH_DATASEG's
; lies DATA_PARAS below the top of conventional memory as INT 12h has it (at most
; 9F000h), in memory the BIOS never took, where a caller that trusts INT 12h alone
; places itself. DS = 40h.
data_segment:
%if BEHAVIOUR == BEH_DATASEG
        mov     ax, [BDA_MEM_KB]
        shl     ax, 6                   ; KiB to paragraphs
        cmp     ax, 0x9F00
        jbe     .below
        mov     ax, 0x9F00
.below:
        sub     ax, DATA_PARAS
        mov     di, DATA_PARAS * 16
%else
        mov     ax, PM_DATA_SEG
        mov     di, PM_LEN
%endif
        ret

%if BEHAVIOUR == BEH_DSDATA

; Protected mode, every call: DS and ES must be our data selector (CS + 8, as both
; connects lay the descriptors out), which this BIOS would use without loading it.
; A null one is what 86Box (c23ad1b) faults on in the Intel TC430HX's entry, at a
; BT with register operands that reads no memory. Preserves the flags: the caller's
; CF reaches the function.
ds_guard:
        pushf
        push    ax
        push    bx
        mov     ax, cs
        add     ax, 8
        mov     bx, ds
        cmp     bx, ax
        jne     .wrong
        mov     bx, es
        cmp     bx, ax
        jne     .wrong
        pop     bx
        pop     ax
        popf
        ret
.wrong:
        mov     al, EXIT_DS_NOT_DATA
        out     DEBUG_EXIT, al
        jmp     $
%endif

%if BEHAVIOUR == BEH_DATASEG

; Protected mode, every call: the first fills our data segment (selector CS + 8, as
; both connects lay the descriptors out), each later one checks that nobody wrote
; into it meanwhile. Preserves every register and the flags.
data_guard:
        pushf
        pusha
        push    ds
        push    es
        push    word BDA_SEG
        pop     ds
        mov     ax, cs
        add     ax, 8
        mov     es, ax
        xor     di, di
        mov     cx, DATA_PARAS * 8      ; words
        mov     ax, DATA_PATTERN
        cld
        test    byte [S_FLAGS], F_DATA_SET
        jnz     .check
        or      byte [S_FLAGS], F_DATA_SET
        rep stosw
        jmp     .done
.check:
        repe scasw
        je      .done
        mov     al, EXIT_DATA_WRITTEN
        jmp     fail_exit
.done:
        pop     es
        pop     ds
        popa
        popf
        ret
%endif

%if BEHAVIOUR == BEH_RESUME
; Standby and suspend as a BIOS without SMM does them: halt, IF on, until the resume
; event, here a key (the BIOS's own INT 09h moves the keyboard buffer's tail), for as
; long as that takes. Called in protected mode the BIOS has no INT 09h of its own: it
; halts for the next interrupt, whichever, and returns. DS = 40h.
wait_for_resume:
        sti
        cmp     byte [S_MODE], MODE_PM
        jne     .real_mode
        hlt
        jmp     ok
.real_mode:
        mov     ax, [BDA_KBD_TAIL]
.halt:
        hlt
        cmp     ax, [BDA_KBD_TAIL]
        je      .halt
        jmp     ok
%endif

%if BEHAVIOUR == BEH_TIMER || BEHAVIOUR == BEH_ALARM
; Standby and suspend that end by themselves, as a BIOS without SMM would do them:
; halt, IF on, and after each interrupt look at the clock. BEH_TIMER: the clock has
; reached the resume time 5311h set (its h:m:s, BCD as the clock keeps it in QEMU);
; the timer then goes off, disabled, as APM 1.2 has it. BEH_ALARM: the alarm rang (the
; BIOS's IRQ 8 handler called INT 4Ah, or register C holds AF). Nothing set: the
; caller waits for ever, as a real machine would until its resume key. DS = 40h.
wait_for_wake:
        sti
%if BEHAVIOUR == BEH_ALARM
        and     byte [S_FLAGS], ~F_ALARM_RANG
%endif
.halt:
        hlt
%if BEHAVIOUR == BEH_TIMER
        test    byte [S_FLAGS], F_TIMER_SET
        jz      .halt
        call    rtc_wait_update
        mov     al, RTC_SECONDS
        call    rtc_read
        cmp     al, [S_TIMER_SEC]
        jne     .halt
        mov     al, RTC_MINUTES
        call    rtc_read
        cmp     al, [S_TIMER_MIN]
        jne     .halt
        mov     al, RTC_HOURS
        call    rtc_read
        cmp     al, [S_TIMER_HOUR]
        jne     .halt
        and     byte [S_FLAGS], ~F_TIMER_SET
%else
        test    byte [S_FLAGS], F_ALARM_RANG
        jnz     .woken
        mov     al, RTC_STATUS_C
        call    rtc_read
        test    al, RTC_C_AF
        jz      .halt
.woken:
%endif
        jmp     ok

; AL = a clock register; out AL its value. NMI masked while the index points there.
rtc_read:
        or      al, 0x80
        out     CMOS_INDEX, al
        in      al, CMOS_DATA
        ret

; Until no update is in progress: the time is safe to read for 244 us.
rtc_wait_update:
        mov     al, RTC_STATUS_A
        call    rtc_read
        test    al, RTC_A_UIP
        jnz     rtc_wait_update
        ret
%endif

%if BEHAVIOUR == BEH_A20GATES
; The other A20 gates, as some chipsets have them: the 8042's command DDh (HP
; Vectra style; DFh turns it on) and any write to port EEh.
a20_gates_off:
        call    kbc_ready
        mov     al, KBC_A20_OFF
        out     KBC_CTRL, al
        call    kbc_ready
        out     PORT_EE, al
        ret

kbc_ready:
        in      al, KBC_CTRL
        test    al, KBC_IN_FULL
        jnz     kbc_ready
        ret
%endif

%if BEHAVIOUR == BEH_PMIRQ
; Power-off lets the keyboard wake it, as a BIOS that waits with STI; HLT does: IRQ 1
; unmasked at the PIC, IF on, and a key arrives (8042 command D2h puts the byte in
; its output buffer as if typed, with IRQ 1). In protected mode the IRQ goes through
; the caller's IDT at vector 09h. The key is read afterwards. DS = 40h.
key_irq:
        in      al, PIC_MASTER_IMR
        and     al, ~IRQ1_BIT
        out     PIC_MASTER_IMR, al
        call    kbc_ready
        mov     al, KBC_WRITE_OBUF
        out     KBC_CTRL, al
        call    kbc_ready
        mov     al, SCAN_ENTER
        out     KBC_DATA, al
        sti
        mov     cx, 0xFFFF              ; time for the IRQ to come
.wait:
        loop    .wait
        cli
        in      al, KBC_DATA
        ret

kbc_ready:
        in      al, KBC_CTRL
        test    al, KBC_IN_FULL
        jnz     kbc_ready
        ret
%endif

%if BEHAVIOUR == BEH_MCA
; INT 15h AH=C0h: ES:BX = the configuration table of a PS/2 with Micro Channel,
; whose IRQs are level-triggered (feature byte 1 bit 1).
sysconf:
        push    cs
        pop     es
        mov     bx, sysconf_table
        xor     ah, ah
        clc
        retf    2

sysconf_table:
        dw      8                       ; length
        db      0xF8, 0x00, 0x00        ; model (PS/2 model 80), submodel, revision
        db      0x72                    ; feature 1: MCA, EBDA, INT 15h AH=4Fh, RTC
        db      0, 0, 0, 0
%endif

%if BEHAVIOUR == BEH_A20STI
; INT 15h AX=2401h as IBM-lineage BIOSes do it: A20 on, and back with interrupts
; enabled. To make the IRQ that a real machine gets some day come now, the timer
; (channel 0, one-shot) fires STI_TICKS PIT ticks later: under QEMU -icount shift=7
; (128 ns an instruction, 6.5 per tick) that is the caller's way back to protected
; mode, where an IRQ while the IVT is still the IDT triple-faults. Every later APM
; call puts the timer back to the BIOS's 18.2 Hz.
a20_enable_sti:
        in      al, PORT_A
        or      al, PORT_A_A20
        out     PORT_A, al
        mov     al, PIT_CH0_ONESHOT
        out     PIT_COMMAND, al
        mov     al, STI_TICKS & 0xFF
        out     PIT_CH0, al
        mov     al, STI_TICKS >> 8
        out     PIT_CH0, al
        xor     ah, ah
        sti
        clc
        retf    2                       ; our flags: IF on

; The timer as the BIOS had it: mode 3, 65536.
pit_restore:
        push    ax
        mov     al, PIT_CH0_SQUARE
        out     PIT_COMMAND, al
        xor     al, al
        out     PIT_CH0, al
        out     PIT_CH0, al
        pop     ax
        ret
%endif

%if BEHAVIOUR == BEH_A20PM
; Standby and suspend whose resume path leaves A20 off (port 92h), as the chipset came
; back from the low-power state; from real mode the caller's own check repairs it.
resume_a20_off:
        in      al, PORT_A
        and     al, ~PORT_A_A20
        out     PORT_A, al
        jmp     ok
%endif

%if BEHAVIOUR == BEH_A20PM || BEHAVIOUR == BEH_A20GATES
; A20 must be on (0000:0200 and FFFF:0210 differ), or EXIT_A20_LEFT_OFF. A20PM: in
; real mode, every call: the caller must have put A20 back on since (this BIOS keeps
; code or data at FFFF:xxxx, as those that use the HMA do). A20GATES: after trying
; the other gates, which the v86 monitor must have kept from acting.
a20_must_be_on:
        push    ds
        push    es
        pusha
        xor     ax, ax
        mov     ds, ax
        dec     ax
        mov     es, ax
        mov     ax, [0x200]
        mov     bx, [es:0x210]
        not     bx
        mov     [0x200], bx
        cmp     bx, [es:0x210]
        mov     [0x200], ax             ; MOV, POPA and POP keep ZF
        popa
        pop     es
        pop     ds
        jne     .on
        mov     al, EXIT_A20_LEFT_OFF
        jmp     fail_exit
.on:
        ret
%endif

%if BEHAVIOUR == BEH_HMA
; The connect initialises the BIOS's 64 KiB data area, F940:0000-FFFF: from F940:06C0
; on that is 100000h-1093FFh with A20 on, as any FFFF:xxxx access of BIOS code is.
; Real mode only (S_MODE); F9400h-FFFFFh is ROM. DS = 40h.
fill_data_area:
        cmp     byte [S_MODE], MODE_RM
        jne     .done
        push    es
        pusha
        mov     ax, PM_DATA_SEG
        mov     es, ax
        mov     di, 0x100000 - PM_DATA_SEG * 16
        mov     cx, (0x10000 - (0x100000 - PM_DATA_SEG * 16)) / 2
        mov     ax, HMA_FILL
        cld
        rep stosw
        popa
        pop     es
.done:
        ret
%endif

; AL = EXIT_* code, to isa-debug-exit: QEMU ends at once.
fail_exit:
        out     DEBUG_EXIT, al
.wait:
        jmp     .wait
