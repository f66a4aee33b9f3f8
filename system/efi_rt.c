/* UEFI runtime calls: see efi_rt.h. */
#include "efi_rt.h"
#include "console.h"
#include "exceptions.h"
#include "halt.h"
#include "../lib/format.h"

#define PAGE_PRESENT_RW     0x003
#define PAGE_2M             0x083   /* present, writable, page size (PS) */
#define PD_COUNT            4       /* 4 x 1 GiB */
#define ENTRIES             512

/* The identity map efi_call64 switches to: 24 KiB, only ever used for that call. */
static uint64_t pml4[ENTRIES] __attribute__((aligned(4096)));
static uint64_t pdpt[ENTRIES] __attribute__((aligned(4096)));
static uint64_t pd[PD_COUNT][ENTRIES] __attribute__((aligned(4096)));

/* system/efi_call64.asm: fn(arg0, 0, 0, 0) in long mode, with CR3 = pml4; a fault
 * there is written here. system/efi_call32.asm: fn(type, 0, 0, NULL), aligned. */
uint32_t efi_call64(uint32_t fn, uint32_t pml4_addr, uint32_t arg0);
uint32_t efi_call32(uint32_t fn, uint32_t type, uint32_t sse);
struct efi_fault efi_fault64;

static void identity_map_4g(void)
{
    pml4[0] = (uint32_t)(uintptr_t)pdpt | PAGE_PRESENT_RW;
    for (unsigned i = 0; i < PD_COUNT; i++) {
        pdpt[i] = (uint32_t)(uintptr_t)pd[i] | PAGE_PRESENT_RW;
        for (unsigned j = 0; j < ENTRIES; j++)
            pd[i][j] = ((uint64_t)(i * ENTRIES + j) << 21) | PAGE_2M;
    }
}

uint32_t efi_reset_system(uint32_t fn, bool efi64, uint32_t type, bool sse,
                          struct efi_fault *fault)
{
    uint32_t status;

    efi_fault64 = (struct efi_fault){ .vector = EFI_NO_FAULT };
    if (!efi64) {
        status = efi_call32(fn, type, sse);
    } else {
        identity_map_4g();
        status = efi_call64(fn, (uint32_t)(uintptr_t)pml4, type);
    }
    *fault = efi_fault64;
    return status;
}

/* "00000000 7FEC1234": a 64-bit register, in two halves for the eye. */
#define HI(v) (unsigned)((v) >> 32)
#define LO(v) (unsigned)(v)

void efi_fault_halt(const struct efi_fault *f)
{
    char reason[96];

    say("efi: CPU exception %u (%s) in the firmware's ResetSystem, error code %08Xh",
        (unsigned)f->vector, exception_name((uint32_t)f->vector), LO(f->error));
    say("  RIP=%08X %08X CS=%04X RFLAGS=%08X", HI(f->rip), LO(f->rip), LO(f->cs) & 0xFFFF,
        LO(f->rflags));
    say("  RAX=%08X %08X RBX=%08X %08X RCX=%08X %08X", HI(f->rax), LO(f->rax), HI(f->rbx),
        LO(f->rbx), HI(f->rcx), LO(f->rcx));
    say("  RDX=%08X %08X RSI=%08X %08X RDI=%08X %08X", HI(f->rdx), LO(f->rdx), HI(f->rsi),
        LO(f->rsi), HI(f->rdi), LO(f->rdi));
    say("  RBP=%08X %08X RSP=%08X %08X CR2=%08X %08X", HI(f->rbp), LO(f->rbp), HI(f->rsp),
        LO(f->rsp), HI(f->cr2), LO(f->cr2));
    say("  R8 =%08X %08X R9 =%08X %08X R10=%08X %08X R11=%08X %08X", HI(f->r8), LO(f->r8),
        HI(f->r9), LO(f->r9), HI(f->r10), LO(f->r10), HI(f->r11), LO(f->r11));
    say("  R12=%08X %08X R13=%08X %08X R14=%08X %08X R15=%08X %08X", HI(f->r12),
        LO(f->r12), HI(f->r13), LO(f->r13), HI(f->r14), LO(f->r14), HI(f->r15), LO(f->r15));
    fmt_snprintf(reason, sizeof(reason), "CPU exception %u (%s) in UEFI ResetSystem at "
                 "RIP %08X%08Xh", (unsigned)f->vector, exception_name((uint32_t)f->vector),
                 HI(f->rip), LO(f->rip));
    halt(HALT_EXCEPTION, reason);
}
