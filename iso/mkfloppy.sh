#!/bin/sh
# Builds a bootable floppy image (GRUB i386-pc, FAT12) around the kernel, with GRUB's
# own tools and mtools: no loop device, no mount, no root.
#
#   iso/mkfloppy.sh OUT.img KERNEL.elf GRUB.cfg [FORMAT [LABEL]]
#
# FORMAT is the medium, in KB: 1440 (3.5" HD, the default), 1200 (5.25" HD), 720
# (3.5" DD) or 360 (5.25" DD). The image is built in a scratch directory, checked, and
# only then moved to OUT: a failed build leaves no OUT at all, never a truncated one.
# LABEL is the volume label (default APMOFF). The volume serial is fixed, and mtools
# dates every entry at SOURCE_DATE_EPOCH when it is set (the Makefile sets it to the
# commit's time): one commit, one image, byte for byte.
#
# Two layouts. GRUB's boot sector (boot.img, grub-core/boot/i386/pc/boot.S) and the
# core's first sector (diskboot.img, diskboot.S) read the core by block lists of LBAs,
# turned into cylinder/head/sector with a geometry that boot.S asks the BIOS for once
# (INT 13h AH=08h) and keeps in its own sector in memory, 7C04h-7C0Eh, where diskboot
# reads it. For a diskette AH=08h answers the DRIVE's largest format, not the
# medium's: 18 sectors a track for a 3.5" HD drive, 15 for a 5.25" HD drive (boot.S's
# own probe of the medium, reading sector 36, 18, 15, 9 of track 0, runs only when
# AH=08h fails). A 720 KB disk in a 1.44 MB drive or a 360 KB disk in a 1.2 MB drive,
# 9 sectors a track, is then read at sectors 10-18 that do not exist, or at the wrong
# track: the core never loads. GRUB's biosdisk.mod asks AH=08h the same way.
#
# "file" layout (1440, 1200: media only ever read in a drive of their own format):
#   sector 0   GRUB's boot.img, with the FAT12 BIOS parameter block that mformat writes
#              into bytes 0x0b-0x3d (boot.img keeps 0x03-0x59 free and jumps over them)
#   FAT12      /boot/grub/core.img  GRUB's core image: diskboot.img, then the compressed
#                                   kernel and the modules (iso/menu.modules, biosdisk,
#                                   fat), copied first into the empty filesystem, so its
#                                   clusters are contiguous
#              /boot/grub/grub.cfg  the ISO's menu
#              /boot/apmoff.elf
#   boot.img's kernel_sector names core.img's first sector (diskboot.img), and
#   diskboot.img's list names the rest, as grub-setup does. The core's prefix,
#   /boot/grub without a device, makes GRUB take its root from the drive the BIOS
#   booted (fd0), and normal.mod then reads /boot/grub/grub.cfg.
#
# "geometry-proof" layout (720, 360: 9-sector media that also sit in drives of 15, 18
# or 36 sectors a track). Track 0, head 0 reads the same whatever geometry is kept
# (LBA n is sector n+1 there), and everything else is read with the medium's own:
#   sector 0   boot.img + BPB; its kernel_sector is 1
#   sector 1   (reserved) the core's diskboot.img, whose block lists say: first
#              sector 2, one sector, to 07C0:0000; then the rest of core.img
#   sector 2   (reserved) the geometry sector: sector 0 as boot.S leaves it in memory
#              on a drive of the medium's own format, its kept geometry (7C04h mode 0
#              = CHS, 7C05h sectors a track, 7C09h heads, 7C0Dh cylinders) the
#              medium's. Loaded over 7C00h, it replaces the drive's geometry before
#              diskboot reads the first sector past track 0.
#   FAT12      /boot/grub/core.img, contiguous, holding grub.cfg and apmoff.elf in a
#              memdisk (prefix (memdisk)/boot/grub): once the core runs, GRUB reads
#              nothing more from the diskette, so biosdisk's view of the drive no
#              longer matters (the core has no biosdisk or fat module).
#
# If core.img is ever moved (a defragmenter), rebuild the image.
set -eu
# FAT and ISO 9660 record local time: the builder's time zone must not reach the image.
export TZ=UTC

out=$1
kernel=$2
cfg=$3
format=${4:-1440}
label=${5:-APMOFF}

here=$(dirname "$0")
name=$(basename "$out")
die() { echo "mkfloppy: $name: $*" >&2; exit 1; }

# The medium: tracks, sectors a track (two heads), FAT media descriptor, layout.
case $format in
1440) tracks=80 spt=18 media=f0 layout=file ;;
1200) tracks=80 spt=15 media=f9 layout=file ;;
720)  tracks=80 spt=9  media=f9 layout=geometry-proof ;;
360)  tracks=40 spt=9  media=fd layout=geometry-proof ;;
*) die "format $format is not one of 1440, 1200, 720, 360" ;;
esac
heads=2
floppy_bytes=$((tracks * heads * spt * 512))

# Offsets (GRUB include/grub/i386/pc/boot.h and diskboot.S)
KERNEL_SECTOR=92          # boot.img 0x5c: 8-byte LBA of core.img's first sector
BLOCKLIST_START=500       # diskboot.img 0x1f4: the first block list: 8-byte LBA, 2-byte
                          # sector count (grub-mkimage fills it in), 2-byte load segment;
                          # the next lists lie 12 bytes lower each, a count of 0 ends them
BLOCKLIST_SIZE=12
KEPT_GEOMETRY=4           # boot.img 0x04-0x0e in memory: mode (1 byte, 0 = CHS), sectors
                          # a track (4), heads (4), cylinders (2): boot.S's final_init
CORE_SEGMENT=2080         # 0820h: the core past diskboot.img, at 8200h
BOOT_SEGMENT=1984         # 07C0h: the boot sector's own place
LOAD_BUFFER=458752        # 70000h: diskboot reads into this buffer, then copies: the core
                          # must end below it
CORE_ADDRESS=32768        # 8000h: where diskboot.img runs

# Little-endian unsigned integers in and out of a file (default: the image).
u16() { set -- $(od -An -tu1 -j"$1" -N2 "${2:-$img}"); echo $(($1 + 256 * $2)); }
u8() { od -An -tu1 -j"$1" -N1 "${2:-$img}" | tr -d ' '; }
put() {             # OFFSET BYTES VALUE (below 2^32), into the image
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o\\000\\000\\000\\000' \
		$(($3 & 255)) $(($3 >> 8 & 255)) $(($3 >> 16 & 255)) $(($3 >> 24 & 255)))" |
		dd of="$img" bs=1 seek="$1" count="$2" conv=notrunc status=none
}
put_le64() { put "$1" 8 "$2"; }
put_list() {        # SECTOR LIST_NUMBER LBA COUNT SEGMENT: a diskboot block list
	at=$(($1 * 512 + BLOCKLIST_START - $2 * BLOCKLIST_SIZE))
	put_le64 "$at" "$3"
	put $((at + 8)) 2 "$4"
	put $((at + 10)) 2 "$5"
}
check_list() {      # SECTOR LIST_NUMBER LBA COUNT SEGMENT: the list says exactly that
	at=$(($1 * 512 + BLOCKLIST_START - $2 * BLOCKLIST_SIZE))
	if ! { [ "$(u16 "$at")" -eq "$3" ] && [ "$(u16 $((at + 2)))" -eq 0 ] &&
		[ "$(u16 $((at + 8)))" -eq "$4" ] && [ "$(u16 $((at + 10)))" -eq "$5" ]; }; then
		die "diskboot's block list $2 in sector $1 is not LBA $3, $4 sectors to $5"
	fi
}
kib() { echo $((($1 + 1023) / 1024)); }

rm -f "$out"
stage=$(mktemp -d "${TMPDIR:-/tmp}/apmoff-fd.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM
img=$stage/floppy.img

# GRUB's modules, with the multiboot hand-over fixed for CPUs without CR4
# (iso/grub-no-cr4.py)
grub=$stage/grub-i386-pc
"$here/grub-no-cr4.py" /usr/lib/grub/i386-pc "$grub" 2>"$stage/log" ||
	{ cat "$stage/log" >&2; exit 1; }

menu_modules=$(sed 's/#.*//' "$here/menu.modules")
mkimage() {         # grub-mkimage ARGS... MODULES: $stage/core.img, or a clear failure
	grub-mkimage -O i386-pc -d "$grub" -o "$stage/core.img" "$@" 2>"$stage/log" ||
		die "GRUB's core image cannot be made for the $format KB format: $(cat "$stage/log")"
}
if [ $layout = file ]; then
	reserved=1
	# shellcheck disable=SC2086
	mkimage -p /boot/grub biosdisk fat $menu_modules
	files="$stage/core.img:core.img $cfg:grub.cfg $kernel:apmoff.elf"
else
	reserved=3
	mkdir -p "$stage/memdisk/boot/grub"
	cp "$cfg" "$stage/memdisk/boot/grub/grub.cfg"
	cp "$kernel" "$stage/memdisk/boot/apmoff.elf"
	(cd "$stage/memdisk" && tar -cf ../memdisk.tar --owner=0 --group=0 --numeric-owner \
		--mtime=@0 --sort=name --mode=u=rwX,go=rX boot)
	# shellcheck disable=SC2086
	mkimage -p '(memdisk)/boot/grub' -m "$stage/memdisk.tar" memdisk tar $menu_modules
	files="$stage/core.img:core.img"
fi
core_bytes=$(stat -c %s "$stage/core.img")
core_sectors=$(( (core_bytes + 511) / 512 ))
[ $((CORE_ADDRESS + core_sectors * 512)) -le $LOAD_BUFFER ] ||
	die "core.img ($(kib "$core_bytes") KiB) does not fit below diskboot's buffer at 70000h"

# mformat keeps boot.img and writes only the BPB into it (-B). The boot drive check
# stays the jump boot.img ships with: on a floppy, %dl is trusted as the BIOS gave it.
# mformat marks a format with extra reserved sectors F0h; DOS before 3.2 goes by the
# media descriptor, so it gets the standard one (BPB and each FAT's first byte).
export MTOOLS_SKIP_CHECK=1
# shellcheck disable=SC2046
mformat -i "$img" -C -f "$format" $([ $reserved -eq 1 ] || echo -R $reserved) \
	-B "$grub/boot.img" -v "$label" -N 0a9d0ff0 ::
size=$(stat -c %s "$img")
[ "$size" -eq $floppy_bytes ] || die "mformat made $size bytes, not $floppy_bytes"
fat_sectors=$(u16 22)
put 21 1 $((0x$media))
put $((reserved * 512)) 1 $((0x$media))
put $(((reserved + fat_sectors) * 512)) 1 $((0x$media))
mmd -i "$img" ::/boot ::/boot/grub

# Room: every file takes whole clusters. Said before copying, with the numbers.
cluster=$(($(u8 13) * 512))
free=$(mdir -i "$img" ::/ | sed -n 's/^ *\([0-9 ]*\) bytes free$/\1/p' | tr -d ' ')
need=0
list=""
for f in $files; do
	bytes=$(stat -c %s "${f%%:*}")
	need=$((need + (bytes + cluster - 1) / cluster * cluster))
	list="$list, ${f##*:} $(kib "$bytes") KiB"
done
[ "$need" -le "$free" ] ||
	die "does not fit the $format KB format: its files need $(kib "$need") KiB of" \
		"clusters (${list#, }), the disk has $(kib "$free") KiB for files"

# core.img first: into the empty data area, so its clusters are one run.
for f in $files; do
	case ${f##*:} in
	apmoff.elf) mcopy -i "$img" "${f%%:*}" ::/boot/apmoff.elf ;;
	*) mcopy -i "$img" "${f%%:*}" "::/boot/grub/${f##*:}" ;;
	esac
done

# Where core.img landed: its cluster chain must be one run, "<first-last>".
chain=$(mshowfat -i "$img" ::/boot/grub/core.img | sed -n 's/.*<\([0-9]*\)-\([0-9]*\)>$/\1 \2/p')
[ -n "$chain" ] || die "core.img is not contiguous"
set -- $chain
first_cluster=$1
# BPB: 0x0b bytes per sector, 0x0d sectors per cluster, 0x0e reserved sectors,
# 0x10 number of FATs, 0x11 root directory entries, 0x16 sectors per FAT.
[ "$(u16 11)" -eq 512 ] || die "sectors are not 512 bytes"
data=$(( $(u16 14) + $(u8 16) * $(u16 22) + $(u16 17) * 32 / 512 ))
core_lba=$(( data + (first_cluster - 2) * $(u8 13) ))
cmp -s -n 512 "$stage/core.img" "$img" -i 0:$((core_lba * 512)) ||
	die "core.img is not at sector $core_lba"
[ "$(u16 $((core_lba * 512 + BLOCKLIST_START + 8)))" -eq $((core_sectors - 1)) ] ||
	die "diskboot.img's block list does not cover core.img"

if [ $layout = file ]; then
	put_le64 $KERNEL_SECTOR $core_lba
	put_le64 $((core_lba * 512 + BLOCKLIST_START)) $((core_lba + 1))
	check_list "$core_lba" 0 $((core_lba + 1)) $((core_sectors - 1)) $CORE_SEGMENT
	[ "$(u16 $KERNEL_SECTOR)" -eq "$core_lba" ] || die "boot.img does not name core.img"
else
	# Sector 1: diskboot.img with two lists, the geometry sector, then the core.
	dd if="$stage/core.img" of="$img" bs=512 seek=1 count=1 conv=notrunc status=none
	for lba in 1 $core_lba; do
		put_list "$lba" 0 2 1 $BOOT_SEGMENT
		put_list "$lba" 1 $((core_lba + 1)) $((core_sectors - 1)) $CORE_SEGMENT
		check_list "$lba" 0 2 1 $BOOT_SEGMENT
		check_list "$lba" 1 $((core_lba + 1)) $((core_sectors - 1)) $CORE_SEGMENT
		[ "$(u16 $((lba * 512 + BLOCKLIST_START - 2 * BLOCKLIST_SIZE + 8)))" -eq 0 ] ||
			die "diskboot's block lists in sector $lba do not end after two"
	done
	cmp -s -n 512 "$img" "$img" -i $((core_lba * 512)):512 ||
		die "sector 1 is not core.img's first sector"
	put_le64 $KERNEL_SECTOR 1
	[ "$(u16 $KERNEL_SECTOR)" -eq 1 ] || die "boot.img does not name sector 1"
	# Sector 2: sector 0 with the medium's geometry where boot.S keeps the drive's.
	dd if="$img" of="$img" bs=512 count=1 seek=2 conv=notrunc status=none
	put $((1024 + KEPT_GEOMETRY)) 1 0
	put $((1024 + KEPT_GEOMETRY + 1)) 4 $spt
	put $((1024 + KEPT_GEOMETRY + 5)) 4 $heads
	put $((1024 + KEPT_GEOMETRY + 9)) 2 $tracks
	if ! { [ "$(u16 1029)" -eq $spt ] && [ "$(u16 1033)" -eq $heads ] &&
		[ "$(u16 1037)" -eq $tracks ]; }; then
		die "the geometry sector does not keep $spt sectors, $heads heads, $tracks cylinders"
	fi
	# Both reserved sectors lie on track 0, head 0 of every format (9 sectors or more).
	[ $reserved -le 9 ] || die "the reserved sectors leave track 0"
fi

size=$(stat -c %s "$img")
[ "$size" -eq $floppy_bytes ] || die "the image is $size bytes, not $floppy_bytes"
[ "$(od -An -tx1 -j510 -N2 "$img" | tr -d ' ')" = 55aa ] || die "no boot signature"
[ "$(od -An -tx1 -j21 -N1 "$img" | tr -d ' ')" = $media ] || die "media descriptor"
left=$(mdir -i "$img" ::/ | sed -n 's/^ *\([0-9 ]*\) bytes free$/\1/p' | tr -d ' ')
if [ $layout = file ]; then
	echo "mkfloppy: $name: $format KB, $layout layout: $((left / 1024)) KiB free"
else
	# The kernel grows inside the core, which must also end below diskboot's buffer.
	room=$((LOAD_BUFFER - CORE_ADDRESS - core_sectors * 512))
	[ $room -lt "$left" ] && free=$room || free=$left
	echo "mkfloppy: $name: $format KB, $layout layout: $((free / 1024)) KiB free" \
		"(core.img $(kib "$core_bytes") KiB, with the kernel, may grow by" \
		"$((room / 1024)) KiB; the disk has $((left / 1024)) KiB free)"
fi
mv "$img" "$out"
