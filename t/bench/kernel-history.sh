#!/bin/bash
# A real history for the benchmark: the Linux kernel sources of several
# Debian point releases of linux-source-6.1, one commit per release, as the
# kernel's pre-git history was built from its release tarballs.
#
#   bash t/bench/kernel-history.sh [--fetch] DEST VERSION...
#
# VERSIONs are Debian versions of linux-source-6.1, oldest first;
# `apt-cache madison linux-source-6.1` lists those the mirror has (on
# 2026-12-03: 6.1.170-3 6.1.176-1 6.1.187-1 6.1.190-1 6.1.192-3 and a few
# -1/-2 revisions of the same upstream releases).  Each needs its .deb
# (about 140 MB) in $KERNEL_DEBS (default /var/tmp/tokstream-bench/debs);
# with --fetch the missing ones are downloaded there with
#     apt-get download linux-source-6.1=VERSION
# The installed version (apt-get install linux-source-6.1) needs no .deb:
# its /usr/src/linux-source-6.1.tar.xz is used.
#
# DEST becomes a bare repository with branch main, one commit and one
# tag (v6.1.N) per release.  Every file of the tarball is committed (with
# add -f: the kernel tracks some files its .gitignore matches).  The author
# date is the upstream release's, read from the tarball (Debian keeps the
# file times of the upstream tag on the files it does not patch: the time
# most files have); the committer and committer date are
# those of the Debian upload, from the package's changelog.  The history is
# packed at the end, as a real clone is.  DEST must not exist; it is built
# in DEST.tmp and renamed, so a half-built history is never taken for one.
#
# Time on the 2-core machine: about a minute per release, plus the repack.
set -euo pipefail

fetch=
if [ "${1:-}" = --fetch ]; then
	fetch=1
	shift
fi
if [ $# -lt 2 ]; then
	echo "usage: kernel-history.sh [--fetch] DEST VERSION..." >&2
	exit 129
fi
dest=$1
shift
debs=${KERNEL_DEBS:-/var/tmp/tokstream-bench/debs}
pkg=linux-source-6.1

for tool in git dpkg-deb xz tar zcat; do
	command -v $tool >/dev/null || { echo "kernel-history.sh: $tool is missing (apt-get install -y git dpkg xz-utils tar gzip)" >&2; exit 2; }
done
[ ! -e "$dest" ] || { echo "kernel-history.sh: $dest exists" >&2; exit 2; }

installed=$(dpkg-query -W -f='${Version}' $pkg 2>/dev/null || true)

# Finds the tarball and changelog of VERSION; prints "TARBALL CHANGELOG".
sources_of() {
	local v=$1 deb=$debs/${pkg}_${1}_all.deb x
	if [ ! -f "$deb" ] && [ "$v" = "$installed" ] && [ -f /usr/src/$pkg.tar.xz ]; then
		echo "/usr/src/$pkg.tar.xz /usr/share/doc/$pkg/changelog.Debian.gz"
		return
	fi
	if [ ! -f "$deb" ]; then
		if [ -z "$fetch" ]; then
			echo "kernel-history.sh: $deb is missing; run with --fetch, or: (cd $debs && apt-get download $pkg=$v)" >&2
			exit 2
		fi
		mkdir -p "$debs"
		(cd "$debs" && apt-get download "$pkg=$v") >&2
	fi
	x=$work/deb-$v
	mkdir -p "$x"
	dpkg-deb -x "$deb" "$x"
	echo "$x/usr/src/$pkg.tar.xz $x/usr/share/doc/$pkg/changelog.Debian.gz"
}

tmp=$dest.tmp
rm -rf "$tmp"
work=$(mktemp -d "${TMPDIR:-/var/tmp}/kernel-history.XXXXXX")
trap 'rm -rf "$work"' EXIT
git init -q -b main "$tmp"
git -C "$tmp" config core.autocrlf false
git -C "$tmp" config gc.auto 0

for v in "$@"; do
	read -r tarball changelog < <(sources_of "$v")
	[ -f "$tarball" ] || { echo "kernel-history.sh: no tarball for $v" >&2; exit 2; }
	find "$tmp" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
	tar -xJf "$tarball" -C "$tmp" --strip-components=1
	# The newest upload's trailer, " -- NAME <EMAIL>  DATE" (awk reads on: no SIGPIPE under pipefail).
	trailer=$(zcat "$changelog" | awk '/^ -- / && !seen { print; seen = 1 }')
	uploader=${trailer#' -- '}
	uploader=${uploader%%>*}'>'
	upload_date=${trailer##*>  }
	# Debian's patches touch some files (the top Makefile among them): the
	# upstream release's time is the one most files carry.
	release_date=$(date -R -d "@$(find "$tmp" -path "$tmp/.git" -prune -o -type f -printf '%T@\n' |
		cut -d. -f1 | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')")
	upstream=${v%-*}
	(
		cd "$tmp"
		git add -A -f .
		GIT_AUTHOR_NAME=${uploader% <*} GIT_AUTHOR_EMAIL=$(echo "$uploader" | sed 's/.*<\(.*\)>/\1/') \
		GIT_AUTHOR_DATE=$release_date \
		GIT_COMMITTER_NAME=${uploader% <*} GIT_COMMITTER_EMAIL=$(echo "$uploader" | sed 's/.*<\(.*\)>/\1/') \
		GIT_COMMITTER_DATE=$upload_date \
			git commit -q -m "Linux $upstream" -m "The sources of Debian's $pkg $v, released upstream on $release_date and uploaded on $upload_date."
		git tag "v$upstream"
	)
	rm -rf "$work/deb-$v"
	echo "kernel-history.sh: $v committed" >&2
done
git -C "$tmp" repack -adq
git -C "$tmp" prune
mv "$tmp/.git" "$dest"
git -C "$dest" config core.bare true
rm -rf "$tmp"
echo "kernel-history.sh: $dest: $(git -C "$dest" rev-list --count --all) commits, $(du -sh "$dest" | cut -f1), packed" >&2
