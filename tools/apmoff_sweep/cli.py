"""apmoff-sweep: boots apmoff on every machine of 86Box's table and writes what each
BIOS and chipset did (docs/86box.md says how to run it)."""

import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time


from . import (chipsets, config, emulator, flagspatch, image, judge, report, resultfile,
               screen, shards, source, sweep, table)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KIT = os.path.join(os.path.dirname(ROOT), "shared", "86box")
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
FIRST_TYPE = "MACHINE_TYPE_386SX"       # the sweep's machines: the 386 and later ...
LAST_TYPE = "MACHINE_TYPE_MISC"         # ... up to the table's miscellaneous ones

DESCRIPTION = """\
Boots an apmoff automation image on machines of 86Box's table, each configured from
the table (a CPU family of its socket, whose model 86Box picks, RAM in its range, a
video card for its bus or its own, a floppy drive its BIOS boots), two at a time,
each boot bounded; gets past the BIOS's prompts by reading the screen (86Box's
screenshots) and pressing keys; judges each run from 86Box (soft-off, reset, triple
fault, timeout, exit) and from COM1; and writes every result (with the CPU 86Box ran
and the kernel saw), the COM1 logs (imported into apmoff-collect: HTML, CSV) and one
Markdown table. A machine already judged with the same image, 86Box build and options
is not run again (--force runs it). Needs the kit's patched 86Box
(../shared/86box/PATCH.diff) for the markers, screenshots and key presses.

  tools/apmoff-sweep --source ~/86Box --roms ~/86box-roms           every machine
  tools/apmoff-sweep --source ~/86Box --roms ~/86box-roms tx97 p3v4x   two of them
  tools/apmoff-sweep --source ~/86Box --roms ~/86box-roms --list    configs, no boot
  tools/apmoff-sweep --source ~/86Box --roms ~/86box-roms --shard 2/3 --out s2
                                                  the second of three hosts' shares
  tools/apmoff-sweep --source ~/86Box --merge s1 s2 s3 --out all    one table of them

Exit status: 0 every machine selected has a verdict or a named reason; 1 some machine
could not be run (an error, named); 2 a wrong command line or setup (binary, ROMs,
source, image); 130 interrupted (the boots under way are stopped, not recorded)."""


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="apmoff-sweep", description=DESCRIPTION,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("machines", nargs="*", metavar="MACHINE",
                    help="86Box internal names (default: every machine of the 386 and "
                    "later)")
    ap.add_argument("--source", default=os.environ.get("APMOFF_86BOX_SOURCE"),
                    help="the 86Box source: a tree, or a git repository (with "
                    "--source-rev); the table must be the one the binary was built from "
                    "(default $APMOFF_86BOX_SOURCE)")
    ap.add_argument("--source-rev", help="the commit to read in a git repository "
                    "(default HEAD)")
    ap.add_argument("--86box", dest="binary", default=os.environ.get("APMOFF_86BOX") or
                    os.path.join(KIT, "86Box"),
                    help="the 86Box binary (default $APMOFF_86BOX or the kit's, %(default)s)")
    ap.add_argument("--roms", default=os.environ.get("APMOFF_86BOX_ROMS"),
                    help="86Box's ROM directory, holding machines/ and video/ "
                    "(default $APMOFF_86BOX_ROMS)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "sweep"),
                    help="where results, logs, screenshots and tables go (default %(default)s)")
    ap.add_argument("--cache", help="the primed CMOS/flash of each machine (default OUT/nvr)")
    ap.add_argument("--seed", action="append", default=[], metavar="DIR",
                    help="a directory of machine directories (86box.cfg + nvr/, as the "
                    "kit's machines/): their nvr/ primes the cache of a machine that has "
                    "none yet")
    ap.add_argument("--image", default=os.path.join(ROOT, "build", "apmoff-auto.img"),
                    help="the 1.44 MB automation image (default %(default)s)")
    ap.add_argument("--image-1200", default=os.path.join(ROOT, "build",
                                                         "apmoff-auto-1200.img"),
                    help="the 1.2 MB one, for 5.25\" drives (default %(default)s)")
    ap.add_argument("--image-360", default=os.path.join(ROOT, "build",
                                                        "apmoff-auto-360.img"),
                    help="the 360 KB one, for a PC/XT's drive (default %(default)s)")
    ap.add_argument("--options", default=image.DEFAULT_OPTIONS,
                    help="the kernel's options (default %(default)r)")
    ap.add_argument("-j", "--jobs", type=int, default=2,
                    help="machines at once, one 86Box each (default %(default)s)")
    ap.add_argument("--timeout", type=int, default=150,
                    help="seconds a boot may take (default %(default)s; 86Box runs in real "
                    "time: POST 10-40 s, the floppy 10-20 s)")
    ap.add_argument("--force", action="store_true", help="run machines already judged")
    ap.add_argument("--list", action="store_true",
                    help="print each selected machine's configuration; boot nothing")
    ap.add_argument("--shard", metavar="K/N",
                    help="sweep only the K-th of N shares of the machines (1 <= K <= N), "
                    "each machine's share fixed by its name: N hosts, one share each, "
                    "then --merge")
    ap.add_argument("--merge", nargs="+", metavar="DIR",
                    help="boot nothing: copy the results (and their logs, screens, dumps "
                    "and CMOS) of these sweeps' output directories into --out and write "
                    "the tables from them, as one sweep's")
    ap.add_argument("--flags-patch", metavar="DIR",
                    help="also write, from the results, patches of 86Box's "
                    "src/machine/machine_table.c that add MACHINE_APM and MACHINE_ACPI "
                    "where the BIOSes showed them, one a socket, and DIR/flags.csv")
    ap.add_argument("--report-only", action="store_true",
                    help="boot nothing: write the tables from the results in OUT")
    ap.add_argument("--no-collect", action="store_true",
                    help="do not run apmoff-collect (no database, HTML or CSV)")
    ap.add_argument("--no-faults", action="store_true",
                    help="without BENCH86_FAULTS (86Box's exception trace)")
    ap.add_argument("--dumps", action="store_true",
                    help="one more boot of each machine that reached the kernel, with "
                    "action=dump: its firmware's blocks in OUT/dumps/MACHINE/ and the "
                    "table's \"ROM dump\" column, whether the ROM dump is the ROM set's "
                    "file (1-6 minutes a machine)")
    ap.add_argument("--keep", action="store_true", help="keep each boot's 86Box directory "
                    "(OUT/work/MACHINE/bootN)")
    ap.add_argument("--docs", metavar="PAGE",
                    help="also write the table into PAGE's sweep-table block "
                    "(docs/86box.md)")
    ap.add_argument("--86box-commit", dest="box_commit",
                    help="the 86Box commit the binary was built from, for the record "
                    "(default: --source's commit when it is a git repository)")
    ap.add_argument("--roms-commit", help="the ROM set's commit, for the record (default: "
                    "the ROM directory's, when it is a git checkout)")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("-j must be at least 1")
    if args.timeout < 30:
        ap.error("--timeout must be at least 30 s (a BIOS POST alone takes 10-40 s)")
    args.cache = args.cache or os.path.join(args.out, "nvr")
    try:
        args.shard = shards.parse(args.shard) if args.shard else None
    except shards.ShardError as e:
        ap.error(str(e))
    if args.merge and args.shard:
        ap.error("--merge and --shard: merge the shards' directories, sweep nothing")
    if args.merge and any(os.path.realpath(d) == os.path.realpath(args.out)
                          for d in args.merge):
        ap.error("--merge: --out must be a directory of its own, not one of the merged")
    return args, ap


class Progress:
    """Progress lines from many threads, one at a time, with [done/total]."""

    def __init__(self, total):
        self.total, self.done, self.lock = total, 0, threading.Lock()

    def say(self, text):
        with self.lock:
            print("[%d/%d] %s" % (self.done, self.total, text), flush=True)

    def finished(self, text):
        with self.lock:
            self.done += 1
            print("[%d/%d] %s" % (self.done, self.total, text), flush=True)


def fail(ap, text):
    print("apmoff-sweep: %s" % text, file=sys.stderr)
    return EXIT_USAGE


def sweep_range(t):
    first = t.symbols.values.get(FIRST_TYPE, 0)
    last = t.symbols.values.get(LAST_TYPE, 1 << 30)
    return [m for m in t.machines if first <= m.type_rank < last]


def seed_cache(seeds, cache, wanted):
    """Copies nvr/ of seed machine directories into the cache of machines without one."""
    seeded = []
    for seed in seeds:
        for cfg in sorted(glob.glob(os.path.join(seed, "*", "86box.cfg"))):
            with open(cfg) as f:
                m = re.search(r"^machine\s*=\s*(\S+)", f.read(), re.M)
            nvr = os.path.join(os.path.dirname(cfg), "nvr")
            if not m or m.group(1) not in wanted or not os.path.isdir(nvr):
                continue
            dest = os.path.join(cache, m.group(1))
            if os.path.exists(dest):
                continue
            shutil.copytree(nvr, dest)
            for path in glob.glob(os.path.join(dest, "*")):
                os.chmod(path, 0o644)
            seeded.append((m.group(1), os.path.dirname(cfg)))
    return seeded


def git_commit(path):
    try:
        out = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=30)
        top = subprocess.run(["git", "-C", path, "rev-parse", "--show-toplevel"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode or os.path.realpath(top.stdout.decode().strip()) != \
            os.path.realpath(path):
        return None
    return out.stdout.decode().strip()


def main(argv=None):
    args, ap = parse_args(argv)
    if not args.source:
        return fail(ap, "no 86Box source: give --source (a tree or a git repository of "
                    "https://github.com/86Box/86Box at the binary's commit)")
    try:
        src = source.Source(args.source, args.source_rev)
        started = time.monotonic()
        t = table.read(src)
    except (source.SourceError, table.CError) as e:
        return fail(ap, "reading the machine table: %s" % e)
    candidates = sweep_range(t)
    if args.machines:
        unknown = [m for m in args.machines if not t.get(m)]
        if unknown:
            return fail(ap, "no machine %s in 86Box's table (--list shows them)"
                        % ", ".join(unknown))
        selected = [t.get(m) for m in args.machines]
    else:
        selected = candidates
    if args.shard:
        selected = shards.select(selected, *args.shard)
    print("apmoff-sweep: %d machines in the table (%d of the 386 and later), read in "
          "%.1f s; %d selected%s" % (len(t.machines), len(candidates),
                                     time.monotonic() - started, len(selected),
                                     " (shard %d/%d)" % args.shard if args.shard else ""),
          flush=True)
    if args.list:
        return list_machines(t, selected, args)
    if args.merge:
        try:
            shards.merge(args.merge, args.out)
        except (shards.ShardError, OSError) as e:
            return fail(ap, str(e))
        return write_outputs(args, t, candidates, src)
    if args.report_only:
        return write_outputs(args, t, candidates, src)
    for what, path in (("86Box binary", args.binary),):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return fail(ap, "no %s at %s (--86box)" % (what, path))
    if not args.roms or not os.path.isdir(os.path.join(args.roms, "machines")):
        return fail(ap, "no 86Box ROM directory (with machines/) at %s (--roms)" % args.roms)
    images = {config.FLOPPY_35: args.image, config.FLOPPY_525: args.image_1200,
              config.FLOPPY_360: args.image_360}
    for path in images.values():
        if not os.path.isfile(path):
            return fail(ap, "no image %s (make builds it)" % path)
    try:
        for path in images.values():
            image.with_options(image.menu_of(path)[1], args.options)
        fonts = screen.Fonts(args.roms)
    except (image.ImageError, screen.ScreenError) as e:
        return fail(ap, str(e))
    cancel = threading.Event()
    settings = sweep.Settings(args.binary, os.path.abspath(args.roms),
                              os.path.abspath(args.out), os.path.abspath(args.cache),
                              images, args.options,
                              args.timeout, fonts, faults=not args.no_faults,
                              keep=args.keep, cancel=cancel, dumps=args.dumps)
    os.makedirs(settings.cache, exist_ok=True)
    for internal, seed in seed_cache(args.seed, settings.cache, {m.internal for m in selected}):
        print("apmoff-sweep: %s: CMOS primed from %s" % (internal, seed))
    todo, skipped = [], 0
    for m in selected:
        if not args.force and sweep.is_current(settings, sweep.load_result(settings,
                                                                           m.internal)):
            skipped += 1
        else:
            todo.append(m)
    if skipped:
        print("apmoff-sweep: %d already judged with this image, 86Box and options "
              "(--force runs them again)" % skipped)
    missing = None
    if todo:
        missing = emulator.missing_machines(
            settings.runner, os.path.join(settings.out, "work", "_missing"),
            config.render(todo[0], config.choose(t, todo[0]), "", os.devnull))
        shutil.rmtree(os.path.join(settings.out, "work", "_missing"), ignore_errors=True)
        if missing is None:
            print("apmoff-sweep: 86Box printed no --missing list: ROMs judged from the "
                  "files each machine's init function names")
    status = run_all(settings, t, todo, missing, args.jobs, cancel)
    if status == EXIT_INTERRUPTED:
        return status
    out = write_outputs(args, t, candidates, src)
    return status or out


def rom_missing(settings, m, missing):
    """(files absent from the ROM set, whether 86Box's list names the machine)."""
    files = [f for f in m.roms if not os.path.exists(os.path.join(settings.roms, f[5:]))]
    by_86box = missing is not None and m.name in missing
    return files, by_86box


def run_all(settings, t, todo, missing, jobs, cancel):
    progress = Progress(len(todo))
    status = EXIT_OK

    def one(m):
        files, by_86box = rom_missing(settings, m, missing)
        no_rom = by_86box if missing is not None else (bool(files) and files == m.roms)
        if no_rom:
            r = sweep.no_rom_result(settings, m, files, by_86box)
            resultfile.write(settings.out, r)
            return r
        return sweep.run_machine(settings, t, m, progress.say)

    # TERM, and INT where a shell started the sweep in the background (which leaves
    # SIGINT ignored), stop it as Ctrl-C does: the boots under way end, unrecorded.
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, interrupt)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    futures = {pool.submit(one, m): m for m in todo}
    try:
        for fut in concurrent.futures.as_completed(futures):
            m = futures[fut]
            try:
                r = fut.result()
            except emulator.Cancelled:
                continue
            except Exception as e:      # one machine's failure is named, the rest go on
                status = EXIT_FAILED
                progress.finished("%s: ERROR %s: %s" % (m.internal, type(e).__name__, e))
                continue
            cpu = report.cpu_text(r, r.survey)
            progress.finished("%s: %s in %.0f s%s" % (m.internal, report.result_text(r),
                                                      r.seconds,
                                                      "; CPU %s" % cpu if cpu else ""))
    except KeyboardInterrupt:
        cancel.set()
        print("apmoff-sweep: interrupted; stopping the boots under way", file=sys.stderr)
        pool.shutdown(wait=True, cancel_futures=True)
        return EXIT_INTERRUPTED
    pool.shutdown(wait=True)
    return status


def list_machines(t, selected, args):
    for m in selected:
        c = config.choose(t, m).describe()
        print("%-18s %-45s %-28s %-14s %s | %s" % (
            m.internal, m.board[:45], m.type_label, ",".join(m.flag_names) or "-",
            c, ", ".join(m.roms) or "no ROM file named"))
    return EXIT_OK


def load_results(out, machines):
    names = {m.internal: m for m in machines}
    found = []
    for path in sorted(glob.glob(resultfile.path_of(out, "*"))):
        r = resultfile.read(path)
        if r and r.machine in names:
            found.append(refreshed(out, r))
    return found


def refreshed(out, r):
    """A stored result with its findings read again from its evidence (judge.refresh)."""
    com1 = ""
    if r.com1_log:
        try:
            with open(os.path.join(out, r.com1_log), encoding="latin-1") as f:
                com1 = f.read()
        except OSError:
            pass
    return judge.refresh(r, com1, (r.boots[-1].final_screen if r.boots else None) or [])


def header(args, src, results, candidates):
    box = args.box_commit or src.describe() or "unknown"
    roms = args.roms_commit or (git_commit(args.roms) if args.roms else None) or "unknown"
    return ("Swept %s by `tools/apmoff-sweep` with 86Box `%s`, ROM set `%s`, %s, "
            "options `%s`." % (time.strftime("%Y-%m-%d"), box[:12], roms[:12],
                               report.kernels_text(report.kernel_versions(results)), args.options)
            + " It covers %s." % report.coverage(results, candidates))


def write_outputs(args, t, candidates, src):
    results = load_results(args.out, t.machines)
    if not results:
        print("apmoff-sweep: no results in %s yet" % args.out)
        return EXIT_OK
    status = EXIT_OK
    if not args.no_collect:
        status = collect(args.out, results)
    try:
        with open(os.path.join(ROOT, "survey", "chipset.c")) as f:
            known = chipsets.read_table(f.read())
    except OSError:
        known = set()
    if args.flags_patch:
        written = flagspatch.write(results, t, src.read(flagspatch.TABLE_FILE),
                                   args.flags_patch, args.box_commit or src.describe() or "")
        print("apmoff-sweep: wrote %d flag patches and flags.csv in %s" % (
            len(written), args.flags_patch))
    text = report.block(results, header(args, src, results, candidates), known)
    md = os.path.join(args.out, "sweep.md")
    with open(md, "w") as f:
        f.write(text + "\n")
    c = report.counts(results)
    median, hours = report.timing(results, len(candidates), 2)
    print("apmoff-sweep: %d machines: %d reached the kernel, APM on %d, apmoff powered off %d, "
          "\\_S5_ on %d, %d disagree with 86Box's flags" % (
              c["machines"], c["reached"], c["apm"], c["off"], c["s5"], c["disagree"]))
    if median is not None and hours is not None:
        print("apmoff-sweep: median %.0f s a machine; the %d machines of the 386 and later "
              "would take about %.1f h two at a time" % (median, len(candidates), hours))
    elif median is not None:
        print("apmoff-sweep: median %.0f s a machine, of %d: too few to tell how long the "
              "%d machines of the 386 and later would take (%d at least)" % (
                  median, c["machines"], len(candidates), report.PROJECTION_MIN))
    print("apmoff-sweep: wrote %s" % md)
    if args.docs:
        try:
            with open(args.docs) as f:
                page = f.read()
            with open(args.docs, "w") as f:
                f.write(report.replace_block(page, text))
            print("apmoff-sweep: wrote the sweep-table block of %s" % args.docs)
        except (OSError, ValueError) as e:
            print("apmoff-sweep: %s: %s" % (args.docs, e), file=sys.stderr)
            status = EXIT_FAILED
    return status


def collect(out, results):
    """Every log with a report into OUT/apmoff.db, then OUT/html/ and OUT/reports.csv,
    by apmoff-collect itself."""
    tool = os.path.join(ROOT, "tools", "apmoff-collect")
    db = os.path.join(out, "apmoff.db")
    logs = [os.path.join(out, r.com1_log) for r in results
            if r.survey and r.com1_log and os.path.exists(os.path.join(out, r.com1_log))]
    steps = ([[tool, "--db", db, "add"] + logs] if logs else []) + [
        [tool, "--db", db, "report", os.path.join(out, "html")],
        [tool, "--db", db, "csv", "-o", os.path.join(out, "reports.csv")]]
    for cmd in steps:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=600)
        text = proc.stdout.decode(errors="replace").strip().splitlines()
        print("apmoff-collect %s: %s" % (cmd[3], text[-1] if text else "done"))
        if proc.returncode:
            print("\n".join("    " + l for l in text[-10:]), file=sys.stderr)
            return EXIT_FAILED
    return EXIT_OK
