#!/bin/bash
# `make deb-install-check`: installs the Debian package on THIS machine with apt-get, as a user
# would on a fresh Debian 12, uses it with no Swift toolchain in reach and no DISPLAY, and purges
# it, checking that no file of it is left. It changes the system (run it as root on a throwaway
# machine: CI, or `fresh-machine.sh --shell`). Prints how long apt-get install took and the time
# from the install command to the first page's console line.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
DEB=${1:-$(ls -t .build/deb/hybrid-run_*_amd64.deb 2>/dev/null | head -n1)}
fail() { echo "deb-install-check: $*" >&2; exit 1; }
[ -f "$DEB" ] || fail "no package (make deb first, or name one)"
[ "$(id -u)" = 0 ] || fail "needs root (it installs and purges the package)"
dpkg -s hybrid-run >/dev/null 2>&1 && fail "hybrid-run is installed already; purge it first"

# man itself is the user's (a minimal Debian has none); the package only ships the pages.
command -v man >/dev/null || apt-get install -y -q --no-install-recommends man-db >/dev/null
CLEAN=(env -i HOME="$HOME" PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive)
PAGE=$(mktemp -d)/page.html
echo '<!doctype html><title>installed</title><script>console.log("installed page", 1 + 1)</script>' > "$PAGE"

started=$(date +%s.%N)
"${CLEAN[@]}" apt-get install -y -q "$(readlink -f "$DEB")" >/tmp/deb-install-check.apt.log 2>&1 \
	|| { cat /tmp/deb-install-check.apt.log; fail "apt-get install failed"; }
installed=$(date +%s.%N)
OUTPUT=$("${CLEAN[@]}" hybrid-run --url "$PAGE" --exit-after load 2>&1) || fail "hybrid-run --url failed: $OUTPUT"
first_page=$(date +%s.%N)
grep -q 'CONSOLE LOG installed page 2' <<<"$OUTPUT" || fail "no console line: $OUTPUT"
[ "$(command -v hybrid-run)" = /usr/bin/hybrid-run ] || fail "hybrid-run is not /usr/bin/hybrid-run"
"${CLEAN[@]}" man -w hybrid-run | grep -q '/usr/share/man/man1/hybrid-run.1.gz' || fail "man hybrid-run finds no page"
"${CLEAN[@]}" MANWIDTH=80 man hybrid-run-test 2>/dev/null | grep -q 'hybrid-run test' || fail "man hybrid-run-test"
"${CLEAN[@]}" hybrid-run doctor || fail "doctor reported a failure"
FILES=$(dpkg -L hybrid-run | while read -r path; do if [ -f "$path" ]; then echo "$path"; fi; done)

"${CLEAN[@]}" apt-get purge -y -q hybrid-run >/tmp/deb-install-check.apt.log 2>&1 \
	|| { cat /tmp/deb-install-check.apt.log; fail "apt-get purge failed"; }
left=$(for path in $FILES; do if [ -e "$path" ]; then echo "$path"; fi; done)
[ -z "$left" ] || fail "files left after purge: $left"
[ ! -e /etc/hybrid-run ] || [ -z "$(ls -A /etc/hybrid-run)" ] || fail "/etc/hybrid-run left after purge"
awk -v deb="$(basename "$DEB")" -v s="$started" -v i="$installed" -v p="$first_page" 'BEGIN {
	printf "deb-install-check: %s installs, runs with no Swift and no DISPLAY, purges clean; apt-get install %.1f s, install to first page %.1f s\n", deb, i - s, p - s }'
