"""The planted bugs of `make mutate` (tests/mutate/mutate.py): one row each.

Columns: id, file, the exact text to replace (it must occur exactly once in the
file), its replacement, the smallest test subset that must catch it, and what the
bug is. Test subsets:
    unit:BINARY     build/tests/BINARY (make builds it), must fail
    emu:NAME        python3 -m tests.run_all --emu-only -k NAME, must fail
    cmd:COMMAND     a shell command run at the copy's root, must fail
If the subset does not catch a bug, the whole `make test` suite is run on it.
Every folder is represented; the first six are bugs that once survived `make test`.
"""

from collections import namedtuple

Mutant = namedtuple("Mutant", "id file old new tests why")

MUTANTS = [
    # --- the bugs that once survived `make test` ----------------------------------------
    Mutant("pm-code16-base", "apm/pm_segs.c",
           "REAL_MODE_BASE(pm->code16_seg)", "REAL_MODE_BASE(pm->code32_seg)",
           ["unit:test_apm"], "the code16 descriptor's base taken from the code32 segment"),
    Mutant("v86-popf-iret-if", "realmode/v86.c",
           "    call.virtual_if = flags & X86_EFLAGS_IF;\n", "",
           ["emu:qemu-pc-v86-insns"], "POPF and IRET no longer update the virtual IF"),
    Mutant("json-backslash", "lib/json.c",
           "if (c == '\"' || c == '\\\\')", "if (c == '\"')",
           ["unit:test_json"], "backslash not escaped in JSON strings"),
    Mutant("survey-battery-status", "app/surveyjson.c",
           'json_hex(j, "battery_status", st->battery_status, 2);',
           'json_hex(j, "battery_status", st->battery_flag, 2);',
           ["unit:test_survey_json"], "battery_status filled from battery_flag"),
    Mutant("pm32-es-reload", "apm/pm32call.asm",
           "        mov     es, ax\n", "",
           ["emu:qemu-pc-pm32"], "ES not reloaded after the 32-bit protected-mode call"),
    Mutant("tramp-es-reload", "realmode/trampoline.asm",
           "return32:\n        mov     ax, SEL_DATA32\n        mov     ds, ax\n"
           "        mov     es, ax\n",
           "return32:\n        mov     ax, SEL_DATA32\n        mov     ds, ax\n",
           ["emu:qemu-pc-rm"], "ES not reloaded on the way back from real mode"),

    # --- apm/ ------------------------------------------------------------------------------
    Mutant("pm-bda-base", "apm/pm_segs.c",
           "{ SEL_BIOS_DATA, BDA_BASE, 0xFFFF, SEG_DATA16 }",
           "{ SEL_BIOS_DATA, 0x40, 0xFFFF, SEG_DATA16 }",
           ["unit:test_apm"], "selector 40h based at 40h (the segment) instead of 400h"),
    Mutant("pm32-data-16bit", "apm/pm_segs.c",
           "iface == APM_IFACE_PM32 ? SEG_DATA32 : SEG_DATA16", "SEG_DATA16",
           ["unit:test_apm"], "the 32-bit interface's data segment built 16-bit"),
    Mutant("chain-order", "apm/poweroff.c",
           "{ APM_IFACE_RM, APM_IFACE_PM32, APM_IFACE_PM16 }",
           "{ APM_IFACE_RM, APM_IFACE_PM16, APM_IFACE_PM32 }",
           ["unit:test_apm"], "fallback chain tries pm16 before pm32"),
    Mutant("pm32-esi-halves", "apm/apm.c",
           "        pm->raw_code16_len = r->esi >> 16;\n",
           "        pm->raw_code16_len = r->si;\n",
           ["unit:test_apm"], "5303h's 16-bit code length read from the wrong half of ESI"),

    # --- lib/, system/, app/ -----------------------------------------------------------------
    Mutant("segdesc-code32-d-bit", "system/segdesc.c",
           "(kind == SEG_CODE32 || kind == SEG_DATA32) ? SEG_FLAG_32BIT : 0",
           "(kind == SEG_DATA32) ? SEG_FLAG_32BIT : 0",
           ["unit:test_apm"], "32-bit code descriptors lose their D bit"),
    Mutant("json-del", "lib/json.c",
           "} else if (c < 0x20 || c > 0x7E) {", "} else if (c < 0x20 || c > 0x7F) {",
           ["unit:test_json"], "DEL (7Fh) written raw into JSON"),
    Mutant("survey-life-minutes", "app/surveyjson.c",
           "(st->life_time & APM_LIFE_MINUTES ? 60u : 1u)",
           "(st->life_time & APM_LIFE_MINUTES ? 1u : 60u)",
           ["unit:test_survey_json"], "battery life unit bit (minutes/seconds) inverted"),
    Mutant("survey-code16-seg", "app/surveyjson.c",
           'json_hex(j, "code16_seg", pm->code16_seg, 4);',
           'json_hex(j, "code16_seg", pm->code32_seg, 4);',
           ["unit:test_survey_json"], "survey reports the code32 segment as code16"),
    Mutant("options-irq-default", "app/options.c",
           'BOOL_OPTION("irq", irq, switch_choices, false)',
           'BOOL_OPTION("irq", irq, switch_choices, true)',
           ["unit:test_options"], "irq=on by default"),
    Mutant("halt-exit-code", "system/halt.c",
           "outb(PORT_DEBUG_EXIT, (uint8_t)code);",
           "outb(PORT_DEBUG_EXIT, (uint8_t)(code + 1));",
           ["emu:qemu-pc-all-fail-exit"], "isa-debug-exit code off by one"),

    Mutant("irq0-no-tick", "system/irq0.asm",
           "        inc     dword [BDA_TICKS]\n", "",
           ["emu:qemu-pc-irq-on-idle"], "the timer IRQ during a PM call is not counted"),
    Mutant("irq-on-pm-masked", "apm/port_pm.c",
           "        idt_route_irq0(1);\n        pic_unmask_timer();\n",
           "        idt_route_irq0(1);\n",
           ["emu:qemu-pc-irq-on-idle"], "irq=on leaves the timer masked during PM calls"),

    Mutant("layers-upward-include", "system/halt.h",
           "#include <stdbool.h>\n", "#include <stdbool.h>\n#include \"../app/options.h\"\n",
           ["cmd:/usr/bin/python3 tests/check_layers.py"],
           "the platform includes the application (an upward include)"),

    # --- realmode/ -------------------------------------------------------------------------
    Mutant("v86-pushfd-high", "realmode/v86.c",
           "            push16(f, 0);                       /* high half of EFLAGS as "
           "real mode sees it */\n", "",
           ["emu:qemu-pc-v86-insns"], "PUSHFD (66h 9Ch) pushes only a word"),
    Mutant("v86-int-if", "realmode/v86.c",
           "    call.virtual_if = false;            /* as INT does: IF and TF cleared */\n",
           "", ["emu:qemu-pc-v86-insns"], "a reflected INT leaves the virtual IF set"),
    Mutant("v86-sti", "realmode/v86.c",
           "    case 0xFB:                                  /* STI */\n"
           "        call.virtual_if = true;",
           "    case 0xFB:                                  /* STI */\n"
           "        call.virtual_if = false;",
           ["emu:qemu-pc-v86-insns"], "STI emulated as CLI"),
    Mutant("v86-iretd-flags", "realmode/v86.c",
           "            load_flags(f, pop32(f));\n        } else {",
           "            load_flags(f, pop16(f));\n        } else {",
           ["emu:qemu-pc-v86-insns"], "IRETD pops a word of flags"),
    Mutant("v86-hlt-noif", "realmode/v86.c",
           "        if (!call.virtual_if)\n"
           "            stop(f, \"HLT with interrupts disabled\");\n", "",
           ["emu:qemu-pc-v86-hlt"], "HLT with IF clear treated as a wait"),
    Mutant("v86-a20-port92", "realmode/v86.c",
           "    if (port == PORT_A)\n        kept = v | PORT_A_A20;",
           "    if (port == PORT_A)\n        kept = v;",
           ["emu:qemu-pc-a20"], "the monitor lets the BIOS turn A20 off through port 92h"),
    Mutant("tramp-a20-ensure", "realmode/trampoline.asm",
           "        call    a20_ensure\n", "",
           ["emu:qemu-pc-a20"], "the trampoline no longer turns A20 back on"),
    Mutant("bios-path-global", "realmode/bios.c",
           "    if (p == BIOS_PATH_V86) {\n",
           "    if (p == BIOS_PATH_V86 && path == BIOS_PATH_V86) {\n",
           ["emu:qemu-pc-a20"], "bios_int_via() takes the v86 path only with bioscall=v86"),

    Mutant("v86-irq-dropped", "realmode/v86.c",
           "        watchdog(f);\n        reflect_interrupt(f, bios_vector(irq), (uint16_t)f->eip);\n",
           "        watchdog(f);\n        pic_eoi(irq);\n",
           ["emu:qemu-pc-realbios-tickpoll-v86"],
           "an IRQ during a v86 call is acknowledged but never reaches the BIOS's handler"),
    Mutant("v86-no-watchdog", "realmode/v86.c",
           "    return call.limit_ticks && call.ticks > call.limit_ticks;",
           "    return false;",
           ["emu:qemu-pc-realbios-hang-v86"], "a BIOS that never returns under v86 hangs us"),
    Mutant("pm-cf-preset", "apm/port_pm.c",
           "apm_ports_eflags(regs->eflags) & ~X86_EFLAGS_CF;",
           "apm_ports_eflags(regs->eflags);",
           ["emu:qemu-pc-realbios-nocf-pm32"],
           "PM calls start with CF set: a jump-table BIOS's successes read as failures"),
    Mutant("v86-watchdog-on-suspend", "realmode/bios.c",
           "    v86_watchdog(!on);", "    (void)on;",
           ["emu:qemu-pc-realbios-resume-v86"],
           "the v86 watchdog ends a suspend that waits for the resume key"),
    Mutant("pm-standby-all-masked", "apm/port_pm.c",
           "    bool timer = apm_ports_interrupts() || apm_call_blocks(regs);",
           "    bool timer = apm_ports_interrupts();",
           ["emu:qemu-pc-realbios-resume-pm32"],
           "a protected-mode standby waits for an interrupt with every IRQ masked"),
    Mutant("tramp-in-apm-data", "realmode/trampoline.c",
           "    if (end <= base || lo >= base + TRAMP_REGION)\n        return true;",
           "    if (end <= base || lo >= base + TRAMP_REGION || lo)\n        return true;",
           ["emu:qemu-pc-realbios-dataseg-pm16"],
           "the trampoline stays inside the APM data segment the connect named"),

    # --- survey/ ---------------------------------------------------------------------------
    Mutant("qr-mask1", "survey/qr.c",
           "    case 1: return !(y & 1);", "    case 1: return !(x & 1);",
           ["unit:test_qr"], "QR mask pattern 1 uses columns instead of rows"),
    Mutant("smbios-vendor-product", "survey/smbios.c",
           "get_string(info->sys_vendor, t, set, strings_end, s[SYSTEM_OFF_VENDOR]);",
           "get_string(info->sys_vendor, t, set, strings_end, s[SYSTEM_OFF_PRODUCT]);",
           ["unit:test_smbios"], "system manufacturer read from the product string"),

    # --- boot/ -----------------------------------------------------------------------------
    Mutant("boot-args-swapped", "boot/entry.asm",
           "        push    ebx                     ; kmain(magic, info)\n"
           "        push    eax\n",
           "        push    eax                     ; kmain(magic, info)\n"
           "        push    ebx\n",
           ["emu:qemu-pc-pm16"], "kmain gets the multiboot magic and info swapped "
           "(the options are lost: interface=pm16 is not honoured)"),
    Mutant("boot-mb1-checksum", "boot/multiboot.asm",
           "        dd -(MB1_MAGIC + MB1_FLAGS)", "        dd -(MB1_MAGIC)",
           ["emu:qemu-pc-kernel"], "multiboot 1 header checksum leaves out the flags"),

    # --- iso/ ------------------------------------------------------------------------------
    Mutant("grub-default", "iso/grub.cfg",
           "set default=0", "set default=1",
           ["emu:qemu-pc-iso"], "the menu's default entry is the survey"),
    Mutant("grub-module-multiboot", "iso/menu.modules",
           "normal serial terminal multiboot keystatus",
           "normal serial terminal keystatus",
           ["emu:qemu-pc-iso"], "GRUB's multiboot module left out of the core image"),

    # --- tests/ (the checkers themselves) --------------------------------------------------
    Mutant("insns-no-bswap", "tests/check_insns.py",
           '"486": r"bswap|cmpxchg|', '"486": r"cmpxchg|',
           ["cmd:python3 tests/check_insns.py --self-test"],
           "the 386 check no longer knows BSWAP is a 486 instruction"),

    # --- the machine survey -----------------------------------------------------------------
    Mutant("e801-cxdx", "app/probe_memory.c",
           "bool cxdx = r.cx || r.dx;", "bool cxdx = false;",
           ["unit:test_probes"], "E801h read from AX/BX when the BIOS answered in CX/DX"),
    Mutant("int13-cylinders", "app/probe_disks.c",
           "h->cylinders = (uint16_t)((r.ch | (r.cl & 0xC0) << 2) + 1);",
           "h->cylinders = (uint16_t)(r.ch | (r.cl & 0xC0) << 2);",
           ["unit:test_probes"], "INT 13h 08h's maximum cylinder taken for the count"),
    Mutant("vbe-vendor-offset", "survey/vbe.c",
           "#define VBE_OFF_VENDOR          22", "#define VBE_OFF_VENDOR          26",
           ["unit:test_probes"], "the VBE vendor string read from the product's pointer"),
    Mutant("chipset-piix3-soft-off", "survey/chipset.c",
           "SOUTH(INTEL, 0x7000, NO,", "SOUTH(INTEL, 0x7000, YES,",
           ["unit:test_chipset"], "the PIIX3 (430HX/VX) said to have soft-off"),
    Mutant("deflate-length-extra", "survey/deflate.c",
           "put(b, length - length_base[i], length_extra[i]);",
           "put(b, length - length_base[i], length_extra[i] ? length_extra[i] - 1 : 0);",
           ["unit:test_deflate"], "DEFLATE match lengths written with one extra bit short"),
    Mutant("base45-digit-order", "survey/base45.c",
           "*o++ = alphabet[v / 45 % 45];", "*o++ = alphabet[v / 2025];",
           ["unit:test_deflate"], "Base45's middle digit replaced by the most significant"),
    Mutant("qr-alnum-last-char", "survey/qr.c",
           "put_bits(&bs, (unsigned)alnum_value(text[i]), 6);",
           "put_bits(&bs, (unsigned)alnum_value(text[i]), 5);",
           ["unit:test_qr"], "alphanumeric mode's odd last character written in 5 bits"),

    # --- power-off methods (method=) ----------------------------------------------------------
    Mutant("acpi-slp-en-missing", "system/acpi_pm.c",
           "    outw(pm1a, (uint16_t)(a | ACPI_PM1_SLP_EN));\n",
           "    outw(pm1a, a);\n",
           ["emu:qemu-pc-acpi"], "SLP_TYP written to PM1a without SLP_EN: no sleep starts"),
    Mutant("acpi-enable-value", "system/acpi_pm.c",
           "outb(smi_cmd, acpi_enable);", "outb(smi_cmd, (uint8_t)(acpi_enable + 1));",
           ["emu:qemu-pc-acpi"], "SMI_CMD written with a value other than ACPI_ENABLE: SCI_EN never set"),
    Mutant("methods-stop-after-first", "app/methods.c",
           "        if (i)\n            say(\"falling back to method %s\", m->name);\n",
           "        if (i)\n            break;\n",
           ["unit:test_methods"], "a chain stops after its first method"),
    Mutant("methods-order-kept", "app/options.c",
           "value |= c->value << (METHOD_BITS * n++);",
           "value = (value << METHOD_BITS) | c->value; n++;",
           ["unit:test_methods"], "method= list stored in reverse: acpi,apm tried as apm,acpi"),
    Mutant("uefi-apm-needs-bios", "app/main.c",
           "    bool bios_needed = opts.action != ACTION_CHECK && (opts.action != ACTION_OFF ||\n"
           "                       opts.methods == METHOD_LIST_1(METHOD_APM));",
           "    bool bios_needed = opts.action != ACTION_CHECK && opts.action != ACTION_OFF;",
           ["emu:qemu64-ovmf-exit"], "UEFI with method=apm goes on instead of 'no legacy BIOS'"),
    Mutant("efi-reset-system-index", "survey/efi.c",
           "#define EFI_RT_RESET_SYSTEM         10", "#define EFI_RT_RESET_SYSTEM         9",
           ["unit:test_efi"], "GetNextHighMonotonicCount called for ResetSystem"),
]
