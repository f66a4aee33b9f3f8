"""The host bridges and south bridges a sweep met that the survey's chipset table
(survey/chipset.c) lacks: the list its maintainers add rows from.

survey/chipset.c is read as it is written: `vendor_ids[]` and the rows HOST(v, d, ...),
SOUTH(v, d, ...), PM(v, d, ...), ROW(v, d, ...), a vendor's own row macro (INTEL_SB(d,
...), defined as ROW(INTEL, d, ...)) and `{ d, VENDOR, ROLE_..., ... }`. The functions come
from the survey's `pci.functions` strings ("BB:DD.F VVVV:DDDD CCSSPP RR ...").
A host bridge is class 0600, an ISA bridge (the south bridge of the era) 0601, and a
bridge of class 0680 ("other") is where PIIX4-style power-management functions sit.
"""

import re

ROLES = {"0600": "host bridge", "0601": "ISA bridge", "0680": "other bridge"}
HEX = "[0-9A-Fa-f]"
FUNCTION = re.compile(r"^(%s{2}:%s{2}\.[0-7]) (%s{4}):(%s{4}) (%s{4})%s{2}"
                      % (HEX, HEX, HEX, HEX, HEX, HEX))


def read_table(text):
    """{(vendor, device)} of every row of survey/chipset.c."""
    vendors = {}
    m = re.search(r"vendor_ids\[\]\s*=\s*\{(.*?)\};", text, re.S)
    if m:
        for name, vid in re.findall(r"\[(\w+)\]\s*=\s*0x([0-9A-Fa-f]+)", m.group(1)):
            vendors[name] = int(vid, 16)
    known = set()
    for vendor, device in re.findall(r"\b(?:HOST|SOUTH|PM|ROW)\(\s*(\w+)\s*,\s*0x([0-9A-Fa-f]+)",
                                     text):
        if vendor in vendors:
            known.add((vendors[vendor], int(device, 16)))
    # a row macro of one vendor's: #define INTEL_SB(d, off, name) ROW(INTEL, d, ...)
    for macro, vendor in re.findall(r"#define\s+(\w+)\(\s*d\s*,[^)]*\)\s*ROW\(\s*(\w+)\s*,"
                                    r"\s*d\s*,", text):
        for device in re.findall(r"\b%s\(\s*0x([0-9A-Fa-f]+)" % macro, text):
            if vendor in vendors:
                known.add((vendors[vendor], int(device, 16)))
    for device, vendor in re.findall(r"\{\s*0x([0-9A-Fa-f]+)\s*,\s*(\w+)\s*,\s*ROLE_", text):
        if vendor in vendors:
            known.add((vendors[vendor], int(device, 16)))
    return known


def bridges(survey):
    """[(role, vendor, device, "BB:DD.F")] of the bridge functions in a survey."""
    pci = survey.get("pci") if isinstance(survey, dict) else None
    funcs = pci.get("functions") if isinstance(pci, dict) else None
    out = []
    for f in funcs if isinstance(funcs, list) else []:
        m = FUNCTION.match(f) if isinstance(f, str) else None
        if m and m.group(4).upper() in ROLES:
            out.append((ROLES[m.group(4).upper()], int(m.group(2), 16), int(m.group(3), 16),
                        m.group(1)))
    return out


def unknown(results, known):
    """{(vendor, device): {"role", "machines": [internal...], "chipset86": {names}}}
    for the bridges of every result's survey that the table lacks."""
    out = {}
    for r in results:
        survey = r.survey
        if not survey:
            continue
        for role, vendor, device, _ in bridges(survey):
            if (vendor, device) in known:
                continue
            entry = out.setdefault((vendor, device), {"role": role, "machines": [],
                                                      "chipset86": set()})
            if r.machine not in entry["machines"]:
                entry["machines"].append(r.machine)
            entry["chipset86"].add(r.chipset86)
    return out
