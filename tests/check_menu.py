#!/usr/bin/env python3
"""The boot menu offers every action, and its countdown suits both kinds of user.

iso/grub.cfg (the ISO's and the floppy's menu) must have an entry for every action
the kernel accepts (app/common/options.c's action choices), each forced interface and the
v86 monitor; the survey entries must end on their own (a wait= in seconds, so an
unattended machine does not sit on the QR screen forever); the first entry powers off;
on UEFI an entry of its own, inside the file's `if [ "$grub_platform" = "efi" ]`, is
the default and powers off without APM, and the floppy's menu (iso/mkmenu.py) leaves
it out and keeps the first as its default; and the countdown must be long enough for a CRT to sync and a person to read (5 s or
more). The automation images take the same menu with `set timeout=0` (Makefile).

    python3 -m tests.check_menu          PASS/FAIL lines; exit status 0 or 1

From Python: check() -> (ok, messages).
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIN_TIMEOUT = 5


def kernel_actions():
    with open(os.path.join(ROOT, "app", "common", "options.c")) as f:
        text = f.read()
    block = re.search(r"action_choices\[\] = \{(.*?)\};", text, re.S).group(1)
    return re.findall(r'\{ "([^"]+)", ACTION_', block)


def check(cfg_path=os.path.join(ROOT, "iso", "grub.cfg")):
    with open(cfg_path) as f:
        cfg = f.read()
    entries = re.findall(r'^menuentry "([^"]*)" \{\s*apmoff ([^\n]*)\n', cfg, re.M)
    words = [dict(w.split("=", 1) for w in opts.split()) for _, opts in entries]
    problems = []
    if not entries:
        return False, ["FAIL menu: no menu entries in %s" % cfg_path]
    for action in kernel_actions():
        if not any(w.get("action") == action for w in words):
            problems.append("no entry for action=%s" % action)
    for iface in ("rm", "pm32", "pm16"):
        if not any(w.get("interface") == iface for w in words):
            problems.append("no entry for interface=%s" % iface)
    if not any(w.get("bioscall") == "v86" for w in words):
        problems.append("no entry for bioscall=v86")
    for method in ("acpi", "apm,acpi"):
        if not any(w.get("method") == method for w in words):
            problems.append("no entry for method=%s" % method)
    for w in words:
        if w.get("action", "").startswith("survey") and not w.get("wait", "").isdigit():
            problems.append("action=%s waits for a key (wait=%s): it must end on its own"
                            % (w["action"], w.get("wait", "key")))
    if words[0].get("action") != "off":
        problems.append("the first (default) entry does not power off")
    problems += uefi_problems(cfg)
    m = re.search(r"^set timeout=(\d+)$", cfg, re.M)
    if not m or int(m.group(1)) < MIN_TIMEOUT:
        problems.append("the countdown is %s s, less than %d s"
                        % (m.group(1) if m else "?", MIN_TIMEOUT))
    if problems:
        return False, ["FAIL menu: " + p for p in problems]
    return True, ["PASS menu: %d entries cover every action, interface and v86; "
                  "countdown %s s" % (len(entries), m.group(1))]


def uefi_problems(cfg):
    block = re.search(r'^if \[ "\$grub_platform" = "efi" \]; then\n(.*?)^fi$', cfg, re.M | re.S)
    if not block:
        return ["no UEFI block (if [ \"$grub_platform\" = \"efi\" ]) with a default entry"]
    entry = re.search(r'menuentry "[^"]*" --id (\S+) \{\s*apmoff ([^\n]*)\n', block.group(1))
    default = re.search(r"^\s*set default=(\S+)$", block.group(1), re.M)
    if not entry or not default or default.group(1) != entry.group(1):
        return ["the UEFI block does not make its own entry the default"]
    methods = dict(w.split("=", 1) for w in entry.group(2).split()).get("method", "apm")
    problems = []
    if "apm" in methods.split(","):
        problems.append("the UEFI default asks APM (method=%s), which UEFI lacks" % methods)
    sys.path.insert(0, os.path.join(ROOT, "iso"))
    import mkmenu
    floppy = mkmenu.convert(cfg, "/boot/apmoff.lz4")
    if entry.group(2) in floppy or "\ndefault 1\n" not in floppy:
        problems.append("the floppy's menu keeps the UEFI entry or another default")
    return problems


def main():
    ok, messages = check()
    print("\n".join(messages))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
