import HybridShell

/// One line of `hybrid-run doctor`: what was checked, how it went, and the one-line fix.
struct DoctorCheck: Equatable, Sendable {
    enum Status: String, Sendable {
        case pass = "PASS"
        case warn = "WARN"
        case fail = "FAIL"
    }

    let name: String
    let status: Status
    let detail: String
    /// What to do about a WARN or FAIL (nil for a PASS).
    let fix: String?

    static func pass(_ name: String, _ detail: String) -> DoctorCheck { DoctorCheck(name: name, status: .pass, detail: detail, fix: nil) }
    static func warn(_ name: String, _ detail: String, fix: String) -> DoctorCheck { DoctorCheck(name: name, status: .warn, detail: detail, fix: fix) }
    static func fail(_ name: String, _ detail: String, fix: String) -> DoctorCheck { DoctorCheck(name: name, status: .fail, detail: detail, fix: fix) }

    /// `--json`: {"check", "status" (pass, warn, fail), "detail", "fix"}.
    var json: JSONValue {
        ["check": .string(name), "status": .string(status.rawValue.lowercased()), "detail": .string(detail),
         "fix": fix.map(JSONValue.string) ?? .null]
    }

    /// The text line: status, name, detail, and the fix after an arrow.
    var line: String {
        let padded = name.padding(toLength: max(name.count, 12), withPad: " ", startingAt: 0)
        return "\(status.rawValue)  \(padded)  \(detail)" + (fix.map { " → \($0)" } ?? "")
    }
}
