"""Where things are in the tree, for every test module, and the one loader for a
Python file that is a program, not a module (iso/grub-no-cr4.py has a dash)."""

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
ELF = os.path.join(BUILD, "apmoff.elf")
ISO = os.path.join(BUILD, "apmoff.iso")
with open(os.path.join(ROOT, "VERSION")) as _f:
    VERSION = _f.read().strip()        # the release number the kernel prints


def load_program(name, relpath):
    """The Python program at ROOT/relpath, loaded as module `name`."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, relpath))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
