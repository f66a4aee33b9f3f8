"""What a person sees, whichever loader started the kernel: the text screen read from
VGA memory by QEMU at the end (TextScreenShows), not what the kernel says it drew,
and the summary panel a run ends on."""

import re

from tests.emu.case import Case
from tests.emu.judges import ScreenHasText, TextScreenShows
from tests.paths import VERSION

CASES = []
# The text screen is read from VGA memory by QEMU at the end (not what the kernel says
# it drew). GRUB's multiboot2 on a BIOS machine sets a graphics mode for the kernel's
# framebuffer tag; the kernel draws there, then asks the BIOS for text mode back.
SURVEY_DONE = r"^apmoff: halted: survey complete \(action=survey\)$"
PANEL_TOP = r"^==== apmoff %s summary =+$" % re.escape(VERSION)
BANNER = r"^apmoff: version %s: APM power-off and BIOS survey$" % re.escape(VERSION)
for name, medium, loader in (("kernel", "kernel", ""), ("grub-mb1", "iso", ""),
                             ("grub-mb2", "iso", "grub-mb2"),
                             ("syslinux", "iso", "syslinux")):
    CASES.append(Case("qemu-pc-screen-" + name, "qemu", "seabios", "pc", medium,
                      "action=survey wait=0", "halt", 30, loader=loader,
                      serial=[BANNER] + ([r"^apmoff: screen: the loader left a \d+x\d+ graphics "
                                          r"mode; back to VGA text mode$"]
                                         if loader == "grub-mb2" else []),
                      last_line=SURVEY_DONE,
                      judges=[ScreenHasText(), TextScreenShows([
                          SURVEY_DONE, PANEL_TOP, r"^ rm      : connected, APM 1\.2$",
                          r"^ pm32    : connected, APM 1\.2$"])]))
CASES += [
    # A failed power-off ends on the panel: each interface with its reason.
    Case("qemu-pc-summary-failed", "qemu", "seabios", "pc", "kernel",
         "inject=rm-off,pm32-off,pm16-connect", "halt", 20,
         last_line=r"^apmoff: halted: power-off failed via rm, pm32 and pm16$",
         serial=[r"^apmoff: summary:  pm16    : connect failure injected"],
         judges=[TextScreenShows([PANEL_TOP, r"^ Machine : QEMU Standard PC",
                 r"^ BIOS    : SeaBIOS 1\.16\.\d",
                 r"^ APM     : 1\.2, flags 0003h: 16-bit PM interface, 32-bit PM interface$",
                 r"^ rm      : connected, APM 1\.2; off: failure injected \(inject=rm-off\)",
                 r"^ pm32    : connected, APM 1\.2; off: failure injected",
                 r"^ pm16    : connect failure injected",
                 r"^ Result  : power-off failed via rm, pm32 and pm16$",
                 r"^ Next    : ", r"^==== halted =+$",
                 r"^apmoff: halted: power-off failed via rm, pm32 and pm16$"])]),
    Case("qemu-pc-summary-check", "qemu", "seabios", "pc", "kernel", "action=check",
         "halt", 20, judges=[TextScreenShows([
             PANEL_TOP, r"^ Checks  : 22 passed, 8 failed, 1 skipped; "
             r"failed: disconnect\.not-connected,",
             r"^           call\.before-connect, connect\.rm-twice"])]),
]

