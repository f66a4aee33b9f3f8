#!/bin/sh
# Installs the Debian packages apmoff needs to build, run and test, when some are
# missing. Idempotent and quiet when everything is there; needs root (or sudo) only
# when it has something to install.
set -eu

packages="make gcc binutils nasm python3 grub-pc-bin grub-common xorriso mtools
qemu-system-x86 bochs bochs-term bochsbios vgabios seabios libcmocka-dev pkg-config
console-setup-linux ovmf ovmf-ia32 grub-efi-amd64-bin grub-efi-ia32-bin zbar-tools clang
libclang-rt-dev zlib1g-dev pci.ids python3-pil syslinux isolinux syslinux-common
acpica-tools git"

# The libraries the 86Box kit's binary links against, when the kit is there
# (tests/emu/box86.py runs the real-BIOS cases with it).
kit_deps=$(dirname "$0")/../../shared/86box/deps.txt
[ -f "$kit_deps" ] && packages="$packages $(cat "$kit_deps")"
# Headless Chromium opens apmoff-collect's HTML report in its tests; hypothesis
# feeds its payload parser random input (tests/collect/test_hostile.py).
packages="$packages chromium python3-hypothesis"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing" >&2
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
