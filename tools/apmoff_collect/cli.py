"""apmoff-collect: every apmoff report into one SQLite database, one HTML report."""

import argparse
import os
import sqlite3
import sys

from . import inputs, report, store, version
from .inputs import shown
from .limits import DEFAULT as DEFAULT_LIMITS

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

The database is --db (before or after the command), or $APMOFF_DB, or ./apmoff.db.
`apmoff-collect add --help` says how the power-off outcome is decided and what limits
guard the reading of strangers' files.

Exit status: 0 done; 1 some input was refused (files skipped, each named on stderr
with nothing of it in the database; or no such report); 2 the database: none, not
apmoff's, made by a newer apmoff-collect, corrupt, read-only or locked (nothing was
written), or the command line is wrong."""

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


def db_option(parser, default):
    parser.add_argument("--db", default=default, metavar="FILE",
                        help="the SQLite database (default $APMOFF_DB or ./apmoff.db)"
                        if default is not argparse.SUPPRESS else argparse.SUPPRESS)


class VersionAction(argparse.Action):
    """--version: the commit is asked of git only when the version is asked for."""

    def __init__(self, option_strings, dest, **kw):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="apmoff's version and commit, and the database schema")

    def __call__(self, parser, namespace, values, option_string=None):
        print("%s (commit %s, database schema %d)" % (version.name(), version.commit(),
                                                      store.SCHEMA_VERSION))
        parser.exit()


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="apmoff-collect", description=DESCRIPTION,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    db_option(ap, DEFAULT_DB)
    ap.add_argument("--version", action=VersionAction)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def command(name, **kw):
        p = sub.add_parser(name, **kw)
        db_option(p, argparse.SUPPRESS)       # --db after the command too
        return p

    add = command("add", help="import reports from files",
                  description="Import reports.\n\n" + OUTCOME_HELP,
                  formatter_class=argparse.RawDescriptionHelpFormatter)
    add.add_argument("files", nargs="+", metavar="FILE",
                     help="serial log, JSON file, or PNG/JPEG/PPM/GIF/BMP picture of "
                          "the QR code")
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
    c = command("csv", help="write every report as CSV")
    c.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    ls = command("list", help="the machines, their ids and report counts")
    ls.add_argument("-r", "--reports", action="store_true",
                    help="each machine's reports too, with their ids")
    rm = command("remove", help="delete reports (ids from `list -r`)")
    rm.add_argument("ids", nargs="+", type=int, metavar="ID")
    so = command("set-outcome", help="correct a report's power-off outcome")
    so.add_argument("id", type=int, metavar="ID")
    so.add_argument("outcome", choices=inputs.OUTCOMES + (inputs.UNKNOWN,))
    args = ap.parse_args(argv)
    if args.command == "add":
        limits = DEFAULT_LIMITS
        try:
            for spec in args.limit:
                limits = limits.raised(spec)
        except ValueError as e:
            add.error(str(e))
        args.limits = limits
    return args


def say(text):
    """A line on stdout that a closed pipe (`add ... | head`) does not stop: the
    import matters more than its progress lines."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        quiet_stdout()


def quiet_stdout():
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def ask_outcome(obs, name):
    """Asks the person at the terminal; "" keeps it unknown."""
    while True:
        try:
            answer = input("%s: %s, last line %r.\n  Did the machine power off? "
                           "[off/failed/hung/Enter = unknown] "
                           % (shown(obs.source), name,
                              obs.outcome_detail or "powering off")).strip()
        except EOFError:
            return ""
        if answer in inputs.OUTCOMES or answer == "":
            return answer
        print("  answer off, failed, hung, or press Enter", file=sys.stderr)


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
            answer = ask_outcome(obs, store.machine_name(survey) if survey
                                 else "check run")
        if answer:
            obs.outcome, obs.outcome_source = answer, "person"


class DatabaseProblem(Exception):
    """The database cannot take any file: the whole `add` stops (exit 2)."""


def import_one(conn, observations, args):
    """One file's reports, in one transaction: (added, already there). Errors of
    the database itself (read-only, corrupt, locked) are DatabaseProblem; anything
    else refuses only this file."""
    settle_outcomes(observations, args)
    try:
        return store.add_observations(conn, observations, args.machine)
    except sqlite3.IntegrityError:
        raise
    except sqlite3.Error as e:
        raise DatabaseProblem("%s: %s" % (args.db, e))


def why(e):
    """A refusal's reason; an unexpected exception is named by its type."""
    if isinstance(e, (inputs.BadInput, ValueError)) and str(e):
        return str(e)
    if isinstance(e, MemoryError):
        return "out of memory reading it (MemoryError)"
    return "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__


def cmd_add(conn, args):
    try:
        store.check_database(conn, write=True)
    except sqlite3.Error as e:
        raise DatabaseProblem("%s: %s" % (args.db, e))
    pages = {}
    skipped = []
    total_added = total_dup = 0
    n_total = len(args.files)

    def done(n, name, observations, added, dup):
        kinds = ", ".join(sorted({"%s %s" % (o.kind, store.outcome_words(o.outcome))
                                  for o in observations}))
        say("[%d/%d] %s: %d added, %d already there (%s)"
            % (n, n_total, name, added, dup, kinds))
        for obs in observations:
            for note in obs.notes:
                say("    note: " + shown(note))

    for n, path in enumerate(args.files, 1):
        name = shown(path)
        try:
            observations = inputs.read_file(path, pages, args.limits)
            if not observations:
                say("[%d/%d] %s: pages of a QR payload, joined at the end" % (n, n_total,
                                                                             name))
                continue
            added, dup = import_one(conn, observations, args)
        except DatabaseProblem:
            raise
        except Exception as e:     # MemoryError, RecursionError too: one file, not the batch
            skipped.append((name, why(e)))
            continue
        total_added += added
        total_dup += dup
        done(n, name, observations, added, dup)
    joined, problems = inputs.join_pages(pages, args.limits)
    skipped += problems
    for obs in joined:
        try:
            added, dup = import_one(conn, [obs], args)
        except DatabaseProblem:
            raise
        except Exception as e:
            skipped.append((obs.source, why(e)))
            continue
        total_added += added
        total_dup += dup
        done(n_total, "paged QR pictures " + obs.source, [obs], added, dup)
    for name, reason in skipped:
        print("skipped %s: %s" % (name, shown(reason)), file=sys.stderr)
    say("%d reports added, %d already there, %d files skipped"
        % (total_added, total_dup, len(skipped)))
    return EXIT_SKIPPED if skipped else EXIT_OK


def cmd_report(conn, args):
    written = report.write(conn, args.db, args.dir)
    print("wrote %s and %d machine pages" % (written[0], len(written) - 1))
    return EXIT_OK


def cmd_csv(conn, args):
    if args.output:
        with open(args.output, "w", newline="", encoding="utf-8") as f:
            n = store.write_csv(conn, f)
        print("wrote %d reports to %s" % (n, args.output), file=sys.stderr)
    else:
        store.write_csv(conn, sys.stdout)
    return EXIT_OK


def cmd_list(conn, args):
    for m in store.machines(conn):
        print("%4d  %-40s %2d report(s)  %s" % (m["id"], shown(m["name"])[:40],
                                                len(m["reports"]), m["columns"]["outcome"]))
        if args.reports:
            for r in m["reports"]:
                outcome = store.outcome_words(r["outcome"])
                print("        #%-4d %-6s %-22s %s" % (
                    r["id"], r["kind"],
                    outcome + (" via " + r["via"] if r["via"] else "") +
                    (" (%s)" % r["outcome_source"] if r["outcome_source"] else ""),
                    shown(r["source"])))
    return EXIT_OK


def cmd_remove(conn, args):
    try:
        removed = store.remove_reports(conn, args.ids)
    except store.NoSuchReport as e:
        print("apmoff-collect: %s; nothing removed" % e, file=sys.stderr)
        return EXIT_SKIPPED
    for report_id, machine in removed:
        print("removed report %d (%s)" % (report_id, shown(machine)))
    return EXIT_OK


def cmd_set_outcome(conn, args):
    try:
        old, source = store.set_outcome(conn, args.id, args.outcome)
    except ValueError as e:
        print("apmoff-collect: %s" % e, file=sys.stderr)
        return EXIT_SKIPPED
    print("report %d: %s (%s), now %s (person)" % (args.id, store.outcome_words(old),
                                                   source or "no source", args.outcome))
    return EXIT_OK


COMMANDS = {"add": cmd_add, "report": cmd_report, "csv": cmd_csv, "list": cmd_list,
            "remove": cmd_remove, "set-outcome": cmd_set_outcome}


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.command != "add" and not os.path.exists(args.db):
        print("apmoff-collect: no database %s (import reports with `add` first)"
              % shown(args.db), file=sys.stderr)
        return EXIT_DATABASE
    try:
        conn = store.connect(args.db)
    except sqlite3.Error as e:
        print("apmoff-collect: cannot open %s: %s" % (shown(args.db), e), file=sys.stderr)
        return EXIT_DATABASE
    try:
        return COMMANDS[args.command](conn, args)
    except BrokenPipeError:            # `csv | head`: the reader has what it wanted
        quiet_stdout()
        return EXIT_OK
    except DatabaseProblem as e:
        print("apmoff-collect: %s (nothing more imported)" % e, file=sys.stderr)
        return EXIT_DATABASE
    except (OSError, sqlite3.Error) as e:
        print("apmoff-collect: %s" % e, file=sys.stderr)
        return EXIT_DATABASE
    finally:
        conn.close()
