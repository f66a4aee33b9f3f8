; IRQs during a v86 BIOS call.
;
; For the length of a v86 call the monitor (realmode/v86.c) moves the PICs' vectors
; to V86_IRQ_BASE (20h-2Fh), clear of the exception vectors, and points those gates
; here; the BIOS runs with the real IF on and only its IF virtual. Each IRQ enters a
; stub that builds the same frame as system/isr.asm (struct exception_frame) with
; the IRQ number, not the vector, in its vector field, and calls v86_irq(), which
; reflects the IRQ into the BIOS's own handler (IVT 08h-0Fh, 70h-77h) or holds it
; until the BIOS turns its interrupts on, and may end the call (the watchdog).
;
; void v86_irq(struct exception_frame *f)      (realmode/v86.c)
;   Contract: entered through 32-bit interrupt gates at CPL 0, from v86 mode (the
;   CPU switched to the TSS stack, SS = SEL_DATA32) or from the monitor's own wait
;   for an IRQ (ring 0, SS = SEL_DATA32). Clobbers nothing it does not restore.

%include "system-offsets.inc"
%include "realmode-offsets.inc"
%include "system/frame.inc"

extern v86_irq
global v86_irq_stubs

section .text
%assign i 0
%rep 16
irq_%[i]:
        push    dword 0                 ; no error code: the exception frame's shape
        push    dword i                 ; the IRQ number
        jmp     irq_common
%assign i i+1
%endrep

irq_common:
        FRAME_SAVE
        FRAME_CALL_RETURN v86_irq       ; v86_irq returns, or ends the call (v86_leave)

section .rodata
        align 4
v86_irq_stubs:
%assign i 0
%rep 16
        dd      irq_%[i]
%assign i i+1
%endrep
