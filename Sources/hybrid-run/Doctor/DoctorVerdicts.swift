import HybridShell

/// The judgement of `hybrid-run doctor`: facts in, one ``DoctorCheck`` per concern out. Pure, so
/// each verdict is unit-tested with made-up facts (DoctorVerdictsTests).
enum DoctorVerdicts {
    /// The colour the renderer probe page paints everywhere (#3366cc).
    static let probeColour: UInt32 = 0x3366CC
    /// The WebKitGTK release HybridShell is developed and tested against.
    static let testedWebKit = (major: 2, minor: 50)

    static func checks(_ facts: DoctorFacts) -> [DoctorCheck] {
        [display(facts.display), webKit(facts.webKitVersion), renderer(facts.renderer)]
            + media(facts.gstreamerElements)
            + [webDriver(facts.webDriver), fonts(facts.font), sandbox(facts.bubblewrap, works: facts.bubblewrapWorks),
               dataDirectory(facts.dataDirectory, temporaryWritable: facts.temporaryDirectoryWritable)]
    }

    /// 0 unless a check failed; then 1, as `kiosk --check` exits when a setting does not hold.
    static func exitStatus(_ checks: [DoctorCheck]) -> ExitStatus {
        checks.contains { $0.status == .fail } ? .testsFailed : .success
    }

    static func display(_ display: DoctorFacts.Display) -> DoctorCheck {
        var environment: [String: String] = [:]
        environment["DISPLAY"] = display.x11
        environment["WAYLAND_DISPLAY"] = display.wayland
        environment["GDK_BACKEND"] = display.gdkBackend
        let (chosen, reason) = DisplayBackend.choose(environment: environment)
        let backend = chosen.map { "\($0 == .wayland ? "Wayland" : "X11"), from \(reason)" } ?? reason
        if case .failure(let problem) = display.opened {
            return .fail("display", "\(problem.message) (backend: \(backend))",
                         fix: chosen == .wayland ? "check WAYLAND_DISPLAY and XDG_RUNTIME_DIR, or run with --display virtual"
                             : "check DISPLAY and XAUTHORITY, or run with --display virtual")
        }
        let wayland = display.wayland.flatMap { $0.isEmpty ? nil : $0 }
        if let wayland, DisplayBackend.usesWayland(environment: environment) {
            return .pass("display", "Wayland display \(wayland), drawn on natively (backend: \(backend))")
        }
        if let x11 = display.x11, !x11.isEmpty {
            return .pass("display", "X11 display \(x11) (backend: \(backend))")
        }
        let why = wayland.map { "Wayland display \($0), but GTK is kept on X11 by GDK_BACKEND, and no DISPLAY" } ?? "no display"
        guard let xvfb = display.xvfb else {
            return .fail("display", "\(why), and no Xvfb to start a private X server", fix: "apt install xvfb (or run on a display)")
        }
        return .pass("display", "\(why): each run starts a private X server (\(xvfb), --display virtual; backend: X11)")
    }

    static func webKit(_ version: String) -> DoctorCheck {
        let parts = version.split(separator: ".").compactMap { Int($0) }
        guard parts.count >= 2 else {
            return .fail("webkitgtk", "cannot read the WebKitGTK version ('\(version)')", fix: "apt install libwebkit2gtk-4.1-0")
        }
        if (parts[0], parts[1]) < testedWebKit {
            return .warn("webkitgtk", "WebKitGTK \(version), older than the tested \(testedWebKit.major).\(testedWebKit.minor)",
                         fix: "apt update && apt install libwebkit2gtk-4.1-0 (Debian security updates carry the current release)")
        }
        return .pass("webkitgtk", "WebKitGTK \(version) (webkit2gtk-4.1)")
    }

    static func renderer(_ renderer: DoctorFacts.Renderer) -> DoctorCheck {
        let gpu = renderer.onVirtualDisplay ? "software (Xvfb has no GPU)"
            : renderer.renderNode.map { "GPU render node \($0)" } ?? "software (no accessible /dev/dri/renderD*)"
        let dmabuf = renderer.dmabufDisabledByEnvironment ? "DMA-BUF renderer off" : "DMA-BUF renderer on with --window (off for offscreen runs)"
        switch renderer.paint {
        case .read(let colour) where matches(colour, probeColour):
            return .pass("renderer", "a test page painted correctly: \(gpu), \(dmabuf)")
        case .read(let colour):
            let hint = renderer.dmabufDisabledByEnvironment ? "WEBKIT_DISABLE_COMPOSITING_MODE=1" : "WEBKIT_DISABLE_DMABUF_RENDERER=1"
            return .fail("renderer", "a test page painted \(hex(colour)) instead of \(hex(probeColour)) (a blank window): \(gpu), \(dmabuf)",
                         fix: "run with \(hint); install libgl1-mesa-dri and your GPU's Mesa driver")
        case .failed(let reason):
            return .fail("renderer", "the test page could not be painted: \(reason)",
                         fix: "apt install libgl1-mesa-dri; try WEBKIT_DISABLE_DMABUF_RENDERER=1")
        case .notTried:
            return .warn("renderer", "not checked (no display to paint on): \(gpu)", fix: "fix the display check first")
        }
    }

    /// The media checks: what `<video>`/`<audio>` need per container and codec.
    static let mediaFormats: [(name: String, what: String, elements: [[String]], fix: String)] = [
        ("media-webm", "WebM/VP8", [["matroskademux"], ["vp8dec"]], "apt install gstreamer1.0-plugins-good"),
        ("media-ogg", "Ogg/Vorbis/Theora", [["oggdemux"], ["vorbisdec"], ["theoradec"]], "apt install gstreamer1.0-plugins-base"),
        ("media-mp4", "MP4/H.264", [["qtdemux"], ["avdec_h264", "openh264dec", "vah264dec", "v4l2h264dec"]],
         "apt install gstreamer1.0-libav (H.264 is optional; pages may offer WebM instead)"),
    ]

    static func media(_ elements: Set<String>?) -> [DoctorCheck] {
        guard let elements else {
            return [.warn("media", "cannot list GStreamer elements (no gst-inspect-1.0)", fix: "apt install gstreamer1.0-tools, then run doctor again")]
        }
        return mediaFormats.map { format in
            let missing = format.elements.filter { $0.allSatisfy { !elements.contains($0) } }.map { $0.joined(separator: " or ") }
            guard missing.isEmpty else {
                return .warn(format.name, "\(format.what) media will not play: no \(missing.joined(separator: ", "))", fix: format.fix)
            }
            return .pass(format.name, "\(format.what): \(format.elements.compactMap { $0.first { elements.contains($0) } }.joined(separator: ", "))")
        }
    }

    static func webDriver(_ path: String?) -> DoctorCheck {
        guard let path else {
            return .warn("webdriver", "no WebKitWebDriver: --automation (Selenium, WebdriverIO) cannot be used", fix: "apt install webkit2gtk-driver")
        }
        return .pass("webdriver", "\(path) (for --automation)")
    }

    static func fonts(_ match: String?) -> DoctorCheck {
        guard let match else {
            return .warn("fonts", "cannot ask fontconfig (no fc-match)", fix: "apt install fontconfig fonts-dejavu-core")
        }
        guard !match.isEmpty else {
            return .fail("fonts", "fontconfig finds no font: text will not render", fix: "apt install fonts-dejavu-core")
        }
        return .pass("fonts", "sans-serif is \(match)")
    }

    static func sandbox(_ bubblewrap: String?, works: Bool) -> DoctorCheck {
        guard let bubblewrap else {
            return .warn("sandbox", "no bubblewrap: WebKit's web-process sandbox is unavailable", fix: "apt install bubblewrap")
        }
        guard works else {
            return .warn("sandbox", "\(bubblewrap) cannot create a sandbox (user namespaces disabled?)",
                         fix: "sysctl -w kernel.unprivileged_userns_clone=1 (or run outside a container that forbids namespaces)")
        }
        return .pass("sandbox", "\(bubblewrap) can create a sandbox for web processes")
    }

    static func dataDirectory(_ directory: DoctorFacts.DataDirectory, temporaryWritable: Bool) -> DoctorCheck {
        guard temporaryWritable else {
            return .fail("data-dir", "the temporary directory cannot be written (private X server, extensions)",
                         fix: "set TMPDIR to a writable directory")
        }
        if directory.exists, !directory.isDirectory {
            return .fail("data-dir", "\(directory.path) is not a directory", fix: "remove it or pass another --data-dir")
        }
        guard directory.writable else {
            return .fail("data-dir", "\(directory.path) cannot be \(directory.exists ? "written" : "created")",
                         fix: "chown $(id -un) the directory, or pass a writable --data-dir")
        }
        return .pass("data-dir", "\(directory.path) \(directory.exists ? "is writable" : "can be created")")
    }

    private static func matches(_ colour: UInt32, _ expected: UInt32) -> Bool {
        [16, 8, 0].allSatisfy { shift in abs(Int((colour >> shift) & 0xFF) - Int((expected >> shift) & 0xFF)) <= 2 }
    }

    private static func hex(_ colour: UInt32) -> String {
        "#" + String(colour, radix: 16).leftPadded(to: 6)
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
