; The far call into the APM BIOS's 32-bit protected-mode interface.
;
; void apm_pm32_far_call(struct biosregs *regs)
;   Contract: 32-bit protected mode, CPL 0, flat kernel segments, interrupts off and
;   the PICs masked by the caller (apm/port_pm.c). The descriptors SEL_APM_CODE32,
;   SEL_APM_CODE16 and SEL_APM_DATA are set up, and apm_pm32_target holds
;   entry:SEL_APM_CODE32.
;   In: EAX-EDI, EBP and EFLAGS from *regs (EFLAGS carries the caller's choice of IF,
;   and CF clear: port_pm.c clears it, since BIOSes touch CF only to fail here).
;   DS and ES hold SEL_APM_DATA, FS and GS the null selector (port_pm.c says why):
;   a BIOS that writes through a segment register it did not load reaches its own
;   data or faults, never our memory.
;   Out: *regs holds the registers and EFLAGS the BIOS returned. SS:ESP is our own
;   stack throughout; the segment fields of *regs are left as they were.
;   Clobbers: nothing the C calling convention keeps; EFLAGS is restored too.

%include "system-offsets.inc"
%include "realmode-offsets.inc"

global apm_pm32_far_call
global apm_pm32_target

section .text
apm_pm32_far_call:
        pushfd                          ; the BIOS may leave DF, NT or IF set: not ours
        push    ebp
        push    ebx
        push    esi
        push    edi
        mov     ebp, [esp + 24]         ; regs
        push    ebp                     ; kept for the way back
        push    dword [ebp + BR_EFLAGS]

        mov     eax, [ebp + BR_EAX]
        mov     ebx, [ebp + BR_EBX]
        mov     ecx, [ebp + BR_ECX]
        mov     edx, [ebp + BR_EDX]
        mov     esi, [ebp + BR_ESI]
        mov     edi, [ebp + BR_EDI]
        mov     ebp, [ebp + BR_EBP]
        push    dword SEL_APM_DATA
        pop     ds
        push    dword SEL_APM_DATA
        pop     es
        push    dword 0
        pop     fs
        push    dword 0
        pop     gs
        popfd
        call    far [cs:apm_pm32_target]
        pushfd
        cli

        push    eax
        mov     ax, SEL_DATA32
        mov     ds, ax
        mov     es, ax
        mov     fs, ax
        mov     gs, ax
        pop     eax
        xchg    ebp, [esp + 4]          ; EBP = regs; the BIOS's EBP goes on the stack
        mov     [ebp + BR_EAX], eax
        mov     [ebp + BR_EBX], ebx
        mov     [ebp + BR_ECX], ecx
        mov     [ebp + BR_EDX], edx
        mov     [ebp + BR_ESI], esi
        mov     [ebp + BR_EDI], edi
        pop     dword [ebp + BR_EFLAGS]
        pop     dword [ebp + BR_EBP]

        pop     edi
        pop     esi
        pop     ebx
        pop     ebp
        popfd
        ret

section .data
        align   4
apm_pm32_target:                        ; far pointer m16:32: offset, then selector
        dd      0
        dw      SEL_APM_CODE32
