; The 32-bit side of the trampoline, part of the kernel image.
;
; void tramp_enter(void)
;   Contract: called from C with interrupts off and the trampoline installed with its
;   header filled in. Saves every register, EFLAGS and the IDTR, jumps to the trampoline's
;   16-bit entry, and comes back at tramp_return with everything restored.
;   The register block in the trampoline carries the BIOS's inputs and outputs.

%include "system-offsets.inc"
%include "realmode-offsets.inc"

global tramp_enter
global tramp_return

section .text
tramp_enter:
        pushfd                          ; the BIOS may leave DF, NT or IF set: not ours
        pushad
        sidt    [saved_idtr]
        mov     [saved_esp], esp
        push    dword SEL_TRAMP_CODE16
        push    dword TH_SIZE           ; the code starts right after the header
        retf

tramp_return:                           ; CS = SEL_CODE32, data segments = SEL_DATA32
        mov     esp, [saved_esp]
        lidt    [saved_idtr]
        mov     al, CMOS_PARK           ; NMI on again (the trampoline masked it for
        out     CMOS_INDEX, al          ; the switch): our IDT is the one loaded
        popad
        popfd
        ret

section .bss
        alignb  4
saved_esp:
        resd    1
saved_idtr:
        resb    6
