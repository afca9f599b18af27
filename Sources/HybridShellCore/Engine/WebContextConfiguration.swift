/// What a ``WebContext`` is built from: the one place to configure the engine state that views
/// share and that must be set before any view exists. ``PageManager``, the page-test executor and
/// the kiosk all build their context from one of these, so a setting added here reaches all three.
public struct WebContextConfiguration: Sendable {
    /// Where a context keeps cookies, local storage and caches (`WebKitWebsiteDataManager`'s
    /// directories, or none).
    public enum Storage: Sendable, Equatable {
        /// Nothing is written to disk; everything is gone when the process exits.
        case ephemeral
        /// Cookies (SQLite), local storage and caches persist in this directory.
        case persistent(directory: String)
    }

    /// Where cookies, local storage and caches live.
    public var storage: Storage = .ephemeral
    /// Applies the start-up tuning measured under Xvfb (see bench/README.md); only the first
    /// context of a process can.
    public var headless = true
    /// When set, a web process that grows past it is killed by WebKit and its views report
    /// ``WebProcessTerminationReason/exceededMemoryLimit`` (`WebKitMemoryPressureSettings`).
    public var memoryLimitMiB: Int?
    /// Custom URL schemes and their handlers (see ``SchemeRegistration``).
    public var schemes: [SchemeRegistration] = []
    /// Web-process extensions to load: a directory of `.so` files and the `a{ss}` data they get
    /// (the offline packages' path map, see ``PathMapExtension``).
    public var webExtensions: (directory: String, data: [String: String])?

    public init(storage: Storage = .ephemeral, headless: Bool = true, memoryLimitMiB: Int? = nil,
                schemes: [SchemeRegistration] = []) {
        self.storage = storage
        self.headless = headless
        self.memoryLimitMiB = memoryLimitMiB
        self.schemes = schemes
    }
}
