/// A page asking for a capability (`permission-request` with a `WebKitPermissionRequest`).
public struct PermissionRequest: Sendable, Equatable {
    /// `geolocation`, `notifications`, `camera`, `microphone`, `pointer-lock`, `media-keys`,
    /// `device-info`, `clipboard`, `website-data`, `media-plugins`, or `other`.
    public let kind: String
    /// The origin of the top document that asked (`scheme://host[:port]`, `file://`, or `null`).
    public let origin: String

    public init(kind: String, origin: String) {
        self.kind = kind
        self.origin = origin
    }

    public static let kinds = ["geolocation", "notifications", "camera", "microphone", "pointer-lock", "media-keys",
                               "device-info", "clipboard", "website-data", "media-plugins"]
}
