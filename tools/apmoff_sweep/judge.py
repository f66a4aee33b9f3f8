"""The verdict of one machine: what 86Box saw (emulator.Boot's verdict), what the
kernel said on COM1, and, for a machine that never reached the kernel, the reason,
named. Pure functions of recorded text, so the tests judge stored logs.

Reasons a machine does not reach the kernel (`reason_kind`):
  no-rom       the ROM set lacks the machine's BIOS (86Box's own list, or the files its
               init function loads)
  refused      86Box would not run the configuration: it exited before powering the
               machine on, or ran another machine than the one written
  exit         86Box exited by itself after powering the machine on (a crash, or a
               signal: negative status)
  prompt       the BIOS stopped at a prompt the sweep could not get past (with the
               screen's words and its screenshot)
  no-loader    the BIOS booted no loader: it said so ("DISK BOOT FAILURE", ...), or
               neither COM1 nor the screen ever showed the loader (apmoff's own, or
               GRUB on an image made with it), or the BIOS powered the machine off
  fault        the CPU triple-faulted before the kernel (86Box's fault trace, with the
               kit's BENCH86_FAULTS, names the exceptions that led to it)
  reset        the machine reset after the loader started, before the kernel
  loader-hang  the loader started and the kernel never did, with no fault
  silent-kernel  the loader started the kernel and the machine went off, but the kernel wrote
               nothing on COM1 (so nothing of it can be judged)
  no-power-on  86Box did not power the machine on in time
"""

import json
import re

from .resultfile import ApmSeen, Verdict

KERNEL = re.compile(r"^apmoff: ", re.M)
SURVEY = re.compile(r"^apmoff: survey (\{.*\})\s*$", re.M)
POWERING = re.compile(r"^apmoff: powering off via (\w+)(.*)$", re.M)
FAILED_VIA = re.compile(r"^apmoff: power-off via (\w+) failed: (.*)$", re.M)
HALTED = re.compile(r"^apmoff: halted: (.*)$", re.M)
# apmoff's floppy loader says its name on COM1 and the screen; GRUB, on an image made
# with it, its own words.
LOADER_TEXT = re.compile(r"^apmoff loader|GRUB|Booting `|Welcome to GRUB|error: ", re.I | re.M)
# A loader's line on the screen, whole: a BIOS's "Keyboard error: ..." is none.
SCREEN_LOADER = re.compile(r"^(?:apmoff loader|GRUB |Welcome to GRUB|Booting `)", re.I)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]")

EMULATOR_VERDICTS = ("poweroff", "reset", "triple-fault", "on", "timeout")


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean(com1):
    """COM1 as lines of text: CRs, terminal escapes and other control bytes removed (a
    BIOS or a boot sector setting the UART up may send a NUL)."""
    return CONTROL.sub("", ANSI.sub("", com1.replace("\r", "")))


def kernel_lines(com1):
    return [l for l in clean(com1).split("\n") if l.startswith("apmoff: ")]


def survey_of(com1):
    """The survey JSON object the kernel printed, or None."""
    m = None
    for m in SURVEY.finditer(clean(com1)):
        pass
    if not m:
        return None
    try:
        value = json.loads(m.group(1))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# APM in the kernel's own lines, for a run without a survey: a BIOS whose serial port is
# off leaves only the screen (the summary's "APM :" row), and a kernel stopped in a
# call leaves COM1 without the survey's record. The screen reader may take a 0 for an O
# and the reverse (the Vectras' "BI0S").
APM_FOUND = re.compile(r"^\s*(?:apmoff: APM (\d\.[\dO]) BI[O0]S, signature"
                       r"|APM +: (\d\.[\dO]), flags)", re.M)
APM_NONE = re.compile(r"^\s*(?:apmoff: no APM BI[O0]S|APM +: none)", re.M)


def apm_seen(com1, screen_lines=()):
    """APM as the kernel's lines on COM1 or the screen tell it: ApmSeen(True, "1.2"),
    ApmSeen(False), or None where they do not say."""
    text = "\n".join([clean(com1)] + [l.rstrip() for l in screen_lines])
    found = list(APM_FOUND.finditer(text))
    if found:
        version = found[-1].group(1) or found[-1].group(2)
        return ApmSeen(present=True, version=version.replace("O", "0"))
    if APM_NONE.search(text):
        return ApmSeen(present=False)
    return None


def cpu_seen(survey):
    """The CPU as the kernel saw it (the survey's cpu object: CPUID's vendor, the
    kernel's name for the part, the clock it measured), "GenuineIntel Pentium II,
    233 MHz" or "386, 33 MHz"; None without a survey."""
    cpu = survey.get("cpu") if isinstance(survey, dict) else None
    if not isinstance(cpu, dict):
        return None
    words = [str(cpu[k]) for k in ("vendor", "name") if isinstance(cpu.get(k), str)
             and cpu[k]]
    khz = cpu.get("clock_khz")
    clock = "%d MHz" % round(khz / 1000.0) if isinstance(khz, int) and khz > 0 else ""
    return ", ".join(x for x in (" ".join(words), clock) if x) or None


def interfaces(com1, emulator):
    """{interface: what its power-off call did}: "off" for the call 86Box saw cut the
    power, the kernel's reason for each that failed, "called" for a last call after
    which nothing came back (a hang, or a reset)."""
    text = clean(com1)
    out = {}
    for m in FAILED_VIA.finditer(text):
        out[m.group(1)] = m.group(2).strip()
    calls = POWERING.findall(text)
    if calls:
        last = calls[-1][0]
        if last not in out:
            out[last] = "off" if emulator == "poweroff" else "called, then %s" % emulator
    return out


def judge(boot_verdict, com1, screen_lines=(), stopped_at="", prompt_rule="",
          prompt_text="", faults=(), screenshot=None, refused="", stalled=False):
    """The Verdict of one machine's last boot (stored in its result)."""
    lines = kernel_lines(com1)
    v = Verdict(emulator=boot_verdict, reached_kernel=bool(lines), screenshot=screenshot)
    if refused:
        v.outcome, v.reason_kind, v.reason = "not reached", "refused", refused
        return v
    if lines:
        v.kernel_last = lines[-1][len("apmoff: "):]
        v.outcome = kernel_outcome(boot_verdict, com1, lines)
        return v
    on_screen = [l.strip() for l in screen_lines if l.strip().startswith("apmoff: ")]
    if on_screen:
        # A BIOS whose defaults leave COM1 off: the kernel's words on the screen alone.
        v.reached_kernel = True
        v.kernel_last = on_screen[-1][len("apmoff: "):]
        v.outcome = "%s (read on the screen: no serial port answered)" % \
            kernel_outcome(boot_verdict, "\n".join(on_screen), on_screen)
        return v
    v.outcome = "not reached"
    kind, reason = not_reached(boot_verdict, com1, screen_lines,
                               "" if stalled else stopped_at, prompt_rule, prompt_text, faults)
    if stalled:
        reason += " (stopped: %s)" % stopped_at
    v.reason_kind, v.reason = kind, reason
    return v


def kernel_outcome(emulator, com1, lines):
    """What became of a run that reached the kernel, in a few words."""
    text = clean(com1)
    halted = HALTED.findall(text)
    calls = POWERING.findall(text)
    if emulator == "poweroff":
        return "off via %s" % calls[-1][0] if calls else "off"
    if halted:
        return "halted: %s" % halted[-1].strip()
    if emulator in ("reset", "triple-fault"):
        return "%s after: %s" % (emulator, lines[-1][len("apmoff: "):][:120])
    if calls:
        return "hung after powering off via %s" % calls[-1][0]
    return "%s after: %s" % (emulator, lines[-1][len("apmoff: "):][:120])


def not_reached(emulator, com1, screen_lines, stopped_at, prompt_rule, prompt_text, faults):
    text = clean(com1)
    screen_text = " / ".join(" ".join(l.split()) for l in screen_lines if l.strip())
    loader = bool(LOADER_TEXT.search(text) or
                  any(SCREEN_LOADER.search(l.strip()) for l in screen_lines))
    if emulator.startswith("exit:"):
        status = int(emulator[5:]) if emulator[5:].lstrip("-").isdigit() else 0
        return "exit", "86Box exited (%s) after powering the machine on, before the kernel" \
            % ("signal %d" % -status if status < 0 else "status %d" % status)
    if emulator == "timeout" and stopped_at.startswith("86Box did not power"):
        return "no-power-on", stopped_at
    if emulator == "poweroff" and loader:
        return "silent-kernel", ("86Box powered off after the loader booted the kernel, "
                                 "which wrote no line on COM1")
    if emulator == "poweroff" and not loader:
        # The Tyan Trinity 371: on its primed CMOS the BIOS cuts the power in POST.
        return "no-loader", ("the BIOS powered the machine off (86Box's soft-off) before "
                             "the loader started")
    if emulator == "triple-fault":
        trace = [f for f in faults if "triple fault" not in f][-3:]
        where = "in the loader" if loader else "before the loader"
        return "fault", "triple fault %s%s" % (
            where, (": " + "; ".join(t.replace("BENCH86: ", "") for t in trace)) if trace
            else " (no fault trace: run with the kit's patched 86Box and BENCH86_FAULTS)")
    if stopped_at:
        return "no-loader", "the BIOS booted no loader: \"%s\"" % stopped_at
    if prompt_rule:
        return "prompt", "the BIOS stopped at a prompt: \"%s\"" % prompt_text
    if emulator == "reset" and loader:
        return "reset", "the machine reset after the loader started"
    if loader:
        return "loader-hang", "the loader started, the kernel did not (%s)" % (
            last_words(text) or screen_text[-160:] or "no more output")
    return "no-loader", "the loader did not start: none on COM1 or the screen%s" % (
        " (the screen: \"%s\")" % screen_text[-200:] if screen_text else "")


def last_words(text):
    lines = [l.strip() for l in text.split("\n") if l.strip()]
    return lines[-1][:160] if lines else ""


# --- against 86Box's own table --------------------------------------------------------

def disagreements(flags, survey, verdict, iface_results, seen=None):
    """Where apmoff's findings and 86Box's machine flags (or its model) disagree, as
    short sentences. Without a survey, `seen` (apm_seen's) stands for its APM."""
    out = []
    survey = survey or {}
    if isinstance(survey.get("apm"), dict):
        apm = survey["apm"]
    else:
        apm = {"present": seen.present, "version": seen.version} if seen else {}
    acpi = survey.get("acpi") if isinstance(survey.get("acpi"), dict) else {}
    chipset = survey.get("chipset") if isinstance(survey.get("chipset"), dict) else {}
    has_apm = apm.get("present") is True
    if has_apm and "APM" not in flags:
        out.append("BIOS has APM %s; 86Box's table has no MACHINE_APM"
                   % apm.get("version", "?"))
    if "APM" in flags and apm and not has_apm:
        out.append("86Box flags MACHINE_APM; 5300h found no APM BIOS (with the BIOS's "
                   "setup defaults)")
    if acpi.get("found") is True and "ACPI" not in flags:
        out.append("BIOS has ACPI tables; 86Box's table has no MACHINE_ACPI")
    if "ACPI" in flags and acpi and acpi.get("found") is False:
        out.append("86Box flags MACHINE_ACPI; no RSDP found")
    tried = bool(iface_results)
    if chipset.get("soft_off") == "yes" and tried and verdict != "poweroff":
        out.append("chipset %s has soft-off; the power-off call did not cut power in 86Box"
                   % chipset.get("name", "?"))
    if chipset.get("soft_off") == "no" and verdict == "poweroff":
        out.append("chipset %s listed without soft-off, yet 86Box powered off"
                   % chipset.get("name", "?"))
    return out


def refresh(result, com1, screen_lines):
    """The findings read from a run's evidence (COM1, the last screen's lines), set
    on its Result: the sweep calls it after each machine, and a report calls it on
    stored results, so the tables follow this module, not the day a result was saved."""
    survey = result.survey
    has_apm = isinstance(survey, dict) and isinstance(survey.get("apm"), dict)
    result.apm_seen = None if has_apm else apm_seen(com1, screen_lines)
    result.disagreements = disagreements(
        result.flags, survey, result.verdict.emulator if result.verdict else "",
        result.interfaces, result.apm_seen)
    return result
