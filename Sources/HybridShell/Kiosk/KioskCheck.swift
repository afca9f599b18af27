import HybridShellCore
import HybridShellWebKit

/// `hybrid-run kiosk --check`: starts the profile for real and verifies that each setting took
/// effect — by asking GDK about the window, by feeding the view synthesized input, and by letting
/// the page try what the profile forbids.
@EngineActor
package final class KioskCheck {
    public struct Row: Sendable, Equatable {
        public let setting: String
        public let passed: Bool
        public let detail: String
    }

    private let host: KioskHost
    private var events: [KioskEvent] = []
    private var waiters: [Int: (predicate: (KioskEvent) -> Bool, resume: (Bool) -> Void)] = [:]
    private let probe = "https://hybridshell-check.invalid/"

    /// `host` must not be started yet; the check starts it.
    public init(host: KioskHost) {
        self.host = host
        let forward = host.onEvent
        host.onEvent = { [weak self] event in
            forward(event)
            self?.record(event)
        }
    }

    private func record(_ event: KioskEvent) {
        events.append(event)
        for (id, waiter) in waiters where waiter.predicate(event) {
            waiters[id] = nil
            waiter.resume(true)
        }
    }

    /// Whether an event matching `predicate` arrives (or already did since `from`) within `timeout`.
    private func seen(since from: Int = 0, within timeout: Duration, _ predicate: @escaping (KioskEvent) -> Bool) async -> Bool {
        if events[from...].contains(where: predicate) { return true }
        let id = nextWaiter
        nextWaiter += 1
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let timer = LoopTimer(after: timeout) { [weak self] in
                guard self?.waiters.removeValue(forKey: id) != nil else { return }
                continuation.resume(returning: false)
            }
            waiters[id] = (predicate, { value in
                timer.cancel()
                continuation.resume(returning: value)
            })
        }
        return result
    }

    private var nextWaiter = 0

    public func run() async -> [Row] {
        do {
            try host.start()
        } catch {
            return [Row(setting: "start", passed: false, detail: error.description)]
        }
        let loaded = await seen(within: .seconds(30)) {
            if case .loaded = $0 { return true }
            if case .loadFailed = $0 { return true }
            return false
        }
        guard loaded, let page = host.page, case .loaded(let url)? = events.first(where: { if case .loaded = $0 { true } else { false } }) else {
            let failure = events.compactMap { event -> String? in
                if case .loadFailed(let url, let message, _) = event { return "\(url): \(message)" }
                return nil
            }.first
            return [Row(setting: "home loads", passed: false, detail: failure ?? "no load within 30 s")]
        }
        var rows = [Row(setting: "home loads", passed: true, detail: url)]
        let profile = host.profile
        let view = page.view

        if let state = view.windowState {
            let covers = state.width == state.screenWidth && state.height == state.screenHeight
            let how = state.fullscreen ? "fullscreen" : covers ? "covers the screen (no window manager to ask for fullscreen)" : "windowed"
            rows.append(Row(setting: "fullscreen", passed: (state.fullscreen || covers) == profile.fullscreen,
                            detail: "\(how), \(state.width)x\(state.height) on a \(state.screenWidth)x\(state.screenHeight) screen"))
            rows.append(Row(setting: "undecorated", passed: state.decorated == profile.decorated,
                            detail: state.decorated ? "window decorated" : "no decorations"))
            rows.append(Row(setting: "background", passed: state.background == profile.background.description,
                            detail: "view background \(state.background)"))
        } else {
            rows.append(Row(setting: "window", passed: false, detail: "the view has no window on the display"))
        }

        func documentCursor() async -> String {
            let cursor = try? await view.evaluateJavaScript("getComputedStyle(document.documentElement).cursor", in: .isolated("hybridshell-check"))
            return cursor?.stringValue ?? "?"
        }
        switch profile.cursor {
        case .hidden:
            let cursor = await documentCursor()
            rows.append(Row(setting: "cursor hidden", passed: cursor == "none", detail: "document cursor: \(cursor)"))
        case .visible:
            let cursor = await documentCursor()
            rows.append(Row(setting: "cursor visible", passed: cursor != "none", detail: "document cursor: \(cursor)"))
        case .hiddenWhenIdle(let idle):
            // Move the pointer (the cursor shows), then stay still for the idle time (it hides).
            view.synthesize(.motion(x: 10, y: 10))
            let moving = await documentCursor()
            _ = await seen(since: events.count, within: idle + .milliseconds(500)) { _ in false }
            let still = await documentCursor()
            rows.append(Row(setting: "cursor hides when idle", passed: moving != "none" && still == "none",
                            detail: "document cursor \(moving) after a move, \(still) after \(idle.secondsText) still"))
        }

        let centre = (x: Double((view.windowState?.width ?? 800) / 2), y: Double((view.windowState?.height ?? 600) / 2))
        var mark = events.count
        view.synthesize(.click(button: 3, x: centre.x, y: centre.y))
        let suppressed = await seen(since: mark, within: .seconds(5)) { $0 == .contextMenuSuppressed }
        if profile.contextMenu {
            rows.append(Row(setting: "context menu", passed: !suppressed, detail: "allowed by the profile"))
        } else {
            rows.append(Row(setting: "context menu off", passed: suppressed, detail: suppressed ? "a right click showed no menu" : "no suppression seen"))
        }

        mark = events.count
        view.synthesize(.scroll(up: true, x: centre.x, y: centre.y, modifiers: .control))
        view.synthesize(.key("plus", modifiers: .control))
        view.synthesize(.pinch(scale: 2, x: centre.x, y: centre.y))
        let zoomBlocked = await seen(since: mark, within: .seconds(2)) { $0 == .inputBlocked("pinch (zoom)") }
        let level = view.windowState?.zoomLevel ?? 1
        if profile.zoom {
            rows.append(Row(setting: "zoom", passed: true, detail: "allowed by the profile"))
        } else {
            rows.append(Row(setting: "zoom off", passed: zoomBlocked && level == 1,
                            detail: "ctrl+scroll, ctrl+plus and pinch swallowed; zoom level \(level)"))
        }

        mark = events.count
        view.synthesize(.key("F5"))
        let reloadBlocked = await seen(since: mark, within: .seconds(2)) { $0 == .inputBlocked("F5 (reload)") }
        if profile.allowedShortcuts.contains(.reload) {
            rows.append(Row(setting: "shortcuts", passed: !reloadBlocked, detail: "reload allowed by the profile"))
        } else {
            rows.append(Row(setting: "shortcuts off", passed: reloadBlocked, detail: reloadBlocked ? "F5 swallowed" : "F5 reached the page"))
        }

        if host.allowList.allows(probe) {
            rows.append(Row(setting: "allow-list", passed: false, detail: "the allow-list admits \(probe); it allows everything"))
        } else {
            mark = events.count
            _ = try? await view.evaluateJavaScript("location.href = \(JSONValue.string(probe).jsonText); true", in: .isolated("hybridshell-check"))
            let blocked = await seen(since: mark, within: .seconds(5)) { $0 == .navigationBlocked(url: self.probe) }
            rows.append(Row(setting: "allow-list", passed: blocked, detail: blocked ? "a navigation to \(probe) was blocked" : "not blocked"))
        }

        let opened = try? await view.evaluateJavaScript("window.open(\(JSONValue.string(probe + "popup").jsonText)) === null", in: .page)
        if profile.windowOpen {
            rows.append(Row(setting: "window.open", passed: true, detail: "allowed by the profile (same view, allow-listed)"))
        } else {
            rows.append(Row(setting: "window.open denied", passed: opened == true, detail: opened == true ? "window.open returned null" : "window.open opened"))
        }

        let permission = try? await view.callAsyncJavaScript(
            "return typeof Notification === 'undefined' ? 'unsupported' : await Notification.requestPermission();")
        let granted = host.permissions.allows(PermissionRequest(kind: .notifications, origin: WebOrigin.of(url) ?? "null"))
        rows.append(Row(setting: "permissions", passed: permission?.stringValue == (granted ? "granted" : "denied"),
                        detail: "notifications → \(permission?.stringValue ?? "?") (profile: \(granted ? "granted" : "denied"))"))

        mark = events.count
        let heartbeat = await heartbeatAnswered(within: profile.heartbeatInterval + profile.heartbeatTimeout + .seconds(1))
        rows.append(Row(setting: "heartbeat", passed: heartbeat != nil,
                        detail: heartbeat.map { "answered in \(Int($0.rounded())) ms; a hang is declared after \(profile.heartbeatTimeout.secondsText)" } ?? "no answer"))

        rows.append(Row(setting: "idle reset", passed: true,
                        detail: profile.idleReset.map { "home after \($0.secondsText) without input\(profile.idleClearData ? ", data cleared" : "")" } ?? "off"))
        switch host.screenKeptOn {
        case nil: break
        case .resetTimers?:
            rows.append(Row(setting: "screen kept on", passed: true, detail: "X11 screen saver and DPMS timers reset every 30 s"))
        case .compositorInhibitor?:
            rows.append(Row(setting: "screen kept on", passed: true, detail: "Wayland idle inhibitor (zwp_idle_inhibit_manager_v1)"))
        case .unavailable(let reason)?:
            rows.append(Row(setting: "screen kept on", passed: false, detail: "unavailable: \(reason)"))
        }
        rows.append(Row(setting: "memory limit", passed: true,
                        detail: profile.memoryLimitMiB.map { "web process killed above \($0) MiB, then recovered" } ?? "none"))
        return rows
    }

    private func heartbeatAnswered(within timeout: Duration) async -> Double? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let answered = host.lastHeartbeatMilliseconds { return answered }
            _ = await seen(since: events.count, within: .milliseconds(250)) { _ in false }
        }
        return host.lastHeartbeatMilliseconds
    }

    /// The table as text: one row per setting, PASS or FAIL.
    public static func table(_ rows: [Row]) -> String {
        let width = rows.map(\.setting.count).max() ?? 0
        return rows.map { row in
            "\(row.passed ? "PASS" : "FAIL")  \(row.setting.padding(toLength: width, withPad: " ", startingAt: 0))  \(row.detail)"
        }.joined(separator: "\n")
    }
}
