; The real-mode trampoline, assembled as a flat binary (org 0) and copied by
; realmode/trampoline.c to a 16-byte aligned address below 1 MiB. Every address in
; it is an offset from its own base, so it runs wherever it is copied: in 16-bit
; protected mode through SEL_TRAMP_CODE16/DATA16 (descriptors based at the copy),
; in real mode through segment base >> 4.
;
; Contract (entered by tramp_enter in rmswitch.asm):
;   in:   CS = SEL_TRAMP_CODE16, IP = TH_SIZE (the code right after the header),
;         16-bit protected mode, interrupts off, paging off.
;         The header (struct tramp_header) is filled in; the register block at
;         regs_off holds the caller's registers, segment fields included (real-mode
;         segments in TRAMP_MODE_INT, selectors, normally 0, in TRAMP_MODE_FARCALL16).
;   out:  far jump to kernel_return (32-bit code, SEL_CODE32) with DS, ES, FS, GS, SS
;         = SEL_DATA32, interrupts off, ESP meaningless (the kernel restores its own),
;         the register block holding the registers and flags as the BIOS returned them,
;         a20_status updated. The IDT is the real-mode IVT in TRAMP_MODE_INT: the
;         kernel reloads its own.
;   clobbers: everything; the kernel saved what it needs.
;
; The register block doubles as the stack: POPAD/POP/POPFD consume it from the
; bottom, the BIOS's stack grows down from there, and afterwards the stack pointer
; goes to the block's end so PUSHFD/PUSH/PUSHAD refill it in the same layout.

%include "system-offsets.inc"
%include "realmode-offsets.inc"

; The ports, bits and commands below (KBC_*, PORT_A*, CMOS_*, X86_CR0_PE) are named
; once, in lib/pc.h and lib/x86.h, and reach this file through realmode-offsets.inc.

; NMI is masked across each mode switch, as Linux's arch/x86/boot/pm.c does: an NMI
; between the CR0 write and the IDT that matches the mode would run the wrong vector.
; Only the CMOS index is written (never CMOS itself). Clobbers AL.
%macro NMI_OFF 0
        mov     al, CMOS_NMI_MASK | CMOS_PARK
        out     CMOS_INDEX, al
%endmacro
%macro NMI_ON 0
        mov     al, CMOS_PARK
        out     CMOS_INDEX, al
%endmacro

; The register block in, just before the call: SP points at its start.
%macro POP_BIOSREGS 0
        popad
        pop     gs
        pop     fs
        pop     es
        pop     ds
        popfd
%endmacro

; The register block out, right after the call, in the same layout.
%macro PUSH_BIOSREGS 0
        movzx   esp, word [cs:TH_REGS_END]  ; MOVZX leaves the BIOS's flags alone
        pushfd
        push    ds
        push    es
        push    fs
        push    gs
        pushad
        cli
%endmacro

        bits    16
        org     0

header:
        times   TH_SIZE db 0

pm16_entry:
        mov     ax, SEL_TRAMP_DATA16    ; 64 KiB limits, as real mode will need
        mov     ds, ax
        mov     es, ax
        mov     fs, ax
        mov     gs, ax
        mov     ss, ax
        movzx   esp, word [TH_REGS_OFF] ; ESP's high half zero: BIOSes may use ESP
        cmp     word [TH_MODE], TRAMP_MODE_FARCALL16
        je      farcall16

        mov     ax, [TH_RM_SEGMENT]     ; patch the far jump below: our real-mode CS
        mov     [rm_jump + 3], ax
        jmp     short .patched          ; a 386/486 may have prefetched the old bytes
.patched:
        NMI_OFF
        lidt    [TH_RM_IDTR]
        mov     eax, cr0
        and     eax, ~X86_CR0_PE
        mov     cr0, eax
rm_jump:                                ; at once after the CR0 write, as Intel asks:
        jmp     0:.real_mode            ; the segment word is patched above

.real_mode:
        mov     ax, cs
        mov     ds, ax
        mov     es, ax
        mov     fs, ax
        mov     gs, ax
        mov     ss, ax                  ; SP still points at the register block
        NMI_ON

        POP_BIOSREGS
        ; INT n is PUSHF, clear IF and TF, far call through the IVT entry. Doing it by
        ; hand lets the kernel pick the vector without patching our code.
        pushf
        cli
        call    far [cs:TH_TARGET]
        PUSH_BIOSREGS

        mov     ax, cs
        mov     ds, ax
        call    a20_ensure

        ; Until the kernel's IDT is back the IVT is the IDT: an IRQ after the CR0
        ; write below would triple-fault. Whatever a20_ensure's INT left, IF is off
        ; (tests/check_realmode.py checks every path).
        cli
        NMI_OFF                         ; on again in rmswitch.asm, once our IDT is back
        o32 lgdt [TH_GDTR]
        mov     eax, cr0
        or      eax, X86_CR0_PE
        mov     cr0, eax
        jmp     SEL_TRAMP_CODE16:return32

; APM 16-bit protected-mode interface: the BIOS wants a 16-bit caller and a 16-bit
; stack (SS = SEL_TRAMP_DATA16, so SP, not ESP, addresses it).
farcall16:
        POP_BIOSREGS
        call    far [cs:TH_TARGET]
        PUSH_BIOSREGS

return32:
        mov     ax, SEL_DATA32
        mov     ds, ax
        mov     es, ax
        mov     fs, ax
        mov     gs, ax
        mov     ss, ax
        jmp     dword far [cs:TH_KERNEL_RETURN]

; a20_wraps: ZF=1 when A20 is off, i.e. 0000:0200 and FFFF:0210 are the same byte.
; Writes the complement of what is 1 MiB higher into 0000:0200 (an IVT slot nobody
; uses with interrupts off) and reads it back up there; restores the slot.
; Clobbers AX, BX.
a20_wraps:
        push    ds
        push    es
        xor     ax, ax
        mov     ds, ax
        dec     ax
        mov     es, ax
        mov     ax, [0x200]
        mov     bx, [es:0x210]
        not     bx
        mov     [0x200], bx
        cmp     bx, [es:0x210]
        mov     [0x200], ax             ; MOV keeps ZF
        pop     es
        pop     ds
        ret

; a20_ensure: the kernel lives above 1 MiB; returning with A20 off would run the
; wrong code. Try the BIOS, then the keyboard controller, then port 92h (Linux's
; order: port 92h is not the system control port on every old board), each given
; time to settle. DS = our segment. Clobbers AX, BX, CX.
a20_ensure:
        call    a20_wraps
        jnz     .on
        or      word [TH_A20_STATUS], TRAMP_A20_WAS_OFF
        mov     ax, 0x2401              ; INT 15h AX=2401h: enable A20
        pushf                           ; IBM-lineage BIOSes come back with IF=1:
        int     BIOS_INT_SYSTEM         ; ours again after, as Linux's a20.c keeps it
        popf
        call    a20_settled
        jnz     .on
        call    kbc_wait
        mov     al, KBC_CMD_WRITE_OUTPUT
        out     KBC_CTRL, al
        call    kbc_wait
        mov     al, KBC_OUTPUT_A20
        out     KBC_DATA, al
        call    kbc_wait
        mov     al, KBC_CMD_NULL        ; what Linux's a20.c sends last: the USB
        out     KBC_CTRL, al            ; (UHCI) legacy emulation of the 8042 wants it
        call    kbc_wait
        call    a20_settled
        jnz     .on
        in      al, PORT_A
        or      al, PORT_A_A20
        and     al, ~PORT_A_RESET
        out     PORT_A, al
        call    a20_settled
        jnz     .on
        ; Nothing turned it on: going back would execute the wrong memory. Say so
        ; through the BIOS, the only output we have here, and stop.
        mov     si, a20_stuck_msg
.print:
        lodsb
        test    al, al
        jz      .stop
        mov     ah, 0x0E
        mov     bx, 0x0007
        int     BIOS_INT_VIDEO
        jmp     .print
.stop:
        cli
        hlt
        jmp     .stop
.on:
        ret

; a20_settled: a20_wraps, repeated for a while (each try a port-80h delay, about a
; microsecond on ISA) until A20 is on: the 8042 in particular takes its time.
; ZF=1 when it is still off. Clobbers AX, BX, CX.
a20_settled:
        mov     cx, 0xFFFF
.again:
        call    a20_wraps
        jnz     .done
        out     PORT_POST, al
        loop    .again
        cmp     ax, ax                  ; ZF=1: still off
.done:
        ret

; kbc_wait: until the 8042 can take a byte; what it has for us is read and dropped.
; Clobbers AL, CX.
kbc_wait:
        mov     cx, 0xFFFF
.poll:
        out     PORT_POST, al
        in      al, KBC_CTRL
        test    al, KBC_STATUS_OUT_FULL ; drain what waits for us
        jz      .input
        in      al, KBC_DATA
        jmp     .next
.input:
        test    al, KBC_STATUS_IN_FULL  ; wait until it took our last byte
        jz      .ready
.next:
        loop    .poll
.ready:
        ret

a20_stuck_msg:
        db      "apmoff: halted: A20 is off after a BIOS call and cannot be re-enabled", 13, 10, 0
