#!/usr/bin/env bash
# bochs-verdict.sh: boot an apmoff image in Bochs with examples/bochsrc and print
# the verdict read from Bochs' own log (docs/ci.md).
#
#   examples/bochs-verdict.sh IMAGE.iso [BIOS]     (best build/apmoff-auto.iso: no countdown)
#
# BIOS is Bochs' own /usr/share/bochs/BIOS-bochs-latest (the default) or SeaBIOS's
# /usr/share/seabios/bios.bin. Verdicts, from the log:
#   poweroff      ">>PANIC<< Shutdown port: shutdown requested" (Bochs' BIOS) or
#                 ">>PANIC<< ACPI control: soft power off" (SeaBIOS)
#   triple-fault  "exception with no resolution"
#   reset         "cpu software reset"
#   halt          the serial log's last line is "apmoff: halted: ..." (printed too)
#   hang          none of these before the timeout (BOCHS_TIMEOUT, default 120 s)
#   bochs-exited  Bochs ended by itself before any of these (its last words printed)
# An image or BIOS that is not there exits 2 with a message, before Bochs starts.
# Bochs ignores SIGTERM and a halted guest never ends the run, so Bochs is started
# in a process group of its own and that group is sent SIGKILL once the verdict is
# known. Exits 0 for poweroff, 1 otherwise. BOCHS_OUT keeps serial.txt and bochs.log.
set -u

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    [ $# -ge 1 ] && exit 0 || exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
BOCHS_BIOS=${2:-/usr/share/bochs/BIOS-bochs-latest}
for f in "$1" "$BOCHS_BIOS"; do
    if [ ! -f "$f" ]; then
        what=image; [ "$f" = "$1" ] || what=BIOS
        echo "bochs-verdict: no $what $f" >&2
        exit 2
    fi
done
APMOFF_ISO=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
APMOFF_OUT=${BOCHS_OUT:-$(mktemp -d)}
export APMOFF_ISO BOCHS_BIOS APMOFF_OUT
rm -f "$APMOFF_OUT/serial.txt" "$APMOFF_OUT/bochs.log"

# setsid: Bochs leads its own process group, so "kill -KILL -- -PID" ends all of it.
setsid bochs -q -f "$here/bochsrc" -rc "$here/bochs.rc" </dev/null \
    >"$APMOFF_OUT/stdout.txt" 2>&1 &
pid=$!

verdict=hang
deadline=$(( $(date +%s) + ${BOCHS_TIMEOUT:-120} ))
while [ "$(date +%s)" -lt "$deadline" ]; do
    # Whether Bochs still runs, asked before its log is read: a Bochs that ended
    # has written all of it.
    alive=yes
    kill -0 "$pid" 2>/dev/null || alive=
    log=$APMOFF_OUT/bochs.log
    if grep -qE 'Shutdown port: shutdown requested|ACPI control: soft power off' "$log" 2>/dev/null
    then verdict=poweroff; break
    elif grep -q 'exception with no resolution' "$log" 2>/dev/null
    then verdict=triple-fault; break
    elif grep -q 'cpu software reset' "$log" 2>/dev/null
    then verdict=reset; break
    elif grep -a '^apmoff: ' "$APMOFF_OUT/serial.txt" 2>/dev/null | tail -1 |
         grep -q '^apmoff: halted:'
    then verdict=halt; break
    fi
    if [ -z "$alive" ]; then
        verdict=bochs-exited; break
    fi
    sleep 0.2
done
kill -KILL -- "-$pid" 2>/dev/null
wait "$pid" 2>/dev/null

echo "$verdict"
if [ "$verdict" = halt ]; then
    grep -a '^apmoff: halted:' "$APMOFF_OUT/serial.txt" | tail -1 | tr -d '\r'
elif [ "$verdict" = bochs-exited ]; then
    tail -n 3 "$APMOFF_OUT/stdout.txt" >&2
fi
[ -n "${BOCHS_OUT:-}" ] || rm -rf "$APMOFF_OUT"
[ "$verdict" = poweroff ]
