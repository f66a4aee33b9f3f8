#!/bin/sh
# The version of apmoff, and the commit it is built from: one place for the kernel,
# the menu, the volume labels, apmoff-collect and make dist.
#
#   scripts/version.sh version   the release number, the file VERSION ("0.2")
#   scripts/version.sh commit    the commit's 40 hex digits, "-dirty" after them when
#                                tracked files differ from it; "unknown" without either
#                                git or a stamp
#   scripts/version.sh short     the commit's first 12 hex digits (and "-dirty"): what the
#                                kernel carries, in the survey JSON and so in its QR code,
#                                where each character costs
#   scripts/version.sh epoch     the commit's time in seconds since 1970: every date the
#                                images hold (SOURCE_DATE_EPOCH), so two builds of one
#                                commit are the same bytes
#   scripts/version.sh label     the volume label of the ISO and the floppies, "APMOFF_0_2":
#                                ISO 9660's d-characters (A-Z, 0-9, _), which FAT and DOS's
#                                LABEL take too (mtools makes a dot a "~"), in FAT's 11
#
# The version is the file, never `git describe`: an untagged commit is told apart by its
# commit, which the survey JSON carries beside the version. In a checkout the commit
# comes from git; in a source tarball (git archive), from scripts/archive-commit, which
# git archive fills in (.gitattributes: export-subst).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(tr -d ' \n' < "$root/VERSION")
stamp=$(cat "$root/scripts/archive-commit")

# git only where root is the top of a work tree (not a tarball unpacked inside another)
in_git() {
	top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null) && [ "$top" = "$root" ]
}

commit() {
	if in_git; then
		dirty=
		git -C "$root" diff --quiet HEAD -- 2>/dev/null || dirty=-dirty
		echo "$(git -C "$root" rev-parse HEAD)$dirty"
	else
		case $stamp in
		'$Format'*) echo unknown ;;
		*) echo "${stamp%% *}" ;;
		esac
	fi
}

epoch() {
	if in_git; then
		git -C "$root" log -1 --format=%ct HEAD
	else
		case $stamp in
		'$Format'*) stat -c %Y "$root/VERSION" ;;
		*) echo "${stamp##* }" ;;
		esac
	fi
}

case ${1:-} in
version) echo "$version" ;;
commit) commit ;;
short) commit | sed 's/^\([0-9a-f]\{12\}\)[0-9a-f]*/\1/' ;;
epoch) epoch ;;
label) echo "APMOFF_$version" | tr 'a-z.+-' 'A-Z___' | cut -c1-11 ;;
*) echo "usage: scripts/version.sh version|commit|short|epoch|label" >&2; exit 2 ;;
esac
