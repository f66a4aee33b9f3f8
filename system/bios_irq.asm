; IRQs during a protected-mode APM call.
;
; The PICs keep the BIOS's vectors for those calls: IRQ 0-7 arrive at 08h-0Fh, which
; in protected mode are exception gates (#DF, #TS, #NP, #SS, #GP, #PF ...), and IRQ
; 8-15 at 70h-77h, where our IDT has nothing. port_pm.c masks every line but the
; timer's (irq=on, standby, suspend), yet a BIOS may unmask one itself: IRQ 1 or 12
; so that a key wakes a STI; HLT standby, IRQ 14 for a disk wait; and a spurious
; IRQ 7 or 15 needs no unmasked line at all. For the length of such a call
; system/descriptors.c (idt_route_bios_irqs) points those 16 gates here, and each
; stub tells an IRQ from an exception by the PIC's in-service register, as Linux's
; i8259 code does, then puts the PIC back to reading the IRR (OCW3 0Ah), the state
; every BIOS and OS expects to find.
;
; irq_during_bios_N (N = 0..15)
;   Contract: entered through a 32-bit interrupt gate at CPL 0, with whatever segment
;   registers the BIOS had (its own data selector, or null ones); SS:ESP is the
;   caller's stack (ours, the trampoline's 16-bit one for pm16).
;   IRQ N in service: IRQ 0 is counted at 40:6Ch as the BIOS's INT 08h would (a BIOS
;   waiting for the tick to move can go on; midnight rollover is left out: a call
;   does not last a day); any other line is masked for the rest of the call (a
;   level-triggered device would otherwise interrupt again at once; port_pm.c puts
;   the masks back afterwards). Then the EOI, and IRET.
;   Not in service: at 08h-0Eh a CPU exception, handed to its stub in isr.asm; IRQ 7
;   or 15 a spurious one, which gets no EOI of its own (IRQ 15's cascade, IRQ 2,
;   does get one at the master). Clobbers nothing.

%include "system-offsets.inc"

extern isr_stubs

section .text

%macro BIOS_IRQ 1
%if %1 < 8
  %define CMD PIC_MASTER_CMD
  %define IMR PIC_MASTER_DATA
%else
  %define CMD PIC_SLAVE_CMD
  %define IMR PIC_SLAVE_DATA
%endif
global irq_during_bios_%1
irq_during_bios_%1:
        push    eax
        mov     al, PIC_OCW3_READ_ISR
        out     CMD, al
        in      al, CMD
        mov     ah, al
        mov     al, PIC_OCW3_READ_IRR   ; back to the IRR, as Linux does after each read
        out     CMD, al
        test    ah, 1 << (%1 & 7)
        jz      .not_in_service
%if %1 == 0
        push    ds
        mov     ax, SEL_DATA32          ; the BIOS's DS is not ours
        mov     ds, ax
        inc     dword [BDA_TICKS]
        pop     ds
%else
        in      al, IMR
        or      al, 1 << (%1 & 7)
        out     IMR, al
%endif
        mov     al, PIC_EOI
%if %1 >= 8
        out     PIC_SLAVE_CMD, al
%endif
        out     PIC_MASTER_CMD, al
        pop     eax
        iretd
.not_in_service:
%if %1 == 7
        pop     eax                     ; spurious IRQ 7: the line dropped, no EOI
        iretd
%elif %1 >= 8
        mov     al, PIC_EOI             ; spurious at the slave: the master did raise
        out     PIC_MASTER_CMD, al      ; its cascade line, IRQ 2
        pop     eax
        iretd
%else
        pop     eax                     ; a CPU exception at the same vector
        jmp     [cs:isr_stubs + (PIC_BIOS_MASTER_BASE + %1) * 4]
%endif
%undef CMD
%undef IMR
%endmacro

%assign irq 0
%rep 16
BIOS_IRQ irq
%assign irq irq + 1
%endrep

section .rodata
        align   4
global bios_irq_stubs
bios_irq_stubs:
%assign irq 0
%rep 16
        dd      irq_during_bios_%[irq]
%assign irq irq + 1
%endrep
