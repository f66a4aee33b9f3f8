#!/bin/sh
# Builds the hybrid ISO: boots with BIOS from a CD (El Torito), a USB stick or a hard
# disk (MBR), and with UEFI, x86_64 or ia32, from either (an El Torito EFI image that
# is also a GPT partition, appended after the ISO 9660 tree). One GRUB menu for all.
#
#   iso/mkiso.sh OUT.iso KERNEL.elf GRUB.cfg [LABEL]
#   APMOFF_EFI=0 iso/mkiso.sh ...   the BIOS part alone (make bench measures its size)
#
# Built from GRUB's own pieces, as grub-mkrescue would but leaner:
#  - BIOS: GRUB's El Torito core image (grub-mkimage -O i386-pc-eltorito), built
#    from GRUB's modules with the CR4 access of the multiboot hand-over removed
#    (iso/grub-no-cr4.py: a 386 or early 486 triple-faults there), with the menu's
#    modules (iso/menu.modules) embedded rather than installed as files, so GRUB opens
#    no module file on the disc (each open is a seek on a real drive) and the core is
#    compressed as a whole; boot_hybrid.img is the MBR for USB sticks.
#  - UEFI: iso/mkefiimg.sh's FAT image with both EFI loaders.
# No locales, themes or fonts.
#
# LABEL is the volume ID (default APMOFF; the Makefile gives scripts/version.sh's). With
# SOURCE_DATE_EPOCH set, as the Makefile sets it, every date in the image is that time
# (xorriso's own dates and the GPT GUIDs made from them, the tree's files, set below,
# and mtools' in the EFI image); -r records owner root and the modes set below, never
# the builder's: one commit, one image, byte for byte.
set -eu
# FAT and ISO 9660 record local time: the builder's time zone must not reach the image.
export TZ=UTC

out=$1
kernel=$2
cfg=$3
label=${4:-APMOFF}
here=$(dirname "$0")

modules=$(sed 's/#.*//' "$here/menu.modules")

stage=$(mktemp -d "${TMPDIR:-/tmp}/apmoff-iso.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM
root=$stage/root
mkdir -p "$root/boot/grub/i386-pc"
# GRUB's modules, with the multiboot hand-over fixed for CPUs without CR4
grub_pc=$stage/grub-i386-pc
"$here/grub-no-cr4.py" /usr/lib/grub/i386-pc "$grub_pc" 2>"$stage/log" ||
	{ cat "$stage/log" >&2; exit 1; }
# Without its symbol table (44 KiB: build/apmoff.map names every symbol): GRUB reads
# the whole file into its heap, which in a 3 MiB machine has no room for it.
objcopy --strip-all "$kernel" "$root/boot/apmoff.elf"
cp "$cfg" "$root/boot/grub/grub.cfg"

# shellcheck disable=SC2086
grub-mkimage -O i386-pc-eltorito -d "$grub_pc" -p /boot/grub -o "$root/boot/grub/i386-pc/eltorito.img" \
	biosdisk iso9660 $modules
efi_args=
if [ "${APMOFF_EFI:-1}" != 0 ]; then
	"$here/mkefiimg.sh" "$stage/efi.img"
	# The EFI image is appended after the ISO 9660 tree, as a GPT partition that the
	# El Torito EFI entry also points at: everything a BIOS boot reads then lies in the
	# first 400 KiB. BIOSes of the 1990s give INT 13h one cylinder less than the disk
	# has (the last was kept for diagnostics), so the image written to a disk of its
	# own size loses its last 504 KiB; with GRUB's files there, an ASUS PVI-486SP3
	# stopped at "grub>" (86Box).
	efi_args="-append_partition 2 C12A7328-F81F-11D2-BA4B-00A0C93EC93B $stage/efi.img
		-appended_part_as_gpt -eltorito-alt-boot -e --interval:appended_partition_2:all::
		-no-emul-boot"
fi

chmod -R u=rwX,go=rX "$root"      # the modes Rock Ridge records, whatever the umask
# xorriso dates what it makes itself at SOURCE_DATE_EPOCH, but records each file's and
# directory's own time: those become the commit's too.
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
	find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
fi

# The BIOS-only image is padded to whole cylinders of 16 heads x 63 sectors (504 KiB),
# the geometry BIOSes give a small USB disk: SeaBIOS reports a disk smaller than one
# cylinder as having none and will not boot it (xorriso aligns no image with an
# appended partition, which is larger anyway). After "--", xorriso's own commands:
# 32 KiB of padding instead of the 300 KiB default (GRUB reads the CD in 32 KiB blocks
# and fails on a file that ends within 32 KiB of the end of the medium).
# shellcheck disable=SC2086
xorriso -as mkisofs -quiet -r -J -V "$label" \
	-b boot/grub/i386-pc/eltorito.img -no-emul-boot -boot-load-size 4 -boot-info-table \
	--grub2-boot-info --grub2-mbr "$grub_pc/boot_hybrid.img" \
	$efi_args --protective-msdos-label \
	-partition_cyl_align on -partition_hd_cyl 16 -partition_sec_hd 63 \
	-o "$out.tmp" "$root" -- -padding 32k 2>"$stage/log" || { cat "$stage/log" >&2; exit 1; }
mv "$out.tmp" "$out"
