"""PCI vendor and device names from Debian's pci.ids database (package pci.ids), for
the report's machine pages. The kernel carries no names: the survey has the IDs, and
the names come from the host, where the database is kept up to date."""

import os

PCI_IDS = os.environ.get("APMOFF_PCI_IDS") or "/usr/share/misc/pci.ids"

_vendors = None


def load(path=PCI_IDS):
    """{vendor: (name, {device: name})}; {} when the database is not installed."""
    vendors, current = {}, None
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except OSError:
        return {}
    with f:
        for line in f:
            if line.startswith("C "):           # the class list ends the vendors
                break
            if not line.strip() or line.startswith("#"):
                continue
            if not line.startswith("\t"):
                vid, _, name = line.strip().partition("  ")
                current = (name, {})
                vendors[vid.lower()] = current
            elif not line.startswith("\t\t") and current is not None:
                did, _, name = line.strip().partition("  ")
                current[1][did.lower()] = name
    return vendors


def names(vendor, device):
    """(vendor name, device name), "" for what the database does not know."""
    global _vendors
    if _vendors is None:
        _vendors = load()
    entry = _vendors.get(vendor.lower())
    if not entry:
        return "", ""
    return entry[0], entry[1].get(device.lower(), "")


def parse_function(text):
    """The survey's "BB:DD.F VVVV:DDDD CCSSPP RR [SSSS:SSSS] [P/LL]" as a dict, or
    None when it is not one."""
    parts = text.split()
    if len(parts) < 4 or ":" not in parts[1] or len(parts[2]) != 6:
        return None
    vendor, _, device = parts[1].partition(":")
    return {"address": parts[0], "vendor": vendor, "device": device,
            "class": parts[2], "revision": parts[3]}
