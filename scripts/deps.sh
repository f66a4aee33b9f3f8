#!/bin/sh
# Installs the Debian packages apmoff needs, when some are missing: on Debian 12
# (bookworm) and 13 (trixie) alike. Idempotent and quiet when everything is there;
# needs root (or sudo) only when it has something to install.
#
#   scripts/deps.sh [build|run|test] [PACKAGE...]
#
# build: what `make` needs to build the kernel and the images; run: that and QEMU
# (`make run`); test (the default): everything `make test`, `make docs` and
# `make bench` use. PACKAGE: more names for one script's own use
# (scripts/debian-root.sh asks for debootstrap).
set -eu

profile=test
case ${1:-} in build | run | test) profile=$1; shift ;; esac

build="make gcc binutils nasm python3 git grub-pc-bin grub-common grub-efi-amd64-bin
grub-efi-ia32-bin xorriso mtools console-setup-linux lz4"
run="qemu-system-x86 seabios"
test="bochs bochs-term bochsbios vgabios libcmocka-dev pkg-config ovmf ovmf-ia32
zbar-tools clang libclang-rt-dev zlib1g-dev pci.ids python3-pil syslinux isolinux
syslinux-common acpica-tools"
# Headless Chromium opens apmoff-collect's HTML report in its tests; hypothesis
# feeds its payload parser random input (tests/collect/test_hostile.py).
test="$test chromium python3-hypothesis"
# DOSBox-X (tests/emu/dosboxx.py) is packaged from Debian 13 on; on Debian 12 its
# cases are skipped, each saying why.
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") || codename=
case $codename in bookworm | "") ;; *) test="$test dosbox-x" ;; esac
# The libraries the 86Box kit's binary links against, when the kit is there
# (tests/emu/box86.py runs the real-BIOS cases with it).
kit_deps=$(dirname "$0")/../../shared/86box/deps.txt
[ -f "$kit_deps" ] && test="$test $(cat "$kit_deps")"

case $profile in
build) packages=$build ;;
run) packages="$build $run" ;;
test) packages="$build $run $test" ;;
esac
packages="$packages $*"

# A name is met when an installed package has it or provides it, as apt sees it:
# Debian 13 renamed libraries for the 64-bit time_t transition, and libpng16-16t64
# now provides libpng16-16.
missing=$(dpkg-query -W -f='${db:Status-Abbrev}|${Package}|${Provides}\n' 2>/dev/null |
	awk -F'|' -v want="$packages" '
	$1 ~ /^ii/ {
		have[$2] = 1
		n = split($3, p, ", *")
		for (i = 1; i <= n; i++) { sub(/ .*/, "", p[i]); have[p[i]] = 1 }
	}
	END {
		n = split(want, w, "[ \t\n]+")
		for (i = 1; i <= n; i++) if (w[i] != "" && !(w[i] in have)) printf " %s", w[i]
	}')
[ -z "$missing" ] && exit 0

echo "deps: installing$missing" >&2
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
