; memcpy and memset for the loader: the C library's two bulk moves, as string
; instructions with 32-bit addresses (a32), so they reach any address in unreal mode
; and move four bytes a step. lib/string.c's byte loops (weak) are the kernel's; on a
; 386 these run about five times faster, which the loader feels: it copies the
; kernel's 180 KiB and clears its 250 KiB of BSS.
;
; Called from gcc -m16 code: arguments in EAX, EDX, ECX (-mregparm=3), 32-bit return
; address; EBX, ESI, EDI, EBP kept. ES is the unreal segment at base 0, DF clear.

        bits    16
section .text
global memcpy, memset

; void *memcpy(void *dst, const void *src, size_t n)
memcpy:
        push    esi
        push    edi
        mov     edi, eax
        mov     esi, edx
        mov     edx, ecx
        shr     ecx, 2
        a32 rep movsd
        mov     ecx, edx
        and     ecx, 3
        a32 rep movsb
        pop     edi
        pop     esi
        o32 ret

; void *memset(void *dst, int c, size_t n)
memset:
        push    edi
        push    eax
        mov     edi, eax
        movzx   eax, dl
        imul    eax, eax, 0x01010101    ; the byte in all four
        mov     edx, ecx
        shr     ecx, 2
        a32 rep stosd
        mov     ecx, edx
        and     ecx, 3
        a32 rep stosb
        pop     eax
        pop     edi
        o32 ret
