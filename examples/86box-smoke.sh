#!/bin/sh
# 86box-smoke.sh: boot an apmoff floppy on one 86Box machine, headless, and print one
# verdict word judged from 86Box's exit status, for 86Box's own CI (see docs/ci.md).
#
#   examples/86box-smoke.sh MACHINE_DIR IMAGE [ROMS]
#
# MACHINE_DIR holds the machine's 86box.cfg (and its nvr/, the CMOS); it is copied,
# never changed. IMAGE is a floppy image, put in drive A: write-protected. ROMS is
# 86Box's ROM directory (-R), if not its default. The copy's 86box.cfg gets COM1 in a
# file and 86Box's Unit Tester device (unittester_enabled = 1), through which the
# kernel's onfail=exit leaves 86Box with status (code << 1) | 1, as QEMU's
# isa-debug-exit gives (README, "Exit codes"); a soft-off (APM, ACPI or the chipset)
# ends 86Box with status 0.
# Prints the verdict and exits:
#   0    poweroff: 86Box exited with status 0 after the kernel's `powering off via`
#   1    anything else: exit:N (apmoff's code C is N >> 1; exit:0 without that line:
#        86Box ended before the kernel cut the power), or hang (SMOKE_TIMEOUT
#        seconds, default 120, ran out: an image without onfail=exit that halts)
#   2    usage, or no 86Box
# Environment: BOX86 (the 86Box binary, default 86Box), SMOKE_TIMEOUT, SMOKE_KEEP (a
# folder to keep the machine's copy, COM1 and 86Box's output in).
set -u

case ${1:-} in -h | --help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: 86box-smoke.sh MACHINE_DIR IMAGE [ROMS]" >&2; exit 2; }
machine=$1 image=$2 roms=${3:-}
box86=${BOX86:-86Box}
limit=${SMOKE_TIMEOUT:-120}
[ -f "$machine/86box.cfg" ] || { echo "86box-smoke: no 86box.cfg in $machine" >&2; exit 2; }
[ -f "$image" ] || { echo "86box-smoke: no image $image" >&2; exit 2; }
command -v "$box86" >/dev/null || { echo "86box-smoke: no $box86" >&2; exit 2; }

work=${SMOKE_KEEP:-$(mktemp -d)} && [ -n "$work" ] || { echo "86box-smoke: no work folder" >&2; exit 2; }
mkdir -p "$work" || exit 2
rm -rf "$work/vm"
cp -R "$machine" "$work/vm"
image=$(cd "$(dirname "$image")" && pwd)/$(basename "$image")

# key = value in [section], replaced where it is, else added (with the section).
ini_set() {     # SECTION KEY VALUE
	awk -v s="[$1]" -v k="$2" -v v="$3" '
	function put() { print k " = " v; done = 1 }
	$0 == s { print; in_s = 1; seen = 1; next }
	/^\[/ { if (in_s && !done) put(); in_s = 0 }
	in_s && $1 == k { if (!done) put(); next }
	{ print }
	END { if (in_s && !done) put(); if (!seen) { print ""; print s; put() } }' \
		"$work/vm/86box.cfg" >"$work/cfg.new" && mv "$work/cfg.new" "$work/vm/86box.cfg"
}
ini_set "Floppy and CD-ROM drives" fdd_01_fn "wp://$image"
ini_set "Other peripherals" unittester_enabled 1
ini_set "Ports (COM & LPT)" serial1_enabled 1
ini_set "Ports (COM & LPT)" serial1_device file
ini_set "File (COM) #1" path "$work/com1.txt"

# -N: no confirmations; SDL's dummy drivers (an SDL build) or Qt's offscreen platform
# (the released Qt builds): no window, no sound; XDG_*: nothing of the user's read or
# written.
mkdir -p "$work/xdg"
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy ALSOFT_DRIVERS=null QT_QPA_PLATFORM=offscreen \
	XDG_DATA_HOME=$work/xdg XDG_CONFIG_HOME=$work/xdg XDG_DATA_DIRS=$work/xdg \
	timeout -s KILL "$limit" "$box86" -N ${roms:+-R "$roms"} -P "$work/vm" \
	"$work/vm/86box.cfg" </dev/null >"$work/86box.txt" 2>&1
status=$?

case $status in
0) if tr -d '\r' <"$work/com1.txt" 2>/dev/null | grep -aq '^apmoff: powering off via'; then
	verdict=poweroff
else
	verdict=exit:0
fi ;;
137) verdict=hang ;;
*) verdict=exit:$status ;;
esac
echo "$verdict"
[ -n "${SMOKE_KEEP:-}" ] || rm -rf "$work"
[ "$verdict" = poweroff ]
