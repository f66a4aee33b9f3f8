"""Vintage machines and media: the floppy, a 486 with 4 or 3 MB, the automation
images (the shipped menu without its countdown), and the ISO as a USB stick."""

from tests.emu.case import Case

INSTALL_CHECK = r"^apmoff: rm: 5300h installation check"
APM_FOUND = r"^apmoff: APM 1\.2 BIOS, signature PM"
OFF_RM = r"^apmoff: powering off via rm \(APM 1\.2\)"

# --- vintage machines and media: the floppy, a 486 with 4 or 3 MB ------------------
# The floppy (build/apmoff.img) carries the ISO's menu; its default entry powers off.
# QEMU's 486 has neither CPUID's TSC flag nor RDTSC: the kernel times its way to the
# power-off call by the PIT all the same.
OLD_CPU = ["-cpu", "486"]
NO_TSC = r"^apmoff: timing: entry to power-off call \d+ us$"

CASES = [
    Case("qemu-pc-floppy", "qemu", "seabios", "pc", "floppy", "", "poweroff", 30,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    Case("bochs-rombios-floppy", "bochs", "bochs", "-", "floppy", "", "poweroff", 60,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    Case("bochs-seabios-floppy", "bochs", "seabios", "-", "floppy", "", "poweroff", 60,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    Case("qemu-486-4m-iso", "qemu", "seabios", "pc", "iso", "", "poweroff", 30,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM, NO_TSC], last_line=OFF_RM,
         extra=OLD_CPU + ["-m", "4"]),
    Case("qemu-486-4m-kernel", "qemu", "seabios", "pc", "kernel", "action=off", "poweroff", 20,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM, NO_TSC], last_line=OFF_RM,
         extra=OLD_CPU + ["-m", "4"]),
    Case("qemu-486-4m-floppy", "qemu", "seabios", "pc", "floppy", "", "poweroff", 30,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM, NO_TSC], last_line=OFF_RM,
         extra=OLD_CPU + ["-m", "4"]),
    Case("qemu-486-3m-iso", "qemu", "seabios", "pc", "iso", "", "poweroff", 30,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM,
         extra=OLD_CPU + ["-m", "3"]),
    Case("qemu-486-3m-kernel", "qemu", "seabios", "pc", "kernel", "action=off", "poweroff", 20,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM,
         extra=OLD_CPU + ["-m", "3"]),
    Case("bochs-rombios-4m-iso", "bochs", "bochs", "-", "iso", "", "poweroff", 60,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM, megs=4),
    Case("bochs-rombios-4m-floppy", "bochs", "bochs", "-", "floppy", "", "poweroff", 60,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM, megs=4),
]


# --- the automation images: the shipped menu without its countdown -----------------
CASES += [
    Case("qemu-pc-auto-iso", "qemu", "seabios", "pc", "iso", "", "poweroff", 30,
         loader="auto", serial=[INSTALL_CHECK], last_line=OFF_RM),
    Case("bochs-rombios-auto-floppy", "bochs", "bochs", "-", "floppy", "", "poweroff", 60,
         loader="auto", serial=[INSTALL_CHECK], last_line=OFF_RM),
]


# --- the hybrid ISO on a USB stick, BIOS side ------------------------------------------
CASES += [
    # SeaBIOS gives a USB read a few hundred milliseconds; QEMU completes it on host
    # threads, so a starved host turns it into GRUB's "Read Error" before apmoff runs
    # (seen once in CI, and 2 runs in 6 on a machine loaded on purpose), or, slower
    # still, the stick is not found at all. One rerun then; a broken image fails twice.
    Case("qemu-pc-usb", "qemu", "seabios", "pc", "usb", "", "poweroff", 30,
         serial=[INSTALL_CHECK, OFF_RM], last_line=OFF_RM,
         retry_if=r"Read Error|attempt to read or write outside of disk|"
                  r"No bootable device"),
]

