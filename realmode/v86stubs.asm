; Real-mode stubs for v86test=insns (realmode/v86test.c): each exercises one kind of
; instruction the v86 monitor emulates, and is run twice, once by the CPU itself in
; real mode (through the trampoline) and once under the monitor; the two register
; sets must be the same (tests/emu judges them).
;
; Contract: each stub is entered as an interrupt handler would be (FLAGS, CS, IP on
; the stack, IF clear), with every general register zero, and ends in IRET. What it
; observed is left in BX, CX, DX, SI and BP (FLAGS images, mostly); AX and DI are
; scratch and cleared before the IRET. The code is copied to the trampoline's scratch
; area and runs wherever it lands: only relative jumps and calls, and IP found with a
; CALL, never an absolute address. v86_stubs[] lists them for the C side.

        bits    16

IVT_OUTER       equ 0xF0 * 4            ; INT F0h/F1h: unused by PC BIOSes (BASIC's
IVT_INNER       equ 0xF1 * 4            ; vectors); saved and restored around the use
FL_IF           equ 0x0202              ; FLAGS with IF set (bit 1 always reads 1)
FL_NONE         equ 0x0002              ; FLAGS with IF clear

section .rodata

; POPF with IF set, then with IF clear: BX and CX read them back.
popf_if:
        push    word FL_IF
        popf
        pushf
        pop     bx
        push    word FL_NONE
        popf
        pushf
        pop     cx
        iret
popf_if_end:

; IRET to the next instruction with IF set (BX), then with IF clear (CX).
iret_if:
        push    word FL_IF
        push    cs
        call    .frame_ip               ; pushes the IP of .set
.set:   pushf
        pop     bx
        push    word FL_NONE
        push    cs
        call    .frame_ip2
.clear: pushf
        pop     cx
        iret
.frame_ip:
        iret
.frame_ip2:
        iret
iret_if_end:

; PUSHF right after STI (BX) and after CLI (CX).
sti_cli:
        sti
        pushf
        pop     bx
        cli
        pushf
        pop     cx
        iret
sti_cli_end:

; The 66h forms: POPFD with IF set then PUSHFD (low word BX, high word CX); IRETD to
; the next instruction with IF clear (DX), PUSHFD again (high word SI).
o32_forms:
        push    dword FL_IF
        popfd
        pushfd
        pop     bx
        pop     cx
        call    .here
.here:  pop     di                      ; DI = IP of .here
        add     di, .land - .here
        movzx   edi, di
        mov     ax, cs
        movzx   eax, ax
        push    dword FL_NONE
        push    eax                     ; CS, as a doubleword
        push    edi                     ; EIP
        iretd
.land:  pushfd
        pop     dx
        pop     si
        xor     eax, eax
        xor     edi, edi
        iret
o32_forms_end:

; INT from IF set into a handler (BX: IF cleared by INT), which enables interrupts and
; nests another INT (CX: cleared again); the inner IRET restores the outer's IF (SI),
; the outer IRET ours (DX). The vectors are ours for the length of the stub.
int_nest:
        xor     ax, ax
        mov     es, ax
        push    word [es:IVT_OUTER]
        push    word [es:IVT_OUTER + 2]
        push    word [es:IVT_INNER]
        push    word [es:IVT_INNER + 2]
        call    .base
.base:  pop     di                      ; DI = IP of .base
        lea     ax, [di + .outer - .base]
        mov     [es:IVT_OUTER], ax
        mov     [es:IVT_OUTER + 2], cs
        lea     ax, [di + .inner - .base]
        mov     [es:IVT_INNER], ax
        mov     [es:IVT_INNER + 2], cs
        sti
        int     0xF0
        pushf
        pop     dx
        cli
        pop     word [es:IVT_INNER + 2]
        pop     word [es:IVT_INNER]
        pop     word [es:IVT_OUTER + 2]
        pop     word [es:IVT_OUTER]
        xor     ax, ax
        xor     di, di
        iret
.outer: pushf
        pop     bx
        sti
        int     0xF1
        pushf
        pop     si
        iret
.inner: pushf
        pop     cx
        iret
int_nest_end:

; HLT with IF set: the next interrupt ends it (the monitor lets time pass), and the
; program goes on with IF still set (BX).
hlt_if:
        sti
        hlt
        pushf
        pop     bx
        cli
        iret
hlt_if_end:

; HLT with IF clear: a real CPU stops for good; the monitor must stop the call and
; name it (run under the monitor only).
hlt_noif:
        cli
        hlt
        mov     bx, 0xBAD               ; never reached
        iret
hlt_noif_end:

%macro STUB 3                           ; name, start, end
        dd      %1, %2
        dw      %3 - %2
        dw      0
%endmacro

section .rodata
        align   4
global v86_stubs
global v86_stubs_count
v86_stubs:                              ; struct v86_stub { name, code, size, pad }
        STUB    name_popf, popf_if, popf_if_end
        STUB    name_iret, iret_if, iret_if_end
        STUB    name_sticli, sti_cli, sti_cli_end
        STUB    name_o32, o32_forms, o32_forms_end
        STUB    name_nest, int_nest, int_nest_end
        STUB    name_hlt, hlt_if, hlt_if_end
        STUB    name_hltnoif, hlt_noif, hlt_noif_end
v86_stubs_count:
        dd      ($ - v86_stubs) / 12

name_popf:      db "popf-if", 0
name_iret:      db "iret-if", 0
name_sticli:    db "pushf-sti-cli", 0
name_o32:       db "o32-popfd-pushfd-iretd", 0
name_nest:      db "int-iret-nesting", 0
name_hlt:       db "hlt-if-set", 0
name_hltnoif:   db "hlt-if-clear", 0
