; A call into ia32 UEFI firmware from our 32-bit protected mode (see system/efi_rt.h).
;
; uint32_t efi_call32(uint32_t fn, uint32_t type, uint32_t sse)
;   Contract: cdecl, flat SEL_CODE32/SEL_DATA32, paging off (UEFI 2.x 2.3.2: IA-32
;   calls are cdecl, with the stack 16-byte aligned at the call, the x87 control word
;   027Fh and, where the CPU has SSE, MXCSR 1F80h). Calls fn(type, EFI_SUCCESS, 0,
;   NULL) with ESP aligned so, CR0.EM and TS clear and the FPU initialised; sse
;   (CPUID.1:EDX.SSE, checked by the caller) also turns on CR4.OSFXSR and OSXMMEXCPT
;   and loads MXCSR. CR0 and CR4 are put back if the firmware returns. Returns EAX of
;   the call (the EFI_STATUS). Clobbers EAX, ECX, EDX.

CR0_MP          equ 1 << 1
CR0_EM          equ 1 << 2
CR0_TS          equ 1 << 3
CR4_OSFXSR      equ 1 << 9
CR4_OSXMMEXCPT  equ 1 << 10
EFI_SUCCESS     equ 0

section .data
fpu_cw          dw 0x027F               ; all exceptions masked, double precision,
                                        ; round to nearest (UEFI 2.x 2.3.2)
align 4
mxcsr           dd 0x1F80               ; all SSE exceptions masked, round to nearest
saved_cr0       dd 0
saved_cr4       dd 0

section .text
bits 32
global efi_call32
efi_call32:
        push    ebp
        mov     ebp, esp
        mov     eax, cr0
        mov     [saved_cr0], eax
        and     eax, ~(CR0_EM | CR0_TS)
        or      eax, CR0_MP
        mov     cr0, eax
        fninit
        fldcw   [fpu_cw]
        cmp     dword [ebp + 16], 0
        je      .aligned
        mov     eax, cr4
        mov     [saved_cr4], eax
        or      eax, CR4_OSFXSR | CR4_OSXMMEXCPT
        mov     cr4, eax
.sse:
        ldmxcsr [mxcsr]
.aligned:
        and     esp, -16                ; four arguments keep it aligned at the call
        push    0                       ; ResetData: NULL
        push    0                       ; DataSize
        push    EFI_SUCCESS             ; ResetStatus
        push    dword [ebp + 12]        ; ResetType
        call    [ebp + 8]
        mov     esp, ebp
        cmp     dword [ebp + 16], 0
        je      .no_cr4
        mov     ecx, [saved_cr4]
        mov     cr4, ecx
.no_cr4:
        mov     ecx, [saved_cr0]
        mov     cr0, ecx
        pop     ebp
        ret
