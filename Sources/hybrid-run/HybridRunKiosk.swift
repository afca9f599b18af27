import ArgumentParser
import Foundation
import HybridShell

/// `hybrid-run kiosk`: one full-screen app, locked down and self-healing. A profile file gives the
/// settings; every setting is also a flag, and flags win. ``KioskCommand`` (in the library) runs it.
struct HybridRunKiosk: CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Run one web app full screen, locked down, recovering from crashes and hangs, remote-controllable.",
        usage: "hybrid-run kiosk [--config kiosk.toml] [--url URL-OR-PATH] [options]",
        discussion: """
            Examples:
              hybrid-run kiosk --config /etc/hybrid-run/lobby.toml
              hybrid-run kiosk --url https://dashboard.example/ --idle-reset 120
              hybrid-run kiosk --url /opt/app/ --control-socket /run/lobby/ctl.sock
              xvfb-run -a hybrid-run kiosk --config kiosk.toml --check

            The web process is reloaded at home when it crashes, runs out of memory (--memory-limit) or \
            hangs (no heartbeat answer within --heartbeat-timeout); more than --max-reloads times in \
            --reload-window shows an error page that tries again after --error-retry. A failed load \
            shows an error page that retries with back-off. See docs/kiosk.md for the profile keys and \
            a systemd unit.

            Exit codes: 0 stopped (SIGTERM, SIGINT, hybrid-run ctl quit) or --check all passed · \
            1 --check found a setting that did not take effect · 2 no display or cannot start · 4 usage or profile error.
            """
    )

    @Option(name: .long, help: ArgumentHelp("A kiosk profile (TOML or JSON): home, engine keys, and a [kiosk] section. Example: --config kiosk.toml", valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("The app: a URL, a file, or an offline directory (its index.html). Example: --url /opt/app/", valueName: "url-or-path"))
    var url: String?

    @Flag(name: .long, help: "Verify that every setting takes effect, print a PASS/FAIL table, and exit (0 only if all hold).")
    var check = false

    @OptionGroup var displayOption: DisplayOption

    @Flag(name: .long, help: "Write every kiosk event (and console message) as one JSON line on stdout.")
    var printEvents = false

    @Option(name: .long, help: ArgumentHelp("Replace the user agent. Example: --user-agent 'Lobby/1.0'", valueName: "string"))
    var userAgent: String?

    @Option(name: .long, help: ArgumentHelp("Append a token to WebKit's user agent. Example: --user-agent-suffix Lobby/1.0", valueName: "token"))
    var userAgentSuffix: String?

    @Option(name: .long, help: ArgumentHelp("Keep cookies and storage here. Default: ephemeral. Example: --data-dir /var/lib/lobby", valueName: "dir"))
    var dataDir: String?

    @Option(name: .long, help: ArgumentHelp("Full screen or a window: on (default) or off. Example: --fullscreen off", valueName: "on|off"))
    var fullscreen: String?

    @Option(name: .long, help: ArgumentHelp("Window size when not full screen. Example: --size 1024x768", valueName: "WxH"))
    var size: String?

    @Flag(name: .long, help: "Give the window decorations (title bar).")
    var decorated = false

    @Option(name: .long, help: ArgumentHelp("Colour shown behind and before the page. Default #000000. Example: --background '#102030'", valueName: "#rrggbb"))
    var background: String?

    @Option(name: .long, help: ArgumentHelp("Hide the mouse pointer: always (default), never, or after N idle seconds. Example: --hide-cursor 5", valueName: "always|never|seconds"))
    var hideCursor: String?

    @Flag(name: .long, help: "Allow the context menu (off by default).")
    var contextMenu = false

    @Flag(name: .long, help: "Allow zooming (ctrl+wheel, ctrl+plus/minus, pinch; off by default).")
    var zoom = false

    @Option(name: .long, help: ArgumentHelp("Allow a shortcut (repeatable): reload, back, forward, devtools, print, close, view-source. Example: --allow-shortcut reload", valueName: "name"))
    var allowShortcut: [String] = []

    @Option(name: .long, help: ArgumentHelp("A URL pattern the app may navigate to (repeatable; * = anything). Default: the home's origin. Example: --allow 'https://login.example/*'", valueName: "pattern"))
    var allow: [String] = []

    @Flag(name: .long, help: "Let window.open and target=_blank load (in the same view, allow-listed).")
    var windowOpen = false

    @Option(name: .long, help: ArgumentHelp("Grant permissions to an origin (repeatable); everything else is denied. Example: --permission 'https://app.example=geolocation,notifications'", valueName: "origin=kind,…"))
    var permission: [String] = []

    @Option(name: .long, help: ArgumentHelp("Go home after this many seconds without input (0: never). Example: --idle-reset 120", valueName: "seconds"))
    var idleReset: Double?

    @Flag(name: .long, help: "On an idle reset, also clear cookies and storage.")
    var idleClearData = false

    @Flag(name: .long, help: "Let the screen blank (held off by default: X11 screen-saver and DPMS timers reset, or a Wayland idle inhibitor).")
    var allowScreensaver = false

    @Option(name: .long, help: ArgumentHelp("Kill and recover a web process above this many MiB. Example: --memory-limit 1024", valueName: "MiB"))
    var memoryLimit: Int?

    @Option(name: .long, help: ArgumentHelp("Seconds between heartbeats (default 2). Example: --heartbeat-interval 2", valueName: "seconds"))
    var heartbeatInterval: Double?

    @Option(name: .long, help: ArgumentHelp("Seconds a heartbeat may take before the page counts as hung (default 4). Example: --heartbeat-timeout 4", valueName: "seconds"))
    var heartbeatTimeout: Double?

    @Option(name: .long, help: ArgumentHelp("Reloads after crashes or hangs allowed per --reload-window (default 3). Example: --max-reloads 3", valueName: "n"))
    var maxReloads: Int?

    @Option(name: .long, help: ArgumentHelp("The window for --max-reloads, in seconds (default 60). Example: --reload-window 60", valueName: "seconds"))
    var reloadWindow: Double?

    @Option(name: .long, help: ArgumentHelp("Seconds the error page waits before trying the app again (default 180). Example: --error-retry 180", valueName: "seconds"))
    var errorRetry: Double?

    @Option(name: .long, help: ArgumentHelp("Listen for hybrid-run ctl on this UNIX socket (owner only). Example: --control-socket /run/lobby/ctl.sock", valueName: "path"))
    var controlSocket: String?

    @Option(name: .long, help: ArgumentHelp("Write the process id here while running. Example: --pid-file /run/lobby/kiosk.pid", valueName: "path"))
    var pidFile: String?

    func checkFlags() throws {
        if config == nil, url == nil { throw ValidationError("give the app with --url URL-OR-PATH or a profile with --config FILE") }
        if userAgent != nil, userAgentSuffix != nil { throw ValidationError("--user-agent and --user-agent-suffix exclude each other") }
    }

    func profile() throws -> KioskProfile {
        var profile = try config.map { try KioskProfile.load(path: $0) } ?? KioskProfile(home: url ?? "")
        if let url {
            profile.home = url
            _ = try WebRoute(url).request()
        }
        if let userAgent { profile.shell.defaults.userAgent = .custom(userAgent) }
        if let userAgentSuffix { profile.shell.defaults.userAgent = .appending(userAgentSuffix) }
        try profile.shell.defaults.userAgent?.validate()
        if let dataDir { profile.shell.storage = .persistent(directory: dataDir) }
        if let fullscreen {
            guard ["on", "off"].contains(fullscreen) else { throw ShellError.invalidArgument("--fullscreen takes on or off, not \(JSONValue.quoted(fullscreen))") }
            profile.fullscreen = fullscreen == "on"
        }
        if let size {
            (profile.shell.width, profile.shell.height) = try ViewportSize.parse(size)
        }
        if decorated { profile.decorated = true }
        if let background { profile.background = try flag("--background") { try KioskColor(parsing: background) } }
        if let hideCursor { profile.cursor = try flag("--hide-cursor") { try KioskProfile.parseCursor(.string(hideCursor)) } }
        if contextMenu { profile.contextMenu = true }
        if zoom { profile.zoom = true }
        if !allowShortcut.isEmpty { profile.allowedShortcuts = try flag("--allow-shortcut") { try KioskProfile.shortcuts(allowShortcut) } }
        if !allow.isEmpty { profile.allow = try flag("--allow") { try KioskProfile.allowPatterns(allow) } }
        if windowOpen { profile.windowOpen = true }
        for grant in permission {
            guard let equals = grant.lastIndex(of: "="), equals != grant.startIndex else {
                throw ShellError.invalidArgument("--permission takes ORIGIN=kind,kind, not \(JSONValue.quoted(grant))")
            }
            let kinds = grant[grant.index(after: equals)...].split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            profile.permissions.append(try flag("--permission") { try KioskProfile.permission(origin: String(grant[..<equals]), kinds: kinds) })
        }
        if let idleReset { profile.idleReset = try seconds("--idle-reset", idleReset, allowZero: true).flatMap { $0 == .zero ? nil : $0 } }
        if idleClearData { profile.idleClearData = true }
        if allowScreensaver { profile.inhibitScreenSaver = false }
        if let memoryLimit {
            guard (0...1_048_576).contains(memoryLimit) else { throw ShellError.invalidArgument("--memory-limit takes 0 to 1048576 MiB, not \(memoryLimit)") }
            profile.memoryLimitMiB = memoryLimit == 0 ? nil : memoryLimit
        }
        if let heartbeatInterval { profile.heartbeatInterval = try seconds("--heartbeat-interval", heartbeatInterval)! }
        if let heartbeatTimeout { profile.heartbeatTimeout = try seconds("--heartbeat-timeout", heartbeatTimeout)! }
        if let maxReloads {
            guard (0...100).contains(maxReloads) else { throw ShellError.invalidArgument("--max-reloads takes 0 to 100, not \(maxReloads)") }
            profile.shell.crashRecovery.maxReloads = maxReloads
        }
        if let reloadWindow { profile.shell.crashRecovery.window = try seconds("--reload-window", reloadWindow)! }
        if let errorRetry { profile.errorRetry = try seconds("--error-retry", errorRetry)! }
        if let controlSocket { profile.controlSocket = absolute(controlSocket) }
        if let pidFile { profile.pidFile = absolute(pidFile) }
        return profile
    }

    private func flag<T>(_ name: String, _ read: () throws -> T) throws -> T {
        do { return try read() } catch { throw ShellError.invalidArgument("\(name): \(error)") }
    }

    private func seconds(_ name: String, _ value: Double, allowZero: Bool = false) throws -> Duration? {
        guard value.isFinite, value > 0 || (allowZero && value == 0), value <= 604_800 else {
            throw ShellError.invalidArgument("\(name) takes a positive number of seconds, not \(value)")
        }
        return .milliseconds(Int64((value * 1000).rounded()))
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
