; A call into x64 UEFI firmware from our 32-bit protected mode (see system/efi_rt.h).
;
; uint32_t efi_call64(uint32_t fn, uint32_t pml4, uint32_t arg0)
;   Contract: called from C (cdecl) in 32-bit protected mode, paging off, flat
;   SEL_CODE32/SEL_DATA32. Interrupts are turned off for the call and EFLAGS restored
;   after. pml4 is an identity map covering fn and our stack. Goes to long mode (own
;   GDT and IDT, CR4.PAE, CR3 = pml4, EFER.LME, CR0.PG; CR4.OSFXSR too: x64 firmware
;   is built to use SSE), sets the x87 control word and MXCSR as UEFI 2.x 2.3.4 asks,
;   calls fn(arg0, 0, 0, 0) with the Microsoft x64 convention, and if it returns
;   comes back to 32-bit protected mode with our GDT, IDT, CR0, CR3, CR4 and EFER as
;   they were. Returns EAX of the call (the EFI_STATUS's low half). Clobbers EAX, ECX,
;   EDX (cdecl's scratch registers).
;
;   The long-mode IDT has a gate for each of the 32 exception vectors: an NMI is
;   counted and the firmware resumed; any other exception (a #PF in firmware above
;   4 GiB, a #UD, a #GP) is written to efi_fault64 (struct efi_fault, system/efi_rt.h)
;   and the call ends there, as if the service had returned: the caller reports it.
;   Without these gates the CPU would triple-fault and reset the machine silently.

%include "system-offsets.inc"

EFI_NO_FAULT    equ 0xFFFFFFFF
X86_VECTOR_NMI  equ 2
STUB_BYTES      equ 16                  ; each exception stub, aligned so
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
saved_idt:
        dw      0
        dd      0
idt64_ptr:
        dw      32 * 16 - 1
        dd      idt64, 0
fpu_cw          dw 0x037F               ; all exceptions masked, extended precision,
                                        ; round to nearest (UEFI 2.x 2.3.4)
align 4
mxcsr           dd 0x1F80               ; all SSE exceptions masked, round to nearest
align 8
saved_rsp64     dq 0                    ; RSP at the call, where a fault comes back to
saved_esp       dd 0
saved_cr0       dd 0
saved_cr3       dd 0
saved_cr4       dd 0
call_fn         dd 0
call_arg0       dd 0
call_result     dd 0

section .bss
alignb 16
idt64           resb 32 * 16            ; 64-bit interrupt gates, built at each call

section .text
bits 32
extern efi_fault64
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
        call    build_idt64
        sgdt    [saved_gdt]
        sidt    [saved_idt]
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
        lidt    [abs idt64_ptr]
        fninit
        fldcw   [abs fpu_cw]
        ldmxcsr [abs mxcsr]
        mov     esp, esp                ; RSP's upper half zeroed
        and     rsp, -16
        sub     rsp, 32                 ; shadow space for the four register arguments
        mov     [abs saved_rsp64], rsp
        mov     ecx, [abs call_arg0]    ; ResetType
        xor     edx, edx                ; ResetStatus: EFI_SUCCESS
        xor     r8d, r8d                ; DataSize
        xor     r9d, r9d                ; ResetData: NULL
        mov     eax, [abs call_fn]
        call    rax
        mov     [abs call_result], eax
.back:
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
        lidt    [saved_idt]
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

; The 64-bit gates: vector v -> stub v, our 64-bit code segment, interrupt gate.
; (Built in code: an ELF32 object cannot split a symbol's address into a gate's fields.)
bits 32
build_idt64:
        mov     edi, idt64
        mov     eax, efi64_stubs
        mov     ecx, 32
.gate:
        mov     [edi], ax               ; offset 15:0
        mov     word [edi + 2], G_CODE64
        mov     word [edi + 4], 0x8E00  ; present, DPL 0, 64-bit interrupt gate, IST 0
        mov     edx, eax
        shr     edx, 16
        mov     [edi + 6], dx           ; offset 31:16
        mov     dword [edi + 8], 0      ; offset 63:32
        mov     dword [edi + 12], 0
        add     eax, STUB_BYTES
        add     edi, 16
        loop    .gate
        ret

; One stub a vector: the vectors whose exceptions push no error code push a zero,
; so the frame is the same for all: vector, error, RIP, CS, RFLAGS, RSP, SS.
bits 64
%macro STUB 1
align STUB_BYTES
%if %1 = 8 || (%1 >= 10 && %1 <= 14) || %1 = 17 || %1 = 21 || %1 = 29 || %1 = 30
%else
        push    0
%endif
        push    %1
        jmp     efi64_exception
%endmacro

align STUB_BYTES
efi64_stubs:
%assign v 0
%rep 32
        STUB v
%assign v v + 1
%endrep

efi64_exception:
        cmp     qword [rsp], X86_VECTOR_NMI
        jne     .fault
        inc     dword [abs efi_fault64 + EFI_FAULT_NMIS]
        add     rsp, 16                 ; vector and the zero
        iretq                           ; back into the firmware
.fault:
        mov     [abs efi_fault64 + EFI_FAULT_RAX], rax
        mov     [abs efi_fault64 + EFI_FAULT_RBX], rbx
        mov     [abs efi_fault64 + EFI_FAULT_RCX], rcx
        mov     [abs efi_fault64 + EFI_FAULT_RDX], rdx
        mov     [abs efi_fault64 + EFI_FAULT_RSI], rsi
        mov     [abs efi_fault64 + EFI_FAULT_RDI], rdi
        mov     [abs efi_fault64 + EFI_FAULT_RBP], rbp
        mov     [abs efi_fault64 + EFI_FAULT_R8], r8
        mov     [abs efi_fault64 + EFI_FAULT_R9], r9
        mov     [abs efi_fault64 + EFI_FAULT_R10], r10
        mov     [abs efi_fault64 + EFI_FAULT_R11], r11
        mov     [abs efi_fault64 + EFI_FAULT_R12], r12
        mov     [abs efi_fault64 + EFI_FAULT_R13], r13
        mov     [abs efi_fault64 + EFI_FAULT_R14], r14
        mov     [abs efi_fault64 + EFI_FAULT_R15], r15
        pop     rax
        mov     [abs efi_fault64 + EFI_FAULT_VECTOR], rax
        pop     rax
        mov     [abs efi_fault64 + EFI_FAULT_ERROR], rax
        pop     rax
        mov     [abs efi_fault64 + EFI_FAULT_RIP], rax
        pop     rax
        mov     [abs efi_fault64 + EFI_FAULT_CS], rax
        pop     rax
        mov     [abs efi_fault64 + EFI_FAULT_RFLAGS], rax
        pop     rax
        mov     [abs efi_fault64 + EFI_FAULT_RSP], rax
        mov     rax, cr2
        mov     [abs efi_fault64 + EFI_FAULT_CR2], rax
        mov     rsp, [abs saved_rsp64]  ; the thunk's own stack, as at the call
        mov     dword [abs call_result], EFI_NO_FAULT
        jmp     efi_call64.back

; Stand-ins for ResetSystem, for inject=efi-fault and inject=efi-nmi (app/power/efi.c):
; they prove the 64-bit IDT above where no firmware misbehaves. Each is written with
; encodings that mean the same in 64-bit and 32-bit code (no REX bytes, addresses in
; registers), so an ia32 call runs them too.
bits 32
global efi_standin_ud2, efi_standin_nmi
efi_standin_ud2:
        ud2                             ; #UD: the call ends in the exception handler

NMI_WAIT_PASSES equ 0x40000000          ; about ten seconds of PAUSE

efi_standin_nmi:
        mov     edx, efi_fault64 + EFI_FAULT_NMIS
        mov     ecx, NMI_WAIT_PASSES
.wait:
        cmp     dword [edx], 0          ; the handler counted one
        jne     .seen
        pause
        sub     ecx, 1
        jnz     .wait
        mov     eax, 1                  ; none came
        ret
.seen:
        xor     eax, eax
        ret
