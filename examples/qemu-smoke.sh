#!/bin/sh
# qemu-smoke.sh: boot apmoff in QEMU and print one verdict word, for an emulator
# project's CI (see docs/ci.md).
#
#   examples/qemu-smoke.sh IMAGE [KERNEL OPTIONS...]
#
# IMAGE is apmoff.elf (booted with -kernel and the options), an ISO, best
# apmoff-auto.iso (no menu countdown), or a floppy image (.img, any of the four
# formats); an ISO or a floppy boots its menu's default entry: options cannot be passed.
# onfail=exit is added to the ELF's options (and wait=0 to a survey's, whose QR screen
# would wait for a key), and QEMU gets the isa-debug-exit device, so every run of the
# ELF ends with an exit status instead of a timeout (an image runs its default entry as
# its menu writes it, without onfail=exit: a power-off that fails there halts, and the
# verdict is hang):
#   0             QEMU exited after the guest powered off or reset the machine
#                 (-no-reboot): QEMU's own SHUTDOWN event, read on its QMP monitor,
#                 says which (reason guest-shutdown or guest-reset), on QEMU 7.2 and
#                 10 alike (7.2 traces no reset)
#   (C << 1) | 1  apmoff wrote exit code C (README, "Exit codes")
#   124           the timeout (SMOKE_TIMEOUT seconds, default 60) ran out: a hang
# Environment: QEMU (default qemu-system-i386), SMOKE_TIMEOUT, SMOKE_ARGS (more QEMU
# arguments, e.g. "-M q35" or "-cpu 486"), SMOKE_SERIAL (where COM1 goes; default a
# temporary file, printed on failure).
#
# Prints the verdict (poweroff, reset, hang, or the code's name) and exits 0 when it
# is what the action promises on a working APM BIOS: poweroff for action=off and
# survey,off, survey-complete for survey, check-passed or check-as-expected for
# check, standby-returned for standby and suspend, reset for reboot, dump-complete for
# dump (dump,off: poweroff), selftest-complete for selftest=.
set -u

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    [ $# -ge 1 ] && exit 0 || exit 2
fi
image=$1
shift
if [ ! -f "$image" ]; then
    echo "qemu-smoke: no image $image (make builds build/apmoff.elf and the images)" >&2
    exit 2
fi
case $image in
    *.iso|*.img)
        if [ $# -gt 0 ]; then
            echo "qemu-smoke: an image boots its menu's default entry; options need the ELF" >&2
            exit 2
        fi ;;
esac
options="$* onfail=exit"
case " $options " in
    *" action=survey "*|*" action=survey,"*)
        case " $options " in *" wait="*) ;; *) options="$options wait=0" ;; esac ;;
esac
qemu=${QEMU:-qemu-system-i386}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
serial=${SMOKE_SERIAL:-$tmp/serial.txt}

# QEMU's QMP monitor on two FIFOs (QEMU's pipe character device): the greeting's
# answer waits in qmp.in, and what QEMU says goes through qmp.out to a reader that ends
# when QEMU has closed it. Both are held open read-write here, so no open waits.
mkfifo "$tmp/qmp.in" "$tmp/qmp.out" || exit 2
exec 3<>"$tmp/qmp.in"
printf '{"execute":"qmp_capabilities"}\n' >&3
cat "$tmp/qmp.out" >"$tmp/qmp.log" &
reader=$!

# From here on "$@" is QEMU's command line.
case $image in
    *.iso) set -- -cdrom "$image" -boot d ;;
    *.img) set -- -drive "file=$image,if=floppy,format=raw,readonly=on" -boot a ;;
    *)     set -- -kernel "$image" -append "$options" ;;
esac
# shellcheck disable=SC2086  # SMOKE_ARGS is a word list on purpose
timeout -k 5 "${SMOKE_TIMEOUT:-60}" "$qemu" "$@" \
    -device isa-debug-exit,iobase=0xf4,iosize=4 -display none -nodefaults -vga std \
    -no-reboot -serial "file:$serial" -chardev "pipe,id=qmp,path=$tmp/qmp" \
    -mon chardev=qmp,mode=control ${SMOKE_ARGS:-}
status=$?
# A writer that comes and goes: the reader sees the end even if QEMU never opened it.
exec 4<>"$tmp/qmp.out" 4>&-
wait "$reader"
exec 3>&-
shutdown=$(grep -o '"event": *"SHUTDOWN"[^}]*"reason": *"[a-z-]*"' "$tmp/qmp.log" |
           sed 's/.*"reason": *"//; s/"$//' | head -n 1)

case $status in
    0)   case $shutdown in
         guest-shutdown) verdict=poweroff ;;
         guest-reset)    verdict=reset ;;
         *)              verdict="shutdown${shutdown:+-$shutdown}" ;;
         esac ;;
    124|137) verdict=hang ;;
    3)   verdict=poweroff-failed ;;
    5)   verdict=no-apm ;;
    7)   verdict=no-legacy-bios ;;
    9)   verdict=cpu-exception ;;
    11)  verdict=check-passed ;;
    13)  verdict=check-failed ;;
    15)  verdict=standby-refused ;;
    17)  verdict=survey-complete ;;
    19)  verdict=standby-returned ;;
    21)  verdict=option-error ;;
    23)  verdict=check-as-expected ;;
    25)  verdict=selftest-complete ;;
    27)  verdict=no-acpi ;;
    29)  verdict=acpi-still-on ;;
    31)  verdict=no-efi ;;
    33)  verdict=efi-still-on ;;
    35)  verdict=reset-failed ;;
    37)  verdict=no-reset-method ;;
    39)  verdict=no-chipset-soft-off ;;
    41)  verdict=chipset-still-on ;;
    43)  verdict=dump-complete ;;
    *)   verdict="qemu-status-$status" ;;
esac
echo "$verdict"

case " $options " in
    *" action=survey "*)                       want="survey-complete" ;;
    *" action=check "*)                        want="check-passed check-as-expected" ;;
    *" action=standby "*|*" action=suspend "*) want="standby-returned" ;;
    *" action=reboot "*)                       want="reset" ;;
    *" action=dump "*)                         want="dump-complete" ;;
    *" selftest="[iec]*)                       want="selftest-complete cpu-exception" ;;
    *)                                         want="poweroff" ;;
esac
for w in $want; do
    [ "$w" = "$verdict" ] && exit 0
done
echo "qemu-smoke: expected $want; the serial log's last lines:" >&2
grep -a '^apmoff: ' "$serial" 2>/dev/null | tail -5 >&2
exit 1
