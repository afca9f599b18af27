# HybridShell: the two commands a new user needs are `make run` and `make test`.
# Both install what is missing (Debian 12 packages), build, and run headless under Xvfb.

SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
XVFB := xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp"
# Runtime and build packages. libgl1-mesa-dri is only a Recommends of WebKitGTK, but without it the
# web process aborts ("Could not create surfaceless EGL display").
APT_PACKAGES := libwebkit2gtk-4.1-dev libgtk-3-dev xvfb xauth libgl1-mesa-dri fonts-dejavu-core \
	nodejs python3 make gcc pkg-config zlib1g-dev unzip
# The real test frameworks the page-test fixtures run (pages/vendor/build.sh turns them into browser
# files): QUnit 1.23, chai, Jasmine 4, and Mocha bundled with esbuild and Debian's browser polyfills.
APT_PACKAGES += libjs-qunit libjs-chai node-jasmine mocha esbuild node-buffer node-events node-util \
	node-process node-stream-browserify node-os-browserify node-tty-browserify node-browser-stdout
# WebDriver: WebKitWebDriver drives `hybrid-run --automation`; Selenium's Python bindings (Debian's
# /usr/bin/python3 only) are the client in `make webdriver-test`.
APT_PACKAGES += webkit2gtk-driver python3-selenium
# MCP: python3-venv so `make mcp-client` can make the MCP client's venv with Debian's python3 too.
APT_PACKAGES += python3-venv
# <video> tests (Tests/HybridShellTests/Schemes/VideoSeekTests.swift): matroskademux and vp8dec for the
# WebM fixture (libwebkit2gtk-4.1-0 depends on both already; named so the tests' need is on record).
APT_PACKAGES += gstreamer1.0-plugins-base gstreamer1.0-plugins-good
# Media shares (Tests/HybridShellTests/MediaShares/VideoMediaURLTests.swift): gst-launch-1.0 makes an
# 8 MB clip at run time, big enough that a seek asks the loopback listener for a Range past 0.
APT_PACKAGES += gstreamer1.0-tools
# Wayland, natively (Tests/wayland): weston's headless backend with its kiosk shell, and sway's
# (wlroots) for the kiosk's idle inhibitor, which weston 10 does not offer.
APT_PACKAGES += weston sway
# hybrid-run bundle (Tests/HybridShellTests/CLI/AppBundleCommandLineTests.swift): Debian's validators
# of the desktop entry and the AppStream metainfo it writes (dpkg-deb, which it runs, is in dpkg).
APT_PACKAGES += desktop-file-utils appstream
# Media of packages and directory mounts (Tests/HybridShellTests/MediaShares/SchemeMediaPlaybackTests.swift):
# pages/fixtures/media/sound.ogg plays with oggdemux and vorbisdec of gstreamer1.0-plugins-base (above).
# Desktop modules and apps (Tests/HybridShellTests/Desktop): a private D-Bus session bus with a fake
# notification server (Tests/fake-notifications.py, Debian's /usr/bin/python3 with GObject
# introspection), and pdftotext to read back what print.page wrote.
APT_PACKAGES += dbus-daemon python3-gi poppler-utils
export WEBKIT_A11Y_BUS_ADDRESS :=
export GDK_BACKEND := x11

.PHONY: run demo-modules test deps build release bench bridge-js vendor structure harness-check examples readme-snippets clean webdriver-test wayland-test readme-options readme-examples deb deb-check deb-install-check deb-deps mcp-client mcp-test

run: deps build
	$(XVFB) .build/debug/hybrid-run --url pages/demo/index.html --exit-after close --timeout 20 --user-agent-suffix HybridShellDemo/1.0

# The native-modules demo (docs/modules.md), walked through headless; keeps its storage in .demo-data.
demo-modules: deps build
	$(XVFB) .build/debug/hybrid-run --url 'pages/demo/modules.html?tour' --modules storage,navigation,system --data-dir .demo-data --exit-after close --timeout 30

test: deps build vendor bridge-js structure readme-options readme-examples readme-snippets harness-check examples mcp-client
	@before=$$(pgrep -x WebKitWebProces | sort); \
	$(XVFB) bash Tests/swift-test.sh --filter ExclusiveTests --no-parallel && \
	$(XVFB) bash Tests/swift-test.sh --skip ExclusiveTests && \
	$(XVFB) $(WEBDRIVER_TEST) && \
	$(XVFB) $(MCP_TEST) && \
	$(WAYLAND_TEST); status=$$?; \
	for i in $$(seq 50); do \
		leaked=$$(comm -13 <(echo "$$before") <(pgrep -x WebKitWebProces | sort) | grep . || true); \
		[ -z "$$leaked" ] && break; sleep 0.2; \
	done; \
	if [ -n "$$leaked" ]; then echo "make test: WebKit processes left behind: $$leaked"; exit 1; fi; \
	exit $$status

# Selenium → WebKitWebDriver → hybrid-run --automation (debug build), fixture pages over loopback.
# Like each Swift pass (Tests/swift-test.sh), it cannot outlive a time limit (about 1 minute quiet).
WEBDRIVER_TEST := timeout --kill-after=20 600 /usr/bin/python3 -W ignore::ResourceWarning -m unittest discover -s Tests/webdriver -p 'test_*.py' -v

webdriver-test: deps build
	$(XVFB) $(WEBDRIVER_TEST)

# Every mode under headless Wayland compositors (weston, sway), no X server: Tests/wayland.
WAYLAND_TEST := timeout --kill-after=20 300 /usr/bin/python3 -W ignore::ResourceWarning -m unittest discover -s Tests/wayland -p 'test_*.py' -v

wayland-test: deps build
	$(WAYLAND_TEST)

# `hybrid-run mcp` driven by a real MCP client: the `mcp` PyPI package, in a venv of its own under
# .build-py (Debian's /usr/bin/python3 is externally managed; any python3 with venv will do). The
# stamp names the version, so a failed install is retried and a new pin reinstalls. Where PyPI cannot
# be reached (a proxy whose certificate the venv does not trust), the install is given up with a
# warning and the test runs with Debian's python3 and its standard-library MCP client
# (Tests/mcp/mcp_session.py): the same scenario, the same protocol.
MCP_CLIENT_VERSION := 1.26.0
MCP_VENV := .build-py/mcp
MCP_PYTHON = $(shell [ -f $(MCP_VENV)/.mcp-$(MCP_CLIENT_VERSION) ] && echo $(MCP_VENV)/bin/python || echo /usr/bin/python3)
MCP_TEST = timeout --kill-after=20 300 $(MCP_PYTHON) -m unittest discover -s Tests/mcp -p 'test_*.py' -v

mcp-client: deps
	@[ -f $(MCP_VENV)/.mcp-$(MCP_CLIENT_VERSION) ] || { \
		rm -rf $(MCP_VENV) && python3 -m venv $(MCP_VENV) && \
		$(MCP_VENV)/bin/pip install -q --disable-pip-version-check --retries 1 --timeout 30 'mcp==$(MCP_CLIENT_VERSION)' && \
		touch $(MCP_VENV)/.mcp-$(MCP_CLIENT_VERSION); \
	} || { rm -rf $(MCP_VENV); echo "mcp-client: the mcp package could not be installed from PyPI; the MCP tests use their standard-library client"; }

mcp-test: deps build mcp-client
	$(XVFB) $(MCP_TEST)

deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing: $$missing"; \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi
	@command -v swift >/dev/null || { echo "Swift 6 is required (https://swift.org/install); put it on PATH"; exit 1; }

build:
	swift build --build-tests

release:
	swift build -c release

vendor:
	bash pages/vendor/build.sh

# The shape the compiler cannot check: C only in Interop/, a library that neither prints nor names
# its CLI, dependencies between the library's folders pointing down, no file over 300 lines.
structure:
	python3 Tests/structure-check.py

# The example apps (Examples/) each exit 0 on their own; README's Swift is theirs.
examples: build
	$(XVFB) timeout 120 .build/debug/example-scheme-app
	$(XVFB) timeout 120 .build/debug/example-package-app

readme-snippets:
	python3 docs/tools/readme-snippets.py --check

# The test harness fails a pass that crashes (a crash that passes on a rerun is still a crash).
harness-check: build
	bash Tests/swift-test-check.sh

# The README agrees with the program: its flag tables are generated from --help (rewrite them with
# `python3 docs/tools/readme-options.py`), and every command of its ```sh blocks runs (blocks that
# cannot run headless or offline say why in a <!-- not-tested: … --> line).
readme-options: build
	python3 docs/tools/readme-options.py --check

readme-examples: build vendor
	$(XVFB) python3 docs/tools/readme-examples.py

bridge-js:
	node bridge-js/tools/embed.mjs --check
	node bridge-js/tools/embed-modules.mjs --check
	node bridge-js/tools/embed-templates.mjs --check
	node --test bridge-js/test/

# The Debian package (docs/packaging/): .build/deb/hybrid-run_<version>_amd64.deb from a static
# release build. `make deb-check` also checks its contents, lintian and a run of the packaged binary
# without Swift or DISPLAY (Tests/deb-check.sh); it is not part of `make test` (minutes of release build).
# libcurl4-openssl-dev: the static Foundation (FoundationNetworking) links -lcurl.
DEB_PACKAGES := dpkg-dev lintian libcurl4-openssl-dev

deb-deps: deps
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing: $$missing"; \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi

deb: deb-deps
	bash docs/packaging/build-deb.sh

deb-check: deb-deps
	bash Tests/deb-check.sh
	bash Tests/app-deb-check.sh

# Installs the package on this machine with apt-get, runs it with no Swift and no DISPLAY, purges it
# and checks nothing is left (Tests/deb-install-check.sh; root, on a throwaway machine).
deb-install-check: deb
	bash Tests/deb-install-check.sh

bench: deps release vendor
	$(MAKE) -C bench/c
	python3 bench/run.py all

clean:
	rm -rf .build bench/c/build
