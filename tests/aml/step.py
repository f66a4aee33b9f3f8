"""The AML interpreter against ACPICA, the reference: make test's "aml" step.

  python3 -m tests.aml.step [-k SUBSTRING] [--corpus DIR]

Two oracles, both ACPICA as Debian's acpica-tools builds it (20200925 in Debian 12,
20250404 in 13; aml-run answers the Revision opcode as the installed acpiexec does,
which is the one thing its version changes here):

- Hand-made AML (tests/aml/*.asl, compiled here with iasl): each method T<nnn> is run
  by acpiexec and by build/aml-run; the region accesses (writes, compared in order;
  reads too) and the value returned (or the failure) must agree. The files cover each
  opcode class (data, arithmetic, logic, control, conversions, references, names,
  synchronisation, module-level code) and each field kind (Field with every access
  width and update rule, IndexField, BankField, buffer fields) in every address space
  acpiexec simulates.
- Real firmware (../shared/acpi-corpus, 118 machines): \\_PTS(5)'s writes must be
  ACPICA's, as the corpus's compare.py judges them (the ordered list of distinct
  writes; how many times a polling loop ran does not count); and \\_S5_ as the
  survey's byte reader (survey/aml_s5.c, build/tests/s5-bytes) finds it must be the
  interpreter's \\_S5_ wherever the reader finds one.

aml-run is built with AddressSanitizer for these runs (build/tests/aml-run-asan), so a
memory error on any table fails the step. Each method or machine is one PASS/FAIL.
"""

import argparse
import concurrent.futures
import functools
import glob
import os
import re
import subprocess
import sys
import time

from tests.paths import BUILD, ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("APMOFF_ACPI_CORPUS") or os.path.join(os.path.dirname(ROOT), "shared",
                                                               "acpi-corpus")
AML_RUN = os.path.join(BUILD, "tests", "aml-run-asan")
OUT = os.path.join(BUILD, "tests", "aml")
TIMEOUT = 120
ACCESS = re.compile(r"^([RW]) (\S+) ([0-9A-Fa-f]+) (\d+) ([0-9A-Fa-f]+)\s*$")
DSDT_FIRST = ("load2",)     # these DSDTs are loaded with every SSDT of tests/aml


# --- acpiexec's side ------------------------------------------------------------------

def acpiexec(tables, method, args=()):
    """(accesses, result) of acpiexec evaluating method: accesses as (R|W, space,
    address, width, value) tuples in order, result as parse_acpica() gives it."""
    command = "execute %s %s" % (method, " ".join("%d" % a for a in args))
    p = subprocess.run(["acpiexec", "-di", "-to", "1", "-te", "-x", "0x00001000", "-b",
                        command.strip()] + list(tables),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace", timeout=TIMEOUT)
    key = "Evaluating " + method
    seg = p.stdout.split(key, 1)[1] if key in p.stdout else ""
    if "[Buffer] Length" in seg:
        # With a debug level set, acpiexec prints no buffer's bytes: ask again without.
        again = subprocess.run(["acpiexec", "-di", "-to", "1", "-te", "-b", command.strip()] +
                               list(tables), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace", timeout=TIMEOUT).stdout
        result_text = again.split(key, 1)[1] if key in again else ""
        accesses_text = seg
    else:
        result_text = accesses_text = seg
    accesses, pending = [], None
    for line in accesses_text.splitlines():
        m = re.search(r"ExAccessRegion\s*:\s*\[(READ|WRITE)\] Region \[(\w+):\d+\],\s*"
                      r"Width (\w+), ByteBase \w+, Offset \w+ at ([0-9A-Fa-f]+)", line)
        if m:
            pending = (m.group(1)[0], m.group(2), int(m.group(4), 16), int(m.group(3), 16))
            continue
        m = re.search(r"ExFieldDatumIo\s*:\s*Value (Read|Written) ([0-9A-Fa-f]+), Width", line)
        if m and pending:
            accesses.append(pending + (int(m.group(2), 16),))
            pending = None
    return accesses, parse_acpica(result_text, method)


def parse_acpica(text, method):
    """What acpiexec's debugger printed about the result: None (nothing returned),
    ("error",), or a value: int, str, bytes, or a list (a package)."""
    if ("Evaluation of %s failed" % method) in text or not text:
        return ("error",)
    if "No object was returned" in text:
        return None
    lines = text.split("returned object", 1)[1].splitlines()[1:] if "returned object" in text \
        else []
    value, _ = _value(lines, 0)
    return value


def _value(lines, i):
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines):
        return ("unknown",), i
    line = lines[i].strip()
    m = re.match(r"\[Integer\] = ([0-9A-Fa-f]+)", line)
    if m:
        return int(m.group(1), 16), i + 1
    m = re.match(r'\[String\] Length \w+ = "(.*)"$', line)
    if m:
        return m.group(1), i + 1
    m = re.match(r"\[Buffer\] Length (\w+) =\s*(.*)$", line)
    if m:
        n = int(m.group(1), 16)
        data, rest, i = bytearray(), m.group(2), i + 1
        dump = re.compile(r"^\s*[0-9A-Fa-f]{4}:((?:\s[0-9A-Fa-f]{2})+)")
        if not rest.strip() and i < len(lines):     # a long one starts on the next line
            rest, i = lines[i], i + 1
        while len(data) < n:
            d = dump.match(rest)
            if not d:
                break
            data += bytes(int(b, 16) for b in d.group(1).split())
            if i >= len(lines):
                break
            rest, i = lines[i], i + 1
        if len(data) >= n and rest is not m.group(2) and not dump.match(rest):
            i -= 1                      # the line after the dump is not the buffer's
        return bytes(data[:n]), i
    m = re.match(r"\[Package\] Contains (\d+) Elements", line)
    if m:
        items, i = [], i + 1
        for _ in range(int(m.group(1))):
            v, i = _value(lines, i)
            items.append(v)
        return items, i
    return ("other", line), i + 1


# --- aml-run's side -----------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def acpiexec_version():
    """The installed acpiexec's version as its Revision opcode answers it (20200925 is
    0x20200925), or None when it does not say."""
    out = subprocess.run(["acpiexec", "-v"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, errors="replace").stdout
    m = re.search(r"version (\d{8})\b", out)
    return m.group(1) if m else None


def aml_run(tables, method, args=(), extra=()):
    """(accesses, result, stderr) of build/aml-run, its Revision the installed
    acpiexec's."""
    version = acpiexec_version()
    extra = list(extra) + (["--revision", version] if version else [])
    p = subprocess.run([AML_RUN] + list(extra) + list(tables) + ["--", method] +
                       ["%d" % a for a in args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace", timeout=TIMEOUT,
                       env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    accesses, result = [], ("nothing",)
    for line in p.stdout.splitlines():
        m = ACCESS.match(line)
        if m:
            accesses.append((m.group(1), m.group(2), int(m.group(3), 16), int(m.group(4)),
                             int(m.group(5), 16)))
        elif line.startswith("! "):
            result = ("error",)
        elif line.startswith("= "):
            result = parse_ours(line[2:])
    if p.returncode not in (0, 1):
        result = ("crash", p.returncode)
    return accesses, result, p.stderr


def parse_ours(text):
    value, _ = _ours(text.strip(), 0)
    return value


def _ours(s, i):
    s_rest = s[i:]
    if s_rest.startswith("none"):
        return None, i + 4
    m = re.match(r"Integer 0x([0-9A-F]+)", s_rest)
    if m:
        return int(m.group(1), 16), i + m.end()
    m = re.match(r'String "((?:[^"\\]|\\x[0-9A-F]{2})*)"', s_rest)
    if m:
        text = re.sub(r"\\x([0-9A-F]{2})", lambda x: chr(int(x.group(1), 16)), m.group(1))
        return text, i + m.end()
    m = re.match(r"Buffer \{([0-9A-F ]*)\}", s_rest)
    if m:
        return bytes(int(b, 16) for b in m.group(1).split()), i + m.end()
    if s_rest.startswith("Package {"):
        items, i = [], i + len("Package {")
        while s[i] != "}":
            v, i = _ours(s, i)
            items.append(v)
            if s[i:i + 2] == ", ":
                i += 2
        return items, i + 1
    m = re.match(r"[^,}]*", s_rest)
    return ("other", m.group(0)), i + m.end()


# --- the runs ------------------------------------------------------------------------------

def build_aml_run():
    """The ASan build of aml-run, from the same sources as the kernel's interpreter."""
    p = subprocess.run(["make", "-s", "--no-print-directory", os.path.relpath(AML_RUN, ROOT)], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode == 0, p.stdout


def compile_asl():
    """tests/aml/*.asl into build/tests/aml/*.aml; {name: path} and the failures."""
    os.makedirs(OUT, exist_ok=True)
    out, failures = {}, []
    for src in sorted(glob.glob(os.path.join(HERE, "*.asl"))):
        name = os.path.basename(src)[:-4]
        flags = ["-f"] if "iasl: -f" in open(src).read() else []
        p = subprocess.run(["iasl"] + flags + ["-p", os.path.join(OUT, name), src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        aml = os.path.join(OUT, name + ".aml")
        if p.returncode and not flags or not os.path.exists(aml):
            failures.append((name, p.stdout[-2000:]))
        else:
            out[name] = aml
    return out, failures


def test_methods(src):
    return re.findall(r"Method \((T\d{3})\b", open(src).read())


def same(ours, theirs):
    """Whether two results agree; a failure agrees with a failure."""
    if isinstance(theirs, tuple) and theirs and theirs[0] == "error":
        return isinstance(ours, tuple) and ours and ours[0] == "error"
    return ours == theirs


def compare_method(tables, method):
    """(problems, seconds, aml-run's stderr) for one test method."""
    start = time.monotonic()
    theirs_acc, theirs = acpiexec(tables, "\\" + method)
    ours_acc, ours, err = aml_run(tables, "\\" + method)
    problems = []
    if ours_acc != theirs_acc and not _loop_cut(ours_acc, theirs_acc):
        k = next((i for i in range(min(len(ours_acc), len(theirs_acc)))
                  if ours_acc[i] != theirs_acc[i]), min(len(ours_acc), len(theirs_acc)))
        problems.append("access %d: ACPICA %s, aml-run %s" % (
            k, theirs_acc[k] if k < len(theirs_acc) else "end",
            ours_acc[k] if k < len(ours_acc) else "end"))
    if not same(ours, theirs):
        problems.append("result: ACPICA %r, aml-run %r" % (theirs, ours))
    if "ERROR: AddressSanitizer" in err or "runtime error" in err:
        problems.append("sanitizer: " + err.strip().splitlines()[0])
    return problems, time.monotonic() - start, err


ACPIEXEC_AT_ONCE = 16


def run_asl(tally, pattern=""):
    compiled, failures = compile_asl()
    for name, output in failures:
        print("FAIL aml.asl %s: iasl did not compile it" % name)
        print("\n".join("    " + l for l in output.splitlines()[-8:]))
        tally.add("aml.asl", name + " (iasl)", False, message="iasl failed", output=output)
    ssdts = [p for n, p in compiled.items() if n.startswith("ssdt")]
    jobs = []
    for name, aml in sorted(compiled.items()):
        if name.startswith("ssdt"):
            continue
        tables = [aml] + (ssdts if name in DSDT_FIRST else [])
        for method in test_methods(os.path.join(HERE, name + ".asl")):
            label = "%s \\%s" % (name, method)
            if not pattern or pattern in label:
                jobs.append((label, tables, method))
    # acpiexec sleeps about a second at every start, idle: run many at once.
    with concurrent.futures.ThreadPoolExecutor(max_workers=ACPIEXEC_AT_ONCE) as pool:
        results = pool.map(lambda j: compare_method(j[1], j[2]), jobs)
        for (label, _, _), (problems, seconds, err) in zip(jobs, results):
            ok = not problems
            print("%s aml.asl %s%s" % ("PASS" if ok else "FAIL", label,
                                      "" if ok else ": " + "; ".join(problems)))
            tally.add("aml.asl", label, ok, seconds, message="; ".join(problems),
                      output=err[-2000:])


def _loop_cut(ours, theirs):
    """A loop ended by a bound (acpiexec's one second, aml-run's iteration count) may
    run a different number of times: the distinct accesses, in first-seen order, must
    still be the same."""
    def distinct(acc):
        seen, out = set(), []
        for a in acc:
            if a not in seen:
                seen.add(a)
                out.append(a)
        return out
    return distinct(ours) == distinct(theirs) and len(ours) > 1000 and len(theirs) > 1000


def corpus_machines(root):
    for f in sorted(glob.glob(os.path.join(root, "award", "*.aml"))):
        yield os.path.basename(f)[:-4], [f], f[:-4] + ".pts5.trace"
    for d in sorted(glob.glob(os.path.join(root, "modern", "*"))):
        tables = [os.path.join(d, "dsdt.dat")] + sorted(glob.glob(os.path.join(d, "ssdt*.dat")))
        yield os.path.basename(d), tables, os.path.join(d, "pts5.trace")


def distinct_writes(accesses):
    seen, out = set(), []
    for a in accesses:
        if a[0] != "W":
            continue
        t = a[1:]
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


def run_corpus(tally, root=CORPUS, pattern=""):
    """\\_PTS(5) of every corpus machine against ACPICA's recorded trace."""
    if not os.path.isdir(root):
        why = "no ACPI corpus at %s (APMOFF_ACPI_CORPUS)" % root
        print("SKIP aml.corpus: %s" % why)
        tally.add("aml.corpus", "corpus", False, skipped=why)
        return
    agree = total = 0
    slowest = (0.0, "")
    for name, tables, trace in corpus_machines(root):
        if pattern and pattern not in name:
            continue
        total += 1
        want = []
        for line in open(trace):
            m = ACCESS.match(line.strip())
            if m:
                want.append((m.group(1), m.group(2), int(m.group(3), 16), int(m.group(4)),
                             int(m.group(5), 16)))
        start = time.monotonic()
        have, result, err = aml_run(tables, "\\_PTS", (5,))
        seconds = time.monotonic() - start
        slowest = max(slowest, (seconds, name))
        w, h = distinct_writes(want), distinct_writes(have)
        problems = []
        if w != h:
            k = next((i for i in range(min(len(w), len(h))) if w[i] != h[i]), min(len(w), len(h)))
            problems.append("distinct write %d: ACPICA %s, aml-run %s" % (
                k, w[k] if k < len(w) else "end", h[k] if k < len(h) else "end"))
        if "ERROR: AddressSanitizer" in err or "runtime error" in err or (isinstance(result, tuple) and result[:1] == ("crash",)):
            problems.append("aml-run crashed or a sanitizer spoke: %s" % err.strip()[-300:])
        ok = not problems
        agree += ok
        kb = sum(os.path.getsize(t) for t in tables) // 1024
        print("%s aml.corpus %s (%u KiB of AML): %s in %.2f s" % (
            "PASS" if ok else "FAIL", name, kb,
            "%d writes as ACPICA's" % len(h) if ok else "; ".join(problems), seconds))
        tally.add("aml.corpus", name, ok, seconds, message="; ".join(problems),
                  output=err[-2000:])
    print("aml.corpus: %d of %d machines write what ACPICA writes; slowest %s (%.2f s)" % (
        agree, total, slowest[1], slowest[0]))


S5_BYTES = os.path.join(BUILD, "tests", "s5-bytes")
PACKAGE = re.compile(r"^= Package \{(.*)\}$", re.M)


def interpreter_s5(tables):
    """(SLP_TYPa, SLP_TYPb) of \\_S5_ as the interpreter evaluates it, or None: the
    first two integers, or one integer holding both, as ACPICA reads them."""
    p = subprocess.run([AML_RUN] + tables + ["--", "\\_S5_"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    m = PACKAGE.search(p.stdout)
    if not m:
        return None
    values = [int(v, 16) for v in re.findall(r"Integer 0x([0-9A-Fa-f]+)", m.group(1))]
    if not values:
        return None
    if len(values) == 1:
        return values[0] & 0xFF, values[0] >> 8 & 0xFF
    return values[0] & 0xFF, values[1] & 0xFF


def run_s5_agree(tally, root=CORPUS, pattern=""):
    """The survey's \\_S5_ byte reader (survey/aml_s5.c: kept where the interpreter
    cannot run, a 4 MB machine) against the interpreter on every corpus machine: where
    the reader finds the package, its two values must be the interpreter's."""
    if not os.path.isdir(root):
        return
    p = subprocess.run(["make", "-s", "--no-print-directory", os.path.relpath(S5_BYTES, ROOT)],
                       cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        print("FAIL aml.s5: build/tests/s5-bytes did not build\n" + p.stdout)
        tally.add("aml.s5", "build s5-bytes", False, output=p.stdout)
        return
    counts = {}
    for name, tables, _ in corpus_machines(root):
        if pattern and pattern not in name:
            continue
        words = subprocess.run([S5_BYTES] + tables, stdout=subprocess.PIPE, text=True,
                               timeout=TIMEOUT).stdout.split()
        ours = (int(words[1]), int(words[2])) if words[:1] == ["found"] else None
        theirs = interpreter_s5(tables)
        verdict = words[0] if words else "nothing"
        ok = ours is None or ours == theirs
        key = ("agree" if ours and ok else "disagree" if not ok else
               "only the interpreter" if theirs else "neither")
        counts[key] = counts.get(key, 0) + 1
        why = "" if ok else "the byte reader found %s, the interpreter %s" % (ours, theirs)
        if not ok or key == "only the interpreter":
            print("%s aml.s5 %s: byte reader %s, interpreter %s" % (
                "PASS" if ok else "FAIL", name, verdict if not ours else ours, theirs))
        tally.add("aml.s5", name, ok, message=why)
    print("aml.s5: the byte reader and the interpreter on the corpus's \\_S5_: %s" % (
        ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


def run(tally, pattern="", asl=True, corpus=True):
    """The hand-made ASL methods (asl), the corpus's \\_PTS(5) (corpus), or both."""
    ok, output = build_aml_run()
    if not ok:
        print("FAIL aml: build/tests/aml-run-asan did not build")
        print(output)
        tally.add("aml", "build aml-run-asan", False, output=output)
        return
    if asl:
        run_asl(tally, pattern)
    if corpus:
        run_corpus(tally, pattern=pattern)
        run_s5_agree(tally, pattern=pattern)


def main():
    from tests.results import Tally
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-k", default="", help="only methods or machines whose name has this")
    ap.add_argument("--corpus", default=CORPUS)
    args = ap.parse_args()
    tally = Tally()
    ok, output = build_aml_run()
    if not ok:
        print(output)
        return 2
    run_asl(tally, args.k)
    run_corpus(tally, args.corpus, args.k)
    print(tally.summary())
    return 1 if tally.count("fail") else 0


if __name__ == "__main__":
    sys.exit(main())
