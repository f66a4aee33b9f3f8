; Kernel entry, reached from the boot loader.
;
; CPU state on entry (both multiboot specifications): 32-bit protected mode, paging off,
; interrupts off, A20 on, CS/DS/ES/SS flat but from the loader's GDT, which may be gone
; by now, ESP undefined. EAX holds the loader's magic number and EBX the physical address
; of its information block. We set our own stack and hand both values to C, which
; loads our own GDT before it does anything else.

extern kmain
global _start

section .text
_start:
        cli
        cld
        mov     esp, boot_stack_top
        push    dword 0                 ; a clean EFLAGS: DF, NT, AC and IOPL cleared
        popfd
        push    ebx                     ; kmain(magic, info)
        push    eax
        call    kmain
.forever:                               ; kmain never returns; if it did, stop here
        cli
        hlt
        jmp     .forever

section .bss
        alignb  16
boot_stack:                             ; the AML interpreter recurses (64 nested
        resb    65536                   ; expressions, 32 nested calls): room for it
global boot_stack_top
boot_stack_top:
