"""Power-off methods (method=): ACPI S5 beside APM, judged by the emulator's own
power-off (QEMU's guest-shutdown, Bochs' "ACPI control: soft power off"), the
machine without ACPI that must say so, and a chain from APM to ACPI."""

from tests.emu.case import SURVEY_ONLY, Case
from tests.emu.judges import SurveyMatches

OFF_ACPI = (r"^apmoff: powering off via acpi \(S5: PM1a_CNT [0-9A-F]{4}h, SLP_TYPa \d+"
            r"(, PM1b_CNT [0-9A-F]{4}h, SLP_TYPb \d+)?\)$")
S5_FOUND = r"^apmoff: acpi: \\_S5_ in the (DSDT|SSDT \d+): SLP_TYPa \d+, SLP_TYPb \d+$"
NO_APM_CALL = r"^apmoff: rm: 5300h"     # method=acpi asks the APM BIOS nothing
# ... but a survey asks it what it is: survey,off with method=acpi makes no APM off call
NO_APM_OFF = r"^apmoff: (powering off via (rm|pm32|pm16)|(rm|pm32|pm16): 5307h)"

CASES = [
    # --- method=acpi: S5 through PM1a_CNT, after SMI_CMD switched to ACPI mode ---------
    Case("qemu-pc-acpi", "qemu", "seabios", "pc", "kernel", "method=acpi", "poweroff", 20,
         serial=[S5_FOUND, r"^apmoff: acpi: SCI_EN is clear: writing ACPI_ENABLE F1h to "
                 r"SMI_CMD B2h", r"^apmoff: acpi: SCI_EN set after \d+ ms"],
         serial_absent=[NO_APM_CALL] + SURVEY_ONLY, last_line=OFF_ACPI),
    Case("qemu-q35-acpi", "qemu", "seabios", "q35", "kernel", "method=acpi", "poweroff", 20,
         serial=[S5_FOUND], serial_absent=[NO_APM_CALL], last_line=OFF_ACPI),
    Case("qemu-pc-acpi-iso", "qemu", "seabios", "pc", "iso", "method=acpi", "poweroff", 30,
         serial=[S5_FOUND, r"^apmoff: options: .*method=acpi"], last_line=OFF_ACPI),
    Case("bochs-seabios-acpi", "bochs", "seabios", "-", "iso", "method=acpi", "poweroff", 60,
         serial=[S5_FOUND], serial_absent=[NO_APM_CALL], last_line=OFF_ACPI),
    Case("bochs-rombios-acpi", "bochs", "bochs", "-", "iso", "method=acpi", "poweroff", 60,
         serial=[S5_FOUND], serial_absent=[NO_APM_CALL], last_line=OFF_ACPI),
]

# --- QEMU's microvm: no legacy BIOS (qboot), hardware-reduced ACPI with acpi=on --------
# S5 through the FADT's SLEEP_CONTROL_REG (FEA00200h, SLP_TYP 5); the default method
# has no BIOS to call, says so and names what would work: ACPI, the survey found it.
OFF_HW_REDUCED = (r"^apmoff: powering off via acpi \(S5: SLEEP_CONTROL_REG FEA00200h, "
                  r"SLP_TYP 5, hardware-reduced\)$")
CASES += [
    Case("qemu64-microvm-acpi", "qemu", "qboot", "microvm,acpi=on", "kernel",
         "method=acpi", "poweroff", 20,
         serial=[r"^apmoff: acpi: \\_S5_ evaluated: SLP_TYPa 5, SLP_TYPb 0$"],
         serial_absent=[NO_APM_CALL], last_line=OFF_HW_REDUCED),
    Case("qemu64-microvm-apm", "qemu", "qboot", "microvm,acpi=on", "kernel", "onfail=exit",
         "exit:7", 20,
         serial=[r"^apmoff: summary:  Next    : ACPI S5 is there: try method=acpi; no "
                 r"firmware to call"],
         last_line=r"^apmoff: halted: no legacy BIOS: the INT 15h vector is zero; exit code "
                   r"3 \(onfail=exit\)$"),
    Case("qemu64-microvm-noacpi-acpi", "qemu", "qboot", "microvm,acpi=off", "kernel",
         "method=acpi onfail=exit", "exit:27", 20,
         last_line=r"^apmoff: halted: no ACPI S5: no RSDP; exit code 13 \(onfail=exit\)$"),
    Case("qemu64-microvm-chain", "qemu", "qboot", "microvm,acpi=on", "kernel",
         "method=apm,acpi", "poweroff", 20, last_line=OFF_HW_REDUCED),
]

# --- no ACPI: a clear halt and its exit code, never a silent switch to APM -------------
NO_ACPI = r"^apmoff: halted: no ACPI S5: no RSDP"
CASES += [
    Case("qemu-isapc-acpi", "qemu", "seabios", "isapc", "kernel", "method=acpi", "halt", 20,
         serial=[r"^apmoff: acpi: no RSDP found", r"^apmoff: acpi: no ACPI S5: no RSDP$"],
         serial_absent=[NO_APM_CALL, r"powering off via"], last_line=NO_ACPI),
    # onfail=exit: HALT_NO_ACPI (13) leaves QEMU with (13 << 1) | 1.
    Case("qemu-isapc-acpi-exit", "qemu", "seabios", "isapc", "kernel",
         "method=acpi onfail=exit", "exit:27", 20,
         last_line=NO_ACPI + r"; exit code 13 \(onfail=exit\)$"),
    Case("qemu-pc-noacpi-acpi-exit", "qemu", "seabios", "pc,acpi=off", "kernel",
         "method=acpi onfail=exit", "exit:27", 20, serial_absent=[NO_APM_CALL],
         last_line=NO_ACPI),
]

# --- chains: APM, then ACPI when APM leaves the machine on (an injected failure) --------
CASES += [
    Case("qemu-pc-chain-apm-acpi", "qemu", "seabios", "pc", "kernel",
         "method=apm,acpi inject=rm-off,pm32-off,pm16-off", "poweroff", 20,
         serial=[r"^apmoff: power-off via pm16 failed: failure injected",
                 r"^apmoff: falling back to method acpi$", S5_FOUND],
         last_line=OFF_ACPI),
    Case("bochs-rombios-chain-apm-acpi", "bochs", "bochs", "-", "iso",
         "method=apm,acpi inject=rm-off,pm32-off,pm16-off", "poweroff", 60,
         serial=[r"^apmoff: power-off via rm failed: failure injected",
                 r"^apmoff: falling back to method acpi$"],
         last_line=OFF_ACPI),
    # The chain's end: both fail (no ACPI on isapc): the last method's code, both reasons.
    Case("qemu-isapc-chain-exit", "qemu", "seabios", "isapc", "kernel",
         "method=apm,acpi inject=rm-off,pm32-off,pm16-off onfail=exit", "exit:27", 20,
         serial=[r"^apmoff: falling back to method acpi$"],
         last_line=r"^apmoff: halted: apm: power-off failed via rm, pm32 and pm16; "
                   r"acpi: no ACPI S5: no RSDP; exit code 13"),
    # ACPI first, where there is none: the chain goes on to APM, which SeaBIOS accepts
    # on isapc and then hangs in (as qemu-isapc-hang: at pm32, rm's HLT named).
    Case("qemu-isapc-chain-acpi-apm", "qemu", "seabios", "isapc", "kernel",
         "method=acpi,apm", "hang", 20,
         serial=[r"^apmoff: acpi: no ACPI S5: no RSDP$",
                 r"^apmoff: falling back to method apm$"],
         hang_after=r"^apmoff: powering off via pm32 \(APM 1\.2\)"),
]

# --- UEFI: no legacy BIOS, so APM is skipped, but ACPI S5 works through the multiboot 2
# ACPI tag's RSDP copy --------------------------------------------------------------------
CASES += [
    Case("qemu64-ovmf-acpi", "qemu", "ovmf", "pc", "iso", "method=acpi", "poweroff", 90,
         serial=[r"^apmoff: firmware: uefi$", S5_FOUND], serial_absent=[NO_APM_CALL],
         last_line=OFF_ACPI),
    Case("qemu64-ovmf-q35-acpi", "qemu", "ovmf", "q35", "iso", "method=acpi", "poweroff", 90,
         serial=[r"^apmoff: firmware: uefi$", S5_FOUND], last_line=OFF_ACPI),
    Case("qemu-ovmf32-acpi", "qemu", "ovmf32", "q35,smm=on", "iso", "method=acpi",
         "poweroff", 120, serial=[r"^apmoff: firmware: uefi$", S5_FOUND],
         last_line=OFF_ACPI),
    # method=apm,acpi on UEFI: APM is said to be absent, ACPI follows.
    Case("qemu64-ovmf-chain-apm-acpi", "qemu", "ovmf", "pc", "iso", "method=apm,acpi",
         "poweroff", 90, serial=[r"^apmoff: apm: no APM: no legacy BIOS$",
                                 r"^apmoff: falling back to method acpi$"],
         last_line=OFF_ACPI),
]

# --- action=check reports every method; no power state changes ---------------------------
CHECK_ACPI_QEMU = (r"^apmoff: check: acpi: S5 usable: PM1a_CNT 0604h, SLP_TYPa 0, SLP_TYPb 0; "
                   r"SCI_EN clear \(legacy mode\), SMI_CMD can enable ACPI; \\_PTS absent$")
CASES += [
    Case("qemu-pc-check-acpi", "qemu", "seabios", "pc", "kernel", "action=check onfail=exit",
         "exit:23", 20,
         serial=[CHECK_ACPI_QEMU,
                 r'^apmoff: check \{.*"acpi":\{"s5":"usable","slp_typa":0,"slp_typb":0,'
                 r'"pm1a_cnt":1540,"sci_en":false,"smi_can_enable":true,"pts":"absent"\},'
                 r'"efi_reset_system":"no EFI system table',
                 r"^apmoff: check: efi: method=efi would find no ResetSystem: no EFI system "
                 r"table"]),
    Case("qemu-isapc-check-acpi", "qemu", "seabios", "isapc", "kernel", "action=check",
         "halt", 20,
         serial=[r"^apmoff: check: acpi: method=acpi would find no S5: no RSDP$",
                 r'^apmoff: check \{.*"acpi":\{"s5":"no RSDP"\}']),
    # UEFI: no APM to check, but ACPI is (OVMF has switched to ACPI mode itself).
    Case("qemu64-ovmf-check-acpi", "qemu", "ovmf", "pc", "iso", "action=check onfail=exit",
         "exit:7", 90,
         serial=[r"^apmoff: check: acpi: S5 usable: PM1a_CNT [0-9A-F]{4}h, SLP_TYPa \d, "
                 r"SLP_TYPb \d; SCI_EN ",
                 r"^apmoff: check: efi: ResetSystem at [0-9A-F]{8}h \(x64 firmware\)$",
                 r"^apmoff: check: apm: not checked: "],
         judges=[SurveyMatches({"efi.x64": True, "efi.runtime_services": True})]),
]

# --- the survey reports what method=acpi would use ---------------------------------------
CASES += [
    Case("qemu-pc-survey-acpi", "qemu", "seabios", "pc", "kernel", "action=survey wait=0",
         "halt", 20,
         serial=[r"^apmoff: acpi: FADT at [0-9A-F]{8}h, revision \d+: PM1a_CNT 0604h, "
                 r"PM1b_CNT none, SMI_CMD B2h \(ACPI_ENABLE F1h\)$", S5_FOUND],
         judges=[SurveyMatches({"acpi.s5.pm1a_cnt": 0x604, "acpi.s5.slp_typa": 0,
                                "acpi.s5.smi_cmd": 0xB2})]),
    Case("qemu-isapc-survey-acpi", "qemu", "seabios", "isapc", "kernel",
         "action=survey wait=0", "halt", 20,
         judges=[SurveyMatches({"acpi.found": False})]),
]

# --- method=efi: ResetSystem(EfiResetShutdown), a 32-bit call on ia32 firmware, the
# long-mode thunk on x64; on a BIOS machine there is none ------------------------------
OFF_EFI = r"^apmoff: powering off via efi \(ResetSystem at [0-9A-F]{8}h, EfiResetShutdown, %s"
CASES += [
    Case("qemu64-ovmf-efi", "qemu", "ovmf", "pc", "iso", "method=efi", "poweroff", 90,
         serial=[r"^apmoff: firmware: uefi$"], serial_absent=[NO_APM_CALL],
         last_line=OFF_EFI % "x64"),
    Case("qemu64-ovmf-q35-efi", "qemu", "ovmf", "q35", "iso", "method=efi", "poweroff", 90,
         last_line=OFF_EFI % "x64"),
    Case("qemu-ovmf32-efi", "qemu", "ovmf32", "q35,smm=on", "iso", "method=efi",
         "poweroff", 120, last_line=OFF_EFI % "ia32"),
    Case("qemu-pc-efi-exit", "qemu", "seabios", "pc", "kernel", "method=efi onfail=exit",
         "exit:31", 20, serial_absent=[NO_APM_CALL],
         last_line=r"^apmoff: halted: no UEFI ResetSystem: no EFI system table"),
]

# --- 86Box: real boards and BIOS ROMs (skipped without the kit) ------------------------
T86 = 150   # 86Box runs in real time: POST 10-25 s
CASES += [
    # FIC VA-503+ (VIA MVP3 + VT82C586B), Award 4.51PG 01/11/01 with ACPI tables: S5.
    Case("86box-ficva503p-acpi", "86box", "award", "ficva503p", "floppy",
         "method=acpi action=survey,off wait=0", "poweroff", T86,
         serial=[S5_FOUND, r"^apmoff: chipset: .*soft-off yes"], serial_absent=[NO_APM_OFF],
         judges=[SurveyMatches({"chipset.soft_off": "yes"})], last_line=OFF_ACPI),
    # ASUS TX97 (430TX), Award 11/24/98: no ACPI tables, said plainly; APM is not asked.
    Case("86box-tx97-acpi", "86box", "award", "tx97", "floppy", "method=acpi", "halt", T86,
         serial=[r"^apmoff: acpi: no ACPI S5: no RSDP$"], serial_absent=[NO_APM_CALL],
         last_line=NO_ACPI),
]
CASES += [
    # ASUS P/I-P55T2P4 (430HX / PIIX3), Award 04/28/99: no ACPI tables either.
    Case("86box-p55t2p4-acpi", "86box", "award", "p55t2p4", "floppy", "method=acpi", "halt",
         T86, serial=[r"^apmoff: acpi: no ACPI S5: no RSDP$"], serial_absent=[NO_APM_CALL],
         last_line=NO_ACPI),
    # ... and APM then ACPI there: APM's 5307h succeeds and the machine stays on, which
    # the chipset explains (the PIIX3 has no soft-off); then ACPI says it is not there.
    Case("86box-p55t2p4-chain-apm-acpi", "86box", "award", "p55t2p4", "floppy",
         "method=apm,acpi", "halt", T86,
         serial=[r"^apmoff: power-off via pm16 failed: 5307h returned success but the "
                 r"machine is still on",
                 r"^apmoff: chipset: Intel 430HX \(PIIX3\): the PIIX3 south bridge has no "
                 r"soft-off", r"^apmoff: falling back to method acpi$"],
         last_line=r"^apmoff: halted: apm: power-off failed via rm, pm32 and pm16; "
                   r"acpi: no ACPI S5: no RSDP$"),
]

# --- method=chipset: the south bridge's own soft-off (survey/softoff.h), without the
# firmware's APM or ACPI: the PM I/O base the BIOS set, PM1 control at base + 04h ---
OFF_CHIPSET = (r"^apmoff: powering off via chipset \(%s: PM1 control 0604h <- [0-9A-F]{4}h, "
               r"then [0-9A-F]{4}h: sleep type %u\)$")
CASES += [
    # PIIX4 (pc): SUS_TYP 0, as the datasheet and QEMU's model agree.
    Case("qemu-pc-chipset", "qemu", "seabios", "pc", "kernel", "method=chipset", "poweroff",
         20, serial=[r"^apmoff: chipset: PIIX4 PM at 00:01\.3, PM I/O base 0600h \("],
         serial_absent=[NO_APM_CALL, r"^apmoff: acpi: "], last_line=OFF_CHIPSET % ("PIIX4 PM", 0)),
    # ICH9 (q35): the datasheet's S5 type 7 leaves QEMU's model on (it takes only 0 for
    # soft-off, as its own \_S5_ says); then 0, which is S0 on a real ICH, turns it off.
    Case("qemu-q35-chipset", "qemu", "seabios", "q35", "kernel", "method=chipset", "poweroff",
         30, serial=[OFF_CHIPSET % ("ICH9", 7),
                     r"^apmoff: chipset: still on 3 s after sleep type 7$"],
         serial_absent=[NO_APM_CALL], last_line=OFF_CHIPSET % ("ICH9", 0)),
    Case("bochs-rombios-chipset", "bochs", "bochs", "-", "iso", "method=chipset", "poweroff",
         60, serial=[r"^apmoff: chipset: PIIX4 PM at 00:01\.3, PM I/O base [0-9A-F]{4}h \("],
         serial_absent=[NO_APM_CALL],
         last_line=r"^apmoff: powering off via chipset \(PIIX4 PM: PM1 control [0-9A-F]{4}h "
                   r"<- [0-9A-F]{4}h, then [0-9A-F]{4}h: sleep type 0\)$"),
    # No PCI, no south bridge: its own halt code (19: status 39), nothing written.
    Case("qemu-isapc-chipset-exit", "qemu", "seabios", "isapc", "kernel",
         "method=chipset onfail=exit", "exit:39", 20,
         serial_absent=[r"powering off via"],
         last_line=r"^apmoff: halted: no chipset soft-off: no PCI \(an ISA board has no south "
                   r"bridge to ask\); exit code 19 \(onfail=exit\)$"),
    # In a chain after APM (failed by inject=): said, then made.
    Case("qemu-pc-chain-apm-chipset", "qemu", "seabios", "pc", "kernel",
         "method=apm,chipset inject=rm-off,pm32-off,pm16-off", "poweroff", 20,
         serial=[r"^apmoff: falling back to method chipset$"],
         last_line=OFF_CHIPSET % ("PIIX4 PM", 0)),
]
