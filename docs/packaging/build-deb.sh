#!/bin/bash
# Builds .build/deb/hybrid-run_<version>_amd64.deb (`make deb`): a release build with the Swift
# runtime linked in (--static-swift-stdlib, in its own scratch path .build-deb so it never mixes with
# `make release`), the path-map extension in /usr/lib/hybrid-run, man pages and shell completions
# generated from the program's help, the kiosk unit, hybrid.d.ts and the docs. Depends comes from
# dpkg-shlibdeps. Needs dpkg-dev (dpkg-shlibdeps) besides Swift; lintian checks the result
# (Tests/deb-check.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/docs/packaging"
SCRATCH="$ROOT/.build-deb"
OUT="$ROOT/.build/deb"
cd "$ROOT"

# A fresh scratch path reuses the packages `swift build` already fetched into .build.
if [ ! -d "$SCRATCH/checkouts" ] && [ -d .build/checkouts ]; then
	mkdir -p "$SCRATCH"
	cp -a .build/checkouts .build/repositories .build/workspace-state.json "$SCRATCH/" 2>/dev/null || true
fi
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product hybrid-run
BIN="$SCRATCH/release"
# The path-map extension is plain C: built here with Debian's hardening flags and without the
# RUNPATH into the Swift toolchain SwiftPM gives every product (lintian: custom-library-search-path).
EXTENSION="$SCRATCH/libHybridShellPathMap.so"
# shellcheck disable=SC2046
gcc -shared -fPIC -O2 -g0 -D_FORTIFY_SOURCE=2 -fstack-protector-strong -Wall -Werror \
	-I Sources/HybridShellPathMap/include Sources/HybridShellPathMap/PathMap.c -o "$EXTENSION" \
	$(pkg-config --cflags --libs webkit2gtk-web-extension-4.1) -Wl,-z,relro,-z,now,--as-needed

VERSION=$("$BIN/hybrid-run" --version | awk '{print $2}')
[[ "$VERSION" =~ ^[0-9][0-9A-Za-z.+~-]*$ ]] || { echo "build-deb.sh: cannot read the version from hybrid-run --version: '$VERSION'" >&2; exit 1; }
DATE=$(git log -1 --format=%aD 2>/dev/null || date -R)
STAGE=$(mktemp -d "${TMPDIR:-/tmp}/hybrid-run-deb.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
# dpkg-shlibdeps expects the files in debian/<package>/ of a source tree.
PKG="$STAGE/src/debian/hybrid-run"
DOC="$PKG/usr/share/doc/hybrid-run"

install -D -m 0755 "$BIN/hybrid-run" "$PKG/usr/bin/hybrid-run"
install -D -m 0644 "$EXTENSION" "$PKG/usr/lib/hybrid-run/libHybridShellPathMap.so"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$PKG/usr/bin/hybrid-run" "$PKG/usr/lib/hybrid-run/libHybridShellPathMap.so"

# Man pages and completions, from the program itself.
python3 "$HERE/manpages.py" "$PKG/usr/bin/hybrid-run" "$PKG/usr/share/man/man1" --date "$(date -d "$DATE" +%Y-%m-%d)" >/dev/null
chmod 0644 "$PKG"/usr/share/man/man1/*.1
gzip -9n "$PKG"/usr/share/man/man1/*.1
install -d "$PKG/usr/share/bash-completion/completions" "$PKG/usr/share/zsh/vendor-completions" "$PKG/usr/share/fish/vendor_completions.d"
# bash-completion sources the file: no #! line (lintian: bash-completion-with-hashbang).
"$PKG/usr/bin/hybrid-run" --generate-completion-script bash | sed '1{/^#!/d}' > "$PKG/usr/share/bash-completion/completions/hybrid-run"
"$PKG/usr/bin/hybrid-run" --generate-completion-script zsh > "$PKG/usr/share/zsh/vendor-completions/_hybrid-run"
"$PKG/usr/bin/hybrid-run" --generate-completion-script fish > "$PKG/usr/share/fish/vendor_completions.d/hybrid-run.fish"

# Debian 12 keeps units in /lib/systemd/system (lintian flags /usr/lib/systemd there).
install -D -m 0644 "$HERE/hybrid-run-kiosk@.service" "$PKG/lib/systemd/system/hybrid-run-kiosk@.service"

install -D -m 0644 "$HERE/copyright" "$DOC/copyright"
# The version has no Debian revision (it is hybrid-run --version's), so the package is native and
# its changelog is changelog.gz (lintian: wrong-name-for-changelog-of-native-package).
sed -e "s/@VERSION@/$VERSION/" -e "s/@DATE@/$DATE/" "$HERE/changelog" | gzip -9n > "$DOC/changelog.gz"
install -m 0644 bridge-js/hybrid.d.ts README.md docs/*.md bridge-js/PROTOCOL.md "$DOC/"
gzip -9n "$DOC"/*.md
chmod 0644 "$DOC"/*

# Depends from the libraries the two ELF files link (dpkg-shlibdeps wants a debian/control).
printf 'Source: hybrid-run\n\nPackage: hybrid-run\nArchitecture: amd64\n' > "$STAGE/src/debian/control"
# Its warnings (libraries GTK's pkg-config links but the program does not call) are kept for a failure.
DEPENDS=$(cd "$STAGE/src" && dpkg-shlibdeps -O -e"$PKG/usr/bin/hybrid-run" -e"$PKG/usr/lib/hybrid-run/libHybridShellPathMap.so" 2>"$STAGE/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p')
[ -n "$DEPENDS" ] || { cat "$STAGE/shlibdeps.log" >&2; echo "build-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

INSTALLED_SIZE=$(du -sk --apparent-size "$PKG" | cut -f1)
install -d -m 0755 "$PKG/DEBIAN"
sed -e "s/@VERSION@/$VERSION/" -e "s/@INSTALLED_SIZE@/$INSTALLED_SIZE/" -e "s/@DEPENDS@/$DEPENDS/" "$HERE/control.in" > "$PKG/DEBIAN/control"
(cd "$PKG" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$PKG/DEBIAN/control" "$PKG/DEBIAN/md5sums"
find "$PKG" -type d -exec chmod 0755 {} +

mkdir -p "$OUT"
DEB="$OUT/hybrid-run_${VERSION}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$PKG" "$DEB" >/dev/null
echo "$DEB"
