import Logging
import HybridShellCore
import HybridShellWebKit

/// The global configuration of a ``PageManager`` (global settings) with per-page
/// overrides, from code or from a file (`hybrid-run --config FILE`, TOML or JSON).
public struct ShellConfiguration: Sendable {
    /// What every page gets unless overridden.
    public var defaults: PageSettings
    /// Overrides for pages whose URL matches a pattern (`*` matches anything), first match wins.
    public var pages: [(match: String, settings: PageSettings)] = []
    /// Views kept pre-warmed (web process started, bridge installed, blank document loaded).
    public var poolSize = 1
    /// The pool sizes a flag or a file may ask for.
    public static let poolSizes = 0...16
    /// At most this many live pages; opening one more fails.
    public var maxPages = 8
    /// The engine state pages share (storage, memory limit, …); `headless` follows ``window``.
    public var context = WebContextConfiguration()
    /// Where cookies, local storage and caches live: ``context``'s.
    public var storage: WebContext.Storage {
        get { context.storage }
        set { context.storage = newValue }
    }
    public var crashRecovery = CrashRecoveryPolicy()
    /// Extra views share the first view's web process: less memory, but one crash takes all.
    public var sharedProcess = false
    public var window: WebViewConfiguration.Window = .offscreen
    public var width = 1280
    public var height = 800
    /// Lets the Web Inspector attach to every page.
    public var developerExtras = false
    /// Lets `file:` pages read other local files (`allow_file_access`, `--allow-file-access`);
    /// see ``WebViewConfiguration/allowsFileAccessFromFileURLs``.
    public var allowFileAccess = false
    /// The least important log records an app shows (`log_level`); nil: the app's default.
    public var logLevel: Logger.Level?
    /// Files and streams native handlers hand to pages as `hybrid-file://` URLs
    /// (`BridgeCall.share(file:in:)`), registered on the context; nil for none.
    public var fileShares: FileShares? = FileShares()
    /// Binary streams pages open with `hybrid.stream(name, options)` (``ByteStreams/register(_:_:)``
    /// a native side per name), on the `hybrid-stream:` scheme; nil for none.
    public var byteStreams: ByteStreams? = ByteStreams()
    /// Directories served on custom schemes (`dir_handlers`, `--dir-handler`); see ``DirectoryMount``.
    public var dirHandlers: [DirectoryMount] = []
    /// Built-in native modules and who may use them (`modules`, `[[capability]]`).
    public var modules = ModuleConfiguration()

    public init() {
        defaults = PageSettings()
        defaults.userAgent = .engineDefault
        defaults.headers = []
        defaults.timeout = .seconds(30)
        defaults.cachePolicy = .useProtocol
        defaults.dialogs = .accept
        defaults.injection = .documentStart
        defaults.newWindows = .sameView
        defaults.allowedOrigins = []
    }

    /// The settings for a page at `url`: the defaults, the first matching page override, then
    /// what the caller passed when opening it.
    public func settings(for url: String, overrides: PageSettings = PageSettings()) -> PageSettings {
        var settings = defaults
        if let match = pages.first(where: { URLPattern.matches($0.match, url) }) {
            settings = settings.overridden(by: match.settings)
        }
        return settings.overridden(by: overrides)
    }
}

/// Glob matching of URLs: `*` stands for any run of characters.
public enum URLPattern {
    public static func matches(_ pattern: String, _ url: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return pattern == url }
        guard url.hasPrefix(parts.first!), url.dropFirst(parts.first!.count).hasSuffix(parts.last!) else { return false }
        var rest = Substring(url).dropFirst(parts.first!.count)
        rest = rest.dropLast(parts.last!.count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}
