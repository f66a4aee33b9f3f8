#!/bin/sh
# Makes the 86Box machine "p3v4x" (ASUS P3V4X: VIA Apollo Pro 133A, VT82C596B, Award
# Medallion 6.0 "ACPI BIOS Revision 1006 Beta 004") for the case 86box-p3v4x-acpi
# (tests/emu/cases_aml.py). The 86Box kit (../shared/86box/) has the binary and the
# video ROM but not this board's BIOS, which only the full 86Box ROM set carries; so
# this script builds, under build/86box/ (where tests/emu/box86.py looks for machines
# the kit lacks):
#
#   roms/                 the kit's ROM directory (links) plus machines/p3v4x/1006.004
#   machines/p3v4x/       86box.cfg (tests/emu/86box/p3v4x.cfg as it is) and nvr/,
#                         the CMOS and flash as the BIOS left them after one boot
#
#   APMOFF_86BOX_ROMSET=/path tests/emu/p3v4x.sh
#
# APMOFF_86BOX_ROMSET is the ROM set: a directory tree holding machines/p3v4x/1006.004
# (a checkout of https://github.com/86Box/roms, or your 86Box's roms/), or a git
# repository of it, bare or not (the file is read from its HEAD). Unset, the ROM
# directory the tests use (APMOFF_86BOX_ROMS, else the kit's) is tried, then the copy
# an earlier run left in build/86box/roms/.
# APMOFF_86BOX and APMOFF_86BOX_ROMS choose the binary and the base ROM directory as
# they do for tests/emu/box86.py. P3V4X_FORCE=1 primes the CMOS again even when the
# machine is already there; P3V4X_KEEP=1 keeps the emulator runs' directories.
#
# Why priming: a fresh CMOS stops this BIOS at "CMOS checksum error - Defaults loaded",
# "Press F1 to continue" (about 15 s into POST), and the tests press no keys. So the
# machine boots once with no disk while the kit's patched 86Box is sent SIGUSR2 (it
# presses F1) every 2 s: the BIOS goes on with its defaults (floppy A: 1.44 MB,
# boot from A: first), writes its ESCD to flash and stops at "DISK BOOT FAILURE"; 86Box
# writes the CMOS and the flash to nvr/ when it is stopped. Extra F1 presses before the
# prompt or at DISK BOOT FAILURE do nothing. Then the CMOS's checksum is checked and,
# when build/apmoff.img is there, the machine boots it once with no key: the kernel's
# first line on COM1 is the proof that no key is needed any more.
#
# Idempotent: the ROM directory is refreshed each time (links, and a copy only when the
# ROM differs); the machine is primed again only when it is missing or its 86box.cfg
# differs from tests/emu/86box/p3v4x.cfg. A new machine replaces the old one only
# once it is complete. Every 86Box run has a deadline and is stopped (TERM, then KILL)
# by its process group, which is only the 86Box this script started.
#
# Exit status: 0 when the machine is there (made now or before), 1 when it could not be
# made (the reason is printed), 2 on a usage error.
set -u

say() { echo "p3v4x.sh: $*"; }
fail() { echo "p3v4x.sh: $*" >&2; exit 1; }
[ $# -eq 0 ] || { echo "usage: [APMOFF_86BOX_ROMSET=DIR|REPO] tests/emu/p3v4x.sh" >&2; exit 2; }

root=$(cd "$(dirname "$0")/../.." && pwd)
kit=$(dirname "$root")/shared/86box
bin=${APMOFF_86BOX:-$kit/86Box}
base_roms=${APMOFF_86BOX_ROMS:-$kit/roms}
romset=${APMOFF_86BOX_ROMSET:-}
out=$root/build/86box
cfg_src=$root/tests/emu/86box/p3v4x.cfg
machine=$out/machines/p3v4x
image=$root/build/apmoff.img

# The BIOS file, its place in a ROM set, its size and its git blob id (content hash):
# the case's expected lines come from this ROM's DSDT, so no other dump will do.
rom_path=machines/p3v4x/1006.004
rom_size=262144
rom_blob=e9618e032e9603244938e0a5b254bf65bcdbb58c

# Seconds: the priming boot (POST reaches the F1 prompt after about 15 s and DISK
# BOOT FAILURE about 15 s later), when F1 presses start and stop, and the check boot
# (POST, GRUB's 1 s menu, the kernel's first line: about 25 s).
prime_secs=60 keys_from=8 keys_until=50 check_secs=90

# The patched 86Box presses the keys of $BENCH86_KEYFILE instead of F1 when it is set.
unset BENCH86_KEYFILE

# --- what is needed --------------------------------------------------------------
[ -x "$bin" ] || fail "no 86Box binary at $bin (set APMOFF_86BOX; the kit's patched build is needed: it presses F1 on SIGUSR2)"
[ -d "$base_roms/video" ] || fail "no 86Box ROM directory at $base_roms (set APMOFF_86BOX_ROMS)"
[ -f "$cfg_src" ] || fail "no $cfg_src"
if [ -z "$romset" ]; then
	if [ -f "$base_roms/$rom_path" ]; then
		romset=$base_roms
	elif [ -f "$out/roms/$rom_path" ]; then
		romset=$out/roms    # an earlier run's copy (checked again below)
	else
		fail "not made: the kit has no ASUS P3V4X BIOS; set APMOFF_86BOX_ROMSET to the 86Box ROM set (a directory with $rom_path, or a git repository of https://github.com/86Box/roms, bare or not)"
	fi
fi

# --- the ROM directory: the kit's ROMs and this board's ----------------------------
mkdir -p "$out/roms/machines/p3v4x" || fail "cannot make $out/roms"
new_rom=$out/roms/machines/p3v4x/1006.004.new
if [ -f "$romset/$rom_path" ]; then
	cp "$romset/$rom_path" "$new_rom" || fail "cannot copy $romset/$rom_path"
	from="$romset/$rom_path"
elif git -C "$romset" cat-file -e "HEAD:$rom_path" 2>/dev/null; then
	git -C "$romset" show "HEAD:$rom_path" >"$new_rom" || fail "cannot read $rom_path from the repository $romset"
	from="$rom_path at HEAD ($(git -C "$romset" rev-parse --short HEAD)) of the git repository $romset"
else
	fail "not made: $romset is neither a directory with $rom_path nor a git repository holding it"
fi
size=$(wc -c <"$new_rom")
[ "$size" -eq "$rom_size" ] || { rm -f "$new_rom"; fail "$from is $size bytes, not $rom_size: not the P3V4X BIOS 1006"; }
if command -v git >/dev/null 2>&1; then
	blob=$(git hash-object "$new_rom")
	[ "$blob" = "$rom_blob" ] ||
		{ rm -f "$new_rom"; fail "$from is not the ROM set's 1006.004 (git blob $blob, expected $rom_blob)"; }
fi
if cmp -s "$new_rom" "$out/roms/machines/p3v4x/1006.004"; then
	rm -f "$new_rom"
else
	mv "$new_rom" "$out/roms/machines/p3v4x/1006.004"
fi
say "BIOS: $from -> build/86box/roms/$rom_path"
# Everything else as links to the base ROM directory (the video BIOS, the kit's other
# boards), so the one -R directory serves this machine; a link left by an earlier run
# whose target is gone is dropped.
for f in "$base_roms"/* "$base_roms"/machines/*; do
	name=${f#"$base_roms"/}
	case $name in machines | machines/p3v4x) continue ;; esac
	ln -sfn "$f" "$out/roms/$name" || fail "cannot link $out/roms/$name"
done
for f in "$out"/roms/* "$out"/roms/machines/*; do
	[ -L "$f" ] && [ ! -e "$f" ] && rm -f "$f"
done
say "ROM directory: build/86box/roms (links to $base_roms, and the P3V4X BIOS)"

# --- already made? -------------------------------------------------------------------
if [ "${P3V4X_FORCE:-0}" != 1 ] && cmp -s "$cfg_src" "$machine/86box.cfg" &&
	[ -s "$machine/nvr/p3v4x.nvr" ]; then
	say "machine: build/86box/machines/p3v4x is there (86box.cfg as tests/emu/86box/p3v4x.cfg, CMOS primed): nothing to do (P3V4X_FORCE=1 primes it again)"
	exit 0
fi

# --- one 86Box run ---------------------------------------------------------------------
work=$(mktemp -d "$out/p3v4x.XXXXXX") || fail "cannot make a directory under $out"
emu=
stop_emu() {    # TERM, then KILL, the process group of the 86Box started below (nothing else)
	[ -n "$emu" ] || return 0
	kill -TERM "-$emu" 2>/dev/null
	i=0
	while [ $i -lt 20 ] && kill -0 "$emu" 2>/dev/null; do sleep 0.5; i=$((i + 1)); done
	kill -KILL "-$emu" 2>/dev/null
	wait "$emu" 2>/dev/null
	emu=
}
cleanup() {
	stop_emu
	rm -rf "$machine.new"    # a machine left half made (moved into place when complete)
	if [ "${P3V4X_KEEP:-0}" = 1 ]; then say "run directories kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ini_set CFG SECTION KEY VALUE: KEY = VALUE in [SECTION] of CFG, replaced or added
# (86Box reads a section once: a second one of the same name would not merge).
ini_set() {
	awk -v sec="[$2]" -v key="$3" -v val="$4" '
		function put() { print key " = " val; done = 1 }
		/^\[/ { if (insec && !done) put(); insec = ($0 == sec); if (insec) seen = 1 }
		insec && $1 == key && ($2 == "=" || substr($1, length($1)) == "=") { if (!done) put(); next }
		{ print }
		END { if (!seen) { print ""; print sec } if (!done) put() }' "$1" >"$1.new" && mv "$1.new" "$1"
}

# start_emu DIR: 86Box on DIR/86box.cfg (DIR as its VM directory, COM1 to DIR/com1.log),
# headless, in its own session and so its own process group; waits for its power-on.
start_emu() {
	mkdir -p "$1/xdg/data" "$1/xdg/config"
	ini_set "$1/86box.cfg" "Ports (COM & LPT)" serial1_enabled 1
	ini_set "$1/86box.cfg" "Ports (COM & LPT)" serial1_device file
	ini_set "$1/86box.cfg" "File (COM) #1" path "$1/com1.log"
	: >"$1/com1.log"
	# dummy SDL video/audio: no display; OpenAL's null backend: no ALSA noise; private
	# XDG dirs: 86Box neither reads ROMs from nor writes its global config to $HOME.
	# A script's background job is not a process group leader, so setsid execs 86Box
	# in place: $! is 86Box and its process group.
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy ALSOFT_DRIVERS=null \
		XDG_DATA_HOME=$1/xdg/data XDG_CONFIG_HOME=$1/xdg/config XDG_DATA_DIRS=$1/xdg \
		setsid "$bin" -N -R "$out/roms" -P "$1" "$1/86box.cfg" </dev/null >"$1/stderr.log" 2>&1 &
	emu=$!
	started=$(date +%s)
	# The patched build prints "BENCH86: hard reset" when it powers the machine on;
	# a signal before its handlers are set would kill it, so none is sent before that.
	while ! grep -q '^BENCH86: hard reset' "$1/stderr.log" 2>/dev/null; do
		if ! kill -0 "$emu" 2>/dev/null; then
			wait "$emu"; rc=$?; emu=
			tail -n 5 "$1/stderr.log" | sed 's/^/86Box: /' >&2
			fail "86Box exited (status $rc) before it powered the machine on"
		fi
		[ $(($(date +%s) - started)) -lt 30 ] || fail "86Box did not power the machine on within 30 s (not the kit's patched build?)"
		sleep 0.5
	done
}
elapsed() { echo $(($(date +%s) - started)); }

# --- the priming boot: no disk, F1 ----------------------------------------------------
prime=$work/prime
mkdir -p "$prime"
cp "$cfg_src" "$prime/86box.cfg"
chmod u+w "$prime/86box.cfg"
say "priming the CMOS: booting with no disk for $prime_secs s, F1 (SIGUSR2) every 2 s from $keys_from s to $keys_until s"
start_emu "$prime"
presses=0
while [ "$(elapsed)" -lt "$prime_secs" ]; do
	kill -0 "$emu" 2>/dev/null || { tail -n 5 "$prime/stderr.log" | sed 's/^/86Box: /' >&2; emu=; fail "86Box exited during the priming boot"; }
	t=$(elapsed)
	if [ "$t" -ge "$keys_from" ] && [ "$t" -le "$keys_until" ]; then
		kill -USR2 "$emu" && presses=$((presses + 1))
		sleep 2
	else
		sleep 1
	fi
done
stop_emu    # 86Box writes the CMOS and the flash to nvr/ as it exits on TERM
nvr=$prime/nvr/p3v4x.nvr
[ -s "$nvr" ] || fail "86Box left no CMOS (nvr/p3v4x.nvr) after the priming boot (it had to be killed?): nothing made"
# The AT checksum (bytes 2Eh-2Fh, big-endian, over 10h-2Dh) is what the BIOS found
# wrong on the fresh CMOS; it must be right now.
sum=$(od -An -tu1 -j16 -N30 "$nvr" | awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s }')
stored=$(od -An -tu1 -j46 -N2 "$nvr" | awk '{ print $1 * 256 + $2 }')
[ "$sum" -eq "$stored" ] || fail "the CMOS after the priming boot has a bad checksum ($stored, bytes 10h-2Dh sum to $sum): the BIOS did not load its defaults; nothing made"
files=
for f in "$prime"/nvr/*; do files="$files ${f##*/} ($(wc -c <"$f") bytes)"; done
say "primed: $presses F1 presses; CMOS checksum right ($(printf '%04X' "$sum")h); nvr/:$files"

mkdir -p "$out/machines" || fail "cannot make $out/machines"
rm -rf "$machine.new"
mkdir -p "$machine.new"
{ cp "$cfg_src" "$machine.new/86box.cfg" && cp -R "$prime/nvr" "$machine.new/nvr"; } ||
	fail "cannot write $machine.new"

# --- the check: apmoff boots with no key -----------------------------------------------
if [ -f "$image" ]; then
	check=$work/check
	cp -R "$machine.new" "$check"
	ini_set "$check/86box.cfg" "Floppy and CD-ROM drives" fdd_01_fn "wp://$image"
	say "checking: build/apmoff.img boots with no key press (at most $check_secs s)"
	start_emu "$check"
	first=
	while [ -z "$first" ] && [ "$(elapsed)" -lt "$check_secs" ] && kill -0 "$emu" 2>/dev/null; do
		sleep 1
		first=$(tr -d '\r' <"$check/com1.log" | grep -a -m 1 '^apmoff: ')
	done
	t=$(elapsed)
	stop_emu
	[ -n "$first" ] || fail "build/apmoff.img did not boot on the primed machine within $t s (no 'apmoff:' line on COM1): nothing made; P3V4X_KEEP=1 keeps the run (a SIGUSR1 to 86Box saves its screen in <run>/screenshots/)"
	say "checked: after $t s COM1 said \"$first\""
else
	say "not checked: no build/apmoff.img (run make, then the case 86box-p3v4x-acpi checks it)"
fi

rm -rf "$machine"
mv "$machine.new" "$machine" || fail "cannot move $machine.new to $machine"
say "made build/86box/machines/p3v4x: the case runs with: python3 -m tests.run_all -k 86box-p3v4x-acpi --emu-only"
