#!/bin/sh
# Builds a bootable GRUB (i386-pc, El Torito) ISO around the kernel.
#
#   iso/mkiso.sh OUT.iso KERNEL.elf GRUB.cfg
#
# Only the GRUB modules the menu needs are installed, and no locales, themes or fonts,
# which keeps the image small.
set -eu

out=$1
kernel=$2
cfg=$3

modules="multiboot multiboot2 normal serial terminal echo test configfile"

stage=$(mktemp -d "${TMPDIR:-/tmp}/apmoff-iso.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM
mkdir -p "$stage/boot/grub"
cp "$kernel" "$stage/boot/apmoff.elf"
cp "$cfg" "$stage/boot/grub/grub.cfg"

grub-mkrescue --quiet --directory=/usr/lib/grub/i386-pc \
	--install-modules="$modules" --locales= --themes= --fonts= --compress=xz \
	-o "$out.tmp" "$stage" 2>"$stage/log" || { cat "$stage/log" >&2; exit 1; }
mv "$out.tmp" "$out"
