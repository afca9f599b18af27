#!/bin/bash
# `make deb-check`: builds the Debian package and checks it without installing it. Not part of
# `make test` (the static release build alone takes minutes). Checks: the files are where the
# package promises them, Depends came from dpkg-shlibdeps, lintian reports no error, the man pages
# render without warnings, and the packaged binary runs with no Swift toolchain in reach and no
# DISPLAY (its private Xvfb), loading a page and leaving no Xvfb behind.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
DEB=$(bash docs/packaging/build-deb.sh | tail -n1)
fail() { echo "deb-check: $*" >&2; exit 1; }
[[ "$DEB" == "$ROOT/.build/deb/hybrid-run_"*"_amd64.deb" ]] || fail "unexpected package path $DEB"
[ -f "$DEB" ] || fail "no $DEB"

CONTENTS=$(dpkg-deb -c "$DEB" | awk '{print $NF}' | sed 's|^\./|/|')
for path in /usr/bin/hybrid-run /usr/lib/hybrid-run/libHybridShellPathMap.so \
	/usr/share/man/man1/hybrid-run.1.gz /usr/share/man/man1/hybrid-run-test.1.gz /usr/share/man/man1/hybrid-run-kiosk.1.gz \
	/usr/share/man/man1/hybrid-run-doctor.1.gz /usr/share/man/man1/hybrid-run-package-install.1.gz \
	/usr/share/bash-completion/completions/hybrid-run /usr/share/zsh/vendor-completions/_hybrid-run \
	/usr/share/fish/vendor_completions.d/hybrid-run.fish /lib/systemd/system/hybrid-run-kiosk@.service \
	/usr/share/doc/hybrid-run/copyright /usr/share/doc/hybrid-run/changelog.gz /usr/share/doc/hybrid-run/hybrid.d.ts \
	/usr/share/doc/hybrid-run/kiosk.md.gz; do
	grep -qxF "$path" <<<"$CONTENTS" || fail "$path is missing from the package"
done
DEPENDS=$(dpkg-deb -f "$DEB" Depends)
grep -q 'libwebkit2gtk-4.1-0' <<<"$DEPENDS" || fail "Depends lacks libwebkit2gtk-4.1-0: $DEPENDS"
grep -q 'libswift' <<<"$DEPENDS" && fail "Depends names a Swift library: $DEPENDS"
[ "$(dpkg-deb -f "$DEB" Recommends)" = "xvfb, xauth, webkit2gtk-driver, gstreamer1.0-plugins-good, gstreamer1.0-plugins-base" ] || fail "Recommends changed"

# lintian: errors fail the check; warnings are printed for the record.
LINTIAN=$(lintian --tag-display-limit 0 "$DEB" 2>&1 || true)
[ -n "$LINTIAN" ] && echo "$LINTIAN"
grep -q '^E: ' <<<"$LINTIAN" && fail "lintian reports errors"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
dpkg-deb -x "$DEB" "$WORK/root"
for man in "$WORK"/root/usr/share/man/man1/*.1.gz; do
	warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$man" 2>&1 >/dev/null || true)
	[ -z "$warnings" ] || fail "man $(basename "$man"): $warnings"
done

# No Swift in reach: /opt/swift off PATH and no library path. ldd must not find libswift anything.
BIN="$WORK/root/usr/bin/hybrid-run"
ldd "$BIN" | grep -q 'libswift\|libFoundation\|libdispatch' && fail "the binary links a Swift library: $(ldd "$BIN" | grep swift)"
CLEAN=(env -i HOME="$HOME" PATH=/usr/bin:/bin WEBKIT_A11Y_BUS_ADDRESS= LANG=C.UTF-8)
"${CLEAN[@]}" "$BIN" --version | grep -q '^hybrid-run ' || fail "--version"
before=$(pgrep -x Xvfb | sort || true)
OUTPUT=$("${CLEAN[@]}" "$BIN" --url "$ROOT/pages/fixtures/engine/console.html" --exit-after load 2>&1) || fail "headless run failed: $OUTPUT"
grep -q 'CONSOLE LOG hello 1' <<<"$OUTPUT" || fail "no console line: $OUTPUT"
after=$(pgrep -x Xvfb | sort || true)
[ "$before" = "$after" ] || fail "an Xvfb was left running"
"${CLEAN[@]}" "$BIN" doctor || fail "doctor reported a failure"
echo "deb-check: $DEB ($(du -k "$DEB" | cut -f1) KiB, installed $(dpkg-deb -f "$DEB" Installed-Size) KiB) passes"
