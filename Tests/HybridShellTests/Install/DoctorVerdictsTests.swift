import Foundation
import HybridShell
@testable import hybrid_run
import Testing

@Suite("hybrid-run doctor: facts to PASS/WARN/FAIL")
struct DoctorVerdictsTests {
    typealias Display = DoctorFacts.Display

    @Test(arguments: [
        (Display(x11: ":0"), DoctorCheck.Status.pass, "X11 display :0"),
        (Display(wayland: "wayland-0", gdkBackend: "wayland"), .pass, "Wayland display wayland-0"),
        // The session's Wayland display is used natively, even beside Xwayland's DISPLAY…
        (Display(wayland: "wayland-0"), .pass, "Wayland, from the session's Wayland display wayland-0"),
        (Display(x11: ":0", wayland: "wayland-0"), .pass, "drawn on natively"),
        // …unless GDK_BACKEND keeps GTK on X11.
        (Display(wayland: "wayland-0", gdkBackend: "x11", xvfb: "/usr/bin/Xvfb"), .pass, "GTK is kept on X11"),
        (Display(xvfb: "/usr/bin/Xvfb"), .pass, "private X server"),
        (Display(), .fail, "no Xvfb"),
        (Display(x11: ":9", opened: .failure(.init("cannot open X display ':9'"))), .fail, "cannot open"),
    ])
    func display(facts: Display, status: DoctorCheck.Status, detail: String) {
        let check = DoctorVerdicts.display(facts)
        #expect(check.status == status)
        #expect(check.detail.contains(detail), "\(check.detail)")
        #expect((check.fix == nil) == (status == .pass))
        #expect(check.detail.contains("backend") || status == .fail && facts.opened == nil)
    }

    @Test func noXvfbAndNoDisplayNamesTheAptPackage() {
        #expect(DoctorVerdicts.display(Display()).fix?.contains("apt install xvfb") == true)
    }

    @Test(arguments: [("2.50.6", DoctorCheck.Status.pass), ("2.52.0", .pass), ("2.40.5", .warn), ("", .fail), ("x.y", .fail)])
    func webKitVersion(version: String, status: DoctorCheck.Status) {
        #expect(DoctorVerdicts.webKit(version).status == status)
    }

    @Test func aPageThatPaintsTheProbeColourPasses() {
        var renderer = DoctorFacts.Renderer(paint: .read(0x3366CC), renderNode: "/dev/dri/renderD128")
        #expect(DoctorVerdicts.renderer(renderer).status == .pass)
        #expect(DoctorVerdicts.renderer(renderer).detail.contains("GPU render node /dev/dri/renderD128"))
        renderer.onVirtualDisplay = true
        #expect(DoctorVerdicts.renderer(renderer).detail.contains("software"))
        renderer.paint = .read(0x3467CB)  // off by one in each channel: still the probe colour
        #expect(DoctorVerdicts.renderer(renderer).status == .pass)
    }

    @Test func aBlankPageFailsWithTheRendererFix() {
        let blank = DoctorVerdicts.renderer(.init(paint: .read(0xFFFFFF)))
        #expect(blank.status == .fail)
        #expect(blank.detail.contains("#ffffff instead of #3366cc"))
        #expect(blank.fix?.contains("WEBKIT_DISABLE_DMABUF_RENDERER=1") == true)
        let off = DoctorVerdicts.renderer(.init(paint: .read(0), dmabufDisabledByEnvironment: true))
        #expect(off.fix?.contains("WEBKIT_DISABLE_COMPOSITING_MODE=1") == true)
        #expect(DoctorVerdicts.renderer(.init(paint: .failed("no snapshot"))).status == .fail)
        #expect(DoctorVerdicts.renderer(.init()).status == .warn)
    }

    @Test func mediaChecksNameWhatIsMissing() {
        let all: Set<String> = ["matroskademux", "vp8dec", "oggdemux", "vorbisdec", "theoradec", "qtdemux", "avdec_h264"]
        #expect(DoctorVerdicts.media(all).map(\.status) == [.pass, .pass, .pass])
        let noH264 = DoctorVerdicts.media(all.subtracting(["avdec_h264"]))
        #expect(noH264.map(\.status) == [.pass, .pass, .warn])
        #expect(noH264[2].detail.contains("avdec_h264 or openh264dec"))
        #expect(noH264[2].fix?.contains("gstreamer1.0-libav") == true)
        #expect(DoctorVerdicts.media(nil).map(\.status) == [.warn])
    }

    @Test func gstInspectListingGivesElementNames() {
        let listing = """
            matroska:  matroskademux: Matroska demuxer
            vpx:  vp8dec: On2 VP8 Decoder
            staticelements:  bin: Generic bin
            typefindfunctions: video/x-ms-asf: asf, wm, wma, wmv
            Total count: 3 plugins, 4 features
            """
        #expect(DoctorProbes.gstreamerElements(listing: listing) == ["matroskademux", "vp8dec", "bin", "video/x-ms-asf"])
    }

    @Test func helpersFontsSandboxAndDataDirectory() {
        #expect(DoctorVerdicts.webDriver(nil).status == .warn)
        #expect(DoctorVerdicts.webDriver("/usr/bin/WebKitWebDriver").status == .pass)
        #expect(DoctorVerdicts.fonts(nil).status == .warn)
        #expect(DoctorVerdicts.fonts("").status == .fail)
        #expect(DoctorVerdicts.fonts("DejaVuSans.ttf: \"DejaVu Sans\" \"Book\"").status == .pass)
        #expect(DoctorVerdicts.sandbox(nil, works: false).status == .warn)
        #expect(DoctorVerdicts.sandbox("/usr/bin/bwrap", works: false).status == .warn)
        #expect(DoctorVerdicts.sandbox("/usr/bin/bwrap", works: true).status == .pass)
        let writable = DoctorFacts.DataDirectory(path: "/d", exists: true, isDirectory: true, writable: true)
        #expect(DoctorVerdicts.dataDirectory(writable, temporaryWritable: true).status == .pass)
        #expect(DoctorVerdicts.dataDirectory(writable, temporaryWritable: false).status == .fail)
        let file = DoctorFacts.DataDirectory(path: "/d", exists: true, isDirectory: false, writable: false)
        #expect(DoctorVerdicts.dataDirectory(file, temporaryWritable: true).detail.contains("not a directory"))
        let locked = DoctorFacts.DataDirectory(path: "/d", exists: false, isDirectory: false, writable: false)
        #expect(DoctorVerdicts.dataDirectory(locked, temporaryWritable: true).detail == "/d cannot be created")
    }

    @Test func onlyAFailureMakesTheExitCodeNonZero() {
        #expect(DoctorVerdicts.exitStatus([.pass("a", ""), .warn("b", "", fix: "")]) == .success)
        #expect(DoctorVerdicts.exitStatus([.pass("a", ""), .fail("b", "", fix: "")]) == .testsFailed)
    }

    /// The probe of a data directory that exists but is not writable, as a non-root user sees
    /// /proc/1 (root may write anywhere, so the directory is made read-only for the check instead).
    @Test func aReadOnlyDataDirectoryIsNotWritable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(DoctorProbes.directory(directory.path + "/new/deeper").writable)
        #expect(DoctorProbes.directory(directory.path).exists)
        let file = directory.appendingPathComponent("file")
        FileManager.default.createFile(atPath: file.path, contents: Data())
        #expect(!DoctorProbes.directory(file.path).isDirectory)
        #expect(!DoctorProbes.directory(file.path + "/below").writable)
    }
}
