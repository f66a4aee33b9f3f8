; A call into x64 UEFI firmware from our 32-bit protected mode (see system/efi_rt.h).
;
; uint32_t efi_call64(uint32_t fn, uint32_t pml4, uint32_t arg0)
;   Contract: called from C (cdecl) in 32-bit protected mode, paging off, flat
;   SEL_CODE32/SEL_DATA32. Interrupts are turned off for the call (our IDT has no
;   64-bit gates) and EFLAGS restored after. pml4 is an identity map covering fn and
;   our stack. Goes to long mode (own GDT, CR4.PAE, CR3 = pml4, EFER.LME, CR0.PG;
;   CR4.OSFXSR too: x64 firmware is built to use SSE), calls fn(arg0, 0, 0, 0) with
;   the Microsoft x64 convention, and if it returns comes back to 32-bit protected
;   mode with our GDT, CR0, CR3, CR4 and EFER as they were. Returns EAX of the call
;   (the EFI_STATUS's low half). Clobbers EAX, ECX, EDX (cdecl's scratch registers).

%include "system-offsets.inc"

CR0_MP          equ 1 << 1
CR0_EM          equ 1 << 2
CR0_TS          equ 1 << 3
CR0_PG          equ 1 << 31
CR4_PAE         equ 1 << 5
CR4_OSFXSR      equ 1 << 9
CR4_OSXMMEXCPT  equ 1 << 10
MSR_EFER        equ 0xC0000080
EFER_LME        equ 1 << 8

; Our own GDT for the trip: the long-mode code segment needs L=1, which ours lacks.
G_CODE32        equ 0x08
G_CODE64        equ 0x10
G_DATA          equ 0x18

section .data
align 8
gdt64:
        dq      0                       ; null
        dq      0x00CF9A000000FFFF      ; 08h: 32-bit code, flat 4 GiB
        dq      0x00AF9A000000FFFF      ; 10h: 64-bit code (L=1, D=0)
        dq      0x00CF92000000FFFF      ; 18h: data, flat 4 GiB
gdt64_end:
gdt64_ptr:
        dw      gdt64_end - gdt64 - 1
        dd      gdt64
saved_gdt:
        dw      0
        dd      0
saved_esp       dd 0
saved_cr0       dd 0
saved_cr3       dd 0
saved_cr4       dd 0
call_fn         dd 0
call_arg0       dd 0
call_result     dd 0

section .text
bits 32
global efi_call64
efi_call64:
        push    ebp
        push    ebx
        push    esi
        push    edi
        mov     eax, [esp + 20]         ; fn
        mov     [call_fn], eax
        mov     ebx, [esp + 24]         ; pml4
        mov     eax, [esp + 28]         ; arg0
        mov     [call_arg0], eax
        pushfd
        cli
        sgdt    [saved_gdt]
        mov     [saved_esp], esp
        mov     eax, cr0
        mov     [saved_cr0], eax
        mov     eax, cr3
        mov     [saved_cr3], eax
        mov     eax, cr4
        mov     [saved_cr4], eax

        lgdt    [gdt64_ptr]
        jmp     dword G_CODE32:.own_gdt
.own_gdt:
        mov     ax, G_DATA
        mov     ds, ax
        mov     es, ax
        mov     fs, ax
        mov     gs, ax
        mov     ss, ax
        mov     eax, cr4
        or      eax, CR4_PAE | CR4_OSFXSR | CR4_OSXMMEXCPT
        mov     cr4, eax
        mov     cr3, ebx
        mov     ecx, MSR_EFER
        rdmsr
        or      eax, EFER_LME
        wrmsr
        mov     eax, cr0
        and     eax, ~(CR0_EM | CR0_TS)
        or      eax, CR0_PG | CR0_MP    ; paging on with LME: IA-32e, compatibility mode
        mov     cr0, eax
        jmp     dword G_CODE64:.long_mode

bits 64
.long_mode:
        mov     esp, esp                ; RSP's upper half zeroed
        and     rsp, -16
        sub     rsp, 32                 ; shadow space for the four register arguments
        mov     ecx, [abs call_arg0]    ; ResetType
        xor     edx, edx                ; ResetStatus: EFI_SUCCESS
        xor     r8d, r8d                ; DataSize
        xor     r9d, r9d                ; ResetData: NULL
        mov     eax, [abs call_fn]
        call    rax
        mov     [abs call_result], eax
        push    G_CODE32                ; far return to compatibility mode
        mov     eax, .compat
        push    rax
        o64 retf

bits 32
.compat:
        mov     eax, cr0
        and     eax, ~CR0_PG            ; paging off: out of IA-32e
        mov     cr0, eax
        mov     ecx, MSR_EFER
        rdmsr
        and     eax, ~EFER_LME
        wrmsr
        mov     eax, [saved_cr3]
        mov     cr3, eax
        mov     eax, [saved_cr4]
        mov     cr4, eax
        mov     eax, [saved_cr0]
        mov     cr0, eax
        lgdt    [saved_gdt]
        jmp     dword SEL_CODE32:.home
.home:
        mov     ax, SEL_DATA32
        mov     ds, ax
        mov     es, ax
        mov     fs, ax
        mov     gs, ax
        mov     ss, ax
        mov     esp, [saved_esp]
        popfd
        mov     eax, [call_result]
        pop     edi
        pop     esi
        pop     ebx
        pop     ebp
        ret
