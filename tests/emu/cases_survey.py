"""The survey: the report on serial, its JSON line true to what the machine said
(SurveyMatches), the same JSON as QR pages on screen (QrDecodes), every byte SMBIOS
hands over escaped, and what tells machines apart."""

from tests.emu.case import Case
import os

from tests.emu.judges import QrDecodes, SurveyListHas, SurveyMatches, TextScreenShows
from tests.paths import BUILD

INSTALL_CHECK = r"^apmoff: rm: 5300h installation check"
APM_FOUND = r"^apmoff: APM 1\.2 BIOS, signature PM"
OFF_RM = r"^apmoff: powering off via rm \(APM 1\.2\)"
SURVEY_DONE = r"^apmoff: halted: survey complete"

CASES = [
    # action=survey: the report, no power-off call, and a halted line.
    Case("qemu-pc-survey", "qemu", "seabios", "pc", "kernel", "action=survey wait=0", "halt", 20,
         serial=[INSTALL_CHECK, APM_FOUND, r"^apmoff: power: AC line",
                 r"^apmoff: rm: 5304h interface disconnect"],
         serial_absent=[r"powering off", r"5307h"], last_line=SURVEY_DONE),
    Case("bochs-rombios-survey", "bochs", "bochs", "-", "iso", "action=survey wait=0", "halt", 60,
         serial=[INSTALL_CHECK, APM_FOUND], serial_absent=[r"powering off"],
         last_line=SURVEY_DONE),
]

# --- the same JSON as a QR code on screen ---------------------------------------------
CASES += [
    # QMP screendump of the QR screen, decoded by zbarimg, must equal the JSON line;
    # then a key press (QMP send-key) returns to text mode and the run ends.
    # The whole line in one symbol (APMOFF3, compressed), modules of 5 px or more: it
    # is read back from its screenshot and from degraded copies of it (half size,
    # blurred, turned 5 degrees, keystoned, JPEG at quality 40, noisy, and all mildly
    # at once), and unpacks to the serial JSON exactly.
    Case("qemu-pc-survey-qr", "qemu", "seabios", "pc", "kernel", "action=survey", "halt",
         30, judges=[QrDecodes(photos=True)],
         serial=[r"^apmoff: survey screen: QR code 1/1 of \d+ characters \(APMOFF3, "
                 r"compressed\), (\d+)x\1 modules of [5-9] px, on screen$",
                 r"^apmoff: survey screen: closed, back to text mode"],
         last_line=SURVEY_DONE),
    # The same kernel carrying another commit's hash (each digit turned over: the
    # Makefile's apmoff-other-hash.elf): the symbol must read back from every photo
    # whatever the hash, which 0.3's fixed mask did not promise.
    Case("qemu-pc-survey-qr-other-hash", "qemu", "seabios", "pc", "kernel", "action=survey",
         "halt", 30, image="other-hash", judges=[QrDecodes(photos=True)],
         serial=[r"^apmoff: survey screen: QR code 1/1 of \d+ characters \(APMOFF3, "
                 r"compressed\), (\d+)x\1 modules of [5-9] px, on screen$"],
         last_line=SURVEY_DONE),
    # The first QR code on a 4-MIPS guest (Bochs' clock follows its instruction count),
    # timed by the TSC over the mode set, the encode with its eight masks and the draw.
    Case("bochs-rombios-survey-qr", "bochs", "bochs", "-", "iso", "action=survey wait=1",
         "halt", 90, judges=[QrDecodes(photos=True)],
         extra=["cpu: ips=4000000, reset_on_triple_fault=0"],
         serial=[r"^apmoff: survey screen: the first QR code took \d+ ms to set the mode, "
                 r"encode and draw$",
                 r"^apmoff: survey screen: QR code 1/1 of \d+ characters \(APMOFF3, "
                 r"compressed\), (\d+)x\1 modules of [5-9] px, on screen$",
                 r"^apmoff: survey screen: closed, back to text mode"],
         last_line=SURVEY_DONE),
    # With SeaBIOS as Bochs' BIOS there is no VGA BIOS: Debian's SeaBIOS (built for
    # QEMU) never runs Bochs' VGA ROM (C0000h reads 00h, INT 10h is SeaBIOS's stub at
    # F000:F065), so INT 10h AX=1A00h and AH=12h go unanswered and the equipment word
    # says a colour 80x25 adapter: a CGA, as far as the BIOS can tell. The screen must
    # say it has no mode for a QR code and leave the text report up, neither hanging
    # nor faulting.
    Case("bochs-seabios-survey-screen", "bochs", "seabios", "-", "iso",
         "action=survey wait=1", "halt", 60,
         serial=[r"^apmoff: survey \{", r"^apmoff: video: CGA \(from the equipment word",
                 r"^apmoff: survey screen: no graphics mode for a QR code on this adapter "
                 r"\(CGA\); photograph this text report"],
         serial_absent=[r"QR code 1/"],
         last_line=SURVEY_DONE),
]

# --- the JSON line holds what the machine said -------------------------------------------
# SMBIOS strings with bytes 80h-FFh (QEMU passes the -smbios argument's bytes through;
# "\udcXX" is how Python puts the byte XX into an argument).
LATIN1_VENDOR = "Caf\udce9 \udc80\udcff"

CASES += [
    # Machine identity from SMBIOS as QEMU was told; APM fields as SeaBIOS answers them.
    Case("qemu-pc-survey-smbios", "qemu", "seabios", "pc", "kernel", "action=survey wait=0",
         "halt", 20, last_line=SURVEY_DONE,
         extra=["-smbios", "type=0,vendor=AcmeBIOS,version=4.51PG,date=11/22/1996",
                "-smbios", "type=1,manufacturer=Vintage PC Co,product=Model 486DX2,"
                "version=Rev B"],
         judges=[SurveyMatches({
             "schema": 1, "firmware": "bios", "smbios.found": True,
             "smbios.bios_vendor": "AcmeBIOS", "smbios.bios_version": "4.51PG",
             "smbios.bios_date": "11/22/1996", "smbios.manufacturer": "Vintage PC Co",
             "smbios.product": "Model 486DX2", "smbios.version_string": "Rev B",
             "acpi.found": True, "acpi.oem": "BOCHS",
             "apm.present": True, "apm.version": "1.2", "apm.signature": True,
             "apm.flags": "0x0003", "apm.interfaces.rm.connect": "ok",
             "apm.interfaces.pm32.connect": "ok", "apm.interfaces.pm16.connect": "ok",
             "apm.interfaces.pm32.code32_seg": "0xF000",
             "apm.power.ac_line": "0x01", "apm.power.battery_flag": "0x80",
             "apm.capabilities": "0x0000", "memory.int12_kb": 639})]),
    # A backslash and a quote in QEMU's -smbios strings: the line must still parse
    # (Python's json module is the judge) and hold them exactly.
    Case("qemu-pc-survey-escape", "qemu", "seabios", "pc", "kernel", "action=survey wait=0",
         "halt", 20, last_line=SURVEY_DONE,
         extra=["-smbios", 'type=1,manufacturer=C:\\DOS\\,product=Model "486"'],
         judges=[SurveyMatches({"smbios.manufacturer": "C:\\DOS\\",
                                "smbios.product": 'Model "486"'})]),
    # Bytes that are not ASCII are kept in the JSON (\u00XX, the byte's value), and
    # shown as '?' on the console line.
    Case("qemu-pc-survey-smbios-bytes", "qemu", "seabios", "pc", "kernel",
         "action=survey wait=0 onfail=exit", "exit:17", 20,
         extra=["-smbios", "type=1,manufacturer=" + LATIN1_VENDOR + ",product=x\x1by"],
         serial=[r'^apmoff: smbios: system "Caf\? \?\?" "x\?y" ',
                 r'"manufacturer":"Caf\\u00e9 \\u0080\\u00ff","product":"x\\u001by"'],
         judges=[SurveyMatches({"smbios.manufacturer": "Caf\u00e9 \u0080\u00ff",
                                "smbios.product": "x\u001by"})]),
    # cpu.name on a CPU without a brand string (QEMU's 486: CPUID family 4 model 8).
    Case("qemu-486-survey-cpu-name", "qemu", "seabios", "pc", "kernel",
         "action=survey wait=0 onfail=exit", "exit:17", 20, extra=["-cpu", "486"],
         judges=[SurveyMatches({"cpu.class": "cpuid", "cpu.family": 4,
                                "cpu.name": "486DX4"})]),
    # QEMU's qboot firmware: no UEFI, and an empty INT 15h vector. The survey says
    # there is no firmware to call, and why; with onfail=exit, code 3 (status 7).
    Case("qemu-qboot-firmware-none", "qemu", "qboot", "pc", "kernel",
         "action=survey wait=0 onfail=exit", "exit:7", 20,
         extra=["-bios", "/usr/share/qemu/qboot.rom"],
         serial=[r"^apmoff: firmware: none \(the INT 15h vector is zero: no legacy BIOS\)$"],
         judges=[SurveyMatches({"firmware": "none", "firmware_reason":
                                "the INT 15h vector is zero: no legacy BIOS"})],
         last_line=r"^apmoff: halted: no legacy BIOS: the INT 15h vector is zero"),
]

# --- the survey, then the power-off ---------------------------------------------------
CASES += [
    Case("qemu-pc-survey-off", "qemu", "seabios", "pc", "kernel", "action=survey,off wait=1",
         "poweroff", 30, serial=[r"^apmoff: survey \{", r"showing for 1 s"],
         last_line=OFF_RM),
    # One survey line, the survey's, with every interface it tried; the power-off
    # chain that follows prints no second one.
    Case("qemu-pc-survey-off-one-line", "qemu", "seabios", "pc", "kernel",
         "action=survey,off wait=0", "poweroff", 20,
         serial=[r"^apmoff: survey \{", r"^apmoff: powering off via rm \(APM 1\.2\)$"],
         serial_absent=[r"(?s)^apmoff: survey \{.*^apmoff: survey \{"],
         judges=[SurveyMatches({"apm.interfaces.rm.tried": True,
                                "apm.interfaces.pm32.tried": True,
                                "apm.interfaces.pm16.tried": True})]),
]

# --- telling machines apart: label= and the BIOS ROM's identity -------------------
CASES += [
    Case("qemu-pc-survey-label", "qemu", "seabios", "pc", "kernel",
         'action=survey wait=0 label="bench 3"', "halt", 20,
         serial=[r"^apmoff: label: bench 3$", r"^apmoff: bios: ROM E0000h-FFFFFh CRC-32 "
                 r"[0-9A-F]{8}h$"],
         judges=[SurveyMatches({"label": "bench 3"}),
                 TextScreenShows([r"^ Label   : bench 3$"])]),
    # README's own example, as GRUB passes it ("label=Bob\'s 486": quoted, the
    # apostrophe escaped) and as the floppy loader does (its menu's words as written).
    Case("qemu-pc-survey-label-grub", "qemu", "seabios", "pc", "iso",
         'action=survey wait=0 label="Bob\'s 486"', "halt", 30,
         serial=[r"^apmoff: label: Bob's 486$"],
         judges=[SurveyMatches({"label": "Bob's 486"})]),
    Case("qemu-pc-survey-label-floppy", "qemu", "seabios", "pc", "floppy",
         'action=survey wait=0 label="Bob\'s 486"', "halt", 30,
         serial=[r"^apmoff: label: Bob's 486$"],
         judges=[SurveyMatches({"label": "Bob's 486"})]),
]

# --- the machine: PCI and the chipset's soft-off, video, disks, memory per interface ----
# What each emulator models, as the survey must list it (the PCI IDs are QEMU's and
# Bochs' own: i440FX 8086:1237 with PIIX3 7000/7010 and the PIIX4 PM function 7113,
# Q35 29C0 with ICH9 2918, the Bochs/QEMU standard VGA 1234:1111). A scratch copy of
# the floppy image is the hard disk (snapshot=on: QEMU writes nothing back).
DISK = ["-drive", "file=%s,format=raw,if=ide,index=0,snapshot=on"
        % os.path.join(BUILD, "apmoff.img")]
CASES += [
    Case("qemu-pc-survey-machine", "qemu", "seabios", "pc", "kernel", "action=survey wait=0",
         "halt", 20, extra=DISK,
         serial=[r"^apmoff: pci: PCI BIOS 2\.10, mechanisms 01h",
                 r"^apmoff: chipset: Intel 440FX \(PIIX3, PIIX4 PM\): soft-off yes: the PIIX4 PM "
                 r"function has soft-off", r"^apmoff: disks:   80h: ",
                 r"^apmoff: memory: INT 15h E820h: \d+ entries$"],
         # SeaBIOS's printf templates ("SeaBIOS (version %s)") are not its identity
         serial_absent=[r'^apmoff: bios: ".*%[a-z]'],
         judges=[SurveyMatches({"pci.mechanism": 1, "chipset.soft_off": "yes",
                                "chipset.name": "Intel 440FX (PIIX3, PIIX4 PM)",
                                "video.adapter": "VGA", "video.dcc": "0x08",
                                "video.vbe.oem": "SeaBIOS VBE(C) 2011",
                                "disks.hdd_count": 1, "cpu.clock_method": "tsc",
                                "cpu.fpu_kind": "integrated"}),
                 SurveyListHas({"pci.functions": ["00:00.0 8086:1237 060000",
                                                  "00:01.0 8086:7000 060100",
                                                  "00:01.1 8086:7010 010180",
                                                  "00:01.3 8086:7113 068000",
                                                  "00:02.0 1234:1111 030000"],
                                "memory.e820": ["0+9FC00:1", "100000+"]})],
         last_line=SURVEY_DONE),
    Case("qemu-q35-survey-machine", "qemu", "seabios", "q35", "kernel",
         "action=survey wait=0", "halt", 20,
         judges=[SurveyMatches({"pci.mechanism": 1, "chipset.soft_off": "yes",
                                "chipset.name": "Intel G33/P35 (ICH9)"}),
                 SurveyListHas({"pci.functions": ["00:00.0 8086:29C0 060000",
                                                  "00:1F.0 8086:2918 060100"]})],
         last_line=SURVEY_DONE),
    # No PCI at all, though SeaBIOS's INT 1Ah says there is: the probes find none,
    # write nothing, and the verdict is the ISA machine's. No TSC on its 486: the
    # clock comes from the DIV loop.
    Case("qemu-isapc-survey-machine", "qemu", "seabios", "isapc", "kernel",
         "action=survey wait=0", "halt", 20,
         serial=[r"^apmoff: pci: no configuration mechanism answers: no PCI$"],
         judges=[SurveyMatches({"pci.mechanism": 0, "chipset.soft_off": "unknown",
                                "chipset.explain": "ISA machine: soft-off needs an ATX "
                                "supply and an APM BIOS that drives it",
                                "cpu.clock_method": "div-loop"})],
         last_line=SURVEY_DONE),
    Case("bochs-rombios-survey-machine", "bochs", "bochs", "-", "iso", "action=survey wait=0",
         "halt", 60,
         judges=[SurveyMatches({"pci.mechanism": 1, "chipset.soft_off": "yes",
                                "video.adapter": "VGA", "disks.floppy_a": "1.44M"}),
                 SurveyListHas({"pci.functions": ["00:00.0 8086:1237 060000",
                                                  "00:01.0 8086:7000 060100"]})],
         last_line=SURVEY_DONE),
]
