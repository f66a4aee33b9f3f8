"""`apmoff-collect csv`: every report as one row, its derived columns (derived.py)
beside the stored values and the JSON as it came."""

import csv

from .database import reports
from .derived import derived, method_of
from .text import csv_cell

CSV_FIELDS = ["report_id", "machine_id", "machine", "identity", "kind", "label",
              "bios_vendor", "bios_date", "bios_year", "rom_crc32", "apm_version", "flags",
              "offered", "chipset", "soft_off", "rm_connect", "pm32_connect",
              "pm16_connect", "outcome",
              "outcome_source", "via", "method", "check", "source", "source_kind",
              "imported_at", "apmoff_version", "apmoff_commit", "collector",
              "survey_json", "check_json"]


def csv_rows(conn):
    names = {m["id"]: (m["name"], m["identity"])
             for m in conn.execute("SELECT * FROM machines")}
    for r in reports(conn):
        d = derived(r["survey"], r["check"])
        yield {
            "report_id": r["id"], "machine_id": r["machine_id"],
            "machine": names[r["machine_id"]][0], "identity": names[r["machine_id"]][1],
            "kind": r["kind"], "label": d["label"], "bios_vendor": d["vendor"],
            "bios_date": d["bios_date"], "bios_year": d["bios_year"],
            "rom_crc32": d["rom_crc32"], "apm_version": d["apm_version"],
            "flags": d["apm_flags"], "offered": d["offered"],
            "chipset": d["chipset"], "soft_off": d["soft_off"],
            "rm_connect": d["rm"], "pm32_connect": d["pm32"], "pm16_connect": d["pm16"],
            "outcome": r["outcome"], "outcome_source": r["outcome_source"], "via": r["via"],
            "method": method_of(r["via"]) if r["via"] else "",
            "check": d["check"], "source": r["source"],
            "source_kind": r["source_kind"], "imported_at": r["imported_at"],
            "apmoff_version": d["apmoff_version"], "apmoff_commit": d["apmoff_commit"],
            "collector": r["collector"],
            "survey_json": r["survey_json"] or "", "check_json": r["check_json"] or "",
        }


def write_csv(conn, out):
    """Every report as a CSV row; each cell through text.csv_cell(), which makes a
    stranger's string inert in a spreadsheet and on a terminal."""
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    n = 0
    for row in csv_rows(conn):
        w.writerow({key: csv_cell(value) for key, value in row.items()})
        n += 1
    return n
