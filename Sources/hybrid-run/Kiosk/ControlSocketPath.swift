import HybridShell
import Glibc

/// Where a kiosk listens for `hybrid-run ctl` when no path is given.
enum ControlSocketPath {
    /// `$XDG_RUNTIME_DIR/hybrid-run/kiosk.sock` when `XDG_RUNTIME_DIR` is set (to an absolute
    /// path, as the XDG spec requires), else `/tmp/hybrid-run-<uid>/kiosk.sock`.
    static func defaultPath(environment: [String: String], userID: UInt32) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? runtime : runtime + "/") + "hybrid-run/kiosk.sock"
        }
        return "/tmp/hybrid-run-\(userID)/kiosk.sock"
    }

    /// ``defaultPath(environment:userID:)`` for this process: its environment and effective user.
    static var `default`: String {
        var environment: [String: String] = [:]
        if let runtime = getenv("XDG_RUNTIME_DIR") { environment["XDG_RUNTIME_DIR"] = String(cString: runtime) }
        return defaultPath(environment: environment, userID: geteuid())
    }
}
