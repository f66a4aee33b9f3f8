"""What a BIOS screen asks for, and the keys that answer it: one table, RULES.

A fresh CMOS stops every board's POST at a prompt, each vendor's own way:
- Award: "CMOS checksum error - Defaults loaded", "Press F1 to continue, DEL to enter
  SETUP": F1 goes on with the defaults (and the BIOS writes them to the CMOS).
- AMI: "CMOS checksum failure", "Press F1 to RUN SETUP" (or "Press <F1> to RESUME"
  after a drive error): F1 opens setup ("AMIBIOS SETUP PROGRAM"), and only leaving it
  with "write to CMOS" stores the defaults, so the sweep does a setup-save cycle: F10,
  then Y and Enter at "Write data into CMOS and exit (Y/N)?" (never Y at its ESC's
  "Want to Quit Without Saving (Y/N)?": N, then F10). A WinBIOS
  (1994-96, "CMOS system options not set", "RUN SETUP UTILITY", "Press F1 to RESUME")
  opens its setup on that F1 too: there ESC opens "Exit Setup" and Enter picks its
  first button, "Save changes and Exit". Where AMI offers "or <F2> to CONTINUE"
  (TriGem's, 1995), F2 goes on: the menu its F1 opens never stops the question.
- Phoenix: 1.x/4.0 "Press <F1> to resume, <F2> to Setup" (F1 goes on); 4.0 release 6
  "Press <ESC> to resume, <F2> to Setup", where F1 opens help: ESC.
- IBM's PS/1 draws its prompt: the POST error codes (162, 163: the CMOS is not set
  up), and an arrow over F1 in a row of the twelve function keys: F1 goes on.
- IBM's SurePath BIOS asks in a box ("CMOS values are corrupt", "Load ROM defaults and
  continue."): Enter on its first line; then its setup's main menu, left by Esc and
  Enter on "Yes, save and exit Setup.".
- MR BIOS opens its setup on a fresh CMOS ("F10 to Record and Exit"): F10. Older
  BIOSes: "Press F1 key to continue", "Strike the F1 key to continue".
A setup screen the sweep lands in anyway is left through its save key (F10) and the
confirmation (Y and Enter, or Enter on a "[Yes]" button).

Screens that end the boot without a loader (no disk booted) are STOP rules: the run
is not waited out. Patterns are matched, case-insensitively, on the screen's text
(screen.read_text) joined into one string with newlines.
"""

import re
from dataclasses import dataclass

# Set 1 scan codes, as the kit's patch presses them (SIGUSR2, $BENCH86_KEYFILE);
# 86Box's keyboard_input() takes an E0-prefixed key as 100h plus its code.
SCAN = {"F1": 0x3B, "F2": 0x3C, "F10": 0x44, "ESC": 0x01, "ENTER": 0x1C, "Y": 0x15,
        "N": 0x31, "SPACE": 0x39, "DEL": 0x53, "DOWN": 0x150}

# How often one rule may fire in one boot: a prompt that is still there after this
# many answers is one the sweep cannot get past, and is reported with its screen.
MAX_PRESSES = 4
TEXT_MAX = 80           # characters of a matched prompt kept for the report

# Pressed, one each, when a screen no rule matches has stood still (emulator.py): ESC
# goes on at Phoenix 4.0's and Intel's AMI prompts, F1 at the others'. Some BIOSes
# write their prompts in a font of their own, which the screen reader cannot read.
BLIND_KEYS = ("ESC", "F1")


@dataclass(frozen=True)
class Rule:
    name: str           # stable, in reports: "award-f1"
    kind: str           # "prompt" (answer, go on), "setup" (a step of a setup-save
                        # cycle), "stop" (the BIOS found nothing to boot)
    pattern: str
    keys: tuple = ()
    again: tuple = None     # the keys from its second time in a boot, where they differ

    def search(self, text, pos=0):
        return re.compile(self.pattern, re.I | re.S).search(text, pos)


RULES = [
    # Questions inside setup first: they sit on top of a setup screen.
    # "Quit without saving (Y/N)?" (an old AMI setup's ESC) is answered N: only
    # leaving with a write stores the defaults.
    Rule("setup-no-discard", "setup", r"without\s*saving[^\n]*\(\s*y\s*/\s*n\s*\)",
         ("N", "ENTER", "F10")),
    Rule("setup-confirm-yn", "setup", r"\(\s*y\s*/\s*n\s*\)\s*\??", ("Y", "ENTER")),
    Rule("setup-confirm-yes", "setup",
         r"save[^\n]*(?:exit|changes)[^\n]*\n?[^\n]*\[\s*yes\s*\]", ("ENTER",)),
    # AMIBIOS Easy Setup (1997-98, Tyan's and FIC's Pentium II boards): F10 opens
    # "[ Save current settings and exit ]", "Press [Enter] to Continue".
    Rule("ami-easy-save", "setup", r"\[\s*save\s*current\s*settings\s*and\s*exit\s*\]"
         r"[\s\S]*press\s*\[\s*enter\s*\]\s*to\s*continue", ("ENTER",)),
    # AMI WinBIOS: ESC opens "Exit Setup", whose first button is "Save changes and Exit".
    # (The 1996 one's S is a glyph of its own, read as a blank: "AMIBIO   etup".)
    Rule("winbios-exit", "setup", r"exit\s*s?etup.*s?ave\s*changes\s*and\s*exit", ("ENTER",)),
    Rule("winbios-setup", "setup", r"amibios?\s*s?etup(?!\s*program).*alt\s*\+\s*h",
         ("ESC",)),
    # POST prompts.
    # A power-on password (the Packard Bell PB600's Phoenix BIOS asks for one on a fresh
    # CMOS): no key answers it; the boot ends at it, and the report names it.
    Rule("password", "prompt", r"enter\s*password\s*:", ()),
    Rule("phoenix-esc", "prompt", r"press\s*<?esc>?\s*to\s*resume", ("ESC",)),
    # An AMI 386 BIOS of 1989 counts 16 MB for 140 s, and again after its setup: ESC.
    Rule("ami-skip-memory-test", "prompt", r"press\s*<?esc>?\s*to\s*bypass\s*memory\s*test",
         ("ESC",)),
    # "Memory size does not match CMOS - Run SETUP", "Press Enter to boot or Esc to run
    # Setup" (the Quadtel BIOS of 86Box's SVC 386SX): Enter goes on.
    Rule("enter-to-boot", "prompt", r"press\s*<?enter>?\s*to\s*boot", ("ENTER",)),
    # Micronics' Phoenix BIOS: "Entering System SETUP due to invalid config
    # information", "Press "Enter" to continue -": its setup follows.
    Rule("enter-to-continue", "prompt", r"press\s*[\"<]?enter[\">]?\s*to\s*continue",
         ("ENTER",)),
    # Intel's own boards (AMI BIOS): "Press <F1> for Setup, <ESC> to Boot, ...".
    Rule("esc-to-boot", "prompt", r"<?esc>?\s*to\s*boot", ("ESC",)),
    # TriGem's AMI BIOS (1995): "Press <F1> to run SETUP or <F2> to CONTINUE...": its F1
    # opens a menu whose save does not stop the question; F2 goes on with the defaults.
    Rule("f2-continue", "prompt", r"<?f2>?\s*(?:key\s*)?to\s*continue", ("F2",)),
    # HP's Vectras (Phoenix, 1995-96) offer setup alone on a bad CMOS ("System CMOS
    # checksum bad - run SETUP", "Press <F2> to enter SETUP") and wait: F2, then its
    # setup is left saving. (Elsewhere that line is a hint the POST does not wait on.)
    Rule("f2-setup-only", "prompt", r"run\s*setup\s*\n\s*press\s*<?f2>?\s*to\s*enter\s*"
         r"setup\s*$", ("F2",)),
    Rule("f1-run-setup", "prompt", r"press\s*<?f1>?\s*(?:key\s*)?to\s*run\s*setup"
         r"|press\s*<?f1>?\s*(?:key\s*)?if\s*you\s*want\s*to\s*run\s*setup", ("F1",)),
    Rule("f1-resume", "prompt", r"press\s*<?f1>?\s*(?:key\s*)?to\s*resume", ("F1",)),
    Rule("f1-continue", "prompt", r"(?:press|strike)\s*(?:the\s*)?<?f1>?\s*(?:key\s*)?"
         r"to\s*continue", ("F1",)),
    Rule("any-key", "prompt", r"press\s*any\s*key\s*to\s*continue", ("SPACE",)),
    Rule("ibm-f1-picture", "prompt", r"\bf1\s+f2\s+f3\s+f4\s+f5\s+f6\s+f7\s+f8\s+f9\s+"
         r"f10\s+f11\s+f12\b", ("F1",)),
    # IBM's SurePath BIOS (1993-94) asks in a box, its first line lit: "CMOS values are
    # corrupt", "Load ROM defaults and continue."; "Configuration errors were detected",
    # "Continue."; "The configuration settings are invalid", "Automatically reconfigure
    # system and continue.". Enter picks the first line, which goes on.
    # (The PC 330's 1994 setup draws its f in a glyph of its own, which reads as a blank.)
    Rule("surepath-continue", "prompt", r"select\s*one\s*of?\s*the\s*f?ollowing:\s*\n\s*"
         r"[^\n]*continue\.", ("ENTER",)),
    # Then its setup's main menu: Esc asks to save ("Yes, save and exit Setup." lit;
    # the PC 330's "... exit the Setup Utility.", its v a blank as its f).
    Rule("surepath-save", "setup", r"do\s*you\s*want\s*to\s*sa\s*v?\s*e\s*them\?\s*\n\s*"
         r"yes,\s*sa\s*v?\s*e\s*and\s*exit\s*(?:the\s*)?setup", ("ENTER",)),
    Rule("surepath-menu", "setup", r"surepath\s*bios\s*setup.*\n\s*main\s*menu\s*\n",
         ("ESC",)),
    # IBM's setup of 1994-95 (PC 330), the menu its POST's questions end in: Esc asks to
    # leave ("Yes, exit the Setup Utility." lit, or, with settings changed, the save
    # question above), Enter leaves.
    Rule("ibm-setup-exit", "setup", r"do\s*you\s*want\s*to\s*exit\s*the\s*setup\s*"
         r"utility\?\s*\n\s*yes,\s*exit", ("ENTER",)),
    Rule("ibm-setup-menu", "setup", r"con\s*f?\s*iguration/setup\s*utility\s*\n\s*select\s*"
         r"[o0]ption:", ("ESC",)),
    # MR BIOS opens its setup by itself on a fresh CMOS.
    Rule("mrbios-setup", "setup", r"f10\s*to\s*record\s*and\s*exit", ("F10",)),
    # An AMI BIOS with extended CMOS (1991) opens a menu on its F1: "EXIT FOR BOOT"
    # (lit), "RUN CMOS SETUP", "RUN XCMOS SETUP" (or "RUN STND-SETUP", "RUN
    # EXTD-SETUP"). Down and Enter open the CMOS setup,
    # whose save (the rules above and below) stores the defaults.
    Rule("ami-xcmos-menu", "setup",
         r"exit\s*for\s*boot\s*\n\s*run\s*(?:cmos|stnd-?)\s*setup",
         ("DOWN", "ENTER"), again=("ENTER",)),
    # That CMOS setup (AMI, 1985-1990) says "ESC = Exit" and has no F10: ESC asks
    # whether to write the CMOS (the (Y/N) rule answers), and its menu comes back,
    # where Enter on "EXIT FOR BOOT" boots.
    Rule("setup-esc-only", "setup", r"^(?![\s\S]*f10)[\s\S]*esc\s*=\s*exit", ("ESC",)),
    # Micronics' setup (after its "Press "Enter" to continue"): Enter stores the page.
    Rule("setup-enter-confirm", "setup", r"press\s*enter\s*key\s*to\s*confirm", ("ENTER",)),
    # Setup screens: leave them saving.
    # Setup screens, by their key help or title, never by a POST line's "run SETUP"
    # ("Invalid configuration information - please run SETUP program").
    Rule("setup-screen", "setup", r"cmos\s*setup\s*utility|setup\s*program\s*-|"
         r"phoenixbios\s*setup\s*utility|hi-flex|f10\s*[:=]?\s*save|"
         r"esc\s*[:=]\s*(?:exit|quit)", ("F10",)),
    # No loader: the BIOS booted nothing.
    # (A font whose O and 0 are one glyph reads "0perating".)
    Rule("no-boot-disk", "stop", r"disk\s*boot\s*failure|boot\s*disk\s*failure|"
         r"[o0]perating\s*system\s*not\s*found|no\s*rom\s*basic|no\s*boot\s*device|"
         r"no\s*bootable\s*device|non-system\s*disk|insert\s*(?:a\s*)?(?:boot|system)\s*"
         r"(?:diskette|disk)|reboot\s*and\s*select\s*proper\s*boot\s*device|"
         r"missing\s*operating\s*system|boot\s*failure|"
         # The ADD-X Xenon's ROMBIOS 7.71 (1995).
         r"loading\s*system\s*from\s*disk\s*impossible|"
         # IBM's machines start their ROM BASIC when nothing boots.
         r"the\s*ibm\s*personal\s*computer\s*basic"),
]


def match(lines):
    """(Rule, the matched text) of the first rule the screen matches, or None; but a
    STOP rule whose words come below that rule's: a BIOS that has gone on from its
    prompt to "No boot device available" leaves the prompt on the screen above."""
    text = "\n".join(lines)
    for rule in RULES:
        m = rule.search(text)
        if m:
            if rule.kind != "stop":
                for stop in (r for r in RULES if r.kind == "stop"):
                    below = stop.search(text, m.end())
                    if below:
                        rule, m = stop, below
                        break
            return rule, " ".join(m.group().split())[:TEXT_MAX]
    return None


def kind(name):
    """The kind of the rule called NAME, or None."""
    return next((rule.kind for rule in RULES if rule.name == name), None)


def scan_codes(keys):
    return [SCAN[k] for k in keys]


def describe(lines, limit=3):
    """The screen's last non-empty lines, for a report: what the BIOS said last."""
    shown = [" ".join(l.split()) for l in lines if l.strip()]
    return " / ".join(shown[-limit:])
