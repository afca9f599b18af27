/// What the store reports while it checks, installs, updates and rolls back; the CLI prints these
/// as `--print-events` lines, an app can use them to decide when to switch.
public enum PackageEvent: Sendable, Equatable, CustomStringConvertible {
    /// An update index was fetched and verified; `available` apps have something newer.
    case checked(source: String, available: [String])
    /// An install or update of `appID` to `sequence` began.
    case started(appID: String, sequence: Int64, incremental: Bool)
    /// The new version is active.
    case installed(appID: String, version: String, sequence: Int64)
    /// An install or update failed; the old version is still active.
    case failed(appID: String?, reason: String)
    /// The previous version is active again.
    case rolledBack(appID: String, sequence: Int64)
    /// An app was removed.
    case removed(appID: String)

    public var description: String {
        switch self {
        case .checked(let source, let available): "package.checked \(source) available=\(available.joined(separator: ","))"
        case .started(let app, let sequence, let incremental): "package.started \(app) sequence=\(sequence)\(incremental ? " incremental" : "")"
        case .installed(let app, let version, let sequence): "package.installed \(app) \(version) sequence=\(sequence)"
        case .failed(let app, let reason): "package.failed \(app ?? "-") \(reason)"
        case .rolledBack(let app, let sequence): "package.rolledBack \(app) sequence=\(sequence)"
        case .removed(let app): "package.removed \(app)"
        }
    }
}
