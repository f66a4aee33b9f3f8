; The assembled trampoline (build/trampoline.bin), carried in the kernel image for
; realmode/trampoline.c to copy below 1 MiB.
global trampoline_blob, trampoline_blob_end

section .rodata
        align   16
trampoline_blob:
        incbin  "trampoline.bin"
trampoline_blob_end:
