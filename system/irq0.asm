; IRQ 0 (the BIOS's timer tick) during a protected-mode APM call with irq=on.
;
; The PICs keep the BIOS's vectors (IRQ 0 is vector 08h), which in protected mode is
; the double-fault gate. For the length of such a call apm/port_pm.c unmasks IRQ 0
; alone and points gate 08h here (system/descriptors.c, idt_route_irq0); this stub
; tells the two apart by the master PIC's in-service register: IRQ 0 in service means
; the timer, anything else is a real #DF, handed to its exception stub.
;
; void irq0_during_bios(void)
;   Contract: entered through a 32-bit interrupt gate at CPL 0, with whatever segment
;   registers the BIOS had (its own data selector, or null ones); SS:ESP is the
;   caller's stack (ours, or the trampoline's 16-bit one for pm16).
;   For IRQ 0: counts the tick at 40:6Ch as the BIOS's INT 08h would (a BIOS waiting
;   for the tick to move can go on; midnight rollover is left out: a call does not
;   last a day), sends the EOI and returns. Clobbers nothing.

%include "system-offsets.inc"

global irq0_during_bios
extern isr_stubs

section .text
irq0_during_bios:
        push    eax
        mov     al, PIC_OCW3_READ_ISR
        out     PIC_MASTER_CMD, al
        in      al, PIC_MASTER_CMD
        test    al, 0x01
        jz      .double_fault
        push    ds
        mov     ax, SEL_DATA32          ; the BIOS's DS is not ours
        mov     ds, ax
        inc     dword [BDA_TICKS]
        pop     ds
        mov     al, PIC_EOI
        out     PIC_MASTER_CMD, al
        pop     eax
        iretd
.double_fault:
        pop     eax
        jmp     [isr_stubs + X86_VECTOR_DF * 4]
