import Foundation

/// The `User-Agent` a view sends and `navigator.userAgent` reports.
public enum UserAgent: Sendable, Equatable {
    /// WebKitGTK's own.
    case engineDefault
    /// WebKitGTK's own followed by a space and an application token such as `MyApp/1.2`.
    case appending(String)
    /// Exactly this string.
    case custom(String)

    /// The full string for a given engine default.
    public func resolved(engineDefault: String) -> String {
        switch self {
        case .engineDefault: engineDefault
        case .appending(let suffix): suffix.isEmpty ? engineDefault : "\(engineDefault) \(suffix)"
        case .custom(let value): value
        }
    }

    /// Checks the value can go into an HTTP header.
    public func validate() throws(ShellError) {
        let value: String
        switch self {
        case .engineDefault: return
        case .appending(let suffix): value = suffix
        case .custom(let custom):
            value = custom
            if custom.trimmingCharacters(in: .whitespaces).isEmpty {
                throw .invalidArgument("the user agent must not be empty")
            }
        }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0.value > 0x7E }) {
            throw .invalidArgument("the user agent may only hold printable ASCII characters: \(JSONValue.quoted(value))")
        }
    }
}
