; Exception entry stubs and the GDT loader.
;
; Every exception 0-31 enters a stub that pushes a uniform frame (a dummy error code
; where the CPU pushes none, then the vector) and jumps to isr_common, which saves the
; general and segment registers and calls C with a pointer to the frame
; (struct exception_frame in system/exceptions.h, whose order this file defines).
;
; The fault may come from BIOS code running on a 16-bit stack (the 16-bit APM
; interface, the trampoline): C code needs a flat stack and flat DS. If SS is not our
; flat data segment, we move to a private stack and tell C where the frame was, and
; C does not return. From a flat stack (kernel code, the v86 monitor's ring-0 stack),
; C may return, and we resume the interrupted code with IRET.

%include "system-offsets.inc"
%include "system/frame.inc"

extern exception_dispatch
extern exception_foreign_stack
global isr_stubs
global load_gdt_and_segments

section .text

; Vectors with a CPU error code: 8, 10-14, 17, 21, 29, 30.
%assign v 0
%rep 32
isr_%[v]:
  %if !(v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30)
        push    dword 0                 ; no error code from the CPU: keep the frame uniform
  %endif
        push    dword v
        jmp     isr_common
%assign v v+1
%endrep

isr_common:
        FRAME_SAVE
        mov     ax, ss
        cmp     ax, SEL_DATA32
        jne     .foreign_stack
        FRAME_CALL_RETURN exception_dispatch    ; returns only if the exception was handled

.foreign_stack:
        movzx   eax, ax                 ; the old SS and ESP locate the frame
        mov     ebx, esp
        mov     cx, SEL_DATA32
        mov     ds, cx
        mov     es, cx
        mov     ss, cx
        mov     esp, exception_stack_top
        push    ebx
        push    eax
        call    exception_foreign_stack ; never returns
        cli
        hlt

; void load_gdt_and_segments(const struct table_register *gdtr)
; Loads GDTR and reloads every segment register with our flat selectors.
load_gdt_and_segments:
        mov     eax, [esp + 4]
        lgdt    [eax]
        jmp     SEL_CODE32:.reload_cs
.reload_cs:
        mov     ax, SEL_DATA32
        mov     ds, ax
        mov     es, ax
        mov     fs, ax
        mov     gs, ax
        mov     ss, ax
        ret

section .rodata
        align 4
isr_stubs:
%assign v 0
%rep 32
        dd      isr_%[v]
%assign v v+1
%endrep

section .bss
        alignb  16
        resb    4096
exception_stack_top:
