#!/bin/sh
# Builds a bootable floppy image around the kernel: apmoff's own loader (loader/) on a
# FAT12 disk, with mtools: no loop device, no mount, no root.
#
#   iso/mkfloppy.sh OUT.img KERNEL.elf GRUB.cfg [FORMAT [LABEL]]
#
# FORMAT is the medium, in KB: 1440 (3.5" HD, the default), 1200 (5.25" HD), 720
# (3.5" DD) or 360 (5.25" DD). GRUB.cfg is a GRUB menu, the ISO's or a user's own:
# iso/mkmenu.py turns it into the loader's menu file. LABEL is the volume label
# (default APMOFF). The loader's two parts come from build/loader/ (make loader), or
# from the folder APMOFF_LOADER names. The image is built in a scratch directory,
# checked, and only then moved to OUT: a failed build leaves no OUT at all, never a
# truncated one. The volume serial is fixed, and mtools dates every entry at
# SOURCE_DATE_EPOCH when it is set (the Makefile sets it to the commit's time): one
# commit, one image, byte for byte.
#
# The layout, the same for every format:
#   sector 0            the boot sector (loader/bootsect.asm), with the BPB mformat
#                       writes for the format: the medium's own geometry, which the
#                       loader trusts over the drive's (a 720 KB disk in a 1.44 MB drive)
#   sectors 1-N         reserved: the loader's second stage (build/loader/stage2.bin),
#                       which the boot sector reads by the BPB's reserved count
#   FAT12               /boot/apmoff.lz4   the kernel, stripped of its symbols and
#                                          LZ4-packed (lz4 -12, with its size and
#                                          checksum): two thirds of the sectors to read
#                       /boot/menu.cfg     the menu (loader/menu.h), plain text: DOS's
#                                          EDIT can change it
# The loader finds both files by name through the FAT, so they may be replaced from
# DOS (a new kernel: any multiboot 1 ELF, LZ4-packed or not).
set -eu
# FAT records local time: the builder's time zone must not reach the image.
export TZ=UTC

out=$1
kernel=$2
cfg=$3
format=${4:-1440}
label=${5:-APMOFF}

here=$(dirname "$0")
loader=${APMOFF_LOADER:-$here/../build/loader}
name=$(basename "$out")
die() { echo "mkfloppy: $name: $*" >&2; exit 1; }

# The medium: tracks, sectors a track (two heads), FAT media descriptor.
case $format in
1440) tracks=80 spt=18 media=f0 ;;
1200) tracks=80 spt=15 media=f9 ;;
720)  tracks=80 spt=9  media=f9 ;;
360)  tracks=40 spt=9  media=fd ;;
*) die "format $format is not one of 1440, 1200, 720, 360" ;;
esac
heads=2
floppy_bytes=$((tracks * heads * spt * 512))

for f in "$loader/bootsect.bin" "$loader/stage2.bin"; do
	[ -f "$f" ] || die "the loader's $(basename "$f") is missing (make loader)"
done

# Little-endian unsigned integers in and out of the image.
u16() { set -- $(od -An -tu1 -j"$1" -N2 "$img"); echo $(($1 + 256 * $2)); }
u8() { od -An -tu1 -j"$1" -N1 "$img" | tr -d ' '; }
put8() { printf "$(printf '\\%03o' "$2")" | dd of="$img" bs=1 seek="$1" conv=notrunc status=none; }
kib() { echo $((($1 + 1023) / 1024)); }

rm -f "$out"
stage=$(mktemp -d "${TMPDIR:-/tmp}/apmoff-fd.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM
img=$stage/floppy.img

# The files: the kernel without symbols, LZ4-packed; the menu.
objcopy --strip-all "$kernel" "$stage/apmoff.elf" 2>"$stage/log" ||
	die "the kernel cannot be stripped: $(cat "$stage/log")"
lz4 -12 -q --content-size "$stage/apmoff.elf" "$stage/apmoff.lz4" 2>"$stage/log" ||
	die "the kernel cannot be packed: $(cat "$stage/log")"
"$here/mkmenu.py" "$cfg" /boot/apmoff.lz4 >"$stage/menu.cfg" 2>"$stage/log" ||
	die "$(cat "$stage/log")"

# What the loader has room for (loader/main.c): the file at 20000h-4FFFFh, unpacked
# from 50000h up to the EBDA, which lies at 9FC00h on most machines.
FILE_MAX=196608
UNPACK_MAX=325632
packed=$(stat -c %s "$stage/apmoff.lz4")
unpacked=$(stat -c %s "$stage/apmoff.elf")
[ "$packed" -le $FILE_MAX ] && [ "$unpacked" -le $UNPACK_MAX ] ||
	die "the kernel does not fit the loader's room: it is $(kib "$unpacked") KiB," \
		"$(kib "$packed") KiB packed; the loader takes $((UNPACK_MAX / 1024)) KiB," \
		"$((FILE_MAX / 1024)) KiB packed"

stage2_sectors=$(($(stat -c %s "$loader/stage2.bin") / 512))
reserved=$((1 + stage2_sectors))

# mformat keeps our boot sector and writes only the BPB into it (-B). mformat marks a
# format with extra reserved sectors F0h; DOS before 3.2 goes by the media
# descriptor, so it gets the standard one (BPB and each FAT's first byte).
export MTOOLS_SKIP_CHECK=1
mformat -i "$img" -C -f "$format" -R $reserved -B "$loader/bootsect.bin" -v "$label" \
	-N 0a9d0ff0 ::
size=$(stat -c %s "$img")
[ "$size" -eq $floppy_bytes ] || die "mformat made $size bytes, not $floppy_bytes"
dd if="$loader/stage2.bin" of="$img" bs=512 seek=1 conv=notrunc status=none
fat_sectors=$(u16 22)
put8 21 $((0x$media))
put8 $((reserved * 512)) $((0x$media))
put8 $(((reserved + fat_sectors) * 512)) $((0x$media))
mmd -i "$img" ::/boot

# Room: every file takes whole clusters. Said before copying, with the numbers.
cluster=$(($(u8 13) * 512))
free=$(mdir -i "$img" ::/ | sed -n 's/^ *\([0-9 ]*\) bytes free$/\1/p' | tr -d ' ')
need=0
list=""
for f in apmoff.lz4 menu.cfg; do
	bytes=$(stat -c %s "$stage/$f")
	need=$((need + (bytes + cluster - 1) / cluster * cluster))
	list="$list, $f $(kib "$bytes") KiB"
done
[ "$need" -le "$free" ] ||
	die "does not fit the $format KB format: its files need $(kib "$need") KiB of" \
		"clusters (${list#, }), the disk has $(kib "$free") KiB for files"
# Into the empty data area, in the order the loader reads them: the menu next to the
# directories, then the kernel, one run of clusters, read a cylinder at a time.
mcopy -i "$img" "$stage/menu.cfg" ::/boot/menu.cfg
mcopy -i "$img" "$stage/apmoff.lz4" ::/boot/apmoff.lz4

# What the boot sector relies on, checked on the image itself.
[ "$(stat -c %s "$img")" -eq $floppy_bytes ] || die "the image is not $floppy_bytes bytes"
[ "$(od -An -tx1 -j510 -N2 "$img" | tr -d ' ')" = 55aa ] || die "no boot signature"
[ "$(od -An -tx1 -j21 -N1 "$img" | tr -d ' ')" = $media ] || die "media descriptor"
[ "$(u16 11)" -eq 512 ] && [ "$(u16 14)" -eq $reserved ] && [ "$(u16 24)" -eq $spt ] &&
	[ "$(u16 26)" -eq $heads ] || die "the BPB does not give the $format KB geometry"
cmp -s -n $((stage2_sectors * 512)) "$loader/stage2.bin" "$img" -i 0:512 ||
	die "the second stage is not in sectors 1-$stage2_sectors"
mshowfat -i "$img" ::/boot/apmoff.lz4 | grep -q '<[0-9]*\(-[0-9]*\)\{0,1\}>$' ||
	die "the kernel's clusters are not one run"

left=$(mdir -i "$img" ::/ | sed -n 's/^ *\([0-9 ]*\) bytes free$/\1/p' | tr -d ' ')
echo "mkfloppy: $name: $format KB: $((left / 1024)) KiB free (kernel" \
	"$(kib "$(stat -c %s "$stage/apmoff.lz4")") KiB packed, loader" \
	"$(kib $((stage2_sectors * 512 + 512))) KiB)"
mv "$img" "$out"
