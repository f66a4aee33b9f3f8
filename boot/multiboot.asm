; Multiboot 1 and multiboot 2 headers.
;
; Both live in one section that the linker script puts first in the image, so the
; multiboot 1 header is inside the first 8 KiB and the multiboot 2 header inside the
; first 32 KiB, as the two specifications require. The kernel is an ELF file, so
; neither header carries load addresses: the boot loader reads the program headers.
; GRUB's `multiboot` command and QEMU's -kernel use the first header; GRUB's
; `multiboot2` command (the only one it offers on EFI) uses the second.

MB1_MAGIC           equ 0x1BADB002
MB1_PAGE_ALIGN      equ 1 << 0          ; modules page aligned (we load none)
MB1_MEMORY_INFO     equ 1 << 1          ; we need mem_lower/upper and the map
MB1_FLAGS           equ MB1_PAGE_ALIGN | MB1_MEMORY_INFO

MB2_MAGIC           equ 0xE85250D6
MB2_ARCH_I386       equ 0
MB2_TAG_END         equ 0
MB2_TAG_INFO_REQ    equ 1
MB2_TAG_OPTIONAL    equ 1               ; tag flag: the loader may ignore it

MB2_INFO_CMDLINE    equ 1
MB2_INFO_LOADER     equ 2
MB2_INFO_MMAP       equ 6
MB2_TAG_FRAMEBUFFER equ 5

global mb1_header, mb2_header_end

section .multiboot progbits alloc noexec nowrite align=8

        align 4
mb1_header:
        dd MB1_MAGIC
        dd MB1_FLAGS
        dd -(MB1_MAGIC + MB1_FLAGS)

        align 8
mb2_header:
        dd MB2_MAGIC
        dd MB2_ARCH_I386
        dd mb2_header_end - mb2_header
        dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))

        align 8                         ; every tag starts on an 8-byte boundary
.info_request:
        dw MB2_TAG_INFO_REQ, MB2_TAG_OPTIONAL
        dd .info_request_end - .info_request
        dd MB2_INFO_CMDLINE, MB2_INFO_LOADER, MB2_INFO_MMAP
.info_request_end:

        ; A linear framebuffer, any mode the loader likes: under UEFI there is no text
        ; mode, and the console draws its own characters (system/fbcon.c). Only GRUB's
        ; multiboot2 command reads this; we use it only where GRUB runs on EFI.
        align 8
        dw MB2_TAG_FRAMEBUFFER, MB2_TAG_OPTIONAL
        dd 20
        dd 0, 0, 32                     ; width, height: no preference; 32 bits a pixel

        align 8
        dw MB2_TAG_END, 0
        dd 8
mb2_header_end:
