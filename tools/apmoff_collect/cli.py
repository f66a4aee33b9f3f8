"""apmoff-collect: every apmoff report into one SQLite database, one HTML report."""

import argparse
import os
import sqlite3
import sys

from . import inputs, report, store

DEFAULT_DB = os.environ.get("APMOFF_DB", "apmoff.db")

DESCRIPTION = """\
Collects apmoff reports (serial logs, JSON files, photos or screenshots of the survey's
QR code) into one SQLite database, and writes a static HTML report or CSV from it.

  apmoff-collect add FILE...      import reports (idempotent: the same report twice is
                                  one row); a file that cannot be read whole is named
                                  and skipped, nothing of it is imported
  apmoff-collect report DIR       DIR/index.html (the compatibility table, charts) and a
                                  page per machine
  apmoff-collect csv [-o FILE]    one row per report
  apmoff-collect list             the machines and their ids

The database is --db, or $APMOFF_DB, or ./apmoff.db. `apmoff-collect add --help`
says how the power-off outcome is decided.

Exit status: 0 done; 1 some files were skipped (each is named on stderr, nothing of
it is in the database); 2 no database, or it cannot be opened or written."""

OUTCOME_HELP = """\
The power-off outcome. The kernel cannot report a power-off that worked, so:
  - a run that asked for no power-off (action=survey, check, standby, suspend) has
    none ("not tried");
  - a log in which an emulator or capture saw the machine go off says so: QEMU's QMP
    event SHUTDOWN with reason guest-shutdown, Bochs' "Shutdown port: shutdown
    requested" or "ACPI control: soft power off", or a line
    "apmoff-outcome: off|failed|hung" added by whoever captured it;
  - a log with "apmoff: halted: ..." after the last "powering off via X" line: failed;
  - a log whose last apmoff line is "powering off via X" (and a JSON file or QR picture
    of a survey,off or off run): only someone who saw the machine can tell off from
    hung: --outcome, or a prompt when stdin is a terminal, else "unknown".
--outcome never overrides what the log shows."""


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="apmoff-collect", description=DESCRIPTION,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default=DEFAULT_DB, help="the SQLite database (default %(default)s)")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    add = sub.add_parser("add", help="import reports from files",
                         description="Import reports.\n\n" + OUTCOME_HELP,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    add.add_argument("files", nargs="+", metavar="FILE",
                     help="serial log, JSON file, or PNG/JPEG/PPM picture of the QR code")
    add.add_argument("--outcome", choices=inputs.OUTCOMES,
                     help="what the machine did after 'powering off via', when the file "
                          "cannot say")
    add.add_argument("--no-prompt", action="store_true",
                     help="never ask for the outcome; leave it unknown")
    add.add_argument("--machine", type=int, metavar="ID",
                     help="the machine (see `list`) for check reports without a survey")

    rep = sub.add_parser("report", help="write the HTML report")
    rep.add_argument("dir", metavar="DIR")
    c = sub.add_parser("csv", help="write every report as CSV")
    c.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    sub.add_parser("list", help="the machines, their ids and report counts")
    return ap.parse_args(argv)


def ask_outcome(obs, name):
    """Asks the person at the terminal; "" keeps it unknown."""
    while True:
        try:
            answer = input("%s: %s, last line %r.\n  Did the machine power off? "
                           "[off/failed/hung/Enter = unknown] "
                           % (obs.source, name, obs.outcome_detail or "powering off")).strip()
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
            answer = ask_outcome(obs, store.machine_name(obs.survey) if obs.survey
                                 else "check run")
        if answer:
            obs.outcome, obs.outcome_source = answer, "person"


def cmd_add(conn, args):
    pages = {}
    per_file = []
    skipped = []
    for n, path in enumerate(args.files, 1):
        try:
            per_file.append((path, inputs.read_file(path, pages)))
        except inputs.BadInput as e:
            skipped.append((path, str(e)))
    joined, problems = inputs.join_pages(pages)
    skipped += problems
    if joined:
        per_file.append(("paged QR pictures", joined))
    total_added = total_dup = 0
    for n, (path, observations) in enumerate(per_file, 1):
        if not observations:
            continue
        settle_outcomes(observations, args)
        try:
            added, dup = store.add_observations(conn, observations, args.machine)
        except (ValueError, sqlite3.Error) as e:
            skipped.append((path, str(e)))
            continue
        total_added += added
        total_dup += dup
        kinds = ", ".join(sorted({"%s %s" % (o.kind, o.outcome) for o in observations}))
        print("[%d/%d] %s: %d added, %d already there (%s)"
              % (n, len(per_file), path, added, dup, kinds), flush=True)
        for obs in observations:
            for note in obs.notes:
                print("    note: " + note)
    for path, why in skipped:
        print("skipped %s: %s" % (path, why), file=sys.stderr)
    print("%d reports added, %d already there, %d files skipped"
          % (total_added, total_dup, len(skipped)))
    return 1 if skipped else 0


def cmd_report(conn, args):
    written = report.write(conn, args.db, args.dir)
    print("wrote %s and %d machine pages" % (written[0], len(written) - 1))
    return 0


def cmd_csv(conn, args):
    if args.output:
        with open(args.output, "w", newline="", encoding="utf-8") as f:
            n = store.write_csv(conn, f)
        print("wrote %d reports to %s" % (n, args.output), file=sys.stderr)
    else:
        store.write_csv(conn, sys.stdout)
    return 0


def cmd_list(conn, args):
    for m in store.machines(conn):
        print("%4d  %-40s %2d report(s)  %s" % (m["id"], m["name"][:40], len(m["reports"]),
                                                m["columns"]["outcome"]))
    return 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.command != "add" and not os.path.exists(args.db):
        print("apmoff-collect: no database %s (import reports with `add` first)" % args.db,
              file=sys.stderr)
        return 2
    try:
        conn = store.connect(args.db)
    except sqlite3.Error as e:
        print("apmoff-collect: cannot open %s: %s" % (args.db, e), file=sys.stderr)
        return 2
    try:
        return {"add": cmd_add, "report": cmd_report, "csv": cmd_csv,
                "list": cmd_list}[args.command](conn, args)
    except (OSError, sqlite3.Error) as e:
        print("apmoff-collect: %s" % e, file=sys.stderr)
        return 2
    finally:
        conn.close()
