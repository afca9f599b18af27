#!/bin/sh
# The path-map feasibility probe (docs/offline-packages.md, "Path-map mode"): an online page's
# mapped script is rewritten to app://demo/… in the web process's send-request and answered by the
# UI process's app: handler; the server sees only the page. Prints "R:from-package origin=http://127.0.0.1:8766".
set -e
cd "$(dirname "$0")"
work=$(mktemp -d)
mkdir -p "$work/site" "$work/extdir"
printf '<script src="app.js"></script>\n<script>document.title = "R:" + (window.mapped || "network") + " origin=" + location.origin;</script>\n' > "$work/site/index.html"
echo "window.mapped = 'from-network';" > "$work/site/app.js"
gcc -shared -fPIC -o "$work/extdir/libprobe.so" ext.c $(pkg-config --cflags --libs webkit2gtk-web-extension-4.1)
gcc -o "$work/host" host.c $(pkg-config --cflags --libs webkit2gtk-4.1)
(cd "$work/site" && exec python3 -m http.server 8766 --bind 127.0.0.1 > "$work/server.log" 2>&1) &
server=$!
sleep 1
WEBKIT_A11Y_BUS_ADDRESS= GDK_BACKEND=x11 xvfb-run -a "$work/host" "$work/extdir" http://127.0.0.1:8766/ http://127.0.0.1:8766/index.html
kill $server
grep GET "$work/server.log"
rm -rf "$work"
