"""A sweep shared out among hosts: --shard K/N takes a fixed share of the machines,
and --merge DIR... brings the shares' results back into one output directory, from
which the table is written as from a single sweep's.

A machine's share comes from its internal name alone (a hash, not its place in the
table), so the same machine goes to the same shard whatever the table's order and
however many machines a newer 86Box adds; N shards of the 382 machines of the 386 and
later hold 382/N each, give or take a few. Each shard is an ordinary sweep into an
output directory of its own, resumable as any; a merge copies each machine's result
and the files it names into the merged directory, by the sweep's layout (logs,
screens, dumps, primed CMOS), and refuses to mix two results of one machine unless
they are the same.
"""

import glob
import hashlib
import os
import shutil

from . import resultfile

# Per machine, what a sweep keeps besides its result, relative to OUT.
MACHINE_FILES = ("logs/{m}.log", "logs-methods/{m}.*.log", "logs-dumps/{m}.dump.log",
                 "screens/{m}-boot*.png")
MACHINE_DIRS = ("dumps/{m}", "nvr/{m}")


class ShardError(Exception):
    pass


def parse(text):
    """(k, n) from "K/N", 1 <= K <= N."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise ShardError("--shard takes K/N, e.g. 2/3 (the second of three)")
    if not 1 <= k <= n:
        raise ShardError("--shard %s: K must be 1 to N" % text)
    return k, n


def shard_of(internal, n):
    """The shard (0 to n-1) that sweeps this machine."""
    digest = hashlib.sha256(internal.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % n


def select(machines, k, n):
    return [m for m in machines if shard_of(m.internal, n) == k - 1]


def merge(sources, out, say=print):
    """Copies every result of the directories `sources` into `out`, with its files.
    Returns the machines merged; ShardError when two sources hold different results
    of one machine (a machine swept twice: keep one, or sweep it again)."""
    seen = {}
    for src in sources:
        paths = sorted(glob.glob(resultfile.path_of(src, "*")))
        if not paths:
            raise ShardError("%s holds no results (results/*.json)" % src)
        for path in paths:
            r = resultfile.read(path)
            if r is None:
                raise ShardError("%s: not a sweep result" % path)
            if r.machine in seen:
                other, before = seen[r.machine]
                if before.to_json() != r.to_json():
                    raise ShardError("%s is in %s and in %s with different results: keep "
                                     "one (or sweep it again with --force)" % (
                                         r.machine, other, src))
                continue
            seen[r.machine] = (src, r)
    for machine, (src, r) in sorted(seen.items()):
        copy_machine(src, out, machine)
        resultfile.write(out, r)
    say("apmoff-sweep: merged %d machines from %d directories into %s" % (
        len(seen), len(sources), out))
    return sorted(seen)


def copy_machine(src, out, machine):
    for pattern in MACHINE_FILES:
        for path in glob.glob(os.path.join(src, pattern.format(m=glob.escape(machine)))):
            dest = os.path.join(out, os.path.relpath(path, src))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(path, dest)
    for pattern in MACHINE_DIRS:
        path = os.path.join(src, pattern.format(m=machine))
        if os.path.isdir(path):
            dest = os.path.join(out, pattern.format(m=machine))
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(path, dest)
