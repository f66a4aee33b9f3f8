"""apmoff-collect: every apmoff report into one SQLite database, one HTML report."""

import argparse
import json
import os
import sqlite3
import sys

from . import (csvfile, database, derived, dumppub, dumps, inputs, output, report,
               version)
from .limits import DEFAULT as DEFAULT_LIMITS
from .text import shown, stored_name

DEFAULT_DB = os.environ.get("APMOFF_DB", "apmoff.db")

# Exit statuses (docs/collect.md, "Exit status").
EXIT_OK, EXIT_SKIPPED, EXIT_DATABASE = 0, 1, 2

DESCRIPTION = """\
Collects apmoff reports (serial logs, JSON files, photos or screenshots of the survey's
QR code) into one SQLite database, and writes a static HTML report or CSV from it.

  apmoff-collect add FILE...      import reports (idempotent: the same report twice is
                                  one row); a file that cannot be read whole is named
                                  and skipped, nothing of it is imported, and the other
                                  files go in
  apmoff-collect report DIR       DIR/index.html (the compatibility table, charts) and a
                                  page per machine
  apmoff-collect csv [-o FILE]    one row per report
  apmoff-collect list [-r]        the machines and their ids (-r: and their reports)
  apmoff-collect remove ID...     delete reports (ids from `list -r`)
  apmoff-collect set-outcome ID off|failed|hung|unknown
                                  correct a report's power-off outcome
  apmoff-collect dump -o DIR LOG...
                                  action=dump's blocks into files: rom-F0000.bin and the
                                  rest by address, acpidump.txt, MANIFEST.txt with the
                                  sums; a block with a lost or damaged line is named,
                                  not written (docs/dump.md)

The database is --db (before or after the command), or $APMOFF_DB, or ./apmoff.db.
`apmoff-collect add --help` says how the power-off outcome is decided and what limits
guard the reading of strangers' files.

Every file is written whole under a new name beside its own, then renamed over it.
Whatever a report holds, what reaches the terminal has its control characters
escaped (\\x1b), and a CSV cell that a spreadsheet would run as a formula starts
with a single quote.

Exit status: 0 done; 1 some input was refused (files skipped, each named on stderr
with nothing of it in the database; or no such report), or `add` imported some files
and then found the database locked past --wait (each file not imported named); 2 the
database: none, not apmoff's, made by a newer apmoff-collect, corrupt, read-only or
locked (nothing was written), or the command line is wrong."""

OUTCOME_HELP = """\
The power-off outcome. The kernel cannot report a power-off that worked, so:
  - a run that asked for no power-off (action=survey, check, standby, suspend) has
    none ("not tried");
  - after the run's last "powering off via X" line, in this order: a line
    "apmoff-outcome: off|failed|hung" added by whoever captured the log; an
    emulator's sign of a power-off (QEMU's QMP event SHUTDOWN reason guest-shutdown,
    the -trace line "qemu_system_shutdown_request reason=6", `make run`'s line "make
    run: QEMU reported SHUTDOWN, reason guest-shutdown", Bochs' "Shutdown port:
    shutdown requested" or "ACPI control: soft power off"): off; "apmoff: halted:
    ...": failed; an emulator's guest reset or panic (reason=7, 8): failed; `make
    run`'s "no power-off within N s": hung;
  - a log whose last apmoff line is "powering off via X" (and a JSON file or QR picture
    of a survey,off or off run): only someone who saw the machine can tell off from
    hung: --outcome, or a prompt when stdin is a terminal, else "unknown".
--outcome never overrides what the log shows. The same log added again with
--outcome fills in its unknown outcome (it is the same report).

Limits (a file past one is skipped, naming it; --limit NAME=VALUE raises it):
  """ + DEFAULT_LIMITS.describe().replace(", ", "\n  ")


def db_option(parser, default, wait_default):
    parser.add_argument("--db", default=default, metavar="FILE",
                        help="the SQLite database (default $APMOFF_DB or ./apmoff.db)"
                        if default is not argparse.SUPPRESS else argparse.SUPPRESS)
    parser.add_argument("--wait", type=seconds, default=wait_default, metavar="SECONDS",
                        help="how long a write waits for another program writing to "
                             "the database (default %d)" % database.BUSY_SECONDS
                        if wait_default is not argparse.SUPPRESS else argparse.SUPPRESS)


def seconds(text):
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose messages quote the command line (a file name that
    looks like an option, from a stranger's archive) with control characters
    escaped, as every line this program prints."""

    def _print_message(self, message, file=None):
        super()._print_message(message and "\n".join(map(shown, message.split("\n"))),
                               file)


class VersionAction(argparse.Action):
    """--version: the commit is asked of git only when the version is asked for."""

    def __init__(self, option_strings, dest, **kw):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="apmoff's version and commit, and the database schema")

    def __call__(self, parser, namespace, values, option_string=None):
        print("%s (commit %s, database schema %d)" % (version.name(), version.commit(),
                                                      database.SCHEMA_VERSION))
        parser.exit()


def parse_args(argv):
    ap = Parser(prog="apmoff-collect", description=DESCRIPTION,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    db_option(ap, DEFAULT_DB, database.BUSY_SECONDS)
    ap.add_argument("--version", action=VersionAction)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def command(name, **kw):
        p = sub.add_parser(name, **kw)
        db_option(p, argparse.SUPPRESS, argparse.SUPPRESS)   # --db after the command too
        return p

    add = command("add", help="import reports from files",
                  description="Import reports.\n\n" + OUTCOME_HELP,
                  formatter_class=argparse.RawDescriptionHelpFormatter)
    add.add_argument("files", nargs="+", metavar="FILE",
                     help="serial log, JSON file, PNG/JPEG/PPM/GIF/BMP picture of the "
                          "QR code, or the text a phone's QR scanner gives (a file of "
                          "it, '-' for standard input, or the text itself as the "
                          "argument: 'APMOFF3:...', a page 'APMOFF1 1/2 ...')")
    add.add_argument("--outcome", choices=inputs.OUTCOMES,
                     help="what the machine did after 'powering off via', when the file "
                          "cannot say")
    add.add_argument("--no-prompt", action="store_true",
                     help="never ask for the outcome; leave it unknown")
    add.add_argument("--machine", type=int, metavar="ID",
                     help="the machine (see `list`) for check reports without a survey")
    add.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                     help="raise a limit (e.g. file_bytes=64M; see above)")

    rep = command("report", help="write the HTML report")
    rep.add_argument("dir", metavar="DIR")
    rep.add_argument("--with-dumps", nargs="+", default=[], metavar="DUMPDIR",
                     help="publish these `apmoff-collect dump` directories on their "
                     "machines' pages, serial numbers, UUIDs and asset tags removed "
                     "(without it the report carries no dump)")
    rep.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                     help="raise a limit for the dump directories (file_bytes, "
                     "dump_files)")
    c = command("csv", help="write every report as CSV")
    c.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    ls = command("list", help="the machines, their ids and report counts")
    ls.add_argument("-r", "--reports", action="store_true",
                    help="each machine's reports too, with their ids")
    rm = command("remove", help="delete reports (ids from `list -r`)")
    rm.add_argument("ids", nargs="+", type=int, metavar="ID")
    dp = command("dump", help="turn action=dump's blocks in serial logs into files")
    dp.add_argument("logs", nargs="+", metavar="LOG", help="serial logs of action=dump")
    dp.add_argument("-o", "--output", required=True, metavar="DIR",
                    help="where rom-F0000.bin, acpidump.txt and MANIFEST.txt go")
    so = command("set-outcome", help="correct a report's power-off outcome")
    so.add_argument("id", type=int, metavar="ID")
    so.add_argument("outcome", choices=inputs.OUTCOMES + (inputs.UNKNOWN,))
    dp.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                    help="raise a limit, as add's (file_bytes, line_chars, read_seconds)")
    args = ap.parse_args(argv)
    if args.command in ("add", "dump", "report"):
        limits = DEFAULT_LIMITS
        try:
            for spec in args.limit:
                limits = limits.raised(spec)
        except ValueError as e:
            {"add": add, "dump": dp, "report": rep}[args.command].error(str(e))
        args.limits = limits
    return args


def say(text):
    """A line on stdout that a closed pipe (`add ... | head`) does not stop: the
    import matters more than its progress lines. Its control characters escaped, as
    every line this program prints (text.shown)."""
    try:
        print(shown(text), flush=True)
    except BrokenPipeError:
        quiet_stdout()


def tell(text):
    """A line on stdout for the commands that only read (`list`, `remove`...); a
    closed pipe ends them (main)."""
    print(shown(text))


def warn(text):
    """A line on stderr: a refusal, an error, a note."""
    print(shown(text), file=sys.stderr, flush=True)


def quiet_stdout():
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def ask_outcome(obs, name):
    """Asks the person at the terminal; "" keeps it unknown. The question quotes the
    report (its machine's name, its last line): each part escaped on its own."""
    question = "%s: %s, last line %s.\n  Did the machine power off? " \
        "[off/failed/hung/Enter = unknown] " % (
            shown(obs.source), shown(name), shown(repr(obs.outcome_detail or
                                                       "powering off")))
    while True:
        try:
            answer = input(question).strip()
        except EOFError:
            return ""
        if answer in inputs.OUTCOMES or answer == "":
            return answer
        warn("  answer off, failed, hung, or press Enter")


def settle_outcomes(observations, args):
    interactive = not args.no_prompt and sys.stdin.isatty()
    for obs in observations:
        if not obs.undecided():
            if args.outcome and obs.outcome not in (args.outcome, inputs.NOT_TRIED):
                obs.notes.append("--outcome %s ignored: the log shows %s"
                                 % (args.outcome, obs.outcome))
            continue
        answer = args.outcome
        if not answer and interactive:
            survey = obs.loaded().survey
            answer = ask_outcome(obs, derived.machine_name(survey) if survey
                                 else "check run")
        if answer:
            obs.outcome, obs.outcome_source = answer, "person"


class DatabaseProblem(Exception):
    """The database cannot take any file: the whole `add` stops (exit 2 when nothing
    was written yet; else the files not imported are named, exit 1)."""


def import_one(conn, observations, args):
    """One file's reports, in one transaction: (added, already there). Errors of
    the database itself (read-only, corrupt, locked) are DatabaseProblem; anything
    else refuses only this file."""
    settle_outcomes(observations, args)
    try:
        return database.add_observations(conn, observations, args.machine)
    except sqlite3.IntegrityError:
        raise
    except sqlite3.Error as e:
        raise DatabaseProblem(database_problem(args, e))


def database_problem(args, e):
    """What went wrong with the database, in words: a lock held past --wait says
    whose it is and what to do."""
    if database.busy(e):
        return ("%s: locked by another program for %d s (another apmoff-collect "
                "importing?); --wait SECONDS waits longer" % (args.db, args.wait))
    return "%s: %s" % (args.db, e)


def why(e):
    """A refusal's reason; an unexpected exception is named by its type."""
    if isinstance(e, (inputs.BadInput, ValueError)) and str(e):
        return str(e)
    if isinstance(e, MemoryError):
        return "out of memory reading it (MemoryError)"
    return "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__


def without_name(reason, path):
    """A file's refusal without the file's own name in front (the messages of a log's
    reports start with it, and "skipped NAME:" says it already)."""
    base = shown(os.path.basename(stored_name(path)))
    for lead in (base + ", ", base + ": "):
        if reason.startswith(lead):
            return reason[len(lead):]
    return reason


def cmd_add(conn, args):
    try:
        database.check_database(conn, write=True)
    except sqlite3.Error as e:
        raise DatabaseProblem(database_problem(args, e))
    batch = Batch(args)
    for n, path in enumerate(args.files, 1):
        try:
            batch.add_file(conn, n, path)
        except DatabaseProblem as e:
            if not batch.written:
                raise                   # exit 2: nothing of this add is in the database
            batch.not_imported([inputs.argument_name(a, i) for i, a in
                                enumerate(args.files[n - 1:], n)] + batch.paged_files(),
                               str(e))
            break
    else:
        batch.add_joined_pages(conn)
    for name, reason in batch.skipped:
        warn("skipped %s: %s" % (name, reason))
    say("%d reports added, %d already there, %d files skipped"
        % (batch.added, batch.dup, len(batch.skipped)))
    return EXIT_SKIPPED if batch.skipped else EXIT_OK


class Batch:
    """One `add`: its files, each imported whole or skipped (named, with nothing of
    it in the database or in the pages waiting to be joined), and its totals."""

    def __init__(self, args):
        self.args = args
        self.pages = {}                 # QR pages of the files imported so far
        self.skipped = []               # (name, reason)
        self.added = self.dup = 0
        self.written = False            # a file's transaction is committed

    def add_file(self, conn, n, path):
        """One file, all or nothing; DatabaseProblem stops the batch."""
        name, notes, pages = shown(inputs.argument_name(path, n)), [], {}
        try:
            observations = inputs.read_argument(path, n, pages, self.args.limits, notes)
            merged = inputs.with_pages(self.pages, pages, self.args.limits, name)
            if observations:
                added, dup = import_one(conn, observations, self.args)
                self.written = True
        except DatabaseProblem:
            raise
        except Exception as e:    # MemoryError, RecursionError too: one file, not the batch
            self.skipped.append((name, without_name(why(e), path)))
            return
        self.pages = merged             # the file is in: its pages join the batch's
        if not observations:
            say("[%d/%d] %s: pages of a QR payload, joined at the end" % (
                n, len(self.args.files), name))
        else:
            self.done(n, name, observations, added, dup)
        for note in notes:
            say("    note: " + note)

    def add_joined_pages(self, conn):
        """The payloads whose pages came in several pictures or texts, once all are
        read."""
        joined, problems = inputs.join_pages(self.pages, self.args.limits)
        self.skipped += problems
        for i, obs in enumerate(joined):
            try:
                added, dup = import_one(conn, [obs], self.args)
            except DatabaseProblem as e:
                if not self.written:
                    raise
                self.not_imported([o.source for o in joined[i:]], str(e))
                return
            except Exception as e:
                self.skipped.append((obs.source, why(e)))
                continue
            self.written = True
            what = "paged QR pictures " if obs.source_kind == "image" else "paged QR text "
            self.done(len(self.args.files), what + obs.source, [obs], added, dup)

    def paged_files(self):
        """The files whose pages wait to be joined at the end."""
        return sorted({path for got in self.pages.values() for _, path, _ in got.values()})

    def not_imported(self, names, reason):
        """Files the database stopped taking, after others went in: each named."""
        self.skipped += [(shown(name), "not imported: " + reason) for name in names]

    def done(self, n, name, observations, added, dup):
        self.added += added
        self.dup += dup
        kinds = ", ".join(sorted({"%s %s" % (o.kind, derived.outcome_words(o.outcome))
                                  for o in observations}))
        say("[%d/%d] %s: %d added, %d already there (%s)"
            % (n, len(self.args.files), name, added, dup, kinds))
        for obs in observations:
            for note in obs.notes:
                say("    note: " + note)


def cmd_report(conn, args):
    """The HTML report; with --with-dumps, each dump directory on the page of the
    machine whose identity its survey.json has (dumppub.py), or named and left out."""
    published, skipped = {}, []
    identities = {m["identity"]: m["id"] for m in database.machines(conn)}
    for path in args.with_dumps:
        try:
            d = dumppub.read(path, args.limits)
        except (dumppub.DumpDirError, OSError) as e:
            skipped.append((shown(path), getattr(e, "strerror", None) or str(e)))
            continue
        machine = identities.get(derived.machine_identity(d.survey))
        if machine is None:
            skipped.append((shown(path), "no machine in the database has its survey's "
                            "identity: add the dump's log first"))
            continue
        published.setdefault(machine, []).append(d)
    pages, files = report.write(conn, args.db, args.dir, published)
    for name, reason in skipped:
        warn("skipped %s: %s" % (name, reason))
    n = sum(map(len, published.values()))
    tell("wrote %s and %d machine pages%s" % (
        pages[0], len(pages) - 1, ", %d dump%s published (%d files)" % (
            n, "" if n == 1 else "s", len(files)) if args.with_dumps else ""))
    return EXIT_SKIPPED if skipped else EXIT_OK


def cmd_csv(conn, args):
    if args.output:
        with output.replacing(args.output, newline="") as f:
            n = csvfile.write_csv(conn, f)
        warn("wrote %d reports to %s" % (n, args.output))
    else:
        csvfile.write_csv(conn, sys.stdout)
    return EXIT_OK


def cmd_list(conn, args):
    for m in database.machines(conn):
        tell("%4d  %-40s %2d report(s)  %s" % (m["id"], shown(m["name"])[:40],
                                               len(m["reports"]),
                                               shown(m["columns"]["outcome"])))
        if args.reports:
            for r in m["reports"]:
                outcome = derived.outcome_words(r["outcome"])
                tell("        #%-4d %-6s %-22s %s" % (
                    r["id"], shown(r["kind"]),
                    shown(outcome + (" via " + r["via"] if r["via"] else "") +
                          (" (%s)" % r["outcome_source"] if r["outcome_source"] else "")),
                    shown(r["source"])))
    return EXIT_OK


def cmd_remove(conn, args):
    try:
        removed = database.remove_reports(conn, args.ids)
    except database.NoSuchReport as e:
        warn("apmoff-collect: %s; nothing removed" % e)
        return EXIT_SKIPPED
    for report_id, machine in removed:
        tell("removed report %d (%s)" % (report_id, machine))
    return EXIT_OK


def cmd_set_outcome(conn, args):
    try:
        old, source = database.set_outcome(conn, args.id, args.outcome)
    except ValueError as e:
        warn("apmoff-collect: %s" % e)
        return EXIT_SKIPPED
    tell("report %d: %s (%s), now %s (person)" % (args.id, derived.outcome_words(old),
                                                  source or "no source", args.outcome))
    return EXIT_OK


def cmd_dump(args):
    """The blocks of every log, each taken only whole (tools/apmoff_collect/dumps.py);
    no database is read or written. Each log is read as `add` reads one, held to the
    same limits (file_bytes, read_seconds, line_chars: inputs.read_bounded and
    kept_lines), in any of the encodings a terminal program saves (as_utf8); a log
    that cannot be read whole is named and skipped and the others still go in."""
    found, entry_points, skipped, surveys = [], [], [], []
    for n, path in enumerate(args.logs, 1):
        name = shown(inputs.argument_name(path, n))
        try:
            raw = inputs.as_utf8(inputs.read_bounded(path, args.limits))
            lines = [text for _, text in inputs.kept_lines(raw, args.limits, name)]
        except Exception as e:      # MemoryError too: one log, not the batch
            skipped.append((name, without_name(why(e), path)))
            continue
        found += dumps.blocks(lines)
        entry_points += [e for e in dumps.entries(lines) if e not in entry_points]
        surveys += [(name, s) for s in dump_surveys(lines, args.limits, name)]
    try:
        written, refused = dumps.write(found, args.output, entry_points)
        whose = write_dump_survey(surveys, args.output)
    except OSError as e:
        warn("apmoff-collect: %s: %s" % (shown(args.output), e.strerror or e))
        return EXIT_DATABASE
    if whose:
        warn(whose)
    for name, reason in skipped:
        warn("skipped %s: %s" % (name, reason))
    for block in found:
        if not block.good:
            warn("%s at %08Xh (%s): not written: %s" % (block.kind, block.addr,
                                                        shown(block.what),
                                                        "; ".join(block.problems)))
    tell("%d block%s written to %s, %d refused (MANIFEST.txt names each), %d log%s "
         "skipped" % (written, "" if written == 1 else "s", shown(args.output), refused,
                      len(skipped), "" if len(skipped) == 1 else "s"))
    return EXIT_SKIPPED if refused or skipped or not found else EXIT_OK


def dump_surveys(lines, limits, name):
    """The survey JSON of each run in a dump's log: whose dump it is."""
    out = []
    for line in lines:
        if line.startswith(inputs.SURVEY):
            try:
                report = inputs.parse_json(line[len(inputs.SURVEY):], limits, name)
            except inputs.BadInput:
                continue
            if isinstance(report, dict):
                out.append(report)
    return out


def write_dump_survey(surveys, outdir):
    """survey.json beside the files, when every run the logs hold is one machine's
    (report --with-dumps finds the machine by it); else the reason there is none."""
    if not surveys:
        return "no survey line in the logs: no survey.json (report --with-dumps needs one)"
    identities = {derived.machine_identity(s) for _, s in surveys}
    if len(identities) > 1:
        return ("the logs hold %d machines' surveys (%s): no survey.json; dump each "
                "machine's logs into a directory of its own" % (
                    len(identities), ", ".join(sorted({shown(n) for n, _ in surveys}))))
    with output.replacing(os.path.join(outdir, "survey.json")) as f:
        json.dump(surveys[-1][1], f, indent=1, sort_keys=True)
    return ""


COMMANDS = {"add": cmd_add, "report": cmd_report, "csv": cmd_csv, "list": cmd_list,
            "remove": cmd_remove, "set-outcome": cmd_set_outcome}


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "dump":
        return cmd_dump(args)
    if args.command != "add" and not os.path.exists(args.db):
        warn("apmoff-collect: no database %s (import reports with `add` first)" % args.db)
        return EXIT_DATABASE
    try:
        conn = database.connect(args.db, args.wait, waiting=lambda: warn(
            "waiting for %s: another program is writing to it (up to %d s, --wait)"
            % (args.db, args.wait)))
    except sqlite3.Error as e:
        warn("apmoff-collect: cannot open %s: %s" % (args.db, e))
        return EXIT_DATABASE
    try:
        return COMMANDS[args.command](conn, args)
    except BrokenPipeError:            # `csv | head`: the reader has what it wanted
        quiet_stdout()
        return EXIT_OK
    except DatabaseProblem as e:
        warn("apmoff-collect: %s (nothing imported)" % e)
        return EXIT_DATABASE
    except (OSError, sqlite3.Error) as e:
        warn("apmoff-collect: %s" % e)
        return EXIT_DATABASE
    finally:
        conn.close()
