; Entering and leaving virtual-8086 mode.
;
; void v86_enter(const struct v86_context *c)
;   Contract: 32-bit protected mode, CPL 0, interrupts off, TR loaded with a TSS
;   whose ESP0 is the monitor's stack. Saves the caller's registers and stack, loads
;   the general registers from *c and IRETs into v86 mode with c's segments, CS:IP,
;   SS:SP and EFLAGS (VM set, IOPL 0). Returns only when the monitor calls
;   v86_leave(), with every register as it was.
;
; void v86_leave(void)
;   Contract: called from the monitor (ring 0, on the TSS stack) when the call is
;   over; abandons that stack and returns from v86_enter. Reloads DS, ES, FS and GS,
;   which the CPU nulled on the way out of v86 mode.
;
; struct v86_context is in realmode/v86.c; the offsets below come from
; build/asm-offsets.inc.

%include "system-offsets.inc"
%include "realmode-offsets.inc"

global v86_enter
global v86_leave

section .text
v86_enter:
        pushfd                          ; restored by v86_leave: DF, NT, IF are ours again
        pushad
        mov     [saved_esp], esp
        mov     esi, [esp + 40]
        push    dword [esi + V86C_GS]   ; the IRET frame into v86 mode
        push    dword [esi + V86C_FS]
        push    dword [esi + V86C_DS]
        push    dword [esi + V86C_ES]
        push    dword [esi + V86C_SS]
        push    dword [esi + V86C_ESP]
        push    dword [esi + V86C_EFLAGS]
        push    dword [esi + V86C_CS]
        push    dword [esi + V86C_EIP]
        mov     eax, [esi + V86C_EAX]
        mov     ebx, [esi + V86C_EBX]
        mov     ecx, [esi + V86C_ECX]
        mov     edx, [esi + V86C_EDX]
        mov     edi, [esi + V86C_EDI]
        mov     ebp, [esi + V86C_EBP]
        mov     esi, [esi + V86C_ESI]
        iretd

v86_leave:
        cli
        mov     ax, SEL_DATA32
        mov     ds, ax
        mov     es, ax
        mov     fs, ax
        mov     gs, ax
        mov     ss, ax
        mov     esp, [saved_esp]
        popad
        popfd
        ret

section .bss
        alignb  4
saved_esp:
        resd    1
