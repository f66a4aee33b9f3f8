#!/bin/sh
# sweep-hosts.sh: share apmoff-sweep's machines out among the hosts of a GNU parallel
# ssh login file, one shard a host, and merge what they found into one table here.
#
#   examples/sweep-hosts.sh HOSTS [N]
#
# HOSTS is GNU parallel's --sshloginfile (one `user@host` a line; `:` is this machine).
# N, the number of shards, defaults to the number of hosts. Every host needs the same
# tree at the same path as here: this checkout, built (`make`), 86Box's source at
# ../86Box and the ROM set at ../86box-roms (docs/86box.md, "Running a sweep"), and the
# kit's 86Box. Each host sweeps its shard two machines at a time into build/sweep-K,
# which GNU parallel brings back; then the shards are merged into build/sweep and its
# table written (build/sweep/sweep.md), the same as one host's sweep of them all.
# A shard that stops can be run again: a host skips the machines it has judged.
# Environment: SWEEP_ARGS, more options for every shard (e.g. "--dumps").
set -eu

case ${1:-} in -h | --help) sed -n '2,16s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: sweep-hosts.sh HOSTS [N]" >&2; exit 2; }
hosts=$1
command -v parallel >/dev/null || { echo "sweep-hosts: needs GNU parallel (apt-get install parallel)" >&2; exit 2; }
n=${2:-$(grep -cv '^[[:space:]]*\(#.*\)\{0,1\}$' "$hosts")}
here=$(pwd)
seq "$n" | parallel --sshloginfile "$hosts" --jobs 1 --workdir "$here" \
    --return "build/sweep-{}" --line-buffer --tagstring "shard {}/$n" \
    "tools/apmoff-sweep --source ../86Box --roms ../86box-roms --no-collect \
     --shard {}/$n --out build/sweep-{} ${SWEEP_ARGS:-}"
# shellcheck disable=SC2046
tools/apmoff-sweep --source ../86Box --roms ../86box-roms \
    --merge $(seq -f 'build/sweep-%g' "$n") --out build/sweep
