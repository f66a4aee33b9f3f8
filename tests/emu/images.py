"""The image a case boots: the built ISO, floppy or ELF, the automation images, or a
variant of the shipped menu whose first entry carries the case's options (for Bochs
and 86Box, which cannot pass a command line any other way), cached by option string."""

import hashlib
import os
import re
import subprocess
import tempfile
import threading

from tests.emu.syslinux import build_syslinux_iso
from tests.paths import BUILD, ELF, ISO, ROOT


def variant_cfg(options, loader=""):
    """The shipped menu with its first entry's options replaced and no timeout, and
    that first entry the default on UEFI too; for "grub-mb2", multiboot2 on BIOS too
    (as a user's own GRUB entry may say)."""
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        cfg = f.read()
    cfg = re.sub(r"^set timeout=.*$", "set timeout=0", cfg, count=1, flags=re.M)
    cfg, n = re.subn(r"^\s*set default=uefi-off\n", "", cfg, flags=re.M)
    if n != 1:
        raise ValueError("iso/grub.cfg: no UEFI default (set default=uefi-off) to take out")
    if loader == "grub-mb2":
        cfg = re.sub(r"^(\s*)multiboot /boot/apmoff.elf", r"\1multiboot2 /boot/apmoff.elf",
                     cfg, flags=re.M)
    return re.sub(r"^(\s*apmoff) action=off$", lambda m: "%s %s" % (m.group(1), options),
                  cfg, count=1, flags=re.M)


_variant_lock = threading.Lock()     # two cases may want the same variant at once


def variant_image(options, medium, loader=""):
    """An ISO or floppy whose first menu entry boots at once with these options, or
    an ISOLINUX ISO booting the kernel with them."""
    with _variant_lock:
        if loader == "syslinux":
            out = os.path.join(BUILD, "variants", "syslinux-%s.iso" % slug_of(options))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            return build_syslinux_iso(out, ELF, options)
        return _build_variant(options, medium, loader)


def slug_of(options):
    slug = re.sub(r"[^A-Za-z0-9]+", "_", options).strip("_") or "default"
    if len(slug) > 100:     # a file name has room for 255 bytes; a hash tells them apart
        slug = slug[:80] + "_" + hashlib.sha256(options.encode()).hexdigest()[:12]
    return slug


def floppy_suffix(medium):
    """"" for the 1.44 MB floppy ("floppy"), "-720" for "floppy-720" and so on: the
    image names' tail (build/apmoff-720.img), as iso/floppy.mk names them."""
    return medium[len("floppy"):]


def is_floppy(medium):
    return medium.startswith("floppy")


# What each kind of image is built from, besides the kernel and the menu.
ISO_INPUTS = [os.path.join(ROOT, "iso", n) for n in ("mkiso.sh", "mkefiimg.sh",
                                                     "menu.modules", "grub-no-cr4.py")]
FLOPPY_INPUTS = [os.path.join(ROOT, "iso", n) for n in ("mkfloppy.sh", "mkmenu.py")] + [
    os.path.join(BUILD, "loader", n) for n in ("bootsect.bin", "stage2.bin")]


def fresh(out, inputs):
    return os.path.exists(out) and all(os.path.getmtime(out) >= os.path.getmtime(i)
                                       for i in inputs)


def _build_variant(options, medium, loader):
    slug = slug_of(options) + ("-" + loader if loader else "")
    script, suffix = (("mkfloppy.sh", floppy_suffix(medium) + ".img") if is_floppy(medium)
                      else ("mkiso.sh", ".iso"))
    out = os.path.join(BUILD, "variants", slug + suffix)
    inputs = [ELF, os.path.join(ROOT, "iso", "grub.cfg")] + (
        FLOPPY_INPUTS if is_floppy(medium) else ISO_INPUTS)
    if fresh(out, inputs):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as cfg:
        cfg.write(variant_cfg(options, loader))
    try:
        subprocess.run([os.path.join(ROOT, "iso", script), out, ELF, cfg.name]
                       + ([floppy_suffix(medium)[1:]] if floppy_suffix(medium) else []),
                       check=True)
    finally:
        os.unlink(cfg.name)
    return out


# A kernel that is no multiboot kernel: a 32-bit ELF at 2 MiB, halting, with no header.
NOT_MULTIBOOT_ASM = "bits 32\nglobal _start\nsection .text\n_start:\n cli\n hlt\n"


def _not_multiboot_elf(tmp):
    asm, obj, elf = (os.path.join(tmp, n) for n in ("k.asm", "k.o", "k.elf"))
    with open(asm, "w") as f:
        f.write(NOT_MULTIBOOT_ASM)
    subprocess.run(["nasm", "-f", "elf32", asm, "-o", obj], check=True)
    subprocess.run(["ld", "-m", "elf_i386", "-Ttext=0x200000", "-e", "_start", "-o", elf,
                    obj], check=True)
    return elf


# A line of MENU.CFG the loader does not know, as a person editing it in DOS may write.
BAD_MENU_LINE = "titel oops"


def _bad_menu_floppy():
    """The shipped 1.44 MB floppy whose \\BOOT\\MENU.CFG has BAD_MENU_LINE at its end
    (mtools edits the copy; the loader must name the line on the screen, not only on
    COM1, and hold the menu without its countdown)."""
    with _variant_lock:
        out = os.path.join(BUILD, "variants", "bad-menu.img")
        shipped = os.path.join(BUILD, "apmoff.img")
        if fresh(out, [shipped]):
            return out
        os.makedirs(os.path.dirname(out), exist_ok=True)
        image = out + ".tmp"            # beside it: os.replace() does not cross devices
        with tempfile.TemporaryDirectory() as tmp:
            cfg = os.path.join(tmp, "MENU.CFG")
            with open(shipped, "rb") as f, open(image, "wb") as g:
                g.write(f.read())
            subprocess.run(["mcopy", "-n", "-i", image, "::/BOOT/MENU.CFG", cfg], check=True)
            with open(cfg, "ab") as f:
                f.write(BAD_MENU_LINE.encode() + b"\r\n")
            subprocess.run(["mcopy", "-o", "-i", image, cfg, "::/BOOT/MENU.CFG"], check=True)
            os.replace(image, out)
        return out


def special_image(kind):
    """A broken floppy for the loader to name: "truncated", the automation 1.44 MB
    image cut short in its kernel (60000 bytes: the boot sector, the second stage, the
    FAT, the directories and the menu are whole); "not-multiboot", the automation
    menu on a floppy whose kernel has no multiboot header. Or "other-hash": the kernel
    carrying another commit's hash (the Makefile's build-all makes it)."""
    if kind == "other-hash":
        return os.path.join(BUILD, "variants", "apmoff-other-hash.elf")
    if kind == "bad-menu":
        return _bad_menu_floppy()
    with _variant_lock:
        out = os.path.join(BUILD, "variants", "broken-%s.img" % kind)
        auto = os.path.join(BUILD, "apmoff-auto.img")
        if kind == "truncated":
            if not fresh(out, [auto]):
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with open(auto, "rb") as f, open(out, "wb") as g:
                    g.write(f.read(60000))
            return out
        if kind == "not-multiboot":
            if not fresh(out, FLOPPY_INPUTS + [os.path.join(BUILD, "grub-auto.cfg")]):
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with tempfile.TemporaryDirectory() as tmp:
                    subprocess.run([os.path.join(ROOT, "iso", "mkfloppy.sh"), out,
                                    _not_multiboot_elf(tmp),
                                    os.path.join(BUILD, "grub-auto.cfg")], check=True)
            return out
        raise ValueError("no special image %r" % kind)


def image_for(case):
    if case.image:
        return special_image(case.image)
    if case.loader == "auto":
        return os.path.join(BUILD, "apmoff-auto" + (floppy_suffix(case.medium) + ".img"
                                                    if is_floppy(case.medium) else ".iso"))
    if case.medium in ("iso", "usb", "hdd"):
        if case.options or case.loader:
            return variant_image(case.options, "iso", case.loader)
        return ISO
    if is_floppy(case.medium):
        if case.options:
            return variant_image(case.options, case.medium)
        return os.path.join(BUILD, "apmoff%s.img" % floppy_suffix(case.medium))
    return ELF
