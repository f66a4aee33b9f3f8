#!/bin/sh
# Tries apmoff as a new user would on another Debian release: a minimal root made with
# debootstrap from Debian's archive, a fresh clone of this checkout's HEAD in it with
# ../shared beside it (read-only, as CI has it), and README's commands run inside.
#
#   scripts/debian-root.sh [-r RELEASE] [-d DIR] [--fresh] [COMMAND...]
#
#   -r RELEASE  the suite: trixie (Debian 13, the default) or bookworm (Debian 12)
#   -d DIR      where the root lives (default /var/tmp/apmoff-roots/RELEASE); made once
#               and reused, so a second run starts in seconds
#   --fresh     make the root again from the archive first
#   COMMAND     run in the clone instead of the default, which is README's set-up line
#               for a minimal system, then `make run` and `make test` (twice with
#               RUNS=2), each command's status printed as `debian-root: ... exit N`
#
# Needs root (debootstrap, chroot and bind mounts). The clone is made again on every
# run; the root keeps the packages scripts/deps.sh installed, as a user's machine
# would. Everything mounted is unmounted however the run ends; nothing outside DIR
# is written. Exit status: that of the last command, 2 on a usage or set-up error.
set -eu

release=trixie
dir=
fresh=0
while [ $# -gt 0 ]; do
	case $1 in
	-r) release=$2; shift 2 ;;
	-d) dir=$2; shift 2 ;;
	--fresh) fresh=1; shift ;;
	-h | --help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) echo "debian-root: unknown option $1 (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
case $release in
trixie | bookworm) ;;
*) echo "debian-root: release $release is not trixie or bookworm" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "debian-root: needs root (debootstrap, chroot, mount)" >&2; exit 2; }

top=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$top/.." && pwd)/shared
dir=${dir:-/var/tmp/apmoff-roots/$release}
"$top/scripts/deps.sh" debootstrap

# --- the root: debootstrap once, then reused ------------------------------------------
mounted=
unmount_all() {
	for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
	mounted=
}
trap unmount_all EXIT
trap 'exit 130' INT TERM

if [ $fresh = 1 ] && [ -d "$dir" ]; then
	# Only a root this script made, and nothing mounted in it, is ever removed.
	[ -f "$dir/.apmoff-root" ] || { echo "debian-root: $dir is not a root this script made" >&2; exit 2; }
	grep -q " $dir/" /proc/mounts && { echo "debian-root: something is mounted in $dir" >&2; exit 2; }
	rm -rf "$dir"
fi
if [ ! -f "$dir/.apmoff-root" ]; then
	echo "debian-root: making a minimal $release root in $dir (debootstrap, a few minutes)"
	mkdir -p "$dir"
	debootstrap --variant=minbase "$release" "$dir" http://deb.debian.org/debian >"$dir.log" 2>&1 ||
		{ tail -n 20 "$dir.log" >&2; echo "debian-root: debootstrap failed (log: $dir.log)" >&2; exit 2; }
	echo "$release $(date -u +%Y-%m-%dT%H:%MZ)" >"$dir/.apmoff-root"
fi
cp /etc/resolv.conf "$dir/etc/resolv.conf"

bind() {        # SOURCE TARGET [ro]
	mkdir -p "$2"
	mount --bind "$1" "$2"
	mounted="$2 $mounted"
	[ "${3:-}" != ro ] || mount -o remount,bind,ro "$2"
}
mount -t proc proc "$dir/proc" && mounted="$dir/proc $mounted"
mount -t sysfs sys "$dir/sys" && mounted="$dir/sys $mounted"
bind /dev "$dir/dev"
bind /dev/pts "$dir/dev/pts"
mount -t tmpfs tmpfs "$dir/tmp" && mounted="$dir/tmp $mounted"
[ -d "$shared" ] && bind "$shared" "$dir/work/shared" ro

# --- a fresh clone of HEAD, ../shared beside it ---------------------------------------
rm -rf "$dir/work/apmoff"
mkdir -p "$dir/work"
git -C "$top" rev-parse --verify -q HEAD >/dev/null || { echo "debian-root: no commit to clone" >&2; exit 2; }
git clone -q --no-hardlinks "$top" "$dir/work/apmoff"
echo "debian-root: $release root, clone of $(git -C "$top" rev-parse --short=12 HEAD)" \
	"$([ -d "$shared" ] && echo 'with ../shared beside it' || echo 'without ../shared')"

inside() {      # one command in the clone, its status reported
	echo "debian-root: \$ $*"
	set +e
	chroot "$dir" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c "cd /work/apmoff && $*" </dev/null
	status=$?
	set -e
	echo "debian-root: $* exit $status"
	return $status
}

if [ $# -gt 0 ]; then
	inside "$*"
	exit $?
fi
# README's first line for a minimal system, then its two commands. make test runs
# RUNS times (a flaky case must show itself).
inside "apt-get update -qq && apt-get install -y -qq make git >/dev/null"
inside "make run"
status=0
for n in $(seq "${RUNS:-1}"); do
	inside "make test" || status=$?
done
exit $status
