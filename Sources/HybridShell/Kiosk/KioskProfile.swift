import Foundation
import HybridShellCore
import HybridShellWebKit

/// Everything `hybrid-run kiosk` runs with: the app, the window, what the user may do, and how the
/// host heals itself. Built from a profile file's `[kiosk]` section and flags (flags win).
public struct KioskProfile: Sendable {
    public enum Cursor: Sendable, Equatable {
        case visible
        case hidden
        /// Hidden after this long without pointer movement, shown again on movement.
        case hiddenWhenIdle(Duration)
    }

    /// The app: a URL, a local file, or an offline directory (its `index.html`).
    public var home: String
    /// Engine settings shared with `hybrid-run --url` (user agent, data directory, crash recovery…).
    public var shell = ShellConfiguration()

    public var fullscreen = true
    public var decorated = false
    /// Shown behind and before the page (`#rrggbb`): no white flash on start or reload.
    package var background = KioskColor(red: 0, green: 0, blue: 0)
    public var cursor = Cursor.hidden
    public var contextMenu = false
    public var zoom = false
    public var allowedShortcuts: Set<KioskShortcut> = []
    /// URL patterns (`*` = any run of characters) the app may navigate to; empty: the home's own
    /// origin (for files: the home's directory).
    public var allow: [String] = []
    /// Whether `window.open` / `target=_blank` may open (in the same view, still allow-listed).
    public var windowOpen = false
    /// Permissions granted per origin pattern; everything else is denied.
    public var permissions: [(origin: OriginPattern, kinds: Set<String>)] = []
    /// Go home after this long without input; nil: never.
    public var idleReset: Duration?
    /// Also clear cookies and storage on an idle reset.
    public var idleClearData = false
    public var inhibitScreenSaver = true
    /// A web process past this is killed by WebKit and treated as a crash; nil: no limit.
    public var memoryLimitMiB: Int?
    /// The page must answer a heartbeat this often…
    public var heartbeatInterval: Duration = .seconds(2)
    /// …within this long, or it is hung and its web process is replaced.
    public var heartbeatTimeout: Duration = .seconds(4)
    /// After the crash cap: how often the error page tries the app again.
    public var errorRetry: Duration = .seconds(180)
    /// After a failed load (network down): the delays between retries (the last repeats).
    public var loadRetry: [Duration] = [.seconds(2), .seconds(5), .seconds(15), .seconds(30), .seconds(60)]
    /// The remote-control socket; nil: none.
    public var controlSocket: String?
    public var pidFile: String?

    public init(home: String) {
        self.home = home
        shell.poolSize = 0
        shell.window = .visible(fullscreen: true, decorated: false, title: "HybridShell kiosk")
        shell.defaults.newWindows = .deny
    }

    /// The window the profile asks for.
    var window: WebViewConfiguration.Window {
        .visible(fullscreen: fullscreen, decorated: decorated, title: "HybridShell kiosk")
    }
}

/// An sRGB colour parsed from `#rgb` or `#rrggbb`.
package struct KioskColor: Sendable, Equatable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public init(parsing text: String) throws(ShellError) {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : ""
        let digits = hex.count == 3 ? hex.map { "\($0)\($0)" }.joined() : hex
        guard digits.count == 6, let value = Int(digits, radix: 16) else {
            throw .invalidArgument("a colour is #rrggbb or #rgb, like #000000, not \(JSONValue.quoted(text))")
        }
        red = Double((value >> 16) & 0xFF) / 255
        green = Double((value >> 8) & 0xFF) / 255
        blue = Double(value & 0xFF) / 255
    }

    public var description: String {
        String(format: "#%02x%02x%02x", Int((red * 255).rounded()), Int((green * 255).rounded()), Int((blue * 255).rounded()))
    }
}
