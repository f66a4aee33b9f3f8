"""One machine, start to verdict: its configuration, its image, up to MAX_BOOTS bounded
boots, its primed CMOS kept, its result written.

The boots, and why more than one:
1. With the cached NVR (nvr/ as 86Box last left it) when there is one, otherwise a
   fresh CMOS, whose "CMOS checksum error" prompt the screen watcher answers; the
   BIOS writes its defaults, and 86Box the CMOS to nvr/ when it is stopped.
2. When the kernel did not start, the CMOS now says what drive A: the BIOS's own
   defaults give: a 1.2 MB or 1.44 MB drive is followed (the config's drive and image
   change to it: "a 5.25" drive where the board's defaults say so"); none ("Diskette
   Drive A: None") or another type is set to the configured drive in the CMOS (byte
   10h, checksum fixed: cmos.py). A CMOS the BIOS never set up (wrong checksum: some
   BIOSes boot on 86Box's fresh one without a prompt, with drive A: 2.88 MB) gets its
   standard part written, once. A first boot that answered prompts gets a second one
   anyway, now with a primed CMOS; so does one whose BIOS powered off on leaving setup.
3. Once more, when boot 2 changed the CMOS again; not after a boot that ended at a
   prompt its keys did not answer (a third would too).
A machine whose first boot reached the kernel takes one boot for its verdict; then one
more for each power-off method its survey says it may have and the run did not ask
(methods_to_ask: method=acpi where it found \\_S5_, method=chipset where its south
bridge has a soft-off apmoff knows), with the same configuration and CMOS, each judged
as the first (Result.methods, the table's method columns). With --dumps, one more boot with
action=dump (take_dump): the blocks into OUT/dumps/NAME/, and the ROM dump compared
with the ROM set's file (Result.dump, the table's "ROM dump" column).
"""

import os
import shutil
import time

from tools.apmoff_collect import derived, dumps, romfile

from . import cmos, config, emulator, image, judge, prompts, report, resultfile

from .resultfile import (BootRecord, CpuSeen, DumpTry, MethodTry, Result, RunConfig,
                         RunKey, ScreenRecord, Verdict)

MAX_BOOTS = 3
SCREENS_KEPT = 6        # pictures kept a boot: the prompts answered and the last screen
DUMP_OPTIONS = "action=dump onfail=exit"
# A dump's time on the wire besides POST: three characters a byte at 115200 baud, so
# 1 MiB of flash, both segments and the option ROMs take about 5 minutes.
DUMP_SECS = 420


class Settings:
    """What every machine of a sweep shares."""

    def __init__(self, binary, roms, out, cache, images, options, timeout, fonts,
                 faults=True, keep=False, cancel=None, dumps=False):
        self.binary, self.roms, self.out, self.cache = binary, roms, out, cache
        self.images = images            # {floppy type: base image path}
        self.options, self.timeout, self.fonts = options, timeout, fonts
        self.faults, self.keep, self.dumps = faults, keep, dumps
        self.runner = emulator.Runner(binary, roms, fonts, faults, cancel)
        self.binary_hash = image.digest(binary)
        self.image_hashes = {k: image.digest(v) for k, v in images.items()
                             if os.path.exists(v)}

    def key(self, floppy):
        """What a result is valid for: the image booted, the 86Box build, the options."""
        return RunKey(image=self.image_hashes.get(floppy, ""), binary=self.binary_hash,
                      options=self.options)

    def path(self, *parts):
        return os.path.join(self.out, *parts)


# --- results (resultfile.py stores them) ----------------------------------------------

def load_result(settings, internal):
    r = resultfile.read(resultfile.path_of(settings.out, internal))
    return r if r and r.version == resultfile.RESULT_VERSION else None


def is_current(settings, result):
    """A result made with this image, 86Box build and options, with a boot for each
    method its survey asks (an older sweep's has none) and, with --dumps, its dump
    where it reached the kernel: not run again."""
    asked = [m.method for m in result.methods] if result else []
    return bool(result) and result.key == settings.key(
        result.config.floppy if result.config else "") and \
        all(m in asked for m, _ in methods_to_ask(result.survey, settings.options)) and \
        (not settings.dumps or result.dump is not None or
         not (result.verdict and result.verdict.reached_kernel))


def base_result(machine):
    return Result(machine=machine.internal, name=machine.name, board=machine.board,
                  type=machine.type_label or machine.type, chipset86=machine.chipset,
                  flags=machine.flag_names, buses=machine.buses,
                  bios_variant=machine.bios_default or "", type_rank=machine.type_rank)


def no_rom_result(settings, machine, missing_files, by_86box):
    r = base_result(machine)
    why = "no ROM in the set"
    if missing_files:
        why += ": %s" % ", ".join(missing_files[:3])
    if by_86box:
        why += " (86Box --missing lists it)"
    r.verdict = Verdict(outcome="not reached", reason_kind="no-rom", reason=why)
    r.key = settings.key(config.FLOPPY_35)
    r.config = RunConfig(floppy=config.FLOPPY_35)
    return r


# --- one machine -----------------------------------------------------------------------

def run_machine(settings, table, machine, say=lambda text: None):
    """Configures, boots and judges one machine; returns its result (also saved)."""
    start = time.monotonic()
    result = base_result(machine)
    cache = os.path.join(settings.cache, machine.internal)
    floppy = cached_floppy(cache, machine) or config.era_floppy(table, machine)
    choice = config.choose(table, machine, floppy)
    work = settings.path("work", machine.internal)
    last = None
    signal_retried = False
    tried = {floppy}
    for n in range(1, MAX_BOOTS + 1):
        choice.floppy = floppy
        boot, record, vmdir = boot_once(settings, table, machine, choice, cache, work, n,
                                        say)
        result.boots.append(record)
        last = (boot, record, vmdir)
        if boot.verdict in emulator.SIGNAL_EXITS and not signal_retried:
            signal_retried = True
            record.then = "86Box took a signal before it had set its handler: again"
            say("%s: %s" % (machine.internal, record.then))
            continue
        if ended(boot, record):
            break
        if judge.LOADER_TEXT.search(boot.com1) or boot.kernel_on_screen or \
                boot.loader_on_screen:
            break           # the BIOS booted the floppy: its drive is right
        if n > 1 and last_prompt(boot):
            break           # a second boot ends at a prompt its keys do not answer
        change = next_drive(cache, machine, floppy, answered=bool(record.keys),
                            ext_kb=choice.ram_kb - 1024,
                            wrote_standard=any((b.then or "").startswith(STANDARD)
                                               for b in result.boots[:-1]))
        change = other_drive(boot, floppy, change, tried) or change
        if not change:
            break
        tried.add(change[0])
        floppy, why = change
        record.then = why
        say("%s: %s" % (machine.internal, why))
    boot, record, vmdir = last
    com1_log = write_com1_log(settings, machine, boot)
    result.config = RunConfig(cpu_family=choice.family, cpu_speed=choice.speed,
                              ram_kb=choice.ram_kb, video=choice.video, floppy=choice.floppy)
    result.key = settings.key(choice.floppy)
    result.com1_log = os.path.relpath(com1_log, settings.out)
    prompt = last_prompt(boot)
    final = boot.final
    shot = record.final_screenshot or (record.screens[-1].picture
                                       if record.screens else None)
    result.verdict = judge.judge(
        boot.verdict, boot.com1, final.lines if final else (), boot.stopped_at,
        prompt.rule if prompt else "", prompt.text if prompt else "", boot.faults,
        shot, record.refused or "",
        boot.stalled or boot.kernel_on_screen or boot.loader_on_screen)
    result.survey = judge.survey_of(boot.com1)
    # The CPU from evidence: the config 86Box wrote back, and what the kernel saw.
    result.cpu = CpuSeen(box86=record.cpu, apmoff=judge.cpu_seen(result.survey))
    result.interfaces = judge.interfaces(boot.com1, boot.verdict)
    judge.refresh(result, boot.com1, final.lines if final else ())
    result.faults = boot.faults[-12:] if not result.verdict.reached_kernel else []
    if result.verdict.reached_kernel:
        for method, why in methods_to_ask(result.survey, settings.options):
            result.methods.append(ask_method(settings, table, machine, choice, cache, work,
                                             method, why, say))
        if settings.dumps:
            result.dump = take_dump(settings, table, machine, choice, cache, work, say)
    result.seconds = round(time.monotonic() - start, 1)
    result.finished = time.strftime("%Y-%m-%d %H:%M:%S")
    resultfile.write(settings.out, result)
    if not settings.keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


def methods_to_ask(survey, options):
    """[(method, why)]: the power-off methods the survey says this machine may have,
    each to be asked alone in a boot of its own, unless the options already name a
    method (the sweep then asks what the user asked, no more)."""
    if not survey or "method=" in options:
        return []
    asks = []
    s5 = (survey.get("acpi") or {}).get("s5") if isinstance(survey.get("acpi"), dict) \
        else None
    if isinstance(s5, dict):
        asks.append(("acpi", "\\_S5_ %s/%s" % (s5.get("slp_typa", "?"),
                                                s5.get("slp_typb", "?"))))
    soft_off = derived.derived(survey, None).get("soft_off", "")
    if soft_off.startswith("yes"):
        asks.append(("chipset", "soft-off %s" % soft_off))
    return asks


def ask_method(settings, table, machine, choice, cache, work, method, why, say):
    """One boot with method=<method> added to the sweep's options, judged."""
    start = time.monotonic()
    say("%s: asking method=%s (%s)" % (machine.internal, method, why))
    boot, record, _ = boot_once(settings, table, machine, choice, cache, work,
                                "-" + method, say,
                                options=("%s method=%s" % (settings.options, method)).strip())
    log = write_com1_log(settings, machine, boot, "%s.%s" % (machine.internal, method),
                         "logs-methods")
    final = boot.final
    verdict = judge.judge(boot.verdict, boot.com1, final.lines if final else (),
                          boot.stopped_at, "", "", boot.faults,
                          record.final_screenshot, record.refused or "",
                          boot.stalled or boot.kernel_on_screen or boot.loader_on_screen)
    say("%s: method=%s: %s" % (machine.internal, method, report.sweep_method_text(verdict)))
    return MethodTry(method=method, why=why, verdict=verdict,
                     seconds=round(time.monotonic() - start, 1),
                     com1_log=os.path.relpath(log, settings.out))


def take_dump(settings, table, machine, choice, cache, work, say):
    """One boot with action=dump, its blocks read back whole and written to
    OUT/dumps/NAME/ (apmoff-collect dump's files), the rom blocks compared with the
    machine's ROM files."""
    start = time.monotonic()
    say("%s: dumping its firmware (action=dump)" % machine.internal)
    boot, _, _ = boot_once(settings, table, machine, choice, cache, work, "-dump", say,
                           options=DUMP_OPTIONS, timeout=settings.timeout + DUMP_SECS)
    log = write_com1_log(settings, machine, boot, "%s.dump" % machine.internal,
                         "logs-dumps")
    images = {}
    for f in machine.roms:
        path = os.path.join(settings.roms, f[len("roms/"):])
        if os.path.isfile(path):
            with open(path, "rb") as fh:
                images[os.path.basename(f)] = fh.read()
    files = settings.path("dumps", machine.internal)
    result = read_dump(judge.clean(boot.com1), boot.verdict, images, files)
    if result.files:
        result.files = rel(settings, files)
    result.com1_log = rel(settings, log)
    result.seconds = round(time.monotonic() - start, 1)
    say("%s: dump: %d blocks, %d bytes%s; %s" % (
        machine.internal, result.blocks, result.bytes,
        ", %d spoilt" % len(result.bad) if result.bad else "", result.rom))
    return result


def read_dump(com1, verdict, images, files):
    """A dump boot's result: its blocks read back whole and written into `files`
    (apmoff-collect dump's files), its rom blocks compared with the machine's ROM
    files ({name: bytes}); `files` is left empty of a boot that sent no block."""
    lines = com1.split("\n")
    found = dumps.blocks(lines)
    good = [b for b in found if b.good]
    shutil.rmtree(files, ignore_errors=True)
    if found:
        dumps.write(found, files, dumps.entries(lines))
    result = DumpTry(emulator=verdict, blocks=len(good),
                     bad=["%s at %08Xh" % (b.kind, b.addr) for b in found if not b.good],
                     bytes=sum(b.length for b in good), files=files if found else None)
    roms = {b.addr: bytes(b.data) for b in good if b.kind == "rom"}
    agreement = romfile.best(roms, images) if roms and images else None
    if agreement is not None and agreement.compared:
        result.rom = agreement.text()
        result.rom_equal = agreement.equal
        result.rom_ranges = ["%Xh-%Xh" % r for r in agreement.ranges()]
        result.rom_differing, result.rom_compared = agreement.differing, agreement.compared
    else:
        result.rom = "no rom block read back" if not roms else "no ROM file to compare"
    return result


def ended(boot, record):
    """True when this boot is the machine's verdict: the kernel ran, 86Box refused or
    left, or the machine faulted or went off by itself. A soft-off right after setup
    keys is the BIOS's way out of its setup (the Tyan Trinity 371 saves and powers
    off): the CMOS is primed, and another boot follows."""
    if boot.first_kernel is not None or record.refused or \
            boot.verdict == "triple-fault" or boot.verdict.startswith("exit"):
        return True
    if boot.verdict == "poweroff":
        return not any(shot.keys and prompts.kind(shot.rule) == "setup"
                       for shot in boot.screens)
    return False


def last_prompt(boot):
    """The prompt the BIOS stopped at, when the boot ended on one it kept showing."""
    if boot.first_kernel is not None or boot.stopped_at and not boot.stalled:
        return None
    final = boot.final
    if final is not None:
        found = prompts.match(final.lines)
        if found and found[0].kind != "stop":
            final.rule, final.text = found[0].name, found[1]
            return final
    return None


def boot_once(settings, table, machine, choice, cache, work, n, say, options=None,
              timeout=None):
    """Boot n (a number, or "-acpi" for a method's boot) with the sweep's options, or
    with `options`, in the sweep's time or `timeout` seconds."""
    vmdir = os.path.join(work, "boot%s" % n)
    shutil.rmtree(vmdir, ignore_errors=True)
    os.makedirs(vmdir)
    if os.path.isdir(cache):
        shutil.copytree(cache, os.path.join(vmdir, "nvr"))
    nvr = cmos.nvr_path(os.path.join(vmdir, "nvr"), machine.internal)
    wanted = config.DRIVES[choice.floppy]["cmos"]
    old = cmos.set_drive_a(nvr, wanted) if os.path.exists(nvr) else None
    img = os.path.join(vmdir, "apmoff.img")
    image.make(settings.images[choice.floppy], img,
               settings.options if options is None else options,
               image.label_for(machine.internal, machine.board))
    com1 = os.path.join(vmdir, "com1.log")
    written = config.render(machine, choice, img, com1)
    with open(os.path.join(vmdir, "86box.cfg"), "w") as f:
        f.write(written)
    say("%s: boot %s: %s%s" % (machine.internal, n, choice.describe(),
                               "" if os.path.exists(nvr) else ", fresh CMOS"))
    boot = settings.runner.boot(vmdir, com1, timeout or settings.timeout)
    record = BootRecord(n=n, verdict=boot.verdict, seconds=round(boot.seconds, 1),
                        floppy=choice.floppy,
                        fresh_cmos=old is None and not os.path.isdir(cache),
                        cmos_drive_was=old, first_com1=rounded(boot.first_com1),
                        first_kernel=rounded(boot.first_kernel), stopped_at=boot.stopped_at,
                        markers=compact(boot.markers), patched=boot.patched)
    shots = settings.path("screens")
    kept = 0
    for i, s in enumerate(boot.screens):
        entry = ScreenRecord(at=round(s.at, 1), rule=s.rule, text=s.text, keys=list(s.keys))
        if s.keys:
            record.keys.append("%s (%s)" % ("+".join(s.keys), s.rule))
        if kept < SCREENS_KEPT:
            entry.picture = rel(settings, emulator.keep_screen(
                s, shots, "%s-boot%s-%02d.png" % (machine.internal, n, i)))
            kept += 1
        record.screens.append(entry)
    if boot.final is not None and boot.first_kernel is None:
        record.final_screenshot = rel(settings, emulator.keep_screen(
            boot.final, shots, "%s-boot%s-final.png" % (machine.internal, n)))
        record.final_screen = [l for l in boot.final.lines if l.strip()]
    back = written_back(vmdir, written)
    record.refused = refused_by(machine, boot, back) or None
    ran = config.ran_cpu(table, back)
    if ran:
        record.cpu = ran
        if choice.family and ran.family != choice.family:
            record.cpu_note = "86Box did not take family %s on this board: it ran %s" \
                % (choice.family, ran.name)
            say("%s: %s" % (machine.internal, record.cpu_note))
    keep_nvr(vmdir, cache, machine)
    return boot, record, vmdir


def compact(markers):
    """86Box's markers, repeats counted: ["hard reset x2", "soft-off"]."""
    out = []
    for m in markers:
        if out and out[-1][0] == m:
            out[-1][1] += 1
        else:
            out.append([m, 1])
    return [m if n == 1 else "%s x%d" % (m, n) for m, n in out]


def rounded(x):
    return None if x is None else round(x, 1)


def rel(settings, path):
    return os.path.relpath(path, settings.out) if path else None


def written_back(vmdir, written):
    """The boot's 86box.cfg as 86Box rewrote it when it loaded it (config.read_back),
    or {} when 86Box left it as the sweep wrote it: then it is no evidence of what
    86Box ran."""
    try:
        with open(os.path.join(vmdir, "86box.cfg")) as f:
            text = f.read()
    except OSError:
        return {}
    return {} if text == written else config.read_back(text)


def refused_by(machine, boot, back):
    """Why 86Box did not run the machine as written, or "": it exited before powering
    on, or wrote back another machine (86Box replaces a machine whose ROMs it cannot
    find). Another CPU is no refusal: the model is 86Box's choice (config.py)."""
    if not boot.powered_on and boot.verdict.startswith("exit"):
        tail = [l for l in boot.stderr_head.splitlines() if l and not l.startswith("#")][-3:]
        return "86Box exited (status %s) before powering the machine on%s" % (
            boot.exit_status, (": " + " | ".join(tail)) if tail else "")
    ran = back.get(("Machine", "machine"))
    if ran and ran != machine.internal:
        return "86Box ran machine %s instead (it found no ROM for %s)" % (ran, machine.internal)
    return ""


def keep_nvr(vmdir, cache, machine):
    """86Box's nvr/ after the boot becomes the machine's cached one."""
    src = os.path.join(vmdir, "nvr")
    if not os.path.isfile(cmos.nvr_path(src, machine.internal)):
        return
    tmp = cache + ".new"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(src, tmp)
    shutil.rmtree(cache, ignore_errors=True)
    os.replace(tmp, cache)


def cached_floppy(cache, machine):
    """The drive the cached CMOS has for A: (1.2 MB or 1.44 MB), or None."""
    t = cmos.drive_a(cmos.read(cmos.nvr_path(cache, machine.internal)))
    return config.CMOS_TYPE_DRIVE.get(t)


STANDARD = "the CMOS was never set up"


def other_drive(boot, floppy, change, tried):
    """(floppy, why) of the drive not tried yet, when the BIOS said it booted no disk
    and the CMOS gives no other reason for another boot (a DEC Venturis 4xx says
    "Diskette A: 1.44 MB" whatever its CMOS's byte 10h holds); else None."""
    other = config.OTHER_DRIVE.get(floppy)
    if boot.stop_rule != "no-boot-disk" or not other or other in tried:
        return None
    if change and not change[1].startswith("another boot"):
        return None         # the CMOS changes first: its standard part, its drive
    return other, "the BIOS booted no disk from the %s drive: the %s one" % (
        config.DRIVES[floppy]["text"], config.DRIVES[other]["text"])


def next_drive(cache, machine, floppy, answered, ext_kb, wrote_standard=False):
    """(floppy, why) for another boot, or None: what the CMOS the BIOS left says."""
    if not machine.nvrmask:
        return None         # a PC/XT: no CMOS, its drives are switches 86Box sets
    path = cmos.nvr_path(cache, machine.internal)
    cm = cmos.read(path)
    t = cmos.drive_a(cm)
    if t is None or t not in cmos.TYPE_NAMES:
        # A checksum BIOSes check, but bytes none set: 86Box's fresh CMOS is all FFh,
        # and a 1993 AMIBIOS sums it as it is and boots a "2.88 MB" drive A: (type
        # 15) and hard disk type 255 without a prompt.
        if cm is not None and not wrote_standard and \
                cmos.write_standard(path, config.DRIVES[floppy]["cmos"], ext_kb):
            return floppy, "%s (%s): wrote its standard part, drive A: %s, no hard " \
                "disk, VGA" % (STANDARD, "checksum wrong" if t is None else
                               "drive A: type %d" % t, config.DRIVES[floppy]["text"])
        return (floppy, "another boot: the BIOS left no valid CMOS yet") if answered else None
    follow = config.CMOS_TYPE_DRIVE.get(t)
    if follow and follow != floppy:
        return follow, "the BIOS's defaults say drive A: is %s: booting that drive" % \
            config.DRIVES[follow]["text"]
    if t != config.DRIVES[floppy]["cmos"]:
        return floppy, "the CMOS says drive A: is %s: set to %s" % (
            cmos.TYPE_NAMES.get(t, "type %d" % t), config.DRIVES[floppy]["text"])
    if answered:
        return floppy, "another boot with the CMOS the BIOS just primed"
    return None


def write_com1_log(settings, machine, boot, name=None, folder="logs"):
    """The run's COM1 text as apmoff-collect reads it, with 86Box's verdict as the last
    line in run.sh's form ("86BOX poweroff secs=S", tools/apmoff_collect/evidence.py).
    The method boots' go to logs-methods/, which the collector does not import: the
    machine's report is its first run's."""
    path = settings.path(folder, (name or machine.internal) + ".log")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = judge.clean(boot.com1)
    with open(path, "w", encoding="latin-1") as f:
        f.write(text)
        if text and not text.endswith("\n"):
            f.write("\n")
        f.write("86BOX %s secs=%d\n" % (boot.verdict, round(boot.seconds)))
    return path
