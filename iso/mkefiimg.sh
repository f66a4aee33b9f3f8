#!/bin/sh
# Builds the EFI system partition image of the hybrid ISO: a small FAT image holding
# GRUB for x86_64 UEFI (EFI/BOOT/BOOTX64.EFI) and for ia32 UEFI (EFI/BOOT/BOOTIA32.EFI),
# each with its modules built in and an early configuration that finds the medium and
# reads the same /boot/grub/grub.cfg as the BIOS side (which loads the kernel with
# multiboot2 there: GRUB on EFI has no multiboot 1).
#
#   iso/mkefiimg.sh OUT.img
#
# Built with GRUB's own grub-mkimage and mtools: no loop devices, no root.
set -eu
# FAT and ISO 9660 record local time: the builder's time zone must not reach the image.
export TZ=UTC

out=$1
here=$(dirname "$0")
# The menu's modules, the drivers to find the medium from EFI, and the GOP/UGA video
# drivers that give the kernel the framebuffer it asks for.
modules="$(sed 's/#.*//' "$here/menu.modules") search search_fs_file iso9660
part_gpt part_msdos fat efi_gop efi_uga video video_fb"

work=$(mktemp -d "${TMPDIR:-/tmp}/apmoff-efi.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

cat > "$work/early.cfg" <<'CFG'
search --no-floppy --set=root --file /boot/apmoff.elf
set prefix=($root)/boot/grub
CFG

# shellcheck disable=SC2086
grub-mkimage -O x86_64-efi -p /boot/grub -c "$work/early.cfg" -o "$work/BOOTX64.EFI" $modules
# shellcheck disable=SC2086
grub-mkimage -O i386-efi -p /boot/grub -c "$work/early.cfg" -o "$work/BOOTIA32.EFI" $modules

# FAT needs a little room for its own tables: the loaders plus 64 KiB, in 1 KiB blocks.
kib=$(( ( $(stat -c %s "$work/BOOTX64.EFI") + $(stat -c %s "$work/BOOTIA32.EFI") ) / 1024 + 64 ))
dd if=/dev/zero of="$out.tmp" bs=1024 count="$kib" status=none
mformat -i "$out.tmp" -N 0 ::
mmd -i "$out.tmp" ::/EFI ::/EFI/BOOT
mcopy -i "$out.tmp" "$work/BOOTX64.EFI" "$work/BOOTIA32.EFI" ::/EFI/BOOT/
mv "$out.tmp" "$out"
