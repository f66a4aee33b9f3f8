#!/bin/sh
# dosbox-x-smoke.sh: boot an apmoff floppy in DOSBox-X, headless, and print one
# verdict word, for DOSBox-X's own CI (see docs/ci.md).
#
#   examples/dosbox-x-smoke.sh [IMAGE]
#
# IMAGE is a floppy image (default build/apmoff-auto.img, which powers off at once);
# it boots its menu's default entry. DOSBox-X ends with status 0 however its
# emulation ends, so the verdict comes from its log, where its APM BIOS names each
# call: the 5307h off call followed by its kill switch is a power-off, the keyboard
# controller's reboot signal a reset, its standby or suspend message that state.
# Prints the verdict and exits:
#   0    poweroff (and DOSBox-X exited 0)
#   1    anything else: reset, standby, suspend, halted (apmoff's last line is
#        printed), hang (SMOKE_TIMEOUT seconds, default 60, ran out), or exit:N
#        (DOSBox-X ended by itself with none of these: a bad configuration, say)
#   2    usage, or no dosbox-x
# Environment: DOSBOX_X (default dosbox-x), SMOKE_TIMEOUT, SMOKE_CONF (more lines
# for the configuration, e.g. "[cpu]\napmbios version=1.0"), SMOKE_KEEP (a folder to
# keep COM1, the log and the configuration in).
set -u

case ${1:-} in -h | --help) sed -n '2,19s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
image=${1:-build/apmoff-auto.img}
dosbox=${DOSBOX_X:-dosbox-x}
limit=${SMOKE_TIMEOUT:-60}
[ -f "$image" ] || { echo "dosbox-x-smoke: no image $image" >&2; exit 2; }
command -v "$dosbox" >/dev/null || { echo "dosbox-x-smoke: no $dosbox (Debian 13: apt-get install dosbox-x)" >&2; exit 2; }

work=${SMOKE_KEEP:-$(mktemp -d)} && [ -n "$work" ] || { echo "dosbox-x-smoke: no work folder" >&2; exit 2; }
mkdir -p "$work" || exit 2
# DOSBox-X locks the image it mounts: a copy of our own lets two runs share one.
cp "$image" "$work/floppy.img"
cat >"$work/apmoff.conf" <<EOF
[sdl]
output=surface
[dosbox]
quit warning=false
[serial]
serial1=file file:$work/com1.txt
[log]
logfile=$work/dosbox-x.log
bios=debug
misc=debug
$(printf '%b' "${SMOKE_CONF:-}")
[autoexec]
imgmount a $work/floppy.img -t floppy
boot a:
EOF

# -silent: SDL's dummy video and audio. No quit warning, so a signal ends it at once
# (with one, DOSBox-X would ask on standard input). HOME: nothing of the user's read.
HOME=$work timeout -s KILL "$limit" "$dosbox" -silent -conf "$work/apmoff.conf" \
	</dev/null >"$work/stdout.txt" 2>&1
status=$?

log=$work/dosbox-x.log
if grep -A1 'APM BIOS call AX=5307 BX=0x0001 CX=0x0003' "$log" 2>/dev/null |
	grep -q 'kill switch signal' && [ $status -eq 0 ]; then
	verdict=poweroff
elif grep -q 'signal to reboot the system' "$log" 2>/dev/null; then
	verdict=reset
elif grep -q 'set power state to standby' "$log" 2>/dev/null; then
	verdict=standby
elif grep -q 'set power state to suspend' "$log" 2>/dev/null; then
	verdict=suspend
elif [ -f "$work/com1.txt" ] &&
	last=$(tr -d '\r' <"$work/com1.txt" | grep -a '^apmoff: halted:' | tail -n 1) &&
	[ -n "$last" ]; then
	verdict="halted (${last#apmoff: halted: })"
elif [ $status -eq 137 ]; then
	verdict=hang
else
	verdict=exit:$status
fi
echo "$verdict"
[ -n "${SMOKE_KEEP:-}" ] || rm -rf "$work"
[ "$verdict" = poweroff ]
