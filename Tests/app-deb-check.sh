#!/bin/bash
# `make deb-check`, second half: an app's .deb as `hybrid-run bundle` writes it (the `init` scaffold,
# plain and --kiosk), checked by lintian (no error), desktop-file-validate and appstreamcli validate.
# Not part of `make test`: lintian takes seconds per package (the Swift test covers the rest).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
swift build --product hybrid-run >/dev/null
BIN="$ROOT/.build/debug/hybrid-run"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "app-deb-check: $*" >&2; exit 1; }

"$BIN" init "$WORK/shop" --id org.example.Shop --name Shop >/dev/null
sed -i -e 's/^# \[kiosk\].*/[kiosk]/' "$WORK/shop/app.toml"
for flags in "" "--kiosk"; do
	rm -rf "$WORK/dist" "$WORK/root"
	# shellcheck disable=SC2086
	"$BIN" bundle "$WORK/shop" --output "$WORK/dist" $flags
	DEB="$WORK/dist/org.example.Shop_0.1.0_amd64.deb"
	[ -f "$DEB" ] || fail "no $DEB"
	LINTIAN=$(lintian --tag-display-limit 0 "$DEB" 2>&1 || true)
	[ -n "$LINTIAN" ] && echo "$LINTIAN"
	grep -q '^E: ' <<<"$LINTIAN" && fail "lintian reports errors (bundle $flags)"
	dpkg-deb -x "$DEB" "$WORK/root"
	desktop-file-validate "$WORK/root/usr/share/applications/org.example.Shop.desktop" || fail "desktop-file-validate (bundle $flags)"
	appstreamcli validate --no-net "$WORK/root/usr/share/metainfo/org.example.Shop.metainfo.xml" || fail "appstreamcli validate (bundle $flags)"
done
echo "app-deb-check: the bundled app passes lintian, desktop-file-validate and appstreamcli validate"
