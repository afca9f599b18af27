/// A page asking for a capability (`permission-request` with a `WebKitPermissionRequest`).
public struct PermissionRequest: Sendable, Equatable {
    /// What is asked for, by the kind of `WebKitPermissionRequest`.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case geolocation, notifications, camera, microphone
        case pointerLock = "pointer-lock"
        case mediaKeys = "media-keys"
        case deviceInfo = "device-info"
        case clipboard
        case websiteData = "website-data"
        case mediaPlugins = "media-plugins"
        /// A request of a kind this version does not know.
        case other
    }

    public let kind: Kind
    /// The origin of the top document that asked (`scheme://host[:port]`, `file://`, or `null`).
    public let origin: String

    public init(kind: Kind, origin: String) {
        self.kind = kind
        self.origin = origin
    }

    /// The kinds a profile may grant, by name.
    public static let kinds = Kind.allCases.filter { $0 != .other }.map(\.rawValue)
}
