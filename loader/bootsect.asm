; The floppy's boot sector: loads the loader's second stage and runs it.
;
; What the BIOS hands us, and all we trust: this sector at 0000:7C00 (or 07C0:0000:
; the far jump below makes CS 0), DL the drive we were read from when it is a drive
; number at all, interrupts on, nothing else (no stack, no segment registers). The
; BIOS parameter block below is the medium's own: iso/mkfloppy.sh has mformat write it
; for the format of the disk, so its sectors a track and heads describe the disk even
; in a drive of another kind (a 720 KB disk in a 1.44 MB drive, whose INT 13h AH=08h
; would answer 18 sectors).
;
; What it does: reads the reserved sectors after this one (the BPB's reserved count
; says how many) to 0000:8000, as many sectors a call as the track holds, each call
; tried five times with a drive reset between (a 5.25" drive spinning up, a DD disk in
; an HD drive while the BIOS finds the data rate); checks the second stage's magic and
; checksum; and jumps to it with DL still the drive. BIOS calls: INT 13h AH=00h, 02h;
; INT 10h AH=0Eh for a message. A failure is named on the screen and on COM1 (115200
; 8N1, set up here: nothing else has) and the machine halts, interrupts on, so
; Ctrl-Alt-Del still works: never a reset loop.
;
; The second stage's header (loader/head.asm, iso/mkfloppy.sh writes the checksum):
;   +0  "AOL2"      magic
;   +4  word        its length in sectors; the BPB's reserved count must cover it
;   +6  word        the 16-bit sum of all its words is 0
;   +8              its entry point

        bits    16

%include "loader-offsets.inc"          ; loader/layout.h, by loader/asm-offsets.c

        org     LOADER_BOOT_SECTOR

STAGE2          equ LOADER_STAGE2
STAGE2_ENTRY    equ STAGE2 + 8
STAGE2_MAGIC    equ 0x324C4F41          ; "AOL2" read as a little-endian dword
TRIES           equ 5
DPT_SIZE        equ 12                  ; the diskette parameter table, as Linux copies it
DPT_SECTORS     equ 4                   ; its sectors a track (the FDC's end of track)
COM1            equ 0x3F8

        jmp     short start
        nop
        db      "APMOFF  "              ; OEM name
; BIOS parameter block: placeholders, mformat writes the medium's values over them.
bytes_per_sector        dw 512
sectors_per_cluster     db 1
reserved_sectors        dw 1
fat_count               db 2
root_entries            dw 224
total_sectors           dw 2880
media                   db 0xF0
sectors_per_fat         dw 9
sectors_per_track       dw 18
heads                   dw 2
hidden_sectors          dd 0
total_sectors_32        dd 0
drive_number            db 0
bios_drive              db 0            ; reserved: the DL the BIOS handed, for stage 2
boot_signature          db 0x29
volume_serial           dd 0
volume_label            db "NO NAME    "
fs_type                 db "FAT12   "

start:
        cli
        xor     ax, ax
        mov     ds, ax
        mov     es, ax
        mov     ss, ax
        mov     sp, LOADER_STACK_TOP
        jmp     0:.cs_is_zero
.cs_is_zero:
        sti
        cld
        ; INT 1Eh's diskette parameter table may end every track at its own count of
        ; sectors (byte 4; 9 on some BIOSes whatever the drive), and a read past it
        ; stops short, often without an error: the table is copied to RAM with the
        ; BPB's sectors a track, as DOS and Linux's old boot sector do.
        lds     si, [0x1E * 4]
        mov     di, LOADER_DPT_COPY
        mov     cx, DPT_SIZE
        rep     movsb
        mov     ds, cx
        mov     al, [sectors_per_track]
        mov     [LOADER_DPT_COPY + DPT_SECTORS], al
        mov     word [0x1E * 4], LOADER_DPT_COPY
        mov     [0x1E * 4 + 2], ds
        ; A floppy's number is 00h-03h, a hard disk's 80h-FFh. Anything else is no drive:
        ; Phoenix's A486 1.00.09 (86Box's Intel Classic R) hands 0Ah. Then the BPB's own
        ; (mformat's 00h) is the one, as DOS's boot sectors always take.
        mov     [bios_drive], dl
        test    dl, 0x80
        jnz     .drive
        cmp     dl, 3
        jbe     .drive
        mov     dl, [drive_number]
.drive: mov     [drive_number], dl      ; the second stage reads the drive from here too

        mov     dx, COM1 + 3            ; line control: DLAB, then 8N1
        mov     al, 0x80
        out     dx, al
        mov     dx, COM1                ; divisor 1: 115200 baud
        mov     al, 1
        out     dx, al
        inc     dx
        dec     ax
        out     dx, al
        mov     dx, COM1 + 3
        mov     al, 3
        out     dx, al

.again: mov     si, 1                   ; SI: the next sector (LBA)
        mov     di, [reserved_sectors]  ; DI: sectors still to read
        dec     di
        jz      damaged
        mov     bx, STAGE2              ; ES:BX: where they go

.next:  mov     ax, si                  ; LBA -> cylinder, head, sector
        xor     dx, dx
        div     word [sectors_per_track]
        mov     cx, dx
        inc     cx                      ; CL: sector, from 1
        xor     dx, dx
        div     word [heads]
        mov     ch, al                  ; CH: cylinder (a diskette has fewer than 256)
        mov     dh, dl                  ; DH: head
        mov     ax, [sectors_per_track] ; AL: the rest of this track, or what is left
        sub     al, cl
        inc     ax
        cmp     ax, di
        jbe     .count
        mov     ax, di
.count: mov     bp, TRIES
.try:   push    ax
        mov     ah, 0x02                ; read AL sectors
        mov     dl, [drive_number]
        int     0x13
        jnc     .read
        mov     [status], ah
        xor     ax, ax                  ; reset the drive, then again
        int     0x13
        pop     ax
        dec     bp
        jnz     .try
        mov     si, msg_read
        jmp     fail
.read:  pop     cx                      ; CL: the sectors asked for
        test    al, al                  ; AL: those read, where the BIOS says (not all
        jz      .asked                  ; do: 0 or more than asked is taken as all)
        cmp     al, cl
        jb      .short
.asked: mov     al, cl
.short: xor     ah, ah
        add     si, ax
        sub     di, ax
        shl     ax, 9
        add     bx, ax
        test    di, di
        jnz     .next

        cmp     dword [STAGE2], STAGE2_MAGIC
        jne     damaged
        mov     cx, [STAGE2 + 4]        ; its length must be read whole ...
        cmp     cx, [reserved_sectors]
        jae     damaged
        shl     cx, 8                   ; ... and sum to 0, a word at a time
        mov     si, STAGE2
        xor     dx, dx
.sum:   lodsw
        add     dx, ax
        loop    .sum
        test    dx, dx
        jnz     damaged
        mov     dl, [drive_number]
        jmp     0:STAGE2_ENTRY

damaged:
        mov     si, msg_damaged
fail:   call    say
        mov     si, msg_halted
        call    say
.halt:  hlt
        jmp     .halt

; say: the NUL-terminated string at DS:SI on the screen and COM1; a '%' prints the
; drive's status byte in hex.
say:    lodsb
        test    al, al
        jz      .done
        cmp     al, '%'
        jne     .char
        mov     al, [status]
        shr     al, 4
        call    hex
        mov     al, [status]
        call    hex
        jmp     say
.char:  call    putc
        jmp     say
.done:  ret

hex:    and     al, 0x0F
        add     al, '0'
        cmp     al, '9'
        jbe     putc
        add     al, 'A' - '9' - 1
putc:   push    ax
        mov     ah, 0x0E                ; teletype, page 0
        xor     bx, bx
        int     0x10
        mov     dx, COM1 + 5            ; wait (bounded) for the transmitter, then send
        mov     cx, 0xFFFF
.wait:  in      al, dx
        test    al, 0x20
        loopz   .wait
        pop     ax
        mov     dx, COM1
        out     dx, al
        ret

status          db 0
msg_read        db "apmoff loader: disk read error %h", 0
msg_damaged     db "apmoff loader: the second stage is missing or damaged", 0
msg_halted      db "; halted", 13, 10, 0

        times   510 - ($ - $$) db 0
        dw      0xAA55

; The second stage reads the BIOS's DL back where loader/layout.h says it is.
%if bios_drive - $$ != BOOT_BIOS_DRIVE
%error "bios_drive is not at BOOT_BIOS_DRIVE (loader/layout.h)"
%endif
