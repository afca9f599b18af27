/// What the update manager for pages tells pages and the `--print-events` output: a check's result,
/// a newer version installed (ready to show), a failure, a page that applied an update. Made by
/// ``PackageUpdateTracker`` from the store's results.
public enum PackageUpdateEvent: Sendable, Equatable, CustomStringConvertible {
    /// A check verified the update index; `available` apps have a newer version than installed.
    case checked(available: [String])
    /// A newer version of `appID` is installed: pages on an older one may apply it.
    case ready(appID: String, version: String, sequence: Int64)
    /// A check or an install failed (`appID` nil: the index itself); what is installed is unchanged.
    case failed(appID: String?, reason: String)
    /// A page asked to show the newer version and is being reloaded into it.
    case applied(appID: String, sequence: Int64)

    public var description: String {
        switch self {
        case .checked(let available): "update.checked available=\(available.joined(separator: ","))"
        case .ready(let app, let version, let sequence): "update.ready \(app) \(version) sequence=\(sequence)"
        case .failed(let app, let reason): "update.failed \(app ?? "-") \(reason)"
        case .applied(let app, let sequence): "update.applied \(app) sequence=\(sequence)"
        }
    }
}
