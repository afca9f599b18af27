/// What one page is told about updates of its app (`hybrid.updates.check()`'s answer, the
/// `hasUpdate` of `wx.getUpdateManager().onCheckForUpdate`).
public struct PackageUpdateStatus: Sendable, Equatable {
    /// A version newer than the page's is offered by the last index or already installed.
    public var hasUpdate: Bool
    /// A version newer than the page's is installed: `apply()` shows it.
    public var ready: Bool
    /// A check is running.
    public var checking: Bool
    /// At least one check has finished in this run.
    public var checked: Bool
    /// The installed version `apply()` would show (when ready).
    public var version: String?
    public var sequence: Int64?
    /// The last failure for this app (or of the index), cleared by a later success.
    public var failure: String?

    public init(hasUpdate: Bool, ready: Bool, checking: Bool, checked: Bool, version: String? = nil, sequence: Int64? = nil, failure: String? = nil) {
        self.hasUpdate = hasUpdate
        self.ready = ready
        self.checking = checking
        self.checked = checked
        self.version = version
        self.sequence = sequence
        self.failure = failure
    }
}
