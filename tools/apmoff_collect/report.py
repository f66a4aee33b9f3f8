"""The static HTML report: index.html (the compatibility table and two charts) and a
page per machine. No network, no framework: the table is plain HTML, readable with
JavaScript off; a few lines of inline script sort it and filter it.

Every value that reaches the page, in text, an attribute, a data-* attribute, SVG
text or a title, goes through e(): the reports come from strangers."""

import hashlib
import html
import json
import os
import re

from . import database, derived, output, pciids
from .derived import number, obj, scalar

CSS = """
body { font: 13px/1.35 sans-serif; margin: 1em; color: #222; }
h1 { font-size: 1.4em; margin: 0 0 .3em; } h2 { font-size: 1.15em; margin: 1.2em 0 .4em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #bbb; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #e8e8e8; }
#compat td { white-space: nowrap; }
#compat td[data-col=machine], #compat td[data-col=outcome],
#compat td[data-col=check] { white-space: normal; min-width: 7em; max-width: 12em; }
#compat th { cursor: pointer; white-space: nowrap; }
#compat th.asc::after { content: " \\25B2"; } #compat th.desc::after { content: " \\25BC"; }
tr:nth-child(even) td { background: #f6f6f6; }
td.ok { color: #060; } td.bad { color: #a00; } td.off { color: #060; font-weight: bold; }
td.failed, td.hung { color: #a00; font-weight: bold; }
table.fields { width: 100%; } table.fields td { overflow-wrap: anywhere; }
.charts { display: flex; flex-wrap: wrap; gap: 2em; }
.note { color: #555; } pre { white-space: pre-wrap; word-break: break-all; font-size: 12px; }
input#filter { font-size: 14px; padding: 2px 4px; width: 24em; }
"""

SCRIPT = """
(function () {
  var table = document.getElementById('compat');
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  function key(row, i) {
    var c = row.cells[i]; var k = c.getAttribute('data-sort');
    return k !== null ? k : c.textContent.trim().toLowerCase();
  }
  Array.prototype.forEach.call(heads, function (th, i) {
    th.title = 'sort';
    th.addEventListener('click', function () {
      var asc = !th.classList.contains('asc');
      Array.prototype.forEach.call(heads, function (h) { h.classList.remove('asc', 'desc'); });
      th.classList.add(asc ? 'asc' : 'desc');
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a, i), y = key(b, i), nx = parseFloat(x), ny = parseFloat(y);
        var r = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : (x < y ? -1 : x > y ? 1 : 0);
        return asc ? r : -r;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  var filter = document.getElementById('filter');
  filter.hidden = false;
  document.getElementById('filter-label').hidden = false;
  function apply() {
    var words = filter.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    Array.prototype.forEach.call(body.rows, function (row) {
      var text = row.textContent.toLowerCase();
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      row.hidden = !ok; if (ok) shown++;
    });
    document.getElementById('shown').textContent = shown;
  }
  filter.addEventListener('input', apply);
  // A view can be linked: index.html#sort=vendor-desc&filter=award
  var args = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
    var i = kv.indexOf('='); if (i > 0) args[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
  });
  if (args.filter) { filter.value = args.filter; apply(); }
  if (args.sort) {
    var m = args.sort.match(/^(.*?)(-desc)?$/);
    Array.prototype.forEach.call(heads, function (th) {
      if (th.getAttribute('data-col') === m[1]) {
        th.click(); if (m[2]) th.click();
      }
    });
  }
})();
"""

PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac"]
OUTCOME_COLOURS = {"off": "#59a14f", "failed": "#e15759", "hung": "#f28e2b",
                   "unknown": "#bab0ac"}

# Characters HTML forbids or that a browser turns into something else: NUL and the
# other C0 and C1 controls but tab, newline and carriage return, and lone surrogates.
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def e(value):
    """The one escaping function: any value as text safe in element content and in
    a quoted attribute (", ', <, >, & escaped; forbidden characters shown as
    U+FFFD)."""
    return html.escape(FORBIDDEN.sub("\ufffd", scalar(value) if not isinstance(value, str)
                                     else value), quote=True)


def page(title, body, script=""):
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width\">"
            "<title>%s</title><style>%s</style></head><body>\n%s\n%s</body></html>\n"
            % (e(title), CSS, body, "<script>%s</script>\n" % script if script else ""))


def cell_class(key, value):
    if key in ("rm", "pm32", "pm16"):
        first = value.split(" (")[0]           # results_text(): the answers come first
        return "ok" if first == "ok" else ("bad" if first and first != "not tried" else "")
    if key == "outcome":
        first = value.split(" ")[0].rstrip(",")
        return first if first in ("off", "failed", "hung") else ""
    return ""


# --- charts ---------------------------------------------------------------------------

# Text widths for laying out the charts, as fractions of the font size: a generous
# average for a sans-serif face (bold wider), so a title is never clipped.
CHAR_WIDTH, BOLD_CHAR_WIDTH = 0.62, 0.68


def text_width(text, size, bold=False):
    return len(text) * size * (BOLD_CHAR_WIDTH if bold else CHAR_WIDTH)


def stacked_bars(title, categories, series, counts, colours, xlabel):
    """A vertical stacked bar chart as inline SVG. counts[(category, series)] = n.
    The width holds the plot, the legend and the title, whichever is wider."""
    left, bottom, top, height = 40, 40, 30, 260
    plot_w = 50 * max(len(categories), 1)
    legend_w = max([text_width(scalar(s), 12) for s in series] + [0]) + 16
    width = int(max(left + plot_w + 14 + legend_w, left + text_width(title, 14, True)) + 12)
    plot_h = height - bottom - top
    totals = [sum(counts.get((c, s), 0) for s in series) for c in categories]
    peak = max(totals + [1])
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" '
           'aria-label="%s">' % (width, height, e(title)),
           '<text class="title" x="%d" y="18" font-size="14" font-weight="bold">%s</text>'
           % (left, e(title))]
    for tick in sorted({0, peak, (peak + 1) // 2}):
        y = top + plot_h - plot_h * tick / peak
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                   '<text x="%d" y="%.1f" font-size="11" text-anchor="end">%d</text>'
                   % (left, left + 50 * len(categories), y, y, left - 4, y + 4, tick))
    for i, c in enumerate(categories):
        x = left + 8 + 50 * i
        y = top + plot_h
        for j, s in enumerate(series):
            n = counts.get((c, s), 0)
            if not n:
                continue
            h = plot_h * n / peak
            y -= h
            out.append('<rect x="%d" y="%.1f" width="32" height="%.1f" fill="%s">'
                       '<title>%s, %s: %d</title></rect>'
                       % (x, y, h, e(colour_of(colours, j, s)), e(c), e(s), n))
        out.append('<text x="%d" y="%d" font-size="11" text-anchor="middle">%s</text>'
                   % (x + 16, top + plot_h + 14, e(scalar(c)[:8])))
    out.append('<text x="%d" y="%d" font-size="11" text-anchor="middle">%s</text>'
               % (left + 25 * len(categories), height - 6, e(xlabel)))
    lx = left + 50 * len(categories) + 14
    for j, s in enumerate(series):
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>'
                   '<text x="%d" y="%d" font-size="12">%s</text>'
                   % (lx, top + 18 * j, e(colour_of(colours, j, s)), lx + 16,
                      top + 18 * j + 11, e(s)))
    out.append("</svg>")
    return "\n".join(out)


def colour_of(colours, j, s):
    return colours[j % len(colours)] if isinstance(colours, list) else colours.get(s, "#888")


def chart_version_by_year(machines):
    counts, years, versions = {}, set(), set()
    for m in machines:
        if not m["survey"]:
            continue
        year = derived.bios_year(m["survey"]) or "?"
        version = (scalar(derived.get(m["survey"], "apm.version"))
                   if derived.get(m["survey"], "apm.present") is True else "none") or "none"
        counts[(year, version)] = counts.get((year, version), 0) + 1
        years.add(year)
        versions.add(version)
    years = sorted(years, key=lambda y: (y == "?", y if y != "?" else 0))
    return stacked_bars("APM version by BIOS year (machines)", years, sorted(versions),
                        counts, PALETTE, "BIOS year")


def chart_outcomes_by_vendor(machines):
    counts, vendors = {}, set()
    for m in machines:
        vendor = derived.bios_vendor(m["survey"]) if m["survey"] else "unknown"
        for r in m["reports"]:
            if r["outcome"] == "none":
                continue
            counts[(vendor, r["outcome"])] = counts.get((vendor, r["outcome"]), 0) + 1
            vendors.add(vendor)
    series = [o for o in ("off", "failed", "hung", "unknown")
              if any(k[1] == o for k in counts)]
    return stacked_bars("Power-off outcomes by BIOS vendor (reports)", sorted(vendors),
                        series, counts, OUTCOME_COLOURS, "BIOS vendor")


# --- pages ------------------------------------------------------------------------------

def machine_file(m):
    return "machine-%d.html" % m["id"]


def date_sort_key(survey):
    """yyyymmdd of the BIOS date, for sorting; "" when it is not a date."""
    parts = derived.date_parts(survey or {})
    return "%04d%02d%02d" % parts if parts else ""


def results_html(m, results):
    """An interface's answers over the machine's reports, each with links to the
    reports it came from (when there is more than one)."""
    if derived.single_source(results):
        return e(derived.results_text(results))
    return "; ".join("%s (%s)" % (e(result), ", ".join(
        '<a href="%s#report-%d">#%d</a>' % (e(machine_file(m)), i, i) for i in ids))
        for result, ids in results)


def index_page(machines, db_path):
    shown = [(k, h) for k, h, optional in derived.COLUMNS
             if not optional or any(m["columns"][k] for m in machines)]
    rows = []
    for m in machines:
        cells = []
        for k, _ in shown:
            value = m["columns"][k]
            if k == "machine":
                content = '<a href="%s">%s</a>' % (e(machine_file(m)), e(value))
            elif k in m.get("interfaces", {}):
                content = results_html(m, m["interfaces"][k])
            else:
                content = e(value)
            cls = cell_class(k, value)
            sort = ""
            if k == "bios_date":
                key = date_sort_key(m["survey"])
                if key:
                    sort = ' data-sort="%s"' % e(key)
            cells.append('<td data-col="%s"%s%s>%s</td>' % (
                e(k), ' class="%s"' % e(cls) if cls else "", sort, content))
        rows.append('<tr data-machine="%s">%s</tr>' % (e(m["id"]), "".join(cells)))
    n_reports = sum(len(m["reports"]) for m in machines)
    body = """<h1>apmoff: APM compatibility</h1>
<p class="note">%d machines, %d reports, from <code>%s</code>. Offered: the interfaces
the installation check offers; rm, pm32, pm16: what connecting to each answered; Check:
<code>action=check</code>. Click a heading to sort; a machine's name opens every report
of it.</p>
<p><label id="filter-label" for="filter" hidden>Filter: </label><input id="filter"
 type="search" placeholder="e.g. award 1.1 failed" hidden> <span class="note"><span
 id="shown">%d</span> shown</span></p>
<table id="compat"><thead><tr>%s</tr></thead>
<tbody>
%s
</tbody></table>
<h2>Charts</h2>
<div class="charts">%s
%s</div>
<p class="note">Power-off: what the log showed (a halted line after the power-off call
means failed), what an emulator saw, or what the person reported; "unknown" when the
log ends at "powering off" and nobody said; "not tried" for survey and check runs.</p>
""" % (len(machines), n_reports, e(os.path.basename(db_path)), len(machines),
       "".join('<th data-col="%s">%s</th>' % (e(k), e(h)) for k, h in shown), "\n".join(rows),
       chart_version_by_year(machines), chart_outcomes_by_vendor(machines))
    return page("apmoff compatibility", body, SCRIPT)


def flatten(obj, prefix=""):
    """(dotted path, value) for every leaf: new survey fields show up by themselves."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from flatten(v, prefix + k + ".")
    elif isinstance(obj, list) and obj and any(isinstance(x, (dict, list)) for x in obj):
        for i, v in enumerate(obj):
            yield from flatten(v, "%s%d." % (prefix, i))
    else:
        if isinstance(obj, list):
            obj = ", ".join(str(x) for x in obj)
        yield prefix[:-1], obj


def fields_table(obj):
    return "<table class=\"fields\">%s</table>" % "".join(
        "<tr><th>%s</th><td>%s</td></tr>" % (e(k), e(json.dumps(v) if not isinstance(v, str)
                                                    else v))
        for k, v in flatten(obj))


def hardware(survey):
    """The machine itself: the chipset's verdict, video, disks, memory as each BIOS
    interface reports it, and the PCI functions named from pci.ids. Every value is
    read as untrusted (derived.scalar, obj, number): older rows were never checked."""
    rows = []

    def row(head, value):
        if value not in (None, "", []):
            rows.append("<tr><th>%s</th><td>%s</td></tr>" % (e(head), e(value)))

    def kb(node, key):
        return "%s KiB" % scalar(node[key]) if key in node else ""

    chipset = obj(survey.get("chipset"))
    if chipset.get("soft_off"):
        row("chipset", "%s, soft-off %s" % (scalar(chipset.get("name")) or "not in the table",
                                            scalar(chipset["soft_off"])))
    row("soft-off", scalar(chipset.get("explain")))
    cpu = obj(survey.get("cpu"))
    if number(cpu.get("clock_khz")):
        row("CPU clock", "%.1f MHz (%s)" % (cpu["clock_khz"] / 1000.0,
                                             scalar(cpu.get("clock_method", ""))))
    row("FPU", scalar(cpu.get("fpu_kind")))
    video, vbe = obj(survey.get("video")), obj(obj(survey.get("video")).get("vbe"))
    if video:
        row("video", scalar(video.get("adapter", "")) + (", VBE %s, %s KiB, %s" % (
            scalar(vbe.get("version")), scalar(vbe.get("memory_kb")),
            scalar(vbe.get("oem"))) if vbe else ""))
    disks = obj(survey.get("disks"))
    if disks:
        row("floppy drives", "A: %s, B: %s" % (scalar(disks.get("floppy_a")),
                                              scalar(disks.get("floppy_b"))))
        hdd = [obj(h) for h in disks.get("hdd", [])] if isinstance(disks.get("hdd"),
                                                                     list) else []
        row("hard disks", "; ".join(
            "%s: %s/%s/%s%s" % (scalar(h.get("drive")), scalar(h.get("cylinders")),
                                scalar(h.get("heads")), scalar(h.get("sectors")),
                                ", %s sectors" % scalar(h["total_sectors"])
                                if h.get("total_sectors") else "")
            for h in hdd) or "none")
    memory = obj(survey.get("memory"))
    row("INT 12h", kb(memory, "int12_kb"))
    row("INT 15h AH=88h", kb(memory, "ext88_kb"))
    if "e801_1m_16m_kb" in memory:
        row("INT 15h E801h", "%s KiB + %s x 64 KiB" % (scalar(memory["e801_1m_16m_kb"]),
                                                      scalar(memory.get("e801_above_16m_64k"))))
    e820 = memory.get("e820")
    row("INT 15h E820h", ", ".join(map(scalar, e820)) if isinstance(e820, list) else "")
    listed = obj(survey.get("pci")).get("functions")
    functions = [f for f in (pciids.parse_function(t) for t in
                             (listed if isinstance(listed, list) else [])
                             if isinstance(t, str)) if f]
    out = "<h3>Hardware</h3><table>%s</table>" % "".join(rows)
    if functions:
        cells = []
        for f in functions:
            vendor, device = pciids.names(f["vendor"], f["device"])
            cells.append("<tr><td>%s</td><td>%s:%s</td><td>%s</td><td>%s</td><td>%s</td>"
                         "</tr>" % (e(f["address"]), e(f["vendor"]), e(f["device"]),
                                    e(vendor), e(device), e(f["class"])))
        out += ("<h3>PCI</h3><table class=\"pci\"><tr><th>address</th><th>ID</th>"
                "<th>vendor</th><th>device</th><th>class</th></tr>%s</table>"
                % "".join(cells))
    return out


def dumps_html(m, published):
    """The machine's published dumps: each file linked, its size and SHA-256 (of the
    bytes published), what it is (its manifest line), and what was removed."""
    parts = ["<h2 id=\"dumps\">Firmware dumps</h2>",
             "<p class=\"note\">From <code>action=dump</code> (docs/dump.md). Serial "
             "numbers, UUIDs and asset tags are removed from what is published here; "
             "the SHA-256 is of the published bytes.</p>"]
    for k, d in enumerate(published, 1):
        what, tables = {}, 0
        for line in d.manifest:
            fields = line.split("  ", 3)
            if len(fields) == 4:
                what[fields[2]] = fields[3]
                tables += fields[2] == "acpidump.txt"
        if tables:
            what["acpidump.txt"] = "%d ACPI tables in the format of ACPICA's acpidump" % tables
        rows = []
        for name in sorted(d.files):
            link = "%s/%s" % (dump_folder(m, k), name)
            removed = d.removed.get(name, [])
            rows.append("<tr><td><a href=\"%s\">%s</a></td><td>%d</td><td><code>%s</code>"
                        "</td><td>%s%s</td></tr>" % (
                            e(link), e(name), len(d.files[name]),
                            hashlib.sha256(d.files[name]).hexdigest(), e(what.get(name, "")),
                            " <em>(%d removed: %s)</em>" % (len(removed), e(", ".join(
                                sorted(set(removed))))) if removed else ""))
        entries = [l[len("entry: "):] for l in d.manifest if l.startswith("entry: ")]
        parts.append("<h3>Dump %d</h3><table><tr><th>file</th><th>bytes</th><th>SHA-256"
                     "</th><th>what</th></tr>%s</table>%s" % (
                         k, "".join(rows), "<ul>%s</ul>" % "".join(
                             "<li>%s</li>" % e(x) for x in entries) if entries else ""))
    return "\n".join(parts)


def dump_folder(m, k):
    return "dumps/machine-%d-%d" % (m["id"], k)


def machine_page(m, published=()):
    c = m["columns"]
    parts = ['<p><a href="index.html">&larr; all machines</a></p>',
             "<h1>%s</h1>" % e(m["name"]),
             "<p class=\"note\">identity: <code>%s</code></p>" % e(m["identity"]),
             "<table>%s</table>" % "".join(
                 "<tr><th>%s</th><td>%s</td></tr>" % (e(h), e(c[k]))
                 for k, h, optional in derived.COLUMNS if k != "machine" and
                 (not optional or c[k]))]
    if published:
        parts.append(dumps_html(m, published))
    for r in m["reports"]:
        parts.append("<h2 id=\"report-%d\">Report %d: %s, %s</h2>" % (
            r["id"], r["id"], e(r["kind"]), e(r["source_kind"])))
        outcome = derived.outcome_words(r["outcome"])
        made_by = derived.derived(r["survey"], r["check"])
        parts.append("<table><tr><th>from</th><td>%s</td></tr><tr><th>imported</th>"
                     "<td>%s%s</td></tr>%s<tr><th>power-off</th><td class=\"%s\">%s%s%s%s</td>"
                     "</tr></table>" % (
                         e(r["source"]), e(r["imported_at"]),
                         " by " + e(r["collector"]) if r["collector"] else "",
                         "<tr><th>apmoff</th><td>%s, commit <code>%s</code></td></tr>" % (
                             e(made_by["apmoff_version"]), e(made_by["apmoff_commit"]))
                         if made_by["apmoff_version"] else "",
                         e(r["outcome"]), e(outcome),
                         " via " + e(r["via"]) if r["via"] else "",
                         " (%s)" % e(r["outcome_source"]) if r["outcome_source"] else "",
                         ": " + e(r["outcome_detail"]) if r["outcome_detail"] else ""))
        if r["check"]:
            parts.append("<h3>Check: %s</h3>" % e(derived.check_summary(r["check"])))
            parts.append("<table>%s</table>" % "".join(
                "<tr><td>%s</td><td class=\"%s\">%s</td></tr>" % (
                    e(k), "ok" if v == "PASS" else "bad" if v == "FAIL" else "", e(v))
                for k, v in obj(r["check"].get("checks")).items()))
        if r["survey"]:
            parts.append(hardware(r["survey"]))
            parts.append("<h3>Survey</h3>" + fields_table(r["survey"]))
            parts.append("<details><summary>JSON</summary><pre>%s</pre></details>"
                         % e(r["survey_json"]))
    return page("apmoff: %s" % m["name"], "\n".join(parts))


def write(conn, db_path, directory, published=None):
    """Writes index.html and one page per machine, and the dumps published on them
    ({machine id: [dumppub.DumpDir]}); returns the pages written (index.html
    first) and the dump files."""
    published = published or {}
    os.makedirs(directory, exist_ok=True)
    machines = database.machines(conn)
    written = []
    for name, text in [("index.html", index_page(machines, db_path))] + [
            (machine_file(m), machine_page(m, published.get(m["id"], ())))
            for m in machines]:
        path = os.path.join(directory, name)
        with output.replacing(path) as f:
            f.write(text)
        written.append(path)
    files = []
    for m in machines:
        for k, d in enumerate(published.get(m["id"], ()), 1):
            folder = os.path.join(directory, dump_folder(m, k))
            os.makedirs(folder, exist_ok=True)
            for name, data in sorted(d.files.items()):
                path = os.path.join(folder, name)
                with output.replacing(path, binary=True) as f:
                    f.write(data)
                files.append(path)
    return written, files
