import Foundation
import HybridShell
import Testing

/// The kiosk's lock-down in a real WebKit window under Xvfb, driven by synthesized input: what it
/// blocks never reaches the page, and what it lets through still does (so the test could fail).
@Suite("Kiosk lock-down in real WebKit", .serialized)
@EngineActor
struct KioskLockDownTests {
    @Test func contextMenuAndZoomAreSuppressedWhileOrdinaryInputArrives() async throws {
        var profile = KioskProfile(home: Fixtures.page("kiosk/index.html").path)
        profile.inhibitScreenSaver = false
        profile.heartbeatTimeout = unhurriedHeartbeat
        let host = try KioskHost(profile: profile)
        var events: [KioskEvent] = []
        host.onEvent = { events.append($0) }
        try host.start()
        let view = try #require(host.page?.view)
        var console: [String] = []
        view.observe { if case .console(let message) = $0 { console.append(message.text) } }
        _ = try await PageEventExpectation.loadFinished(view).value(timeout: .seconds(30), "home")
        try await waitForPaint(view)

        let plainWheel = consoleLine(view, "wheel ctrl=false"), key = consoleLine(view, "keydown a ctrl=false")
        let menuEvent = consoleLine(view, "contextmenu event")
        view.synthesize(.scroll(up: false, x: 200, y: 200, modifiers: .control))
        view.synthesize(.key("plus", modifiers: .control))
        view.synthesize(.pinch(scale: 3, x: 200, y: 200))
        view.synthesize(.key("F5"))
        view.synthesize(.scroll(up: false, x: 200, y: 200))
        view.synthesize(.key("a"))
        view.synthesize(.click(button: 3, x: 200, y: 200))
        _ = try await plainWheel.value(timeout: .seconds(30), "the plain wheel event")
        _ = try await key.value(timeout: .seconds(30), "the plain key")
        // The page sees its contextmenu event; the native menu is what stays away.
        _ = try await menuEvent.value(timeout: .seconds(30), "the contextmenu DOM event")
        let suppressed = PageEventExpectation(view) { $0 == .contextMenuSuppressed ? true : nil }
        if !events.contains(.contextMenuSuppressed) { _ = try await suppressed.value(timeout: .seconds(30), "suppression") }

        #expect(!console.contains("wheel ctrl=true"), "\(console)")
        #expect(!console.contains { $0.hasPrefix("keydown + ") || $0.hasPrefix("keydown F5") }, "\(console)")
        #expect(view.windowState?.zoomLevel == 1)
        let scale = try await view.evaluateJavaScript("visualViewport.scale")
        #expect(scale == 1)
        for blocked in ["ctrl+scroll (zoom)", "ctrl+plus (zoom)", "pinch (zoom)", "F5 (reload)"] {
            #expect(events.contains(.inputBlocked(blocked)), "\(blocked) not reported: \(events)")
        }
        #expect(events.contains(.contextMenuSuppressed))
        await host.stop(reason: "test over")
    }

    @Test func allowedZoomAndContextMenuPassThrough() async throws {
        var profile = KioskProfile(home: Fixtures.page("kiosk/index.html").path)
        profile.inhibitScreenSaver = false
        profile.heartbeatTimeout = unhurriedHeartbeat
        profile.zoom = true
        profile.contextMenu = true
        let host = try KioskHost(profile: profile)
        var events: [KioskEvent] = []
        host.onEvent = { events.append($0) }
        try host.start()
        let view = try #require(host.page?.view)
        _ = try await PageEventExpectation.loadFinished(view).value(timeout: .seconds(30), "home")
        try await waitForPaint(view)
        let ctrlWheel = consoleLine(view, "wheel ctrl=true")
        view.synthesize(.scroll(up: false, x: 200, y: 200, modifiers: .control))
        _ = try await ctrlWheel.value(timeout: .seconds(30), "the ctrl+wheel event")
        #expect(!events.contains { if case .inputBlocked = $0 { true } else { false } })
        await host.stop(reason: "test over")
    }

    private func consoleLine(_ view: WebView, _ text: String) -> PageEventExpectation<Bool> {
        PageEventExpectation(view) { event in
            if case .console(let message) = event, message.text == text { return true }
            return nil
        }
    }
}

/// The tests here are not about the hang watchdog: on a loaded machine (the whole suite in
/// parallel, one main loop for all) a heartbeat took over the 4 s default, the watchdog ended the
/// web process, and the test read "unsupported JavaScript result" or a second home load.
let unhurriedHeartbeat: Duration = .seconds(60)

/// Input is hit-tested against what has been drawn: waits for two frames, which a loaded machine
/// may not have painted when the load finishes (synthesized wheel events were lost otherwise).
@EngineActor
func waitForPaint(_ view: WebView) async throws {
    _ = try await view.callAsyncJavaScript("await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
}
