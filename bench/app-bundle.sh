#!/bin/bash
# Issue 33's figures for init and bundle: the time from an empty folder to the scaffold's .deb
# (`hybrid-run init` then `hybrid-run bundle`), and the .deb's size. The baseline, measured in the
# same run: `hybrid-run package pack` of the same web/ folder (signing alone), so the ratio says
# what the Debian layout, icons and dpkg-deb add. Medians of RUNS runs (default 5).
#   bash bench/app-bundle.sh [RUNS]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$ROOT/.build/debug/hybrid-run"
[ -x "$BIN" ] || { echo "app-bundle: build first (swift build)" >&2; exit 1; }
RUNS=${1:-5}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
journey=() pack=()
for i in $(seq "$RUNS"); do
	start=$(now)
	"$BIN" init "$WORK/app$i" --id org.example.Shop --name Shop >/dev/null
	"$BIN" bundle "$WORK/app$i" --output "$WORK/dist$i" >/dev/null
	journey+=($(( ($(now) - start) / 1000000 )))
	start=$(now)
	"$BIN" package pack "$WORK/app$i/web" --app-id org.example.Shop --app-version 0.1.0 --sequence 1 \
		--key "$WORK/app$i/keys/app.key" --output "$WORK/pack$i.zip" >/dev/null 2>&1
	pack+=($(( ($(now) - start) / 1000000 )))
done
J=$(printf '%s\n' "${journey[@]}" | median)
P=$(printf '%s\n' "${pack[@]}" | median)
SIZE=$(stat -c %s "$WORK/dist1/org.example.Shop_0.1.0_amd64.deb")
echo "init → bundle of the scaffold: ${J} ms (median of $RUNS); package pack of its web/ alone: ${P} ms; ratio $(awk "BEGIN {printf \"%.2f\", $J / $P}")x"
echo "the scaffold's .deb: $SIZE bytes"
