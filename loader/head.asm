; The loader's second stage: its header, its entry, and the few things only assembly
; can do: call the BIOS (intcall), open the address space to 4 GiB from real mode
; (unreal mode), and start the kernel in 32-bit protected mode (boot_kernel). Every
; decision is in C (loader/main.c and the files it names).
;
; Entered from the boot sector (loader/bootsect.asm) at 0000:8008 in real mode, DL the
; BIOS drive, interrupts on. The stage lies at 8000h (loader/loader.ld), so with every
; segment register 0 its C code's addresses are the physical ones.
;
; The C code is compiled with gcc -m16 (32-bit code with operand- and address-size
; prefixes, as Linux's arch/x86/boot is): it calls and returns with 32-bit return
; addresses, passes up to three arguments in EAX, EDX, ECX (-mregparm=3), keeps EBX,
; ESI, EDI, EBP, and uses 32-bit offsets, which unreal mode lets reach any address:
; the BSS runs on past 10000h, and the kernel goes to 2 MiB. The code itself stays
; below 10000h (CS keeps real mode's 64 KiB).

        bits    16

%include "loader-offsets.inc"          ; from the C headers (loader/asm-offsets.c)

FLAT_CODE       equ 0x08
FLAT_DATA       equ 0x10
STACK_TOP       equ LOADER_STACK_TOP    ; below the boot sector, above the track buffer

extern loader_main, __bss_start, __bss_end
global entry, intcall, unreal_enter, boot_kernel, loader_halt

section .head progbits alloc exec
        dd      0x324C4F41              ; "AOL2": the boot sector checks it ...
        dw      0                       ; ... our length in sectors and
        dw      0                       ; ... a checksum (scripts/sealstage2.py fills both)
entry:
        cli
        xor     ax, ax
        mov     ds, ax
        mov     es, ax
        mov     ss, ax
        mov     esp, STACK_TOP
        sti
        cld
        movzx   ebx, dl
        call    dword unreal_enter      ; first: the BSS reaches past 64 KiB
        mov     edi, __bss_start        ; BSS: zeros, as C expects
        mov     ecx, __bss_end
        sub     ecx, edi
        xor     al, al
        a32 rep stosb
        mov     eax, ebx                ; loader_main(drive): it never returns
        call    dword loader_main
        jmp     loader_halt

section .text

; void intcall(uint8_t vector, const struct biosregs *in, struct biosregs *out)
; The registers of *in (DS, ES, FS, GS and EFLAGS among them), INT vector, the
; registers as the BIOS left them into *out (out may be in). Our DS, ES, FS, GS, our
; EFLAGS (IF: the timer must go on ticking) and the stack come back as they were, and
; so does unreal mode (a BIOS that switched modes may have taken it).
intcall:
        mov     [.int + 1], al          ; the INT instruction's vector byte
        jmp     .flush                  ; a 386 may have fetched the old byte
.flush: pushfd
        pushad
        push    ds
        push    es
        push    fs
        push    gs
        push    ecx                     ; out
        sub     sp, BIOSREGS_SIZE       ; a copy of *in on the stack, popped whole
        mov     si, dx
        mov     di, sp
        mov     cx, BIOSREGS_SIZE
        rep movsb
        popad
        pop     gs
        pop     fs
        pop     es
        pop     ds
        popfd
.int:   int     0x00
        pushfd
        push    ds
        push    es
        push    fs
        push    gs
        pushad
        xor     ax, ax                  ; our own segments again to find *out
        mov     ds, ax
        mov     es, ax
        cld
        mov     si, sp
        mov     di, [esp + BIOSREGS_SIZE]
        mov     cx, BIOSREGS_SIZE
        rep movsb
        add     sp, BIOSREGS_SIZE + 4
        pop     gs
        pop     fs
        pop     es
        pop     ds
        popad
        call    dword unreal_enter
        popfd
        o32 ret

; void unreal_enter(void): DS, ES, FS and GS keep base 0 but reach 4 GiB. A moment in
; protected mode loads them from a flat descriptor; real mode keeps the limit it found
; in the descriptor cache (the "unreal" or "big real" mode of HIMEM and of every
; loader since).
unreal_enter:
        pushfd
        cli
        push    eax
        push    bx
        o32 lgdt [gdt_descriptor]
        mov     eax, cr0
        or      al, X86_CR0_PE
        mov     cr0, eax
        jmp     .pm                     ; the 386 wants its prefetch queue flushed
.pm:    mov     bx, FLAT_DATA
        mov     ds, bx
        mov     es, bx
        mov     fs, bx
        mov     gs, bx
        and     al, ~X86_CR0_PE
        mov     cr0, eax
        jmp     .rm
.rm:    xor     bx, bx
        mov     ds, bx
        mov     es, bx
        mov     fs, bx
        mov     gs, bx
        pop     bx
        pop     eax
        popfd
        o32 ret

; void boot_kernel(uint32_t entry, uint32_t info): the multiboot hand-over. 32-bit
; protected mode, flat CS and data segments, paging off, interrupts off, A20 on (the C
; code made sure of it), EAX the multiboot magic, EBX the information block. The
; kernel sets its own GDT and stack.
boot_kernel:
        cli
        mov     esi, eax
        mov     ebx, edx
        o32 lgdt [gdt_descriptor]
        mov     eax, cr0
        or      al, X86_CR0_PE
        mov     cr0, eax
        jmp     dword FLAT_CODE:.pm32
        bits    32
.pm32:  mov     ax, FLAT_DATA
        mov     ds, ax
        mov     es, ax
        mov     fs, ax
        mov     gs, ax
        mov     ss, ax
        mov     eax, MB1_BOOT_MAGIC
        jmp     esi
        bits    16

; void loader_halt(void): the end after a failure the screen and COM1 have named.
; Interrupts stay on, so Ctrl-Alt-Del still works: never a reset loop.
loader_halt:
        sti
.forever:
        hlt
        jmp     .forever

section .rodata
        align   8
gdt:    dq      0                       ; null
        dq      0x00CF9A000000FFFF      ; 08h: code, base 0, 4 GiB, 32-bit
        dq      0x00CF92000000FFFF      ; 10h: data, base 0, 4 GiB
gdt_descriptor:
        dw      gdt_descriptor - gdt - 1
        dd      gdt
