import Foundation

/// The `--expires` of `package pack` and `package index`: an ISO 8601 instant
/// (`2027-01-31T12:00:00Z`) or a bare date (`2027-01-31`), which means the end of that day in UTC
/// (23:59:59Z) — a package "valid until the 31st" stays valid through the 31st. A date already past
/// is refused: the package or index would be refused by every installer the moment it is made.
package enum PackageExpiry {
    /// The expiry instant `text` names, or why it cannot be one.
    public static func parse(_ text: String, now: Date = Date()) throws(PackageError) -> Date {
        let formatter = ISO8601DateFormatter()
        var date = formatter.date(from: text)
        if date == nil {
            formatter.formatOptions = [.withFullDate]
            // The formatter reads the date as midnight UTC; the last second of that day is what is meant.
            date = formatter.date(from: text).map { $0.addingTimeInterval(86_399) }
        }
        guard let date else { throw .invalidManifest("--expires \(text) is not a date like 2027-01-31 or 2027-01-31T12:00:00Z") }
        guard date > now else {
            throw .invalidManifest("--expires \(text) is in the past (\(PackageBuilder.isoString(date))): installers would refuse it at once")
        }
        return date
    }
}
