import Foundation
import HybridShellCore
import HybridShellWebKit

extension KioskProfile {
    static let kioskKeys: Set<String> = [
        "fullscreen", "decorated", "background", "hide_cursor", "context_menu", "zoom", "allow_shortcuts", "allow",
        "window_open", "permissions", "idle_reset", "idle_clear_data", "inhibit_screensaver", "memory_limit_mb",
        "heartbeat_interval", "heartbeat_timeout", "error_retry", "load_retry", "control_socket", "pid_file",
    ]

    /// Reads a profile: `home` and the engine keys of `hybrid-run --config` at the top level, the
    /// kiosk's own in `[kiosk]`. Relative paths are relative to the profile's directory (a systemd
    /// service starts elsewhere). Every problem names the file, the line and the key.
    public static func load(path: String) throws(ShellError) -> KioskProfile {
        let reader = ConfigReader(try ConfigDocument.load(path: path))
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try read(reader, relativeTo: directory)
    }

    /// - Parameter checkHome: whether `home` must be loadable now (a local home must exist).
    public static func read(_ reader: ConfigReader, relativeTo directory: String, checkHome: Bool = true) throws(ShellError) -> KioskProfile {
        let shell = try ShellConfiguration.read(reader, extraSections: ["home", "kiosk"])
        guard let home = try reader.string("home"), !home.isEmpty else {
            throw reader.error(nil, "a kiosk profile needs home = \"URL, file or directory\" at the top")
        }
        var profile = KioskProfile(home: isPathLike(home) ? absolute(home, directory) : home)
        profile.shell.defaults = shell.defaults
        profile.shell.pages = shell.pages
        profile.shell.storage = shell.storage
        // ShellConfiguration resolves it against the file's directory; a caller's `directory` wins.
        if case .persistent = shell.storage, let data = try reader.string("data_dir") {
            profile.shell.storage = .persistent(directory: absolute(data, directory))
        }
        profile.shell.crashRecovery = shell.crashRecovery
        profile.shell.dirHandlers = shell.dirHandlers
        // Native modules (`modules`, `[[capability]]`, `[module_settings]`), as in a --config file.
        profile.shell.modules = shell.modules
        if reader.members["pool"] != nil { profile.shell.poolSize = shell.poolSize }
        do {
            // A home on a directory-handler scheme (`app://…` of an app bundled with --kiosk) is a URL too.
            var route = WebRoute(profile.home)
            route.customSchemes = shell.customSchemes
            if checkHome { _ = try route.request() }
        } catch {
            throw reader.error("home", error.description)
        }
        if let kiosk = try reader.table("kiosk") { try profile.apply(kiosk, relativeTo: directory) }
        return profile
    }

    mutating func apply(_ kiosk: ConfigReader, relativeTo directory: String) throws(ShellError) {
        try kiosk.rejectUnknownKeys(Self.kioskKeys)
        fullscreen = try kiosk.bool("fullscreen") ?? fullscreen
        decorated = try kiosk.bool("decorated") ?? decorated
        if let colour = try kiosk.string("background") {
            do { background = try KioskColor(parsing: colour) } catch { throw kiosk.error("background", error.description) }
        }
        if let value = kiosk.members["hide_cursor"] {
            do { cursor = try Self.parseCursor(value) } catch { throw kiosk.error("hide_cursor", error.description) }
        }
        contextMenu = try kiosk.bool("context_menu") ?? contextMenu
        zoom = try kiosk.bool("zoom") ?? zoom
        if let names = try kiosk.strings("allow_shortcuts") {
            do { allowedShortcuts = try Self.shortcuts(names) } catch { throw kiosk.error("allow_shortcuts", error.description) }
        }
        if let patterns = try kiosk.strings("allow") {
            do { allow = try Self.allowPatterns(patterns) } catch { throw kiosk.error("allow", error.description) }
        }
        windowOpen = try kiosk.bool("window_open") ?? windowOpen
        if let table = try kiosk.table("permissions") {
            for origin in table.members.keys.sorted() {
                guard let kinds = try table.strings(origin) else { continue }
                do { permissions.append(try Self.permission(origin: origin, kinds: kinds)) } catch { throw table.error(origin, error.description) }
            }
        }
        if let idle = try kiosk.seconds("idle_reset", in: 0...604_800) { idleReset = idle == .zero ? nil : idle }
        idleClearData = try kiosk.bool("idle_clear_data") ?? idleClearData
        inhibitScreenSaver = try kiosk.bool("inhibit_screensaver") ?? inhibitScreenSaver
        if let limit = try kiosk.int("memory_limit_mb", in: 0...1_048_576) { memoryLimitMiB = limit == 0 ? nil : limit }
        heartbeatInterval = try kiosk.seconds("heartbeat_interval", in: 0.1...60) ?? heartbeatInterval
        heartbeatTimeout = try kiosk.seconds("heartbeat_timeout", in: 0.1...60) ?? heartbeatTimeout
        errorRetry = try kiosk.seconds("error_retry", in: 1...86_400) ?? errorRetry
        if let retries = kiosk.members["load_retry"] {
            guard let items = retries.arrayValue, !items.isEmpty,
                  let seconds = Optional(items.compactMap(\.doubleValue)), seconds.count == items.count, seconds.allSatisfy({ $0 >= 0.1 && $0 <= 86_400 })
            else { throw kiosk.error("load_retry", "expected a non-empty array of seconds (0.1 to 86400), like [2, 5, 15, 60]") }
            loadRetry = seconds.map { .milliseconds(Int64($0 * 1000)) }
        }
        if let socket = try kiosk.string("control_socket") { controlSocket = socket.isEmpty ? nil : Self.absolute(socket, directory) }
        if let pid = try kiosk.string("pid_file") { pidFile = pid.isEmpty ? nil : Self.absolute(pid, directory) }
    }

    // MARK: Values shared by the file and the flags

    /// `always`, `never`, or a number of idle seconds.
    public static func parseCursor(_ value: JSONValue) throws(ShellError) -> Cursor {
        if let text = value.stringValue {
            switch text {
            case "always": return .hidden
            case "never": return .visible
            default:
                if let seconds = Double(text) { return try parseCursor(.number(seconds)) }
            }
        }
        guard let seconds = value.doubleValue, seconds > 0, seconds <= 86_400 else {
            throw .invalidArgument("expected \"always\", \"never\" or a number of idle seconds, got \(value.jsonText)")
        }
        return .hiddenWhenIdle(.milliseconds(Int64(seconds * 1000)))
    }

    public static func shortcuts(_ names: [String]) throws(ShellError) -> Set<KioskShortcut> {
        var result: Set<KioskShortcut> = []
        for name in names {
            guard let shortcut = KioskShortcut(rawValue: name) else {
                throw .invalidArgument("unknown shortcut \(JSONValue.quoted(name)) (known: \(KioskShortcut.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            result.insert(shortcut)
        }
        return result
    }

    public static func allowPatterns(_ patterns: [String]) throws(ShellError) -> [String] {
        for pattern in patterns where !pattern.contains("://") && !pattern.hasPrefix("about:") && pattern != "*" {
            throw .invalidArgument("allow-list pattern \(JSONValue.quoted(pattern)) needs a scheme, like https://app.example/* or file:///opt/app/*")
        }
        return patterns
    }

    public static func permission(origin: String, kinds: [String]) throws(ShellError) -> (origin: OriginPattern, kinds: Set<String>) {
        for kind in kinds where kind != "*" && !PermissionRequest.kinds.contains(kind) {
            throw .invalidArgument("unknown permission \(JSONValue.quoted(kind)) (known: \(PermissionRequest.kinds.joined(separator: ", ")), *)")
        }
        return (try OriginPattern(parsing: origin), Set(kinds))
    }

    /// A home that is not written as a URL is a path.
    static func isPathLike(_ home: String) -> Bool {
        !home.contains("://") && !home.hasPrefix("about:") && !home.hasPrefix("data:")
    }

    static func absolute(_ path: String, _ directory: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: directory).appendingPathComponent(path).standardizedFileURL.path
    }
}
