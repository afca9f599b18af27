/// Settings a page may override; nil means "as configured globally" (per-page configuration over the global one).
public struct PageSettings: Sendable {
    public var userAgent: UserAgent?
    public var headers: [WebRoute.Header]?
    public var timeout: Duration?
    public var cachePolicy: WebRoute.CachePolicy?
    public var dialogs: DialogMode?
    public var injection: BridgeConfiguration.Injection?
    public var newWindows: NewWindowMode?
    public var allowedOrigins: [OriginPattern]?

    public init() {}

    /// `other`'s values where it has them, else these.
    public func overridden(by other: PageSettings) -> PageSettings {
        var merged = self
        merged.userAgent = other.userAgent ?? userAgent
        merged.headers = other.headers ?? headers
        merged.timeout = other.timeout ?? timeout
        merged.cachePolicy = other.cachePolicy ?? cachePolicy
        merged.dialogs = other.dialogs ?? dialogs
        merged.injection = other.injection ?? injection
        merged.newWindows = other.newWindows ?? newWindows
        merged.allowedOrigins = other.allowedOrigins ?? allowedOrigins
        return merged
    }
}

/// How `alert`/`confirm`/`prompt` are answered; none of them ever blocks.
public enum DialogMode: String, Sendable, Equatable, SettingChoice {
    /// OK, and the prompt's default text.
    case accept
    /// Cancel, and `null` from prompt.
    case dismiss

    public var policy: DialogPolicy {
        switch self {
        case .accept: .automatic(confirm: true, prompt: .defaultText)
        case .dismiss: .automatic(confirm: false, prompt: .cancel)
        }
    }
}

/// What `window.open` and `target=_blank` do in a managed page.
public enum NewWindowMode: String, Sendable, Equatable, SettingChoice {
    /// Load the URL in the same view (the default).
    case sameView = "same-view"
    /// Push a new page on top of the stack.
    case newPage = "new-page"
    /// Ignore it.
    case deny
}
