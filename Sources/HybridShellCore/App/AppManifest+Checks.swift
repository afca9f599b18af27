import Foundation

extension AppManifest {
    /// Schemes a deep link may not claim: the web's own, and the ones HybridShell serves itself.
    static let reservedSchemes: Set<String> = ["http", "https", "file", "ftp", "ws", "wss", "about", "data", "blob", "javascript",
                                               "mailto", "resource", PackageSchemeHandler.scheme, "hybrid-file"]

    /// Why `id` is not a reverse-DNS app id, or nil. The rules are the intersection of
    /// GApplication's (`g_application_id_is_valid`), AppStream's component ids and package app ids:
    /// two or more dot-separated parts of ASCII letters, digits and `_`, none starting with a digit.
    public static func idProblem(_ id: String) -> String? {
        guard !id.isEmpty, id.utf8.count <= 128 else { return "must be 1 to 128 characters" }
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return "is not reverse-DNS: write it like org.example.Shop" }
        for part in parts {
            guard let first = part.utf8.first else { return "has an empty part between dots" }
            if part.contains("-") { return "must not contain '-' (D-Bus and AppStream ids): use '_'" }
            guard part.utf8.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }) else {
                return "may only contain ASCII letters, digits, '_' and dots"
            }
            if isDigit(first) { return "has a part starting with a digit (\(part))" }
        }
        return nil
    }

    /// Why `version` cannot be a Debian and AppStream version, or nil: it starts with a digit and
    /// holds only letters, digits, `.`, `+`, `~` and `-`.
    public static func versionProblem(_ version: String) -> String? {
        guard let first = version.utf8.first, isDigit(first) else { return "must start with a digit, like 1.0.0" }
        let allowed = version.utf8.allSatisfy { isLetter($0) || isDigit($0) || [UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "~"), UInt8(ascii: "-")].contains($0) }
        return allowed ? nil : "may only contain letters, digits, '.', '+', '~' and '-'"
    }

    /// Why `scheme` cannot be a deep-link scheme, or nil (RFC 3986 syntax, not a reserved one).
    public static func schemeProblem(_ scheme: String) -> String? {
        guard let first = scheme.utf8.first, isLetter(first),
              scheme.utf8.allSatisfy({ isLetter($0) || isDigit($0) || [UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "-")].contains($0) })
        else { return "is not a URL scheme (a letter, then letters, digits, '+', '.', '-'; no \"://\")" }
        if reservedSchemes.contains(scheme.lowercased()) { return "is reserved (the web's or HybridShell's own)" }
        return nil
    }

    /// Why `command` cannot be a command in `/usr/bin`, or nil.
    public static func commandProblem(_ command: String) -> String? {
        guard let first = command.utf8.first, isLowerOrDigit(first), command.utf8.count <= 64,
              command.utf8.allSatisfy({ isLowerOrDigit($0) || [UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_")].contains($0) })
        else { return "must be 1 to 64 lower-case letters, digits, '+', '.', '-' and '_', starting with a letter or digit" }
        return nil
    }

    /// The id's last part, lower-cased, `_` as `-`: `org.example.Shop_App` → `shop-app`.
    public static func defaultCommand(for id: String) -> String {
        String(id.split(separator: ".").last ?? Substring(id)).lowercased().replacingOccurrences(of: "_", with: "-")
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    private static func isLowerOrDigit(_ byte: UInt8) -> Bool { (byte >= 97 && byte <= 122) || isDigit(byte) }
}
