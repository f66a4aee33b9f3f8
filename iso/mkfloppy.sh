#!/bin/sh
# Builds a bootable 1.44 MB floppy image (GRUB i386-pc, FAT12) around the kernel, with
# GRUB's own tools and mtools: no loop device, no mount, no root.
#
#   iso/mkfloppy.sh OUT.img KERNEL.elf GRUB.cfg
#
# Layout, as GRUB's own grub-install lays out a floppy with a filesystem:
#   sector 0   GRUB's boot.img, with the FAT12 BIOS parameter block that mformat writes
#              into bytes 0x0b-0x3d (boot.img keeps 0x03-0x59 free and jumps over them)
#   FAT12      /boot/grub/core.img  GRUB's core image: diskboot.img, then the compressed
#                                   kernel and the modules (iso/menu.modules, biosdisk,
#                                   fat), copied first into the empty filesystem, so its
#                                   clusters are contiguous
#              /boot/grub/grub.cfg  the ISO's menu
#              /boot/apmoff.elf
# Then two block lists are patched, as grub-setup does: boot.img's kernel_sector names
# core.img's first sector (diskboot.img), and diskboot.img's list names the rest. The
# core could not sit in FAT's reserved sectors instead: it needs about 290 of them and
# mformat -R takes at most 255. The core's prefix, /boot/grub without a device, makes
# GRUB take its root from the drive the BIOS booted (fd0), and normal.mod then reads
# /boot/grub/grub.cfg. If core.img is ever moved (a defragmenter), rebuild the image.
set -eu

out=$1
kernel=$2
cfg=$3

modules="biosdisk fat $(sed 's/#.*//' "$(dirname "$0")/menu.modules")"
floppy_bytes=1474560

# Offsets (GRUB include/grub/i386/pc/boot.h and diskboot.S)
KERNEL_SECTOR=92          # boot.img 0x5c: 8-byte LBA of core.img's first sector
BLOCKLIST_START=500       # diskboot.img 0x1f4: 8-byte LBA of the sectors that follow it
                          # (then a 2-byte count, which grub-mkimage fills in, and a
                          # 2-byte load segment)

# Little-endian unsigned integers in and out of the image.
u16() { set -- $(od -An -tu1 -j"$1" -N2 "$img"); echo $(($1 + 256 * $2)); }
u8() { od -An -tu1 -j"$1" -N1 "$img" | tr -d ' '; }
put_le64() {        # OFFSET VALUE (below 2^32)
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o\\000\\000\\000\\000' \
		$(($2 & 255)) $(($2 >> 8 & 255)) $(($2 >> 16 & 255)) $(($2 >> 24 & 255)))" |
		dd of="$img" bs=1 seek="$1" conv=notrunc status=none
}

stage=$(mktemp -d "${TMPDIR:-/tmp}/apmoff-fd.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM
img=$stage/apmoff.img

# GRUB's modules, with the multiboot hand-over fixed for CPUs without CR4
# (iso/grub-no-cr4.py)
grub=$stage/grub-i386-pc
"$(dirname "$0")/grub-no-cr4.py" /usr/lib/grub/i386-pc "$grub" 2>"$stage/log" ||
	{ cat "$stage/log" >&2; exit 1; }

# shellcheck disable=SC2086
grub-mkimage -O i386-pc -d "$grub" -p /boot/grub -o "$stage/core.img" $modules
core_sectors=$(( ($(stat -c %s "$stage/core.img") + 511) / 512 ))

# mformat keeps boot.img and writes only the BPB into it (-B). The boot drive check
# stays the jump boot.img ships with: on a floppy, %dl is trusted as the BIOS gave it.
export MTOOLS_SKIP_CHECK=1
mformat -i "$img" -C -f 1440 -B "$grub/boot.img" -v APMOFF -N 0a9d0ff0 ::
mmd -i "$img" ::/boot ::/boot/grub
mcopy -i "$img" "$stage/core.img" ::/boot/grub/core.img
mcopy -i "$img" "$cfg" ::/boot/grub/grub.cfg
mcopy -i "$img" "$kernel" ::/boot/apmoff.elf

# Where core.img landed: its cluster chain must be one run, "<first-last>".
chain=$(mshowfat -i "$img" ::/boot/grub/core.img | sed -n 's/.*<\([0-9]*\)-\([0-9]*\)>$/\1 \2/p')
[ -n "$chain" ] || { echo "mkfloppy: core.img is not contiguous" >&2; exit 1; }
set -- $chain
first_cluster=$1
# BPB: 0x0b bytes per sector, 0x0d sectors per cluster, 0x0e reserved sectors,
# 0x10 number of FATs, 0x11 root directory entries, 0x16 sectors per FAT.
[ "$(u16 11)" -eq 512 ] || { echo "mkfloppy: sectors are not 512 bytes" >&2; exit 1; }
data=$(( $(u16 14) + $(u8 16) * $(u16 22) + $(u16 17) * 32 / 512 ))
core_lba=$(( data + (first_cluster - 2) * $(u8 13) ))
cmp -s -n 512 "$stage/core.img" "$img" -i 0:$((core_lba * 512)) ||
	{ echo "mkfloppy: core.img is not at sector $core_lba" >&2; exit 1; }

[ "$(u16 $((core_lba * 512 + BLOCKLIST_START + 8)))" -eq $((core_sectors - 1)) ] ||
	{ echo "mkfloppy: diskboot.img's block list does not cover core.img" >&2; exit 1; }
put_le64 $KERNEL_SECTOR $core_lba
put_le64 $((core_lba * 512 + BLOCKLIST_START)) $((core_lba + 1))

size=$(stat -c %s "$img")
[ "$size" -eq $floppy_bytes ] || { echo "mkfloppy: $img is $size bytes" >&2; exit 1; }
[ "$(od -An -tx1 -j510 -N2 "$img" | tr -d ' ')" = 55aa ] ||
	{ echo "mkfloppy: no boot signature" >&2; exit 1; }
mv "$img" "$out"
