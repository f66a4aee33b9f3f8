/* CPU exceptions: a register dump on the console instead of a silent reboot.
 *
 * struct exception_frame is what system/isr.asm leaves on the stack, lowest address
 * first. The last six fields exist only when the CPU changed privilege (a fault
 * in virtual-8086 mode pushes all of them). */
#ifndef APMOFF_EXCEPTIONS_H
#define APMOFF_EXCEPTIONS_H

#include <stdbool.h>
#include <stdint.h>

struct exception_frame {
    uint32_t gs, fs, es, ds;
    uint32_t edi, esi, ebp, esp_at_pushad, ebx, edx, ecx, eax;
    uint32_t vector, error;
    uint32_t eip, cs, eflags;
    uint32_t esp, ss;                   /* privilege change only */
    uint32_t v86_es, v86_ds, v86_fs, v86_gs;    /* from virtual-8086 mode only */
};

/* A handler for exceptions raised in virtual-8086 mode (the v86 monitor installs one).
 * It returns true when it handled the exception and the frame may be resumed. */
typedef bool (*v86_trap_fn)(struct exception_frame *f);
void exceptions_set_v86_handler(v86_trap_fn fn);

/* "page fault", "invalid opcode"; "reserved" for a vector without a name. */
const char *exception_name(uint32_t vector);

/* Called from isr.asm. */
void exception_dispatch(struct exception_frame *f);
void exception_foreign_stack(uint32_t ss, uint32_t esp) __attribute__((noreturn));

#endif
