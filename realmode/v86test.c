/* v86test=: see v86test.h. The stubs are real-mode machine code, run by the monitor
 * at the trampoline's scratch area; each ends in RETF, which it must never reach. */
#include "v86test.h"
#include "bios.h"
#include "trampoline.h"
#include "v86.h"
#include "../system/console.h"
#include "../lib/pc.h"
#include "../lib/string.h"

static int expect_stopped(const char *name, const uint8_t *code, unsigned size)
{
    struct biosregs r;
    const char *why = "";

    initregs(&r);
    say("v86test: running a stub that executes %s", name);
    if (v86_run_stub(code, size, &r, &why)) {
        say("v86test: FAIL: the stub ran to its end; the monitor did not stop %s", name);
        return 1;
    }
    say("v86test: PASS: the monitor stopped %s and returned control", name);
    return 0;
}

/* IF included: the monitor keeps a virtual IF, and what the BIOS's IRET or POPF left
 * there must be what the CPU's own IF would hold. */
#define COMPARED_FLAGS (X86_EFLAGS_PROGRAM | X86_EFLAGS_IF)

static int compare(const char *name, uint8_t vector, uint16_t ax, uint16_t bx)
{
    struct biosregs in, tr, vm;
    const char *why = "";

    initregs(&in);
    in.ax = ax;
    in.bx = bx;
    if (!bios_int_via(BIOS_PATH_TRAMPOLINE, vector, &in, &tr, &why) ||
        !bios_int_via(BIOS_PATH_V86, vector, &in, &vm, &why)) {
        say("v86test: FAIL: %s: %s", name, why);
        return 1;
    }
    bool same = tr.eax == vm.eax && tr.ebx == vm.ebx && tr.ecx == vm.ecx &&
                tr.edx == vm.edx && tr.esi == vm.esi && tr.edi == vm.edi &&
                tr.ebp == vm.ebp && tr.ds == vm.ds && tr.es == vm.es &&
                (tr.eflags & COMPARED_FLAGS) == (vm.eflags & COMPARED_FLAGS);
    say("v86test: %s %s: trampoline AX=%04X BX=%04X CX=%04X DX=%04X flags=%03X, "
        "v86 AX=%04X BX=%04X CX=%04X DX=%04X flags=%03X", same ? "PASS" : "FAIL", name,
        tr.ax, tr.bx, tr.cx, tr.dx, (unsigned)(tr.eflags & COMPARED_FLAGS), vm.ax, vm.bx,
        vm.cx, vm.dx, (unsigned)(vm.eflags & COMPARED_FLAGS));
    return !same;
}

/* INT 15h AX=2400h asks the BIOS to turn A20 off: both paths must come back with it
 * on (the kernel runs above 1 MiB), and say so. */
static int a20_off(enum bios_path path, const char *name)
{
    struct biosregs r;
    const char *why = "";

    initregs(&r);
    r.ax = 0x2400;
    say("v86test: INT 15h AX=2400h (disable A20) through the %s", name);
    if (!bios_int_via(path, BIOS_INT_SYSTEM, &r, &r, &why)) {
        say("v86test: FAIL: %s: %s", name, why);
        return 1;
    }
    say("v86test: PASS: back from the %s with A20 on", name);
    return 0;
}

/* realmode/v86stubs.asm */
struct v86_stub {
    const char *name;
    const uint8_t *code;
    uint16_t size, pad;
};
extern const struct v86_stub v86_stubs[];
extern const uint32_t v86_stubs_count;

static void print_regs(const char *name, const char *path, const struct biosregs *r)
{
    say("v86test: insn %s %s AX=%04X BX=%04X CX=%04X DX=%04X SI=%04X DI=%04X BP=%04X "
        "DS=%04X ES=%04X", name, path, r->ax, r->bx, r->cx, r->dx, r->si, r->di, r->bp,
        r->ds, r->es);
}

/* The same bytes run by the CPU in real mode, as INT would enter them (the
 * reference: what a real CPU does), then under the monitor. Only the values are
 * printed: tests/emu compares the two lines of each stub. A HLT with IF clear would
 * stop a real CPU for good, so that stub runs under the monitor only, which must
 * stop it and say so. */
static int insns(void)
{
    uint16_t seg = (uint16_t)(tramp_base() >> 4);
    uint16_t at = (uint16_t)(tramp_scratch() + 16);
    int failed = 0;

    for (uint32_t i = 0; i < v86_stubs_count; i++) {
        const struct v86_stub *s = &v86_stubs[i];
        bool cpu_stops = !strcmp(s->name, "hlt-if-clear");
        struct biosregs tr, vm;
        const char *why = "";

        if (s->size > TRAMP_SCRATCH_SIZE - 16) {
            say("v86test: FAIL: stub %s is %u bytes; the scratch area holds %u", s->name,
                s->size, TRAMP_SCRATCH_SIZE - 16);
            failed++;
            continue;
        }
        if (!cpu_stops) {
            initregs(&tr);
            memcpy((void *)(uintptr_t)(tramp_base() + at), s->code, s->size);
            tramp_call(TRAMP_MODE_INT, seg, at, &tr);
            print_regs(s->name, "trampoline", &tr);
        }
        initregs(&vm);
        if (v86_run_handler_stub(s->code, s->size, &vm, &why)) {
            print_regs(s->name, "v86", &vm);
            failed += cpu_stops;
        } else {
            say("v86test: insn %s v86 stopped: %s", s->name, why);
            failed += !cpu_stops;
        }
    }
    return failed;
}

int v86_selftest(enum v86test which)
{
    static const uint8_t mov_cr0[] = { 0x0F, 0x22, 0xC0, 0xCB };    /* MOV CR0,EAX; RETF */
    static const uint8_t cli_hlt[] = { 0xFA, 0xF4, 0xCB };          /* CLI; HLT; RETF */

    switch (which) {
    case V86TEST_MOVCR0:
        return expect_stopped("MOV CR0, EAX", mov_cr0, sizeof(mov_cr0));
    case V86TEST_HLT:
        return expect_stopped("CLI; HLT", cli_hlt, sizeof(cli_hlt));
    case V86TEST_COMPARE:
        return compare("INT 15h AX=5300h (APM installation check)", BIOS_INT_SYSTEM,
                       0x5300, 0) +
               compare("INT 12h (conventional memory)", BIOS_INT_MEMORY, 0, 0) +
               compare("INT 11h (equipment list)", BIOS_INT_EQUIPMENT, 0, 0);
    case V86TEST_A20:
        return a20_off(BIOS_PATH_TRAMPOLINE, "trampoline") + a20_off(BIOS_PATH_V86, "v86 monitor");
    case V86TEST_INSNS:
        return insns();
    case V86TEST_OFF:
        break;
    }
    return 0;
}
